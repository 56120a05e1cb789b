"""Build once, solve many (solver/optimal/built.py), the solvers and Hessians of
solver/optimal/backends.py, and the cached compiled NLP (solver/optimal/compiled.py).

References: agreement of two ways — a built problem re-solved with a new parameter or initial
state against a fresh build stated with those values; fatrop against IPOPT on the same NLP;
the Gauss–Newton Hessian against the exact one (the optimum is fixed by the gradients, so
both reach it); the compiled library loaded from the cache against the virtual machine.
"""
import shutil

import numpy as np
import pytest

import jourdain as jd
from jourdain.solver.simulation import codegen
from ocp_problems import CARTPOLE, F, V, X, cartpole_swingup, double_integrator

needs_cc = pytest.mark.skipif(shutil.which("gcc") is None, reason="no C compiler")
RK4 = jd.MultipleShooting(jd.Integrator.RK4, steps=2)


def _reach(target=None, x0=0.0, N=20):
    """Double integrator from x0 at rest, min ∫ f² dt + 100·((x(T) − target)² + v(T)²),
    target a problem parameter (default 1 m) or a number."""
    ocp = jd.TrajectoryProblem(double_integrator(), 1.0, intervals=N)
    ocp.initial({X: x0, V: 0.0})
    if target is None:
        ocp.parameter("target", 1.0)
    ocp.least_squares(lambda v: v[F])
    ocp.least_squares(lambda v: [10 * (v[X] - (v["target"] if target is None else target)),
                                 10 * v[V]], terminal=True)
    return ocp


@pytest.mark.parametrize("transcription", [jd.Collocation(3), RK4], ids=["radau3", "rk4"])
def test_resolve_with_new_parameter_and_state_equals_a_fresh_build(transcription):
    """Reference: a fresh problem stated with target 1.5 m and x(0) = 0.2 m, solved from
    scratch: the built problem re-solved with params/x0 (warm) reaches the same cost and
    trajectory."""
    built = _reach().build(transcription)
    first = built.solve()
    again = built.solve(params={"target": 1.5}, x0={X: 0.2})
    fresh = _reach(target=1.5, x0=0.2).solve(transcription)
    assert first.cost != pytest.approx(fresh.cost, rel=1e-3)     # the change mattered
    assert again.cost == pytest.approx(fresh.cost, rel=1e-8)
    np.testing.assert_allclose(again.X, fresh.X, atol=1e-7)
    np.testing.assert_allclose(again.U, fresh.U, atol=1e-6)
    full = built.solve(x0=[0.2, 0.0], params={"target": 1.5}, warm=False)
    assert full.cost == pytest.approx(fresh.cost, rel=1e-8)


def test_warm_resolve_of_the_same_problem_takes_few_iterations():
    """Reference: the cold solve of the cart-pole swing-up; re-solved warm from its own
    primal-dual solution the same optimum comes back in at most 3 iterations."""
    built = cartpole_swingup(N=30).build(RK4)
    cold = built.solve(warm=False)
    warm = built.solve()
    assert cold.stats["iterations"] > 5 and warm.stats["iterations"] <= 3
    assert warm.cost == pytest.approx(cold.cost, rel=1e-8)


SPEED = "cartpole.slider.v"


def _swingup(speed_limit: bool = False, x0: dict | None = None):
    """The cart-pole swing-up (N = 40); ``speed_limit``: the cart's speed ≤ 2.2 m/s as a path
    constraint (active: unlimited, the optimum reaches 2.39 m/s); ``x0``: another start."""
    ocp = cartpole_swingup(N=40)
    if speed_limit:
        ocp.path_constraint(lambda v: v[SPEED], upper=2.2, name="speed")
    if x0:
        ocp.initial(x0)
    return ocp


@pytest.mark.parametrize("speed_limit", [False, True], ids=["bounds", "path_constraint"])
def test_fatrop_and_ipopt_reach_the_same_optimum(speed_limit):
    """Reference: IPOPT's optimum of the cart-pole swing-up on RK4 multiple shooting; fatrop
    (stage-wise Riccati) on the same NLP reaches it to the tolerance, also with an active
    path constraint (its rows put in fatrop's stage order, backends.stage_structure)."""
    ipopt = _swingup(speed_limit).solve(RK4)
    fatrop = _swingup(speed_limit).solve(RK4, solver="fatrop")
    assert fatrop.success and fatrop.stats["solver"] == "fatrop"
    assert fatrop.cost == pytest.approx(ipopt.cost, rel=1e-7)
    np.testing.assert_allclose(fatrop.X, ipopt.X, atol=1e-5)
    if speed_limit:
        assert np.max(fatrop[SPEED]) == pytest.approx(2.2, abs=1e-6)


@needs_cc
def test_fatrop_on_the_compiled_nlp_reaches_ipopts_optimum(tmp_path, monkeypatch):
    """Reference: IPOPT's optimum on the virtual machine of the cart-pole swing-up with an
    active speed limit on RK4 multiple shooting, from the stated and from a moved initial
    state; fatrop on the compiled NLP (codegen=True: its own functions in C, checked against
    the virtual machine when built) reaches it to the tolerance of the test above, also
    warm-started from its last solution after the move."""
    monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path))
    moved = dict(zip(CARTPOLE, (0.1, np.pi - 0.2, 0.0, 0.0)))
    built = _swingup(True).build(RK4, solver="fatrop", codegen=True)
    assert built.compiled
    for x0 in (None, moved):
        ipopt = _swingup(True, x0).solve(RK4)
        fatrop = built.solve(x0=x0)
        assert fatrop.success and fatrop.stats["solver"] == "fatrop" and fatrop.stats["compiled"]
        assert fatrop.cost == pytest.approx(ipopt.cost, rel=1e-7)
        np.testing.assert_allclose(fatrop.X, ipopt.X, atol=1e-5)


