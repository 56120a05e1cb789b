"""1-D drive trains (issues 11 and 14): free 1-D bodies, gears as holonomic couplings of flange
nets, cut sensors, and what must be refused."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (
    Fixed,
    ForceSensor,
    IdealGear,
    IdealGearR2T,
    IdealPlanetary,
    IdealRollingWheel,
    Inertia,
    LinearMotor,
    Mass,
    Motor,
    Revolute,
    RigidBody,
    TorqueSensor,
    ViscousFriction,
    World,
)

RATIO, J_ROTOR, J_LOAD = 10.0, 1e-3, 0.26   # arm: m = 1 kg at 0.5 m, I_zz = 0.01


class GearedArm(jd.Composite):
    """motor → rotor Inertia → IdealGear → TorqueSensor → joint axis of an arm (horizontal
    plane unless gravity is given otherwise)."""

    def __init__(self, ratio=RATIO):
        super().__init__()
        self.joint = Revolute(axis=(0, 0, 1))
        self.link = RigidBody(m=1.0, r_cm=(0.5, 0, 0), I=(0.005, 0.005, 0.01))
        self.motor, self.rotor = Motor(), Inertia(J=J_ROTOR)
        self.gear, self.sensor = IdealGear(ratio=ratio), TorqueSensor()
        self.connect(self.joint.frame_b, self.link.frame_a)
        self.connect(self.motor.flange_b, self.rotor.flange_a)
        self.connect(self.rotor.flange_b, self.gear.flange_a)
        self.connect(self.gear.flange_b, self.sensor.flange_a)
        self.connect(self.sensor.flange_b, self.joint.axis)
        self.expose(self.joint.frame_a, "frame_a")


def arm_model(gravity=(0.0, 0.0, -9.81)):
    return jd.Model.on_world(World(g=gravity), arm=GearedArm())


def test_reflected_inertia_in_mass_matrix_and_linearization():
    """Reference: a rigid gear reflects the rotor's inertia, J_eff = J_load + r²·J_rotor, into
    the joint's mass matrix; the linearization's input column is r/J_eff for the motor torque
    on the fast side."""
    system = jd.compile(arm_model())
    J_eff = J_LOAD + RATIO ** 2 * J_ROTOR
    assert system.y_names == ["arm.joint.phi"]
    assert float(np.array(system.M([0.4], []))[0, 0]) == pytest.approx(J_eff, rel=1e-14)
    lin = jd.linearize(system)
    assert lin.B[1, 0] == pytest.approx(RATIO / J_eff, rel=1e-12)


def test_gear_kinematics_to_round_off():
    """Reference: the gear relation φ_a = r·φ_b holds exactly (the rotor's net position is
    r times the joint angle in the equations): AngleSensors on both sides along a run."""
    from jourdain.blocks import AngleSensor

    class Watched(GearedArm):
        def __init__(self):
            super().__init__()
            self.fast, self.slow = AngleSensor(), AngleSensor()
            self.connect(self.fast.flange, self.rotor.flange_a)
            self.connect(self.slow.flange, self.joint.axis)
    model = jd.Model.on_world(World(), arm=Watched())
    res = jd.compile(model).simulate(1.0, inputs={"arm.motor.tau": lambda t: np.sin(5 * t)},
                                     n_out=21)
    fast, slow = res["arm.fast.phi"], res["arm.slow.phi"]
    assert np.abs(fast - RATIO * slow).max() <= 1e-14 * max(1.0, np.abs(fast).max())
    assert np.abs(res["arm.fast.w"] - RATIO * res["arm.slow.w"]).max() <= \
        1e-14 * max(1.0, np.abs(res["arm.fast.w"]).max())


def test_torque_sensor_against_the_torque_balance_of_the_driven_side():
    """Reference: the sensor between the gear and the arm reads J_load·φ̈ + (gravity's
    moment) of the arm it drives, φ̈ taken from f, at random states and inputs; the torque
    balance of the rotor side gives the same: r·(τ_motor − J_rotor·r·φ̈)."""
    system = jd.compile(arm_model(gravity=(0.0, -9.81, 0.0)))
    for phi, w, tau in np.random.default_rng(5).uniform(-1, 1, (4, 3)):
        acc = float(system.f(0, [phi, w], [tau], [])[1])
        reading = float(system.h(0, [phi, w], [tau], [])[0])
        gravity = 1.0 * 9.81 * 0.5 * np.cos(phi)
        assert reading == pytest.approx(J_LOAD * acc + gravity, rel=1e-12, abs=1e-12)
        assert reading == pytest.approx(RATIO * (tau - J_ROTOR * RATIO * acc), rel=1e-12)


def test_power_conservation_through_the_ideal_gear():
    """Reference: an ideal gear does no work: τ_in·ω_in = τ_out·ω_out with torques measured
    by sensors on both sides (a free drive train: rotor → gear → load with damping)."""
    class Train(jd.Composite):
        def __init__(self):
            super().__init__()
            self.motor, self.rotor = Motor(), Inertia(J=2e-3)
            self.s_in, self.gear, self.s_out = TorqueSensor(), IdealGear(ratio=-4.0), \
                TorqueSensor()
            self.load, self.damper = Inertia(J=0.1), ViscousFriction(d=0.05)
            for a, b in ((self.motor.flange_b, self.rotor.flange_a),
                         (self.rotor.flange_b, self.s_in.flange_a),
                         (self.s_in.flange_b, self.gear.flange_a),
                         (self.gear.flange_b, self.s_out.flange_a),
                         (self.s_out.flange_b, self.load.flange_a),
                         (self.damper.flange_b, self.load.flange_b)):
                self.connect(a, b)
    system = jd.compile(jd.Model(World(), t=Train()))
    assert system.y_names == ["t.rotor.phi"]
    res = system.simulate(1.0, inputs={"t.motor.tau": lambda t: 0.2 * np.cos(3 * t)}, n_out=11)
    w_in = res["t.rotor.w"]
    p_in, p_out = res["t.s_in.tau"] * w_in, res["t.s_out.tau"] * w_in / -4.0
    assert np.abs(p_in - p_out).max() <= 1e-12 * max(1e-3, np.abs(p_in).max())
    assert np.abs(res["t.s_out.tau"] + 4.0 * res["t.s_in.tau"]).max() < 1e-12


def test_planetary_gear_kinematics_and_energy():
    """Reference: Willis' equation (1 + r)·φ_carrier = φ_sun + r·φ_ring, and conservation of
    kinetic energy with two free inertias (sun, ring) and the carrier driven by a torque
    (energy change = work of the torque)."""
    class Planetary(jd.Composite):
        def __init__(self):
            super().__init__()
            self.gear = IdealPlanetary(ratio=2.5)
            self.sun, self.ring, self.carrier = Inertia(J=0.01), Inertia(J=0.2), Inertia(J=0.05)
            self.motor = Motor()
            self.connect(self.gear.sun, self.sun.flange_a)
            self.connect(self.gear.ring, self.ring.flange_a)
            self.connect(self.gear.carrier, self.carrier.flange_a)
            self.connect(self.motor.flange_b, self.carrier.flange_b)
    system = jd.compile(jd.Model(World(), p=Planetary()))
    assert len(system.y_names) == 2      # 3 flanges, 1 relation
    res = system.simulate(1.0, inputs={"p.motor.tau": 0.1}, z0={system.z_names[0]: 1.0},
                          n_out=11, rtol=1e-10, atol=1e-10)
    phi = {n: res[n] for n in res.names if n.endswith(".phi")}
    assert sorted(phi) == ["p.carrier.phi", "p.ring.phi", "p.sun.phi"]   # the solved one too
    willis = 3.5 * phi["p.carrier.phi"] - phi["p.sun.phi"] - 2.5 * phi["p.ring.phi"]
    assert np.abs(willis).max() < 1e-12
    work = 0.1 * _carrier_angle(system, res)
    E = res["energy.total"]
    assert np.abs(E - E[0] - work).max() < 1e-8


def _carrier_angle(system, res):
    """The carrier angle from Willis' equation and the two coordinates (sun, ring or carrier
    order depends on the pivots: solve generally from the relation)."""
    names = system.y_names
    values = {n.split(".")[1]: res[n] for n in names}
    if "carrier" in values:
        return values["carrier"]
    return (values["sun"] + 2.5 * values["ring"]) / 3.5


def test_rack_and_pinion_and_belt_reflect_inertia():
    """Reference: a pinion (IdealGearR2T, ratio = 1/r) driving a rack Mass m adds m/ratio² to
    the joint's inertia; a belt of two IdealRollingWheels (radii r_a, r_b) with a belt Mass
    couples φ_b = (r_a/r_b)·φ_a and adds m_belt·r_a² + J_b·(r_a/r_b)²."""
    class Drives(jd.Composite):
        def __init__(self):
            super().__init__()
            self.joint = Revolute(axis=(0, 0, 1))
            self.hub = RigidBody(m=1.0, I=(0.01, 0.01, 0.02))
            self.pinion, self.rack = IdealGearR2T(ratio=20.0), Mass(m=3.0)
            self.wheel_a, self.wheel_b = IdealRollingWheel(radius=0.05), \
                IdealRollingWheel(radius=0.15)
            self.belt, self.pulley = Mass(m=0.2), Inertia(J=0.09)
            self.connect(self.joint.frame_b, self.hub.frame_a)
            for a, b in ((self.pinion.flangeR, self.joint.axis),
                         (self.pinion.flangeT, self.rack.flange_a),
                         (self.wheel_a.flangeR, self.joint.axis),
                         (self.wheel_a.flangeT, self.belt.flange_a),
                         (self.wheel_b.flangeT, self.belt.flange_b),
                         (self.wheel_b.flangeR, self.pulley.flange_a)):
                self.connect(a, b)
            self.expose(self.joint.frame_a, "frame_a")
    system = jd.compile(jd.Model.on_world(World(), d=Drives()))
    assert system.y_names == ["d.joint.phi"]
    expected = 0.02 + 3.0 / 20.0 ** 2 + 0.2 * 0.05 ** 2 + 0.09 * (0.05 / 0.15) ** 2
    assert float(np.array(system.M([0.0], []))[0, 0]) == pytest.approx(expected, rel=1e-13)


def test_force_sensor_on_a_driven_mass():
    """Reference: Newton's law of the driven mass, f = m·a − f_damper, a from f."""
    class Slider(jd.Composite):
        def __init__(self):
            super().__init__()
            self.drive, self.sensor = LinearMotor(), ForceSensor()
            self.mass, self.damper = Mass(m=2.0), ViscousFriction(d=0.3)
            self.connect(self.drive.flange_b, self.sensor.flange_a)
            self.connect(self.sensor.flange_b, self.mass.flange_a)
            self.connect(self.damper.flange_b, self.mass.flange_b)
    system = jd.compile(jd.Model(World(), s=Slider()))
    x, u = [0.1, 0.7], [1.5]
    acc = float(system.f(0, x, u, [])[1])
    assert acc == pytest.approx((1.5 - 0.3 * 0.7) / 2.0, rel=1e-14)
    assert float(system.h(0, x, u, [])[0]) == pytest.approx(1.5, rel=1e-14)


