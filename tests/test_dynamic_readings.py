"""Quantities that read the accelerations, together (issues 12 and 14): a kinematic driver's
reaction, a cut sensor's reading (TorqueSensor, Kane's auxiliary speed), an acceleration
sensor (AbsoluteSensor's z) and filter states fed by them, in one model, on a tree and in a
system with a closure constraint (partitioning), and with the multiplier methods where
drivers are not supported (DAE, Baumgarte)."""
import shutil

import numpy as np
import pytest
from scipy.integrate import cumulative_simpson, solve_ivp
from scipy.interpolate import CubicSpline

import jourdain as jd
from jourdain.blocks import (
    AbsoluteSensor,
    CriticalDamping,
    Demux,
    FirstOrder,
    FixedTranslation,
    IdealGear,
    Inertia,
    Init,
    Motor,
    ResolveInFrame,
    Revolute,
    RigidBody,
    RotationalSpring,
    Sine,
    TorqueSensor,
    World,
)
from jourdain.blocks.drivers import rotational

A, F = 0.6, 0.8          # shoulder reference phi_1 = A·sin(2π·F·t) [rad, Hz]
J_ROTOR, T_LAG = 0.02, 0.05


class DrivenElbow(jd.Composite):
    """A planar two-link arm under gravity: the shoulder is prescribed by an exact Position
    driver (``driven``) or torqued by a Motor; the elbow swings freely and spins a rotor
    Inertia through a TorqueSensor on its axis; an AbsoluteSensor reads the forearm's angular
    acceleration in world axes; a steady-state CriticalDamping filters the sensed torque and a
    FirstOrder lag the angular acceleration. ``geared``: a wheel on a third joint coupled to
    the shoulder by an IdealGear (a closure constraint between two joint axes)."""

    def __init__(self, driven=True, geared=False):
        super().__init__()
        self.shoulder, self.elbow = Revolute(axis=(0, 0, 1)), Revolute(axis=(0, 0, 1))
        self.arm = RigidBody(m=1.0, r_cm=(0.25, 0, 0), I=(1e-3, 0.02, 0.02))
        self.forearm = RigidBody(m=0.5, r_cm=(0.2, 0, 0), I=(1e-3, 0.01, 0.01))
        self.elbow_offset = FixedTranslation(r=(0.5, 0, 0))
        self.tip = FixedTranslation(r=(0.4, 0, 0))
        self.sensor, self.rotor = TorqueSensor(), Inertia(J=J_ROTOR)
        self.acc = AbsoluteSensor(ResolveInFrame.WORLD, get_r=False, get_v=False, get_w=False,
                                  get_z=True)
        self.split = Demux(1, 1, 1)
        self.torque_filter = CriticalDamping(n=2, f=4.0, init=Init.STEADY_STATE)
        self.lag = FirstOrder(T=T_LAG)
        for a, b in [(self.shoulder.frame_b, self.arm.frame_a),
                     (self.arm.frame_a, self.elbow_offset.frame_a),
                     (self.elbow_offset.frame_b, self.elbow.frame_a),
                     (self.elbow.frame_b, self.forearm.frame_a),
                     (self.forearm.frame_a, self.tip.frame_a),
                     (self.forearm.frame_a, self.acc.frame_a),
                     (self.elbow.axis, self.sensor.flange_a),
                     (self.sensor.flange_b, self.rotor.flange_a),
                     (self.sensor.tau, self.torque_filter.u),
                     (self.acc.z, self.split.u), (self.split.y3, self.lag.u)]:
            self.connect(a, b)
        if driven:
            self.drive, self.ref = rotational.Position(exact=True), Sine(amplitude=A, f=F)
            self.connect(self.drive.flange, self.shoulder.axis)
            self.connect(self.ref.y, self.drive.phi_ref)
        else:
            self.motor = Motor()
            self.connect(self.motor.flange_b, self.shoulder.axis)
        if geared:
            self.wheel_joint = Revolute(axis=(0, 0, 1))
            self.wheel = RigidBody(m=1.0, I=(0.025, 0.025, 0.05))
            self.gear = IdealGear(ratio=2.0)
            self.connect(self.wheel_joint.frame_b, self.wheel.frame_a)
            self.connect(self.gear.flange_a, self.wheel_joint.axis)
            self.connect(self.gear.flange_b, self.shoulder.axis)
            self.expose(self.wheel_joint.frame_a, "wheel_base")
        self.expose(self.shoulder.frame_a, "frame_a")


def _model(driven=True, geared=False):
    model = jd.Model(world=World(g=(0.0, -9.81, 0.0)))
    model.arm = DrivenElbow(driven, geared)
    model.connect(model.world.frame_b, model.arm.frame_a)
    if geared:
        model.connect(model.world.frame_b, model.arm.wheel_base)
    return model


def _accelerations(system, res, p):
    """ẋ from the system's f at the reported states and inputs."""
    us = np.array([res[name] for name in system.u_names]).reshape(-1, res.t.size)
    return np.array(system.f.map(res.t.size)(res.t, res.x, us, np.tile(p, (res.t.size, 1)).T))


