"""The DDP solver (solver/optimal/ddp.py, ddp_model.py, ddp_built.py: ``solver="fddp"``).

References: agreement of two methods on the same RK4 multiple-shooting transcription — FDDP
against IPOPT's optimum of the same NLP (same knots, same RK4 cost quadrature), without and
with input bounds (where the box QP must reproduce IPOPT's active set); FDDP's own
feasibility: a start that violates the dynamics converges to the same optimum, and the
returned trajectory satisfies the dynamics (re-simulated with CVODES, RK4's local error).
"""
import warnings

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import Composite, Motor, Revolute, RigidBody, World
from jourdain.library import CartDoublePendulum
from ocp_problems import CARTPOLE, F, V, X, cartpole_swingup, double_integrator

RK4 = jd.MultipleShooting(jd.Integrator.RK4, steps=2)
RK4_1 = jd.MultipleShooting(jd.Integrator.RK4, steps=1)


class DrivenPendulum(Composite):
    """A point mass 1 kg on a 1 m rod, driven by a torque ``motor.tau`` at its pivot."""

    def __init__(self):
        super().__init__()
        self.joint = Revolute(axis=(0, 0, 1))
        self.bob = RigidBody(m=1.0, r_cm=(0, -1.0, 0))
        self.motor = Motor()
        self.connect(self.joint.frame_b, self.bob.frame_a)
        self.connect(self.motor.flange_b, self.joint.axis)
        self.expose(self.joint.frame_a, "frame_a")


def _pendulum(N=40, tau_max=None):
    """Swing the pendulum from hanging to upright: least squares on torque and the terminal
    state, plus an integral cost (exact Hessian path)."""
    system = jd.compile(jd.Model.on_world(World(), p=DrivenPendulum()))
    ocp = jd.TrajectoryProblem(system, 2.5, intervals=N)
    ocp.initial({"p.joint.phi": 0.0, "p.joint.w": 0.0})
    if tau_max is not None:
        ocp.bound("p.motor.tau", -tau_max, tau_max)
    ocp.least_squares(lambda v: 0.3 * v["p.motor.tau"])
    ocp.integral_cost(lambda v: 0.01 * v["p.joint.w"] ** 2)
    ocp.least_squares(lambda v: [10 * (v["p.joint.phi"] - np.pi), 3 * v["p.joint.w"]],
                      terminal=True)
    return ocp


def _cartpole(f_max=None):
    """Cart-pole from hanging, least squares pulling it upright at rest at t_f."""
    system = cartpole_swingup(N=2).system
    ocp = jd.TrajectoryProblem(system, 2.0, intervals=40)
    ocp.initial(dict(zip(CARTPOLE, (0.0, np.pi, 0.0, 0.0))))
    if f_max is not None:
        ocp.bound("cartpole.motor.f", -f_max, f_max)
    ocp.least_squares(lambda v: [0.1 * v["cartpole.motor.f"], v["cartpole.slider.s"]])
    ocp.least_squares(lambda v: [10 * v["cartpole.hinge.phi"], 3 * v["cartpole.hinge.w"],
                                 3 * v["cartpole.slider.v"]], terminal=True)
    return ocp


def _double_pendulum():
    """The double pendulum on a cart moved 0.5 m, poles kept upright, in 1.5 s."""
    system = jd.compile(jd.Model.on_world(World(), dp=CartDoublePendulum()))
    ocp = jd.TrajectoryProblem(system, 1.5, intervals=30)
    ocp.initial(dict.fromkeys(system.x_names, 0.0))
    ocp.bound("dp.motor.f", -15, 15)
    ocp.least_squares(lambda v: [0.05 * v["dp.motor.f"], v["dp.hinge1.phi"],
                                 v["dp.hinge2.phi"]])
    ocp.least_squares(lambda v: [10 * (v["dp.slider.s"] - 0.5), 3 * v["dp.slider.v"],
                                 3 * v["dp.hinge1.phi"], 3 * v["dp.hinge2.phi"],
                                 v["dp.hinge1.w"], v["dp.hinge2.w"]], terminal=True)
    return ocp


def _same_optimum(fddp, ipopt, atol):
    assert fddp.success and fddp.stats["solver"] == "fddp"
    assert fddp.cost == pytest.approx(ipopt.cost, rel=1e-6)
    np.testing.assert_allclose(fddp.X, ipopt.X, atol=atol)


