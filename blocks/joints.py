"""Joints: the relative pose of frame_b in frame_a as a function of the joint coordinates.

A joint declares its coordinates and implements two pure hooks; rigid offsets are joints with no
coordinates. The solver composes the hooks along the spanning tree of the model.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import casadi as ca
import numpy as np

from .base import Component, Shape, as_scalar, as_vector3, param
from .geometry import axis_rotation, quaternion_rates, quaternion_rotation, unit_axis, vex
from .ports import Flange, Frame, Motion


@dataclass(frozen=True)
class Coordinate:
    """A joint coordinate (a component of y) with its unit and default initial value."""

    name: str
    unit: str
    default: float = 0.0


@dataclass(frozen=True)
class Speed:
    """A joint speed (a default generalized speed, a component of z) with its unit."""

    name: str
    unit: str


class Joint(Component):
    """Contract of a joint: ``frame_a``, ``frame_b``, ``COORDINATES``, ``SPEEDS`` and hooks.

    For most joints the speeds are the coordinate rates (ẏ_j = w_j). Joints with an orientation
    parameterization (quaternions) have more coordinates than speeds and set
    ``RATES_ARE_DERIVATIVES = False``; their ``coordinate_rates`` hook gives ẏ_j = v_j(y_j, w_j)
    (seed 001).
    """

    COORDINATES: ClassVar[tuple[Coordinate, ...]] = ()
    SPEEDS: ClassVar[tuple[Speed, ...]] = ()
    RATES_ARE_DERIVATIVES: ClassVar[bool] = True
    # Offset of a unit quaternion (q0..q3, rotating with the body-fixed speeds at the same
    # offset in SPEEDS' angular part) among COORDINATES, or None; linearization uses it to
    # perturb the orientation by a 3-parameter rotation instead of the 4 quaternion entries.
    UNIT_QUATERNION: ClassVar[int | None] = None

    def _make_frames(self) -> None:
        self.frame_a = Frame(self, "frame_a")
        self.frame_b = Frame(self, "frame_b")

    def relative_pose(self, q):
        """(R, p): rotation of frame_b into frame_a and origin of frame_b in frame_a [m]."""
        raise NotImplementedError

    def relative_angular_velocity(self, q, w):
        """Angular velocity of frame_b relative to frame_a, in frame_b coordinates [rad/s],
        in terms of the joint speeds w (body-fixed, so quaternion joints return w itself)."""
        return ca.DM.zeros(3)

    def coordinate_rates(self, q, w):
        """ẏ_j as a function of the coordinates and the joint speeds (identity by default)."""
        return w

    def flange_positions(self, q) -> dict:
        """Positions of the joint's 1-D flanges (axis = coordinate, support = reference 0)."""
        return {}

    def closure_residual(self, R, p):
        """Equations that vanish when the pose (R, p) of frame_b in frame_a is reachable by
        this joint's own motion; used when the joint is cut to close a kinematic loop. As few
        equations as the joint removes freedoms, so they also vanish on mirror poses (two or
        three smooth equations on the sphere or on SO(3) always have extra roots): those are
        told apart by ``closure_branch``."""
        from .errors import ModelError
        raise ModelError(f"{self.path}: a {type(self).__name__} cannot close a kinematic loop; "
                         "rewire so that a Revolute, Prismatic or Spherical joint closes it")

    def closure_branch(self, R, p):
        """Expressions equal to 1 on the joint's own poses and −1 on the mirror roots of
        ``closure_residual`` (assembly rejects a pose where one is not near 1)."""
        return ca.SX(0, 1)


def _axis_flanges(joint, motion: Motion) -> None:
    joint.axis = Flange(joint, "axis", motion)
    joint.support = Flange(joint, "support", motion)


@dataclass(eq=False)
class Revolute(Joint):
    """Rotation of frame_b about ``axis`` (in frame_a) by the angle phi [rad]; speed w [rad/s].

    Optional flanges ``axis`` (position phi) and ``support`` (the reference, position 0) carry
    motors, springs and friction acting on phi.
    """

    axis_direction: tuple = (0.0, 0.0, 1.0)
    COORDINATES: ClassVar = (Coordinate("phi", "rad"),)
    SPEEDS: ClassVar = (Speed("w", "rad/s"),)

    def __init__(self, axis=(0.0, 0.0, 1.0)):
        self.axis_direction = tuple(unit_axis(axis, "Revolute"))
        self._make_frames()
        _axis_flanges(self, Motion.ROTATIONAL)

    def relative_pose(self, q):
        return axis_rotation(np.array(self.axis_direction), q[0]), ca.DM.zeros(3)

    def relative_angular_velocity(self, q, w):
        return ca.DM(self.axis_direction) * w[0]

    def flange_positions(self, q) -> dict:
        return {self.axis: q[0], self.support: 0}

    def closure_residual(self, R, p):
        # 3 position equations and 2 keeping the axis fixed: R·n ∥ n (tested on e1, e2 ⟂ n).
        e1, e2 = _normals(self.axis_direction)
        Rn = ca.mtimes(R, ca.DM(self.axis_direction))
        return ca.vertcat(p, ca.dot(ca.DM(e1), Rn), ca.dot(ca.DM(e2), Rn))

    def closure_branch(self, R, p):
        # cos of the angle between the two axes: the residual also vanishes for R·n = −n
        n = ca.DM(self.axis_direction)
        return ca.dot(n, ca.mtimes(R, n))


