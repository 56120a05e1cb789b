"""The families of the composition matrix (tests/composition.py): one tiny model per family,
as a ``Case`` that every consumer reads (the System, the simulate keywords, a symbolic
parameter to sweep, an operating point to linearize about).

Each builder compiles anew (codegen replaces a System's f, so no two cells share one).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca
import numpy as np
from hybrid_models import pendulum, shaft

import jourdain as jd
from jourdain.blocks import (
    AngleSensor,
    Capacitor,
    ConstantVoltage,
    FreeJoint,
    Gain,
    Ground,
    IdealGear,
    Inductor,
    Inertia,
    Motion,
    Motor,
    Prismatic,
    RealOutput,
    Resistor,
    RigidBody,
    SignalBlock,
    SignalVoltage,
    Sine,
    ViscousFriction,
    World,
)
from jourdain.blocks.drivers import translational
from jourdain.blocks.forces import ForceLaw
from jourdain.blocks.hybrid import (
    Clutch,
    DiscretePID,
    ElastoGap,
    GroundContact,
    Stop,
    ZeroOrderHold,
)
from jourdain.blocks.hybrid.contacts import ContactMode
from jourdain.blocks.hybrid.friction import FrictionMode
from jourdain.blocks.hybrid.stops import StopMode
from jourdain.library import DCMotor, FourBar, RollingDisk
from jourdain.library.wheel import upright_quaternion


@dataclass
class Case:
    """A family's model as the consumers see it.

    system : the compiled System. run : simulate's keywords (y0, z0, inputs with constant
    values, events, controller, period). param : a symbolic parameter and two values for the
    sweep. op : linearize's operating point (y0, z0, u0). closed : for controllers, the
    System a System-only consumer (FMU, linearize, TrajectoryProblem) gets, built by what a
    user would call (jd.close_loop), as a function (it may refuse)."""

    system: object
    t_end: float
    run: dict = field(default_factory=dict)
    param: tuple = ()
    op: dict = field(default_factory=dict)
    closed: object = None
    modes: dict = field(default_factory=dict)


def _model() -> jd.Model:
    return jd.Model(world=World())


def tree() -> Case:
    """Double pendulum, a motor torque (input) on the first joint, a damper on the second."""
    m = _model()
    j1, b1 = pendulum(m, "j1", m=1.0, l=0.5)
    j2, _ = pendulum(m, "j2", m=0.5, l=0.4, parent=b1.frame_a)
    m.motor, m.damper = Motor(), ViscousFriction(d=0.05)
    m.connect(m.motor.flange_b, j1.axis)
    m.connect(m.damper.flange_b, j2.axis)
    system = jd.compile(m, parameters=["j2_bob.m"])
    return Case(system, 1.0, dict(y0={"j1.phi": 0.6, "j2.phi": -0.4},
                                  inputs={"motor.tau": 0.3}),
                ("j2_bob.m", (0.5, 0.8)), dict(y0={"j1.phi": 0.6, "j2.phi": -0.4}))


def loop() -> Case:
    """The library's four-bar (one closed loop, partitioning), cranked at 2 rad/s."""
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar()),
                        parameters=["fb.coupler_rod.m"])
    return Case(system, 1.0, dict(y0={"fb.crank.phi": 1.0}, z0={"fb.crank.w": 2.0}),
                ("fb.coupler_rod.m", (1.0, 1.5)), dict(y0={"fb.crank.phi": 1.0}))


def rolling() -> Case:
    """A thin disk rolling without slip (holonomic height, two no-slip velocity rows)."""
    system = jd.compile(jd.Model.on_world(World(), disk=RollingDisk(R=0.25, m=1.0)),
                        parameters=["disk.disk.m"])
    y0 = upright_quaternion(heading=0.5, lean=0.2, prefix="disk.joint.")
    z0 = {"disk.joint.wz": -12.0, "disk.joint.wy": 1.0}
    return Case(system, 0.5, dict(y0=y0, z0=z0), ("disk.disk.m", (1.0, 1.3)),
                dict(y0=y0, z0=z0))


