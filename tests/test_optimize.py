"""Trajectory optimization: every transcription on problems with closed-form optima, agreement
between transcriptions, re-simulation of the optimal inputs, and named failure reports."""
from __future__ import annotations

import numpy as np
import pytest

import jourdain as jd
from ocp_problems import (CARTPOLE, F, V, X, cartpole_swingup, double_integrator,
                          minimum_energy, minimum_time, zero_order_hold_optimum)

PIECEWISE_CONSTANT = [
    jd.Collocation(3, jd.Scheme.RADAU),
    jd.Collocation(2, jd.Scheme.LEGENDRE),
    jd.MultipleShooting(jd.Integrator.RK4),
    jd.MultipleShooting(jd.Integrator.COLLOCATION, steps=2),
    jd.MultipleShooting(jd.Integrator.CVODES),
]
COLLOCATED = [
    jd.Collocation(2, jd.Scheme.RADAU, jd.Inputs.COLLOCATED),
    jd.Collocation(3, jd.Scheme.LEGENDRE, jd.Inputs.COLLOCATED),
]


@pytest.fixture(scope="module")
def di():
    return double_integrator()


@pytest.mark.parametrize("transcription", PIECEWISE_CONSTANT, ids=str)
def test_minimum_energy_piecewise_constant(di, transcription):
    """Reference: closed form of the zero-order-hold problem (least-norm solution of the two
    terminal conditions), which every transcription here integrates exactly (the states are
    polynomials of degree 2 in each interval) up to the CVODES tolerance; it equals
    12·N²/(N²−1), within O(1/N²) of the continuous optimum 12·d²/T³."""
    N = 20
    sol = minimum_energy(di, N=N).solve(transcription)
    exact = zero_order_hold_optimum(1.0, N)
    adaptive = getattr(transcription, "integrator", None) is jd.Integrator.CVODES
    tol = 1e-5 if adaptive else 1e-8
    assert sol.cost == pytest.approx(exact, rel=tol)
    assert exact == pytest.approx(12.0 * N**2 / (N**2 - 1), rel=1e-12)  # O(1/N²) above 12
    t = sol.t
    assert np.abs(sol[X] - (3 * t**2 - 2 * t**3)).max() < 1.0 / N**2


@pytest.mark.parametrize("transcription", COLLOCATED, ids=str)
def test_minimum_energy_collocated_inputs(di, transcription):
    """Reference: continuous closed form f = 6 − 12t, x = 3t² − 2t³, cost 12 (T = d = 1): the
    optimal input is linear, so collocated inputs of degree ≥ 1 represent it exactly."""
    sol = minimum_energy(di, N=10).solve(transcription)
    assert sol.cost == pytest.approx(12.0, rel=1e-8)
    t = np.linspace(0.0, 1.0, 41)
    np.testing.assert_allclose(sol.inputs_at(t)[0], 6 - 12 * t, atol=1e-6)
    np.testing.assert_allclose(sol[X], 3 * sol.t**2 - 2 * sol.t**3, atol=1e-8)


def test_transcriptions_agree_on_the_double_integrator(di):
    """Reference: agreement of the transcriptions with each other (same ZOH problem)."""
    sols = [minimum_energy(di, N=20).solve(tr) for tr in PIECEWISE_CONSTANT[:4]]
    for sol in sols[1:]:
        np.testing.assert_allclose(sol[X], sols[0][X], atol=1e-8)
        np.testing.assert_allclose(sol.U, sols[0].U, atol=1e-6)


def test_free_final_time_minimum_time(di):
    """Reference: minimum-time rest-to-rest double integrator with |f| ≤ 1 is bang-bang with
    the switch at T/2 and T* = 2·√d (d = 1 m, m = 1 kg)."""
    sol = minimum_time(di, N=20).solve(jd.Collocation(3))
    assert sol.T == pytest.approx(2.0, rel=1e-6)
    np.testing.assert_allclose(sol.U[0, :, 0], np.r_[np.ones(10), -np.ones(10)], atol=1e-5)


