"""One compiled function per knot (solver/optimal/knots.py, ``codegen="knot"``).

References: agreement of two formulations — the knot function mapped over the grid (on
CasADi's virtual machine, and compiled) against the inlined RK4 multiple shooting of
solver/optimal/transcription.py (CasADi's ``rk`` integrator): the same optimum, trajectory and
iterations; fatrop and the Gauss–Newton Hessian on the compiled knots against IPOPT's exact
optimum; a cached library loaded without compiling or re-checking values.
"""
import shutil
import warnings

import numpy as np
import pytest

import jourdain as jd
from jourdain.solver.optimal import knots
from jourdain.solver.simulation import codegen
from ocp_problems import F, V, X, cartpole_swingup, double_integrator

needs_cc = pytest.mark.skipif(shutil.which("gcc") is None, reason="no C compiler")
RK4 = jd.MultipleShooting(jd.Integrator.RK4, steps=2)


def _reach(N=20):
    """Double integrator to a target (a problem parameter) in least squares."""
    ocp = jd.TrajectoryProblem(double_integrator(), 1.0, intervals=N)
    ocp.initial({X: 0.0, V: 0.0})
    ocp.parameter("target", 1.0)
    ocp.least_squares(lambda v: v[F])
    ocp.least_squares(lambda v: [10 * (v[X] - v["target"]), 10 * v[V]], terminal=True)
    return ocp


def _labels(nlp) -> list:
    return [(b.start, label) for b in nlp.con_blocks for label in b.labels]


@pytest.fixture
def on_vm(monkeypatch):
    """codegen='knot' with the knot function left on the virtual machine (no gcc)."""
    monkeypatch.setattr(knots, "compiled_knot", lambda *a, **k: None)


def test_knot_map_equals_the_inlined_shooting_on_the_vm(on_vm):
    """Reference: the inlined RK4 multiple shooting (2 steps per interval) of the cart-pole
    swing-up; the knot function mapped over the 30 knots is the same NLP: same rows and
    labels, the same optimum to round-off and the same iterations."""
    inlined = cartpole_swingup(N=30).build(RK4)
    mapped = cartpole_swingup(N=30).build(RK4, codegen="knot")
    assert mapped.nlp.sizes == inlined.nlp.sizes and not mapped.compiled
    assert _labels(mapped.nlp) == _labels(inlined.nlp)
    a, b = inlined.solve(), mapped.solve()
    assert b.cost == pytest.approx(a.cost, rel=1e-10)
    np.testing.assert_allclose(b.X, a.X, atol=1e-8)
    assert b.stats["iterations"] == a.stats["iterations"]


def test_knot_steps_refine_the_plan_towards_the_simulation(on_vm):
    """Reference: the plan re-simulated with CVODES (sol.check()); RK4's error per interval
    falls as steps⁻⁴, so 4 steps per knot put the plan's final state at least 20× closer to
    its own simulation than 1 step (the cart-pole over 30 knots of 67 ms)."""
    errors = []
    for steps in (1, 4):
        sol = cartpole_swingup(N=30).build(jd.MultipleShooting(jd.Integrator.RK4, steps=steps),
                                          codegen="knot").solve()
        sim = sol.check().simulated
        errors.append(np.abs(np.array([sim[n][-1] for n in sol.system.x_names]) -
                             sol.X[:, -1]).max())
    assert errors[1] < errors[0] / 20


@pytest.mark.slow
@needs_cc
def test_compiled_knots_reach_the_vm_optimum_with_ipopt_fatrop_and_gauss_newton(
        tmp_path, monkeypatch):
    """Reference: IPOPT with the exact Hessian on the inlined RK4 shooting (virtual machine).
    The compiled knot library gives the same optimum with IPOPT (exact and Gauss–Newton
    Hessians) and fatrop; a second build loads the cached library (no compiler run, no
    value check) and solves alike."""
    monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path))
    ref = _reach().solve(RK4)
    for options in ({}, {"solver": "fatrop"}, {"hessian": "gauss-newton", "tol": 1e-9}):
        built = _reach().build(RK4, codegen="knot", **options)
        sol = built.solve()
        assert built.compiled and sol.stats["compiled"]
        assert sol.cost == pytest.approx(ref.cost, rel=1e-7)
        np.testing.assert_allclose(sol.X, ref.X, atol=1e-6)
    monkeypatch.setattr(codegen, "_build", lambda *a: pytest.fail("rebuilt a cached library"))
    monkeypatch.setattr(codegen, "_deviation", lambda *a: pytest.fail("numeric check"))
    cached = _reach().build(RK4, codegen="knot")
    assert cached.compiled
    again = cached.solve(params={"target": 1.5})
    moved = _reach().build(RK4).solve(params={"target": 1.5})
    assert again.cost == pytest.approx(moved.cost, rel=1e-7)
    np.testing.assert_allclose(again.X, moved.X, atol=1e-6)


@pytest.mark.slow
@needs_cc
def test_a_knot_library_that_disagrees_is_discarded(tmp_path, monkeypatch):
    """Reference: the knot function on the virtual machine; a library whose values deviate
    (simulated by a deviation above the tolerance) is discarded with a warning and the
    solve runs on the virtual machine to the same optimum."""
    monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path))
    monkeypatch.setattr(codegen, "_deviation", lambda *a: 1.0)
    with pytest.warns(RuntimeWarning, match="deviates from the virtual machine"):
        built = _reach().build(RK4, codegen="knot")
    assert not built.compiled
    assert built.solve().cost == pytest.approx(_reach().solve(RK4).cost, rel=1e-9)


def test_plan_tol_warns_when_the_plan_departs_from_its_resimulation():
    """Reference: the plan re-simulated interval by interval with CVODES (sol.check()): the
    cart-pole swing-up on one RK4 step per interval deviates by about 1e-4 rad/s over an
    interval, 4 steps by about 6e-7 (RK4's local error ∝ h⁵); plan_tol = 1e-5 warns for the
    first, naming the state, and stays silent for the second."""
    with pytest.warns(RuntimeWarning, match=r"plan_tol.*steps"):
        cartpole_swingup(N=30).build(jd.MultipleShooting(jd.Integrator.RK4, steps=1),
                                     plan_tol=1e-5).solve()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        sol = cartpole_swingup(N=30).build(jd.MultipleShooting(jd.Integrator.RK4, steps=4),
                                           plan_tol=1e-5).solve()
    assert sol.check_result.max_local < 1e-5