class CoupledJoints(jd.Composite):
    """Two pendulum arms on parallel axes coupled by a gear φ_1 = 2·φ_2 (a closed loop of
    joints and gear), a motor on the first."""

    def __init__(self):
        super().__init__()
        self.j1, self.j2 = Revolute(axis=(0, 0, 1)), Revolute(axis=(0, 0, 1))
        self.b1 = RigidBody(m=1.0, r_cm=(0.5, 0, 0), I=(0.005, 0.005, 0.01))
        self.b2 = RigidBody(m=2.0, r_cm=(0.3, 0, 0), I=(0.005, 0.005, 0.01))
        self.offset, self.gear, self.motor = RigidOffset(), IdealGear(ratio=2.0), Motor()
        self.connect(self.j1.frame_b, self.b1.frame_a)
        self.connect(self.offset.frame_b, self.j2.frame_a)
        self.connect(self.j2.frame_b, self.b2.frame_a)
        self.connect(self.gear.flange_a, self.j1.axis)
        self.connect(self.gear.flange_b, self.j2.axis)
        self.connect(self.motor.flange_b, self.j1.axis)
        self.expose(self.j1.frame_a, "frame_a")
        self.expose(self.offset.frame_a, "frame_o")


def RigidOffset():
    from jourdain.blocks import FixedTranslation
    return FixedTranslation(r=(0.0, 0.0, 1.0))