def driver() -> Case:
    """A pendulum on a cart whose position is prescribed (exact Position driver) by a Sine."""
    m = _model()
    m.rail, m.cart = Prismatic(axis=(1, 0, 0)), RigidBody(m=1.0, I=(0.01, 0.01, 0.01))
    m.connect(m.world.frame_b, m.rail.frame_a)
    m.connect(m.rail.frame_b, m.cart.frame_a)
    pendulum(m, "hinge", m=0.5, l=0.4, parent=m.rail.frame_b)
    m.driver, m.source = translational.Position(exact=True), Sine(amplitude=0.2, f=1.0)
    m.connect(m.driver.flange, m.rail.axis)
    m.connect(m.source.y, m.driver.s_ref)
    system = jd.compile(m, parameters=["hinge_bob.m"])
    return Case(system, 1.0, dict(y0={"hinge.phi": 0.3}), ("hinge_bob.m", (0.5, 0.7)),
                dict(y0={"hinge.phi": 0.3}))


def drivetrain() -> Case:
    """motor → rotor Inertia → IdealGear (ratio 10) → an arm turning in the horizontal plane,
    damped."""
    m = _model()
    joint = shaft(m, "arm", J=0.26)
    m.motor, m.rotor, m.gear = Motor(), Inertia(J=1e-3), IdealGear(ratio=10.0)
    m.damper = ViscousFriction(d=0.1)
    m.connect(m.motor.flange_b, m.rotor.flange_a)
    m.connect(m.rotor.flange_b, m.gear.flange_a)
    m.connect(m.gear.flange_b, joint.axis)
    m.connect(m.damper.flange_b, joint.axis)
    system = jd.compile(m, parameters=["rotor.J"])
    return Case(system, 1.0, dict(z0={"arm.w": 0.5}, inputs={"motor.tau": 0.05}),
                ("rotor.J", (1e-3, 2e-3)), dict(z0={"arm.w": 0.5}, u0={"motor.tau": 0.05}))


def electrical() -> Case:
    """A DC motor (R, L, EMF, rotor) fed by a constant voltage, turning a pendulum."""
    m = _model()
    joint, _ = pendulum(m, "arm", m=0.3, l=0.2)
    m.src, m.motor, m.ground = ConstantVoltage(V=3.0), DCMotor(R=2.0, L=0.01, k=0.1, J=1e-4), \
        Ground()
    m.connect(m.src.p, m.motor.p)
    m.connect(m.motor.n, m.src.n)
    m.connect(m.ground.p, m.src.n)
    m.connect(m.motor.flange, joint.axis)
    system = jd.compile(m, parameters=["motor.armature.R"])
    return Case(system, 1.0, dict(y0={"arm.phi": 0.2}), ("motor.armature.R", (2.0, 3.0)),
                dict(y0={"arm.phi": 0.2}))


def circuit() -> Case:
    """An RLC series circuit driven by a SignalVoltage (input), no mechanics at all."""
    m = _model()
    m.src, m.R, m.L, m.C, m.ground = SignalVoltage(), Resistor(R=2.0), Inductor(L=0.1), \
        Capacitor(C=1e-3), Ground()
    m.connect(m.src.p, m.R.p)
    m.connect(m.R.n, m.L.p)
    m.connect(m.L.n, m.C.p)
    m.connect(m.C.n, m.src.n)
    m.connect(m.ground.p, m.src.n)
    system = jd.compile(m, parameters=["R.R"])
    return Case(system, 0.2, dict(inputs={"src.v": 1.0}), ("R.R", (2.0, 3.0)),
                dict(u0={"src.v": 1.0}))


def stop() -> Case:
    """A pendulum between two rigid stops at ±0.3 rad (restitution 0.5)."""
    m = _model()
    joint, _ = pendulum(m, "arm", m=1.0, l=0.5)
    m.limit = Stop(lower=-0.3, upper=0.3, e=0.5)
    m.connect(m.limit.flange_b, joint.axis)
    system = jd.compile(m, parameters=["arm_bob.m"])
    return Case(system, 1.0, dict(z0={"arm.w": 2.0}), ("arm_bob.m", (1.0, 1.5)),
                dict(y0={"arm.phi": 0.1}), modes={"limit.mode": StopMode.FREE})