def _balance():
    """Cart-pole from hanging, a least-squares cost pulling it upright at rest at t_f."""
    system = cartpole_swingup(N=2).system
    ocp = jd.TrajectoryProblem(system, 2.0, intervals=40)
    ocp.initial(dict(zip(CARTPOLE, (0.0, np.pi, 0.0, 0.0))))
    ocp.bound("cartpole.motor.f", -20, 20)
    ocp.least_squares(lambda v: [0.1 * v["cartpole.motor.f"], v["cartpole.slider.s"]])
    ocp.least_squares(lambda v: [10 * v["cartpole.hinge.phi"], 3 * v["cartpole.hinge.w"],
                                 3 * v["cartpole.slider.v"]], terminal=True)
    return ocp


def test_gauss_newton_reaches_the_exact_hessians_optimum():
    """Reference: the exact-Hessian optimum of a nonlinear least-squares problem (cart-pole
    swing-up by a terminal residual); the Gauss–Newton Hessian drops the dynamics' second
    derivatives but not the gradients, so it converges to the same optimum."""
    ocp = _balance()
    exact = ocp.solve(RK4)
    gn = ocp.solve(RK4, hessian="gauss-newton", tol=1e-7)
    assert gn.stats["hessian"] == "gauss-newton"
    assert gn.cost == pytest.approx(exact.cost, rel=1e-6)
    np.testing.assert_allclose(gn.X, exact.X, atol=1e-4)


@needs_cc
def test_cached_library_loads_without_numeric_check_and_gives_the_same_solution(
        tmp_path, monkeypatch):
    """Reference: the virtual machine's solve of the same parameterized problem. The first
    compiled build is checked against the virtual machine; the second loads the cached
    library by hash, checks its sparsity patterns only (no numeric comparison, no
    densifying) and gives the same solution, also after a parameter change."""
    monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path))
    vm = _reach().build(jd.Collocation(2)).solve(params={"target": 1.3})
    first = _reach().build(jd.Collocation(2), codegen=True)
    assert first.compiled
    monkeypatch.setattr(codegen, "_build", lambda *a: pytest.fail("rebuilt a cached NLP"))
    monkeypatch.setattr(codegen, "_deviation", lambda *a: pytest.fail("numeric check"))
    cached = _reach().build(jd.Collocation(2), codegen=True)
    sol = cached.solve(params={"target": 1.3})
    assert cached.compiled and sol.stats["compiled"]
    assert sol.cost == pytest.approx(vm.cost, rel=1e-8)
    np.testing.assert_allclose(sol.X, vm.X, atol=1e-7)


def test_frame_target_equals_the_same_target_on_the_coordinate():
    """Reference: agreement of two formulations: the slider's body frame sits at (s, 0, 0),
    so a terminal residual on v.frame('cart.body.frame_a') − (target, 0, 0) states the same
    problem as one on v['cart.joint.s'] − target: same optimum."""
    by_state = _reach()
    by_frame = jd.TrajectoryProblem(double_integrator(), 1.0, intervals=20)
    by_frame.initial({X: 0.0, V: 0.0})
    by_frame.parameter("target", [1.0, 0.0, 0.0])
    by_frame.least_squares(lambda v: v[F])
    by_frame.least_squares(lambda v: [*ca_split(10 * (v.frame("cart.body.frame_a") -
                                                      v["target"])), 10 * v[V]],
                           terminal=True)
    a = by_state.build(RK4).solve(params={"target": 0.7})
    b = by_frame.build(RK4).solve(params={"target": [0.7, 0.0, 0.0]})
    assert b.cost == pytest.approx(a.cost, rel=1e-8)
    np.testing.assert_allclose(b.X, a.X, atol=1e-8)


def ca_split(column):
    import casadi as ca
    return ca.vertsplit(column)


def test_receding_horizon_loop_brings_the_slider_to_the_target():
    """Reference: the target at rest is the MPC law's fixed point (zero cost there), and the
    closed loop of the double integrator under it is stable: a sampled simulation with the
    built problem as controller (re-solved from the measured state every 50 ms, warm) ends
    at the target at rest; every step's solve time is reported."""
    ocp = jd.TrajectoryProblem(double_integrator(), 0.5, intervals=10)
    ocp.initial({X: 0.0, V: 0.0})
    ocp.parameter("target", 0.0)
    ocp.least_squares(lambda v: [0.1 * v[F], 3 * (v[X] - v["target"]), v[V]])
    ocp.least_squares(lambda v: [10 * (v[X] - v["target"]), 10 * v[V]], terminal=True)
    mpc = ocp.build(RK4, solver="fatrop")
    times = []

    def controller(t, x):
        sol = mpc.solve(x0=x, params={"target": 0.5})
        times.append(sol.stats["solve_cpu_time"])
        return {F: sol.U[0, 0, 0]}

    run = double_integrator().simulate(4.0, x0=[0.0, 0.0], controller=controller, period=0.05)
    assert run[X][-1] == pytest.approx(0.5, abs=1e-3) and abs(run[V][-1]) < 1e-3
    assert len(times) >= 80 and all(t >= 0 for t in times)