def test_free_parameter_mass():
    """Reference: for m·ẍ = f the minimum-energy cost is 12·m²·d²/T³, smallest at the lower
    bound of the mass, m = 0.5 kg → cost 3."""
    system = double_integrator(parameters=["cart.body.m"])
    ocp = minimum_energy(system, N=10)
    ocp.free_parameter("cart.body.m", 0.5, 2.0)
    sol = ocp.solve(jd.Collocation(2, jd.Scheme.RADAU, jd.Inputs.COLLOCATED))
    assert sol.free_parameters["cart.body.m"] == pytest.approx(0.5, abs=1e-6)
    assert sol.cost == pytest.approx(3.0, rel=1e-6)


def test_path_constraint_holds(di):
    """Reference: constraint residual. Capping the speed below the unconstrained peak 1.5 m/s
    keeps v ≤ 1.2 at every node and raises the cost above the unconstrained 12."""
    ocp = minimum_energy(di, N=30)
    ocp.path_constraint(lambda v: v[V], upper=1.2, name="speed limit")
    sol = ocp.solve(jd.Collocation(3, jd.Scheme.RADAU, jd.Inputs.COLLOCATED))
    assert sol[V].max() <= 1.2 + 1e-7
    assert sol.cost > 12.5


def test_cartpole_swingup_transcriptions_agree_and_resimulate():
    """Reference: agreement of two transcriptions (collocation and multiple shooting) on the
    same swing-up, and re-simulation of the optimal inputs with CVODES (local deviation per
    interval at the transcription's accuracy; open-loop deviation small over 2 s)."""
    ocp = cartpole_swingup(N=40)
    colloc = ocp.solve(jd.Collocation(3, jd.Scheme.RADAU))
    shoot = ocp.solve(jd.MultipleShooting(jd.Integrator.RK4, steps=4))
    assert colloc.cost == pytest.approx(shoot.cost, rel=1e-3)
    np.testing.assert_allclose(colloc["cartpole.hinge.phi"], shoot["cartpole.hinge.phi"],
                               atol=2e-3)
    for sol in (colloc, shoot):
        check = sol.check()
        assert check.max_local < 1e-5
        assert check.max_open_loop < 1e-3
        assert abs(sol["cartpole.hinge.phi"][-1]) < 1e-8


def test_warm_start_and_simulation_guess(di):
    """Reference: the same optimum (ZOH closed form) from a simulation guess, and a warm start
    from the optimum converging in a few iterations."""
    res = di.simulate(1.0, inputs={F: lambda t: 6 - 12 * t})
    ocp = minimum_energy(di, N=20)
    cold = ocp.solve(jd.Collocation(3), guess=res)
    warm = ocp.solve(jd.Collocation(3), guess=cold)
    assert cold.cost == pytest.approx(zero_order_hold_optimum(1.0, 20), rel=1e-8)
    assert warm.cost == pytest.approx(cold.cost, rel=1e-8)
    assert warm.stats["iterations"] <= 3


def test_infeasible_problem_names_the_culprits(di):
    """Reference: |f| ≤ 1 N cannot move 1 kg by 1 m rest to rest in 1 s (that needs
    |f| ≥ 4 N): the report names the violated dynamics and the active input bound."""
    ocp = minimum_energy(di, N=20)
    ocp.bound(F, -1.0, 1.0)
    with pytest.raises(jd.OptimizationError) as err:
        ocp.solve(jd.Collocation(3))
    message = str(err.value)
    assert "Infeasible" in message and "continuity cart.joint.s" in message
    assert "input cart.motor.f: on its bound" in message
    assert not err.value.solution.success


def test_contradictory_statement_is_a_model_error(di):
    ocp = minimum_energy(di)
    ocp.bound(X, -1.0, 0.5)
    with pytest.raises(jd.ModelError, match="final condition cart.joint.s = 1.0 lies outside"):
        ocp.solve()


