"""The Modelica Standard Library's engines rebuilt (jourdain.library.engines): a single
cylinder and the V6 of ``MultiBody.Examples.Loops.EngineV6``, their loads and sensors.

References: the crank–slider's closed form (piston position), the per-revolution energy
balance of the gas force's cycle work (computed here by quadrature of the MSL's pressure fits)
against the quadratic load, the three constraint methods against each other, the torque
balance of the load inertia behind the torque sensor, and closed forms of the load laws.
"""
import numpy as np
import pytest
from scipy.integrate import quad

import jourdain as jd
from jourdain.blocks import (Composite, ForceLaw, Inertia, Prismatic,
                             QuadraticSpeedDependentTorque, Revolute, RigidBody, TableForce,
                             TranslationalSpring, World)
from jourdain.library import EngineV6, SingleCylinderEngine

R, ROD, TOP = 0.1, 0.2, 0.32   # crank radius, rod length, piston frame − pin offset [m]
K_LOAD = 100.0 / 200.0 ** 2    # |tau_nominal| / w_nominal² of the load [N·m·s²]


def _pressure(x, expansion):
    """The MSL GasForce2 pressure fits [Pa], written out independently of the library."""
    if expansion:
        return 1e5 * np.where(x > 0.933, -3929704 * x**4 + 14748765 * x**3 - 20747000 * x**2 +
                              12964477 * x - 3036495,
                              145.930 * x**4 - 131.707 * x**3 + 17.3438 * x**2 +
                              17.9272 * x + 2.4)
    return 1e5 * np.where(x < 0.986061, 177.4132 * x**4 - 287.2189 * x**3 +
                          151.8252 * x**2 - 24.9973 * x + 2.4,
                          2836360 * x**4 - 10569296 * x**3 + 14761814 * x**2 - 9158505 * x +
                          2129670)


def _cycle_work() -> float:
    """Gas work per revolution [J]: A·∫(p_expansion − p_compression) ds over the stroke from
    top dead centre (s = 0.02 m) to bottom (s = L = 0.22 m), x = 1 − s/L."""
    L, area = 0.22, np.pi * 0.1**2 / 4
    kinks = [L * (1 - 0.986061), L * (1 - 0.933)]
    work = quad(lambda s: _pressure(1 - s / L, True) - _pressure(1 - s / L, False), 0.02, L,
                points=kinks, limit=200)[0]
    return area * work


@pytest.fixture(scope="module")
def single():
    return jd.compile(jd.Model.on_world(World(), engine=SingleCylinderEngine()))


def test_piston_follows_the_crank_slider_closed_form(single):
    """Reference: closed form of the in-line crank–slider, piston pin height
    h = r·cos φ + √(l² − r²·sin² φ), so the prismatic coordinate is s = 0.32 m − h; the
    closure residuals stay at round-off (≤ 1e-9)."""
    res = single.simulate(0.3, y0={"engine.bearing.phi": 0.3}, z0={"engine.bearing.w": 20.0},
                          n_out=301)
    phi = res["engine.bearing.phi"]
    s = TOP - (R * np.cos(phi) + np.sqrt(ROD**2 - (R * np.sin(phi))**2))
    assert np.ptp(phi) > 2 * np.pi            # several revolutions, through both dead centres
    assert np.abs(res["engine.cylinder1.cylinder.s"] - s).max() < 1e-10
    residuals = [v for k, v in res.series.items() if k.startswith("residual")]
    assert max(np.abs(r).max() for r in residuals) < 1e-9


