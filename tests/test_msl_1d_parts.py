"""The MSL Rotational/Translational parts and Blocks of issue 26 (LossyGear, SpringDamper,
ElastoBacklash, ConstantTorque, TorqueStep, QuadraticSpeedDependentTorque with
TorqueDirection = false, Ramp, CombiTimeTable, Feedback, Add3, PI, Sin, Atan) and the series
of 1-D bodies eliminated through a gear or a cut sensor. Each test states its reference."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import (
    PI,
    Add3,
    AngleSensor,
    Atan,
    CombiTimeTable,
    Constant,
    ConstantTorque,
    ElastoBacklash,
    ElastoBacklash2,
    Extrapolation,
    Feedback,
    Fixed,
    IdealGear,
    Inertia,
    LossyGear,
    Motor,
    QuadraticSpeedDependentTorque,
    Ramp,
    RotationalSpring,
    Sin,
    Smoothness,
    SpringDamper,
    TorqueSensor,
    TorqueStep,
    ViscousFriction,
    World,
)


def _model(**parts):
    model = jd.Model(world=World())
    for name, part in parts.items():
        setattr(model, name, part)
    return model


def _wire(model, *pairs):
    for a, b in pairs:
        model.connect(a, b)
    return model


def test_every_1d_body_has_its_series_behind_a_gear_and_a_sensor():
    """Reference: the gear's relation φ1 = ratio·φ2 and the sensor's rigid joint φ3 = φ2, and
    the kinetic energy ½(J1 + (J2 + J3)/ratio²)·w1² computed from the series themselves."""
    m = _model(torque=Motor(), inertia1=Inertia(J=0.1), gear=IdealGear(ratio=10.0),
               inertia2=Inertia(J=2.0), sensor=TorqueSensor(), inertia3=Inertia(J=1.0))
    _wire(m, (m.torque.flange_b, m.inertia1.flange_a), (m.inertia1.flange_b, m.gear.flange_a),
          (m.gear.flange_b, m.inertia2.flange_a), (m.inertia2.flange_b, m.sensor.flange_a),
          (m.sensor.flange_b, m.inertia3.flange_a))
    system = jd.compile(m)
    assert system.x_names == ["inertia1.phi", "inertia1.w"]
    res = system.simulate(1.0, inputs={"torque.tau": 1.0}, n_out=11)
    assert np.allclose(res["inertia2.phi"], res["inertia1.phi"] / 10, atol=1e-12)
    assert np.allclose(res["inertia3.w"], res["inertia2.w"], atol=1e-12)
    T = 0.5 * (0.1 * res["inertia1.w"] ** 2 + 2 * res["inertia2.w"] ** 2 + res["inertia3.w"] ** 2)
    assert np.allclose(T, res["energy.kinetic"], rtol=1e-12, atol=1e-14)


def _lossy_demo1(table=((0.0, 0.5, 0.5, 0.0, 0.0),)):
    from jourdain.blocks import Sine
    m = _model(gear=LossyGear(ratio=2.0, lossTable=table), Inertia1=Inertia(J=1.0),
               Inertia2=Inertia(J=1.5), torque1=Motor(), torque2=Motor(), fixed=Fixed(),
               DriveSine=Sine(amplitude=10.0, f=1.0), load=Ramp(height=5.0, duration=2.0,
                                                               offset=-10.0))
    return _wire(m, (m.Inertia1.flange_b, m.gear.flange_a), (m.gear.flange_b, m.Inertia2.flange_a),
                 (m.torque1.flange_b, m.Inertia1.flange_a),
                 (m.torque2.flange_b, m.Inertia2.flange_b), (m.DriveSine.y, m.torque1.tau),
                 (m.load.y, m.torque2.tau), (m.fixed.flange, m.gear.support),
                 (m.fixed.flange, m.torque1.flange_a), (m.fixed.flange, m.torque2.flange_a))


def _lossy_reference(t_end, J1=1.0, J2=1.5, ratio=2.0, eta=0.5):
    """An independent model of LossyGearDemo1 (the MSL's equations for bf = 0, reduced by
    hand to one shaft): rolling, (J1 + J2/(ratio²·e))·ẇ_a = τ1 + τ2/(ratio·e) with e = η1
    while flange_a drives (τ_a·w_a > 0) else 1/η2; stuck, the holding loss
    sa = τ1 + τ2/ratio must stay within [(1 − 1/η)·τ_a, (1 − η)·τ_a] (τ_a ≥ 0) or
    [(1 − η)·τ_a, (1 − 1/η)·τ_a] (τ_a < 0), τ_a = τ1; scipy events switch the modes."""
    tau1 = lambda t: 10 * np.sin(2 * np.pi * t)             # noqa: E731
    tau2 = lambda t: -10 + 5 * min(t / 2, 1)                # noqa: E731

    def rolling(t, sign):
        for e in (eta, 1 / eta):
            acc = (tau1(t) + tau2(t) / (ratio * e)) / (J1 + J2 / (ratio ** 2 * e))
            tau_a = tau1(t) - J1 * acc
            if (tau_a >= 0) == ((e == eta) == (sign > 0)):   # who drives: the quadrant
                return acc
        raise AssertionError("no consistent driving side")

    def stuck_breaks(t):
        sa, tau_a = tau1(t) + tau2(t) / ratio, tau1(t)
        hi = (1 - eta) * tau_a if tau_a > 0 else (1 - 1 / eta) * tau_a
        lo = (1 - 1 / eta) * tau_a if tau_a > 0 else (1 - eta) * tau_a
        return sa - hi, lo - sa

    t, w, mode, ts, ws, switches = 0.0, 0.0, 0, [0.0], [0.0], []
    while t < t_end - 1e-12:
        if mode == 0:
            g = lambda s, y: max(stuck_breaks(s))   # noqa: E731
            g.terminal, g.direction = True, 1
            if g(t, None) > 0:
                mode = 1 if stuck_breaks(t)[0] > 0 else -1
                switches.append(t)
                continue
            sol = solve_ivp(lambda s, y: [0.0], (t, t_end), [w], events=g, max_step=1e-3,
                            rtol=1e-10, atol=1e-12, dense_output=True)
        else:
            stop = lambda s, y: y[0]                 # noqa: E731
            stop.terminal, stop.direction = True, -mode
            sol = solve_ivp(lambda s, y: [rolling(s, mode)], (t, t_end), [w], events=stop,
                            max_step=1e-3, rtol=1e-10, atol=1e-12, dense_output=True)
        ts += list(sol.t[1:]); ws += list(sol.y[0, 1:])
        t, w = sol.t[-1], (0.0 if mode else sol.y[0, -1])
        if sol.status == 1:
            switches.append(t)
            mode = 0 if mode else (1 if stuck_breaks(t)[0] >= 0 else -1)
    return np.array(ts), np.array(ws), switches


def test_lossy_gear_demo1_against_an_independent_scipy_model():
    """Reference: scipy's solve_ivp with event location on the hand-reduced MSL equations
    (:func:`_lossy_reference`): the same mode sequence (backward, stuck, forward, stuck,
    backward) at the same instants and the same speed w_a; energy balance res.check()."""
    res = jd.compile(_lossy_demo1()).simulate(0.5, n_out=501, rtol=1e-9, atol=1e-11)
    changes = [(e.t, e.changes[0].split("→")[-1].strip()) for e in res.events.select("gear")]
    t_ref, w_ref, switches = _lossy_reference(0.5)
    assert [m for _, m in changes] == ["0", "1", "0", "-1"]
    assert np.allclose([t for t, _ in changes], switches[-4:], atol=1e-5)
    assert np.interp(res.t, t_ref, w_ref) == pytest.approx(res["Inertia1.w"], abs=2e-5)
    assert np.allclose(res["Inertia2.phi"], res["Inertia1.phi"] / 2, atol=1e-9)
    assert res.check()


def test_lossy_gear_lossless_is_an_ideal_gear():
    """Reference: lossTable = [0, 1, 1, 0, 0] (the MSL's default) is an IdealGear: the same
    speeds as the eliminated ideal gear, mode FREE, and energy conserved with the work."""
    lossy = jd.compile(_lossy_demo1(((0.0, 1.0, 1.0, 0.0, 0.0),))).simulate(0.5, n_out=51)
    from jourdain.blocks import Sine
    ideal = _model(gear=IdealGear(ratio=2.0), Inertia1=Inertia(J=1.0), Inertia2=Inertia(J=1.5),
                   torque1=Motor(), torque2=Motor(), DriveSine=Sine(amplitude=10.0, f=1.0),
                   load=Ramp(height=5.0, duration=2.0, offset=-10.0))
    _wire(ideal, (ideal.Inertia1.flange_b, ideal.gear.flange_a),
          (ideal.gear.flange_b, ideal.Inertia2.flange_a),
          (ideal.torque1.flange_b, ideal.Inertia1.flange_a),
          (ideal.torque2.flange_b, ideal.Inertia2.flange_b),
          (ideal.DriveSine.y, ideal.torque1.tau), (ideal.load.y, ideal.torque2.tau))
    ref = jd.compile(ideal).simulate(0.5, n_out=51)
    assert np.allclose(lossy["Inertia1.w"], ref["Inertia1.w"], atol=1e-6)
    assert set(lossy["gear.mode"]) == {2.0}
    assert lossy.check()


def test_spring_damper_is_a_spring_parallel_to_a_damper():
    """Reference: two formulations, SpringDamper(c, d, phi_rel0) against RotationalSpring +
    ViscousFriction on the same inertia."""
    def run(parts):
        m = _model(inertia=Inertia(J=0.5), **parts)
        for part in parts.values():
            m.connect(part.flange_b, m.inertia.flange_a)
        return jd.compile(m).simulate(2.0, z0={"inertia.w": 3.0}, n_out=41)
    one = run({"sd": SpringDamper(c=20.0, d=0.4, phi_rel0=0.3)})
    two = run({"s": RotationalSpring(c=20.0, phi_rel0=0.3), "d": ViscousFriction(d=0.4)})
    assert np.allclose(one["inertia.phi"], two["inertia.phi"], atol=1e-7)


def test_elasto_backlash_law_and_free_flight():
    """Reference: the MSL's law (no torque inside the backlash, |tau_d| ≤ |tau_c|, never
    pulling) evaluated by hand; an inertia starting inside the gap moves at constant speed
    until contact at (b/2 − φ0)/w0; the energy balance (spring stored, damper dissipated)."""
    e = ElastoBacklash(c=1e3, d=50.0, b=0.2, phi_rel0=0.0)
    tau = lambda s, w: float(e.transmitted(s, w))   # noqa: E731
    assert tau(0.05, 3.0) == 0.0                        # inside the backlash
    assert tau(0.15, 10.0) == pytest.approx(2 * 1e3 * 0.05)   # damping bounded by spring
    assert tau(0.15, 0.2) == pytest.approx(1e3 * 0.05 + 50 * 0.2)
    assert tau(0.15, -10.0) == 0.0                      # would pull: zero
    assert tau(-0.15, -0.2) == pytest.approx(-(1e3 * 0.05 + 50 * 0.2))
    e2 = ElastoBacklash2(c=1e3, d=50.0, b=0.2, phi_rel0=0.0)   # MSL: damping not bounded
    assert float(e2.transmitted(0.15, 10.0)) == pytest.approx(1e3 * 0.05 + 50 * 10.0)
    assert float(e2.transmitted(0.15, -10.0)) == 0.0 and float(e2.transmitted(0.05, 3)) == 0
    m = _model(inertia=Inertia(J=0.1), gap=ElastoBacklash(c=1e3, d=2.0, b=0.2))
    m.connect(m.gap.flange_b, m.inertia.flange_a)
    res = jd.compile(m).simulate(1.0, z0={"inertia.w": 1.0}, n_out=4001)   # fine grid: check()
    contact = res.events.times("gap", "contact_forward")[0]
    assert contact == pytest.approx(0.1 / 1.0, rel=1e-6)
    assert res.check()


def test_speed_dependent_sources_closed_forms():
    """Reference: closed forms. TorqueDirection = False with tau_nominal = −k brakes in both
    directions, J·ẇ = −k·w·|w| → w = w0/(1 + k·w0·t/J) (w0 > 0) and the mirror image for
    w0 < 0; ConstantTorque + TorqueStep: w = (τ0·t + step·(t − t_s)⁺)/J."""
    for w0 in (2.0, -2.0):
        m = _model(inertia=Inertia(J=0.5), load=QuadraticSpeedDependentTorque(
            tau_nominal=-0.8, w_nominal=1.0, TorqueDirection=False))
        m.connect(m.load.flange, m.inertia.flange_a)
        res = jd.compile(m).simulate(2.0, z0={"inertia.w": w0}, n_out=21, rtol=1e-10,
                                     atol=1e-12)
        exact = w0 / (1 + 0.8 * abs(w0) * res.t / 0.5)
        assert np.allclose(res["inertia.w"], exact, atol=1e-7)
    m = _model(inertia=Inertia(J=2.0), c=ConstantTorque(tau_constant=1.0),
               s=TorqueStep(stepTorque=3.0, offsetTorque=0.5, startTime=0.4))
    m.connect(m.c.flange, m.inertia.flange_a)
    m.connect(m.s.flange, m.inertia.flange_b)
    res = jd.compile(m).simulate(1.0, n_out=11, rtol=1e-10, atol=1e-12)
    exact = (1.5 * res.t + 3.0 * np.maximum(res.t - 0.4, 0)) / 2.0
    assert np.allclose(res["inertia.w"], exact, atol=1e-8)


def _signals(**blocks):
    m = _model(**blocks)
    m.inertia, m.motor = Inertia(J=1.0), Motor()   # a mechanism to carry the signals
    m.connect(m.motor.flange_b, m.inertia.flange_a)
    return m


def test_ramp_combitimetable_and_math_blocks():
    """Reference: the MSL's definitions evaluated with numpy — Ramp's three pieces,
    CombiTimeTable's linear and constant segments with a jump (two rows at t = 1), LastTwoPoints
    extrapolation and startTime/offset, Feedback u1 − u2, Add3 with gains, sin and atan."""
    table = [[0, 0, 1], [1, 2, 1], [1, 5, 3], [2, 6, 3]]
    m = _signals(ramp=Ramp(height=2.0, duration=0.5, offset=1.0, startTime=0.2),
                 lin=CombiTimeTable(table),
                 const=CombiTimeTable(table, columns=[3],
                                      smoothness=Smoothness.ConstantSegments,
                                      extrapolation=Extrapolation.HoldLastPoint,
                                      offset=10.0, startTime=0.1),
                 fb=Feedback(), add=Add3(k1=1.0, k2=-2.0, k3=0.5), sin=Sin(), atan=Atan(),
                 c=Constant(k=0.7))
    _wire(m, (m.ramp.y, m.fb.u1), (m.c.y, m.fb.u2), (m.ramp.y, m.add.u1), (m.c.y, m.add.u2),
          (m.ramp.y, m.add.u3), (m.c.y, m.sin.u), (m.c.y, m.atan.u), (m.c.y, m.motor.tau))
    system = jd.compile(m)
    t = np.array([0.0, 0.1, 0.3, 0.95, 0.99, 1.0, 1.5, 2.5])   # on the output grid
    res = system.simulate(2.5, n_out=251)
    at = lambda name: np.interp(t, res.t, res[name])   # noqa: E731 (t on the grid)
    ramp = 1.0 + 2.0 * np.clip((t - 0.2) / 0.5, 0, 1)
    assert np.allclose(at("ramp.y"), ramp, atol=1e-12)
    lin = np.where(t < 1, 2 * t, 5 + (t - 1))
    assert np.allclose(at("lin.y[0]"), lin, atol=1e-9)
    const = 10.0 + np.where(t < 0.1, 0.0, np.where(t < 1, 1.0, 3.0))
    assert np.allclose(at("const.y"), const, atol=1e-12)
    assert np.allclose(at("fb.y"), ramp - 0.7, atol=1e-12)
    assert np.allclose(at("add.y"), ramp - 1.4 + 0.5 * ramp, atol=1e-12)
    assert res["sin.y"][0] == pytest.approx(np.sin(0.7)) and \
        res["atan.y"][0] == pytest.approx(np.arctan(0.7))
    times = m.lin.time_events(0.0, 2.5) + m.const.time_events(0.0, 2.5)
    assert sorted(set(times)) == pytest.approx([0.1, 1.0, 2.0])   # kinks, jump, startTime


def test_pi_controller_closed_loop_against_scipy():
    """Reference: scipy's solve_ivp of the same loop, J·ẇ = k·(x + e), ẋ = e/T, e = w_ref − w
    (a PI speed controller through Feedback on an inertia)."""
    m = _model(inertia=Inertia(J=0.2), motor=Motor(), ref=Constant(k=3.0), fb=Feedback(),
               pi=PI(k=2.0, T=0.5), speed=AngleSensor())
    _wire(m, (m.motor.flange_b, m.inertia.flange_a), (m.ref.y, m.fb.u1),
          (m.speed.flange, m.inertia.flange_b), (m.speed.w, m.fb.u2), (m.fb.y, m.pi.u),
          (m.pi.y, m.motor.tau))
    res = jd.compile(m).simulate(2.0, n_out=21, rtol=1e-10, atol=1e-12)

    def rhs(t, s):
        w, x = s
        e = 3.0 - w
        return [2.0 * (x + e) / 0.2, e / 0.5]
    ref = solve_ivp(rhs, (0, 2), [0.0, 0.0], t_eval=res.t, rtol=1e-11, atol=1e-12)
    assert np.allclose(res["inertia.w"], ref.y[0], atol=1e-7)
    assert np.allclose(res["pi.x"], ref.y[1], atol=1e-7)



def test_mass_with_length_and_rod():
    """Reference: the MSL's geometry, flange_a at s − L/2 and flange_b at s + L/2, a Rod
    adding its length, read by PositionSensors; free fall of the pair under a constant force
    F: s = s0 + F·t²/(2·m) (the Rod is massless)."""
    from jourdain.blocks import ConstantForce, Mass, PositionSensor, Rod
    m = _model(mass=Mass(m=2.0, L=0.6), rod=Rod(L=0.25), push=ConstantForce(f_constant=3.0),
               sa=PositionSensor(), sb=PositionSensor())
    _wire(m, (m.push.flange, m.mass.flange_a), (m.mass.flange_b, m.rod.flange_a),
          (m.sa.flange, m.mass.flange_a), (m.sb.flange, m.rod.flange_b))
    system = jd.compile(m)
    assert system.y_names == ["mass.s"]
    res = system.simulate(1.0, y0={"mass.s": 1.0}, n_out=11, rtol=1e-10, atol=1e-12)
    s = 1.0 + 3.0 * res.t ** 2 / 4.0
    assert np.allclose(res["mass.s"], s, atol=1e-9)
    assert np.allclose(res["sa.s"], s - 0.3, atol=1e-9)
    assert np.allclose(res["sb.s"], s + 0.3 + 0.25, atol=1e-9)