def coupled_model():
    model = jd.Model(World(g=(0.0, 0.0, -9.81)), c=CoupledJoints())
    model.connect(model.world.frame_b, model.c.frame_a)
    model.connect(model.world.frame_b, model.c.frame_o)
    return model


@pytest.mark.parametrize("method", list(jd.ConstraintMethod))
def test_gear_between_two_joints_is_a_closure_constraint(method):
    """Reference: the closed form φ̈_1 = τ/(J_1 + J_2/4) of two inertias coupled by a gear of
    ratio 2, for every constraint method, with the coupling residual at round-off."""
    system = jd.compile(coupled_model(), constraints=method)
    assert system.constraint_owners == ["c.gear (coupling c.j1.axis, c.j2.axis)"]
    res = system.simulate(1.0, inputs={"c.motor.tau": 0.1}, n_out=11, rtol=1e-10, atol=1e-10)
    J_1, J_2 = 0.26, 0.19
    assert res["c.j1.phi"][-1] == pytest.approx(0.5 * 0.1 / (J_1 + J_2 / 4), rel=1e-7)
    assert np.abs(res["c.j1.phi"] - 2 * res["c.j2.phi"]).max() < 1e-9


def test_recursive_back_end_carries_armatures_and_free_trains():
    """Reference: the recursive back end (armature in ABA/CRBA, a free 1-D block) agrees with
    the projection and with Lagrange's equations at random states."""
    class Both(GearedArm):
        def __init__(self):
            super().__init__()
            self.drive, self.wheel = Motor(), Inertia(J=0.3)
            self.train, self.flywheel = IdealGear(ratio=3.0), Inertia(J=0.05)
            self.connect(self.drive.flange_b, self.wheel.flange_a)
            self.connect(self.wheel.flange_b, self.train.flange_a)
            self.connect(self.train.flange_b, self.flywheel.flange_a)
    model = jd.Model.on_world(World(g=(0, -9.81, 0)), arm=Both())
    systems = [jd.compile(model, backend=b) for b in (jd.Backend.PROJECTION,
                                                       jd.Backend.RECURSIVE)]
    systems.append(jd.compile(model, formulation=jd.Formulation.LAGRANGE))
    for x in np.random.default_rng(2).uniform(-1, 1, (3, 4)):
        values = [np.array(s.f(0, x, [0.3, -0.2], [])).ravel() for s in systems]
        for v in values[1:]:
            assert np.allclose(v, values[0], rtol=1e-12, atol=1e-12)


