"""Closed kinematic loops by wiring only: closure equations, rank analysis, coordinate
partitioning and the alternative methods (DESIGN.md §3.4, §3.7), and seed 003's generalized
mass of the crank-slider."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import CrankSlider, FourBar

G = 9.81


def _max_residual(res) -> float:
    return max(np.abs(v).max() for k, v in res.series.items() if k.startswith("residual"))


@pytest.fixture(scope="module")
def four_bar():
    return jd.compile(jd.Model.on_world(World(), fb=FourBar()))


def test_planar_four_bar_gives_5_equations_of_rank_2(four_bar):
    """Reference: a revolute cut joint closes a loop with 3 position + 2 axis-alignment
    equations; in a planar loop the out-of-plane ones vanish identically, so the rank is 2
    and the mechanism keeps 3 − 2 = 1 DOF (Grübler: 3·(4 − 1) − 2·4 = 1)."""
    part = four_bar.partition
    assert len(part.holonomic_rows) + len(part.redundant_rows) == 5
    assert len(part.holonomic_rows) == 2
    assert four_bar.z_names == ["fb.crank.w"]
    assert sorted(four_bar.dependent_coordinates) == ["fb.coupler.phi", "fb.rocker.phi"]
    text = four_bar.report()
    assert "5 closure equations" in text and "rank 2" in text and "fb.pin" in text
    info = four_bar.integrability
    assert info.holonomic and (info.f, info.g) == (1, 1)


def test_four_bar_closure_residual_and_energy_over_10s(four_bar):
    """Reference: constraint residual at round-off (Newton projection, tolerance 1e-13) and
    energy conservation (no dissipation) to the integrator tolerance."""
    res = four_bar.simulate(10.0, y0={"fb.crank.phi": 1.0}, z0={"fb.crank.w": 2.0},
                            rtol=1e-10, atol=1e-10)
    assert _max_residual(res) < 1e-9
    energy = res["energy.total"]
    assert np.ptp(energy) < 1e-5 * max(1.0, abs(energy[0]))


def test_four_bar_methods_agree_over_5s():
    """Reference: the other formulations: coordinate partitioning, the Baumgarte ODE and the
    index-1 DAE (IDAS) integrate the same mechanism; at tolerance 1e-12 the crank and rocker
    angles agree to 1e-6 rad over 5 s (at 1e-10 CVODES' global error is ~1e-5 here)."""
    runs = {}
    for method in jd.ConstraintMethod:
        system = jd.compile(jd.Model.on_world(World(), fb=FourBar()), constraints=method)
        res = system.simulate(5.0, y0={"fb.crank.phi": 1.0}, z0={"fb.crank.w": 2.0},
                              rtol=1e-12, atol=1e-12, n_out=101)
        runs[method] = res
    ref = runs[jd.ConstraintMethod.PARTITIONING]
    for method in (jd.ConstraintMethod.BAUMGARTE, jd.ConstraintMethod.DAE):
        for name in ("fb.crank.phi", "fb.rocker.phi"):
            assert np.abs(runs[method][name] - ref[name]).max() < 1e-6, (method, name)
        assert _max_residual(runs[method]) < 1e-6
    lam = runs[jd.ConstraintMethod.DAE]["lambda[0]"]
    assert np.abs(lam).max() > 0.1     # the pin carries load


def _crank_slider_positions(phi, r=0.1, l=0.35):
    """Closed-form kinematics: crank tip B, slider x_C = r cos φ + √(l² − r² sin² φ), rod angle
    θ = atan2(−r sin φ, √(l² − r² sin² φ)); centers of mass of crank, rod and slider."""
    root = np.sqrt(l**2 - (r * np.sin(phi))**2)
    theta = np.arctan2(-r * np.sin(phi), root)
    B = np.array([r * np.cos(phi), r * np.sin(phi)])
    return [B / 2, B + l / 2 * np.array([np.cos(theta), np.sin(theta)]),
            np.array([r * np.cos(phi) + root, 0.0])], [phi, theta, 0.0]


def _seed003(phi, masses=(0.4, 0.6, 1.0), r=0.1, l=0.35, h=1e-5):
    """Seed 003: m_gen = Σ m_k·(u'_xk² + u'_yk²) + J_k·φ'_zk², and V(φ) = Σ m_k·g·y_k."""
    (p1, a1), (p2, a2) = _crank_slider_positions(phi + h), _crank_slider_positions(phi - h)
    J = (masses[0] * r**2 / 12, masses[1] * l**2 / 12, 0.0)
    m_gen = sum(m * np.sum(((u1 - u2) / (2 * h))**2) + j * ((b1 - b2) / (2 * h))**2
                for m, j, u1, u2, b1, b2 in zip(masses, J, p1, p2, a1, a2))
    V = [sum(m * G * u[1] for m, u in zip(masses, pos)) for pos in (p1, p2)]
    return m_gen, (V[0] - V[1]) / (2 * h)


@pytest.fixture(scope="module")
def crank_slider():
    return jd.compile(jd.Model.on_world(World(), cs=CrankSlider()))


def test_crank_slider_generalized_mass(crank_slider):
    """Reference: seed 003's generalized mass from the closed-form kinematics."""
    for phi in (0.0, 0.5, 1.7, 3.0, -2.2):
        got = float(crank_slider.m_gen(phi, crank_slider.p_default))
        assert got == pytest.approx(_seed003(phi)[0], rel=1e-7)


def test_crank_slider_one_dof_equation(crank_slider):
    """Reference: seed 003, m_gen·q̈ + ½·m'_gen·q̇² + V'(q) = 0 (no applied forces) against the
    general equations of motion evaluated at the assembled state."""
    p = crank_slider.p_default
    for phi, w in ((0.3, 2.0), (2.0, -5.0), (4.0, 1.0)):
        x = crank_slider.state(y0={"cs.crank.phi": phi}, z0={"cs.crank.w": w})
        qdd = float(np.array(crank_slider.f(0.0, x, [], p)).ravel()[-1])
        m, dV = _seed003(phi)
        dm = (_seed003(phi + 1e-4)[0] - _seed003(phi - 1e-4)[0]) / 2e-4
        assert qdd == pytest.approx((-0.5 * dm * w**2 - dV) / m, rel=1e-5)


def test_crank_slider_residual_over_10s(crank_slider):
    """Reference: closure residual at round-off over 10 s."""
    res = crank_slider.simulate(10.0, y0={"cs.crank.phi": 0.5}, z0={"cs.crank.w": 8.0},
                                rtol=1e-10, atol=1e-10)
    assert _max_residual(res) < 1e-9


class _PistonLoop(jd.Composite):
    """The library crank-slider rebuilt with a chosen wrist joint and with the slider declared
    last, so that the compiler cuts the slider (a Prismatic) or, with ``cut_wrist``, the wrist."""

    def __init__(self, wrist, cut_wrist: bool, r=0.1, l=0.35):
        from jourdain.blocks import FixedTranslation, Prismatic, Revolute, RigidBody
        from jourdain.library.linkages import rod
        super().__init__()
        self.crank, self.rod = Revolute(), Revolute()
        if cut_wrist:
            self.slider = Prismatic(axis=(1, 0, 0))
        self.wrist = wrist
        if not cut_wrist:
            self.slider = Prismatic(axis=(1, 0, 0))
        self.crank_body, self.rod_body = rod(0.4, r), rod(0.6, l)
        self.piston = RigidBody(m=1.0)
        self.crank_end, self.rod_end = FixedTranslation(r=(r, 0, 0)), FixedTranslation(r=(l, 0, 0))
        for a, b in ((self.crank.frame_b, self.crank_body.frame_a),
                     (self.crank.frame_b, self.crank_end.frame_a),
                     (self.crank_end.frame_b, self.rod.frame_a),
                     (self.rod.frame_b, self.rod_body.frame_a),
                     (self.rod.frame_b, self.rod_end.frame_a),
                     (self.rod_end.frame_b, self.wrist.frame_a),
                     (self.crank.frame_a, self.slider.frame_a),
                     (self.slider.frame_b, self.wrist.frame_b),
                     (self.slider.frame_b, self.piston.frame_a)):
            self.connect(a, b)
        self.expose(self.crank.frame_a, "frame_a")


@pytest.mark.parametrize("wrist_kind,cut_wrist,equations", [("revolute", False, 5),
                                                            ("spherical", True, 3)])
def test_other_cut_joints_give_the_same_motion(crank_slider, wrist_kind, cut_wrist, equations):
    """Reference: the other formulation of the same mechanism: cutting the prismatic slider
    (3 orientation + 2 cross-axis equations) or closing with a ball joint at the wrist
    (3 position equations) leaves the planar crank-slider's motion unchanged."""
    from jourdain.blocks import Revolute, Spherical
    wrist = Revolute() if wrist_kind == "revolute" else Spherical()
    system = jd.compile(jd.Model.on_world(World(), cs=_PistonLoop(wrist, cut_wrist)))
    part = system.partition
    assert len(part.holonomic_rows) == 2
    assert len(part.holonomic_rows) + len(part.redundant_rows) == equations
    runs = [s.simulate(2.0, y0={"cs.crank.phi": 0.5}, z0={"cs.crank.w": 5.0}, rtol=1e-11,
                       atol=1e-11, n_out=41) for s in (system, crank_slider)]
    assert np.abs(runs[0]["cs.crank.phi"] - runs[1]["cs.crank.phi"]).max() < 1e-7


def test_dead_point_of_the_partition():
    """A non-Grashof four-bar (l0 = 1, l1 = 0.5, l2 = 0.6, l3 = 0.5) swung hard: the crank
    reaches its limits at ±acos(0.04) = ±1.5308 rad, dead points where the crank cannot
    parametrize the loop (the rocker still moves). Partitioning switches its independent
    coordinate before each (dynamic state selection) and runs through.
    References: the conservation law (no dissipation: total energy constant to the CVODES
    accuracy at rtol = 1e-10, measured 5e-7 relative, the Baumgarte ODE under the same
    tolerances 2e-7), agreement with the DAE method (IDAS; crank and rocker angles measured
    within 4e-6 rad), the closed-form dead point cos φ = (l0² + l1² − (l2 + l3)²)/(2·l0·l1)
    = 0.04 (coupler and rocker aligned, |BD| = l2 + l3) and the closure residual."""
    model = jd.Model.on_world(World(), fb=FourBar(l0=1.0, l1=0.5, l2=0.6, l3=0.5))
    start = {"y0": {"fb.crank.phi": 0.3}, "z0": {"fb.crank.w": 20.0}, "rtol": 1e-10,
             "atol": 1e-10}
    res = jd.compile(model).simulate(1.0, **start)
    dae = jd.compile(model, constraints=jd.ConstraintMethod.DAE).simulate(1.0, **start)
    energy = res["energy.total"]
    assert np.ptp(energy) < 5e-6 * energy[0]
    assert np.ptp(dae["energy.total"]) < 1e-6 * energy[0]
    for name in ("fb.crank.phi", "fb.rocker.phi", "fb.coupler.phi"):
        assert np.abs(res[name] - dae[name]).max() < 1e-4, name
    assert _max_residual(res) < 1e-9 and _max_residual(dae) < 1e-7
    assert res["fb.crank.phi"].max() == pytest.approx(np.arccos(0.04), abs=1e-4)
    # Each switch is logged; the crank is dependent after the first, yet its series goes on.
    first = res.switches[0]
    assert first.speeds_before == ("fb.crank.w",) and first.speeds_after != ("fb.crank.w",)
    assert first.conditioning_before > 10 > first.conditioning_after
    assert len(res.switches) >= 4
    assert np.abs(res["fb.crank.w"] - dae["fb.crank.w"]).max() < 1e-3


def test_partitioned_f_is_differentiable(four_bar):
    """Reference: central differences. f contains Newton's rootfinder for the dependent
    coordinates; its AD Jacobian (implicit function theorem) matches (f(x + h) − f(x − h))/2h
    to 1e-6 of its size (measured 9e-9 against max |∂f/∂x| = 69)."""
    import casadi as ca
    p = four_bar.p_default
    x0 = four_bar.state(y0={"fb.crank.phi": 1.0}, z0={"fb.crank.w": 2.0})
    X = ca.MX.sym("x", x0.size)
    jac = np.array(ca.Function("J", [X], [ca.jacobian(four_bar.f(0, X, ca.DM(0, 1), p), X)])(x0))
    fd = np.column_stack([(np.array(four_bar.f(0, x0 + e, [], p)) -
                           np.array(four_bar.f(0, x0 - e, [], p))).ravel() / 2e-6
                          for e in 1e-6 * np.eye(x0.size)])
    assert np.abs(jac - fd).max() < 1e-6 * np.abs(jac).max()
    assert np.abs(jac[-1, 0]) > 1.0          # the crank angle really enters the acceleration


def test_crank_slider_linearized_in_the_crank_angle(crank_slider):
    """Reference: seed 003 closed form. Hanging crank (φ = −π/2): the potential is
    V = g·(r/2)·(m1 + m2)·sin φ (crank and rod centres both at height (r/2)·sin φ, the slider
    on y = 0), so V'' = g·(r/2)·(m1 + m2); small oscillations have ω² = V''/m_gen. The
    linearization is in the independent coordinate and speed only (2 states, no spurious zero
    eigenvalues of the dependent coordinates)."""
    lin = jd.linearize(crank_slider, y0={"cs.crank.phi": -np.pi / 2})
    assert lin.kind == "equilibrium" and lin.A.shape == (2, 2)
    m_gen = _seed003(-np.pi / 2)[0]
    omega2 = G * 0.05 * (0.4 + 0.6) / m_gen
    assert np.sort(np.linalg.eigvals(lin.A).imag) == pytest.approx([-np.sqrt(omega2),
                                                                     np.sqrt(omega2)], rel=1e-7)


def _flat_chain(n: int, r=(0.4, 0.6, 0.5, 0.7), d: float = 1.0) -> jd.Model:
    """``n`` four-bars in a chain on ground pivots x = 0, d, …, n·d: the rocker of bar k is the
    crank of bar k + 1 (one revolute j_k with one rod of length r_k), the coupler k of length
    d + r_k − r_{k−1} runs from the tip of rod k − 1 to the tip of rod k. Every link lies
    along its frame's x axis, so at the joints' zero the chain is assembled flat (each bar a
    change-point linkage, s + l = p + q, folded along the ground line)."""
    from jourdain.blocks import FixedTranslation, Revolute
    from jourdain.library.linkages import rod
    m = jd.Model(world=World())
    for i in range(n + 1):
        m.add(f"g{i}", FixedTranslation(r=(i * d, 0, 0)))
        m.add(f"j{i}", Revolute(axis=(0, 0, 1)))
        m.add(f"rod{i}", rod(0.5, r[i]))
        m.add(f"tip{i}", FixedTranslation(r=(r[i], 0, 0)))
        j = getattr(m, f"j{i}")
        m.connect(m.world.frame_b, getattr(m, f"g{i}").frame_a)
        m.connect(getattr(m, f"g{i}").frame_b, j.frame_a)
        m.connect(j.frame_b, getattr(m, f"rod{i}").frame_a)
        m.connect(j.frame_b, getattr(m, f"tip{i}").frame_a)
    for k in range(1, n + 1):
        length = d + r[k] - r[k - 1]
        b, c = m.add(f"b{k}", Revolute(axis=(0, 0, 1))), m.add(f"c{k}", Revolute(axis=(0, 0, 1)))
        bar, end = m.add(f"coupler{k}", rod(1.0, length)), \
            m.add(f"end{k}", FixedTranslation(r=(length, 0, 0)))
        m.connect(getattr(m, f"tip{k - 1}").frame_b, b.frame_a)
        m.connect(b.frame_b, bar.frame_a)
        m.connect(b.frame_b, end.frame_a)
        m.connect(end.frame_b, c.frame_a)
        m.connect(getattr(m, f"tip{k}").frame_b, c.frame_b)
    return m


@pytest.mark.parametrize("n", [1, 2, 3])
def test_chain_of_four_bars_assembled_flat_has_one_dof(n):
    """At the joints' zero the chain lies flat, where each loop's closure equations have
    rank 1 instead of 2 (all lever arms along one line); compiled there it got f = n + 1.
    The reference is now re-assembled at a regular configuration. References: Grübler's
    count on a generic configuration, 3·(2n + 1 moving links) − 2·(3n + 1 revolutes) = 1,
    i.e. the analytic mobility of a chain of four-bars (each rocker drives the next bar);
    the closure residual at the new reference, and the rank 2n there equal to the rank at
    random assembled configurations nearby."""
    system = jd.compile(_flat_chain(n))
    assert len(system.z_names) == 1 and system.integrability.f == 1
    part = system.partition
    assert len(part.holonomic_rows) == 2 * n and len(system.dependent_coordinates) == 2 * n
    assert np.abs(np.array(system.c(system.y_ref, []))).max() < 1e-9
    assert np.linalg.matrix_rank(np.array(system.A(system.y_ref, [])), tol=1e-6) == 2 * n
    rng = np.random.default_rng(5)
    for _ in range(2):
        y = system.state({system.y_names[0]: system.y_ref[0] + rng.uniform(-0.05, 0.05)})
        assert np.linalg.matrix_rank(np.array(system.A(y[:2 * n + 1], [])), tol=1e-6) == 2 * n
