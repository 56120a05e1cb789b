"""Sweeps, Monte Carlo and parameter estimation (issue 17).

References: the serial loop for the parallel and Dask runs (same runs, same numbers); the
closed form of the linear spring–damper m·ẍ + d·ẋ + c·x = 0 (free response, eigenvalues);
scipy's curve_fit on that closed form (an established least-squares peer) for the fitted
values and their Gauss–Newton standard errors; the binomial distribution for the coverage
of confidence intervals over repeated noisy experiments; the minimum-energy transfer of a
double integrator (cost 12·m²·L²/T³) for a sweep of trajectory optimizations.
"""
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (
    LinearMotor,
    Prismatic,
    RigidBody,
    TranslationalSpring,
    ViscousFriction,
    World,
)
from jourdain.library import NLinkPendulum

X, V = "slider.s", "slider.v"


def spring_damper(c=4.0, d=0.4, m=1.0, motor=False):
    """A mass on a horizontal slider with a spring and a damper (no gravity along x)."""
    model = jd.Model(world=World(g=(0, 0, 0)))
    model.slider = Prismatic(axis=(1, 0, 0))
    model.mass = RigidBody(m=m)
    model.spring = TranslationalSpring(c=c)
    model.damper = ViscousFriction(d=d)
    model.connect(model.world.frame_b, model.slider.frame_a)
    model.connect(model.slider.frame_b, model.mass.frame_a)
    model.connect(model.spring.flange_b, model.slider.axis)
    model.connect(model.damper.flange_b, model.slider.axis)
    if motor:
        model.motor = LinearMotor()
        model.connect(model.motor.flange_b, model.slider.axis)
    return model


def free_response(t, c, d, m=1.0, x0=1.0):
    """x(t) of m·ẍ + d·ẋ + c·x = 0 from x0 at rest (underdamped)."""
    wn = np.sqrt(c / m)
    zeta = d / (2 * np.sqrt(c * m))
    wd = wn * np.sqrt(1 - zeta**2)
    return x0 * np.exp(-zeta * wn * t) * (np.cos(wd * t) + zeta * wn / wd * np.sin(wd * t))


@pytest.fixture(scope="module")
def oscillator():
    return jd.compile(spring_damper(), parameters=["spring.c", "damper.d", "mass.m"])


@pytest.fixture(scope="module")
def chain():
    """A 3-link chain with a symbolic link mass, compiled to C (its library must travel)."""
    system = jd.compile(jd.Model.on_world(World(), chain=NLinkPendulum(3)),
                        parameters=["chain.link1.m"])
    return system.codegen()


# ---- sweeps --------------------------------------------------------------------------------
def test_grid_sweep_matches_the_closed_form(oscillator):
    """Every combination of a 3 × 2 grid runs once; each final position is the closed-form
    free response (CVODES at rtol 1e-10)."""
    table = jd.sweep(oscillator, params={"spring.c": [1.0, 4.0, 9.0], "damper.d": [0.1, 0.5]},
                     y0={X: 1.0}, t_end=3.0, options={"rtol": 1e-10, "atol": 1e-10},
                     workers=1, progress=False)
    assert len(table) == 6 and set(table["status"]) == {"ok"}
    assert list(table.columns[:4]) == ["run", f"{X}.initial", "spring.c", "damper.d"]
    expected = [free_response(3.0, c, d) for c, d in zip(table["spring.c"], table["damper.d"])]
    np.testing.assert_allclose(table[f"{X}.final"], expected, atol=1e-8)


def test_monte_carlo_is_reproducible_and_parallel_equals_serial(oscillator):
    """Draws come from one seeded generator in the calling process: the same seed gives the
    same runs; local worker processes give the serial loop's numbers (same CVODES runs)."""
    spec = dict(params={"spring.c": jd.Uniform(2.0, 6.0), "damper.d": jd.Normal(0.4, 0.05)},
                y0={X: [0.5, 1.0]}, t_end=2.0, samples=5, seed=7, progress=False)
    serial = jd.sweep(oscillator, workers=1, **spec)
    parallel = jd.sweep(oscillator, workers=2, **spec)
    assert len(serial) == 10 and parallel.attrs["backend"].startswith("processes")
    assert serial["spring.c"].between(2.0, 6.0).all()
    np.testing.assert_allclose(parallel["spring.c"], serial["spring.c"], rtol=0, atol=0)
    cols = [f"{X}.final", f"{V}.final"]
    np.testing.assert_allclose(parallel[cols].to_numpy(), serial[cols].to_numpy(),
                               rtol=1e-14, atol=1e-14)
    again = jd.sweep(oscillator, workers=1, **spec)
    np.testing.assert_allclose(again[cols].to_numpy(), serial[cols].to_numpy(), rtol=1e-14)


