"""Ready-made, parameterized mechanisms built only from blocks. Each exposes ``frame_a`` to
mount on a World: ``jd.Model.on_world(World(), pendulum=Pendulum())``."""
from .balancing import BalancedCubeOnCorner, BalancedCubeOnEdge
from .bicycle import WhippleBicycle
from .cartpole import CartDoublePendulum, CartPole
from .cube import CubeOnEdge
from .cube_corner import CubeOnCorner
from .cubli import CubliJumpUp, jump_speed
from .electric_cubes import (BalancedElectricCubeOnEdge, ElectricCubeOnCorner,
                             ElectricCubeOnEdge)
from .engine1 import Engine1
from .engines import Engine, EngineV6, SingleCylinderEngine
from .engines_analytic import CylinderAnalytic, EngineV6Analytic
from .jansen import JansenLinkage, JansenWalker
from .linkages import CrankSlider, FourBar, StackedFourBars
from .motors import DCMotor, DCMotorDrive
from .spatial_linkages import RSSR
from .pendulums import (DoublePendulum, ElasticJointArm, NLinkPendulum, Pendulum,
                        SpringDamperChain)
from .robot_axis import RobotAxis
from .sliding import MassWithStopAndFriction
from .trees import RandomLoop, RandomTree
from .wheel import AngleRollingDisk, DifferentialDrive, RollingDisk, Wheel

__all__ = ["AngleRollingDisk", "BalancedCubeOnCorner", "BalancedCubeOnEdge", "CartDoublePendulum",
           "CartPole",
           "CrankSlider", "CubeOnCorner", "CubeOnEdge", "DifferentialDrive", "DoublePendulum",
           "FourBar", "NLinkPendulum", "Pendulum", "RandomLoop", "RandomTree", "RollingDisk",
           "RSSR", "Wheel", "WhippleBicycle", "BalancedElectricCubeOnEdge", "DCMotor",
           "DCMotorDrive", "ElectricCubeOnCorner", "ElectricCubeOnEdge", "RobotAxis",
           "CubliJumpUp", "jump_speed", "MassWithStopAndFriction",
           # machines with loops (issue 11)
           "Engine", "EngineV6", "JansenLinkage", "JansenWalker", "SingleCylinderEngine",
           "StackedFourBars", "CylinderAnalytic", "EngineV6Analytic", "Engine1",
           # stiff test systems (issue 18)
           "ElasticJointArm", "SpringDamperChain"]
