"""The V6 engine of the MSL's ``Examples.Loops.EngineV6_analytic``, rebuilt from its published
sources (``Utilities.EngineV6_analytic``, ``Utilities.CylinderBase``): each cylinder's
slider–crank is one :class:`~jourdain.blocks.JointRRP` assembly with the connecting rod on its
frame_ia, the piston on its frame_ib and the gas force between its ``bearing`` and ``axis``
flanges, as in the MSL; one body holds the whole crankshaft's mass.

The MSL solves each JointRRP analytically; jourdain's JointRRP is cut at its middle revolute
and solved by Newton (docs/msl.md), so the model is the MSL's while the method differs.
"""
from __future__ import annotations

from jourdain.blocks import (BodyShape, Composite, CriticalDamping, FixedRotation,
                             FixedTranslation, Inertia, Init, JointRRP,
                             QuadraticSpeedDependentTorque, Revolute, RigidBody,
                             TorqueSensor)

from .engines import V6_CYLINDERS, GasForce2


class CylinderAnalytic(Composite):
    """One cylinder with analytic loop handling (MSL ``Utilities.CylinderBase`` /
    ``Cylinder_analytic_CAD``; same parameter names, lengths [m], masses [kg], inertias
    [kg·m²] about the center of mass; angles in degrees as in the MSL): ``crank`` and
    ``mounting`` (massless, crankLength along x), the crank pin ``mid`` turned by
    crankAngleOffset, ``jointRRP`` (n_a = x, n_b = −y, rRod1_ia = (0, rodLength, 0),
    rRod2_ib = −(0, pistonLength, 0), s_offset = −cylinderTopPosition) from the pin to the
    cylinder frame inclined by cylinderInclinationAngle, ``connectingRod`` and ``piston``
    (BodyShape) and ``gasForce`` (GasForce2, L = cylinderLength, d = 0.1 m).
    """

    def __init__(self, cylinderTopPosition=0.42, crankLength=0.14, crankPinOffset=0.05,
                 crankPinLength=0.1, cylinderInclinationAngle=0.0, crankAngleOffset=0.0,
                 pistonLength=0.1, pistonMass=6.0, pistonInertia_11=0.0088,
                 pistonInertia_22=0.0076, pistonInertia_33=0.0088, rodLength=0.175,
                 rodMass=1.0, rodInertia_11=0.006, rodInertia_22=0.0005,
                 rodInertia_33=0.006):
        super().__init__()
        cylinderLength = cylinderTopPosition - (pistonLength + rodLength - crankPinOffset)
        self.mid = FixedTranslation(r=(crankLength - crankPinLength / 2, crankPinOffset, 0))
        self.mounting = FixedTranslation(r=(crankLength, 0, 0))
        self.cylinderInclination = FixedRotation(r=(crankLength - crankPinLength / 2, 0, 0),
                                                 n=(1, 0, 0), angle_deg=cylinderInclinationAngle)
        self.crankAngle = FixedRotation(n=(1, 0, 0), angle_deg=crankAngleOffset)
        self.jointRRP = JointRRP(n_a=(1, 0, 0), n_b=(0, -1, 0), rRod1_ia=(0, rodLength, 0),
                                 rRod2_ib=(0, -pistonLength, 0), s_offset=-cylinderTopPosition)
        self.connectingRod = BodyShape(r=(0, rodLength, 0), r_CM=(0, rodLength / 2, 0),
                                       m=rodMass, I_11=rodInertia_11, I_22=rodInertia_22,
                                       I_33=rodInertia_33)
        self.piston = BodyShape(r=(0, pistonLength, 0), r_CM=(0, pistonLength / 2, 0),
                                m=pistonMass, I_11=pistonInertia_11, I_22=pistonInertia_22,
                                I_33=pistonInertia_33)
        self.gasForce = GasForce2(L=cylinderLength, d=0.1)
        self.crank = FixedTranslation(r=(crankLength, 0, 0))
        for a, b in ((self.jointRRP.frame_ia, self.connectingRod.frame_a),
                     (self.mid.frame_b, self.jointRRP.frame_a),
                     (self.jointRRP.frame_ib, self.piston.frame_b),
                     (self.jointRRP.frame_b, self.cylinderInclination.frame_b),
                     (self.crankAngle.frame_b, self.mid.frame_a),
                     (self.cylinderInclination.frame_a, self.mounting.frame_a),
                     (self.crankAngle.frame_a, self.crank.frame_a),
                     (self.gasForce.flange_a, self.jointRRP.bearing),
                     (self.gasForce.flange_b, self.jointRRP.axis)):
            self.connect(a, b)
        self.expose(self.mounting.frame_a, "cylinder_a")
        self.expose(self.mounting.frame_b, "cylinder_b")
        self.expose(self.crank.frame_a, "crank_a")
        self.expose(self.crank.frame_b, "crank_b")


