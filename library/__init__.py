"""Ready-made, parameterized mechanisms built only from blocks. Each exposes ``frame_a`` to
mount on a World: ``jd.Model.on_world(World(), pendulum=Pendulum())``."""
from .balancing import BalancedCubeOnCorner, BalancedCubeOnEdge
from .bicycle import WhippleBicycle
from .cartpole import CartPole
from .cube import CubeOnEdge
from .cube_corner import CubeOnCorner
from .linkages import CrankSlider, FourBar
from .pendulums import DoublePendulum, ElasticJointArm, NLinkPendulum, Pendulum, SpringDamperChain
from .spatial_linkages import RSSR
from .trees import RandomTree
from .wheel import AngleRollingDisk, DifferentialDrive, RollingDisk, Wheel

__all__ = ["AngleRollingDisk", "BalancedCubeOnCorner", "BalancedCubeOnEdge", "CartPole",
           "CrankSlider", "CubeOnCorner", "CubeOnEdge", "DifferentialDrive", "DoublePendulum",
           "ElasticJointArm", "FourBar", "NLinkPendulum", "Pendulum", "RandomTree", "RollingDisk", "RSSR",
           "SpringDamperChain", "Wheel", "WhippleBicycle"]
