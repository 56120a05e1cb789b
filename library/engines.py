"""Combustion engines of the Modelica Standard Library's ``MultiBody.Examples.Loops``, rebuilt
from their published sources (``EngineV6``, ``Utilities.Cylinder``, ``Utilities.GasForce2``):
the same parts (BodyBox, BodyCylinder with steel's density 7700 kg/m³), geometry, gas-force
law, load and filter.

Each cylinder is a planar loop — crank, connecting rod, piston on a prismatic joint in the
cylinder — closed at the rod's bearing b1 (the MSL cuts it with a
``RevolutePlanarLoopConstraint``; here the compiler cuts it and keeps the independent closure
equations). All cylinders ride on the one crankshaft bearing: one degree of freedom.
"""
from __future__ import annotations

import math

import casadi as ca

from jourdain.blocks import (BodyBox, BodyCylinder, Composite, CriticalDamping, FixedRotation,
                             FixedTranslation, ForceLaw, Inertia, Init, Motion, Prismatic,
                             QuadraticSpeedDependentTorque, Revolute, TorqueSensor)


def gas_pressure(x, v_rel, v_eps: float = 0.0):
    """Cylinder pressure [Pa] of the MSL's GasForce2 at the normalized position x = 1 − s/L
    (1 at top dead centre) and the piston's relative speed v_rel (< 0 compression, > 0
    expansion): quartic fits, 1e5·(…) Pa, as in ``Utilities.GasForce2``. With v_eps > 0
    [m/s] the switch between the two branches at v_rel = 0 is smoothed,
    p = p_c + (p_e − p_c)·(1 + tanh(v_rel/v_eps))/2 (the MSL switches at once)."""
    def quartic(c):
        return (((c[0] * x + c[1]) * x + c[2]) * x + c[3]) * x + c[4]
    compression = ca.if_else(x < 0.986061, quartic((177.4132, -287.2189, 151.8252, -24.9973, 2.4)),
                             quartic((2836360, -10569296, 14761814, -9158505, 2129670)))
    expansion = ca.if_else(x > 0.933, quartic((-3929704, 14748765, -20747000, 12964477, -3036495)),
                           quartic((145.930, -131.707, 17.3438, 17.9272, 2.4)))
    if v_eps > 0:
        return 1e5 * (compression + (expansion - compression) * (1 + ca.tanh(v_rel / v_eps)) / 2)
    return 1e5 * ca.if_else(v_rel < 0, compression, expansion)


class GasForce2(ForceLaw):
    """Rough approximation of the gas force in a combustion engine's cylinder (MSL
    ``Examples.Loops.Utilities.GasForce2``): the pressure p of :func:`gas_pressure` at
    x = 1 − s_rel/L and the sign of v_rel pushes flange_b away from flange_a with p·π·d²/4
    (the MSL's flange force f = −p·π·d²/4 is the cut force, the force on the piston is −f);
    s_rel = flange_b.s − flange_a.s must stay within [0, L].

    L : [m] length of the cylinder.   d : [m] diameter of the cylinder.
    v_eps : [m/s] width of the smoothed switch from compression to expansion at v_rel = 0
        (default 1e-3: the piston crosses it within microseconds and the speed of the V6
        at 1.01 s moves by 1e-7 relative; 0 is the MSL's instant switch, a jump of the force
        at top dead centre that the DAE method's IDAS cannot cross without events).
    """

    def __init__(self, L: float, d: float, v_eps: float = 1e-3):
        self.L, self.d, self.v_eps = float(L), float(d), float(v_eps)
        area = math.pi * self.d ** 2 / 4
        super().__init__(lambda s, v: gas_pressure(1 - s / self.L, v, self.v_eps) * area,
                         Motion.TRANSLATIONAL)


