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
from .geometry import axis_rotation, unit_axis
from .ports import Flange, Frame, Motion


@dataclass(frozen=True)
class Coordinate:
    """A joint coordinate and its default generalized speed, with units."""

    name: str
    unit: str
    speed: str
    speed_unit: str


class Joint(Component):
    """Contract of a joint: ``frame_a``, ``frame_b``, ``COORDINATES`` and the hooks below."""

    COORDINATES: ClassVar[tuple[Coordinate, ...]] = ()

    def _make_frames(self) -> None:
        self.frame_a = Frame(self, "frame_a")
        self.frame_b = Frame(self, "frame_b")

    def relative_pose(self, q):
        """(R, p): rotation of frame_b into frame_a and origin of frame_b in frame_a [m]."""
        raise NotImplementedError

    def relative_angular_velocity(self, q, qd):
        """Angular velocity of frame_b relative to frame_a, in frame_a coordinates [rad/s]."""
        return ca.DM.zeros(3)

    def flange_positions(self, q) -> dict:
        """Positions of the joint's 1-D flanges (axis = coordinate, support = reference 0)."""
        return {}


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
    COORDINATES: ClassVar = (Coordinate("phi", "rad", "w", "rad/s"),)

    def __init__(self, axis=(0.0, 0.0, 1.0)):
        self.axis_direction = tuple(unit_axis(axis, "Revolute"))
        self._make_frames()
        _axis_flanges(self, Motion.ROTATIONAL)

    def relative_pose(self, q):
        return axis_rotation(np.array(self.axis_direction), q[0]), ca.DM.zeros(3)

    def relative_angular_velocity(self, q, qd):
        return ca.DM(self.axis_direction) * qd[0]

    def flange_positions(self, q) -> dict:
        return {self.axis: q[0], self.support: 0}


@dataclass(eq=False)
class Prismatic(Joint):
    """Translation of frame_b along ``axis`` (in frame_a) by s [m]; speed v [m/s].

    Optional flanges ``axis`` (position s) and ``support`` (position 0) carry forces on s.
    """

    axis_direction: tuple = (1.0, 0.0, 0.0)
    COORDINATES: ClassVar = (Coordinate("s", "m", "v", "m/s"),)

    def __init__(self, axis=(1.0, 0.0, 0.0)):
        self.axis_direction = tuple(unit_axis(axis, "Prismatic"))
        self._make_frames()
        _axis_flanges(self, Motion.TRANSLATIONAL)

    def relative_pose(self, q):
        return ca.DM.eye(3), ca.DM(self.axis_direction) * q[0]

    def flange_positions(self, q) -> dict:
        return {self.axis: q[0], self.support: 0}


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
