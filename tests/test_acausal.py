"""The acausal core (issue 25): user components as residual equations, the thermal domain,
nonlinear electrical parts, heat ports of lossy elements, and the refusal of structurally
singular models by name. Each test states its reference."""
import casadi as ca
import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.linalg import expm
from scipy.optimize import brentq

import jourdain as jd
from jourdain.blocks import (Capacitor, ConstantVoltage, Ground, Inductor, Inertia, Resistor,
                             SignalVoltage, Sine, ViscousFriction, World)
from jourdain.blocks.electrical import Diode, IdealDiode, IdealOpAmp
from jourdain.blocks.thermal import (FixedTemperature, HeatCapacitor, HeatFlowSensor,
                                     PrescribedHeatFlow, TemperatureSensor, ThermalConductor)


def model(build) -> jd.Model:
    """A Model with one Composite ``c`` wired by ``build(c)``."""
    class Net(jd.Composite):
        def __init__(self):
            super().__init__()
            build(self)
    return jd.Model(World(), c=Net())


def power_balance(system, t, x, u=()):
    """d/dt(T + V + W) − (P_supplied − P_dissipated) at (t, x): zero when the energy
    bookkeeping of every component is right (the conservation law)."""
    fn = system.functions
    X = ca.SX.sym("x", system.nx)
    p = system.p_default
    T, V, W = fn["energy"](X, p)
    xdot = fn["f"](t, X, list(u), p)
    rate = ca.jtimes(T + V + W, X, xdot)
    balance = rate - fn["supplied"](t, X, list(u), p) + fn["dissipation"](t, X, list(u), p)
    return float(ca.Function("b", [X], [balance])(x))


# ---- thermal ------------------------------------------------------------------------------
def chain(c, n=5, C=2.0, G=3.0, T_amb=300.0):
    """n heat capacitors in a row, joined by conductors, the last one to an ambient."""
    for k in range(n):
        setattr(c, f"m{k}", HeatCapacitor(C=C * (1 + 0.1 * k), T_start=300.0 + 20.0 * k))
        setattr(c, f"g{k}", ThermalConductor(G=G))
        c.connect(getattr(c, f"m{k}").port, getattr(c, f"g{k}").port_a)
        if k:
            c.connect(getattr(c, f"g{k - 1}").port_b, getattr(c, f"m{k}").port)
    c.amb = FixedTemperature(T=T_amb)
    c.connect(getattr(c, f"g{n - 1}").port_b, c.amb.port)
    c.sensor = TemperatureSensor()
    c.connect(c.sensor.port, c.m0.port)


def test_heat_conduction_chain_matches_the_matrix_exponential():
    """Reference: the chain is C·dT/dt = −K·T + b (K the conductance Laplacian with the
    ambient), solved exactly as T(t) = T∞ + expm(A·t)·(T0 − T∞); the sensor reads m0.T."""
    n, C, G = 5, 2.0, 3.0
    system = jd.compile(model(lambda c: chain(c, n, C, G)))
    assert system.x_names == [f"c.m{k}.T" for k in range(n)]
    res = system.simulate(20.0, n_out=41, rtol=1e-10, atol=1e-10)
    caps = np.array([C * (1 + 0.1 * k) for k in range(n)])
    K = np.diag([G] + [2 * G] * (n - 1)) - G * (np.eye(n, k=1) + np.eye(n, k=-1))
    K[0, 0] = G
    K[-1, -1] = 2 * G   # the last conductor ends on the ambient
    A = -K / caps[:, None]
    b = np.zeros(n)
    b[-1] = G * 300.0 / caps[-1]
    T_inf = np.linalg.solve(A, -b)
    T0 = 300.0 + 20.0 * np.arange(n)
    for t, row in zip(res.t[::10], np.array([res[f"c.m{k}.T"] for k in range(n)]).T[::10]):
        assert np.abs(row - (T_inf + expm(A * t) @ (T0 - T_inf))).max() < 1e-6
    assert np.abs(res["c.sensor.T"] - res["c.m0.T"]).max() < 1e-12