class Cylinder(Composite):
    """Cylinder with rod and crank of a combustion engine (MSL
    ``Examples.Loops.Utilities.Cylinder``, same names, parts and dimensions [m]): crank webs
    crank1 … crank4 between ``crank_a`` and ``crank_b``, the connecting rod between the crank
    pin bearing ``b1`` and the piston pin ``b2``, the piston on the prismatic joint
    ``cylinder`` along −y of the cylinder frame, inclined by ``cylinderInclination`` [rad]
    about x, the crank pin turned by ``crankAngleOffset`` [rad]; the GasForce2 acts between the
    prismatic joint's support and axis. ``cylinder_a``/``cylinder_b`` are the engine block
    (crankLength apart along x).
    """

    def __init__(self, cylinderInclination: float = 0.0, crankAngleOffset: float = 0.0,
                 cylinderTopPosition: float = 0.42, pistonLength: float = 0.1,
                 rodLength: float = 0.2, crankLength: float = 0.2, crankPinOffset: float = 0.1,
                 crankPinLength: float = 0.1):
        super().__init__()
        cylinderLength = cylinderTopPosition - (pistonLength + rodLength - crankPinOffset)
        self.piston = BodyCylinder(r=(0, pistonLength, 0), diameter=0.1)
        self.connectingRod = BodyBox(r=(0, rodLength, 0), r_shape=(0, -0.02, 0),
                                     widthDirection=(1, 0, 0), width=0.02, height=0.06)
        self.b2 = Revolute(n=(1, 0, 0))
        self.crank4 = BodyBox(r=(0, -crankPinOffset, 0), widthDirection=(1, 0, 0),
                              width=0.02, height=0.05)
        self.crank3 = BodyCylinder(r=(crankPinLength, 0, 0), r_shape=(-0.01, 0, 0),
                                   length=0.12, diameter=0.03)
        self.crank1 = BodyCylinder(r=(crankLength - crankPinLength, 0, 0),
                                   r_shape=(-0.01, 0, 0), length=0.12, diameter=0.05)
        self.crank2 = BodyBox(r=(0, crankPinOffset, 0), widthDirection=(1, 0, 0), width=0.02,
                              height=0.05)
        self.b1 = Revolute(n=(1, 0, 0))   # declared after b2: the compiler cuts it (MSL: b1)
        self.mid = FixedTranslation(r=(crankPinLength / 2, 0, 0))
        self.cylinder = Prismatic(n=(0, -1, 0))
        self.mounting = FixedTranslation(r=(crankLength, 0, 0))
        self.cylinderInclination = FixedRotation(
            r=(crankLength - crankPinLength / 2, 0, 0), n_x=(1, 0, 0),
            n_y=(0, math.cos(cylinderInclination), math.sin(cylinderInclination)))
        self.crankAngle1 = FixedRotation(
            n_x=(1, 0, 0), n_y=(0, math.cos(crankAngleOffset), math.sin(crankAngleOffset)))
        self.crankAngle2 = FixedRotation(
            n_x=(1, 0, 0), n_y=(0, math.cos(-crankAngleOffset), math.sin(-crankAngleOffset)))
        self.cylinderTop = FixedTranslation(r=(0, cylinderTopPosition, 0))
        self.gasForce = GasForce2(L=cylinderLength, d=0.1)
        self._wire()

    def _wire(self) -> None:
        for a, b in ((self.b1.frame_a, self.mid.frame_b),
                     (self.connectingRod.frame_a, self.b1.frame_b),
                     (self.cylinder.frame_b, self.piston.frame_b),
                     (self.crank1.frame_a, self.crankAngle1.frame_b),
                     (self.b2.frame_a, self.piston.frame_a),
                     (self.connectingRod.frame_b, self.b2.frame_b),
                     (self.crank4.frame_b, self.crankAngle2.frame_a),
                     (self.cylinderInclination.frame_b, self.cylinderTop.frame_a),
                     (self.crank1.frame_b, self.crank2.frame_a),
                     (self.crank3.frame_b, self.crank4.frame_a),
                     (self.crank3.frame_a, self.crank2.frame_b),
                     (self.crank2.frame_b, self.mid.frame_a),
                     (self.cylinderTop.frame_b, self.cylinder.frame_a),
                     (self.cylinderInclination.frame_a, self.mounting.frame_a),
                     (self.cylinder.axis, self.gasForce.flange_b),
                     (self.cylinder.support, self.gasForce.flange_a)):
            self.connect(a, b)
        self.expose(self.mounting.frame_a, "cylinder_a")
        self.expose(self.mounting.frame_b, "cylinder_b")
        self.expose(self.crankAngle1.frame_a, "crank_a")
        self.expose(self.crankAngle2.frame_b, "crank_b")


