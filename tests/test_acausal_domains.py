"""The acausal core across domains (issue 25): the hydraulic example, a user's progressive
spring on 1-D flanges, and random thermal and RC networks
(hypothesis, derandomized). Each test states its reference."""
from dataclasses import dataclass
from typing import ClassVar

import casadi as ca
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import (AcausalComponent, Capacitor, ConstantVoltage, FlangeForce, Ground,
                             Mass, Resistor, World, param)
from jourdain.blocks.hydraulic import FixedPressure, Orifice, Volume
from jourdain.blocks.thermal import FixedTemperature, HeatCapacitor, ThermalConductor

PROPS = settings(max_examples=12, derandomize=True, deadline=None, database=None)


def model(build) -> jd.Model:
    class Net(jd.Composite):
        def __init__(self):
            super().__init__()
            build(self)
    return jd.Model(World(), c=Net())


def power_balance(system, t, x):
    """d/dt(T + V + W) − (P_supplied − P_dissipated) at (t, x) (conservation of energy)."""
    fn, p = system.functions, system.p_default
    X = ca.SX.sym("x", system.nx)
    T, V, W = fn["energy"](X, p)
    rate = ca.jtimes(T + V + W, X, fn["f"](t, X, [], p))
    res = rate - fn["supplied"](t, X, [], p) + fn["dissipation"](t, X, [], p)
    return float(ca.Function("b", [X], [res])(x))


# ---- hydraulic ----------------------------------------------------------------------------
@pytest.mark.parametrize("orifices", [1, 2])
def test_volume_drains_through_orifices_as_the_closed_form(orifices):
    """Reference: closed form; (V/β)·dΔp/dt = −k·√Δp gives √Δp(t) = √Δp0 − k·t·β/(2V), with
    k = Cd·A·√(2/ρ) for one orifice and k/√2 for two equal ones in series (their middle
    flow is solved by Newton inside f); regularization error ≤ dp_small/Δp = 1e-5."""
    def build(c):
        c.vol, c.tank = Volume(V=1e-3, beta=1e7, p_start=2e5), FixedPressure(p=1e5)
        chain = [Orifice(Cd=0.7, A=1e-6, rho=850.0) for _ in range(orifices)]
        last = c.vol.port
        for k, o in enumerate(chain):
            setattr(c, f"o{k}", o)
            c.connect(last, o.port_a)
            last = o.port_b
        c.connect(last, c.tank.port)
    system = jd.compile(model(build))
    assert system.x_names == ["c.vol.p"]
    k = 0.7 * 1e-6 * np.sqrt(2 / 850.0) / np.sqrt(orifices)
    t_end = 0.9 * 2 * 1e-3 / 1e7 * np.sqrt(1e5) / k   # Δp falls to 1 % of the start
    res = system.simulate(t_end, n_out=21, rtol=1e-10, atol=1e-6)
    exact = (np.sqrt(1e5) - k * res.t * 1e7 / (2 * 1e-3)) ** 2 + 1e5
    assert np.abs(res["c.vol.p"] - exact).max() < 1e-4 * 1e5
    assert abs(power_balance(system, 0.0, np.array([1.5e5]))) < 1e-9


# ---- a user's component on 1-D flanges (docs/acausal.md) ----------------------------------
@dataclass(eq=False)
class ProgressiveSpring(AcausalComponent, FlangeForce):
    """f = −(c·Δs + c3·Δs³) on flange_b, Δs = s_rel − s_rel0 (the docs' example)."""

    c: float = param(1e3, "N/m", "linear stiffness")
    c3: float = param(1e5, "N/m3", "cubic stiffness")
    s_rel0: float = param(0.0, "m", "unstretched length")
    VARIABLES: ClassVar[dict] = {"s_rel": "m", "f": "N"}
    OPTIONAL_PORTS: ClassVar[tuple] = ("flange_a", "flange_b")

    def __post_init__(self):
        self._make_flanges()

    def equations(self, v):
        ds = v.s_rel - self.s_rel0
        return [v.s_rel - (v.flange_b.s - v.flange_a.s),
                v.f + self.c * ds + self.c3 * ds ** 3]

    def force(self, s_rel, w_rel, ctx):
        return ctx.acausal(self).f

    def supplied_power(self, v):
        return v.f * (v.flange_b.w - v.flange_a.w)