@pytest.mark.parametrize("action, match", [
    (lambda ocp: ocp.bound("cart.joint.x", 0, 1), "unknown name .cart.joint.x.; did you mean"),
    (lambda ocp: ocp.initial({"cart.motor.f": 0}), "boundary conditions are given on states"),
    (lambda ocp: ocp.free_parameter("cart.body.m"), "parameters=\\[...\\]"),
    (lambda ocp: ocp.terminal_cost(lambda v: v[F]) or ocp.solve(), "terminal costs see"),
    (lambda ocp: ocp.integral_cost(lambda v: v["cart.joint.q"]) or ocp.solve(), "unknown name"),
    (lambda ocp: ocp.solve("collocation"), "must be a jd.Collocation or jd.MultipleShooting"),
])
def test_bad_names_are_model_errors(di, action, match):
    with pytest.raises(jd.ModelError, match=match):
        action(minimum_energy(di))


def test_cartpole_state_names():
    assert tuple(cartpole_swingup(N=2).system.x_names) == CARTPOLE


def test_cube_swingup_resimulates_within_limits():
    """Reference: re-simulation of the optimal motor torque with CVODES (the example
    examples/cube_swingup.py): the plan's own error per interval is at the transcription's
    accuracy, the limits hold, and the cube ends upright at rest."""
    import math

    from jourdain.blocks import World
    from jourdain.library import CubeOnEdge
    system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
    phi, psi, w_edge, w_wheel = system.x_names
    ocp = jd.TrajectoryProblem(system, jd.FreeTime(1.0, 0.05, 4.0), intervals=40)
    ocp.initial({phi: math.pi / 4, psi: 0.0, w_edge: 0.0, w_wheel: 0.0})
    ocp.final({phi: 0.0, w_edge: 0.0})
    ocp.bound("cube.motor.tau", -0.4, 0.4)
    ocp.bound(w_wheel, -150.0, 150.0)
    ocp.bound(phi, -math.pi / 4, math.pi / 4)
    ocp.terminal_cost(lambda v: v.T)
    ocp.integral_cost(lambda v: 1e-3 * v["cube.motor.tau"] ** 2)
    sol = ocp.solve(jd.Collocation(3))
    check = sol.check()
    assert check.max_local < 1e-6 and check.max_open_loop < 1e-4
    assert np.abs(sol["cube.motor.tau"]).max() <= 0.4 + 1e-7
    assert np.abs(sol[w_wheel]).max() <= 150.0 * (1 + 2e-8)  # IPOPT relaxes bounds by 1e-8
    assert abs(check.simulated[phi][-1]) < 1e-4 and abs(check.simulated[w_edge][-1]) < 1e-3


def test_progress_is_reported(di, capfd):
    """A long solve shows its progress: a header with the NLP size and IPOPT's iteration log."""
    minimum_energy(di, N=10).solve(jd.Collocation(2), progress=True)
    out = capfd.readouterr().out
    assert "10 intervals" in out and "iter" in out and "Solve_Succeeded" in out


@pytest.mark.parametrize("scheme", list(jd.Scheme))
@pytest.mark.parametrize("degree", [1, 2, 3, 4])
def test_collocation_coefficients(scheme, degree):
    """Reference: closed forms. The quadrature weights integrate τ^k over [0, 1] exactly
    (= 1/(k+1)) up to k = 2d−1 (Legendre) or 2d−2 (Radau); D reproduces polynomials of degree
    d at τ = 1 and C their derivatives at the collocation points."""
    tau, C, D, B = jd.Collocation(degree, scheme).coefficients()
    exact_to = 2 * degree - 1 if scheme is jd.Scheme.LEGENDRE else 2 * degree - 2
    for k in range(exact_to + 1):
        assert B @ tau**k == pytest.approx(1.0 / (k + 1), abs=1e-12)
    assert B[0] == pytest.approx(0.0, abs=1e-12)   # no weight on τ = 0, to the same round-off
    for k in range(degree + 1):
        assert D @ tau**k == pytest.approx(1.0, abs=1e-12)
        np.testing.assert_allclose(tau**k @ C, k * tau**max(k - 1, 0) * (k > 0), atol=1e-10)


