"""Newton steps in FDDP's warm re-solves (solver/optimal/ddp_newton.py, ``newton=True``).

References: CasADi's exact Hessian (automatic differentiation of the RK4 knot function) for
the second-order terms the finite differences compute; IPOPT with the exact Hessian on the
same RK4 multiple-shooting NLP for the optimum a warm Newton re-solve must reach (cost to
1e-8 relative, the pendulum's tip to 1e-6 m).
"""
import casadi as ca
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.solver.optimal import ddp_newton, knots
from test_ddp import RK4_1, DrivenPendulum

PHI, W, TAU = "p.joint.phi", "p.joint.w", "p.motor.tau"


def _tip(phi):
    """The bob's position [m] for the angle phi (1 m rod, hanging at phi = 0)."""
    return [ca.sin(phi), -ca.cos(phi)] if isinstance(phi, (ca.SX, ca.MX)) else \
        np.array([np.sin(phi), -np.cos(phi)])


def _reach(target):
    """The pendulum's tip pulled towards a point it cannot reach at rest: least squares on
    the tip (nonlinear in phi, large residuals at the optimum: Gauss–Newton is linear
    there), the torque and the speed. The torque bound stays inactive at the optimum (an
    active one leaves IPOPT's interior point about 1e-9 of the cost from its optimum)."""
    system = jd.compile(jd.Model.on_world(World(), p=DrivenPendulum()))
    ocp = jd.TrajectoryProblem(system, 1.5, intervals=30)
    ocp.initial({PHI: 0.3, W: 0.0})
    ocp.parameter("target", target)
    ocp.bound(TAU, -20.0, 20.0)
    ocp.least_squares(lambda v: [2 * (a - b) for a, b in zip(_tip(v[PHI]),
                                                             [v["target"][0], v["target"][1]])])
    ocp.least_squares(lambda v: [0.3 * v[TAU], 0.1 * v[W]])
    ocp.least_squares(lambda v: [5 * (a - b) for a, b in zip(_tip(v[PHI]),
                                                             [v["target"][0], v["target"][1]])],
                      terminal=True)
    return ocp


TARGET, MOVED = [1.5, 0.5], [1.5, 0.52]


def test_second_order_terms_equal_the_exact_hessian_of_the_knot_lagrangian():
    """Reference: CasADi's exact Hessian of q_k + λ_(k+1)ᵀ·F_k (AD of the knot function K)
    minus FDDP's model Hessian; λ the costate of the plan. Forward differences: to 1e-5."""
    ocp = _reach(TARGET)
    built = ocp.build(RK4_1, solver="fddp", tol=1e-12, newton=True)
    sol = built.solve()
    X, U = sol.X.T, sol.U[:, :, 0].T
    model = built._model(built._p(None))
    H, HN = ddp_newton.second_order(model, X, U)
    d = model.derivatives(X, U)
    lam = ddp_newton.costate(d, model.terminal(X[-1])[1])
    fns = ocp.functions()
    K = knots.knot_function(ocp, fns, 1)
    nx, nu = 2, 1
    x, u, lm = ca.MX.sym("x", nx), ca.MX.sym("u", nu), ca.MX.sym("l", nx)
    p, T, k = ca.MX.sym("p", built._p(None).size), ca.MX.sym("T"), ca.MX.sym("k")
    xn, q = K(x, u, p, T, k)
    z = ca.vertcat(x, u)
    exact = ca.Function("h", [x, u, lm, p, T, k], [ca.hessian(q + ca.dot(lm, xn), z)[0]])
    for j in (0, 7, 29):
        model_h = np.block([[d["Hxx"][j], d["Hux"][j].T], [d["Hux"][j], d["Huu"][j]]])
        ref = np.array(exact(X[j], U[j], lam[j + 1], built._p(None), built.T, j)) - model_h
        np.testing.assert_allclose(H[j], ref, atol=1e-5 * np.abs(ref).max())
    xs, ps, Ts = ca.SX.sym("x", nx), ca.SX.sym("p", built._p(None).size), ca.SX.sym("T")
    E = fns.E(ocp.t0 + Ts, xs, ps, Ts)
    ref_N = np.array(ca.Function("e", [xs, ps, Ts], [ca.hessian(E, xs)[0]])(
        X[-1], built._p(None), built.T)) - model.terminal(X[-1])[2]
    np.testing.assert_allclose(HN, ref_N, atol=1e-5 * np.abs(ref_N).max())


def test_newton_warm_resolve_reaches_ipopts_optimum_of_the_moved_target():
    """Reference: IPOPT (exact Hessian) on the same RK4 NLP stated with the moved target;
    the warm Newton re-solve reaches its cost to 1e-8 relative and its tip position at t_f
    to 1e-6 m, in fewer iterations than the Gauss–Newton warm re-solve to the same stop."""
    built = _reach(TARGET).build(RK4_1, solver="fddp", tol=1e-12, newton=True)
    cold = built.solve()
    assert cold.stats["prepare_cpu_time"] > 0 and not cold.stats["newton"]
    warm = built.solve(params={"target": MOVED})
    assert warm.success and warm.stats["newton"]
    gn = _reach(TARGET).build(RK4_1, solver="fddp", tol=1e-12)
    gn.solve()
    gn_warm = gn.solve(params={"target": MOVED})
    assert not gn_warm.stats["newton"] and gn_warm.stats["prepare_cpu_time"] == 0.0
    ref = _reach(MOVED).solve(RK4_1, tol=1e-12)
    assert warm.cost == pytest.approx(ref.cost, rel=1e-8)
    assert np.linalg.norm(_tip(warm[PHI][-1]) - _tip(ref[PHI][-1])) < 1e-6
    assert warm.stats["iterations"] < gn_warm.stats["iterations"]
    # a start that is not the prepared plan (warm=False) runs Gauss–Newton
    assert not built.solve(warm=False, params={"target": MOVED}).stats["newton"]


