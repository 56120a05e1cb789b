"""Trajectory optimization, robustness: named inputs at the nodes, user
mistakes reported as ModelError naming what to fix, NaN/inf reported by name, and Baumgarte's
constrained form against partitioning."""
from __future__ import annotations

import casadi as ca
import numpy as np
import pytest

import jourdain as jd
from ocp_problems import F, V, X, double_integrator, minimum_energy, minimum_time


@pytest.fixture(scope="module")
def di():
    return double_integrator()


@pytest.mark.parametrize("t0, N", [(0.0, 60), (0.0, 100), (0.3, 20), (1.7, 60)])
def test_named_inputs_at_the_nodes_are_the_interval_values(di, t0, N):
    """Reference: the decision variables themselves. With piecewise-constant inputs the input
    at node k is the value of interval k (and at the last node that of the last interval);
    node times computed in floating point must not fall into the previous interval."""
    ocp = jd.TrajectoryProblem(di, 2.0, intervals=N, t0=t0)
    ocp.initial({X: 0.0, V: 0.0})
    ocp.final({X: 1.0, V: 0.0})
    ocp.integral_cost(lambda v: v[F] ** 2)
    sol = ocp.solve(jd.Collocation(1))
    # round-off only (the values pass through a Lagrange basis of degree 0); the input of a
    # wrong interval would differ by a jump of the optimal force, 12·h ≥ 0.1 N here
    same = {"rtol": 1e-12, "atol": 1e-12 * np.abs(sol.U).max()}
    np.testing.assert_allclose(sol[F], np.r_[sol.U[0, :, 0], sol.U[0, -1, 0]], **same)
    np.testing.assert_allclose(sol.inputs_at(sol.t[:-1])[0], sol.U[0, :, 0], **same)


def _mistakes():
    """(id, action on a fresh minimum-energy problem, expected words of the message)."""
    return [
        ("bound not a number", lambda o: o.bound(X, "a", 1.0), "bound of 'cart.joint.s'"),
        ("bound NaN", lambda o: o.bound(X, np.nan, 1.0), "NaN; use ±np.inf"),
        ("bound on a parameter", lambda o: minimum_energy(double_integrator(["cart.body.m"]))
         .bound("cart.body.m", 0.0, 1.0),
         "'cart.body.m' is an output or a parameter"),
        ("condition not a number", lambda o: o.initial({X: "zero"}),
         "initial condition 'cart.joint.s': expected a finite number"),
        ("conditions not a dict", lambda o: o.final(1.0), "final: expected a dict"),
        ("path lower > upper", lambda o: o.path_constraint(lambda v: v[V], 1.0, 0.5, "vmax"),
         "path_constraint 'vmax': lower"),
        ("path not callable", lambda o: o.path_constraint(1.0), "expected a function of"),
        ("cost returns None", lambda o: o.integral_cost(lambda v: None) or o.solve(),
         "integral_cost: the callable returned NoneType"),
        ("float() of a symbol", lambda o: o.path_constraint(lambda v: float(v[V]), -1, 1,
                                                            "speed") or o.solve(),
         "path_constraint 'speed': the callable returned nan"),
        ("guess callable returns a list", lambda o: o.solve(guess={X: lambda t: [t, t]}),
         "guess for 'cart.joint.s': the callable must return a number"),
        ("guess not a number", lambda o: o.solve(guess={X: "a"}), "guess for 'cart.joint.s'"),
        ("guess NaN", lambda o: o.solve(guess={V: np.nan}),
         "initial guess is not finite .* cart.joint.v"),
        ("unknown IPOPT option", lambda o: o.solve(ipopt={"no_such_option": 1}),
         "No such IPOPT option: no_such_option"),
        ("negative tol", lambda o: o.solve(tol=-1.0), "solve: tol: must be > 0"),
        ("progress not a number", lambda o: o.solve(progress="yes"), "progress must be"),
        ("negative rtol", lambda o: jd.MultipleShooting(jd.Integrator.CVODES, rtol=-1.0),
         "MultipleShooting: rtol: must be in"),
    ]


@pytest.mark.parametrize("action, match", [m[1:] for m in _mistakes()],
                         ids=[m[0] for m in _mistakes()])
def test_user_mistakes_are_model_errors(di, action, match):
    """Each mistake is a jd.ModelError naming the variable and what to do, raised before IPOPT
    runs (not a bare TypeError, CasADi NotImplementedError or RuntimeError)."""
    with pytest.raises(jd.ModelError, match=match):
        action(minimum_energy(di, N=5))