def _check_readings(system, res, scale_tau):
    """The cut reading is the rotor's equation J·q̈₂ (q̈₂ from f); the forearm's angular
    acceleration is q̈₁ + q̈₂ with q̈₁ the driver's closed form; the lag's state follows
    T·ẏ + y = u integrated independently from the recorded u."""
    p = system.parameters()
    xdot = _accelerations(system, res, p)
    names = system.x_names
    qdd2 = xdot[names.index("arm.elbow.w")]
    assert np.abs(res["arm.sensor.tau"] - J_ROTOR * qdd2).max() < 1e-8 * scale_tau
    omega = 2 * np.pi * F
    qdd1 = -A * omega**2 * np.sin(omega * res.t)
    z = res["arm.acc.z[2]"]
    assert np.abs(z - (qdd1 + qdd2)).max() < 1e-7 * np.abs(z).max()
    u = CubicSpline(res.t, z)
    lag = solve_ivp(lambda t, y: (u(t) - y) / T_LAG, (0, res.t[-1]), [0.0], t_eval=res.t,
                    rtol=1e-10, atol=1e-12).y[0]
    assert np.abs(res["arm.lag.x"] - lag).max() < 1e-4 * np.abs(z).max()
    return qdd2


@pytest.mark.parametrize("geared", [False, True])
def test_driver_cut_sensor_acceleration_sensor_and_filters_together(geared):
    """Reference: J·q̈₂ for the TorqueSensor (the rotor's own equation of motion, against ż
    from f), the closed form q̈₁ = −A·ω²·sin(ωt) of the exact Position driver plus q̈₂ for the
    AbsoluteSensor's angular acceleration, an independent scipy integration of the lag's ODE,
    steady state of the torque filter at t0 (its states equal the first reading), and energy:
    the driver's work ∫τ·q̇₁ dt equals the change of T + V (no dissipation). On a tree and
    with a gear closing a loop between two joint axes (partitioning keeps the driven
    shoulder independent)."""
    system = jd.compile(_model(geared=geared))
    assert set(system.dynamic_outputs) >= {"arm.sensor.tau", "arm.acc.z[2]", "arm.drive.tau"}
    assert "arm.torque_filter.x1" in system.s_names and "arm.lag.x" in system.s_names
    res = system.simulate(1.5, y0={"arm.elbow.phi": 0.4}, rtol=1e-10, atol=1e-10, n_out=601)
    assert np.abs(res["arm.shoulder.phi"] - A * np.sin(2 * np.pi * F * res.t)).max() < 1e-9
    if geared:   # the wheel follows the shoulder through the gear, φ_wheel = 2·φ_shoulder
        assert np.abs(res["arm.wheel_joint.phi"] - 2 * res["arm.shoulder.phi"]).max() < 1e-9
    scale = np.abs(res["arm.sensor.tau"]).max()
    assert scale > 1e-3
    _check_readings(system, res, scale)
    tau0 = res["arm.sensor.tau"][0]
    for state in ("arm.torque_filter.x1", "arm.torque_filter.x2"):
        assert res[state][0] == pytest.approx(tau0, abs=1e-9 * scale)
    work = cumulative_simpson(res["arm.drive.tau"] * res["arm.shoulder.w"], x=res.t, initial=0)
    E = res["energy.total"]
    assert np.abs(E - E[0] - work).max() < 1e-6 * np.abs(work).max()


def test_initialize_solves_the_filter_states_with_the_conditions():
    """Reference: closed form q₂ = asin(−0.1/0.4) for the tip height −0.1 m with the shoulder
    at its driver's reference 0; System.initialize (a position condition and a held speed)
    returns a state whose steady-state filter equals the torque reading there (its initial
    equation der(x) = 0), the reading being J·q̈₂ from f at that state; a reading of the
    dynamics cannot be an initial condition."""
    system = jd.compile(_model())
    init = system.initialize(z0={"arm.elbow.w": 0.5}, fix={"arm.tip.frame_b.r_0[1]": -0.1},
                             guess={"arm.elbow.phi": -0.3})
    x0 = init.x0
    p = system.parameters()
    assert x0[system.x_names.index("arm.elbow.phi")] == pytest.approx(np.arcsin(-0.25),
                                                                      abs=1e-9)
    assert "arm.torque_filter.x1" in init.solved
    reading = np.array(system.h(0.0, x0, np.zeros(0), p)).ravel()[system.output_names.index(
        "arm.sensor.tau")]
    xdot = np.array(system.f(0.0, x0, np.zeros(0), p)).ravel()
    assert reading == pytest.approx(J_ROTOR * xdot[system.x_names.index("arm.elbow.w")],
                                    rel=1e-9)
    s = [x0[system.x_names.index(f"arm.torque_filter.x{i}")] for i in (1, 2)]
    assert s == pytest.approx([reading, reading], rel=1e-9)
    with pytest.raises(jd.ModelError, match="depends on accelerations"):
        system.initialize(fix={"arm.sensor.tau": 0.0})