def test_outputs_in_path_constraints_match_state_bounds():
    """Reference: the same constraint stated twice. A FrameSensor on the hinge frame measures
    r = (s, 0, 0), so the path constraint −1 ≤ r[0] ≤ 1 on the sensor output must give the same
    optimum as the bound −1 ≤ s ≤ 1 on the cart state."""
    from jourdain.blocks import FrameSensor, World
    from jourdain.library import CartPole

    class SensedCartPole(CartPole):
        def __init__(self):
            super().__init__()
            self.pivot = FrameSensor()
            self.connect(self.hinge.frame_b, self.pivot.frame_a)

    system = jd.compile(jd.Model.on_world(World(), cartpole=SensedCartPole()))
    assert "cartpole.pivot.r[0]" in system.output_names
    by_bound = cartpole_swingup(N=30, track=0.8).solve(jd.Collocation(3))
    ocp = cartpole_swingup(N=30, track=np.inf, system=system)
    ocp.path_constraint(lambda v: v["cartpole.pivot.r[0]"], -0.8, 0.8, name="track")
    by_output = ocp.solve(jd.Collocation(3))
    assert by_output.cost == pytest.approx(by_bound.cost, rel=1e-7)
    np.testing.assert_allclose(by_output["cartpole.slider.s"], by_bound["cartpole.slider.s"],
                               atol=1e-6)


def test_guess_from_named_tables(di):
    """Reference: ZOH closed form, reached from a guess given by name (a table for the
    position, a callable for the force)."""
    guess = {X: ([0.0, 1.0], [0.0, 1.0]), F: lambda t: 6 - 12 * t}
    sol = minimum_energy(di, N=20).solve(jd.Collocation(3), guess=guess)
    assert sol.cost == pytest.approx(zero_order_hold_optimum(1.0, 20), rel=1e-8)
    with pytest.raises(jd.ModelError, match="unknown name 'cart.x'"):
        minimum_energy(di).solve(guess={"cart.x": 0.0})


def test_readme_trajectory_example_runs(tmp_path, monkeypatch, capsys):
    """The README's trajectory-optimization example runs as written (reference: it reaches
    the cart-pole optimum of the same statement, 40 intervals, and re-simulates closely)."""
    import re
    from pathlib import Path
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    block = next(b for b in re.findall(r"```python\n(.*?)```", readme, flags=re.S)
                 if "TrajectoryProblem" in b)
    monkeypatch.chdir(tmp_path)
    scope = {}
    exec(compile(block, "README.md", "exec"), scope)
    assert "iterations" in capsys.readouterr().out
    reference = cartpole_swingup(N=40).solve(jd.Collocation(3, jd.Scheme.RADAU))
    assert scope["sol"].cost == pytest.approx(reference.cost, rel=1e-8)
    assert scope["check"].max_open_loop < 1e-3
    assert (tmp_path / "out" / "swingup.png").stat().st_size > 1000


@pytest.mark.parametrize("script, figure", [
    ("cartpole_swingup.py", "cartpole_swingup.png"),
    ("cube_swingup.py", "cube_swingup.png"),
    pytest.param("parking_optimal.py", "parking_optimal.png"),
])
def test_examples_run(script, figure, tmp_path, monkeypatch, capsys):
    """The examples run top to bottom, print their re-simulation check and write their
    figure (reference: the re-simulation deviation they print is small)."""
    import re
    import runpy
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "examples" / script
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(path), run_name="__main__")
    out = capsys.readouterr().out
    deviation = float(re.search(r"max deviation ([0-9.e+-]+) open loop", out).group(1))
    assert deviation < 1e-4
    assert (tmp_path / "out" / figure).stat().st_size > 1000
    balance = re.search(r"LQR from the top: phi \S+ → (\S+) rad, wheel \S+ → (\S+) rad/s", out)
    if script.startswith("cube"):  # the LQR takes over at the top and keeps the cube upright
        assert abs(float(balance.group(1))) < 1e-2 and abs(float(balance.group(2))) < 10.0


