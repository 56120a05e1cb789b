"""The Manutec r3 robot of the Modelica Standard Library
(``Mechanics.MultiBody.Examples.Systems.RobotR3``), rebuilt from jourdain's parts with the
MSL's structure, names and parameters (public MSL 4.0 sources, ``RobotR3/Utilities``).

``Motor`` — the motor with its analog current controller: two voltage sources (the current
reference and the Hall sensor's reading), a differential amplifier ``diff``, an integrator
``OpI`` and a power amplifier ``power`` (ideal op-amps), the armature ``Ra``, ``La``, the
``emf`` and the rotor ``Jmotor``. ``GearType1`` — bearing friction on the motor side, gear
elasticity (``SpringDamper``) and an ideal gear; ``GearType2`` — a rigid ideal gear and bearing
friction on the joint side. ``Controller`` — the P-PI cascade on the motor side (references
at the gear output scaled by the ratio). ``AxisType1`` / ``AxisType2`` — controller, motor and
gear of axes 1-3 / 4-6. ``MechanicalStructure`` — six revolutes and the MSL's bodies.
``PathPlanning6`` (and ``PathPlanning1``) — ``KinematicPTP2`` split per axis. ``OneAxis``
and ``FullRobot`` — the two examples.

Differences from the MSL, all of form: the op-amps are ``IdealOpAmp`` with three pins (the
MSL's four-pin IdealOpAmp has every output's n2 on ground in this circuit, so the circuits
are the same); the Motor's sensors ``phi`` and ``speed`` are one ``AngleSensor`` named ``phi``
(outputs ``phi.phi``, ``phi.w``); the control bus is plain connections; the axis sensors of the
bus (angle, speed, acceleration of the gear output) are left out (no block reads them: the
joint's coordinate and speed are in the Result); ``InitializeFlange`` and the initial
equations (the motor's der(C.v) = der(La.i) = 0, the gear's w_rel = a_rel = 0) are the
conditions of :func:`initial_conditions` given to ``system.initialize``.
"""
from __future__ import annotations

import numpy as np

from jourdain.blocks import (
    EMF,
    PI,
    Add3,
    AngleSensor,
    BodyShape,
    Capacitor,
    Composite,
    CurrentSensor,
    Demux,
    Feedback,
    Gain,
    Ground,
    IdealGear,
    Inductor,
    Inertia,
    KinematicPTP2,
    Resistor,
    Revolute,
    RigidBody,
    SignalVoltage,
    SpringDamper,
)
from jourdain.blocks.electrical import IdealOpAmp
from jourdain.blocks.hybrid import BearingFriction