def _normals(axis) -> tuple:
    """Two unit vectors completing the unit ``axis`` to an orthonormal basis."""
    n = np.asarray(axis, dtype=float)
    helper = np.eye(3)[int(np.argmin(np.abs(n)))]
    e1 = np.cross(n, helper)
    e1 /= np.linalg.norm(e1)
    return e1, np.cross(n, e1)


@dataclass(eq=False)
class Prismatic(Joint):
    """Translation of frame_b along ``axis`` (in frame_a) by s [m]; speed v [m/s].

    Optional flanges ``axis`` (position s) and ``support`` (position 0) carry forces on s.
    """

    axis_direction: tuple = (1.0, 0.0, 0.0)
    COORDINATES: ClassVar = (Coordinate("s", "m"),)
    SPEEDS: ClassVar = (Speed("v", "m/s"),)

    def __init__(self, axis=(1.0, 0.0, 0.0)):
        self.axis_direction = tuple(unit_axis(axis, "Prismatic"))
        self._make_frames()
        _axis_flanges(self, Motion.TRANSLATIONAL)

    def relative_pose(self, q):
        return ca.DM.eye(3), ca.DM(self.axis_direction) * q[0]

    def flange_positions(self, q) -> dict:
        return {self.axis: q[0], self.support: 0}

    def closure_residual(self, R, p):
        # 3 orientation equations and 2 position equations across the axis.
        e1, e2 = _normals(self.axis_direction)
        # ½·vex(R − Rᵀ): zero for R = I (small-angle orientation error)
        return ca.vertcat(0.5 * vex(R), ca.dot(ca.DM(e1), p), ca.dot(ca.DM(e2), p))

    def closure_branch(self, R, p):
        # cos of the relative rotation angle, (tr R − 1)/2: vex(R) also vanishes at angle π
        return 0.5 * (R[0, 0] + R[1, 1] + R[2, 2] - 1)


@dataclass(eq=False)
class FixedTranslation(Joint):
    """frame_b shifted by the constant vector r [m] (in frame_a); no relative rotation."""

    r: tuple = param((0.0, 0.0, 0.0), "m", "origin of frame_b in frame_a", Shape.VECTOR3)

    def __post_init__(self):
        self.r = tuple(as_vector3(self.r, "FixedTranslation", "r"))
        self._make_frames()

    def relative_pose(self, q):
        # Hooks run on the solver's instance, where parameters are CasADi values.
        return ca.DM.eye(3), self.r


@dataclass(eq=False)
class FixedRotation(Joint):
    """frame_b rotated by the constant ``angle`` [rad] about ``axis`` and shifted by r [m]."""

    angle: float = param(0.0, "rad", "rotation angle about axis")
    r: tuple = param((0.0, 0.0, 0.0), "m", "origin of frame_b in frame_a", Shape.VECTOR3)
    axis: tuple = (0.0, 0.0, 1.0)

    def __post_init__(self):
        self.angle = as_scalar(self.angle, "FixedRotation", "angle")
        self.r = tuple(as_vector3(self.r, "FixedRotation", "r"))
        self.axis = tuple(unit_axis(self.axis, "FixedRotation"))
        self._make_frames()

    def relative_pose(self, q):
        return axis_rotation(np.array(self.axis), self.angle), self.r


_QUATERNION = (Coordinate("q0", "1", 1.0), Coordinate("q1", "1"), Coordinate("q2", "1"),
               Coordinate("q3", "1"))
_BODY_RATES = (Speed("wx", "rad/s"), Speed("wy", "rad/s"), Speed("wz", "rad/s"))


class Spherical(Joint):
    """Ball joint: frame_b rotates freely about the common origin.

    Coordinates: unit quaternion q0..q3 (scalar first, no singularity); speeds wx, wy, wz:
    the angular velocity of frame_b relative to frame_a in frame_b axes [rad/s], so
    ẏ = ½·Q(q)·ω is nonlinear in y and dim y = 4 ≠ dim z = 3 (seed 001).
    """

    COORDINATES: ClassVar = _QUATERNION
    SPEEDS: ClassVar = _BODY_RATES
    RATES_ARE_DERIVATIVES: ClassVar = False
    UNIT_QUATERNION: ClassVar = 0

    def __init__(self):
        self._make_frames()

    def relative_pose(self, q):
        return quaternion_rotation(q), ca.DM.zeros(3)

    def closure_residual(self, R, p):
        return p

    def relative_angular_velocity(self, q, w):
        return w

    def coordinate_rates(self, q, w):
        return quaternion_rates(q, w)


class FreeJoint(Joint):
    """Six degrees of freedom: position x, y, z [m] of frame_b in frame_a and a unit
    quaternion q0..q3; speeds vx, vy, vz [m/s] (rates of the position, frame_a axes) and
    wx, wy, wz [rad/s] (angular velocity in frame_b axes)."""

    COORDINATES: ClassVar = (Coordinate("x", "m"), Coordinate("y", "m"), Coordinate("z", "m"),
                             *_QUATERNION)
    SPEEDS: ClassVar = (Speed("vx", "m/s"), Speed("vy", "m/s"), Speed("vz", "m/s"),
                        *_BODY_RATES)
    RATES_ARE_DERIVATIVES: ClassVar = False
    UNIT_QUATERNION: ClassVar = 3

    def __init__(self):
        self._make_frames()

    def relative_pose(self, q):
        return quaternion_rotation(q[3:7]), q[0:3]

    def relative_angular_velocity(self, q, w):
        return w[3:6]

    def coordinate_rates(self, q, w):
        return ca.vertcat(w[0:3], quaternion_rates(q[3:7], w[3:6]))

    def closure_residual(self, R, p):
        return ca.SX(0, 1)  # a free joint closing a loop constrains nothing
