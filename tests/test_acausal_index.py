"""Index reduction of the acausal equations (issue 25: Pantelides and dummy derivatives): the
classic high-index models compiled as a Modelica tool compiles them, each against its closed
form and its energy balance, and contradictory constraints refused with their equations
named. Components are written as a user writes them (docs/acausal.md)."""
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (AcausalComponent, ConstantCurrent, CurrentSensor, ConstantVoltage, Ground, Pin,
                             Resistor, SignalCurrent, SignalVoltage, Sine, param)
from jourdain.blocks.ports import Connector
from jourdain.blocks.thermal import (FixedTemperature, HeatCapacitor, TemperatureSensor,
                                     ThermalConductor)

from test_acausal import model, power_balance


# ---- components a user writes ------------------------------------------------------------
@dataclass(eq=False)
class Cap(AcausalComponent):
    """Modelica's Capacitor: v = p.v − n.v, 0 = p.i + n.i, C·der(v) = p.i; state v."""

    C: float = param(1.0, "F", "capacitance")
    v_start: float | None = None
    VARIABLES: ClassVar[dict] = {"v": "V"}

    def __post_init__(self):
        self.p, self.n = Pin(self, "p"), Pin(self, "n")

    def equations(self, v):
        return [v.v - (v.p.v - v.n.v), v.p.i + v.n.i, self.C * v.der(v.v) - v.p.i]

    def start(self):
        return {} if self.v_start is None else {"v": self.v_start}

    def stored_energy(self, v):
        return 0.5 * self.C * v.v ** 2


@dataclass(eq=False)
class StatelessCap(Cap):
    """Cap without the energy hook: across a source of time its ½·C·V(t)² is no function of
    states, which a stored energy must be (docs/acausal.md, index reduction)."""

    def stored_energy(self, v):
        return 0.0


@dataclass(eq=False)
class Ind(AcausalComponent):
    """Modelica's Inductor: L·der(i) = p.v − n.v, i = p.i; state i."""

    L: float = param(1.0, "H", "inductance")
    VARIABLES: ClassVar[dict] = {"i": "A"}

    def __post_init__(self):
        self.p, self.n = Pin(self, "p"), Pin(self, "n")

    def equations(self, v):
        return [v.i - v.p.i, v.p.i + v.n.i, self.L * v.der(v.i) - (v.p.v - v.n.v)]

    def stored_energy(self, v):
        return 0.5 * self.L * v.i ** 2


@dataclass(eq=False)
class StatelessInd(Ind):
    """Ind without the energy hook (as StatelessCap)."""

    def stored_energy(self, v):
        return 0.0


class RotFlange(Connector):
    """An acausal rotational connector: angle phi [rad], torque tau [N·m] into the part."""

    POTENTIAL = ("phi", "rad")
    FLOW = ("tau", "N.m")


@dataclass(eq=False)
class Disk(AcausalComponent):
    """Modelica's Inertia: phi = flange.phi, w = der(phi), J·der(w) = flange.tau."""

    J: float = param(1.0, "kg.m2", "inertia")
    w_start: float = 0.0
    VARIABLES: ClassVar[dict] = {"phi": "rad", "w": "rad/s"}

    def __post_init__(self):
        self.flange = RotFlange(self, "flange")

    def equations(self, v):
        return [v.phi - v.flange.phi, v.w - v.der(v.phi), self.J * v.der(v.w) - v.flange.tau]

    def start(self):
        return {"w": self.w_start}

    def stored_energy(self, v):
        return 0.5 * self.J * v.w ** 2


@dataclass(eq=False)
class Gear(AcausalComponent):
    """Modelica's IdealGear without support: phi_a = ratio·phi_b, 0 = ratio·tau_a + tau_b."""

    ratio: float = param(1.0, "1", "transmission ratio")

    def __post_init__(self):
        self.flange_a, self.flange_b = RotFlange(self, "flange_a"), RotFlange(self, "flange_b")

    def equations(self, v):
        return [v.flange_a.phi - self.ratio * v.flange_b.phi,
                self.ratio * v.flange_a.tau + v.flange_b.tau]


@dataclass(eq=False)
class Torque(AcausalComponent):
    """A constant torque tau0 driving its flange; supplies tau0·der(phi)."""

    tau0: float = param(1.0, "N.m", "torque")
    VARIABLES: ClassVar[dict] = {"w": "rad/s"}

    def __post_init__(self):
        self.flange = RotFlange(self, "flange")

    def equations(self, v):
        return [v.flange.tau + self.tau0, v.w - v.der(v.flange.phi)]

    def supplied_power(self, v):
        return self.tau0 * v.w