def test_failed_runs_are_reported_with_their_parameters(oscillator):
    """A negative mass fails that run (the component's own check, named) and the study goes
    on; the row keeps the parameter value and the error."""
    with pytest.warns(RuntimeWarning, match="1 of 3 runs failed"):
        table = jd.sweep(oscillator, params={"mass.m": [1.0, -2.0, 3.0]}, y0={X: 1.0},
                         t_end=1.0, workers=2, progress=False)
    failed = table[table["status"] == "failed"]
    assert list(failed["mass.m"]) == [-2.0]
    assert "mass" in failed["error"].iloc[0] and "ModelError" in failed["error"].iloc[0]
    assert (table[table["status"] == "ok"][f"{X}.final"].notna()).all()


def test_series_give_a_long_table(oscillator):
    """series=[...] keeps time series: one row per run and output time (tidy long table)."""
    table = jd.sweep(oscillator, params={"spring.c": [1.0, 4.0]}, y0={X: 1.0}, t_end=1.0,
                     series=[X], options={"n_out": 11}, workers=1, progress=False)
    assert len(table) == 22 and set(table.groupby("run").size()) == {11}
    row = table[(table["spring.c"] == 4.0)]
    np.testing.assert_allclose(row[X], free_response(row["t"].to_numpy(), 4.0, 0.4),
                               atol=1e-6)


def test_sweep_checks_names_and_options_before_any_run(oscillator):
    """Issue 30: an unknown metric or series name or rtol < 0 made every run fail with only
    a warning. They are refused before any run, by name, with the closest names. Reference:
    a task function counts the runs it is given: zero after each refusal, and the names
    of the simulation's series (states, energies) are accepted and equal the Result's."""
    calls = []
    grid = {"spring.c": [1.0, 4.0]}
    for kwargs, words in (({"metrics": ["slider.ss"]}, ["metrics", "slider.ss", "slider.s"]),
                          ({"series": ["slider.vv"]}, ["series", "slider.vv", "slider.v"]),
                          ({"options": {"rtol": -1e-6}}, ["options", "rtol"])):
        with pytest.raises(jd.ModelError) as caught:
            jd.sweep(oscillator, params=grid, y0={X: 1.0}, t_end=1.0, workers=1,
                     progress=False, **kwargs)
        assert all(w in str(caught.value) for w in words), str(caught.value)
    with pytest.raises(jd.ModelError, match="metrics"):
        jd.sweep(oscillator, params=grid, task=lambda system, run: calls.append(run) or 1.0,
                 metrics=["slider.s"], workers=1, progress=False)
    assert calls == []
    table = jd.sweep(oscillator, params=grid, y0={X: 1.0}, t_end=1.0, workers=1,
                     progress=False, metrics=["energy.total", V])
    reference = oscillator.simulate(1.0, y0={X: 1.0}, params={"spring.c": 4.0})
    assert set(table["status"]) == {"ok"}
    assert table["energy.total.final"].iloc[1] == pytest.approx(
        reference["energy.total"][-1], rel=1e-9)


def test_linearization_sweep_gives_the_closed_form_eigenvalues(oscillator):
    """task=jd.Task.LINEARIZE: the eigenvalues of m·ẍ + d·ẋ + c·x are
    (−d ± √(d² − 4·m·c))/(2·m)."""
    table = jd.sweep(oscillator, params={"spring.c": [1.0, 9.0], "mass.m": [1.0, 2.0]},
                     task=jd.Task.LINEARIZE, workers=1, progress=False)
    for _, row in table.iterrows():
        c, m, d = row["spring.c"], row["mass.m"], 0.4
        roots = np.roots([m, d, c])
        got = np.array([row["eigenvalue[0]"], row["eigenvalue[1]"]])
        np.testing.assert_allclose(np.sort_complex(got), np.sort_complex(roots), atol=1e-10)
        assert row["stable"]