def test_mean_speed_meets_the_energy_balance_per_revolution(single):
    """Reference: energy balance over one revolution in the periodic steady state: the gas
    cycle's work W (quadrature of the MSL's pressure fits) equals the load's work
    k·∮ω² dφ, so the rms speed over a revolution is √(W/(2π·k)) (271.5 rad/s); the mean
    speed over time agrees within the flywheel's fluctuation (0.5 %)."""
    w_bar = np.sqrt(_cycle_work() / (2 * np.pi * K_LOAD))
    res = single.simulate(4.0, y0={"engine.bearing.phi": 0.0},
                          z0={"engine.bearing.w": w_bar}, n_out=4001, method=jd.Method.ADAMS)
    phi, w, t = res["engine.bearing.phi"], res["engine.bearing.w"], res.t
    turns = np.floor(phi / (2 * np.pi))
    last = turns == turns[-1] - 1
    rms = np.sqrt(np.trapezoid(w[last]**2, phi[last]) / np.ptp(phi[last]))
    mean = np.trapezoid(w[last], t[last]) / np.ptp(t[last])
    assert rms == pytest.approx(w_bar, rel=2e-3)
    assert mean == pytest.approx(w_bar, rel=5e-3)


def test_v6_agrees_across_constraint_methods():
    """Reference: the other constraint methods. The V6 (six loops on one crank, one degree of
    freedom) from the MSL's start speed (load.w = 10 rad/s; the crank at 0.2 rad: at 0
    cylinder 1 sits exactly at top dead centre, where the gas force switches, and IDAS does
    not start) for 0.3 s, through many top dead centres: partitioning (the recursive back
    end over the loop node), Baumgarte and the DAE on IDAS agree on the crank angle and speed
    to 1e-5 of their scale at rtol 1e-9."""
    runs = []
    for method in jd.ConstraintMethod:
        system = jd.compile(jd.Model.on_world(World(), engine=EngineV6()), constraints=method)
        runs.append(system.simulate(0.3, y0={"engine.bearing.phi": 0.2},
                                    z0={"engine.bearing.w": 10.0}, rtol=1e-9, atol=1e-9,
                                    n_out=31))
    for other in runs[1:]:
        for name, scale in (("engine.bearing.phi", 40.0), ("engine.bearing.w", 250.0)):
            assert np.abs(other[name] - runs[0][name]).max() < 1e-5 * scale
    assert runs[0]["engine.bearing.w"][-1] > 200.0    # the engine runs up


def test_torque_sensor_reads_the_load_inertias_balance(single):
    """Reference: the load inertia's equation of motion. The torque sensor between the
    crankshaft and the load (J = 1 kg·m²) reads τ = J·ω̇ − τ_load2, τ_load2 = −100·(ω/200)²
    N·m, with ω̇ from the equations of motion; the critically damped filter of that reading
    starts in steady state (its output equals the reading at t0)."""
    res = single.simulate(0.2, y0={"engine.bearing.phi": 0.5}, z0={"engine.bearing.w": 30.0},
                          n_out=41)
    ny = len(single.y_names)
    wdot = np.array([np.array(single.f(t, x, [], single.p_default)).ravel()[ny]
                     for t, x in zip(res.t, res.x.T)])
    w = res["engine.bearing.w"]
    expected = 1.0 * wdot + 100.0 * (w / 200.0) ** 2
    tau = res["engine.torqueSensor.tau"]
    assert np.abs(tau - expected).max() < 1e-9 * np.abs(expected).max()
    assert res["engine.filter.y"][0] == pytest.approx(tau[0], rel=1e-9)


class _Flywheel(Composite):
    """A shaft (0.1 kg·m² about its axis) with an inertia of 0.5 kg·m² on its bearing,
    braked by a quadratic load torque."""

    def __init__(self):
        super().__init__()
        self.bearing = Revolute(axis=(0, 0, 1))
        self.shaft = RigidBody(m=1.0, I=(0.1, 0.1, 0.1))
        self.connect(self.bearing.frame_b, self.shaft.frame_a)
        self.wheel = Inertia(J=0.5)
        self.load = QuadraticSpeedDependentTorque(tau_nominal=-2.0, w_nominal=10.0)
        self.connect(self.bearing.axis, self.wheel.flange_a)
        self.connect(self.wheel.flange_b, self.load.flange)
        self.expose(self.bearing.frame_a, "frame_a")


