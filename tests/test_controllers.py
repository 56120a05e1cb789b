"""Controllers in the loop (issue 17): Python callables and compiled feedback laws driving a
simulation, sampled controllers with a zero-order hold, closed-loop Systems, and the
time-varying LQR that tracks a planned trajectory.

References: two formulations of the same law (a Python callable called from inside CVODES
and the law compiled into the CasADi graph); the closed-loop eigenvalues eig(A − B·K) of
the design; first-order convergence of a zero-order hold in its period; the algebraic
Riccati equation (scipy) for a time-invariant plan; the nonlinear perturbed motion for the
linearized tracking-error dynamics.
"""
import numpy as np
import pytest
from conftest import ROUNDOFF

import jourdain as jd
from jourdain.blocks import Motor, RigidBody, Spherical, World
from jourdain.library import CartPole, CubeOnCorner, CubeOnEdge, DoublePendulum

PHI, W, WHEEL, TAU = "cube.edge.phi", "cube.edge.w", "cube.bearing.w", "cube.motor.tau"
STATES = [PHI, W, WHEEL]


@pytest.fixture(scope="module")
def edge():
    return jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))


@pytest.fixture(scope="module")
def gain(edge):
    lin = jd.linearize(edge)
    return jd.lqr(lin.select(STATES), Q={PHI: 100.0, W: 1.0, WHEEL: 1e-3}, R=[[1e3]])


def test_python_controller_equals_compiled_law(edge, gain):
    """u = −K·x written in Python (called by CVODES through a CasADi Callback) and the same
    jd.Feedback compiled into the graph give the same trajectory to the integrator
    tolerance (both BDF, rtol = atol = 1e-10)."""
    K = gain.K[0]
    rows = [edge.x_names.index(n) for n in STATES]

    def python_law(t, x):
        return [-K @ x[rows]]

    opts = dict(y0={PHI: 0.1}, n_out=81, rtol=1e-10, atol=1e-10)
    compiled = edge.simulate(4.0, controller=gain, **opts)
    called = edge.simulate(4.0, controller=python_law, **opts)
    assert called.controller_calls > 100          # really called from inside the integrator
    np.testing.assert_allclose(called.x, compiled.x, atol=1e-8)
    np.testing.assert_allclose(called[TAU], compiled[TAU], atol=1e-8)
    assert abs(compiled[PHI][-1]) < 1e-2 * 0.1     # balanced: the tilt decays


def test_controller_with_named_view_and_dict(edge, gain):
    """u(t, x, v) reading states by name and returning a dict by input name is the same law
    (reference: the compiled Feedback)."""
    K = gain.K[0]

    def by_name(t, x, v):
        return {TAU: -(K[0] * v[PHI] + K[1] * v[W] + K[2] * v[WHEEL])}

    a = edge.simulate(2.0, y0={PHI: 0.05}, controller=by_name, n_out=21)
    b = edge.simulate(2.0, y0={PHI: 0.05}, controller=gain, n_out=21)
    np.testing.assert_allclose(a.x, b.x, atol=1e-7)


def test_close_loop_keeps_names_and_has_the_design_eigenvalues(edge, gain):
    """jd.close_loop folds u = −K·x into the graph: the plant's names stay, the motor torque
    becomes an output, and the closed loop linearizes to eig(A − B·K) of the design (plus
    the cyclic wheel angle's 0)."""
    closed = jd.close_loop(edge, gain)
    assert closed.x_names == edge.x_names and closed.u_names == []
    assert TAU in closed.output_names
    eig = np.sort_complex(jd.linearize(closed).eigenvalues)
    expected = np.sort_complex(np.append(gain.closed_loop, 0.0))
    np.testing.assert_allclose(eig, expected, atol=1e-8)
    direct = closed.simulate(3.0, y0={PHI: 0.1}, n_out=31)
    in_loop = edge.simulate(3.0, y0={PHI: 0.1}, n_out=31, controller=gain)
    np.testing.assert_allclose(direct.x, in_loop.x, atol=1e-12)


