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
from .geometry import (
    axis_rotation,
    normal_pair,
    quaternion_rates,
    quaternion_rotation,
    unit_axis,
    vex,
)
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
    (Kane and Levinson 1985).
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


def _axis_or_n(axis, n, default, owner: str):
    """The joint axis from ``axis`` or from the MSL's ``n`` (not both), else ``default``."""
    if axis is not None and n is not None:
        from .errors import ModelError
        raise ModelError(f"{owner}: give the axis as axis= or as n=, not both")
    return default if axis is None and n is None else (n if axis is None else axis)


def _axis_flanges(joint, motion: Motion) -> None:
    joint.axis = Flange(joint, "axis", motion)
    joint.support = Flange(joint, "support", motion)


@dataclass(eq=False)
class Revolute(Joint):
    """Rotation of frame_b about ``axis`` (in frame_a) by the angle phi [rad]; speed w [rad/s].
    The axis may also be given as ``n``, the MSL's name (``Revolute(n=(1, 0, 0))``).

    Optional flanges ``axis`` (position phi) and ``support`` (the reference, position 0) carry
    motors, springs and friction acting on phi.
    """

    axis_direction: tuple = (0.0, 0.0, 1.0)
    COORDINATES: ClassVar = (Coordinate("phi", "rad"),)
    SPEEDS: ClassVar = (Speed("w", "rad/s"),)

    def __init__(self, axis=None, *, n=None):
        axis = _axis_or_n(axis, n, (0.0, 0.0, 1.0), "Revolute")
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
        e1, e2 = normal_pair(self.axis_direction)
        Rn = ca.mtimes(R, ca.DM(self.axis_direction))
        return ca.vertcat(p, ca.dot(ca.DM(e1), Rn), ca.dot(ca.DM(e2), Rn))

    def closure_branch(self, R, p):
        # cos of the angle between the two axes: the residual also vanishes for R·n = −n
        n = ca.DM(self.axis_direction)
        return ca.dot(n, ca.mtimes(R, n))


@dataclass(eq=False)
class Prismatic(Joint):
    """Translation of frame_b along ``axis`` (in frame_a) by s [m]; speed v [m/s]; ``n`` is the
    MSL's name of the axis.

    Optional flanges ``axis`` (position s) and ``support`` (position 0) carry forces on s.
    """

    axis_direction: tuple = (1.0, 0.0, 0.0)
    COORDINATES: ClassVar = (Coordinate("s", "m"),)
    SPEEDS: ClassVar = (Speed("v", "m/s"),)

    def __init__(self, axis=None, *, n=None):
        axis = _axis_or_n(axis, n, (1.0, 0.0, 0.0), "Prismatic")
        self.axis_direction = tuple(unit_axis(axis, "Prismatic"))
        self._make_frames()
        _axis_flanges(self, Motion.TRANSLATIONAL)

    def relative_pose(self, q):
        return ca.DM.eye(3), ca.DM(self.axis_direction) * q[0]

    def flange_positions(self, q) -> dict:
        return {self.axis: q[0], self.support: 0}

    def closure_residual(self, R, p):
        # 3 orientation equations and 2 position equations across the axis.
        e1, e2 = normal_pair(self.axis_direction)
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
    """frame_b rotated by a constant rotation and shifted by r [m] (in frame_a), as the MSL's
    ``Parts.FixedRotation``, in one of its forms:

    * axis–angle: ``angle`` [rad] about ``axis`` (or the MSL's ``n``); ``angle_deg`` gives the
      angle in degrees instead (the MSL's ``angle`` is in degrees: say so explicitly);
    * two vectors (MSL ``TwoAxesVectors``): ``n_x`` and ``n_y``, frame_b's x axis and a vector
      in its x–y plane, both in frame_a;
    * planar rotation sequence (MSL ``PlanarRotationSequence``): rotations by ``angles``
      [rad] (or ``angles_deg``) about the axes ``sequence`` (1 = x, 2 = y, 3 = z) in turn.

    Only ``angle`` of the axis–angle form is a parameter (may be symbolic); the other forms
    are constant rotations.
    """

    angle: float = param(0.0, "rad", "rotation angle about axis")
    r: tuple = param((0.0, 0.0, 0.0), "m", "origin of frame_b in frame_a", Shape.VECTOR3)
    axis: tuple | None = None
    n: tuple | None = None
    angle_deg: float | None = None
    n_x: tuple | None = None
    n_y: tuple | None = None
    sequence: tuple | None = None
    angles: tuple | None = None
    angles_deg: tuple | None = None

    def __post_init__(self):
        self.r = tuple(as_vector3(self.r, "FixedRotation", "r"))
        axis = _axis_or_n(self.axis, self.n, (0.0, 0.0, 1.0), "FixedRotation")
        self.axis = tuple(unit_axis(axis, "FixedRotation"))
        self.rotation = _fixed_rotation(self)   # None: axis–angle with the parameter angle
        self.angle = as_scalar(self.angle, "FixedRotation", "angle")
        self._make_frames()

    def relative_pose(self, q):
        if self.rotation is not None:
            return ca.DM(self.rotation), self.r
        return axis_rotation(np.array(self.axis), self.angle), self.r