@pytest.mark.parametrize("factory, atol", [
    (_pendulum, 1e-5), pytest.param(_cartpole, 1e-4, marks=pytest.mark.slow),
    pytest.param(_double_pendulum, 1e-5, marks=pytest.mark.slow)])
def test_fddp_reaches_ipopts_optimum_of_the_same_rk4_transcription(factory, atol):
    """Reference: IPOPT (exact Hessian, tol 1e-10) on the same RK4 multiple-shooting NLP;
    FDDP's fixed point has the same exact gradients, so the same optimum: cost to 1e-6
    relative, node states to ``atol``."""
    ocp = factory()
    ipopt = ocp.solve(RK4, tol=1e-10)
    fddp = ocp.solve(RK4, solver="fddp", tol=1e-16)
    _same_optimum(fddp, ipopt, atol)


def _urdf_swing_up(N=100):
    """benchmarks/ocp_vs_crocoddyl.py's swing-up: example-robot-data's double pendulum (both
    joints driven, |τ| ≤ 0.6 N·m, below the 0.69 N·m that holds it sideways, so it must
    swing) from hanging to upright at rest in 2 s, crocoddyl's costs w·½‖r‖² (state and
    torques 0.1 per second, terminal state 1e3); with crocoddyl's guess (x0 at every node,
    the quasi-static torques: zero when hanging)."""
    import casadi as ca

    from jourdain.solver.exchange import UnsupportedWarning, example_robot, \
        example_robot_data_dir
    if example_robot_data_dir() is None:
        pytest.skip("example-robot-data is not installed")
    joints = ["joint1", "joint2"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsupportedWarning)
        arm = jd.from_urdf(example_robot(
            "double_pendulum_description/urdf/double_pendulum_simple.urdf"),
            joint_damping=False)
    arm.add_motors(joints)
    system = jd.compile(jd.Model.on_world(World(g=arm.gravity), arm=arm))
    xn = [arm.coordinate_names(j)[0] for j in joints] + [arm.speed_names(j)[0] for j in joints]
    un = [f"{xn[0].split('.')[0]}.{arm.child_name(j)}_motor.tau" for j in joints]
    ocp = jd.TrajectoryProblem(system, 2.0, intervals=N)
    x0 = dict(zip(xn, (np.pi, 0.0, 0.0, 0.0)))
    ocp.initial(x0)
    for name in un:
        ocp.bound(name, -0.6, 0.6)
    ocp.least_squares(lambda v: np.sqrt(0.05) * ca.vertcat(*[v[n] for n in xn + un]))
    ocp.least_squares(lambda v: np.sqrt(500.0) * ca.vertcat(*[v[n] for n in xn]),
                      terminal=True)
    return ocp, {**x0, **dict.fromkeys(un, 0.0)}


@pytest.mark.slow
def test_torque_limited_swing_up_reaches_ipopts_optimum():
    """Reference: IPOPT (exact Hessian, tol 1e-10) on the same RK4 multiple-shooting NLP from
    the same guess. The swing-up where FDDP used to stop at its regularization limit (cost
    8.51 against 0.5544): it converges (feasible, projected gradient below tol) to IPOPT's
    optimum, cost to 1e-6 relative, node states to 1e-4, torques within their limits."""
    ocp, guess = _urdf_swing_up()
    ipopt = ocp.solve(RK4_1, tol=1e-10, guess=guess)
    fddp = ocp.solve(RK4_1, solver="fddp", tol=1e-12, guess=guess)
    assert np.abs(fddp.U).max() <= 0.6 * (1 + 1e-12)
    _same_optimum(fddp, ipopt, 1e-4)


def test_box_constrained_inputs_match_ipopt_with_bounds():
    """Reference: IPOPT with the same input bound on the pendulum swing-up; the bound is
    active (the unbounded optimum exceeds it), the projected-Newton box QP keeps every input
    inside it and reaches the same optimum."""
    limited = _pendulum(tau_max=4.0)
    fddp = limited.solve(RK4, solver="fddp", tol=1e-16)
    assert np.abs(fddp.U).max() <= 4.0 * (1 + 1e-12)
    assert np.isclose(np.abs(fddp.U), 4.0, rtol=1e-9).sum() >= 2     # saturated knots
    _same_optimum(fddp, limited.solve(RK4, tol=1e-10), 1e-5)


