"""Controller signal blocks and feedback design (jourdain.blocks.controllers,
jourdain.solver.control.feedback).

References: the blocks' defining formulas evaluated by hand; python-control's own lqr/place on
the same matrices; the closed loop compiled as one model, whose linearization must reproduce
the design's eigenvalues of A − B·K; the linearization chart, which AttitudeError inverts.
"""
import control
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (Add, Constant, Demux, Gain, Mux, Saturation, StateFeedback,
                             World)
from jourdain.library import (BalancedCubeOnCorner, BalancedCubeOnEdge, CubeOnCorner,
                              CubeOnEdge, Pendulum)

from conftest import ROUNDOFF

EDGE_STATES = [f"cube.{s}" for s in BalancedCubeOnEdge.STATES]


def test_signal_blocks_compute_their_formulas():
    """(2, −3) → Gain [[1, 2], [3, 4]] → (−4, −6) → Saturation ±2 → (−2, −2) → Demux →
    Add(1, −1) → 0; StateFeedback: u = u_ref − K·(x − x_ref)."""
    m = jd.Model(world=World(), a=Constant(k=2.0), b=Constant(k=-3.0), mux=Mux(1, 1),
                 gain=Gain([[1, 2], [3, 4]]), sat=Saturation(2.0, size=2), dem=Demux(1, 1),
                 add=Add(1, -1), fb=StateFeedback([[1.0, 0.5]], x_ref=[1.0, 1.0], u_ref=[0.25]))
    for a, b in ((m.a.y, m.mux.u1), (m.b.y, m.mux.u2), (m.mux.y, m.gain.u),
                 (m.gain.y, m.sat.u), (m.sat.y, m.dem.u), (m.dem.y1, m.add.u1),
                 (m.dem.y2, m.add.u2), (m.mux.y, m.fb.x)):
        m.connect(a, b)
    system = jd.compile(m)
    out = dict(zip(system.output_names,
                   np.array(system.h(0, system.state(), [], system.p_default)).ravel()))
    # sums of products of small integers: exact in binary, compared to round-off anyway
    close = {"abs": ROUNDOFF * 10}
    assert [out["gain.y[0]"], out["gain.y[1]"]] == pytest.approx([-4.0, -6.0], **close)
    assert [out["sat.y[0]"], out["sat.y[1]"], out["add.y"]] == pytest.approx([-2.0, -2.0, 0.0],
                                                                             **close)
    assert out["fb.u"] == pytest.approx(0.25 - (1.0 * (2 - 1) + 0.5 * (-3 - 1)), **close)


def test_bad_controller_parameters_are_model_errors():
    with pytest.raises(jd.ModelError, match="Saturation"):
        Saturation(upper=1.0, lower=2.0)
    with pytest.raises(jd.ModelError, match="Mux"):
        Mux(0)
    with pytest.raises(jd.ModelError, match="Gain"):
        Gain([[1.0, np.nan]])


def _edge_design():
    system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
    lin = jd.linearize(system).select(EDGE_STATES)
    Q = {"cube.edge.phi": 100.0, "cube.edge.w": 1.0, "cube.bearing.w": 1e-3}
    return lin, Q, jd.lqr(lin, Q, [[1e3]])


def test_lqr_equals_python_control_when_fully_controllable():
    lin, Q, fb = _edge_design()
    K, _, _ = control.lqr(lin.A, lin.B, np.diag([100.0, 1.0, 1e-3]), [[1e3]])
    np.testing.assert_allclose(fb.K, K, rtol=1e-9)
    assert fb.state_names == EDGE_STATES and fb.input_names == ["cube.motor.tau"]
    assert np.all(fb.closed_loop.real < 0)


def test_closed_loop_model_linearizes_to_the_design():
    """The compiled closed loop (sensors → Mux → StateFeedback → Saturation → motor) has the
    design's eigenvalues of A − B·K (plus the cyclic wheel angle at 0)."""
    lin, _, fb = _edge_design()
    closed = jd.compile(jd.Model.on_world(World(), bal=BalancedCubeOnEdge(fb.K, 10.0)))
    cl = jd.linearize(closed).select([f"bal.{s}" for s in EDGE_STATES])
    np.testing.assert_allclose(np.sort_complex(cl.eigenvalues), np.sort_complex(fb.closed_loop),
                               rtol=1e-9)


def test_place_puts_the_poles():
    lin, _, _ = _edge_design()
    poles = [-3.0, -8.0, -12.0]
    fb = jd.place(lin, poles)
    np.testing.assert_allclose(np.sort(np.linalg.eigvals(lin.A - lin.B @ fb.K).real), sorted(poles),
                               rtol=1e-8)


