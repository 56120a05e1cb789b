"""The MSL's ``useHeatPort`` on the lossy elements (blocks/heat_port.py, docs/acausal.md):
hybrid stick/slip elements, compliant 1-D elements and the MultiBody line forces hand their
dissipated power to a thermal network. Each test states its reference: the energy balance
(a heat capacitor on the port stores what the mechanics lost), a closed form (two inertias
coupled by a slipping clutch lose ½·J1·J2/(J1 + J2)·Δω²), or an independent scipy model."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import (Constant, ElastoBacklash, ElastoBacklash2, Fixed, FreeJoint,
                             Inertia, LossyGear, Mass, Motor, RigidBody, SpringDamper,
                             SpringDamperParallel, SpringDamperSeries,
                             TranslationalSpringDamper, ViscousFriction, World)
from jourdain.blocks import Damper as LineDamper
from jourdain.blocks.hybrid import (BearingFriction, Brake, Clutch, ElastoGap, OneWayClutch,
                                    StribeckFriction, SupportFriction)
from jourdain.blocks.thermal import HeatCapacitor

C, T0 = 10.0, 293.15   # heat capacity [J/K] and start temperature of the capacitor


def _heated(model: jd.Model, element) -> None:
    """A HeatCapacitor ``cap`` on the element's heat port (adiabatic otherwise)."""
    model.cap = HeatCapacitor(C=C, T_start=T0)
    model.connect(element.heatPort, model.cap.port)


def _heat(res):
    return C * (res["cap.T"] - T0)


def test_clutch_heat_is_the_closed_form_loss_of_a_plastic_coupling():
    """Reference: closed form. Two inertias (J1 = 2, J2 = 3 kg·m²) at 10 and 0 rad/s coupled
    by a clutch sliding with τ = cgeo·μ·fn_max = 1·0.5·8 = 4 N·m lock at
    t* = Δω·J1·J2/((J1 + J2)·τ) = 3 s; the heat is ½·J1·J2/(J1 + J2)·Δω² = 60 J at and after
    t*, C·ΔT(t) = τ·Δω·t − ½·τ²·(1/J1 + 1/J2)·t² before; stuck, no heat flows."""
    m = jd.Model(world=World())
    m.J1, m.J2 = Inertia(J=2.0), Inertia(J=3.0)
    m.clutch = Clutch(fn_max=8.0, useHeatPort=True)
    m.press = Constant(k=1.0)
    m.connect(m.J1.flange_b, m.clutch.flange_a)
    m.connect(m.clutch.flange_b, m.J2.flange_a)
    m.connect(m.press.y, m.clutch.f_normalized)
    _heated(m, m.clutch)
    res = jd.compile(m).simulate(5.0, z0={"J1.w": 10.0}, n_out=51, rtol=1e-10, atol=1e-10)
    sliding = res.t < 3.0 - 1e-9
    t = res.t[sliding]
    # the clutch slides backward (w_rel = w2 − w1 < 0): the torque speeds J2 up
    expected = 4.0 * 10.0 * t - 0.5 * 16.0 * (1 / 2.0 + 1 / 3.0) * t ** 2
    assert np.abs(_heat(res)[sliding] - expected).max() < 1e-6
    assert np.abs(_heat(res)[res.t >= 3.0] - 60.0).max() < 1e-6
    assert res.check()


def _flywheel_on(element_factory, w0=5.0, t_end=2.0, motion="rotational"):
    """A flywheel (or a mass) started at w0 on an element between the ground and it, the
    element heating the capacitor."""
    m = jd.Model(world=World())
    m.body = Inertia(J=2.0) if motion == "rotational" else Mass(m=2.0)
    m.element = element_factory()
    m.ground = Fixed()
    m.connect(m.ground.flange, m.element.flange_a)
    m.connect(m.element.flange_b, m.body.flange_a)
    _heated(m, m.element)
    speed = "body.w" if motion == "rotational" else "body.v"
    return jd.compile(m).simulate(t_end, z0={speed: w0}, n_out=41, rtol=1e-10, atol=1e-10), \
        speed


