"""Joints of the MSL's ``MultiBody.Joints`` that the basic set (Revolute, Prismatic, Spherical,
FreeJoint) lacks, with the MSL's names and parameter names: :class:`Universal`,
:class:`Cylindrical`, :class:`Planar`. Each gives the relative pose of frame_b in frame_a, the
relative angular velocity in frame_b axes and the closure equations used when it closes a
kinematic loop (joints.Joint contract).
"""
from __future__ import annotations

from typing import ClassVar

import casadi as ca
import numpy as np

from ..geometry import axis_rotation, normal_pair, unit_axis
from ..joints import Coordinate, Joint, Speed


class Universal(Joint):
    """Two revolutes in series (MSL ``Joints.Universal``): phi_a [rad] about n_a (frame_a
    axes, default x), then phi_b [rad] about n_b (frame_b axes, default y); speeds w_a, w_b
    [rad/s]. R = rot(n_a, phi_a)·rot(n_b, phi_b); the origins coincide."""

    COORDINATES: ClassVar = (Coordinate("phi_a", "rad"), Coordinate("phi_b", "rad"))
    SPEEDS: ClassVar = (Speed("w_a", "rad/s"), Speed("w_b", "rad/s"))

    def __init__(self, n_a=(1.0, 0.0, 0.0), n_b=(0.0, 1.0, 0.0)):
        self.n_a = tuple(unit_axis(n_a, "Universal", "n_a"))
        self.n_b = tuple(unit_axis(n_b, "Universal", "n_b"))
        if abs(np.dot(self.n_a, self.n_b)) > 1 - 1e-9:
            from ..errors import ModelError
            raise ModelError("Universal: n_a and n_b must not be parallel")
        self._make_frames()

    def relative_pose(self, q):
        R_a = axis_rotation(np.array(self.n_a), q[0])
        return ca.mtimes(R_a, axis_rotation(np.array(self.n_b), q[1])), ca.DM.zeros(3)

    def relative_angular_velocity(self, q, w):
        R_b = axis_rotation(np.array(self.n_b), q[1])
        return ca.mtimes(R_b.T, ca.DM(self.n_a)) * w[0] + ca.DM(self.n_b) * w[1]

    def closure_residual(self, R, p):
        # origins coincide; n_a stays at its angle to n_b (R_b·n_b = n_b, R_a keeps n_a·x)
        n_a, n_b = ca.DM(self.n_a), ca.DM(self.n_b)
        return ca.vertcat(p, ca.dot(n_a, ca.mtimes(R, n_b)) - float(np.dot(self.n_a, self.n_b)))


class Cylindrical(Joint):
    """Translation s [m] along and rotation phi [rad] about the axis n (frame_a axes, default
    x) (MSL ``Joints.Cylindrical``); speeds v [m/s], w [rad/s]."""

    COORDINATES: ClassVar = (Coordinate("s", "m"), Coordinate("phi", "rad"))
    SPEEDS: ClassVar = (Speed("v", "m/s"), Speed("w", "rad/s"))

    def __init__(self, n=(1.0, 0.0, 0.0)):
        self.n = tuple(unit_axis(n, "Cylindrical", "n"))
        self._make_frames()

    def relative_pose(self, q):
        return axis_rotation(np.array(self.n), q[1]), ca.DM(self.n) * q[0]

    def relative_angular_velocity(self, q, w):
        return ca.DM(self.n) * w[1]

    def closure_residual(self, R, p):
        # 2 positions across the axis and 2 keeping the axis fixed (R·n ∥ n)
        e1, e2 = (ca.DM(e) for e in normal_pair(self.n))
        Rn = ca.mtimes(R, ca.DM(self.n))
        return ca.vertcat(ca.dot(e1, p), ca.dot(e2, p), ca.dot(e1, Rn), ca.dot(e2, Rn))

    def closure_branch(self, R, p):
        # the axis equations also hold with the axis reversed (R·n = −n): a mirror pose
        return ca.dot(ca.DM(self.n), ca.mtimes(R, ca.DM(self.n)))


class Planar(Joint):
    """Motion in a plane (MSL ``Joints.Planar``): translations s_x [m] along n_x and s_y [m]
    along n × n_x, then rotation phi [rad] about the plane normal n (frame_a axes; defaults
    n = z, n_x = x); speeds v_x, v_y [m/s], w [rad/s]."""

    COORDINATES: ClassVar = (Coordinate("s_x", "m"), Coordinate("s_y", "m"),
                             Coordinate("phi", "rad"))
    SPEEDS: ClassVar = (Speed("v_x", "m/s"), Speed("v_y", "m/s"), Speed("w", "rad/s"))

    def __init__(self, n=(0.0, 0.0, 1.0), n_x=(1.0, 0.0, 0.0)):
        self.n = tuple(unit_axis(n, "Planar", "n"))
        e_x = np.asarray(unit_axis(n_x, "Planar", "n_x"))
        e_x = e_x - np.dot(e_x, self.n) * np.asarray(self.n)
        if np.linalg.norm(e_x) < 1e-9:
            from ..errors import ModelError
            raise ModelError("Planar: n_x must not be parallel to the plane normal n")
        self.n_x = tuple(e_x / np.linalg.norm(e_x))
        self.n_y = tuple(np.cross(self.n, self.n_x))
        self._make_frames()

    def relative_pose(self, q):
        p = ca.DM(self.n_x) * q[0] + ca.DM(self.n_y) * q[1]
        return axis_rotation(np.array(self.n), q[2]), p

    def relative_angular_velocity(self, q, w):
        return ca.DM(self.n) * w[2]

    def closure_residual(self, R, p):
        # stay in the plane (n·p = 0) with the normal fixed (R·n ∥ n)
        Rn = ca.mtimes(R, ca.DM(self.n))
        return ca.vertcat(ca.dot(ca.DM(self.n), p), ca.dot(ca.DM(self.n_x), Rn),
                          ca.dot(ca.DM(self.n_y), Rn))

    def closure_branch(self, R, p):
        # the normal equations also hold with the normal reversed (R·n = −n): a mirror pose
        return ca.dot(ca.DM(self.n), ca.mtimes(R, ca.DM(self.n)))