V6_CYLINDERS = ((-30, -30), (90, 30), (210, -30), (210, 30), (90, -30), (-30, 30))
"""(crankAngleOffset, cylinderInclination) [deg] of the MSL EngineV6's cylinders 1 … 6."""


class Engine(Composite):
    """An engine after the MSL's ``Examples.Loops.EngineV6``: the crankshaft ``bearing``
    (Revolute about x) carries one Cylinder per entry of ``cylinders`` ((crankAngleOffset,
    cylinderInclination) [deg]), chained crank_b → crank_a and cylinder_b → cylinder_a; the
    bearing's axis drives the ``load`` Inertia (J = 1 kg·m²) through a ``torqueSensor`` whose
    reading, the engine torque, a critically damped filter smooths (``filter``: n = 2,
    f = 5 Hz, started in steady state); ``load2`` brakes with τ = −100·(w/200)² N·m. The
    MSL's experiment starts with load.phi = 0 and load.w = 10 rad/s: ``bearing.phi``,
    ``bearing.w`` here (the load turns with the bearing).
    """

    def __init__(self, cylinders=V6_CYLINDERS):
        super().__init__()
        self.bearing = Revolute(n=(1, 0, 0))
        cyls = [self.add(f"cylinder{i + 1}", Cylinder(
            crankAngleOffset=math.radians(offset), cylinderInclination=math.radians(incline)))
            for i, (offset, incline) in enumerate(cylinders)]
        self.load = Inertia(J=1.0)
        self.load2 = QuadraticSpeedDependentTorque(tau_nominal=-100.0, w_nominal=200.0)
        self.torqueSensor = TorqueSensor()
        self.filter = CriticalDamping(n=2, f=5.0, init=Init.STEADY_STATE)
        self.connect(self.bearing.frame_b, cyls[0].crank_a)
        self.connect(self.bearing.frame_a, cyls[0].cylinder_a)
        for a, b in zip(cyls, cyls[1:]):
            self.connect(a.crank_b, b.crank_a)
            self.connect(a.cylinder_b, b.cylinder_a)
        self.connect(self.load2.flange, self.load.flange_b)
        self.connect(self.torqueSensor.flange_b, self.load.flange_a)
        self.connect(self.torqueSensor.tau, self.filter.u)
        self.connect(self.torqueSensor.flange_a, self.bearing.axis)
        self.expose(self.bearing.frame_a, "frame_a")


class EngineV6(Engine):
    """The V6 engine of the MSL's ``Examples.Loops.EngineV6``: six cylinders, six planar loops
    and one degree of freedom (crank offsets −30°, 90°, 210°, 210°, 90°, −30°, banks at ∓30°);
    see :class:`Engine`. Experiment: 1.01 s from load.w = 10 rad/s (``bearing.w``)."""

    def __init__(self):
        super().__init__(V6_CYLINDERS)


class SingleCylinderEngine(Engine):
    """One upright cylinder of :class:`EngineV6` on the same crankshaft, load and filter: an
    in-line crank–slider (crank radius crankPinOffset = 0.1 m, rod 0.2 m) with the gas force
    of GasForce2 (the MSL's Engine1b family); see :class:`Engine`."""

    def __init__(self):
        super().__init__(((0, 0),))