@pytest.mark.parametrize("transcription", [jd.Collocation(3), jd.MultipleShooting()], ids=str)
def test_free_parameter_pendulum_length_from_half_period(transcription):
    """Reference: closed form of the large-amplitude pendulum. A point-mass pendulum released
    at rest from θ0 = 0.5 rad comes to rest again at −θ0 after half a period,
    √(L/g)·2K(k), k = sin(θ0/2) (K: complete elliptic integral of the first kind). Asking
    for rest at t = 1 s with the length free (a system without inputs) must return
    L = g / (4K²). (Rest, not the angle −θ0, is the final condition: the angle is stationary
    at the turning point and would fix L only to the square root of the tolerance.)"""
    from scipy.special import ellipk

    from jourdain.blocks import World
    from jourdain.library import Pendulum
    system = jd.compile(jd.Model.on_world(World(), p=Pendulum()), parameters=["p.bob.r_cm"])
    ocp = jd.TrajectoryProblem(system, 1.0, intervals=20)
    ocp.initial({"p.joint.phi": 0.5, "p.joint.w": 0.0})
    ocp.final({"p.joint.w": 0.0})
    # L ≥ 0.5 m excludes L/4, for which t = 1 s is a full period, also ending at rest
    ocp.free_parameter("p.bob.r_cm[1]", -3.0, -0.5, guess=-1.0)
    sol = ocp.solve(transcription)
    length = 9.81 / (4.0 * ellipk(np.sin(0.25) ** 2) ** 2)
    assert -sol.free_parameters["p.bob.r_cm[1]"] == pytest.approx(length, rel=1e-6)
    assert sol["p.joint.phi"][-1] == pytest.approx(-0.5, abs=1e-6)


@pytest.mark.parametrize("make", [lambda inline: jd.Collocation(3, inline=inline),
                                  lambda inline: jd.MultipleShooting(inline=inline)])
def test_inlined_and_called_dynamics_agree(di, make):
    """Reference: the same NLP built with f inlined (SX) and with f called (MX) has the same
    optimum, the ZOH closed form."""
    sx = minimum_energy(di, N=10).solve(make(True))
    mx = minimum_energy(di, N=10).solve(make(False))
    exact = zero_order_hold_optimum(1.0, 10)
    assert sx.cost == pytest.approx(exact, rel=1e-8) and mx.cost == pytest.approx(exact, rel=1e-8)
    np.testing.assert_allclose(mx.X, sx.X, atol=1e-8)


def test_nonholonomic_vehicle_moves_sideways():
    """Reference: re-simulation and constraint residuals. The differential drive (constrained
    System in minimal form, ẏ = G(y)·z) cannot move sideways directly; the optimizer finds a
    manoeuvre that ends 0.3 m to the side at rest, and its re-simulated trajectory reproduces
    the plan with the no-slip residuals at round-off."""
    from jourdain.blocks import World
    from jourdain.library import DifferentialDrive
    system = jd.compile(jd.Model.on_world(World(), car=DifferentialDrive()))
    ocp = jd.TrajectoryProblem(system, 4.0, intervals=30)
    rest = {name: 0.0 for name in system.z_names}
    ocp.initial({"car.x_s.s": 0.0, "car.y_s.s": 0.0, "car.heading.phi": 0.0,
                 "car.left.phi": 0.0, "car.right.phi": 0.0, **rest})
    ocp.final({"car.x_s.s": 0.0, "car.y_s.s": 0.3, "car.heading.phi": 0.0, **rest})
    taus = ("car.motor_left.tau", "car.motor_right.tau")
    ocp.integral_cost(lambda v: v[taus[0]] ** 2 + v[taus[1]] ** 2)
    turn = {"car.heading.phi": lambda t: np.sin(np.pi * t / 4.0),
            "car.left.w": lambda t: 2 * np.sin(np.pi * t / 4.0),
            "car.right.w": lambda t: 2 * np.sin(np.pi * t / 4.0)}
    sol = ocp.solve(jd.Collocation(3), guess=turn)
    check = sol.check()
    assert check.max_local < 1e-7 and check.max_open_loop < 1e-6
    assert check.simulated["car.y_s.s"][-1] == pytest.approx(0.3, abs=1e-6)
    residuals = [v for k, v in check.simulated.series.items() if k.startswith("residual")]
    assert residuals and max(np.abs(r).max() for r in residuals) < 1e-8