def test_close_loop_limits_clip_the_torque(edge, gain):
    """Actuator limits clip the law inside the graph: the torque reaches but never exceeds
    the limit (reference: the limit itself)."""
    closed = jd.close_loop(edge, gain, limits={TAU: 0.05})
    res = closed.simulate(3.0, y0={PHI: 0.1}, n_out=301)
    assert np.abs(res[TAU]).max() == pytest.approx(0.05, abs=1e-12)
    assert abs(res[PHI][-1]) < 1e-2


def test_sampled_controller_converges_with_its_period(edge, gain):
    """A zero-order hold at period h deviates from the continuous law by O(h): halving h
    halves the deviation (ratio 2 ± 0.3); the held torque is constant between samples."""
    ref = edge.simulate(1.0, y0={PHI: 0.1}, controller=gain, n_out=101)
    errors = []
    for period in (4e-3, 2e-3, 1e-3):
        res = edge.simulate(1.0, y0={PHI: 0.1}, controller=gain, period=period, n_out=101)
        errors.append(np.abs(res[PHI] - ref[PHI]).max())
    assert errors[0] / errors[1] == pytest.approx(2.0, abs=0.3)
    assert errors[1] / errors[2] == pytest.approx(2.0, abs=0.3)
    held = edge.simulate(0.1, y0={PHI: 0.1}, controller=gain, period=0.02, n_out=21)
    for k in range(5):   # outputs every 5 ms, samples every 20 ms
        block = held[TAU][4 * k:4 * k + 4]
        assert np.ptp(block) <= ROUNDOFF * np.abs(block).max()   # one held value
    python = edge.simulate(0.1, y0={PHI: 0.1}, period=0.02, n_out=21,
                           controller=lambda t, x: -gain.K @ x[[0, 2, 3]])
    np.testing.assert_allclose(python.x, held.x, atol=1e-12)


def test_controller_drives_some_inputs_others_follow_inputs():
    """A dict-returning controller drives one of two motors; the other follows ``inputs``.
    Reference: the same run with the first motor's law written as a time function of the
    closed-loop result is not available, so compare with a compiled two-input law: a PD on
    joint 1 and a constant torque on joint 2 as a Python controller returning both."""
    model = jd.Model.on_world(World(), dp=DoublePendulum())
    model.m1, model.m2 = Motor(), Motor()
    model.connect(model.m1.flange_b, model.dp.joint1.axis)
    model.connect(model.m2.flange_b, model.dp.joint2.axis)
    system = jd.compile(model)
    q1, w1 = "dp.joint1.phi", "dp.joint1.w"
    i, j = system.x_names.index(q1), system.x_names.index(w1)

    def pd(t, x):
        return {"m1.tau": -20.0 * x[i] - 5.0 * x[j]}

    def both(t, x):
        return [-20.0 * x[i] - 5.0 * x[j], 0.3]

    a = system.simulate(2.0, y0={q1: 0.4}, controller=pd, inputs={"m2.tau": 0.3}, n_out=21)
    b = system.simulate(2.0, y0={q1: 0.4}, controller=both, n_out=21)
    np.testing.assert_allclose(a.x, b.x, atol=1e-9)
    np.testing.assert_allclose(a["m2.tau"], 0.3)


def test_feedback_on_a_quaternion_plant_uses_its_chart():
    """The corner-balancing cube (spherical pivot: a quaternion): the closed loop built by
    jd.close_loop maps q to the linearization's rotation vector before applying K, so its
    linearization has eig(A − B·K) of the design (the uncontrollable vertical-momentum
    mode among them) and the cyclic wheel angles' zeros."""
    corner = jd.compile(jd.Model.on_world(World(), cube=CubeOnCorner()))
    lin = jd.linearize(corner)
    states = [n for n in lin.state_names if "bearing" not in n or n.endswith(".w")]
    Q = {n: (100.0 if "theta" in n else 1.0 if "pivot.w" in n else 1e-3) for n in states}
    fb = jd.lqr(lin.select(states), Q, 1e3 * np.eye(3))
    closed = jd.close_loop(corner, fb)
    eig = jd.linearize(closed).eigenvalues
    expected = np.concatenate([fb.closed_loop, np.zeros(3)])   # eig(A − B·K) holds all 9
    np.testing.assert_allclose(np.sort_complex(eig), np.sort_complex(expected), atol=1e-7)