class Motor(Composite):
    """Motor including the current controller of the r3 motors (MSL ``Utilities.Motor``).

    J [kg·m²] rotor inertia; k [N·m/A] motor gain (EMF constant); w [1/s], D [1] time constant
    and damping of the current loop (La = 250/(2·D·w), C = 0.004·D/w). Input ``current_ref``
    [A] (as a voltage of 1 V/A), outputs ``motorAngle``, ``motorSpeed`` (the rotor's) and
    ``current`` (Hall sensor), flange ``flange_motor``.

    The circuit: ``diff`` gives i − i_ref, ``OpI`` integrates it (Ri·C), ``power`` amplifies by
    1 + Rp1/Rp2 = 5 onto the armature Ra, La, emf.
    """

    def __init__(self, J: float = 0.0013, k: float = 1.1616, w: float = 4590.0,
                 D: float = 0.6):
        super().__init__()
        self.Vs, self.hall2 = SignalVoltage(), SignalVoltage()
        self.power, self.diff, self.OpI = IdealOpAmp(), IdealOpAmp(), IdealOpAmp()
        self.emf = EMF(k=k)
        self.La, self.Ra = Inductor(L=250 / (2 * D * w)), Resistor(R=250.0)
        self.Rd1, self.Rd2, self.Rd3, self.Rd4 = (Resistor(R=100.0) for _ in range(4))
        self.C, self.Ri = Capacitor(C=0.004 * D / w), Resistor(R=10.0)
        self.Rp1, self.Rp2 = Resistor(R=200.0), Resistor(R=50.0)
        self.g1 = Ground()
        self.hall1, self.phi = CurrentSensor(), AngleSensor()
        self.Jmotor = Inertia(J=J)
        self.convert1, self.convert2 = Gain(1.0), Gain(1.0)   # [V/A]
        pairs = [(self.La.n, self.emf.p), (self.Ra.n, self.La.p), (self.Rd2.n, self.diff.in_n),
                 (self.C.n, self.OpI.out), (self.OpI.out, self.power.in_p),
                 (self.Vs.p, self.Rd2.p), (self.diff.in_n, self.Rd1.p),
                 (self.Rd1.n, self.diff.out), (self.diff.out, self.Ri.p),
                 (self.Ri.n, self.OpI.in_n), (self.OpI.in_n, self.C.p),
                 (self.power.in_n, self.Rp1.p), (self.power.out, self.Rp1.n),
                 (self.Rp1.p, self.Rp2.p), (self.power.out, self.Ra.p),
                 (self.Rd3.p, self.hall2.p), (self.Rd3.n, self.diff.in_p),
                 (self.Rd3.n, self.Rd4.p), (self.emf.n, self.hall1.p),
                 (self.emf.flange, self.phi.flange), (self.emf.flange, self.Jmotor.flange_a),
                 (self.hall1.i, self.convert1.u), (self.convert1.y, self.hall2.v),
                 (self.convert2.y, self.Vs.v)]
        # the MSL's grounds g1 … g5 are one node
        pairs += [(pin, self.g1.p) for pin in (self.Vs.n, self.hall2.n, self.Rd4.n,
                                               self.OpI.in_p, self.Rp2.n, self.hall1.n)]
        for a, b in pairs:
            self.connect(a, b)
        self.expose(self.convert2.u, "current_ref")
        self.expose(self.phi.phi, "motorAngle")
        self.expose(self.phi.w, "motorSpeed")
        self.expose(self.hall1.i, "current")
        self.expose(self.Jmotor.flange_b, "flange_motor")


def _friction_table(Rv0: float, Rv1: float) -> list:
    """The MSL's tau_pos = [0, Rv0; 1, Rv0 + Rv1] (R = Rv0 + Rv1·|w|)."""
    return [[0.0, Rv0], [1.0, Rv0 + Rv1]]


class GearType1(Composite):
    """Motor inertia side friction, elasticity and gear of joints 1-3 (MSL
    ``Utilities.GearType1``): ``bearingFriction`` (motor side) → ``spring`` (SpringDamper c, d)
    → ``gear`` (IdealGear i). Flanges ``flange_a`` (motor), ``flange_b`` (joint)."""

    def __init__(self, i: float = -105.0, c: float = 43.0, d: float = 0.005,
                 Rv0: float = 0.4, Rv1: float = 0.13 / 160, peak: float = 1.0):
        super().__init__()
        self.bearingFriction = BearingFriction(tau_pos=_friction_table(Rv0, Rv1), peak=peak)
        self.spring = SpringDamper(c=c, d=d)
        self.gear = IdealGear(ratio=i)
        self.connect(self.bearingFriction.flange_b, self.spring.flange_a)
        self.connect(self.spring.flange_b, self.gear.flange_a)
        self.expose(self.bearingFriction.flange_a, "flange_a")
        self.expose(self.gear.flange_b, "flange_b")


class GearType2(Composite):
    """Rigid gear and joint side friction of joints 4-6 (MSL ``Utilities.GearType2``):
    ``gear`` (IdealGear i) → ``bearingFriction``. Flanges ``flange_a`` (motor), ``flange_b``
    (joint)."""

    def __init__(self, i: float = -99.0, Rv0: float = 21.8, Rv1: float = 9.8,
                 peak: float = 26.7 / 21.8):
        super().__init__()
        self.gear = IdealGear(ratio=i)
        self.bearingFriction = BearingFriction(tau_pos=_friction_table(Rv0, Rv1), peak=peak)
        self.connect(self.gear.flange_b, self.bearingFriction.flange_a)
        self.expose(self.gear.flange_a, "flange_a")
        self.expose(self.bearingFriction.flange_b, "flange_b")