def test_progressive_spring_oscillator_matches_scipy():
    """Reference: scipy's solve_ivp of m·s̈ = −c·s − c3·s³ (the Duffing oscillator), and
    conservation of ½·m·v² + ½·c·s² + ¼·c3·s⁴."""
    def build(c):
        c.m, c.k = Mass(m=2.0), ProgressiveSpring(c=1e3, c3=1e5)
        c.connect(c.k.flange_b, c.m.flange_a)
    system = jd.compile(model(build))
    y_name, z_name = system.y_names[0], system.z_names[0]
    res = system.simulate(0.5, y0={y_name: 0.1}, n_out=51, rtol=1e-11, atol=1e-11)
    ref = solve_ivp(lambda t, x: [x[1], -(1e3 * x[0] + 1e5 * x[0] ** 3) / 2.0], (0, 0.5),
                    [0.1, 0.0], t_eval=res.t, rtol=1e-12, atol=1e-12)
    assert np.abs(res[y_name] - ref.y[0]).max() < 1e-7
    energy = 0.5 * 2.0 * res[z_name] ** 2 + 0.5e3 * res[y_name] ** 2 + 0.25e5 * res[y_name] ** 4
    assert np.ptp(energy) < 1e-7 * energy[0]
    assert abs(power_balance(system, 0.0, np.array([0.05, 1.0]))) < 1e-9


# ---- random networks ----------------------------------------------------------------------
@st.composite
def networks(draw):
    """n nodes, a random spanning tree plus extra edges, values in sensible ranges."""
    n = draw(st.integers(2, 7))
    edges = [(draw(st.integers(0, k - 1)), k) for k in range(1, n)]
    extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                          max_size=3))
    edges += [(a, b) for a, b in extra if a != b]
    caps = draw(st.lists(st.floats(0.5, 5.0), min_size=n, max_size=n))
    conds = draw(st.lists(st.floats(0.2, 4.0), min_size=len(edges), max_size=len(edges)))
    anchor = draw(st.integers(0, n - 1))
    return n, edges, caps, conds, anchor


def thermal_net(spec):
    n, edges, caps, conds, anchor = spec

    def build(c):
        for k in range(n):
            setattr(c, f"m{k}", HeatCapacitor(C=caps[k], T_start=300.0 + 10 * k))
        for j, (a, b) in enumerate(edges):
            g = ThermalConductor(G=conds[j])
            setattr(c, f"g{j}", g)
            c.connect(getattr(c, f"m{a}").port, g.port_a)
            c.connect(g.port_b, getattr(c, f"m{b}").port)
        c.amb, c.ga = FixedTemperature(T=290.0), ThermalConductor(G=1.0)
        c.connect(c.amb.port, c.ga.port_a)
        c.connect(c.ga.port_b, getattr(c, f"m{anchor}").port)
    return build


@PROPS
@given(networks())
def test_random_thermal_networks_keep_the_energy_balance(spec):
    """Reference: the conductance-Laplacian form C·dT/dt = −K·T + b (linear algebra) for f,
    and conservation of energy d(Σ C·T)/dt = heat from the ambient, at random states."""
    n, edges, caps, conds, anchor = spec
    system = jd.compile(model(thermal_net(spec)))
    K = np.zeros((n, n))
    for (a, b), g in zip(edges, conds):
        K[[a, b], [a, b]] += g
        K[a, b] -= g
        K[b, a] -= g
    K[anchor, anchor] += 1.0
    bvec = np.zeros(n)
    bvec[anchor] = 290.0
    x = 280.0 + 40.0 * np.random.default_rng(n).random(n)
    f = np.array(system.functions["f"](0.0, x, [], system.p_default)).ravel()
    assert np.abs(f - (-K @ x + bvec) / np.array(caps)).max() < 1e-9
    assert abs(power_balance(system, 0.0, x)) < 1e-8


