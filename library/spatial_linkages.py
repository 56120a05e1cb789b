"""Spatial closed-loop linkages: loops through ball joints of the spanning tree, closed by
wiring only (the compiler cuts the last-declared joint and keeps its closure equations)."""
from __future__ import annotations

import math

from jourdain.blocks import (Composite, FixedRotation, FixedTranslation, Revolute, RigidBody,
                             Spherical)

from .linkages import rod, wire_four_bar


def cylinder(m: float, l: float, r: float) -> RigidBody:
    """Solid cylinder of radius r along the local x axis from the frame origin [kg, m]:
    I_xx = m·r²/2 about its axis, m·(3r² + l²)/12 across it, center of mass at l/2."""
    J = m * (3 * r**2 + l**2) / 12.0
    return RigidBody(m=m, r_cm=(l / 2, 0, 0), I=(m * r**2 / 2, J, J))


class RSSR(Composite):
    """Spatial four-bar RSSR: revolute crank, coupler on ball joints at both ends, revolute
    rocker, with skew crank and rocker axes.

    Geometry [m]: crank pivot A at the origin, axis z, crank AB of length ``a`` in the x–y
    plane, B = a·(cos φ, sin φ, 0). Rocker pivot D = ``d`` = (d_x, d_y, d_z), axis along x,
    rocker DC of length ``b``, C = D + b·(0, sin ψ, −cos ψ) (ψ = 0 hangs along −z). Coupler
    BC of length ``l``. Masses ``m1``, ``m2``, ``m3`` [kg]; crank and rocker are slender rods,
    the coupler a solid cylinder of radius ``r2`` [m] (its axial inertia m2·r2²/2 > 0 keeps
    the mass matrix regular). Gravity of the World acts as usual (−y by default).

    Topology (why this one): the ball joint ``ball_b`` at B is a tree joint (quaternion
    coordinates, body-fixed speeds wx, wy, wz with x along the coupler); the ball joint
    ``ball_c`` at C is declared last and is cut, giving 3 closure equations (C's position).
    Tree speeds: crank.w, ball_b.wx..wz, rocker.w = 5; 3 closure equations; so 2 DOF: the
    crank angle and the coupler's idle spin about its own axis (ball_b.wx, which moves no
    joint, so it is never a dependent speed). The spin is a genuine, decoupled freedom: the
    ball joints and gravity act on the coupler axis, so the coupler's absolute angular
    velocity along its axis is constant (Euler's equation for an axisymmetric body); starting
    it at zero spin relative to the crank is the usual choice. The input–output relation
    |C(ψ) − B(φ)| = l is the spatial Freudenstein equation (tests/test_spatial_loops.py).
    The defaults make a crank-rocker: the crank turns fully.
    """

    def __init__(self, a: float = 0.15, l: float = 0.7, b: float = 0.4,
                 d: tuple = (0.4, 0.3, 0.3), m1: float = 0.5, m2: float = 1.0,
                 m3: float = 0.8, r2: float = 0.02):
        super().__init__()
        self.crank = Revolute(axis=(0, 0, 1))
        self.ball_b = Spherical()
        self.rocker = Revolute(axis=(0, 0, 1))
        self.ball_c = Spherical()
        self.crank_rod, self.rocker_rod = rod(m1, a), rod(m3, b)
        self.coupler_rod = cylinder(m2, l, r2)
        self.crank_end = FixedTranslation(r=(a, 0, 0))
        self.coupler_end = FixedTranslation(r=(l, 0, 0))
        self.rocker_end = FixedTranslation(r=(b, 0, 0))
        # Rocker frame: its z axis (the revolute's axis) along world x, its x axis along −z.
        self.ground = FixedRotation(r=tuple(d), axis=(0, 1, 0), angle=math.pi / 2)
        wire_four_bar(self, self.ball_b, self.ball_c)