def test_sweep_of_optimizations():
    """A function task solves a trajectory problem per run: moving a mass m by 1 m in 1 s
    at rest to rest with least ∫F² dt costs 12·m² (double integrator, collocated inputs
    represent the optimal linear force exactly)."""
    system = jd.compile(spring_damper(c=0.0, d=0.0, motor=True), parameters=["mass.m"])

    def transfer(system, run):
        ocp = jd.TrajectoryProblem(system, horizon=1.0, intervals=10, params=run.params)
        ocp.initial({X: 0.0, V: 0.0})
        ocp.final({X: 1.0, V: 0.0})
        ocp.integral_cost(lambda v: v["motor.f"] ** 2)
        sol = ocp.solve(jd.Collocation(3, inputs=jd.Inputs.COLLOCATED))
        return {"cost": sol.cost}

    table = jd.sweep(system, params={"mass.m": [0.5, 1.0, 2.0]}, task=transfer, workers=2,
                     progress=False)
    np.testing.assert_allclose(table["cost"], 12 * table["mass.m"] ** 2, rtol=1e-7)


def test_sweep_on_a_local_dask_cluster_equals_the_serial_loop(chain):
    """The same Monte Carlo study of a C-compiled chain on a real dask.distributed
    LocalCluster (2 worker processes): the library travels with the pickled System, and the
    numbers equal the serial loop's."""
    distributed = pytest.importorskip("dask.distributed")
    spec = dict(params={"chain.link1.m": jd.Uniform(0.5, 1.5)},
                y0={"chain.joint1.phi": [0.2, 0.4]}, t_end=1.0, samples=6, seed=3,
                progress=False)
    serial = jd.sweep(chain, workers=1, **spec)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = jd.sweep(chain, client=client, **spec)
        libraries = client.run(lambda: __import__("jourdain").solver.simulation.portable
                               ._LOADED.copy())
    assert remote.attrs["backend"] == "dask" and set(remote["status"]) == {"ok"}
    assert all(len(loaded) == 1 for loaded in libraries.values())   # C code on every worker
    cols = [c for c in serial.columns if c.endswith(".final")]
    np.testing.assert_allclose(remote[cols].to_numpy(), serial[cols].to_numpy(),
                               rtol=1e-13, atol=1e-13)


def test_compiled_system_pickles_with_its_library(chain, tmp_path):
    """A codegen'd System unpickled in a fresh process with an empty cache writes its
    library there from the shipped bytes; with corrupt bytes it rebuilds the library from
    f. Reference: the original System's simulation."""
    reference = chain.simulate(1.0, y0={"chain.joint1.phi": 0.3}, n_out=3).x[:, -1]
    good = pickle.dumps(chain)
    state = chain.__getstate__()
    name, _ = state["shipped_library"]
    state["shipped_library"] = (name, b"not a library")
    bad_system = object.__new__(type(chain))
    bad_system.__dict__.update({k: v for k, v in chain.__dict__.items()})
    bad_system.__getstate__ = lambda: state
    bad = pickle.dumps(bad_system)
    script = ("import pickle, sys, numpy as np\n"
              "s = pickle.loads(sys.stdin.buffer.read())\n"
              "x = s.simulate(1.0, y0={'chain.joint1.phi': 0.3}, n_out=3).x[:, -1]\n"
              "print(s.library is not None, *x)\n")
    for blob, cache in ((good, tmp_path / "a"), (bad, tmp_path / "b")):
        out = subprocess.run([sys.executable, "-c", script], input=blob, capture_output=True,
                             env={**os.environ, "JOURDAIN_CACHE": str(cache)}, check=True)
        words = out.stdout.decode().split()
        assert words[0] == "True", out.stderr.decode()[-2000:]
        np.testing.assert_allclose(np.array(words[1:], float), reference, rtol=1e-12)
        assert (cache / name).is_file()


# ---- estimation ----------------------------------------------------------------------------
T_DATA = np.linspace(0.0, 10.0, 101)
C_TRUE, D_TRUE, NOISE = 4.0, 0.4, 0.02


def _experiment(rng):
    return {"t": T_DATA, X: free_response(T_DATA, C_TRUE, D_TRUE) +
            NOISE * rng.normal(size=T_DATA.size)}


@pytest.fixture(scope="module")
def first_fit(oscillator):
    data = _experiment(np.random.default_rng(0))
    return data, jd.estimate(oscillator, data, parameters=["spring.c", "damper.d"],
                             y0={X: 1.0}, guess={"spring.c": 3.0, "damper.d": 0.2},
                             bounds={"spring.c": (0.1, 100.0), "damper.d": (0.0, 10.0)})


