"""The reaction-wheel cube balancing on an edge (the 1-D Cubli, Gajamohan et al. 2012) built from blocks.

Default parameters are those of the 1-D Cubli prototype, M. Gajamohan, M. Merz, I. Thommen,
R. D'Andrea, "The Cubli: A cube that can jump up and balance", IROS 2012, Table I:
l = 0.085 m (edge to wheel center), l_b = 0.075 m (edge to housing center of mass),
m_b = 0.419 kg, m_w = 0.204 kg, Θ_b = 3.34e-3 kg·m² (housing about the edge),
Θ_w = 0.57e-3 kg·m² (wheel about its axis), C_w = 0.05e-3 N·m·s (wheel bearing friction),
C_b = 1.02e-3 N·m·s (edge friction, off by default because the published model has none).
The housing's central inertia is Θ_b − m_b·l_b² (parallel-axis theorem).
"""
from __future__ import annotations

import math

from jourdain.blocks import (Composite, FixedTranslation, Motor, Revolute, RigidBody,
                             ViscousFriction)
from jourdain.blocks.visual import Box, Cylinder


class CubeOnEdge(Composite):
    """Housing on an edge revolute (``edge.phi`` = φ, 0 upright, gravity along −y), wheel on a
    bearing revolute (``bearing.phi`` = ψ, relative to the housing), motor torque T_M on the
    bearing (input ``motor.tau`` [N·m]) and bearing friction C_ψ.

    m_housing, m_wheel [kg]; l_housing [m] edge to housing center of mass; l_wheel [m] edge to
    wheel center (l_MO in examples/cube_on_edge.py); J_housing [kg·m²] housing inertia about its center of
    mass (z); J_wheel [kg·m²] wheel inertia about its axis (I_R); C_psi [N·m·s/rad] bearing
    friction; C_phi [N·m·s/rad] edge friction.
    """

    def __init__(self, m_housing: float = 0.419, m_wheel: float = 0.204,
                 l_housing: float = 0.075, l_wheel: float = 0.085,
                 J_housing: float = 3.34e-3 - 0.419 * 0.075**2, J_wheel: float = 0.57e-3,
                 C_psi: float = 0.05e-3, C_phi: float = 0.0):
        super().__init__()
        self.edge = Revolute(axis=(0, 0, 1))
        self.housing = RigidBody(m=m_housing, r_cm=(0, l_housing, 0),
                                 I=(J_housing, J_housing, J_housing))
        self.mount = FixedTranslation(r=(0, l_wheel, 0))
        self.bearing = Revolute(axis=(0, 0, 1))
        self.wheel = RigidBody(m=m_wheel, I=(J_wheel / 2, J_wheel / 2, J_wheel))
        self.friction = ViscousFriction(d=C_psi)
        self.edge_friction = ViscousFriction(d=C_phi)
        self.connect(self.edge.frame_b, self.housing.frame_a)
        self.connect(self.edge.frame_b, self.mount.frame_a)
        self.connect(self.mount.frame_b, self.bearing.frame_a)
        self.connect(self.bearing.frame_b, self.wheel.frame_a)
        self.connect(self.friction.flange_b, self.bearing.axis)
        self.connect(self.edge_friction.flange_b, self.edge.axis)
        self._actuate()
        self.expose(self.edge.frame_a, "frame_a")
        cube_shapes(self.housing, self.mount, self.wheel, l_wheel)

    def _actuate(self) -> None:
        """The wheel's actuator: an ideal torque source ``motor`` (input ``motor.tau``)."""
        self.motor = Motor()
        self.connect(self.motor.flange_b, self.bearing.axis)


def cube_shapes(housing: RigidBody, mount: FixedTranslation, wheel: RigidBody,
                l_wheel: float) -> None:
    """Animation shapes: a translucent cube of edge √2·l_wheel standing on the pivot edge,
    centred on the wheel axis, and the wheel as a disk with a spoke that shows its spin."""
    a = math.sqrt(2.0) * l_wheel
    c, s = math.cos(math.pi / 4), math.sin(math.pi / 4)
    housing.shape(Box((a, a, a), center=(0.0, l_wheel, 0.0), color="steelblue", opacity=0.35,
                      rotation=(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0), name="box"))
    mount.shape()
    wheel.shape(Cylinder(0.4 * a, 0.01, color="orange", name="disk"),
                Box((0.4 * a, 0.012, 0.014), center=(0.2 * a, 0.0, 0.0), color="black",
                    name="spoke"))
