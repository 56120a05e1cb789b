"""Contacts: constraint elements attached to a frame. A contact contributes holonomic residuals
c(y) = 0 and velocity constraints a(y)·ẏ = 0 (DESIGN.md §3.4; Murray, Li and Sastry 1994), as pure hooks of the
kinematics of its frame.

The ground is a plane of any orientation: by default the world plane y = 0 with normal +y
(the side gravity points away from with the default World, g = (0, −9.81, 0)); a z-up model
gives ``n=(0, 0, 1)`` and needs no rotated world.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from .base import Component, FrameState, Shape, as_scalar, as_vector3, param
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
    """A thin disk of radius R centred at frame_a's origin, rolling without slip on a plane.

    Parameters
    ----------
    R : [m] disk radius, > 0.
    axis : disk normal in frame_a axes (the axle direction).
    n : the ground plane's normal in world coordinates, pointing to the side the disk is on
        (default +y; e.g. (0, 0, 1) for a z-up world).
    r_plane : [m] a point of the ground plane in world coordinates (default the origin).

    With a = R_a·axis the disk normal in world axes, e the unit normal n, c = a·e and
    s = √(1 − c²), the lowest point of the rim is p = r + R·d, d = (c·a − e)/s. Its height above
    the plane e·(r − r_plane) − R·s is the holonomic constraint; the no-slip conditions are the
    components of the velocity of the material point there, v_c = v + ω × (R·d), along the
    rolling direction t = a × e/s and across it, e × t. Written in these disk-fixed directions
    (not world axes), two wheels on one axle have the same lateral equation at every heading,
    so the redundancy found at one configuration holds everywhere. A disk lying flat (a ∥ e)
    has no defined contact point: compile assembles the reference configuration and checks
    the constraints there, not at the coordinates' defaults.
    """

    R: float = param(0.5, "m", "disk radius")
    r_plane: tuple = param((0.0, 0.0, 0.0), "m", "a point of the ground plane", Shape.VECTOR3)
    axis: tuple = (0.0, 0.0, 1.0)
    n: tuple = (0.0, 1.0, 0.0)

    def __post_init__(self):
        self.R = as_scalar(self.R, "RollingContact", "R")
        self.r_plane = tuple(as_vector3(self.r_plane, "RollingContact", "r_plane"))
        self.axis = tuple(unit_axis(self.axis, "RollingContact"))
        self.n = tuple(unit_axis(self.n, "RollingContact", "n"))
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
        """Disk normal a, lowest-point direction d, the plane normal e and √(1 − (a·e)²)."""
        a = ca.mtimes(frame.R, ca.DM(self.axis))
        e = ca.DM(self.n)
        cos = ca.dot(a, e)
        across = ca.sqrt(1 - cos ** 2)
        return a, (cos * a - e) / across, e, across

    def holonomic(self, frame: FrameState):
        _, _, e, across = self._geometry(frame)
        return ca.dot(e, frame.r - ca.vertcat(*[self.r_plane[i] for i in range(3)])) \
            - self.R * across

    def velocity(self, frame: FrameState):
        a, d, e, across = self._geometry(frame)
        rolling = ca.cross(a, e) / across
        slip = frame.v + ca.cross(frame.w, self.R * d)
        return ca.vertcat(ca.dot(slip, rolling), ca.dot(slip, ca.cross(e, rolling)))