def test_unstabilizable_system_is_rejected():
    """An upright pendulum without actuator: its unstable mode is uncontrollable."""
    system = jd.compile(jd.Model.on_world(World(), cube=Pendulum()))
    lin = jd.linearize(system, y0={"cube.joint.phi": np.pi})
    with pytest.raises(jd.ModelError, match="not stabilizable"):
        jd.lqr(lin, np.eye(2), np.zeros((0, 0)))


def test_attitude_error_inverts_the_linearization_chart():
    """AttitudeError(FrameSensor) returns exactly the chart coordinates θ of the housing."""
    open_loop = jd.linearize(jd.compile(jd.Model.on_world(World(), cube=CubeOnCorner())))
    closed = jd.compile(jd.Model.on_world(World(), bal=BalancedCubeOnCorner(np.zeros((3, 9)),
                                                                             1.0)))
    theta = np.array([0.4, -0.7, 0.2])
    x = open_loop.to_state({f"cube.pivot.theta_{c}": v for c, v in zip("xyz", theta)})
    out = np.array(closed.h(0, x, [], closed.p_default)).ravel()
    got = [out[closed.output_names.index(f"bal.attitude.theta[{i}]")] for i in range(3)]
    np.testing.assert_allclose(got, theta, atol=1e-14)


def _pid_rotor(J=0.5, k_p=4.0, k_i=2.0, k_d=1.5, T_f=0.05, reference=0.3):
    """A rotor J·φ̈ = τ_PID + τ_dist (gravity along the axis has no moment), PID on
    e = reference − φ; τ_dist is the free system input ``disturbance.tau``."""
    from jourdain.blocks import PID, AngleSensor, Motor, Revolute, RigidBody

    m = jd.Model(world=World(), joint=Revolute(axis=(0, 1, 0)),
                 rotor=RigidBody(m=1.0, I=(J / 2, J, J / 2)), motor=Motor(), disturbance=Motor(),
                 sensor=AngleSensor(), ref=Constant(k=reference), error=Add(1, -1),
                 pid=PID(k_p, k_i, k_d, T_f))
    for a, b in ((m.world.frame_b, m.joint.frame_a), (m.joint.frame_b, m.rotor.frame_a),
                 (m.motor.flange_b, m.joint.axis), (m.disturbance.flange_b, m.joint.axis),
                 (m.sensor.flange, m.joint.axis), (m.ref.y, m.error.u1),
                 (m.sensor.phi, m.error.u2), (m.error.y, m.pid.e), (m.pid.y, m.motor.tau)):
        m.connect(a, b)
    return jd.compile(m)


def test_pid_states_and_linearization_match_the_hand_derivation():
    """States (φ, ω, ∫e, x_f): Jω̇ = k_p·e + k_i·∫e + k_d·(e − x_f)/T_f, d∫e/dt = e,
    ẋ_f = (e − x_f)/T_f with e = r − φ, differentiated by hand."""
    J, k_p, k_i, k_d, T_f = 0.5, 4.0, 2.0, 1.5, 0.05
    system = _pid_rotor(J, k_p, k_i, k_d, T_f)
    assert system.s_names == ["pid.integral", "pid.filter"]
    assert "component states s (2)" in system.report()
    lin = jd.linearize(system)
    A = np.array([[0, 1, 0, 0],
                  [-(k_p + k_d / T_f) / J, 0, k_i / J, -k_d / (T_f * J)],
                  [-1, 0, 0, 0],
                  [-1 / T_f, 0, 0, -1 / T_f]])
    assert lin.state_names == ["joint.phi", "joint.w", "pid.integral", "pid.filter"]
    np.testing.assert_allclose(lin.A, A, rtol=1e-12, atol=1e-12)


def test_pid_integral_action_removes_a_constant_disturbance():
    """Closed form at steady state: φ = r and k_i·∫e = −τ_dist (the integral carries the
    disturbance, the other terms vanish)."""
    system = _pid_rotor(reference=0.3)
    res = system.simulate(30.0, z0={"pid.filter": 0.3}, inputs={"disturbance.tau": 0.2},
                          n_out=301)
    assert abs(res["joint.phi"][-1] - 0.3) < 1e-6
    assert abs(2.0 * res["pid.integral"][-1] + 0.2) < 1e-6


def test_state_count_mismatch_names_the_block():
    from jourdain.blocks import RealOutput, SignalBlock

    class Broken(SignalBlock):
        STATES = ("a", "b")

        def __init__(self):
            self.y = RealOutput(self, "y")

        def outputs(self, ctx):
            return {self.y: ctx.state(self)[0]}

        def derivatives(self, ctx):
            return [0.0]

    with pytest.raises(jd.ModelError, match="broken: derivatives"):
        jd.compile(jd.Model(world=World(), broken=Broken()))


