"""The reaction-wheel cube balancing on a corner (the 3-D Cubli) built from blocks.

Geometry and sources. M. Muehlebach, R. D'Andrea, "Nonlinear analysis and control of a
reaction-wheel-based 3-D inverted pendulum", IEEE TCST 25(1), 2017, and M. Gajamohan,
M. Muehlebach, T. Widmer, R. D'Andrea, "The Cubli: a reaction wheel based 3D inverted
pendulum", ECC 2013, describe a cube of side a = 0.15 m with three reaction wheels whose axes are
parallel to the cube's edges, balancing on the corner with its center of mass above the pivot.
The wheel data are the published 1-D Cubli values (IROS 2012, Table I: m_w = 0.204 kg,
Θ_w = 0.57e-3 kg·m² about the axis, bearing friction C_w = 0.05e-3 N·m·s), the same wheels
being used in the 3-D prototype.

ESTIMATES (not published numbers, change them for your hardware): housing mass 0.5 kg, its
central inertia that of a thin-walled cube shell, (5/18)·m·a² about every axis; each wheel's
transverse inertia Θ_w/2 (thin disk); each wheel's center displaced by 0.05 m from the cube's
center along its own axis, so the three wheels sit side by side and the center of mass stays on
the body diagonal through the pivot.

Frames. The housing frame K has its origin at the pivot corner and its axes along the cube's
edges, so the cube occupies [0, a]³ and its center is (a/2)·(1, 1, 1). A fixed rotation between
the world and the spherical joint turns the body diagonal (1, 1, 1)/√3 onto the world's +y axis
(gravity is −y in the default World): the identity quaternion is the upright equilibrium.
"""
from __future__ import annotations

import math

import numpy as np

from jourdain.blocks import (Composite, FixedRotation, FixedTranslation, Motor, Revolute,
                             RigidBody, Spherical, ViscousFriction)
from jourdain.blocks.visual import Box, Cylinder

# Rotation that takes the body diagonal (1, 1, 1)/√3 onto +y: about (1, 1, 1) × (0, 1, 0).
UPRIGHT_AXIS = (-1.0, 0.0, 1.0)
UPRIGHT_ANGLE = math.acos(1.0 / math.sqrt(3.0))
AXES = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


class CubeOnCorner(Composite):
    """Housing on a spherical joint at its corner (``pivot``: quaternion q0..q3, speeds wx, wy,
    wz = housing angular velocity in housing axes), wheels ``wheel1..3`` on revolute joints
    ``bearing1..3`` along the housing's x, y, z axes (angles ψ_i relative to the housing), motor
    torques ``motor1..3.tau`` [N·m] (inputs) and bearing friction ``friction1..3``.

    a [m] cube side; m_housing, m_wheel [kg]; J_housing [kg·m²] housing central inertia (same
    about every axis); J_wheel [kg·m²] wheel inertia about its axis (transverse J_wheel/2);
    wheel_offset [m] wheel center from the cube center along the wheel's axis; C_w
    [N·m·s/rad] bearing friction. Defaults: see the module docstring (sources and estimates).
    """

    def __init__(self, a: float = 0.15, m_housing: float = 0.5, m_wheel: float = 0.204,
                 J_housing: float | None = None, J_wheel: float = 0.57e-3,
                 wheel_offset: float = 0.05, C_w: float = 0.05e-3):
        super().__init__()
        if J_housing is None:
            J_housing = 5.0 / 18.0 * m_housing * a**2
        self.a, self.m_housing, self.m_wheel = a, m_housing, m_wheel
        self.J_housing, self.J_wheel, self.wheel_offset = J_housing, J_wheel, wheel_offset
        center = np.full(3, a / 2)
        self.upright = FixedRotation(angle=UPRIGHT_ANGLE, axis=UPRIGHT_AXIS)
        self.pivot = Spherical()
        self.housing = RigidBody(m=m_housing, r_cm=tuple(center),
                                 I=(J_housing, J_housing, J_housing),
                                 shapes=[Box((a, a, a), center=tuple(center), opacity=0.35,
                                             color="steelblue", name="box")])
        self.connect(self.upright.frame_b, self.pivot.frame_a)
        self.connect(self.pivot.frame_b, self.housing.frame_a)
        for i, axis in enumerate(AXES, start=1):
            self._add_wheel(i, np.array(axis), center + wheel_offset * np.array(axis), C_w)
        self.expose(self.upright.frame_a, "frame_a")

    def _add_wheel(self, i: int, axis: np.ndarray, position: np.ndarray, C_w: float) -> None:
        """Wheel i: a rigid offset to its center, a bearing about ``axis``, motor, friction."""
        mount = self.add(f"mount{i}", FixedTranslation(r=tuple(position)))
        bearing = self.add(f"bearing{i}", Revolute(axis=tuple(axis)))
        inertia = self.J_wheel / 2 * (np.eye(3) + np.outer(axis, axis))
        spoke = np.roll(axis, 1)       # a spoke across the disk shows the wheel's spin
        size = 0.3 * self.a * spoke + 0.012 * np.roll(axis, 2) + 0.014 * axis
        wheel = self.add(f"wheel{i}", RigidBody(m=self.m_wheel, I=inertia, shapes=[
            Cylinder(0.3 * self.a, 0.01, axis=tuple(axis), color="orange", name="disk"),
            Box(tuple(size), center=tuple(0.15 * self.a * spoke), color="black",
                name="spoke")]))
        mount.shape()
        friction = self.add(f"friction{i}", ViscousFriction(d=C_w))
        self.connect(self.pivot.frame_b, mount.frame_a)
        self.connect(mount.frame_b, bearing.frame_a)
        self.connect(bearing.frame_b, wheel.frame_a)
        self.connect(friction.flange_b, bearing.axis)
        self._actuate(i, bearing)

    def _actuate(self, i: int, bearing: Revolute) -> None:
        """Wheel i's actuator: an ideal torque source ``motor<i>`` (input ``motor<i>.tau``)."""
        motor = self.add(f"motor{i}", Motor())
        self.connect(motor.flange_b, bearing.axis)

    @staticmethod
    def absolute_wheel_speeds(path: str = "cube") -> dict[str, str]:
        """Seed 000's choice carried to 3-D: z = (ω of the housing in housing axes, and each
        wheel's absolute spin rate ω·e_i + ψ̇_i), as a ``speeds`` dict for jd.compile."""
        speeds = {f"w{c}": f"{path}.pivot.w{c}" for c in "xyz"}
        speeds.update({f"W{i}": f"{path}.pivot.w{c} + {path}.bearing{i}.phi.der"
                       for i, c in enumerate("xyz", start=1)})
        return speeds