def elastogap() -> Case:
    """A mass on a vertical slider dropped from 2 cm onto a compliant ElastoGap (MSL's law)."""
    m = _model()
    m.slide, m.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=0.5)
    m.connect(m.world.frame_b, m.slide.frame_a)
    m.connect(m.slide.frame_b, m.ball.frame_a)
    m.gap = ElastoGap(c=2e3, d=5.0)
    m.connect(m.gap.flange_b, m.slide.axis)
    system = jd.compile(m, parameters=["ball.m"])
    return Case(system, 1.0, dict(y0={"slide.s": 0.02}), ("ball.m", (0.5, 0.6)),
                dict(y0={"slide.s": 0.02}))


def friction() -> Case:
    """Two shafts coupled by a Clutch (normal force 0.5·fn_max from the start): slips, locks."""
    m = _model()
    a, b = shaft(m, "a", J=0.1), shaft(m, "b", J=0.2)
    m.motor, m.clutch = Motor(), Clutch(mu_pos=((0.0, 0.5),), peak=1.1, fn_max=10.0)
    m.connect(m.motor.flange_b, a.axis)
    m.connect(m.clutch.flange_a, a.axis)
    m.connect(m.clutch.flange_b, b.axis)
    system = jd.compile(m, parameters=["b_body.I.yy"])
    run = dict(z0={"a.w": 5.0}, inputs={"motor.tau": 0.2, "clutch.f_normalized": 0.5})
    return Case(system, 1.0, run, ("b_body.I.yy", (0.15, 0.2)),   # ≤ I.xx + I.zz = 0.2
                dict(z0={"a.w": 5.0}, u0={"motor.tau": 0.2, "clutch.f_normalized": 0.5}),
                modes={"clutch.mode": FrictionMode.BACKWARD})   # w_rel = w_b − w_a < 0


def contact() -> Case:
    """A ball (radius 0.1 m) on a FreeJoint dropped while moving sideways onto the ground:
    a plastic impact with friction, sliding, then sticking."""
    m = _model()
    m.joint, m.ball = FreeJoint(), RigidBody(m=1.0, I=(4e-3, 4e-3, 4e-3))
    m.connect(m.world.frame_b, m.joint.frame_a)
    m.connect(m.joint.frame_b, m.ball.frame_a)
    m.touch = GroundContact(radius=0.1, mu=0.3, e=0.0)
    m.connect(m.touch.frame_a, m.ball.frame_a)
    system = jd.compile(m, parameters=["ball.m"])
    y0 = {"joint.y": 0.2}
    return Case(system, 0.6, dict(y0=y0, z0={"joint.vx": 1.0}), ("ball.m", (1.0, 1.2)),
                dict(y0=y0), modes={"touch.mode": ContactMode.OPEN})


def sampled() -> Case:
    """A pendulum held near its bottom by a DiscretePID (period 20 ms) on its angle, read
    through a ZeroOrderHold (period 10 ms)."""
    m = _model()
    joint, _ = pendulum(m, "arm", m=1.0, l=0.5)
    m.sensor, m.neg, m.motor = AngleSensor(), Gain([[-1.0]]), Motor()
    m.zoh = ZeroOrderHold(sample_period=0.01)
    m.pid = DiscretePID(k_p=5.0, k_i=1.0, k_d=0.5, T_f=0.02, sample_period=0.02)
    m.connect(m.sensor.flange, joint.axis)
    m.connect(m.sensor.phi, m.zoh.u)
    m.connect(m.zoh.y, m.neg.u)
    m.connect(m.neg.y, m.pid.e)
    m.connect(m.pid.y, m.motor.tau)
    m.connect(m.motor.flange_b, joint.axis)
    system = jd.compile(m, parameters=["arm_bob.m"])
    return Case(system, 1.0, dict(y0={"arm.phi": 0.4}), ("arm_bob.m", (1.0, 1.2)),
                dict(y0={"arm.phi": 0.4}))


def _ball() -> object:
    m = _model()
    m.slide, m.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=0.5)
    m.connect(m.world.frame_b, m.slide.frame_a)
    m.connect(m.slide.frame_b, m.ball.frame_a)
    return jd.compile(m, parameters=["ball.m"])


