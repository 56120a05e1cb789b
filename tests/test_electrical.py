"""The acausal electrical domain (issue 14): circuits against their closed forms, energy
bookkeeping, sensors in control loops, and ill-posed networks rejected by name."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (
    Capacitor,
    ConstantCurrent,
    ConstantVoltage,
    CurrentSensor,
    Gain,
    Ground,
    HBridge,
    Inductor,
    Resistor,
    SignalVoltage,
    VoltageLimit,
    VoltageSensor,
    World,
)


def circuit(build) -> jd.Model:
    """A Model with one Composite ``c`` wired by ``build(c)``."""
    class Circuit(jd.Composite):
        def __init__(self):
            super().__init__()
            build(self)
    return jd.Model(World(), c=Circuit())


def series(c, *parts):
    """Connect ``parts`` (two-pin components) in series from the source's p back to its n."""
    for a, b in zip(parts, parts[1:]):
        c.connect(a.p if a is parts[0] else a.n, b.p)
    c.connect(parts[-1].n, parts[0].n)
    c.g = Ground()
    c.connect(c.g.p, parts[0].n)


def rc(c, R=10.0, C=0.01, V=2.0):
    c.src, c.R, c.C, c.meter = ConstantVoltage(V=V), Resistor(R=R), Capacitor(C=C), \
        VoltageSensor()
    series(c, c.src, c.R, c.C)
    c.connect(c.meter.p, c.C.p)
    c.connect(c.meter.n, c.C.n)


def test_rc_charging_follows_the_exponential():
    """Reference: v_C(t) = V·(1 − e^(−t/RC)) for a step onto an uncharged capacitor."""
    system = jd.compile(circuit(rc))
    assert system.x_names == ["c.C.v"]
    res = system.simulate(0.5, n_out=51, rtol=1e-10, atol=1e-10)
    exact = 2.0 * (1 - np.exp(-res.t / 0.1))
    assert np.abs(res["c.C.v"] - exact).max() < 1e-8
    assert np.abs(res["c.meter.v"] - exact).max() < 1e-8


def test_rl_current_rise_and_time_constant():
    """Reference: i(t) = V/R·(1 − e^(−t·R/L)); at t = L/R the current is (1 − 1/e)·V/R."""
    def rl(c):
        c.src, c.R, c.L = SignalVoltage(), Resistor(R=4.0), Inductor(L=0.2)
        series(c, c.src, c.R, c.L)
    res = jd.compile(circuit(rl)).simulate(0.3, inputs={"c.src.v": 8.0}, n_out=61,
                                           rtol=1e-10, atol=1e-10)
    assert np.abs(res["c.L.i"] - 2.0 * (1 - np.exp(-res.t * 20.0))).max() < 1e-8


def rlc(c, R=2.0, L=0.1, C=1e-3):
    c.src, c.R, c.L, c.C = SignalVoltage(), Resistor(R=R), Inductor(L=L), Capacitor(C=C)
    series(c, c.src, c.R, c.L, c.C)


def test_rlc_resonance_frequency():
    """Reference: the series RLC's modes are −R/2L ± j·√(1/LC − (R/2L)²) (linearization) and
    the free ringing has that period (zero crossings of the capacitor voltage's deviation)."""
    system = jd.compile(circuit(rlc))
    modes = jd.linearize(system).eigenvalues
    wd = np.sqrt(1 / (0.1 * 1e-3) - (2.0 / 0.2) ** 2)
    assert np.sort(modes.imag) == pytest.approx([-wd, wd], rel=1e-12)
    assert modes.real == pytest.approx([-10.0, -10.0], rel=1e-12)
    res = system.simulate(0.2, inputs={"c.src.v": 1.0}, n_out=4001, rtol=1e-10, atol=1e-10)
    dev = res["c.C.v"] - 1.0
    crossings = res.t[1:][np.diff(np.sign(dev)) != 0]
    assert np.diff(crossings).mean() == pytest.approx(np.pi / wd, rel=2e-3)


def test_energy_and_power_balance_of_a_driven_rlc():
    """Reference: energy conservation across the network, E = ½·C·v² + ½·L·i² (energy.stored)
    and E(t) − E(0) = ∫(P_supplied − R·i²) dt along a run with a voltage profile (trapezoid
    rule on a fine grid)."""
    system = jd.compile(circuit(rlc))
    res = system.simulate(0.1, inputs={"c.src.v": lambda t: 5 * np.sin(200 * t)}, n_out=4001,
                          rtol=1e-11, atol=1e-11)
    stored = 0.5 * 1e-3 * res["c.C.v"] ** 2 + 0.5 * 0.1 * res["c.L.i"] ** 2
    assert np.abs(res["energy.stored"] - stored).max() < 1e-14
    assert np.abs(res["power.dissipated"] - 2.0 * res["c.L.i"] ** 2).max() < 1e-12
    net = res["power.supplied"] - res["power.dissipated"]
    integral = np.concatenate([[0], np.cumsum(0.5 * np.diff(res.t) * (net[1:] + net[:-1]))])
    E = res["energy.total"]
    assert np.abs(E - E[0] - integral).max() < 1e-5 * np.abs(res["power.supplied"]).max()


