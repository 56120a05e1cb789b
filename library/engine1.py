"""The one-cylinder engine of the MSL's ``Examples.Loops.Engine1a``, ``Engine1b`` and
``Engine1b_analytic`` (``Utilities.Engine1Base``), rebuilt from their published sources: the
crankshaft (Crank1 … Crank4) on the ``Bearing`` with the output ``Inertia`` (J = 1 kg·m²) on
its axis, the connecting ``Rod`` and the ``Piston`` in the ``Cylinder`` (prismatic along −y
from cylPosition = (0.15, 0.45, 0)), optionally the gas force GasForce2 (L = 0.35 m,
d = 0.1 m) between the cylinder's support and axis.
"""
from __future__ import annotations

from jourdain.blocks import (BodyBox, BodyCylinder, Composite, FixedTranslation, Inertia,
                             JointRRP, Prismatic, Revolute)

from .engines import GasForce2


class Engine1(Composite):
    """One cylinder of an engine (MSL ``Loops.Engine1a``; ``gasForce=True``: ``Engine1b``).

    With ``analytic=True`` (MSL ``Engine1b_analytic``) the loop's joints B1, B2 and the
    Cylinder are one JointRRP ``jointRRP`` (the rod on its frame_ia, the piston on frame_ib,
    the gas force on its bearing and axis flanges); otherwise B2 (piston pin), ``Cylinder``
    and ``B1`` (crank pin, declared last: the loop is cut there; the MSL marks it
    RevolutePlanarLoopConstraint). The crank angle is ``Bearing.phi``; the Inertia turns with
    it. The piston's distance from the cylinder top is ``Cylinder.s`` (or
    ``jointRRP.prismatic.s``).
    """

    def __init__(self, gasForce: bool = False, analytic: bool = False):
        super().__init__()
        self.Bearing = Revolute(n=(1, 0, 0))
        self.Inertia = Inertia(J=1.0)
        self.Crank1 = BodyCylinder(r=(0.1, 0, 0), diameter=0.05)
        self.Crank2 = BodyBox(r=(0, 0.1, 0), height=0.05, widthDirection=(1, 0, 0), width=0.02)
        self.Crank3 = BodyCylinder(r=(0.1, 0, 0), diameter=0.03)
        self.Crank4 = BodyBox(r=(0, -0.1, 0), height=0.05, widthDirection=(1, 0, 0), width=0.02)
        self.Mid = FixedTranslation(r=(0.05, 0, 0))
        self.cylPosition = FixedTranslation(r=(0.15, 0.45, 0))
        c = self.connect
        for a, b in ((self.Bearing.frame_b, self.Crank1.frame_a),
                     (self.Crank1.frame_b, self.Crank2.frame_a),
                     (self.Crank2.frame_b, self.Crank3.frame_a),
                     (self.Crank3.frame_b, self.Crank4.frame_a),
                     (self.Crank2.frame_b, self.Mid.frame_a),
                     (self.Inertia.flange_b, self.Bearing.axis),
                     (self.Bearing.frame_a, self.cylPosition.frame_a)):
            c(a, b)
        if analytic:
            self.jointRRP = JointRRP(n_a=(1, 0, 0), n_b=(0, -1, 0), rRod1_ia=(0, 0.2, 0),
                                     rRod2_ib=(0, -0.1, 0))
            self.Rod = BodyBox(r=(0, 0.2, 0), widthDirection=(1, 0, 0), width=0.02, height=0.06)
            self.Piston = BodyCylinder(r=(0, -0.1, 0), diameter=0.1)
            c(self.Mid.frame_b, self.jointRRP.frame_a)
            c(self.cylPosition.frame_b, self.jointRRP.frame_b)
            c(self.jointRRP.frame_ia, self.Rod.frame_a)
            c(self.jointRRP.frame_ib, self.Piston.frame_a)
            support, axis = self.jointRRP.bearing, self.jointRRP.axis
        else:
            self.Piston = BodyCylinder(r=(0, -0.1, 0), diameter=0.1)
            self.Rod = BodyBox(r=(0, -0.2, 0), widthDirection=(1, 0, 0), width=0.02, height=0.06)
            self.B2 = Revolute(n=(1, 0, 0))
            self.Cylinder = Prismatic(n=(0, -1, 0))
            self.B1 = Revolute(n=(1, 0, 0))
            for a, b in ((self.cylPosition.frame_b, self.Cylinder.frame_a),
                         (self.Cylinder.frame_b, self.Piston.frame_a),
                         (self.Piston.frame_b, self.B2.frame_a),
                         (self.B2.frame_b, self.Rod.frame_a),
                         (self.Mid.frame_b, self.B1.frame_a),
                         (self.B1.frame_b, self.Rod.frame_b)):
                c(a, b)
            support, axis = self.Cylinder.support, self.Cylinder.axis
        if gasForce:
            self.gasForce = GasForce2(L=0.35, d=0.1)
            c(self.gasForce.flange_a, support)
            c(self.gasForce.flange_b, axis)
        self.expose(self.Bearing.frame_a, "frame_a")