@pytest.mark.parametrize("factory, motion", [
    (lambda: BearingFriction(tau_pos=[[0, 6.0], [10, 8.0]], useHeatPort=True), "rotational"),
    (lambda: Brake(fn_max=20.0, useHeatPort=True), "rotational"),
    (lambda: SupportFriction(f_pos=[[0, 10.0]], useHeatPort=True), "translational"),
    (lambda: StribeckFriction(useHeatPort=True), "translational"),
    (lambda: Brake(fn_max=20.0, useHeatPort=True), "translational"),
], ids=["BearingFriction", "Brake", "SupportFriction", "StribeckFriction",
        "TranslationalBrake"])
def test_friction_heat_is_the_kinetic_energy_it_takes(factory, motion):
    """Reference: energy balance. A friction element (a brake pressed by a constant input)
    stops a flywheel or a mass (½·2·5² = 25 J) within 3 s; everything it takes heats the
    capacitor, C·ΔT = ½·J·(ω0² − ω²) at every output time, and stuck nothing more flows."""
    res, speed = _braked(factory, motion)
    lost = 0.5 * 2.0 * (25.0 - res[speed] ** 2)
    assert np.abs(_heat(res) - lost).max() < 1e-6
    assert abs(res[speed][-1]) < 1e-8 and _heat(res)[-1] == pytest.approx(25.0, abs=1e-6)
    assert res.check()


def _braked(factory, motion):
    """A flywheel (or a mass) at 5 rad/s (m/s) stopped by a friction element on its flange_b
    (support: the ground), a brake pressed by a constant 1."""
    m = jd.Model(world=World())
    m.body = Inertia(J=2.0) if motion == "rotational" else Mass(m=2.0)
    m.element = factory()
    m.connect(m.body.flange_b, m.element.flange_a)
    if isinstance(m.element, Brake):
        m.press = Constant(k=1.0)
        m.connect(m.press.y, m.element.f_normalized)
    _heated(m, m.element)
    speed = "body.w" if motion == "rotational" else "body.v"
    return jd.compile(m).simulate(3.0, z0={speed: 5.0}, n_out=31, rtol=1e-10,
                                  atol=1e-10), speed


def test_one_way_clutch_heat_while_it_slips_forward():
    """Reference: closed form. A OneWayClutch (τ = cgeo·μ·fn_max = 0.5·4 = 2 N·m) between a
    driven inertia J2 (3 kg·m², at 6 rad/s) and a resting J1 (2 kg·m²): w_rel = w2 − w1 > 0
    slides forward until both turn at the common speed 3·6/5 = 3.6 rad/s; the heat is
    ½·J1·J2/(J1 + J2)·6² = 21.6 J."""
    m = jd.Model(world=World())
    m.J1, m.J2 = Inertia(J=2.0), Inertia(J=3.0)
    m.clutch = OneWayClutch(fn_max=4.0, useHeatPort=True)
    m.press = Constant(k=1.0)
    m.connect(m.J1.flange_b, m.clutch.flange_a)
    m.connect(m.clutch.flange_b, m.J2.flange_a)
    m.connect(m.press.y, m.clutch.f_normalized)
    _heated(m, m.clutch)
    res = jd.compile(m).simulate(8.0, z0={"J2.w": 6.0}, n_out=41, rtol=1e-10, atol=1e-10)
    assert res["J1.w"][-1] == pytest.approx(3.6, abs=1e-8)
    assert _heat(res)[-1] == pytest.approx(21.6, abs=1e-6)
    assert res.check()


@pytest.mark.parametrize("factory, motion", [
    (lambda: SpringDamper(c=100.0, d=3.0, useHeatPort=True), "rotational"),
    (lambda: ViscousFriction(d=3.0, useHeatPort=True), "rotational"),
    (lambda: ElastoBacklash(c=100.0, d=3.0, b=0.2, useHeatPort=True), "rotational"),
    (lambda: ElastoBacklash2(c=100.0, d=3.0, b=0.2, useHeatPort=True), "rotational"),
    (lambda: TranslationalSpringDamper(c=100.0, d=3.0, useHeatPort=True), "translational"),
    (lambda: ElastoGap(c=100.0, d=3.0, s_rel0=0.5, useHeatPort=True), "translational"),
], ids=["SpringDamper", "Damper", "ElastoBacklash", "ElastoBacklash2",
        "TranslationalSpringDamper", "ElastoGap"])