def test_terms_taken_afresh_every_round_reach_ipopts_optimum(monkeypatch):
    """Reference: IPOPT on the same RK4 NLP with a far-moved target. With rounds of one
    iteration the terms are taken afresh at every iterate (exact Newton): the re-solve
    goes through the refresh path and reaches IPOPT's optimum (cost to 1e-8 relative, tip
    to 1e-6 m)."""
    monkeypatch.setattr(ddp_newton, "NEWTON_ROUND", 1)
    far = [1.0, 1.2]
    built = _reach(TARGET).build(RK4_1, solver="fddp", tol=1e-12, newton=True)
    built.solve()
    warm = built.solve(params={"target": far})
    assert warm.success and warm.stats["newton"] and warm.stats["iterations"] > 1
    ref = _reach(far).solve(RK4_1, tol=1e-12)
    assert warm.cost == pytest.approx(ref.cost, rel=1e-8)
    assert np.linalg.norm(_tip(warm[PHI][-1]) - _tip(ref[PHI][-1])) < 1e-6


TAU_MAX = 8.0           # [N·m] binds on the first 23 of the 30 knots at TARGET (free: 13.3)


def _bounded_reach(target):
    """:func:`_reach` with the torque bound tightened to TAU_MAX: active on the first part
    of the horizon, free on the rest."""
    ocp = _reach(target)
    ocp.bound(TAU, -TAU_MAX, TAU_MAX)
    return ocp


def _at_bound(u, rtol):
    return np.abs(np.abs(u) - TAU_MAX) <= rtol * TAU_MAX


@pytest.mark.parametrize("newton_round, codegen", [(ddp_newton.NEWTON_ROUND, False),
                                                   (1, False), (ddp_newton.NEWTON_ROUND, True)])
def test_newton_warm_resolve_with_an_active_input_bound_reaches_ipopts_optimum(
        monkeypatch, newton_round, codegen):
    """Reference: IPOPT (exact Hessian, tol 1e-12) on the same RK4 NLP with the moved target
    and the same torque bound, its bounds not relaxed (``bound_relax_factor=0``: by default
    IPOPT relaxes them by 1e-8 relative, which is what left its optimum ~1e-9 of the cost
    from FDDP's). The bound binds on part of the horizon and the move adds a saturated knot
    (23 → 24): the box QP runs on the Newton-corrected Q_uu. The warm Newton re-solve
    reaches IPOPT's cost to 1e-10 relative (both stop at ~1e-12 absolute on a cost of 25:
    FDDP's expected decrease, IPOPT's KKT error; measured 4e-13) and its tip at t_f to
    1e-6 m (FDDP's gradient stop √tol = 1e-6), saturates the knots IPOPT saturates, keeps
    every torque within the bound exactly (FDDP clamps), and needs fewer iterations than the
    Gauss–Newton warm re-solve. With rounds of one iteration (the terms taken afresh at
    every iterate: exact Newton) the same holds through the refresh path; with
    ``codegen=True`` through the compiled backward pass (its box QP capped at crocoddyl's
    iteration counts, :mod:`.ddp_backward`)."""
    monkeypatch.setattr(ddp_newton, "NEWTON_ROUND", newton_round)
    moved = [1.5, 0.6]
    built = _bounded_reach(TARGET).build(RK4_1, solver="fddp", tol=1e-12, newton=True,
                                         codegen=codegen)
    assert built.compiled == codegen and (built._backward is not None) == codegen
    cold = built.solve()
    warm = built.solve(params={"target": moved})
    assert warm.success and warm.stats["newton"]
    gn = _bounded_reach(TARGET).build(RK4_1, solver="fddp", tol=1e-12)
    gn.solve()
    gn_warm = gn.solve(params={"target": moved})
    ref = _bounded_reach(moved).solve(RK4_1, tol=1e-12, ipopt={"bound_relax_factor": 0.0})
    u, u_cold, u_ref = warm.U[0, :, 0], cold.U[0, :, 0], ref.U[0, :, 0]
    assert np.abs(u).max() <= TAU_MAX
    # IPOPT's interior point stays ~1e-12 inside; FDDP's clamped inputs are on the bound
    saturated = _at_bound(u, 1e-12)
    np.testing.assert_array_equal(saturated, _at_bound(u_ref, 1e-8))
    assert 0 < saturated.sum() < len(u) and saturated.sum() > _at_bound(u_cold, 1e-12).sum()
    assert warm.cost == pytest.approx(ref.cost, rel=1e-10)
    assert np.linalg.norm(_tip(warm[PHI][-1]) - _tip(ref[PHI][-1])) < 1e-6
    assert warm.stats["iterations"] < gn_warm.stats["iterations"]