class Controller(Composite):
    """P-PI cascade controller of one axis (MSL ``Utilities.Controller``):
    current_ref = PI(ks, Ts)[ratio·speed_ref + kp·(ratio·angle_ref − motorAngle) −
    motorSpeed]. Inputs ``angle_ref``, ``speed_ref`` (gear output), ``motorAngle``,
    ``motorSpeed``; output ``current_ref``."""

    def __init__(self, kp: float = 10.0, ks: float = 1.0, Ts: float = 0.01,
                 ratio: float = 1.0):
        super().__init__()
        self.gain1, self.gain2 = Gain(ratio), Gain(ratio)
        self.feedback1, self.P = Feedback(), Gain(kp)
        self.add3 = Add3(k3=-1.0)
        self.PI = PI(k=ks, T=Ts)
        for a, b in ((self.gain1.y, self.feedback1.u1), (self.feedback1.y, self.P.u),
                     (self.P.y, self.add3.u2), (self.gain2.y, self.add3.u1),
                     (self.add3.y, self.PI.u)):
            self.connect(a, b)
        self.expose(self.gain1.u, "angle_ref")
        self.expose(self.gain2.u, "speed_ref")
        self.expose(self.feedback1.u2, "motorAngle")
        self.expose(self.add3.u3, "motorSpeed")
        self.expose(self.PI.y, "current_ref")


class AxisType2(Composite):
    """Axis of joints 4-6 (MSL ``Utilities.AxisType2``): ``controller`` → ``motor`` →
    ``gear`` (GearType2). Inputs ``angle_ref``, ``speed_ref``; flange ``flange`` (the joint)."""

    def __init__(self, kp: float = 10.0, ks: float = 1.0, Ts: float = 0.01,
                 k: float = 1.1616, w: float = 4590.0, D: float = 0.6, J: float = 0.0013,
                 ratio: float = -105.0, Rv0: float = 0.4, Rv1: float = 0.13 / 160,
                 peak: float = 1.0, **gear):
        super().__init__()
        self.gear = self._gear(ratio, Rv0, Rv1, peak, **gear)
        self.motor = Motor(J=J, k=k, w=w, D=D)
        self.controller = Controller(kp=kp, ks=ks, Ts=Ts, ratio=ratio)
        for a, b in ((self.motor.flange_motor, self.gear.flange_a),
                     (self.motor.motorAngle, self.controller.motorAngle),
                     (self.motor.motorSpeed, self.controller.motorSpeed),
                     (self.controller.current_ref, self.motor.current_ref)):
            self.connect(a, b)
        self.expose(self.controller.angle_ref, "angle_ref")
        self.expose(self.controller.speed_ref, "speed_ref")
        self.expose(self.gear.flange_b, "flange")

    def _gear(self, ratio, Rv0, Rv1, peak):
        return GearType2(i=ratio, Rv0=Rv0, Rv1=Rv1, peak=peak)


class AxisType1(AxisType2):
    """Axis of joints 1-3 (MSL ``Utilities.AxisType1``): AxisType2 with the elastic gear
    GearType1 (c [N·m/rad], cd [N·m·s/rad] on the motor side)."""

    def __init__(self, c: float = 43.0, cd: float = 0.005, **kwargs):
        super().__init__(c=c, cd=cd, **kwargs)

    def _gear(self, ratio, Rv0, Rv1, peak, c, cd):
        return GearType1(i=ratio, c=c, d=cd, Rv0=Rv0, Rv1=Rv1, peak=peak)


def _inertia(I_11=0.001, I_22=0.001, I_33=0.001, I_21=0.0):
    """The MSL BodyShape's inertia entries (its defaults are 0.001 kg·m² on the diagonal)."""
    return dict(I_11=I_11, I_22=I_22, I_33=I_33, I_21=I_21)