def test_compliant_heat_is_the_mechanical_energy_lost(factory, motion):
    """Reference: energy balance. A flywheel or mass on a compliant element to the ground,
    started at 5 rad/s (m/s): the heat stored in the capacitor equals the kinetic plus the
    element's elastic energy lost, C·ΔT = E(0) − E(t), at every output time."""
    res, speed = _flywheel_on(factory, motion=motion)
    energy = res["energy.kinetic"] + res["energy.potential"]
    # 1e-7 of the energy: the event restarts at contact (a torque jump of ElastoBacklash2)
    assert np.abs(_heat(res) - (energy[0] - energy)).max() < 1e-7 * energy[0]
    assert _heat(res)[-1] > 1.0    # something was dissipated
    assert res.check()


def test_damper_heat_matches_scipy():
    """Reference: scipy's solve_ivp of J·ω' = −c·φ − d·ω, C·T' = d·ω² (the SpringDamper's law
    and its lossPower written again here)."""
    res, speed = _flywheel_on(lambda: SpringDamper(c=100.0, d=3.0, useHeatPort=True))
    ref = solve_ivp(lambda t, x: [x[1], (-100.0 * x[0] - 3.0 * x[1]) / 2.0,
                                  3.0 * x[1] ** 2 / C],
                    (0, 2.0), [0.0, 5.0, T0], t_eval=res.t, rtol=1e-11, atol=1e-11)
    assert np.abs(res["cap.T"] - ref.y[2]).max() < 1e-7


def test_heat_port_does_not_change_the_motion():
    """Reference: agreement of two models (the MSL's semantics: the heat port only takes the
    losses). The same stick/slip train with and without useHeatPort moves alike."""
    def run(flag):
        m = jd.Model(world=World())
        m.J1, m.J2 = Inertia(J=2.0), Inertia(J=3.0)
        m.clutch = Clutch(fn_max=8.0, useHeatPort=flag)
        m.bearing = BearingFriction(tau_pos=[[0, 1.0]], useHeatPort=flag)
        m.spring = SpringDamper(c=50.0, d=1.0, useHeatPort=flag)
        m.press = Constant(k=1.0)
        m.connect(m.J1.flange_b, m.clutch.flange_a)
        m.connect(m.clutch.flange_b, m.J2.flange_a)
        m.connect(m.J2.flange_b, m.bearing.flange_a)
        m.connect(m.J1.flange_a, m.spring.flange_b)
        m.connect(m.press.y, m.clutch.f_normalized)
        if flag:
            m.cap = HeatCapacitor(C=C, T_start=T0)
            for e in (m.clutch, m.bearing, m.spring):
                m.connect(e.heatPort, m.cap.port)
        return jd.compile(m).simulate(3.0, z0={"J1.w": 10.0}, n_out=31, rtol=1e-10,
                                      atol=1e-10)
    with_port, without = run(True), run(False)
    for name in ("J1.w", "J2.w"):
        assert np.abs(with_port[name] - without[name]).max() < 1e-7
    energy = without["energy.kinetic"] + without["energy.potential"]
    assert np.abs(_heat(with_port) - (energy[0] - energy)).max() < 1e-7 * energy[0]