class Offset(AcausalComponent):
    """A fixed temperature difference port_a.T − port_b.T = dT, no heat stored or lost."""

    def __init__(self, dT=5.0):
        self.dT = dT
        self.port_a, self.port_b = jd.blocks.HeatPort(self, "port_a"), \
            jd.blocks.HeatPort(self, "port_b")

    def equations(self, v):
        return [v.port_a.T - v.port_b.T - self.dT, v.port_a.Q_flow + v.port_b.Q_flow]


# ---- the classic high-index models -------------------------------------------------------
def test_capacitors_in_parallel_act_as_one_capacitor():
    """Reference: two capacitors in parallel are one capacitor of C1 + C2: charged through R
    from V, v(t) = V·(1 − e^(−t/(R·(C1+C2)))) (closed form; the charge R's current brings
    is shared as C1:C2); both store ½·C·v² of one v; the energy balance."""
    R, C1, C2, V = 10.0, 1e-3, 3e-3, 2.0

    def build(c):
        c.src, c.gnd, c.r = ConstantVoltage(V=V), Ground(), Resistor(R=R)
        c.c1, c.c2 = Cap(C=C1, v_start=0.0), Cap(C=C2)
        c.connect(c.src.p, c.r.p)
        c.connect(c.r.n, c.c1.p)
        c.connect(c.c1.p, c.c2.p)
        for pin in (c.src.n, c.c1.n, c.c2.n):
            c.connect(pin, c.gnd.p)
    system = jd.compile(model(build))
    assert system.x_names == ["c.c1.v"]       # c2's der(v) is the dummy derivative
    res = system.simulate(0.2, n_out=11, rtol=1e-10, atol=1e-12)
    tau = R * (C1 + C2)
    assert np.abs(res["c.c1.v"] - V * (1 - np.exp(-res.t / tau))).max() < 1e-8
    T, V, W = system.functions["energy"]([0.7], system.p_default)
    assert abs(float(T + V + W) - 0.5 * (C1 + C2) * 0.7**2) < 1e-12   # c2.v = c1.v
    assert abs(power_balance(system, 0.0, [0.7])) < 1e-12
    assert res.check()


def test_capacitor_across_a_voltage_source_draws_c_dv_dt():
    """Reference: a capacitor directly across a source V(t) = A·sin(2π·f·t) has no state of
    its own: v = V(t) and i = C·dV/dt = C·A·2π·f·cos(2π·f·t) (closed form), read through
    the power the source supplies, V·i = d/dt(½·C·V²) (energy balance)."""
    C, A, f = 2e-3, 3.0, 5.0

    def build(c):
        c.sine, c.src, c.gnd = Sine(amplitude=A, f=f), SignalVoltage(), Ground()
        c.cap = StatelessCap(C=C)
        c.connect(c.sine.y, c.src.v)
        c.connect(c.src.p, c.cap.p)
        c.connect(c.src.n, c.gnd.p)
        c.connect(c.cap.n, c.gnd.p)
    system = jd.compile(model(build))
    assert system.nx == 0                    # v = V(t): the capacitor's state is dropped
    res = system.simulate(0.3, n_out=13, rtol=1e-10, atol=1e-12)
    w = 2 * np.pi * f
    # the source's current is −C·dV/dt: read through the energy it supplies, P = V·i_cap
    P = np.array([float(system.functions["supplied"](t, [], [], system.p_default))
                  for t in res.t])
    expected = A * np.sin(w * res.t) * C * A * w * np.cos(w * res.t)
    assert np.abs(P - expected).max() < 1e-9 * max(1.0, np.abs(expected).max())


def test_heat_capacitors_tied_by_a_temperature_difference():
    """Reference: T_a − T_b = dT makes one thermal mass of C_a + C_b: cooled through G to
    T_amb, C_a·T_a + C_b·T_b relaxes with rate G/(C_a + C_b), so
    T_a(t) = T∞ + (T_a(0) − T∞)·e^(−G·t/(C_a+C_b)) with T∞ = T_amb (a is on the conductor);
    T_a − T_b = dT at every instant; the energy balance (the supplied heat is what leaves)."""
    Ca, Cb, G, dT, Tamb = 2.0, 3.0, 4.0, 5.0, 300.0

    def build(c):
        c.a, c.b = HeatCapacitor(C=Ca, T_start=340.0), HeatCapacitor(C=Cb)
        c.off, c.g, c.amb = Offset(dT), ThermalConductor(G=G), FixedTemperature(T=Tamb)
        c.connect(c.a.port, c.off.port_a)
        c.connect(c.off.port_b, c.b.port)
        c.connect(c.a.port, c.g.port_a)
        c.connect(c.g.port_b, c.amb.port)
        c.sa, c.sb = TemperatureSensor(), TemperatureSensor()
        c.connect(c.sa.port, c.a.port)
        c.connect(c.sb.port, c.b.port)
    system = jd.compile(model(build))
    assert system.x_names == ["c.a.T"]       # b's temperature follows from the constraint
    res = system.simulate(3.0, n_out=7, rtol=1e-10, atol=1e-10)
    Ta = Tamb + (340.0 - Tamb) * np.exp(-G * res.t / (Ca + Cb))
    assert np.abs(res["c.sa.T"] - Ta).max() < 1e-6
    assert np.abs(res["c.sa.T"] - res["c.sb.T"] - dT).max() < 1e-9
    assert abs(power_balance(system, 0.0, [320.0])) < 1e-9
    assert res.check()