class MechanicalStructure(Composite):
    """The mechanical part of the r3 robot (MSL ``Utilities.MechanicalStructure``): revolutes
    ``r1`` … ``r6`` (axes y, x, x, y, x, y), bodies ``b0`` … ``b6`` and ``load`` with the MSL's
    masses, centres of mass and inertias. Ports ``frame_a`` (the base, on the world; gravity
    along −y as the MSL's world) and the joints' flanges ``axis1`` … ``axis6``.

    mLoad [kg] load mass; rLoad [m] from the last flange to the load's centre of mass."""

    def __init__(self, mLoad: float = 15.0, rLoad=(0.0, 0.25, 0.0)):
        super().__init__()
        axes = [(0, 1, 0), (1, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 0), (0, 1, 0)]
        for k, n in enumerate(axes, 1):
            setattr(self, f"r{k}", Revolute(n=n))
        # the MSL's CAD shapes (b0.dxf …) drawn as boxes of the MSL's length, width, height
        box = lambda length, width, height: dict(  # noqa: E731
            shapeType="box", lengthDirection=(1, 0, 0), widthDirection=(0, 1, 0),
            length=length, width=width, height=height)
        self.b0 = BodyShape(r=(0, 0.351, 0), m=1.0, **_inertia(), **box(0.225, 0.3, 0.3))
        # the MSL's b1 (m = 1, I_22 = 1.16, I_11 = I_33 = 0.001) breaks the triangle
        # inequality, which no body with mass can (refused, docs/msl.md): the same mass
        # properties are a body with the default inertia plus an inertia without mass
        self.b1 = BodyShape(r=(0, 0.324, 0.3), m=1.0, **_inertia(), **box(0.25, 0.15, 0.2))
        self.b1_inertia = RigidBody(m=0.0, I=(0.0, 1.16 - 0.001, 0.0))
        self.b2 = BodyShape(r=(0, 0.65, 0), r_CM=(0.172, 0.205, 0), m=56.5,
                            **_inertia(2.58, 0.64, 2.73, -0.46), **box(0.5, 0.2, 0.15))
        self.b3 = BodyShape(r=(0, 0.414, -0.155), r_CM=(0.064, -0.034, 0), m=26.4,
                            **_inertia(0.279, 0.245, 0.413, -0.070), **box(0.15, 0.15, 0.15))
        self.b4 = BodyShape(r=(0, 0.186, 0), m=28.7, **_inertia(1.67, 0.081, 1.67),
                            **box(0.73, 0.1, 0.1))
        self.b5 = BodyShape(r=(0, 0.125, 0), m=5.2, **_inertia(1.25, 0.81, 1.53),
                            **box(0.225, 0.075, 0.1))
        # b6's shape has no length in the MSL (r = 0): a 5 cm box stands for it
        self.b6 = BodyShape(r=(0, 0, 0), r_CM=(0.05, 0.05, 0.05), m=0.5, **_inertia(),
                            **box(0.05, 0.05, 0.05))
        rLoad = np.asarray(rLoad, dtype=float)
        self.load = BodyShape(r=(0, 0, 0), r_CM=tuple(rLoad), m=mLoad, **_inertia(),
                              lengthDirection=tuple(rLoad / np.linalg.norm(rLoad)),
                              widthDirection=(1, 0, 0), length=float(np.linalg.norm(rLoad)),
                              width=0.05, height=0.05)
        chain = [self.b0, self.r1, self.b1, self.r2, self.b2, self.r3, self.b3, self.r4,
                 self.b4, self.r5, self.b5, self.r6, self.b6]
        for a, b in zip(chain, chain[1:]):
            self.connect(a.frame_b, b.frame_a)
        self.connect(self.b6.frame_b, self.load.frame_a)
        self.connect(self.b1.frame_a, self.b1_inertia.frame_a)
        self.expose(self.b0.frame_a, "frame_a")
        for k in range(1, 7):
            self.expose(getattr(self, f"r{k}").axis, f"axis{k}")