def zero_ratio(c):
    c.gear, c.load = IdealGear(ratio=0.0), Inertia(J=1.0)
    c.connect(c.gear.flange_a, c.load.flange_a)


def massless(c):
    c.gear, c.motor = IdealGear(ratio=2.0), Motor()
    c.connect(c.motor.flange_b, c.gear.flange_a)


def sensor_in_loop(c):
    c.joint = Revolute()
    c.body = RigidBody(m=1.0, r_cm=(1, 0, 0), I=(0.1, 0.1, 0.1))
    c.sensor = TorqueSensor()
    c.connect(c.joint.frame_b, c.body.frame_a)
    c.connect(c.sensor.flange_a, c.joint.axis)
    c.connect(c.sensor.flange_b, c.joint.support)


def sensor_feedback(c):
    from jourdain.blocks import Gain
    c.motor, c.sensor, c.load, c.k = Motor(), TorqueSensor(), Inertia(J=1.0), Gain(0.5)
    c.connect(c.motor.flange_b, c.sensor.flange_a)
    c.connect(c.sensor.flange_b, c.load.flange_a)
    c.connect(c.sensor.tau, c.k.u)
    c.connect(c.k.y, c.motor.tau)


@pytest.mark.parametrize("build, message", [
    (zero_ratio, "c.gear: ratio must be non-zero"),
    (massless, r"flange net \{c.gear.flange_b\} can move but carries no inertia"),
    (sensor_in_loop, "c.sensor joins flanges whose positions are fixed"),
    (sensor_feedback, "algebraic loop: the reading of c.sensor feeds back"),
])
def test_bad_drive_trains_are_named(build, message):
    """Reference: each model is ill-posed (a gear locking a flange, a degree of freedom
    without mass, a sensor whose reading would be a loop's constraint force, a reading fed
    back into its own forces); the error names the component."""
    class Bad(jd.Composite):
        def __init__(self):
            super().__init__()
            build(self)
            if hasattr(self, "joint"):
                self.expose(self.joint.frame_a, "frame_a")
    model = jd.Model.on_world(World(), c=Bad()) if build is sensor_in_loop else \
        jd.Model(World(), c=Bad())
    with pytest.raises(jd.ModelError, match=message):
        jd.compile(model)