@pytest.mark.parametrize("intervals", [None, "abc", 2.5, 0, np.nan, np.inf])
def test_intervals_must_be_a_positive_integer(di, intervals):
    with pytest.raises(jd.ModelError, match="intervals must be a positive integer"):
        jd.TrajectoryProblem(di, 1.0, intervals=intervals)


@pytest.mark.parametrize("horizon", [np.inf, None, "abc", (0, 1)])
def test_horizon_must_be_a_finite_positive_number(di, horizon):
    with pytest.raises(jd.ModelError, match="horizon"):
        jd.TrajectoryProblem(di, horizon)


def test_free_parameter_bounds_in_the_wrong_order():
    system = double_integrator(parameters=["cart.body.m"])
    with pytest.raises(jd.ModelError, match="lower \\(2.0\\) must not exceed upper \\(0.5\\)"):
        minimum_energy(system).free_parameter("cart.body.m", 2.0, 0.5)


def test_nan_in_a_path_constraint_is_reported_by_name(di):
    """Reference: log(s) is −inf at the initial condition s = 0: IPOPT stops with
    Invalid_Number_Detected, and the report names the constraint and node instead of
    suggesting more iterations."""
    ocp = minimum_energy(di, N=5)
    ocp.path_constraint(lambda v: ca.log(v[X]), -10.0, 10.0, name="log position")
    with pytest.raises(jd.OptimizationError) as err:
        ocp.solve()
    message = str(err.value)
    assert "Invalid_Number_Detected" in message
    assert "constraint log position, node 0 (value -inf)" in message
    assert "raise max_iter" not in message


def test_dae_system_is_refused_at_the_statement():
    from jourdain.blocks import World
    from jourdain.library import FourBar
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar()),
                        constraints=jd.ConstraintMethod.DAE)
    with pytest.raises(jd.ModelError, match="ConstraintMethod.DAE has no explicit"):
        jd.TrajectoryProblem(system, 1.0)


def test_baumgarte_four_bar_agrees_with_partitioning():
    """Reference: the other formulation and the constraint residual. The four-bar compiled with
    Baumgarte's method (all joint speeds are states) released at rest with only its crank
    angle given: the transcription assembles c(y0) = 0 and A(y0)·w0 = 0, and the crank motion
    agrees with the partitioned form's (measured: 2.4e-5 rad at N = 40, 6.7e-7 at N = 80)."""
    from jourdain.blocks import World
    from jourdain.library import FourBar

    def released(method):
        system = jd.compile(jd.Model.on_world(World(), fb=FourBar()), constraints=method)
        ocp = jd.TrajectoryProblem(system, 1.0, intervals=40)
        ocp.initial({"fb.crank.phi": 0.3, "fb.crank.w": 0.0})
        return system, ocp.solve(jd.Collocation(3),
                                 guess=dict(zip(system.y_names[1:], system.y_ref[1:])))

    system, baumgarte = released(jd.ConstraintMethod.BAUMGARTE)
    _, partitioned = released(jd.ConstraintMethod.PARTITIONING)
    y0, w0 = baumgarte.X[:3, 0], baumgarte.X[3:, 0]
    assert np.abs(np.array(system.c(y0, system.p_default))).max() < 1e-10
    assert np.abs(np.array(system.A(y0, system.p_default)) @ w0).max() < 1e-10
    np.testing.assert_allclose(baumgarte["fb.crank.phi"], partitioned["fb.crank.phi"],
                               atol=1e-4)


def test_radau_degree_one_is_backward_euler(di):
    """Reference: closed form of the backward-Euler problem (the discretization the benchmark
    compares with opty). With x_{k+1} = x_k + h·v_{k+1}, v_{k+1} = v_k + h·f_k and cost
    h·Σ f_k², rest to rest over d = 1 m: v_N = h·Σ f_k = 0 and x_N = h²·Σ f_k·(N − k) = d, whose
    least-norm solution is f = Aᵀ(AAᵀ)⁻¹b."""
    N, h = 20, 1.0 / 20
    k = np.arange(N)
    A = np.vstack([h * np.ones(N), h**2 * (N - k)])
    f = A.T @ np.linalg.solve(A @ A.T, np.array([0.0, 1.0]))
    sol = minimum_energy(di, N=N).solve(jd.Collocation(1, jd.Scheme.RADAU))
    assert sol.cost == pytest.approx(h * f @ f, rel=1e-9)
    np.testing.assert_allclose(sol.U[0, :, 0], f, atol=1e-7)