@PROPS
@given(networks())
def test_random_rc_networks_match_the_conductance_laplacian(spec):
    """Reference: the nodal equations written as linear algebra, C·dv/dt = −K·v + b (K the
    conductance Laplacian of the resistors with the source's 1 Ω to the anchor node,
    b = 5 V·1 S there), for f of random RC networks at random states; and conservation of
    energy d(Σ ½·C·v²)/dt = P_source − Σ R·i²."""
    n, edges, caps, conds, anchor = spec

    def build(c):
        c.g, c.src, c.rs = Ground(), ConstantVoltage(V=5.0), Resistor(R=1.0)
        c.connect(c.src.n, c.g.p)
        c.connect(c.src.p, c.rs.p)
        pins = []
        for k in range(n):
            cap = Capacitor(C=caps[k] * 1e-3)
            setattr(c, f"C{k}", cap)
            c.connect(cap.n, c.g.p)
            pins.append(cap.p)
        for j, (a, b) in enumerate(edges):
            r = Resistor(R=1.0 / conds[j])
            setattr(c, f"R{j}", r)
            c.connect(pins[a], r.p)
            c.connect(r.n, pins[b])
        c.connect(c.rs.n, pins[anchor])
    core = jd.compile(model(build))
    K = np.zeros((n, n))
    for (a, b), g in zip(edges, conds):
        K[[a, b], [a, b]] += g
        K[a, b] -= g
        K[b, a] -= g
    K[anchor, anchor] += 1.0
    bvec = np.zeros(n)
    bvec[anchor] = 5.0
    x = np.random.default_rng(n).normal(size=core.nx)
    assert core.x_names == [f"c.C{k}.v" for k in range(n)]
    expected = (-K @ x + bvec) / (np.array(caps) * 1e-3)
    f = np.array(core.functions["f"](0.0, x, [], core.p_default)).ravel()
    assert np.abs(f - expected).max() <= 1e-10 * max(1.0, np.abs(expected).max())
    assert abs(power_balance(core, 0.0, x)) < 1e-8 * max(1.0, np.abs(expected).max())


# ---- the docs' four components, as a new user copies them ---------------------------------
def test_the_docs_components_compile_and_agree_with_the_library():
    """Reference: agreement of two implementations; the Python blocks of docs/acausal.md,
    run as written, give the same f as the library's HeatCapacitor, Diode and Orifice (the
    same circuits built with either), and the docs' spring gives the f of the one tested
    above against scipy."""
    import re
    from pathlib import Path

    from jourdain.blocks.electrical import Diode
    from jourdain.blocks.thermal import HeatCapacitor as LibCapacitor
    text = (Path(__file__).resolve().parents[1] / "docs" / "acausal.md").read_text()
    scope: dict = {"__name__": "docs_acausal"}
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        exec(block, scope)

    def thermal(cap):
        def build(c):
            c.cap, c.g, c.amb = cap(C=3.0), ThermalConductor(G=2.0), FixedTemperature(T=250.0)
            c.connect(c.cap.port, c.g.port_a)
            c.connect(c.g.port_b, c.amb.port)
        return build

    def circuit(diode):
        def build(c):
            c.src, c.rs, c.d, c.C, c.g = ConstantVoltage(V=3.0), Resistor(R=10.0), diode(), \
                Capacitor(C=1e-4), Ground()
            c.connect(c.src.p, c.rs.p)
            c.connect(c.rs.n, c.d.p)
            c.connect(c.d.n, c.C.p)
            c.connect(c.C.n, c.src.n)
            c.connect(c.src.n, c.g.p)
        return build

    def hydraulic(orifice):
        def build(c):
            c.vol, c.o1, c.o2 = Volume(V=1e-3, beta=1e7), orifice(), orifice()
            c.tank = FixedPressure(p=1e5)
            c.connect(c.vol.port, c.o1.port_a)
            c.connect(c.o1.port_b, c.o2.port_a)
            c.connect(c.o2.port_b, c.tank.port)
        return build

    pairs = [(thermal(scope["HeatCapacitor"]), thermal(LibCapacitor), [310.0]),
             (circuit(scope["Diode"]), circuit(Diode), [0.7]),
             (hydraulic(scope["Orifice"]), hydraulic(Orifice), [1.7e5])]
    for docs_build, lib_build, x in pairs:
        a, b = jd.compile(model(docs_build)), jd.compile(model(lib_build))
        fa = np.array(a.functions["f"](0.0, x, [], a.p_default))
        fb = np.array(b.functions["f"](0.0, x, [], b.p_default))
        assert np.abs(fa - fb).max() <= 1e-12 * max(1.0, np.abs(fb).max())

    def oscillator(spring):
        def build(c):
            c.m, c.k = Mass(m=2.0), spring(c=1e3, c3=1e5)
            c.connect(c.k.flange_b, c.m.flange_a)
        return build
    a = jd.compile(model(oscillator(scope["ProgressiveSpring"])))
    b = jd.compile(model(oscillator(ProgressiveSpring)))
    for x in ([0.1, 0.0], [-0.05, 2.0]):
        fa = np.array(a.functions["f"](0.0, x, [], a.p_default))
        fb = np.array(b.functions["f"](0.0, x, [], b.p_default))
        assert np.abs(fa - fb).max() <= 1e-12 * max(1.0, np.abs(fb).max())