def test_inertias_coupled_by_an_ideal_gear():
    """Reference: J1 and J2 joined by an ideal gear (phi1 = r·phi2; a double differentiation
    of the constraint, index 3) are one inertia J1 + J2/r² on shaft 1: driven by tau0 from
    rest, w1(t) = tau0·t/(J1 + J2/r²) and w2 = w1/r (closed form); kinetic energy = work
    tau0·phi1 (energy balance)."""
    J1, J2, r, tau0 = 0.5, 2.0, 4.0, 3.0

    def build(c):
        c.d1, c.d2, c.gear, c.drive = Disk(J=J1), Disk(J=J2), Gear(ratio=r), Torque(tau0=tau0)
        c.connect(c.drive.flange, c.d1.flange)
        c.connect(c.d1.flange, c.gear.flange_a)
        c.connect(c.gear.flange_b, c.d2.flange)
    system = jd.compile(model(build))
    assert sorted(system.x_names) == ["c.d1.phi", "c.d1.w"]
    res = system.simulate(2.0, n_out=5, rtol=1e-10, atol=1e-12)
    w1 = tau0 * res.t / (J1 + J2 / r**2)
    assert np.abs(res["c.d1.w"] - w1).max() < 1e-8
    assert abs(power_balance(system, 0.0, [0.3, 1.5] if system.x_names[0] == "c.d1.phi"
                             else [1.5, 0.3])) < 1e-10
    assert res.check()


def test_acausal_gear_equals_the_library_flange_coupling():
    """Reference: the library's flange coupling (``IdealGear`` between two ``Inertia``,
    compiled as a constant-coefficient relation of the flange network, driven by a
    ``ConstantTorque``) and the same drive written as acausal components (``Disk``, ``Gear``,
    ``Torque`` above, reduced by Pantelides' algorithm) are two formulations of one model:
    their shaft speeds agree (to the integrators' tolerance, at r = 4 and a ratio below 1)."""
    from jourdain.blocks import IdealGear, Inertia
    from jourdain.blocks.drivetrain.sources import ConstantTorque
    for r in (4.0, 0.3):
        J1, J2, tau0 = 0.5, 2.0, 3.0

        def acausal(c):
            c.d1, c.d2, c.gear = Disk(J=J1), Disk(J=J2), Gear(ratio=r)
            c.drive = Torque(tau0=tau0)
            c.connect(c.drive.flange, c.d1.flange)
            c.connect(c.d1.flange, c.gear.flange_a)
            c.connect(c.gear.flange_b, c.d2.flange)

        def library(c):
            c.d1, c.d2, c.gear = Inertia(J=J1), Inertia(J=J2), IdealGear(ratio=r)
            c.drive = ConstantTorque(tau_constant=tau0)
            c.connect(c.drive.flange, c.d1.flange_a)
            c.connect(c.d1.flange_b, c.gear.flange_a)
            c.connect(c.gear.flange_b, c.d2.flange_a)
        runs = [jd.compile(model(build)).simulate(2.0, n_out=9, rtol=1e-10, atol=1e-12)
                for build in (acausal, library)]
        scale = tau0 * 2.0 / J1
        assert np.abs(runs[0]["c.d1.w"] - runs[1]["c.d1.w"]).max() < 1e-8 * scale
        assert np.abs(runs[0]["c.d1.phi"] - runs[1]["c.d1.phi"]).max() < 1e-8 * scale