@pytest.mark.slow
def test_box_constrained_cartpole_matches_ipopt_with_bounds():
    """Reference: IPOPT with the same input bounds on the cart-pole swing-up, the bound at
    60 % of the unbounded optimum's largest force (active at several knots)."""
    free = _cartpole().solve(RK4, solver="fddp", tol=1e-16)
    f_max = 0.6 * np.abs(free.U).max()
    ocp = _cartpole(f_max)
    ipopt = ocp.solve(RK4, tol=1e-10)
    fddp = ocp.solve(RK4, solver="fddp", tol=1e-16)
    assert np.abs(fddp.U).max() <= f_max * (1 + 1e-12)
    assert np.isclose(np.abs(fddp.U), f_max, rtol=1e-9).sum() >= 2     # saturated knots
    _same_optimum(fddp, ipopt, 1e-4)


def test_infeasible_start_converges_and_ends_dynamically_consistent():
    """Reference: FDDP's feasibility (Mastalli et al. 2020) and the CVODES re-simulation. A
    start whose states are a straight line from the initial to the upright state (not a
    trajectory of the dynamics: gaps of order 1) converges to the optimum found from rest,
    and the plan's node states agree with the CVODES re-simulation of its inputs within RK4's
    local error."""
    ocp = _pendulum()
    line = {"p.joint.phi": lambda t: np.pi * t / 2.5, "p.joint.w": np.pi / 2.5}
    from_line = ocp.solve(RK4, solver="fddp", tol=1e-16, guess=line)
    from_rest = ocp.solve(RK4, solver="fddp", tol=1e-16)
    assert from_line.cost == pytest.approx(from_rest.cost, rel=1e-7)
    np.testing.assert_allclose(from_line.X, from_rest.X, atol=1e-5)
    assert from_line.check().max_local < 1e-4


def test_warm_resolve_with_a_new_parameter_and_initial_state_equals_a_fresh_solve():
    """Reference: a fresh build stated with the new target and initial state; the warm
    re-solve of the built problem (and a shifted warm start) reaches the same optimum."""
    def reach(target, x0=0.0):
        ocp = jd.TrajectoryProblem(double_integrator(), 1.0, intervals=20)
        ocp.initial({X: x0, V: 0.0})
        ocp.parameter("target", target)
        ocp.bound(F, -8.0, 8.0)
        ocp.least_squares(lambda v: v[F])
        ocp.least_squares(lambda v: [10 * (v[X] - v["target"]), 10 * v[V]], terminal=True)
        return ocp
    built = reach(1.0).build(RK4, solver="fddp", tol=1e-18)
    built.solve()
    warm = built.solve(x0={X: 0.2}, params={"target": 1.5})
    fresh = reach(1.5, 0.2).solve(RK4, solver="fddp", tol=1e-18)
    assert warm.cost == pytest.approx(fresh.cost, rel=1e-9)
    np.testing.assert_allclose(warm.X, fresh.X, atol=1e-8)
    shifted = built.solve(x0={X: 0.2}, params={"target": 1.5}, shift=1)
    assert shifted.cost == pytest.approx(fresh.cost, rel=1e-9)


@pytest.mark.parametrize("change, words", [
    (lambda o: o.path_constraint(lambda v: v[X], upper=2.0, name="wall"), "path constraints"),
    (lambda o: o.bound(X, -1, 2), "state bounds"),
    (lambda o: o.final({X: 1.0}), "final conditions"),
])
def test_what_ddp_cannot_state_is_refused_by_name(change, words):
    """Reference: the statement itself; DDP has no place for path constraints, state bounds
    or final conditions, so each is refused naming it and the solvers that take it."""
    ocp = jd.TrajectoryProblem(double_integrator(), 1.0, intervals=10)
    ocp.initial({X: 0.0, V: 0.0})
    ocp.least_squares(lambda v: v[F])
    change(ocp)
    with pytest.raises(jd.ModelError, match=f"{words}.*solver='fatrop'"):
        ocp.build(RK4, solver="fddp")


