"""Planar closed-loop linkages built from 3-D revolute joints (axes along z, gravity −y). The
loops are closed by wiring only; the compiler cuts one joint and keeps its closure equations.
Links are uniform slender rods (mass m, length l, central inertia m·l²/12 about z)."""
from __future__ import annotations

from jourdain.blocks import (Composite, FixedRotation, FixedTranslation, Prismatic, Revolute,
                             RigidBody)


def rod(m: float, l: float) -> RigidBody:
    """Slender rod along the local x axis from the frame origin: center of mass at l/2."""
    J = m * l**2 / 12.0
    return RigidBody(m=m, r_cm=(l / 2, 0, 0), I=(1e-9 * J, J, J))


def wire_four_bar(bar: Composite, joint_b, joint_c) -> None:
    """Wire a four-bar whose children are named ``crank``, ``crank_rod``, ``crank_end``,
    ``coupler_rod``, ``coupler_end``, ``ground``, ``rocker``, ``rocker_rod``, ``rocker_end``:
    crank AB from frame_a, ``joint_b`` between crank and coupler at B, rocker DC from the
    ground pivot D, and ``joint_c`` at C closing the loop; expose ``crank.frame_a``."""
    for port_a, port_b in (
            (bar.crank.frame_b, bar.crank_rod.frame_a),
            (bar.crank.frame_b, bar.crank_end.frame_a),
            (bar.crank_end.frame_b, joint_b.frame_a),
            (joint_b.frame_b, bar.coupler_rod.frame_a),
            (joint_b.frame_b, bar.coupler_end.frame_a),
            (bar.crank.frame_a, bar.ground.frame_a),
            (bar.ground.frame_b, bar.rocker.frame_a),
            (bar.rocker.frame_b, bar.rocker_rod.frame_a),
            (bar.rocker.frame_b, bar.rocker_end.frame_a),
            (bar.coupler_end.frame_b, joint_c.frame_a),
            (bar.rocker_end.frame_b, joint_c.frame_b)):
        bar.connect(port_a, port_b)
    bar.expose(bar.crank.frame_a, "frame_a")


class FourBar(Composite):
    """Four-bar linkage: ground pivots A (origin) and D = (l0, 0, 0); crank AB (l1, m1),
    coupler BC (l2, m2), rocker DC (l3, m3) [m, kg]. Coordinates ``crank.phi`` (absolute),
    ``coupler.phi`` (relative to the crank) and ``rocker.phi`` (from the upward vertical,
    positive counter-clockwise); the joint ``pin`` at C closes the loop. The defaults form a
    Grashof crank-rocker (the crank turns fully).

    ``coupler_joint`` replaces the revolute ``coupler`` at B, e.g. a Spherical: the same planar
    mechanism, since the cut revolute ``pin`` keeps the coupler in the plane."""

    def __init__(self, l0: float = 0.8, l1: float = 0.2, l2: float = 0.8, l3: float = 0.5,
                 m1: float = 0.5, m2: float = 1.0, m3: float = 0.8, coupler_joint=None):
        super().__init__()
        self.crank = Revolute(axis=(0, 0, 1))
        self.coupler = Revolute(axis=(0, 0, 1)) if coupler_joint is None else coupler_joint
        self.rocker = Revolute(axis=(0, 0, 1))
        self.pin = Revolute(axis=(0, 0, 1))
        self.crank_rod = rod(m1, l1)
        self.coupler_rod = rod(m2, l2)
        self.rocker_rod = rod(m3, l3)
        self.crank_end = FixedTranslation(r=(l1, 0, 0))
        self.coupler_end = FixedTranslation(r=(l2, 0, 0))
        self.rocker_end = FixedTranslation(r=(l3, 0, 0))
        self.ground = FixedRotation(r=(l0, 0, 0), angle=1.5707963267948966)  # rocker up at 0
        wire_four_bar(self, self.coupler, self.pin)


class CrankSlider(Composite):
    """Crank-slider (piston) mechanism: crank of radius r [m] (mass m1, about the origin),
    connecting rod of length l [m] (mass m2), slider of mass m3 [kg] on a horizontal guide
    through the crank center. Coordinates ``crank.phi`` (absolute), ``rod.phi`` (relative to
    the crank) and ``slider.s`` (slider position along x); the wrist pin ``wrist`` closes the
    loop. A one-DOF mechanism: its generalized mass m_gen(φ) is System.m_gen (Lagrange's equations, generalized mass)."""

    def __init__(self, r: float = 0.1, l: float = 0.35, m1: float = 0.4, m2: float = 0.6,
                 m3: float = 1.0):
        super().__init__()
        self.crank = Revolute(axis=(0, 0, 1))
        self.rod = Revolute(axis=(0, 0, 1))
        self.slider = Prismatic(axis=(1, 0, 0))
        self.wrist = Revolute(axis=(0, 0, 1))
        self.crank_body = rod(m1, r)
        self.rod_body = rod(m2, l)
        self.piston = RigidBody(m=m3)
        self.crank_end = FixedTranslation(r=(r, 0, 0))
        self.rod_end = FixedTranslation(r=(l, 0, 0))
        self.connect(self.crank.frame_b, self.crank_body.frame_a)
        self.connect(self.crank.frame_b, self.crank_end.frame_a)
        self.connect(self.crank_end.frame_b, self.rod.frame_a)
        self.connect(self.rod.frame_b, self.rod_body.frame_a)
        self.connect(self.rod.frame_b, self.rod_end.frame_a)
        self.connect(self.crank.frame_a, self.slider.frame_a)
        self.connect(self.slider.frame_b, self.piston.frame_a)
        self.connect(self.rod_end.frame_b, self.wrist.frame_a)
        self.connect(self.slider.frame_b, self.wrist.frame_b)
        self.expose(self.crank.frame_a, "frame_a")


class StackedFourBars(Composite):
    """``k`` four-bars stacked so that each rides on the one below: bar i+1's ground (its
    ``frame_a``, the crank pivot, with the rocker pivot l0 along its x axis) is the coupler
    frame of bar i (at the coupler's joint B, turning with the coupler). Children ``bar1`` …
    ``bark`` are :class:`FourBar` (same parameters [m, kg]); the loops ride on one another,
    the benchmark of closed loops that are coupled through the tree (benchmarks/loops.py).
    """

    def __init__(self, k: int = 2, **four_bar):
        super().__init__()
        bars = [self.add(f"bar{i + 1}", FourBar(**four_bar)) for i in range(int(k))]
        self.expose(bars[0].frame_a, "frame_a")
        for below, above in zip(bars, bars[1:]):
            self.connect(below.coupler.frame_b, above.frame_a)