def test_closed_loop_starts_assembled_and_conserves_energy():
    """Reference: constraint residual and conservation law. A four-bar (closed loop, compiled
    by partitioning) is released at rest with only its crank angle given: the transcription
    must assemble the dependent coordinates at t0 (closure c(y0) = 0, which the motion then
    keeps), and with no inputs and no friction the planned motion conserves energy and agrees
    with the CVODES re-simulation."""
    from jourdain.blocks import World
    from jourdain.library import FourBar
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar()))
    # the crank whips through 15 rad/s near the coupler's stretched position: 80 intervals
    # keep Radau's error (order 5, measured: energy drift 1.8e-4, 3.8e-6, 1.1e-7 at N = 40, 80,
    # 160) below the tolerances here
    ocp = jd.TrajectoryProblem(system, 1.0, intervals=80)
    ocp.initial({"fb.crank.phi": 0.3, "fb.crank.w": 0.0})
    near_reference = dict(zip(system.y_names[1:], system.y_ref[1:]))  # the same assembly mode
    sol = ocp.solve(jd.Collocation(3), guess=near_reference)
    closure = np.array(system.c(sol.X[:3, 0], system.p_default)).ravel()
    assert np.abs(closure).max() < 1e-10
    residuals = [v for k, v in sol.trajectory.series.items() if k.startswith("residual")]
    assert max(np.abs(r).max() for r in residuals) < 1e-8
    assert np.ptp(sol["energy.total"]) < 1e-5
    check = sol.check()
    assert check.max_local < 5e-5 and check.max_open_loop < 5e-5


def test_terminal_cost_on_a_sensor_output_equals_the_state_form():
    """Reference: the same terminal penalty stated twice. A PositionSensor on the slider axis
    outputs s, so 100·(s_sensor(T) − 1)² must give the optimum of 100·(x(T) − 1)²; an output
    that depends on the input (a Gain of the force) is refused by name at t_f."""
    from jourdain.blocks import PositionSensor, World

    from ocp_problems import Slider

    class SensedSlider(Slider):
        def __init__(self):
            super().__init__()
            self.sensor = PositionSensor()
            self.connect(self.sensor.flange, self.joint.axis)

    system = jd.compile(jd.Model.on_world(World(), cart=SensedSlider()))

    def solve(terminal):
        ocp = jd.TrajectoryProblem(system, 1.0, intervals=20)
        ocp.initial({"cart.joint.s": 0.0, "cart.joint.v": 0.0})
        ocp.integral_cost(lambda v: v["cart.motor.f"] ** 2)
        ocp.terminal_cost(terminal)
        return ocp.solve(jd.Collocation(3))

    by_state = solve(lambda v: 100 * (v["cart.joint.s"] - 1) ** 2)
    by_output = solve(lambda v: 100 * (v["cart.sensor.s"] - 1) ** 2)
    assert by_output.cost == pytest.approx(by_state.cost, rel=1e-9)
    assert 0.5 < by_state["cart.joint.s"][-1] < 1.0
    with pytest.raises(jd.ModelError, match="'cart.motor.f' \\(an input, or an output that "
                                            "depends on the inputs\\) is not defined here"):
        solve(lambda v: v["cart.motor.f"] ** 2)