def _body_on_line(element, series=False):
    m = jd.Model(world=World(g=(0, 0, 0)))
    m.free = FreeJoint()
    m.body = RigidBody(m=2.0, I=(0.1, 0.1, 0.1))
    m.element = element
    m.connect(m.world.frame_b, m.free.frame_a)
    m.connect(m.free.frame_b, m.body.frame_a)
    m.connect(m.world.frame_b, m.element.frame_a)
    m.connect(m.element.frame_b, m.body.frame_a)
    _heated(m, m.element)
    return jd.compile(m).simulate(3.0, y0={"free.x": 1.0, "free.y": 0.3, "free.q0": 1.0},
                                  z0={"free.vx": 2.0, "free.vy": -1.0}, n_out=31,
                                  rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("element", [
    LineDamper(d=2.0, useHeatPort=True),
    SpringDamperParallel(c=30.0, d=2.0, s_unstretched=0.5, useHeatPort=True),
], ids=["Damper", "SpringDamperParallel"])
def test_line_force_heat_is_the_mechanical_energy_lost(element):
    """Reference: energy balance. A free body (no gravity) moving on a MultiBody damper
    (or spring–damper) from the world origin: C·ΔT = E(0) − E(t) (kinetic + spring)."""
    res = _body_on_line(element)
    energy = res["energy.kinetic"] + res["energy.potential"]
    assert np.abs(_heat(res) - (energy[0] - energy)).max() < 1e-6
    assert _heat(res)[-1] > 0.5
    assert res.check()


def test_spring_damper_series_heat_is_its_damper_power():
    """Reference: energy balance of the series element: the mechanics loses kinetic energy,
    the spring inside the element stores ½·f²/c with f = c·(s − s_unstretched − s_damper),
    and the rest, f²/d integrated, is the heat: C·ΔT = E(0) − E(t) + ½·f(0)²/c − ½·f²/c."""
    res = _body_on_line(SpringDamperSeries(c=30.0, d=2.0, s_unstretched=0.5,
                                           useHeatPort=True))
    s = np.hypot(res["free.x"], res["free.y"])
    f = 30.0 * (s - 0.5 - res["element.s_damper"])
    inner = 0.5 * f ** 2 / 30.0
    energy = res["energy.kinetic"] + res["energy.potential"] + inner
    assert np.abs(_heat(res) - (energy[0] - energy)).max() < 1e-6
    assert _heat(res)[-1] > 0.5


def test_unconnected_heat_port_is_refused_by_name():
    """Reference: the MSL's semantics (an unconnected heatPort of an element with
    useHeatPort = true leaves its temperature without an equation: structurally singular).
    The refusal names the port."""
    m = jd.Model(world=World())
    m.J = Inertia(J=1.0)
    m.damper = ViscousFriction(d=1.0, useHeatPort=True)
    m.connect(m.J.flange_b, m.damper.flange_b)
    with pytest.raises(jd.ModelError, match=r"damper\.heatPort"):
        jd.compile(m)


def test_two_independent_brakes_heat_one_capacitor():
    """Reference: energy balance. Two flywheels no equation couples (J = 2 and 3 kg·m², at 5
    and −4 rad/s; the hybrid solver may treat them as separate islands) braked to rest, both
    brakes heating one capacitor: C·ΔT = Σ ½·J·(ω0² − ω²) = 25 + 24 J at every output
    time."""
    m = jd.Model(world=World())
    m.press = Constant(k=1.0)
    m.cap = HeatCapacitor(C=C, T_start=T0)
    for k, J in ((1, 2.0), (2, 3.0)):
        m.add(f"J{k}", Inertia(J=J))
        m.add(f"b{k}", Brake(fn_max=10.0 * k, useHeatPort=True))
        m.connect(getattr(m, f"J{k}").flange_b, getattr(m, f"b{k}").flange_a)
        m.connect(m.press.y, getattr(m, f"b{k}").f_normalized)
        m.connect(getattr(m, f"b{k}").heatPort, m.cap.port)
    res = jd.compile(m).simulate(3.0, z0={"J1.w": 5.0, "J2.w": -4.0}, n_out=31, rtol=1e-10,
                                 atol=1e-10)
    lost = 0.5 * 2.0 * (25.0 - res["J1.w"] ** 2) + 0.5 * 3.0 * (16.0 - res["J2.w"] ** 2)
    assert np.abs(_heat(res) - lost).max() < 1e-6
    assert _heat(res)[-1] == pytest.approx(49.0, abs=1e-6)


def _gear_model(gear, torque: float):
    """Inertia1 (J = 0.001) — gear — Inertia2 (J = 0.001), a constant torque on Inertia1, the
    gear heating the capacitor (LossyGearDemo3's parts)."""
    m = jd.Model(world=World())
    m.gear = gear
    m.Inertia1, m.Inertia2 = Inertia(J=0.001), Inertia(J=0.001)
    m.torque1, m.drive = Motor(), Constant(k=torque)
    m.connect(m.torque1.flange_b, m.Inertia1.flange_a)
    m.connect(m.drive.y, m.torque1.tau)
    m.connect(m.Inertia1.flange_b, m.gear.flange_a)
    m.connect(m.gear.flange_b, m.Inertia2.flange_a)
    _heated(m, m.gear)
    return jd.compile(m)


def test_lossy_gear_heat_is_the_roll_out_closed_form():
    """Reference: closed form (LossyGearDemo3's roll-out). Two inertias of 0.001 kg·m² at
    10 rad/s on a LossyGear (ratio 1, eta 0.25, bearing friction 0.625/2.5 N·m: tauLoss
    = 1 N·m either quadrant) and no torque: w = 10 − 500·t, stuck at 0.02 s; the heat is the
    kinetic energy lost, C·ΔT = 0.001·(100 − w²) = 0.1 J at the end, and the heat flow
    out of the port is tauLoss·w_a at every sample (zero while stuck)."""
    gear = LossyGear(ratio=1.0, lossTable=[[0.0, 0.25, 0.25, 0.625, 2.5]], useHeatPort=True)
    res = _gear_model(gear, 0.0).simulate(0.05, z0={"Inertia1.w": 10.0, "Inertia2.w": 10.0},
                                          n_out=101, rtol=1e-10, atol=1e-12)
    closed = np.maximum(10.0 - 500.0 * res.t, 0.0)
    assert np.abs(res["Inertia1.w"] - closed).max() < 1e-6
    assert np.abs(_heat(res) - 0.001 * (100.0 - closed ** 2)).max() < 1e-8
    assert _heat(res)[-1] == pytest.approx(0.1, abs=1e-8)
    P = res["gear.tauLoss"] * res["Inertia1.w"]
    assert np.abs(-res["gear.heatPort.Q_flow"] - P).max() < 1e-9
    assert np.abs(res["gear.heatPort.Q_flow"][res.t > 0.021]).max() < 1e-9   # stuck
    assert res.check()


@pytest.mark.parametrize("torque", [2.0, -2.0])
def test_lossy_gear_heat_is_the_mechanical_energy_lost(torque):
    """Reference: energy balance. A LossyGear (ratio 2, eta 0.8 → 0.7, bearing friction
    0.1 → 0.2 N·m over |w_a| 0 → 10 rad/s) driven from rest by ±2 N·m on flange_a: the
    heat C·ΔT = the torque's work − the kinetic energy at every sample, and ∫tauLoss·w_a dt
    (trapezoid rule on 401 samples)."""
    gear = LossyGear(ratio=2.0, lossTable=[[0, 0.8, 0.8, 0.1, 0.1], [10, 0.7, 0.7, 0.2, 0.2]],
                     useHeatPort=True)
    res = _gear_model(gear, torque).simulate(0.1, n_out=401, rtol=1e-10, atol=1e-12)
    w1, w2 = res["Inertia1.w"], res["Inertia2.w"]
    work = torque * res["Inertia1.phi"]
    lost = work - 0.5 * 0.001 * (w1 ** 2 + w2 ** 2)
    assert abs(w1[-1]) > 10.0   # it rolled across the table's rows
    assert np.abs(_heat(res) - lost).max() < 1e-8 * (1 + abs(work[-1]))
    loss = np.trapezoid(res["gear.tauLoss"] * w1, res.t)
    assert _heat(res)[-1] == pytest.approx(loss, rel=1e-4)
    assert _heat(res)[-1] > 0.05 * work[-1]   # the loss is a real share of the work
    assert res.check()


def test_two_independent_lossy_gears_heat_one_capacitor():
    """Reference: energy balance. Two gear trains no equation of motion couples (each two
    inertias of 0.001 kg·m² at 10 and 5 rad/s on LossyGearDemo3's gear, tauLoss = 1 N·m,
    rolled out to rest at 0.02 and 0.01 s), both gears heating one capacitor: the thermal
    state reads both gears' solved row forces, so the model is not split into islands, and
    C·ΔT = the kinetic energy lost, 0.1 + 0.025 J."""
    m = jd.Model(world=World())
    m.cap = HeatCapacitor(C=C, T_start=T0)
    for k in (1, 2):
        m.add(f"g{k}", LossyGear(ratio=1.0, lossTable=[[0.0, 0.25, 0.25, 0.625, 2.5]],
                                 useHeatPort=True))
        m.add(f"a{k}", Inertia(J=0.001))
        m.add(f"b{k}", Inertia(J=0.001))
        m.connect(getattr(m, f"a{k}").flange_b, getattr(m, f"g{k}").flange_a)
        m.connect(getattr(m, f"g{k}").flange_b, getattr(m, f"b{k}").flange_a)
        m.connect(getattr(m, f"g{k}").heatPort, m.cap.port)
    res = jd.compile(m).simulate(0.05, z0={"a1.w": 10.0, "b1.w": 10.0, "a2.w": 5.0,
                                           "b2.w": 5.0}, n_out=51, rtol=1e-10, atol=1e-12)
    lost = 0.001 * (125.0 - res["a1.w"] ** 2 - res["a2.w"] ** 2)
    assert np.abs(_heat(res) - lost).max() < 1e-8
    assert _heat(res)[-1] == pytest.approx(0.125, abs=1e-8)