@pytest.mark.parametrize("transcription", [
    jd.Collocation(2, jd.Scheme.LEGENDRE, jd.Inputs.COLLOCATED),
    jd.MultipleShooting(jd.Integrator.RK4),
    jd.MultipleShooting(jd.Integrator.CVODES),
], ids=str)
def test_free_final_time_by_every_kind_of_transcription(di, transcription):
    """Reference: closed form, minimum-time rest-to-rest double integrator with |f| ≤ 1 N,
    T* = 2·√d = 2 s (d = 1 m, m = 1 kg), the same statement as in test_optimize; CVODES to its
    tolerance (measured 1.7e-7)."""
    sol = minimum_time(di, N=20).solve(transcription)
    adaptive = getattr(transcription, "integrator", None) is jd.Integrator.CVODES
    assert sol.T == pytest.approx(2.0, rel=1e-6 if adaptive else 1e-7)
    assert sol.check().max_open_loop < 1e-6


@pytest.mark.parametrize("transcription, order", [
    (jd.Collocation(1, jd.Scheme.RADAU), 2),
    (jd.Collocation(2, jd.Scheme.RADAU), 4),
    (jd.Collocation(3, jd.Scheme.RADAU), 6),
    (jd.Collocation(2, jd.Scheme.LEGENDRE), 5),
    (jd.MultipleShooting(jd.Integrator.RK4, steps=1), 5),
], ids=str)
def test_resimulation_deviation_is_the_transcriptions_own_error(transcription, order):
    """Reference: convergence order. Re-simulating the optimal cart-pole swing-up with CVODES,
    the deviation per interval (check().local) is the local error of the transcription's
    integration scheme, O(h^(p+1)) for a method of order p: Radau IIA with d points p = 2d − 1,
    Gauss–Legendre p = 2d, RK4 p = 4. Halving h (N = 40 → 80) divides it by 2^(p+1)
    (measured exponents 2.07, 4.07, 5.8, 5.02, 4.97)."""
    from ocp_problems import cartpole_swingup
    coarse, fine = (cartpole_swingup(N=N).solve(transcription).check().max_local
                    for N in (40, 80))
    assert np.log2(coarse / fine) == pytest.approx(order, abs=0.5)


def test_too_many_boundary_conditions_are_counted_in_the_report():
    """Reference: counting. A pendulum without inputs released at rest from 0.5 rad is fully
    determined; asking also for φ(1 s) = 0.1 rad adds one equality too many (measured: IPOPT
    reports infeasibility), and the report says so with the counts."""
    from jourdain.blocks import World
    from jourdain.library import Pendulum
    system = jd.compile(jd.Model.on_world(World(), p=Pendulum()))
    ocp = jd.TrajectoryProblem(system, 1.0, intervals=10)
    ocp.initial({"p.joint.phi": 0.5, "p.joint.w": 0.0})
    ocp.final({"p.joint.phi": 0.1})
    with pytest.raises(jd.OptimizationError, match="80 equality constraints for 79 free "
                                                   "variables"):
        ocp.solve()


@pytest.mark.parametrize("transcription", [
    jd.Collocation(2, jd.Scheme.LEGENDRE, jd.Inputs.COLLOCATED),
    jd.Collocation(3, jd.Scheme.RADAU, jd.Inputs.COLLOCATED),
], ids=str)
def test_collocated_inputs_respect_their_bounds_between_the_points(di, transcription):
    """Reference: closed form. No input within |f| ≤ 1 N moves 1 kg by 1 m rest to rest in
    less than T* = 2 s. With 21 intervals the switch at T/2 lies inside an interval; bounding
    only the collocation points let the input polynomial reach 1.73 N at the nodes and T fall
    to 1.99965 s, below the true minimum. The applied input must stay within its bounds and T
    must not beat T*."""
    sol = minimum_time(di, N=21).solve(transcription)
    applied = sol.inputs_at(np.linspace(0.0, sol.T, 4001))[0]
    assert np.abs(applied).max() <= 1.0 + 1e-6
    assert 2.0 - 1e-8 <= sol.T < 2.002
