"""The inertial frame and the uniform gravity field."""
from __future__ import annotations

from dataclasses import dataclass

from .base import Component, Shape, as_vector3, param
from .ports import Frame


@dataclass(eq=False)
class World(Component):
    """Inertial frame ``frame_b`` at the origin and uniform gravity acting on every body.

    Parameters
    ----------
    g : [m/s²] gravity acceleration vector in world coordinates (default −9.81 along y).
    """

    g: tuple = param((0.0, -9.81, 0.0), "m/s2", "gravity acceleration vector", Shape.VECTOR3)

    def __post_init__(self):
        self.g = tuple(as_vector3(self.g, "World", "g"))
        self.frame_b = Frame(self, "frame_b")