class PathPlanning6(Composite):
    """Reference angles for the fastest kinematic movement of naxis axes (MSL
    ``Utilities.PathPlanning6``): ``ptp`` (KinematicPTP2, the MSL's ``path``, all axes
    synchronized) split per axis into outputs ``angle_ref1`` … and ``speed_ref1`` … (the
    control bus's angle_ref and speed_ref). Angles in degrees as in the MSL (angleBegDeg,
    angleEndDeg); speedMax [rad/s], accMax [rad/s²], startTime [s]; swingTime [s] the MSL's
    time after the motion before the run stops (``stopTime``, an attribute: ptp.endTime +
    swingTime)."""

    def __init__(self, naxis: int = 6, angleBegDeg=0.0, angleEndDeg=1.0, speedMax=3.0,
                 accMax=2.5, startTime: float = 0.0, swingTime: float = 0.5):
        super().__init__()
        size = lambda v: np.broadcast_to(np.asarray(v, dtype=float), (naxis,))  # noqa: E731
        self.ptp = KinematicPTP2(q_begin=np.radians(size(angleBegDeg)),
                                  q_end=np.radians(size(angleEndDeg)),
                                  qd_max=size(speedMax), qdd_max=size(accMax),
                                  startTime=startTime)
        self.q_split, self.qd_split = Demux(*[1] * naxis), Demux(*[1] * naxis)
        self.connect(self.ptp.q, self.q_split.u)
        self.connect(self.ptp.qd, self.qd_split.u)
        for k in range(1, naxis + 1):
            self.expose(getattr(self.q_split, f"y{k}"), f"angle_ref{k}")
            self.expose(getattr(self.qd_split, f"y{k}"), f"speed_ref{k}")
        self.stopTime = self.ptp.endTime + swingTime


class PathPlanning1(PathPlanning6):
    """PathPlanning6 for one axis (MSL ``Utilities.PathPlanning1``)."""

    def __init__(self, angleBegDeg: float = 0.0, angleEndDeg: float = 1.0,
                 speedMax: float = 3.0, accMax: float = 2.5, startTime: float = 0.0,
                 swingTime: float = 0.5):
        super().__init__(1, angleBegDeg, angleEndDeg, speedMax, accMax, startTime, swingTime)


class OneAxis(Composite):
    """One axis of the r3 robot with a load inertia (MSL ``RobotR3.OneAxis``): ``axis``
    (AxisType1 of axis 2: w = 5500, ratio 210, c = 8, cd = 0.01, Rv0 = 0.5, Rv1 = 0.1/130),
    ``load`` (Inertia J = 1.3·mLoad) and ``pathPlanning`` (PathPlanning1 from startAngle to
    endAngle [deg] with refSpeedMax, refAccMax). Run for ``pathPlanning.stopTime`` (1.6 s)."""

    def __init__(self, mLoad: float = 15.0, kp: float = 5.0, ks: float = 0.5,
                 Ts: float = 0.05, startAngle: float = 0.0, endAngle: float = 120.0,
                 swingTime: float = 0.5, refSpeedMax: float = 3.0, refAccMax: float = 10.0):
        super().__init__()
        self.axis = AxisType1(w=5500.0, ratio=210.0, c=8.0, cd=0.01, Rv0=0.5, Rv1=0.1 / 130,
                              kp=kp, ks=ks, Ts=Ts)
        self.load = Inertia(J=1.3 * mLoad)
        self.pathPlanning = PathPlanning1(angleBegDeg=startAngle, angleEndDeg=endAngle,
                                          speedMax=refSpeedMax, accMax=refAccMax,
                                          swingTime=swingTime)
        self.connect(self.axis.flange, self.load.flange_a)
        self.connect(self.pathPlanning.angle_ref1, self.axis.angle_ref)
        self.connect(self.pathPlanning.speed_ref1, self.axis.speed_ref)
        self.joints = {"load.phi": float(self.pathPlanning.ptp.q_begin[0])}


# the MSL FullRobot's axes: (type, parameters)
FULL_ROBOT_AXES = (
    (AxisType1, dict(w=4590.0, ratio=-105.0, c=43.0, cd=0.005, Rv0=0.4, Rv1=0.13 / 160)),
    (AxisType1, dict(w=5500.0, ratio=210.0, c=8.0, cd=0.01, Rv0=0.5, Rv1=0.1 / 130)),
    (AxisType1, dict(w=5500.0, ratio=60.0, c=58.0, cd=0.04, Rv0=0.7, Rv1=0.2 / 130)),
    (AxisType2, dict(k=0.2365, w=6250.0, D=0.55, J=1.6e-4, ratio=-99.0, Rv0=21.8, Rv1=9.8,
                     peak=26.7 / 21.8)),
    (AxisType2, dict(k=0.2608, w=6250.0, D=0.55, J=1.8e-4, ratio=79.2, Rv0=30.1, Rv1=0.03,
                     peak=39.6 / 30.1)),
    (AxisType2, dict(k=0.0842, w=7400.0, D=0.27, J=4.3e-5, ratio=-99.0, Rv0=10.9, Rv1=3.92,
                     peak=16.8 / 10.9)),
)