def test_fixed_holds_a_housing_and_two_joint_axes_in_one_net_couple():
    """Reference: Fixed(s0) puts a flange net at s0 (a spring to it rests at s0), and two joint
    axes connected directly are rigidly coupled (a closure equation φ_2 = φ_1)."""
    from jourdain.blocks import RotationalSpring

    class Held(jd.Composite):
        def __init__(self):
            super().__init__()
            self.load, self.spring, self.housing = Inertia(J=1.0), RotationalSpring(c=4.0), \
                Fixed(s0=0.3)
            self.connect(self.spring.flange_a, self.housing.flange)
            self.connect(self.spring.flange_b, self.load.flange_a)
    system = jd.compile(jd.Model(World(), h=Held()))
    assert float(system.f(0, [0.3, 0.0], [], [])[1]) == pytest.approx(0.0, abs=1e-15)
    assert float(system.f(0, [0.5, 0.0], [], [])[1]) == pytest.approx(-0.8, rel=1e-14)

    class Twins(CoupledJoints):
        def __init__(self):
            jd.Composite.__init__(self)
            self.j1, self.j2 = Revolute(axis=(0, 0, 1)), Revolute(axis=(0, 0, 1))
            self.b1 = RigidBody(m=1.0, r_cm=(0.5, 0, 0), I=(0.005, 0.005, 0.01))
            self.b2 = RigidBody(m=2.0, r_cm=(0.3, 0, 0), I=(0.005, 0.005, 0.01))
            self.offset = RigidOffset()
            self.connect(self.j1.frame_b, self.b1.frame_a)
            self.connect(self.offset.frame_b, self.j2.frame_a)
            self.connect(self.j2.frame_b, self.b2.frame_a)
            self.connect(self.j1.axis, self.j2.axis)
            self.expose(self.j1.frame_a, "frame_a")
            self.expose(self.offset.frame_a, "frame_o")
    model = jd.Model(World(g=(0.0, -9.81, 0.0)), c=Twins())
    model.connect(model.world.frame_b, model.c.frame_a)
    model.connect(model.world.frame_b, model.c.frame_o)
    system = jd.compile(model)
    res = system.simulate(0.5, y0={"c.j1.phi": 0.2}, n_out=6)
    assert np.abs(res["c.j1.phi"] - res["c.j2.phi"]).max() < 1e-10