def test_inductor_in_series_with_a_current_source():
    """Reference: an inductor carrying a prescribed current I(t) = A·sin(2π·f·t) has no
    state: i = I(t), and its voltage is L·dI/dt (closed form), read as the power the source
    supplies, P = I·L·dI/dt = d/dt(½·L·I²) (energy balance); with a constant current the
    voltage is 0."""
    L, A, f = 0.2, 1.5, 2.0

    def build(c):
        c.sine, c.src, c.gnd = Sine(amplitude=A, f=f), SignalCurrent(), Ground()
        c.ind = StatelessInd(L=L)
        c.connect(c.sine.y, c.src.i)
        c.connect(c.src.n, c.ind.p)
        c.connect(c.ind.n, c.src.p)
        c.connect(c.src.p, c.gnd.p)
    system = jd.compile(model(build))
    assert system.nx == 0
    w = 2 * np.pi * f
    for t in (0.0, 0.1, 0.37):
        P = float(system.functions["supplied"](t, [], [], system.p_default))
        dE = L * A * np.sin(w * t) * A * w * np.cos(w * t)
        assert abs(P - dE) < 1e-10

    def steady(c):
        c.src, c.gnd, c.ind, c.r = ConstantCurrent(I=2.0), Ground(), Ind(L=L), Resistor(R=3.0)
        c.connect(c.src.n, c.ind.p)
        c.connect(c.ind.n, c.r.p)
        c.connect(c.r.n, c.src.p)
        c.connect(c.src.p, c.gnd.p)
    system = jd.compile(model(steady))
    assert system.nx == 0
    P = float(system.functions["supplied"](0.0, [], [], system.p_default))
    assert abs(P - 2.0**2 * 3.0) < 1e-12      # all of it into the resistor: v_L = 0


# ---- refusals ----------------------------------------------------------------------------
def test_contradictory_constraints_between_states_are_named():
    """Reference: T_a − T_b = 5 and T_b − T_a = 5 cannot both hold; their derivatives are
    linearly dependent, so no dummy derivative exists: the error names both equations."""
    def build(c):
        c.a, c.b, c.o1, c.o2 = HeatCapacitor(), HeatCapacitor(), Offset(5.0), Offset(5.0)
        c.connect(c.a.port, c.o1.port_a)
        c.connect(c.o1.port_b, c.b.port)
        c.connect(c.b.port, c.o2.port_a)
        c.connect(c.o2.port_b, c.a.port)
    with pytest.raises(jd.ModelError, match=r"(?s)c\.o1: d/dt.*c\.o2: d/dt.*redundant or "
                       "contradict"):
        jd.compile(model(build))


def test_current_sources_in_series_are_named():
    """Reference: two current sources in series with an inductor prescribe its current twice;
    the derivatives of the two prescriptions leave no derivative to determine (a singular
    matrix): the error names the sources' equations."""
    def build(c):
        c.s1, c.s2, c.gnd, c.ind = ConstantCurrent(I=1.0), ConstantCurrent(I=2.0), Ground(), \
            Ind()
        c.connect(c.s1.n, c.s2.p)
        c.connect(c.s2.n, c.ind.p)
        c.connect(c.ind.n, c.s1.p)
        c.connect(c.s1.p, c.gnd.p)
    with pytest.raises(jd.ModelError, match=r"(?s)c\.s1: d/dt.*c\.s2: d/dt.*redundant or contradict"):
        jd.compile(model(build))


def test_a_constraint_on_an_input_is_named():
    """Reference: a capacitor across a source driven by the model's input draws C·dV/dt,
    which an input does not have: the error names the source's value and what to do."""
    def build(c):
        c.src, c.gnd, c.cap, c.am = SignalVoltage(), Ground(), StatelessCap(), CurrentSensor()
        c.connect(c.src.p, c.am.p)
        c.connect(c.am.n, c.cap.p)
        c.connect(c.src.n, c.gnd.p)
        c.connect(c.cap.n, c.gnd.p)
    with pytest.raises(jd.ModelError, match=r"(?s)time derivative of c\.src\.v.*inputs"):
        jd.compile(model(build))


def test_stored_energy_that_follows_a_source_is_named():
    """Reference: with v = V(t) the capacitor's ½·C·v² is a function of time, not of the
    states, which the energy bookkeeping needs: the error says why and what to do."""
    def build(c):
        c.sine, c.src, c.gnd, c.cap = Sine(), SignalVoltage(), Ground(), Cap()
        c.connect(c.sine.y, c.src.v)
        c.connect(c.src.p, c.cap.p)
        c.connect(c.src.n, c.gnd.p)
        c.connect(c.cap.n, c.gnd.p)
    with pytest.raises(jd.ModelError, match=r"(?s)stored_energy\(\) of the acausal.*index "
                       "reduction.*resistor"):
        jd.compile(model(build))