def test_current_sensor_feedback_through_an_inductor_is_no_algebraic_loop():
    """Reference: proportional current control v = K·(i_ref − i) of an RL load settles at
    i = K·i_ref/(K + R) (steady state of L·di/dt = K·(i_ref − i) − R·i); the ammeter in
    series with the inductor reads its state, so the loop is not algebraic."""
    def loop(c):
        c.src, c.amp, c.R, c.L = SignalVoltage(), CurrentSensor(), Resistor(R=1.0), \
            Inductor(L=0.01)
        series(c, c.src, c.amp, c.R, c.L)
        c.ctrl = Gain([[5.0, -5.0]])
        from jourdain.blocks import Mux
        c.mux = Mux(1, 1)
        c.connect(c.amp.i, c.mux.u2)
        c.connect(c.mux.y, c.ctrl.u)
        c.connect(c.ctrl.y, c.src.v)
    system = jd.compile(circuit(loop))
    res = system.simulate(0.1, inputs={"c.mux.u1": 2.0}, n_out=3)
    assert res["c.amp.i"][-1] == pytest.approx(5 * 2.0 / 6.0, rel=1e-8)


def test_resistive_feedback_is_an_algebraic_loop():
    """Reference: with no state between them, a source driven by the current it makes is an
    algebraic loop (ModelError naming the components)."""
    def loop(c):
        c.src, c.amp, c.R = SignalVoltage(), CurrentSensor(), Resistor(R=1.0)
        series(c, c.src, c.amp, c.R)
        c.k = Gain(2.0)
        c.connect(c.amp.i, c.k.u)
        c.connect(c.k.y, c.src.v)
    with pytest.raises(jd.ModelError, match="algebraic loop.*c.src"):
        jd.compile(circuit(loop))


def test_symbolic_resistance_matches_numeric():
    """Reference: the same circuit compiled with R numeric and R symbolic (parameters=) gives
    the same derivative at random states."""
    numeric = jd.compile(circuit(rlc))
    symbolic = jd.compile(circuit(rlc), parameters=["c.R.R"])
    for x in np.random.default_rng(3).uniform(-1, 1, (3, 2)):
        assert np.allclose(np.array(symbolic.f(0, x, [0.7], [2.0])),
                           np.array(numeric.f(0, x, [0.7], [])), rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("limit, v_ref, expected", [
    (VoltageLimit.CLIP, 30.0, 24.0), (VoltageLimit.CLIP, -10.0, -10.0),
    (VoltageLimit.SMOOTH, 12.0, 12.0 / (1 + 0.5 ** 8) ** (1 / 8)),
    (VoltageLimit.SMOOTH, 1e3, 24.0 * (1 - 1e-12))])
def test_hbridge_limits_the_supply_voltage(limit, v_ref, expected):
    """Reference: the documented limit laws, read as the power v²/R in a 1 Ω load and as the
    power the bridge supplies (equal: the load is all there is)."""
    def drive(c):
        c.bridge, c.R = HBridge(V_supply=24.0, limit=limit), Resistor(R=1.0)
        series(c, c.bridge, c.R)
    system = jd.compile(circuit(drive))
    assert float(system.dissipation(0, [], [v_ref], [])) == pytest.approx(expected ** 2,
                                                                          rel=1e-9)
    assert float(system.supplied(0, [], [v_ref], [])) == pytest.approx(expected ** 2, rel=1e-9)


def no_ground(c):
    c.v, c.r = ConstantVoltage(V=1), Resistor(R=1)
    c.connect(c.v.p, c.r.p)
    c.connect(c.v.n, c.r.n)


def voltage_loop(c):
    c.v, c.cap, c.g = ConstantVoltage(V=1), Capacitor(C=1), Ground()
    c.connect(c.v.p, c.cap.p)
    c.connect(c.v.n, c.cap.n)
    c.connect(c.g.p, c.v.n)


def current_cut(c):
    c.i, c.l, c.r = ConstantCurrent(I=1), Inductor(L=1), Resistor(R=1)
    series(c, c.i, c.l, c.r)


def floating_node(c):
    rc(c)
    c.stray = VoltageSensor()
    c.connect(c.stray.p, c.R.p)


@pytest.mark.parametrize("build, message", [
    (no_ground, "no Ground: c.v, c.r"),
    (voltage_loop, "c.v, c.cap form a loop"),
    (current_cut, "c.i, c.l form a cut set"),
    (floating_node, "c.stray form a cut set.*floating node"),
])
def test_ill_posed_networks_are_named(build, message):
    """Reference: Kirchhoff's laws have no unique solution for these networks; the error
    names the components involved."""
    with pytest.raises(jd.ModelError, match=message):
        jd.compile(circuit(build))


def test_a_pin_cannot_be_connected_to_a_flange():
    """Reference: ports of different domains do not connect (typed wiring)."""
    from jourdain.blocks import Inertia
    with pytest.raises(jd.ModelError, match="a Pin cannot be connected to a Flange"):
        circuit(lambda c: (setattr(c, "r", Resistor()), setattr(c, "j", Inertia()),
                           c.connect(c.r.p, c.j.flange_a)))


@pytest.mark.parametrize("part, message", [
    (lambda: Resistor(R=0.0), "R must be positive"),
    (lambda: Capacitor(C=-1.0), "C must be positive"),
    (lambda: Inductor(L=0.0), "L must be positive"),
])
def test_bad_component_values_are_named(part, message):
    """Reference: a passive R, L or C needs a positive value."""
    def build(c):
        c.src, c.x = ConstantVoltage(V=1.0), part()
        series(c, c.src, c.x)
    with pytest.raises(jd.ModelError, match=f"c.x: {message}"):
        jd.compile(circuit(build))