@pytest.mark.parametrize("method", list(jd.ConstraintMethod))
def test_torque_sensor_on_the_crank_of_a_closed_loop(method):
    """Reference: the torque balance of the load the crank drives through the sensor (a
    four-bar's crank with a load inertia and damper, EngineV6's arrangement):
    τ_sensor = J_load·φ̈_crank + d·φ̇_crank, φ̈ from f, for every constraint method."""
    from jourdain.library import FourBar

    class Loaded(FourBar):
        def __init__(self):
            super().__init__()
            self.sensor, self.load = TorqueSensor(), Inertia(J=0.5)
            self.damper, self.motor = ViscousFriction(d=0.2), Motor()
            self.connect(self.sensor.flange_a, self.crank.axis)
            self.connect(self.sensor.flange_b, self.load.flange_a)
            self.connect(self.damper.flange_b, self.load.flange_b)
            self.connect(self.motor.flange_b, self.crank.axis)
    system = jd.compile(jd.Model.on_world(World(), fb=Loaded()), constraints=method)
    x = system.state(z0={system.z_names[0]: 1.0})
    i = system.x_names.index("fb.crank.w")
    acc = float(system.f(0, x, [0.3], system.p_default)[i])
    reading = float(system.h(0, x, [0.3], system.p_default)[0])
    assert reading == pytest.approx(0.5 * acc + 0.2 * x[i], rel=1e-12)


@pytest.mark.parametrize("method", list(jd.ConstraintMethod))
def test_steady_state_filter_of_a_cut_torque_in_a_closed_loop(method):
    """Reference: a CriticalDamping filter initialized in steady state on the sensor's
    reading (EngineV6's filter of the engine torque) starts at the reading itself, for every
    constraint method (the reading uses that method's accelerations)."""
    from jourdain.blocks import CriticalDamping, Init
    from jourdain.library import FourBar

    class Filtered(FourBar):
        def __init__(self):
            super().__init__()
            self.sensor, self.load = TorqueSensor(), Inertia(J=0.5)
            self.filter = CriticalDamping(n=2, f=5.0, init=Init.STEADY_STATE)
            self.connect(self.sensor.flange_a, self.crank.axis)
            self.connect(self.sensor.flange_b, self.load.flange_a)
            self.connect(self.sensor.tau, self.filter.u)
    system = jd.compile(jd.Model.on_world(World(), fb=Filtered()), constraints=method)
    res = system.simulate(0.02, z0={system.z_names[0]: 2.0}, n_out=3, rtol=1e-10,
                          atol=1e-10)
    assert res["fb.filter.y"][0] == pytest.approx(res["fb.sensor.tau"][0], rel=1e-9)
    assert abs(res["fb.sensor.tau"][0]) > 1e-3


def test_energy_balance_of_a_torque_driven_drive_train():
    """Reference: E(t) − E(0) = ∫(P_supplied − P_dissipated) dt, the ideal motor's power
    τ·ω counted as supplied, through a gear into a damped pendulum (trapezoid rule)."""
    system = jd.compile(arm_model(gravity=(0.0, -9.81, 0.0)))
    res = system.simulate(2.0, inputs={"arm.motor.tau": lambda t: 0.3 * np.sin(4 * t)},
                          n_out=4001, rtol=1e-11, atol=1e-11)
    net = res["power.supplied"] - res["power.dissipated"]
    integral = np.concatenate([[0], np.cumsum(0.5 * np.diff(res.t) * (net[1:] + net[:-1]))])
    E = res["energy.total"]
    assert np.abs(E - E[0] - integral).max() < 1e-6 * max(1.0, np.abs(E).max())


