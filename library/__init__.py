"""Ready-made, parameterized mechanisms built only from blocks. Each exposes ``frame_a`` to
mount on a World: ``jd.Model.on_world(World(), pendulum=Pendulum())``."""
from .cartpole import CartPole
from .cube import CubeOnEdge
from .linkages import CrankSlider, FourBar
from .pendulums import DoublePendulum, NLinkPendulum, Pendulum
from .wheel import DifferentialDrive, RollingDisk, Wheel

__all__ = ["CartPole", "CrankSlider", "CubeOnEdge", "DifferentialDrive", "DoublePendulum",
           "FourBar", "NLinkPendulum", "Pendulum", "RollingDisk", "Wheel"]