def test_thermal_network_linearizes_to_its_laplacian():
    """Reference: linear algebra; the linearization of a thermal network (jd.linearize on
    the compiled System) is A = −C⁻¹·K, K the conductance Laplacian with the ambient."""
    spec = (4, [(0, 1), (1, 2), (1, 3), (3, 0)], [1.0, 2.0, 3.0, 4.0], [0.5, 1.0, 1.5, 2.0],
            2)
    n, edges, caps, conds, anchor = spec
    lin = jd.linearize(jd.compile(model(thermal_net(spec))))
    K = np.zeros((n, n))
    for (a, b), g in zip(edges, conds):
        K[[a, b], [a, b]] += g
        K[a, b] -= g
        K[b, a] -= g
    K[anchor, anchor] += 1.0
    assert lin.state_names == [f"c.m{k}.T" for k in range(n)]
    assert np.abs(np.asarray(lin.A) + K / np.array(caps)[:, None]).max() < 1e-12


# ---- the MSL's eddy current brake (EddyCurrentTorque with its heat port) -------------------
def eddy_brake(alpha20: float):
    from jourdain.blocks import EddyCurrentTorque, Inertia

    def build(c):
        c.inertia = Inertia(J=1.0)
        c.brake = EddyCurrentTorque(tau_nominal=10.0, w_nominal=5.0, alpha20=alpha20,
                                    useHeatPort=True)
        c.cap = HeatCapacitor(C=20.0, T_start=293.15)
        c.connect(c.inertia.flange_b, c.brake.flange)
        c.connect(c.brake.heatPort, c.cap.port)
    return build


def test_eddy_current_brake_heats_its_capacitor_by_the_kinetic_energy():
    """Reference: energy balance; everything the brake takes from the flywheel heats the
    capacitor, C·(T − T0) = ½·J·(ω0² − ω²), at every output time."""
    system = jd.compile(model(eddy_brake(0.0)))
    w_name = next(n for n in system.x_names if n.endswith(".w"))
    res = system.simulate(5.0, z0={w_name: 20.0}, n_out=11, rtol=1e-10, atol=1e-10)
    heat = 20.0 * (res["c.cap.T"] - 293.15)
    assert np.abs(heat - 0.5 * (400.0 - res[w_name] ** 2)).max() < 1e-6
    assert res.check()


def test_eddy_current_brake_with_temperature_matches_scipy():
    """Reference: scipy's solve_ivp of J·dω/dt = −τ, C·dT/dt = τ·ω with the MSL's law
    τ = 2·τn·v/(1 + v²), v = ω/(ω_n·(1 + α·(T − T_ref))) written again here."""
    system = jd.compile(model(eddy_brake(0.05)))
    w_name = next(n for n in system.x_names if n.endswith(".w"))
    res = system.simulate(3.0, z0={w_name: 20.0}, n_out=31, rtol=1e-10, atol=1e-10)

    def rhs(t, x):
        v = x[0] / (5.0 * (1 + 0.05 * (x[1] - 293.15)))
        tau = 2 * 10.0 * v / (1 + v ** 2)
        return [-tau / 1.0, tau * x[0] / 20.0]
    ref = solve_ivp(rhs, (0, 3.0), [20.0, 293.15], t_eval=res.t, rtol=1e-11, atol=1e-11)
    assert np.abs(res[w_name] - ref.y[0]).max() < 1e-6
    assert np.abs(res["c.cap.T"] - ref.y[1]).max() < 1e-6