def test_thermal_energy_balance_holds_pointwise():
    """Reference: conservation of energy, d(Σ C·T)/dt = heat supplied by the ambient
    (−Q_flow of FixedTemperature) at random states."""
    system = jd.compile(model(lambda c: chain(c, 4)))
    rng = np.random.default_rng(1)
    for _ in range(5):
        x = 280 + 60 * rng.random(system.nx)
        assert abs(power_balance(system, 0.0, x)) < 1e-9


def test_prescribed_heat_flow_heats_a_capacitor_linearly():
    """Reference: C·dT/dt = Q (a constant input), so T = T0 + Q·t/C; the heat flow sensor
    in series reads Q."""
    def build(c):
        c.heater, c.cap, c.sensor = PrescribedHeatFlow(), HeatCapacitor(C=4.0), HeatFlowSensor()
        c.connect(c.heater.port, c.sensor.port_a)
        c.connect(c.sensor.port_b, c.cap.port)
    system = jd.compile(model(build))
    res = system.simulate(2.0, n_out=5, inputs={"c.heater.Q_flow": 8.0}, rtol=1e-10,
                          atol=1e-10)
    assert np.abs(res["c.cap.T"] - (293.15 + 2.0 * res.t)).max() < 1e-8
    assert np.abs(res["c.sensor.Q_flow"] - 8.0).max() < 1e-10


# ---- the electrical network on the core ---------------------------------------------------
def rlc(c, R=2.0, L=0.1, C=0.01, V=1.0):
    c.src, c.R, c.L, c.C, c.g = (ConstantVoltage(V=V), Resistor(R=R), Inductor(L=L),
                                 Capacitor(C=C), Ground())
    c.connect(c.src.p, c.R.p)
    c.connect(c.R.n, c.L.p)
    c.connect(c.L.n, c.C.p)
    c.connect(c.C.n, c.src.n)
    c.connect(c.g.p, c.src.n)


def test_rlc_on_the_core_matches_the_closed_form():
    """Reference: the underdamped series RLC step response, i(t) = V/(ωd·L)·e^(−αt)·sin(ωd t)
    with α = R/2L, ωd = √(1/LC − α²)."""
    system = jd.compile(model(rlc))
    res = system.simulate(0.3, n_out=61, rtol=1e-10, atol=1e-10)
    alpha, wd = 2.0 / 0.2, np.sqrt(1 / (0.1 * 0.01) - 100.0)
    exact = 1.0 / (wd * 0.1) * np.exp(-alpha * res.t) * np.sin(wd * res.t)
    assert np.abs(res["c.L.i"] - exact).max() < 1e-7


def test_rc_and_rl_on_the_core_match_their_closed_forms():
    """Reference: v_C(t) = V·(1 − e^(−t/RC)) for an RC step, i(t) = V/R·(1 − e^(−tR/L)) for
    an RL step, both compiled on the acausal core."""
    def rc(c):
        c.src, c.R, c.C, c.g = ConstantVoltage(V=2.0), Resistor(R=10.0), Capacitor(C=0.01), \
            Ground()
        c.connect(c.src.p, c.R.p)
        c.connect(c.R.n, c.C.p)
        c.connect(c.C.n, c.src.n)
        c.connect(c.g.p, c.src.n)

    def rl(c):
        c.src, c.R, c.L, c.g = ConstantVoltage(V=3.0), Resistor(R=4.0), Inductor(L=0.2), \
            Ground()
        c.connect(c.src.p, c.R.p)
        c.connect(c.R.n, c.L.p)
        c.connect(c.L.n, c.src.n)
        c.connect(c.g.p, c.src.n)
    res = jd.compile(model(rc)).simulate(0.5, n_out=51, rtol=1e-10, atol=1e-10)
    assert np.abs(res["c.C.v"] - 2.0 * (1 - np.exp(-res.t / 0.1))).max() < 1e-8
    res = jd.compile(model(rl)).simulate(0.5, n_out=51, rtol=1e-10, atol=1e-10)
    assert np.abs(res["c.L.i"] - 0.75 * (1 - np.exp(-res.t * 20.0))).max() < 1e-8