def _fixed_rotation(fr) -> np.ndarray | None:
    """The constant rotation of the two-vector or sequence forms (None for axis–angle);
    sets ``angle`` from ``angle_deg``; a ModelError for mixed forms."""
    from .errors import ModelError
    from .geometry import from_nxy

    forms = [fr.angle_deg is not None or fr.angle != 0, fr.n_x is not None or fr.n_y is not None,
             fr.sequence is not None or fr.angles is not None or fr.angles_deg is not None]
    if sum(forms) > 1 or (fr.angle_deg is not None and fr.angle != 0):
        raise ModelError("FixedRotation: give one form: angle (or angle_deg) about axis, or "
                         "n_x and n_y, or sequence with angles (or angles_deg)")
    if fr.angle_deg is not None:
        fr.angle = np.deg2rad(as_scalar(fr.angle_deg, "FixedRotation", "angle_deg"))
    if forms[1]:
        if fr.n_x is None or fr.n_y is None:
            raise ModelError("FixedRotation: the two-vector form needs both n_x and n_y")
        return from_nxy(fr.n_x, fr.n_y, "FixedRotation")
    if not forms[2]:
        return None
    return _sequence_rotation(fr)


def _sequence_rotation(fr) -> np.ndarray:
    from .errors import ModelError

    if (fr.angles is None) == (fr.angles_deg is None) or fr.sequence is None:
        raise ModelError("FixedRotation: the sequence form needs sequence and either angles "
                         "[rad] or angles_deg")
    values = np.asarray(fr.angles if fr.angles is not None else np.deg2rad(fr.angles_deg),
                        dtype=float).ravel()
    seq = tuple(int(k) for k in fr.sequence)
    if len(seq) != 3 or not set(seq) <= {1, 2, 3} or values.size != 3 or \
            seq[0] == seq[1] or seq[1] == seq[2]:
        raise ModelError(f"FixedRotation: sequence must be three axes from 1, 2, 3 with no two "
                         f"neighbours equal, and angles three numbers; got {fr.sequence!r}, "
                         f"{values.tolist()}")
    R = np.eye(3)
    for k, phi in zip(seq, values):
        R = R @ np.array(ca.DM(axis_rotation(np.eye(3)[k - 1], phi)))
    return R


def quaternion_from_angles(angles, sequence=(1, 2, 3)) -> np.ndarray:
    """The unit quaternion (q0, q1, q2, q3) of rotations by ``angles`` [rad] about the body
    axes ``sequence`` in turn — the MSL's ``angles_start``/``sequence_start`` of a free body
    (``Frames.axesRotations``), as start values of a FreeJoint's or Spherical's q0..q3."""
    from .errors import ModelError

    values = np.asarray(angles, dtype=float).ravel()
    seq = tuple(int(k) for k in sequence)
    if len(seq) != 3 or not set(seq) <= {1, 2, 3} or values.size != 3 or \
            not np.all(np.isfinite(values)):
        raise ModelError(f"quaternion_from_angles: sequence must be three axes from 1, 2, 3 "
                         f"and angles three finite numbers [rad]; got {sequence!r}, "
                         f"{values.tolist()}")
    q = np.array([1.0, 0.0, 0.0, 0.0])
    for axis, angle in zip(seq, values):   # q ⊗ r: each turn about the turned body axis
        r = np.zeros(4)
        r[0], r[axis] = np.cos(angle / 2), np.sin(angle / 2)
        q = np.concatenate([[q[0] * r[0] - q[1:] @ r[1:]],
                            q[0] * r[1:] + r[0] * q[1:] + np.cross(q[1:], r[1:])])
    return q


_QUATERNION = (Coordinate("q0", "1", 1.0), Coordinate("q1", "1"), Coordinate("q2", "1"),
               Coordinate("q3", "1"))
_BODY_RATES = (Speed("wx", "rad/s"), Speed("wy", "rad/s"), Speed("wz", "rad/s"))


class Spherical(Joint):
    """Ball joint: frame_b rotates freely about the common origin.

    Coordinates: unit quaternion q0..q3 (scalar first, no singularity); speeds wx, wy, wz:
    the angular velocity of frame_b relative to frame_a in frame_b axes [rad/s], so
    ẏ = ½·Q(q)·ω is nonlinear in y and dim y = 4 ≠ dim z = 3 (Kane and Levinson 1985).
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