def test_multiplier_methods_agree_with_partitioning_on_every_reading():
    """Reference: agreement of the constraint methods: with the shoulder torqued by a Motor
    (drivers need partitioning, which the DAE and Baumgarte methods refuse by name), the cut
    reading, the acceleration sensor and both filters of the geared arm agree between
    partitioning, Baumgarte and the DAE (IDAS); each method's cut reading is J·q̈₂ of its
    own f."""
    with pytest.raises(jd.ModelError, match="PARTITIONING"):
        jd.compile(_model(geared=True), constraints=jd.ConstraintMethod.DAE)
    results = {}
    tau = {"arm.motor.tau": lambda t: 2.0 * np.sin(3.0 * t)}
    for method in jd.ConstraintMethod:
        system = jd.compile(_model(driven=False, geared=True), constraints=method)
        res = system.simulate(1.0, y0={"arm.elbow.phi": 0.4}, inputs=tau, rtol=1e-10,
                              atol=1e-10, n_out=101)
        results[method] = res
        qdd2 = _accelerations(system, res, system.parameters())[
            system.x_names.index("arm.elbow.w")]
        scale = np.abs(res["arm.sensor.tau"]).max()
        assert np.abs(res["arm.sensor.tau"] - J_ROTOR * qdd2).max() < 1e-8 * scale
    ref = results[jd.ConstraintMethod.PARTITIONING]
    names = ["arm.sensor.tau", "arm.acc.z[2]", "arm.torque_filter.x2", "arm.lag.x"]
    for method, res in results.items():
        for name in names:
            scale = np.abs(ref[name]).max()
            assert scale > 1e-3
            assert np.abs(res[name] - ref[name]).max() < 1e-5 * scale, (method, name)


def test_position_driver_on_a_free_inertia_with_a_torque_sensor():
    """Reference: closed forms of the MSL's Rotational pattern Position → Inertia → spring →
    TorqueSensor → Inertia: the driven inertia follows φ₁ = sin(2πt) exactly, the driver
    applies τ = J₁·φ̈₁ + c·(φ₁ − φ₂) and the sensor reads the spring's torque c·(φ₁ − φ₂)
    (the torque balance of the free inertia behind it)."""
    m = jd.Model(world=World())
    m.drive, m.ref = rotational.Position(exact=True), Sine(amplitude=1.0, f=1.0)
    m.i1, m.i2, m.spring = Inertia(J=0.1), Inertia(J=0.2), RotationalSpring(c=10.0)
    m.sensor = TorqueSensor()
    for a, b in [(m.ref.y, m.drive.phi_ref), (m.drive.flange, m.i1.flange_a),
                 (m.i1.flange_b, m.spring.flange_a), (m.spring.flange_b, m.sensor.flange_a),
                 (m.sensor.flange_b, m.i2.flange_a)]:
        m.connect(a, b)
    system = jd.compile(m)
    assert system.x_names == ["i1.phi", "i2.phi", "i1.w", "i2.w"]
    res = system.simulate(2.0, z0={"i2.w": 0.5}, rtol=1e-10, atol=1e-10, n_out=201)
    omega = 2 * np.pi
    assert np.abs(res["i1.phi"] - np.sin(omega * res.t)).max() < 1e-12
    spring = 10.0 * (res["i1.phi"] - res["i2.phi"])
    tau = 0.1 * -omega**2 * np.sin(omega * res.t) + spring
    assert np.abs(res["drive.tau"] - tau).max() < 1e-10 * np.abs(tau).max()
    assert np.abs(res["sensor.tau"] - spring).max() < 1e-10 * np.abs(spring).max()


@pytest.mark.skipif(shutil.which("gcc") is None, reason="an FMU needs gcc")
def test_fmu_of_the_driven_arm_with_sensors_and_filters(tmp_path):
    """Reference: the System's own simulate (CVODES): FMPy's model-exchange run of the exported
    FMU reproduces states (driven ones included: the FMU starts at the drivers' prescribed
    values, the torque filter in steady state), the readings of ż and the energies T, V to
    1e-6."""
    fmpy = pytest.importorskip("fmpy")
    system = jd.compile(_model())
    path = system.export_fmu(tmp_path / "arm.fmu", y0={"arm.elbow.phi": 0.4},
                             cache_dir=tmp_path / "cache")
    names = system.x_names + system.output_names + ["energy.kinetic", "energy.potential"]
    out = fmpy.simulate_fmu(str(path), fmi_type="ModelExchange", stop_time=1.0,
                            output_interval=0.01, relative_tolerance=1e-10, output=names)
    ref = system.simulate(1.0, y0={"arm.elbow.phi": 0.4}, t_out=out["time"], rtol=1e-11,
                          atol=1e-11)
    for name in names:
        assert np.abs(out[name] - ref[name]).max() < 1e-6 * max(1.0, np.abs(ref[name]).max())