@pytest.mark.parametrize("R", [2.0, 50.0])
def test_rlc_f_is_the_circuits_state_equations(R):
    """Reference: the series RLC circuit's state equations written by hand,
    L·di/dt = V − R·i − v_C and C·dv_C/dt = i, for f at random states, and the powers
    V·i supplied and R·i² dissipated (round-off)."""
    system = jd.compile(model(lambda c: rlc(c, R=R)))
    assert system.x_names == ["c.L.i", "c.C.v"]
    rng = np.random.default_rng(2)
    for _ in range(5):
        i, v = rng.normal(size=2)
        f = np.array(system.functions["f"](0.0, [i, v], [], system.p_default)).ravel()
        expected = [(1.0 - R * i - v) / 0.1, i / 0.01]
        assert np.abs(f - expected).max() < 1e-12 * max(1.0, np.abs(expected).max())
        P = float(system.functions["supplied"](0.0, [i, v], [], system.p_default))
        D = float(system.functions["dissipation"](0.0, [i, v], [], system.p_default))
        assert abs(P - 1.0 * i) < 1e-12 and abs(D - R * i**2) < 1e-12 * max(1.0, R * i**2)


def rectifier(c, diode, Rs=10.0, R=100.0, C=1e-4):
    c.sine, c.src, c.d = Sine(amplitude=10.0, f=50.0), SignalVoltage(), diode
    c.Rs, c.R, c.C, c.g = Resistor(R=Rs), Resistor(R=R), Capacitor(C=C), Ground()
    c.connect(c.sine.y, c.src.v)
    c.connect(c.src.p, c.Rs.p)
    c.connect(c.Rs.n, c.d.p)
    c.connect(c.d.n, c.R.p)
    c.connect(c.C.p, c.d.n)
    for pin in (c.R.n, c.C.n, c.src.n):
        c.connect(pin, c.g.p)


def diode_current(u, Ids=1e-6, Vt=0.04, Maxexp=15.0, R=1e8):
    x = u / Vt
    if x > Maxexp:
        return Ids * (np.exp(Maxexp) * (1 + x - Maxexp) - 1) + u / R
    return Ids * (np.exp(x) - 1) + u / R


def test_diode_rectifier_matches_scipy():
    """Reference: scipy's solve_ivp of the hand-written ODE C·dv/dt = i − v/R, where the
    diode current i solves i = i_D(v_s − Rs·i − v) (brentq at each evaluation); the diode
    law is the MSL's, written again here."""
    system = jd.compile(model(lambda c: rectifier(c, Diode())))
    res = system.simulate(0.04, n_out=81, rtol=1e-10, atol=1e-10)

    def rhs(t, v):
        vs = 10.0 * np.sin(2 * np.pi * 50.0 * t)
        i = brentq(lambda i: i - diode_current(vs - 10.0 * i - v[0]), -1.0, 2.0, xtol=1e-15)
        return [(i - v[0] / 100.0) / 1e-4]
    ref = solve_ivp(rhs, (0, 0.04), [0.0], t_eval=res.t, rtol=1e-10, atol=1e-12,
                    method="LSODA")
    assert np.abs(res["c.C.v"] - ref.y[0]).max() < 1e-5
    assert res["c.C.v"].max() > 8.0   # it rectifies: the capacitor charges to the peak


def test_internal_variables_are_series_of_the_result():
    """Reference: the conductor's law Q = G·(T_a − T_b) on the capacitors' state series and
    T = port.T of a capacitor (closed forms); the diode's current against the MSL diode law
    of its own voltage series (written again here); dotted names as for every component."""
    res = jd.compile(model(lambda c: chain(c, n=3))).simulate(1.0, n_out=5, rtol=1e-10,
                                                               atol=1e-10)
    Q = 3.0 * (res["c.m0.T"] - res["c.m1.T"])
    assert np.abs(res["c.g0.port_a.Q_flow"] - Q).max() < 1e-9 * np.abs(Q).max()
    assert np.abs(res["c.g0.port_b.Q_flow"] + Q).max() < 1e-9 * np.abs(Q).max()
    assert np.abs(res["c.m1.port.T"] - res["c.m1.T"]).max() < 1e-9
    res = jd.compile(model(lambda c: rectifier(c, Diode()))).simulate(
        0.01, n_out=11, rtol=1e-10, atol=1e-10)
    u = res["c.d.p.v"] - res["c.d.n.v"]
    law = np.array([diode_current(x) for x in u])
    assert np.abs(res["c.d.p.i"] - law).max() < 1e-9 * max(1.0, np.abs(law).max())
    assert np.abs(res["c.d.p.i"] + res["c.d.n.i"]).max() < 1e-12