def test_knot_derivatives_equal_ad_of_the_knot_function():
    """Reference: CasADi's automatic differentiation of the knot function K of
    solver/optimal/knots.py (the RK4 steps of the transcription); the stage-by-stage chain
    of ddp_model gives the same next state, cost and Jacobians to round-off."""
    import casadi as ca

    from jourdain.solver.optimal import ddp_model, knots
    ocp = _double_pendulum()
    fns = ocp.functions()
    D, K = ddp_model.knot_derivatives(ocp, fns, 2), knots.knot_function(ocp, fns, 2)
    args = K.mx_in()
    J = ca.Function("J", args, [ca.jacobian(ca.vertcat(*K(*args)), ca.vertcat(*args[:2]))])
    rng = np.random.default_rng(3)
    x, u = rng.uniform(-1, 1, K.size1_in(0)), rng.uniform(-5, 5, K.size1_in(1))
    p = rng.uniform(0.5, 1.0, K.size1_in(2))
    values = [np.array(v) for v in D(x, u, p, 1.5, 4.0)]
    x_next, q = (np.array(v) for v in K(x, u, p, 1.5, 4.0))
    jac = np.array(J(x, u, p, 1.5, 4.0))
    nx = x.size
    np.testing.assert_allclose(values[0], x_next, atol=1e-14)
    np.testing.assert_allclose(values[1], q, rtol=1e-13)
    np.testing.assert_allclose(np.hstack(values[2:4]), jac[:nx], atol=1e-12)
    np.testing.assert_allclose(np.vstack(values[4:6]).ravel(), jac[nx], atol=1e-12)


def test_knot_model_hessian_is_gauss_newton_through_the_rk4_stages():
    """Reference: CasADi's exact Hessian of the knot function's cost (solver/optimal/knots.py)
    on linear dynamics (the double integrator) with a least-squares cost affine in (x, u):
    there the Gauss–Newton Hessian through the RK4 stages is exact, including the inputs'
    effect on the stage states' cost (which the node's Hessian alone misses)."""
    import casadi as ca

    from jourdain.solver.optimal import ddp_model, knots
    ocp = jd.TrajectoryProblem(double_integrator(), 1.0, intervals=10)
    ocp.initial({X: 0.0, V: 0.0})
    ocp.least_squares(lambda v: [0.3 * v[F], 2.0 * (v[X] - 1.0), v[V] + 0.5 * v[F]])
    fns = ocp.functions()
    D, K = ddp_model.knot_derivatives(ocp, fns, 2), knots.knot_function(ocp, fns, 2)
    x, u, p, T, k = K.mx_in()
    z = ca.vertcat(x, u)
    H = ca.Function("H", [x, u, p, T, k], [ca.hessian(K(x, u, p, T, k)[1], z)[0]])
    args = ([0.3, -0.2], [0.7], np.zeros(K.size1_in(2)), 1.0, 3.0)
    exact = np.array(H(*args))
    model = [np.array(v) for v in D(*args)]
    np.testing.assert_allclose(model[6], exact[:2, :2], atol=1e-12)
    np.testing.assert_allclose(model[7], exact[2:, 2:], atol=1e-12)
    np.testing.assert_allclose(model[8], exact[2:, :2], atol=1e-12)


@pytest.mark.parametrize("iterations", [0, 1])
def test_expected_decrease_is_the_roll_out_slope_with_inputs_on_their_bounds(iterations):
    """Reference: finite differences of the roll-out's cost along the step length. On the
    torque-limited pendulum swing-up, from rest (where the box QP clamps Newton steps that
    leave the box) and after one iteration (40 inputs on their bound), Σ Q_u·k of the backward
    pass (its box QP's k and K, the closed loop's adjoint) is the derivative of the cost of
    the clamped roll-out at alpha = 0 (Tassa's V_x gave 870 against the slope 1275 at rest)."""
    from jourdain.solver.optimal import ddp
    built = _pendulum(tau_max=4.0).build(RK4, solver="fddp", raise_on_failure=False)
    model = built._model(built._p(None))
    X, U = built._start(None, False)
    if iterations:
        result = ddp.solve(model, built.x0, X, U, 1e-30, iterations)
        X, U = result.X, result.U
        assert np.isclose(np.abs(U), 4.0).sum() >= 2          # inputs on their bound
    d = model.derivatives(X, U)
    E, Ex, Exx = model.terminal(X[-1])
    gaps = np.zeros_like(X)                                   # both iterates are feasible
    kff, K, _, _, _, dg, _ = ddp._backward(d, Ex, Exx, gaps, U, model, 1e-6, True,
                                           np.zeros_like(U), True)
    cost = d["q"].sum() + E
    alpha = 1e-7
    _, _, q = model.rollout(built.x0, X, U, kff, K, gaps, alpha)   # q: knots, then terminal
    slope = (cost - q.sum()) / alpha
    assert dg > 0 and slope == pytest.approx(dg, rel=1e-5)