def test_estimate_recovers_the_spring_damper(first_fit):
    """The fit on 101 noisy samples of the closed-form response contains the true values in
    its 95 % intervals and agrees with scipy's curve_fit on the closed form: values to
    1e-5 relative, Gauss–Newton standard errors to 2 % (the transcription's error is far
    below the noise)."""
    from scipy.optimize import curve_fit

    data, est = first_fit
    assert est.success and est.dof == 99
    for name, truth in (("spring.c", C_TRUE), ("damper.d", D_TRUE)):
        lo, hi = est.intervals[name]
        assert lo <= truth <= hi
    popt, pcov = curve_fit(lambda t, c, d: free_response(t, c, d), T_DATA, data[X],
                           p0=[3.0, 0.2])
    np.testing.assert_allclose([est.values["spring.c"], est.values["damper.d"]], popt,
                               rtol=1e-5)
    np.testing.assert_allclose([est.std["spring.c"], est.std["damper.d"]],
                               np.sqrt(np.diag(pcov)), rtol=0.02)
    assert est.sigma == pytest.approx(NOISE, rel=0.2)


def test_interval_coverage_over_100_experiments(first_fit):
    """Over 100 noisy repetitions (fixed seeds) the 95 % intervals contain the truth 88 to
    100 times for each parameter: under exact coverage the count is Binomial(100, 0.95),
    and P(count ≤ 87) ≈ 0.1 %, so a count below 88 means the intervals are too narrow."""
    _, est = first_fit
    rng = np.random.default_rng(2024)
    hits = {"spring.c": 0, "damper.d": 0}
    truth = {"spring.c": C_TRUE, "damper.d": D_TRUE}
    for _ in range(100):
        fit = est.refit(_experiment(rng))
        assert fit.success
        for name in hits:
            lo, hi = fit.intervals[name]
            hits[name] += lo <= truth[name] <= hi
    assert all(88 <= h <= 100 for h in hits.values()), hits


def test_estimate_by_multiple_shooting_and_with_the_initial_state(oscillator, first_fit):
    """Multiple shooting (RK4) solves the same least-squares problem: its parameters equal
    the collocation fit's within a twentieth of their standard errors (both transcriptions
    integrate far below the noise). Fitting the initial position too puts x0 = 1 m and the
    true parameters inside their intervals."""
    data, est = first_fit
    common = dict(parameters=["spring.c", "damper.d"], guess={"spring.c": 3.0,
                                                               "damper.d": 0.2})
    shot = jd.estimate(oscillator, data, y0={X: 1.0}, transcription=jd.MultipleShooting(),
                       **common)
    for name in ("spring.c", "damper.d"):
        assert abs(shot.values[name] - est.values[name]) < 0.05 * est.std[name]
    free = jd.estimate(oscillator, data, initial_states=[X], **common)
    for name, truth in ((X, 1.0), ("spring.c", C_TRUE), ("damper.d", D_TRUE)):
        lo, hi = free.intervals[name]
        assert lo <= truth <= hi
    assert free.std[X] > 0 and free.dof == 98
    assert set(free.table().columns) == {"value", "std", "lower", "upper"}


def _with_idle_slider():
    """The spring–damper beside a second slider (its own spring, at rest at 0) that nothing
    measured sees."""
    from jourdain.blocks import Prismatic, RigidBody, TranslationalSpring

    model = spring_damper()
    model.idle = Prismatic(axis=(0, 1, 0))
    model.idle_mass = RigidBody(m=1.0)
    model.idle_spring = TranslationalSpring(c=2.0)
    model.connect(model.world.frame_b, model.idle.frame_a)
    model.connect(model.idle.frame_b, model.idle_mass.frame_a)
    model.connect(model.idle_spring.flange_b, model.idle.axis)
    return jd.compile(model, parameters=["spring.c", "damper.d", "mass.m", "idle_spring.c"])