class EngineV6Analytic(Composite):
    """The MSL's ``Examples.Loops.EngineV6_analytic``: six :class:`CylinderAnalytic` (crank
    offsets and banks of :data:`~jourdain.library.engines.V6_CYLINDERS`) on the crankshaft
    ``bearing`` (Revolute about x) with one ``crank`` body holding the shaft's mass (m =
    180 kg, center of mass 0.3 m along the axis, I_11 = 0.1 kg·m²), and as in the MSL's
    experiment the ``load`` Inertia (1 kg·m²) behind a ``torqueSensor``, ``load2``
    (−100·(w/200)² N·m) and the critically damped ``filter`` (n = 2, 5 Hz, steady start).

    The MSL's crank has I_22 = I_33 = 1e-5 kg·m² beside I_11 = 0.1 kg·m², which no body with a
    mass distribution has (the triangle inequality I_22 + I_33 ≥ I_11 fails; jourdain refuses
    it): the same mass properties are the body ``crank`` with I = diag(1e-5, 1e-5, 1e-5) and
    an inertia without mass ``crank_inertia`` (m = 0, I_11 = 0.1 − 1e-5) on its frame, as the
    r3 robot's b1 (docs/msl.md).
    """

    def __init__(self, cylinders=V6_CYLINDERS):
        super().__init__()
        self.bearing = Revolute(n=(1, 0, 0))
        self.crank = BodyShape(r=(0, 0, 0), r_CM=(6 * 0.1 / 2, 0, 0), m=6 * 30, I_11=1e-5,
                               I_22=1e-5, I_33=1e-5, lengthDirection=(1, 0, 0),
                               length=0.6)   # the picture only (the MSL: animation=false)
        self.crank_inertia = RigidBody(m=0.0, I=(0.1 - 1e-5, 0.0, 0.0))
        cyls = [self.add(f"cylinder{i + 1}", CylinderAnalytic(
            crankAngleOffset=offset, cylinderInclinationAngle=incline))
            for i, (offset, incline) in enumerate(cylinders)]
        self.load = Inertia(J=1.0)
        self.load2 = QuadraticSpeedDependentTorque(tau_nominal=-100.0, w_nominal=200.0)
        self.torqueSensor = TorqueSensor()
        self.filter = CriticalDamping(n=2, f=5.0, init=Init.STEADY_STATE)
        self.connect(self.bearing.frame_b, self.crank.frame_a)
        self.connect(self.crank.frame_a, self.crank_inertia.frame_a)
        self.connect(self.crank.frame_b, cyls[0].crank_a)
        self.connect(self.bearing.frame_a, cyls[0].cylinder_a)
        for a, b in zip(cyls, cyls[1:]):
            self.connect(a.crank_b, b.crank_a)
            self.connect(a.cylinder_b, b.cylinder_a)
        self.connect(self.load2.flange, self.load.flange_b)
        self.connect(self.torqueSensor.flange_b, self.load.flange_a)
        self.connect(self.torqueSensor.tau, self.filter.u)
        self.connect(self.torqueSensor.flange_a, self.bearing.axis)
        self.expose(self.bearing.frame_a, "frame_a")

