"""Contacts: constraint elements attached to a frame. A contact contributes holonomic residuals
c(y) = 0 and velocity constraints a(y)·ẏ = 0 (DESIGN.md §3.4; Murray, Li and Sastry 1994), as pure hooks of the
kinematics of its frame.

The ground is the world plane y = 0 with normal +y (the side gravity points away from with the
default World, g = (0, −9.81, 0)); its in-plane axes are x and z.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from .base import Component, FrameState, as_scalar, param
from .errors import ModelError
from .geometry import unit_axis
from .ports import Frame


class Contact(Component):
    """Contract of a constraint element on ``frame_a``.

    ``holonomic(frame)`` returns residuals c that vanish on the constraint manifold (functions
    of the pose), ``velocity(frame)`` returns expressions linear in the velocities that vanish
    when the constraint holds (the non-integrable part); both take the frame's FrameState.
    """

    def holonomic(self, frame: FrameState):
        """Residuals c [m] that vanish on the constraint manifold (functions of the pose)."""
        return ca.SX(0, 1)

    def velocity(self, frame: FrameState):
        """Velocity constraints [m/s], linear in the velocities, that vanish when rolling."""
        return ca.SX(0, 1)


@dataclass(eq=False)
class RollingContact(Contact):
    """A thin disk of radius R centred at frame_a's origin, rolling without slip on the ground.

    Parameters
    ----------
    R : [m] disk radius, > 0.
    axis : disk normal in frame_a axes (the axle direction).

    With n = R_a·axis the disk normal in world axes and e_y the ground normal, the lowest point
    of the rim is p = r + R·d, d = (n_y·n − e_y)/√(1 − n_y²). Its height p_y = r_y − R·√(1 − n_y²)
    is the holonomic constraint; the no-slip conditions are the components of the velocity of
    the material point there, v_c = v + ω × (R·d), along the rolling direction
    t = n × e_y/√(1 − n_y²) and across it, e_y × t. Written in these disk-fixed horizontal
    directions (not world x, z), two wheels on one axle have the same lateral equation at
    every heading, so the redundancy found at one configuration holds everywhere.
    """

    R: float = param(0.5, "m", "disk radius")
    axis: tuple = (0.0, 0.0, 1.0)

    def __post_init__(self):
        self.R = as_scalar(self.R, "RollingContact", "R")
        self.axis = tuple(unit_axis(self.axis, "RollingContact"))
        self.frame_a = Frame(self, "frame_a")

    def default_shapes(self, size: float) -> list:
        """The rolling disk: radius R [m], thickness R/10 along the axle."""
        from .visual.shapes import Cylinder
        return [(self.frame_a, Cylinder(self.R, 0.1 * self.R, axis=self.axis,
                                        color=(0.2, 0.2, 0.2), name="disk"))]

    def validate(self) -> None:
        if not self.R > 0:
            raise ModelError(f"{self.path}: radius R must be positive, got {self.R} m")

    def _geometry(self, frame: FrameState):
        """Disk normal n, lowest-point direction d and √(1 − n_y²) (0 for a flat disk)."""
        n = ca.mtimes(frame.R, ca.DM(self.axis))
        up = ca.DM([0.0, 1.0, 0.0])
        horizontal = ca.sqrt(1 - n[1] ** 2)
        return n, (n[1] * n - up) / horizontal, horizontal

    def holonomic(self, frame: FrameState):
        _, _, horizontal = self._geometry(frame)
        return frame.r[1] - self.R * horizontal

    def velocity(self, frame: FrameState):
        n, d, horizontal = self._geometry(frame)
        up = ca.DM([0.0, 1.0, 0.0])
        rolling = ca.cross(n, up) / horizontal
        slip = frame.v + ca.cross(frame.w, self.R * d)
        return ca.vertcat(ca.dot(slip, rolling), ca.dot(slip, ca.cross(up, rolling)))