def test_tvlqr_of_a_time_invariant_plan_is_the_lqr():
    """A plan that stays at the cart-pole's upright equilibrium: the TVLQR gain equals the
    algebraic-Riccati LQR gain of jd.lqr at all times (Q_f = its cost-to-go); with Q_f = 0
    the backward Riccati sweep converges to it far from the end (2·10⁻⁹ relative after 8 s
    of a 10 s horizon, the slowest closed-loop time constant being about 0.7 s)."""
    system = jd.compile(jd.Model.on_world(World(), cp=CartPole()))
    ocp = jd.TrajectoryProblem(system, horizon=10.0, intervals=20)
    rest = {n: 0.0 for n in system.x_names}
    ocp.initial(rest)
    ocp.final(rest)
    ocp.integral_cost(lambda v: v["cp.motor.f"] ** 2)
    plan = ocp.solve()
    Q, R = np.diag([10.0, 50.0, 1.0, 1.0]), np.array([[0.1]])
    lqr = jd.lqr(jd.linearize(system), Q, R)
    held = plan.tracking_controller(Q, R)
    assert held.final_cost.startswith("the LQR cost-to-go")
    np.testing.assert_allclose(held.K, np.broadcast_to(lqr.K, held.K.shape),
                               rtol=1e-9, atol=1e-9 * np.abs(lqr.K).max())
    fresh = plan.tracking_controller(Q, R, Qf=np.zeros((4, 4)))
    early = fresh.t <= 2.0
    np.testing.assert_allclose(fresh.K[early], np.broadcast_to(lqr.K, fresh.K[early].shape),
                               rtol=1e-6, atol=1e-6 * np.abs(lqr.K).max())
    assert np.abs(fresh.K[-1]).max() <= ROUNDOFF * np.abs(lqr.K).max()   # S(T) = Q_f = 0


def test_tracking_error_dynamics_match_the_perturbed_motion():
    """The moving chart's error dynamics A(t) (quaternion error as a rotation vector about
    the reference attitude, with the transport term of the reference's rotation) predict
    how a small perturbation of a tumbling asymmetric body evolves: e(t) of the nonlinear
    perturbed motion equals Φ(t)·e(0) (Φ from A(t)) up to O(|e(0)|²)."""
    from scipy.integrate import solve_ivp

    from jourdain.solver.control.tracking import error_chart, error_jacobians
    model = jd.Model(world=World(g=(0, 0, 0)))
    model.ball = Spherical()
    model.body = RigidBody(m=1.0, I=(1.0, 2.0, 3.0))
    model.connect(model.world.frame_b, model.ball.frame_a)
    model.connect(model.ball.frame_b, model.body.frame_a)
    system = jd.compile(model)
    t = np.linspace(0.0, 2.0, 401)
    z0 = {"ball.wx": 1.0, "ball.wy": 0.1, "ball.wz": 0.5}
    ref = system.simulate(2.0, z0=z0, t_out=t, rtol=1e-12, atol=1e-12)
    chart = error_chart(system)
    AB = error_jacobians(system, chart)
    A = [np.array(AB(ti, xi, [], [])[0]) for ti, xi in zip(t, ref.x.T)]

    def propagate(ti, phi):
        k = min(int(ti / (t[1] - t[0])), len(t) - 2)
        w = (ti - t[k]) / (t[1] - t[0])
        return (((1 - w) * A[k] + w * A[k + 1]) @ phi.reshape(6, 6)).ravel()

    Phi = solve_ivp(propagate, (0, 2), np.eye(6).ravel(), t_eval=[2.0], rtol=1e-10,
                    atol=1e-12).y[:, -1].reshape(6, 6)
    ny = len(system.y_names)
    for delta in (1e-3, 5e-4):
        e0 = delta * np.array([0.3, -0.2, 0.5, 0.4, -0.1, 0.2])
        y0 = np.array(chart.back(e0[:3], ref.x[:ny, 0])).ravel()
        pert = system.simulate(2.0, x0=np.concatenate([y0, ref.x[ny:, 0] + e0[3:]]),
                               t_out=t, rtol=1e-12, atol=1e-12)
        e_end = np.concatenate([np.array(chart.error(pert.x[:ny, -1], ref.x[:ny, -1])).ravel(),
                                pert.x[ny:, -1] - ref.x[ny:, -1]])
        gap = np.abs(e_end - Phi @ e0).max()
        assert gap < delta**2, (delta, gap)   # O(δ²): the linear part is exact (a frozen
        # chart without the transport term misses by 2e-4 at δ = 5e-4)