def events() -> Case:
    """A ball on a vertical slider with user events: a bounce (reset v → −0.8·v) at s = 0 and
    a kick (v = 2 m/s) at t = 0.3 s."""
    bounce = jd.Event(lambda v: v["slide.s"], jd.Direction.FALLING,
                      reset=lambda v: {"slide.v": -0.8 * v["slide.v"]}, name="floor")
    kick = jd.TimeEvent([0.3], reset=lambda v: {"slide.v": 2.0}, name="kick")
    return Case(_ball(), 1.0, dict(y0={"slide.s": 0.2}, events=[bounce, kick]),
                ("ball.m", (0.5, 0.7)), dict(y0={"slide.s": 0.2}))


def _inverted():
    """A pendulum with a motor, to be balanced upright (φ = π)."""
    m = _model()
    joint, _ = pendulum(m, "arm", m=1.0, l=0.5)
    m.motor = Motor()
    m.connect(m.motor.flange_b, joint.axis)
    system = jd.compile(m, parameters=["arm_bob.m"])
    lin = jd.linearize(system, y0={"arm.phi": np.pi})
    return system, jd.lqr(lin, {"arm.phi": 10.0, "arm.w": 1.0}, 1.0)


def _controlled(controller, period=None, closed=None) -> Case:
    system, gain = _inverted()
    run = dict(y0={"arm.phi": np.pi - 0.1},
               controller=gain if controller is None else controller(gain))
    if period is not None:
        run["period"] = period
    return Case(system, 1.0, run, ("arm_bob.m", (1.0, 1.2)), dict(y0={"arm.phi": np.pi}),
                closed=lambda: jd.close_loop(system, run["controller"], **(closed or {})))


def controller_continuous() -> Case:
    """The inverted pendulum under an LQR jd.Feedback folded into its equations."""
    return _controlled(None)


def controller_sampled() -> Case:
    """The inverted pendulum under the same LQR, sampled every 10 ms (zero-order hold)."""
    return _controlled(None, period=0.01, closed={"period": 0.01})


def controller_python() -> Case:
    """The inverted pendulum under a Python function u(t, x) (the LQR written in numpy)."""
    def law(gain):
        K, x_op = np.array(gain.K, dtype=float), np.array([np.pi, 0.0])
        return lambda t, x: -K @ (np.asarray(x)[:2] - x_op)
    return _controlled(law)


class Chirp(SignalBlock):
    """A user signal block: y = a·sin(2π·(f0·t + ½·k·t²)), a linear chirp [N·m]."""

    def __init__(self, a: float = 0.3, f0: float = 0.5, k: float = 1.0):
        self.a, self.f0, self.k = a, f0, k
        self.y = RealOutput(self, "y", unit="N.m")

    def outputs(self, ctx) -> dict:
        return {self.y: self.a * ca.sin(2 * np.pi * (self.f0 * ctx.t + 0.5 * self.k * ctx.t**2))}


def custom() -> Case:
    """A pendulum driven by a user signal block (Chirp) through a motor, with a user force
    law (a cubic torsion spring, ForceLaw) on its joint."""
    m = _model()
    joint, _ = pendulum(m, "arm", m=1.0, l=0.5)
    m.chirp, m.motor = Chirp(), Motor()
    m.spring = ForceLaw(lambda s, w: -2.0 * s - 5.0 * s**3, motion=Motion.ROTATIONAL)
    m.connect(m.chirp.y, m.motor.tau)
    m.connect(m.motor.flange_b, joint.axis)
    m.connect(m.spring.flange_b, joint.axis)
    system = jd.compile(m, parameters=["arm_bob.m"])
    return Case(system, 1.0, dict(y0={"arm.phi": 0.3}), ("arm_bob.m", (1.0, 1.2)),
                dict(y0={"arm.phi": 0.3}))


#: family name -> (builder, what it is in words); the matrix's rows in this order
FAMILIES = {
    "tree": tree, "loop": loop, "rolling": rolling, "driver": driver,
    "drivetrain": drivetrain, "electrical": electrical, "circuit": circuit, "stop": stop,
    "elastogap": elastogap, "friction": friction, "contact": contact, "sampled": sampled,
    "events": events, "controller (continuous)": controller_continuous,
    "controller (sampled)": controller_sampled, "controller (Python)": controller_python,
    "custom blocks": custom,
}