class FullRobot(Composite):
    """The six-axis r3 robot (MSL ``RobotR3.FullRobot``): ``mechanics``
    (MechanicalStructure), ``pathPlanning`` (PathPlanning6) and ``axis1`` … ``axis6`` with the
    MSL's parameters. Exposes ``frame_a`` (the base) for a World with gravity along −y
    (jourdain's default, the MSL's n = {0, −1, 0}). Angles in degrees as in the MSL; kp, ks,
    Ts one value for all axes or six."""

    def __init__(self, mLoad: float = 15.0, rLoad=(0.1, 0.25, 0.1),
                 startAngles=(-60.0, 20.0, 90.0, 0.0, -110.0, 0.0),
                 endAngles=(60.0, -70.0, -35.0, 45.0, 110.0, 45.0),
                 refSpeedMax=(3.0, 1.5, 5.0, 3.1, 3.1, 4.1),
                 refAccMax=(15.0, 15.0, 15.0, 60.0, 60.0, 60.0), refStartTime: float = 0.0,
                 refSwingTime: float = 0.5, kp=5.0, ks=0.5, Ts=0.05):
        super().__init__()
        self.mechanics = MechanicalStructure(mLoad=mLoad, rLoad=rLoad)
        self.pathPlanning = PathPlanning6(6, startAngles, endAngles, refSpeedMax, refAccMax,
                                          refStartTime, refSwingTime)
        gains = [np.broadcast_to(np.asarray(v, dtype=float), (6,)) for v in (kp, ks, Ts)]
        for k, (kind, params) in enumerate(FULL_ROBOT_AXES, 1):
            axis = kind(kp=gains[0][k - 1], ks=gains[1][k - 1], Ts=gains[2][k - 1], **params)
            setattr(self, f"axis{k}", axis)
            self.connect(axis.flange, getattr(self.mechanics, f"axis{k}"))
            self.connect(getattr(self.pathPlanning, f"angle_ref{k}"), axis.angle_ref)
            self.connect(getattr(self.pathPlanning, f"speed_ref{k}"), axis.speed_ref)
        self.expose(self.mechanics.frame_a, "frame_a")
        self.joints = {f"mechanics.r{k}.phi": float(q)
                       for k, q in enumerate(self.pathPlanning.ptp.q_begin, 1)}


def initial_conditions(system, robot) -> dict:
    """The MSL's initialization of OneAxis and FullRobot as keywords of
    ``system.initialize``: each joint at its reference's start angle and at rest
    (InitializeFlange: phi = angle_ref, w = speed_ref = 0, a = 0), the gears' springs at rest
    (w_rel = 0, a_rel = 0), the motors' circuits steady (der(C.v) = der(La.i) = 0): every speed
    0 and steady, every inductor current and capacitor voltage steady. Solved: the motors'
    angles (the springs' deflections) and the speed controllers' integrators, which then carry
    the gravity torques.

    The friction elements are released (mode FREE) while solving: at rest the MSL's equations
    leave the share of a stuck bearing in the holding torque undetermined (any torque within
    the static limit), and the start taken here is the one where it carries none. The run
    then starts with the modes the friction elements choose themselves (stuck at rest).

    ``robot``: the OneAxis or FullRobot of the compiled ``system``.
    """
    joints = {f"{robot.path}.{name}": q for name, q in robot.joints.items()}
    speeds = [n for n in system.x_names[len(system.y_names):] if n.endswith(".w")]
    circuits = [n for n in system.x_names if n.endswith((".La.i", ".C.v"))]
    modes = {n: 2 for n in system.p_names if n.endswith("bearingFriction.mode")}
    return dict(y0=joints, z0=dict.fromkeys(speeds, 0.0), steady=speeds + circuits,
                params=modes)