def test_closed_loop_of_a_four_bar_through_a_partition_switch():
    """A non-Grashof four-bar whose crank stops at a dead point: partitioning switches the
    crank to a dependent coordinate there, so the law must read the crank through the new
    partition's speeds. Reference: the same PD law wired into the model from an AngleSensor
    through a StateFeedback block (signal blocks read y and w directly in every partition);
    both runs switch, and their crank angles agree to the integrator tolerance."""
    from jourdain.blocks import AngleSensor, Mux, StateFeedback
    from jourdain.library import FourBar

    K = np.array([[0.5, 0.02]])
    shape = dict(l0=1.0, l1=0.5, l2=0.6, l3=0.5)

    def plant(wired: bool):
        model = jd.Model.on_world(World(), fb=FourBar(**shape))
        model.motor = Motor()
        model.connect(model.motor.flange_b, model.fb.crank.axis)
        if wired:
            model.sensor, model.state, model.law = AngleSensor(), Mux(1, 1), StateFeedback(K)
            model.connect(model.sensor.flange, model.fb.crank.axis)
            model.connect(model.sensor.phi, model.state.u1)
            model.connect(model.sensor.w, model.state.u2)
            model.connect(model.state.y, model.law.x)
            model.connect(model.law.u, model.motor.tau)
        return jd.compile(model)

    system = plant(False)
    gain = jd.Feedback(K, ["fb.crank.phi", "fb.crank.w"], ["motor.tau"], np.zeros(2),
                       np.zeros(1), np.zeros(0), np.zeros(0))
    start = dict(y0={"fb.crank.phi": 0.3}, z0={"fb.crank.w": 20.0}, rtol=1e-10, atol=1e-10,
                 n_out=151)
    folded = jd.close_loop(system, gain).simulate(0.3, **start)
    wired = plant(True).simulate(0.3, **start)
    assert folded.switches and wired.switches
    np.testing.assert_allclose(folded["fb.crank.phi"], wired["fb.crank.phi"], atol=1e-6)
    np.testing.assert_allclose(folded["motor.tau"], wired["law.u"], atol=1e-5)


def test_sampled_controller_on_a_four_bar_converges_to_the_continuous_one():
    """The sampled loop on a closed kinematic loop runs each segment through the partitioned
    simulation; as the period shrinks it approaches the continuous law (first order in the
    period: the deviation halves with the period, ratio 2 ± 0.4)."""
    from jourdain.library import FourBar

    model = jd.Model.on_world(World(), fb=FourBar())
    model.motor = Motor()
    model.connect(model.motor.flange_b, model.fb.crank.axis)
    system = jd.compile(model)

    def law(t, x):
        return [-2.0 * x[0] - 0.2 * x[-1]]

    start = dict(y0={"fb.crank.phi": 0.5}, n_out=11)
    ref = system.simulate(0.5, controller=law, **start)
    errors = [np.abs(system.simulate(0.5, controller=law, period=h, **start)["fb.crank.phi"]
                     - ref["fb.crank.phi"]).max() for h in (0.02, 0.01)]
    assert errors[0] / errors[1] == pytest.approx(2.0, abs=0.4)