def test_linear_coupling_with_offset_drives_a_spring_loaded_slider():
    """LinearCoupling(ratio r [m/rad], offset o [m]) from a joint axis to a Mass held by a
    spring (c) to the reference 0: s = r·φ + o, so the arm (J_LOAD about its axis) is a
    linear oscillator about φ* = −o/r. References: M = J_LOAD + m·r² (reflected mass) and the
    closed form φ(t) = φ* + ε·cos(ω·t), ω² = c·r²/(J_LOAD + m·r²), to 1e-8 rad."""
    from jourdain.blocks import LinearCoupling, TranslationalSpring
    r, o, m, c, eps = 0.05, 0.02, 2.0, 400.0, 0.1

    class Slider(jd.Composite):
        def __init__(self):
            super().__init__()
            self.joint = Revolute(axis=(0, 0, 1))
            self.link = RigidBody(m=1.0, r_cm=(0.5, 0, 0), I=(0.005, 0.005, 0.01))
            self.coupling = LinearCoupling(ratio=r, offset=o)
            self.mass, self.spring = Mass(m=m), TranslationalSpring(c=c)
            self.connect(self.joint.frame_b, self.link.frame_a)
            self.connect(self.coupling.flange_b, self.joint.axis)
            self.connect(self.coupling.flange_a, self.mass.flange_a)
            self.connect(self.spring.flange_b, self.mass.flange_b)
            self.expose(self.joint.frame_a, "frame_a")
    system = jd.compile(jd.Model.on_world(World(g=(0.0, 0.0, -9.81)), s=Slider()))
    J = J_LOAD + m * r ** 2
    assert system.y_names == ["s.joint.phi"]
    assert float(np.array(system.M([0.3], []))[0, 0]) == pytest.approx(J, rel=1e-14)
    t = np.linspace(0.0, 1.0, 21)
    res = system.simulate(1.0, y0={"s.joint.phi": -o / r + eps}, t_out=t, rtol=1e-11,
                          atol=1e-11)
    omega = np.sqrt(c * r ** 2 / J)
    assert np.abs(res["s.joint.phi"] - (-o / r + eps * np.cos(omega * t))).max() < 1e-8


def test_sparse_rank_decisions_agree_with_the_singular_values():
    """The 1-D network decides ranks by sparse elimination (solver/model/rank.py, Echelon;
    issue 30: the dense SVD per row was O(n⁴)). Reference: the SVD-based independent_rows and
    pick_columns (used by the constraint partition) on 2,000 random sparse integer matrices
    with planted dependent rows: the same rows kept and the same columns picked."""
    from jourdain.solver.model.rank import (independent_rows, pick_columns,
                                            sparse_independent_rows, sparse_pick_columns)
    rng = np.random.default_rng(30)
    for _ in range(2000):
        m, n = rng.integers(1, 8, 2)
        A = rng.integers(-2, 3, (m, n)).astype(float) * (rng.random((m, n)) < 0.5)
        if m > 2:
            A[-1] = 2.5 * A[0] - A[1]
        scale = float(np.abs(A).max())
        keep = independent_rows(A)
        assert sparse_independent_rows(
            [{j: A[i, j] for j in range(n) if A[i, j]} for i in range(m)], scale) == keep
        order = [int(j) for j in rng.permutation(n)]
        B = A[keep]
        columns = [{i: B[i, j] for i in range(len(keep)) if B[i, j]} for j in range(n)]
        assert sparse_pick_columns(columns, order, len(keep), scale) == \
            pick_columns(B, order, len(keep))


def test_long_gear_train_reflects_every_inertia():
    """300 inertias meshed in a row by IdealGears (φ_a = r·φ_b, r = 1.01): one coordinate,
    the first inertia's. Reference: the reflected inertia M = Σ_k J_k / r^(2k) (closed form,
    to 1e-12 relative), so the sparse elimination solves every net of the chain."""
    n, r = 300, 1.01

    class Train(jd.Composite):
        def __init__(self):
            super().__init__()
            previous = None
            for k in range(n):
                inertia = self.add(f"J{k}", Inertia(J=1e-3 * (1 + k % 7)))
                if previous is not None:
                    gear = self.add(f"gear{k}", IdealGear(ratio=r))
                    self.connect(previous.flange_b, gear.flange_a)
                    self.connect(gear.flange_b, inertia.flange_a)
                previous = inertia
    system = jd.compile(jd.Model(World(), train=Train()))
    assert system.y_names == ["train.J0.phi"]
    exact = sum(1e-3 * (1 + k % 7) / r ** (2 * k) for k in range(n))
    assert float(np.array(system.M([0.2], []))[0, 0]) == pytest.approx(exact, rel=1e-12)
