"""A real-time budget for FDDP's solves (``solver="fddp", budget=...``, solver/optimal/ddp.py).

References: the budget's contract — the stats report a budget stop, the returned plan is
dynamically consistent (every knot's RK4 step lands on the next node, the first node is x0:
FDDP's own gaps, and one RK4 step of the knot function), and a budget that is never reached
changes nothing (the same iterates as without it: agreement of two runs).
"""
import time

import numpy as np
import pytest

from jourdain.solver.optimal import ddp
from test_ddp import RK4, _cartpole

SHIFTED_PHI = {"cartpole.hinge.phi": np.pi - 0.6}


def _gaps(built, sol, x0):
    """The largest gap of the plan: |x0 − X_0| and |F(X_k, U_k) − X_(k+1)|."""
    X, U = sol.X.T, sol.U[:, :, 0].T
    d = built._model(built._p(None)).derivatives(X, U)
    return max(np.abs(x0 - X[0]).max(), np.abs(d["x_next"] - X[1:]).max())


def test_budget_stop_returns_a_feasible_plan_and_says_so():
    """A budget too short for a second iteration: one iteration, status Budget_Exhausted,
    stats["budget_stop"], and a plan without gaps although the start had one (x0 moved
    away from the warm start's first node; the first step is shorter than 1, so the
    iterate itself still has a gap and the plan is the roll-out that closes it)."""
    built = _cartpole(f_max=20.0).build(RK4, solver="fddp", tol=1e-10, budget=1e-9,
                                        raise_on_failure=False)
    unbudgeted = _cartpole(f_max=20.0).build(RK4, solver="fddp", tol=1e-10, max_iter=1,
                                             raise_on_failure=False)
    first = _cartpole(f_max=20.0).solve(RK4, solver="fddp", tol=1e-10)
    sol = built.solve(x0=SHIFTED_PHI, guess=first)
    assert sol.stats["budget_stop"] and sol.stats["status"] == "Budget_Exhausted"
    assert sol.stats["iterations"] == 1 and not sol.success
    x0 = built.x0.copy()
    x0[built.problem.system.x_names.index("cartpole.hinge.phi")] = SHIFTED_PHI[
        "cartpole.hinge.phi"]
    assert _gaps(built, sol, x0) < 1e-12
    # without the budget the same single iteration leaves the gap partly open
    one = unbudgeted.solve(x0=SHIFTED_PHI, guess=first)
    assert _gaps(unbudgeted, one, x0) > 1e-3
    assert np.isfinite(sol.cost) and sol.stats["max_gap"] == 0.0


def test_a_budget_never_reached_changes_nothing():
    """The same optimum, iteration count and stop with and without a 100 s budget."""
    with_budget = _cartpole(f_max=20.0).build(RK4, solver="fddp", tol=1e-10, budget=100.0)
    plain = _cartpole(f_max=20.0).build(RK4, solver="fddp", tol=1e-10)
    a, b = with_budget.solve(), plain.solve()
    assert not a.stats["budget_stop"] and a.stats["budget"] == 100.0
    assert a.stats["iterations"] == b.stats["iterations"]
    assert a.cost == pytest.approx(b.cost, rel=1e-12)


def test_budget_roll_out_closes_the_gaps_at_the_ddp_level():
    """ddp.solve directly: a budget stop from a start with gaps everywhere (every node moved)
    returns X with X_0 = x0 and every knot landing on the next node."""
    built = _cartpole(f_max=20.0).build(RK4, solver="fddp", tol=1e-10)
    sol = built.solve()
    X, U = sol.X.T.copy(), sol.U[:, :, 0].T.copy()
    X[1:] += 0.05 * np.sin(np.arange(1, len(X)))[:, None]
    model = built._model(built._p(None))
    res = ddp.solve(model, built.x0, X, U, 1e-10, 50, budget=1e-9)
    assert res.status == "Budget_Exhausted" and res.iterations == 1
    d = model.derivatives(res.X, res.U)
    assert np.abs(d["x_next"] - res.X[1:]).max() < 1e-12
    np.testing.assert_allclose(res.X[0], built.x0, atol=1e-15)
    assert np.all(res.U >= model.lower) and np.all(res.U <= model.upper)


class _Descheduled:
    """The built problem's knot derivatives, each call preceded by ``pause`` seconds of
    sleep: wall time passes that the process's CPU time does not count (a solve on a
    machine whose other processes take the core)."""

    def __init__(self, built, pause: float):
        self.built, self.pause, self.model = built, pause, built._model

    def __call__(self, p):
        model = self.model(p)
        derivatives = model.derivatives

        def slow(X, U):
            time.sleep(self.pause)
            return derivatives(X, U)
        model.derivatives = slow
        return model


@pytest.mark.parametrize("newton", [False, True])
def test_wall_clock_budget_counts_time_descheduled_and_returns_a_feasible_plan(
        monkeypatch, newton):
    """``clock="wall"``: with every evaluation of the knots' derivatives preceded by 0.3 s of
    sleep, a wall budget of 0.4 s stops the solve after its first iteration (status
    Budget_Exhausted, stats["budget_stop"] and ["budget_clock"]) with a plan without gaps
    (the start had one: x0 moved away from the warm start's first node), where the same
    budget counted in CPU time (the default) lets all three iterations run: the sleep is no
    CPU time. With ``newton=True`` the warm re-solve takes the Newton path
    (:mod:`.ddp_newton`), whose rounds share the same budget and clock."""
    first = _cartpole(f_max=20.0).solve(RK4, solver="fddp", tol=1e-10)
    x0 = first.X[:, 0].copy()
    x0[list(first.problem.system.x_names).index("cartpole.hinge.phi")] = \
        SHIFTED_PHI["cartpole.hinge.phi"]
    runs = {}
    for clock in ("wall", "cpu"):
        built = _cartpole(f_max=20.0).build(RK4, solver="fddp", tol=1e-10, max_iter=3,
                                            budget=0.4, clock=clock, newton=newton,
                                            raise_on_failure=False)
        if newton:       # a converged solve at the start prepares the Newton terms
            assert built.solve(guess=first).success
        monkeypatch.setattr(built, "_model", _Descheduled(built, 0.3))
        runs[clock] = (built, built.solve(x0=SHIFTED_PHI, guess=None if newton else first))
    built, sol = runs["wall"]
    assert sol.stats["newton"] == newton
    assert sol.stats["budget_stop"] and sol.stats["status"] == "Budget_Exhausted"
    assert sol.stats["budget_clock"] == "wall" and sol.stats["iterations"] == 1
    assert _gaps(built, sol, x0) < 1e-12 and sol.stats["max_gap"] == 0.0
    assert np.all(np.abs(sol.U) <= 20.0)
    cpu_built, cpu_sol = runs["cpu"]
    assert cpu_sol.stats["budget_clock"] == "cpu" and not cpu_sol.stats["budget_stop"]
    assert cpu_sol.stats["iterations"] == 3