def test_closed_loop_with_pid_states_optimizes_like_any_model():
    """The PID-controlled rotor (states φ, ω and the PID's s) as the plant of an optimal
    control problem: the least ∫τ_dist² dt that brings φ back to 0 at T = 2 s against the PID's
    reference 0.3. Reference: the closed form of minimum-energy control of the (linear)
    closed loop, J* = (c·x_free(T))² / (cᵀ·W(T)·c) with the controllability Gramian W and
    the free response x_free of ẋ = A·x + b; the transcriptions' piecewise-constant inputs
    cost slightly more, and collocation and multiple shooting agree."""
    from scipy.integrate import quad_vec
    from scipy.linalg import expm

    system, T = _pid_rotor(reference=0.3), 2.0
    ocp = jd.TrajectoryProblem(system, horizon=T, intervals=20)
    ocp.initial({"joint.phi": 0, "joint.w": 0, "pid.integral": 0, "pid.filter": 0.3})
    ocp.final({"joint.phi": 0.0})
    ocp.integral_cost(lambda v: v["disturbance.tau"] ** 2)
    costs = [ocp.solve(t).cost for t in (jd.Collocation(3), jd.MultipleShooting())]
    lin = jd.linearize(system)
    A, B, b = lin.A, lin.B, lin.xdot_op - lin.A @ lin.dx_op
    x0, c = np.array([0, 0, 0, 0.3]), np.array([1.0, 0, 0, 0])
    free = expm(A * T) @ x0 + quad_vec(lambda t: expm(A * (T - t)) @ b, 0, T)[0]
    W = quad_vec(lambda t: expm(A * (T - t)) @ B @ B.T @ expm(A.T * (T - t)), 0, T)[0]
    best = (c @ free) ** 2 / (c @ W @ c)
    assert costs[0] == pytest.approx(costs[1], rel=1e-4)
    assert best * (1 - 1e-6) <= costs[0] <= best * 1.02


def test_design_mistakes_are_model_errors_naming_the_fix():
    """Weights that python-control would reject with a bare ValueError (or silently accept),
    impossible pole sets and wrongly sized vectors are ModelErrors saying what is wrong."""
    lin, Q, _ = _edge_design()
    for R, match in (([[0.0]], "positive definite"), (-1.0, "positive definite"),
                     ("a", "matrix of numbers"), (np.eye(2), "1×1")):
        with pytest.raises(jd.ModelError, match=match):
            jd.lqr(lin, Q, R)
    with pytest.raises(jd.ModelError, match="semi-definite"):
        jd.lqr(lin, -np.eye(3), 1.0)
    with pytest.raises(jd.ModelError, match="symmetric"):
        jd.lqr(lin, np.triu(np.ones((3, 3))), 1.0)
    np.testing.assert_allclose(jd.lqr(lin, Q, 1e3).K, jd.lqr(lin, Q, [[1e3]]).K)  # scalar R
    with pytest.raises(jd.ModelError, match="conjugate"):
        jd.place(lin, [-1 + 1j, -2, -3])
    with pytest.raises(jd.ModelError, match="x_ref must be a number or 3 numbers"):
        StateFeedback([[1, 2, 3]], x_ref=[1, 2])
    with pytest.raises(jd.ModelError, match="upper must be a number or 3 numbers"):
        Saturation([1, 2], size=3)
    full = jd.linearize(jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge())))
    with pytest.raises(jd.ModelError, match="2 entries given for the 4 states"):
        full.to_state(np.zeros(2))


def test_design_about_a_non_stationary_point_is_refused_unless_allowed():
    """A cart-pole held at 0.5 rad with no force falls (ẋ ≠ 0): a constant LQR gain designed
    there means nothing, so lqr/place say so; allow_nonstationary=True designs anyway."""
    from jourdain.library import CartPole

    cart = jd.compile(jd.Model.on_world(World(), cp=CartPole()))
    lin = jd.linearize(cart, y0={"cp.hinge.phi": 0.5})
    assert lin.kind == "not stationary"
    with pytest.raises(jd.ModelError, match="lqr: the linearization is about a point that is "
                                            "'not stationary'"):
        jd.lqr(lin, Q=1.0, R=1.0)
    with pytest.raises(jd.ModelError, match="place: .*allow_nonstationary=True"):
        jd.place(lin, [-1, -2, -3, -4])
    assert jd.lqr(lin, Q=1.0, R=1.0, allow_nonstationary=True).K.shape == (1, 4)