def test_ideal_diode_blocks_reverse_current():
    """Reference: the ideal diode's curve; reverse, it conducts only Goff·v (Goff = 1e-5 S),
    so the capacitor, charged through it alone, never goes below −1e-3 V; forward, it is a
    near short (Ron = 1e-5 Ω), so the peak reaches ≥ 8 V of the 10 V source through Rs."""
    system = jd.compile(model(lambda c: rectifier(c, IdealDiode())))
    res = system.simulate(0.04, n_out=201)
    assert res["c.C.v"].min() > -1e-3
    assert res["c.C.v"].max() > 8.0


def test_ideal_opamp_integrator_matches_the_closed_form():
    """Reference: the inverting lossy integrator, v_C(t) = V·(R2/R1)·(1 − e^(−t/(R2·C)))."""
    def build(c):
        c.src, c.R1, c.R2, c.C = ConstantVoltage(V=1.0), Resistor(R=1e3), Resistor(R=1e4), \
            Capacitor(C=1e-6)
        c.op, c.g = IdealOpAmp(), Ground()
        c.connect(c.src.p, c.R1.p)
        c.connect(c.R1.n, c.op.in_n)
        c.connect(c.op.in_n, c.C.p)
        c.connect(c.C.n, c.op.out)
        c.connect(c.op.in_n, c.R2.p)
        c.connect(c.R2.n, c.op.out)
        c.connect(c.op.in_p, c.g.p)
        c.connect(c.src.n, c.g.p)
    system = jd.compile(model(build))
    res = system.simulate(0.05, n_out=26, rtol=1e-10, atol=1e-10)
    assert np.abs(res["c.C.v"] - 10.0 * (1 - np.exp(-res.t / 1e-2))).max() < 1e-7
    x = np.array([3.0])
    assert abs(power_balance(system, 0.0, x)) < 1e-10   # the op-amp's supply counted


# ---- heat ports of lossy elements ---------------------------------------------------------
def test_resistor_heats_a_capacitor_by_its_losses():
    """Reference: energy balance; charging C from 0 to V through R dissipates ½·C·V² in R
    (independent of R), so a heat capacitor C_th on the resistor's heat port warms by
    ½·C·V²/C_th; the balance d(W_el + W_th)/dt = P_source holds pointwise."""
    def build(c):
        c.src, c.R, c.C, c.g = ConstantVoltage(V=10.0), Resistor(R=5.0, useHeatPort=True), \
            Capacitor(C=0.02), Ground()
        c.cap = HeatCapacitor(C=0.5, T_start=300.0)
        c.connect(c.src.p, c.R.p)
        c.connect(c.R.n, c.C.p)
        c.connect(c.C.n, c.src.n)
        c.connect(c.g.p, c.src.n)
        c.connect(c.R.heatPort, c.cap.port)
    system = jd.compile(model(build))
    res = system.simulate(2.0, n_out=11, rtol=1e-10, atol=1e-10)
    assert abs(res["c.cap.T"][-1] - (300.0 + 0.5 * 0.02 * 100.0 / 0.5)) < 1e-6
    assert abs(power_balance(system, 0.0, np.array([3.0, 301.0]))) < 1e-9
    assert res.check()


def test_damper_heats_a_capacitor_by_its_losses():
    """Reference: energy balance; a flywheel J spinning down through a damper with a heat
    port hands ½·J·ω0² to the heat capacitor: ΔT = ½·J·ω0²/C_th."""
    def build(c):
        c.J = Inertia(J=2.0)
        c.d = ViscousFriction(d=4.0, useHeatPort=True)
        c.cap = HeatCapacitor(C=10.0, T_start=300.0)
        c.connect(c.J.flange_b, c.d.flange_b)
        c.connect(c.d.heatPort, c.cap.port)
    system = jd.compile(model(build))
    res = system.simulate(10.0, z0={"c.J.w": 3.0}, n_out=11, rtol=1e-10, atol=1e-10)
    assert abs(res["c.cap.T"][-1] - (300.0 + 0.5 * 2.0 * 9.0 / 10.0)) < 1e-6
    assert res.check()