def test_quadratic_load_spins_down_as_the_closed_form():
    """Reference: closed form of J·ω̇ = −k·ω², ω(t) = ω0/(1 + k·ω0·t/J), k = 2/10² N·m·s²,
    J = 0.6 kg·m²;
    the power the load supplies (τ·ω < 0) balances the kinetic energy's decrease."""
    system = jd.compile(jd.Model.on_world(World(), fly=_Flywheel()))
    res = system.simulate(3.0, z0={"fly.bearing.w": 20.0}, n_out=61)
    k, J = 2.0 / 100.0, 0.6
    assert np.abs(res["fly.bearing.w"] - 20.0 / (1 + k * 20.0 * res.t / J)).max() < 1e-6
    kinetic = res["energy.kinetic"]
    supplied = np.concatenate([[0.0], np.cumsum(np.diff(res.t) * 0.5 * (
        res["power.supplied"][1:] + res["power.supplied"][:-1]))])
    assert np.abs(kinetic - kinetic[0] - supplied).max() < 2e-3 * kinetic[0]


class _Slider(Composite):
    """A mass on a horizontal prismatic joint held by a force law."""

    def __init__(self, force):
        super().__init__()
        self.slide = Prismatic(axis=(1, 0, 0))
        self.body = RigidBody(m=2.0)
        self.force = force
        self.connect(self.slide.frame_b, self.body.frame_a)
        self.connect(self.slide.axis, self.force.flange_b)
        self.expose(self.slide.frame_a, "frame_a")


@pytest.mark.parametrize("force", [
    ForceLaw(lambda s, v: -50.0 * s),
    TableForce(s=np.linspace(-1, 1, 2001), f=-50.0 * np.linspace(-1, 1, 2001)),
    TableForce(s=[-1.0, 1.0], w=[-5.0, 5.0], f=[[50.0, 50.0], [-50.0, -50.0]]),
    TranslationalSpring(c=50.0)], ids=["law", "table", "table2d", "spring"])
def test_force_laws_match_the_oscillator(force):
    """Reference: closed form of the harmonic oscillator m·s̈ = −c·s (m = 2 kg, c = 50 N/m):
    s = s0·cos(ωt), ω = 5 rad/s, whether the force is a law f(s, v) of CasADi expressions, a
    table over s, a table over (s, v) (linear in s, constant in v), or the spring itself."""
    system = jd.compile(jd.Model.on_world(World(g=(0, 0, 0)), sl=_Slider(force)))
    res = system.simulate(2.0, y0={"sl.slide.s": 0.3}, n_out=41, rtol=1e-10, atol=1e-10)
    assert np.abs(res["sl.slide.s"] - 0.3 * np.cos(5.0 * res.t)).max() < 1e-7


def test_force_law_errors_name_the_component():
    """Bad input: a law that is not a function, a table that does not increase, a law that
    uses Python branches on symbols, each a ModelError naming what to do."""
    with pytest.raises(jd.ModelError, match="law must be a function"):
        ForceLaw(3.0)
    with pytest.raises(jd.ModelError, match="strictly increasing"):
        TableForce(s=[0.0, 0.0], f=[1.0, 2.0])
    with pytest.raises(jd.ModelError, match="shape"):
        TableForce(s=[0.0, 1.0], f=[1.0, 2.0, 3.0])

    def branching(s, v):
        return 1.0 if v > 0 else -1.0
    slider = _Slider(ForceLaw(branching))
    with pytest.raises(jd.ModelError, match="sl.force.*ca.if_else"):
        jd.compile(jd.Model.on_world(World(), sl=slider))
    with pytest.raises(jd.ModelError, match="w_nominal must be positive"):
        load = QuadraticSpeedDependentTorque(tau_nominal=-1.0, w_nominal=0.0)

        class Bad(Composite):
            def __init__(self):
                super().__init__()
                self.bearing = Revolute(axis=(0, 0, 1))
                self.wheel = Inertia(J=1.0)
                self.load = load
                self.connect(self.bearing.axis, self.wheel.flange_a)
                self.connect(self.wheel.flange_b, self.load.flange)
                self.expose(self.bearing.frame_a, "frame_a")
        jd.compile(jd.Model.on_world(World(), bad=Bad()))
