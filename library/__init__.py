"""Ready-made, parameterized mechanisms built only from blocks. Each exposes ``frame_a`` to
mount on a World: ``jd.Model.on_world(World(), pendulum=Pendulum())``."""
from .cartpole import CartPole
from .cube import CubeOnEdge
from .pendulums import DoublePendulum, NLinkPendulum, Pendulum

__all__ = ["CartPole", "CubeOnEdge", "DoublePendulum", "NLinkPendulum", "Pendulum"]