# ---- refusals ----------------------------------------------------------------------------
class Lonely(jd.blocks.acausal.AcausalComponent):
    """A component whose variable x no equation fixes (a missing equation)."""

    VARIABLES = {"x": "1", "y": "1"}

    def __init__(self):
        self.port = jd.blocks.HeatPort(self, "port")

    def equations(self, v):
        return [v.port.Q_flow, v.der(v.y) - v.x * v.y]


def test_missing_equation_is_named():
    """Reference: the matching leaves c.bad.x unassigned; the error names it and its
    component, and says an equation is missing."""
    def build(c):
        c.bad, c.amb = Lonely(), FixedTemperature()
        c.connect(c.bad.port, c.amb.port)
    with pytest.raises(jd.ModelError, match=r"(?s)missing.*c\.bad\.x.*c\.bad"):
        jd.compile(model(build))


def test_capacitors_on_one_node_share_one_state():
    """Reference: closed form; alias elimination makes T = port.T of both capacitors one
    state, so (C_a + C_b)·dT/dt = G·(T_amb − T) and T − T_amb decays with e^(−G·t/(C_a+C_b))."""
    def build(c):
        c.a, c.b = HeatCapacitor(C=1.0, T_start=350.0), HeatCapacitor(C=3.0, T_start=350.0)
        c.g, c.amb = ThermalConductor(G=2.0), FixedTemperature(T=300.0)
        c.connect(c.a.port, c.b.port)
        c.connect(c.b.port, c.g.port_a)
        c.connect(c.g.port_b, c.amb.port)
        c.sensor = TemperatureSensor()
        c.connect(c.sensor.port, c.b.port)
    system = jd.compile(model(build))
    assert system.x_names == ["c.a.T"]
    res = system.simulate(3.0, n_out=7, rtol=1e-10, atol=1e-10)
    assert np.abs(res["c.sensor.T"] - (300 + 50 * np.exp(-2.0 * res.t / 4.0))).max() < 1e-7


def test_heat_losses_example(tmp_path, monkeypatch, capsys):
    """Reference: the closed forms the example prints next to the simulated values (steady
    speed, current, winding and housing temperatures of the thermal network) agree, and its
    energy balance holds."""
    import re
    import runpy
    from pathlib import Path
    monkeypatch.chdir(tmp_path)
    example = Path(__file__).resolve().parents[1] / "examples" / "heat_losses.py"
    runpy.run_path(str(example), run_name="__main__")
    out = capsys.readouterr().out
    assert (tmp_path / "out" / "heat_losses.png").stat().st_size > 1000
    for what in ("speed", "winding", "housing"):
        got, exact = re.search(rf"{what} (\S+) \S+ \(closed form (\S+)\)", out).groups()
        assert float(got) == pytest.approx(float(exact), abs=5e-3)
    assert "Result check: holds" in out


def test_newton_inside_f_is_code_generated(tmp_path):
    """Reference: agreement of two evaluations; the rectifier's diode loop (a fast_newton
    rootfinder inside f) compiled to C gives the virtual machine's f, and the compiled run
    follows the interpreted one."""
    import shutil
    if shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    system = jd.compile(model(lambda c: rectifier(c, Diode())))
    vm = system.functions["f"]
    system.codegen(cache_dir=tmp_path)
    assert not system.f.is_a("SXFunction")
    for x in (0.0, 3.0, 9.0):
        for t in (0.002, 0.007, 0.013):
            a, b = float(system.f(t, [x], [], system.p_default)), float(vm(t, [x], [],
                                                                          system.p_default))
            assert abs(a - b) <= 1e-9 * max(1.0, abs(b))
    compiled = system.simulate(0.02, n_out=5)
    system.f = vm
    reference = system.simulate(0.02, n_out=5)
    assert np.abs(compiled["c.C.v"] - reference["c.C.v"]).max() < 1e-6