def test_estimate_refuses_an_interval_for_a_parameter_without_information(first_fit):
    """Issue 30: a parameter that does not act on the measured signal got std 0 and a
    zero-width interval. Reference: the idle slider's spring is decoupled from slider.s and
    its slider rests at 0, so the sensitivity of every residual to idle_spring.c is exactly
    zero: the rank is 2 of 3, the null direction is idle_spring.c alone, its std is inf and
    its interval NaN, with an UnidentifiableWarning naming it. The identifiable part is the
    fit without it: spring.c and damper.d, their standard errors and σ equal the two-parameter
    fit on the same data (first_fit) to 1e-6, with the same 99 degrees of freedom."""
    data, est = first_fit
    assert est.rank == 2 and est.unidentifiable == [] and est.null_directions == []
    assert all(np.isfinite(est.std[n]) and est.std[n] > 0 for n in est.names)
    with pytest.warns(jd.UnidentifiableWarning, match="idle_spring.c"):
        idle = jd.estimate(_with_idle_slider(), data, y0={X: 1.0},
                           parameters=["spring.c", "damper.d", "idle_spring.c"],
                           guess={"spring.c": 3.0, "damper.d": 0.2})
    assert idle.rank == 2 and idle.unidentifiable == ["idle_spring.c"] and idle.dof == 99
    assert list(idle.null_directions[0]) == ["idle_spring.c"]
    assert idle.std["idle_spring.c"] == np.inf
    assert all(np.isnan(v) for v in idle.intervals["idle_spring.c"])
    assert "not identifiable" in str(idle)
    for name in ("spring.c", "damper.d"):
        assert idle.values[name] == pytest.approx(est.values[name], rel=1e-6)
        assert idle.std[name] == pytest.approx(est.std[name], rel=1e-6)
    assert idle.sigma == pytest.approx(est.sigma, rel=1e-6)


def test_estimate_names_a_combination_the_data_cannot_separate(first_fit):
    """Released from rest, m·ẍ + d·ẋ + c·x = 0 depends on c/m and d/m only (closed form), so
    the data cannot tell (c, d, m) from α·(c, d, m): the sensitivity has rank 2 of 3 and its
    null direction at the fit θ̂ is θ̂ itself (to 1e-6 of the largest component), and no
    name of the three gets an interval."""
    data, _ = first_fit
    with pytest.warns(jd.UnidentifiableWarning, match="mass.m"):
        est = jd.estimate(_with_idle_slider(), data, y0={X: 1.0},
                          parameters=["spring.c", "damper.d", "mass.m"],
                          guess={"spring.c": 3.0, "damper.d": 0.2, "mass.m": 0.8})
    names = ["spring.c", "damper.d", "mass.m"]
    assert est.rank == 2 and est.unidentifiable == names
    direction = est.null_directions[0]
    theta = np.array([est.values[n] for n in names])
    np.testing.assert_allclose([direction[n] for n in names], theta / theta[0], atol=1e-6)
    assert all(est.std[n] == np.inf for n in names)


def test_readme_studies_example_runs(capsys):
    """The block on controllers and sweeps that opens docs/studies.md (the README's until it
    became a short guide) runs as written. Reference: with ±20 %
    housing mass and the torque limited to 0.1 N·m the LQR still balances the cube from
    0.05 and 0.1 rad (every final tilt far below the initial one)."""
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "studies.md").read_text()
    block = next(b for b in re.findall(r"```python\n(.*?)```", page, flags=re.S)
                 if "jd.sweep" in b)
    scope = {}
    exec(compile(block, "docs/studies.md", "exec"), scope)
    table = scope["table"]
    assert len(table) == 20 and set(table["status"]) == {"ok"}
    assert np.abs(table["cube.edge.phi.final"]).max() < 1e-2
    assert "cube.edge.phi.final" in capsys.readouterr().out


def test_constrained_system_pickles_and_sweeps():
    """A closed loop (the four-bar, partitioning: a Newton projection inside f) pickles and
    sweeps on worker processes; reference: the same simulations in this process."""
    from jourdain.library import FourBar

    system = jd.compile(jd.Model.on_world(World(), fb=FourBar()))
    copy = pickle.loads(pickle.dumps(system))
    here = system.simulate(1.0, y0={"fb.crank.phi": 0.3}, n_out=3)
    there = copy.simulate(1.0, y0={"fb.crank.phi": 0.3}, n_out=3)
    np.testing.assert_allclose(there.x, here.x, rtol=1e-13, atol=1e-13)
    table = jd.sweep(system, y0={"fb.crank.phi": [0.3, 0.6]}, t_end=1.0, workers=2,
                     progress=False)
    expected = system.simulate(1.0, y0={"fb.crank.phi": 0.6}, n_out=501).final()
    assert table["fb.crank.phi.final"].iloc[1] == pytest.approx(expected["fb.crank.phi"],
                                                                abs=1e-12)
    with pytest.raises(jd.ModelError, match="integrability"):
        copy.integrability
