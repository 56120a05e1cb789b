"""The problem statements of benchmarks/ocp_vs_crocoddyl.py (double-pendulum swing-up with
torque limits, UR5 point to point with the URDF's joint, speed and torque limits) on a small
grid, and the size rule of the knot library's gcc level (solver/optimal/knots.py).

References: agreement of two solvers on the same NLP (IPOPT and fatrop reach the same
optimum); the stated limits (every bound holds at the optimum to the solver's tolerance);
the stated goal (the terminal cost of weight 1e3 brings the final state near it); for the
crocoddyl side, when an interpreter with crocoddyl is at hand, crocoddyl 3.2.1 itself
(its optimal nodes are RK4 steps of jourdain's model, and its cost of jourdain's plan is
jourdain's cost); two compilations of one knot library (gcc -O1 and -O0: the same optimum).
"""
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import jourdain as jd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))     # the benchmarks/ package
from benchmarks import ocp_vs_crocoddyl as bench  # noqa: E402
from benchmarks.peers.ocp_statements import PROBLEMS  # noqa: E402

SMALL = {"double pendulum": {"N": 40, "dt": 0.05}, "UR5 point to point": {"N": 8, "dt": 0.125}}
# the UR5's exact Hessian expanded in SX takes seconds to build: its dynamics stay called (MX)
INLINE = {"double pendulum": None, "UR5 point to point": False}


def _solve(problem: str, **options):
    spec = {**PROBLEMS[problem], **SMALL[problem]}
    arm, system, _ = bench.robot(spec)
    rk4 = jd.MultipleShooting(jd.Integrator.RK4, steps=1, inline=INLINE[problem])
    sol = bench.statement(arm, system, spec).solve(rk4, tol=1e-8, **options)
    return spec, arm, system, sol


@pytest.mark.parametrize("problem", list(SMALL))
def test_statement_ipopt_and_fatrop_agree_within_the_limits(problem):
    """Reference: IPOPT and fatrop on the same NLP reach the same optimum (cost to 1e-6,
    states to 1e-4); every bound of the statement holds (torque limits, and the URDF's joint
    and speed limits for the UR5) to 1e-6 of its scale; the final state is within 0.05 of the
    goal (terminal weight 1e3 against running weights ≤ 0.1)."""
    spec, arm, system, ipopt = _solve(problem)
    _, _, _, fatrop = _solve(problem, solver="fatrop")
    assert fatrop.cost == pytest.approx(ipopt.cost, rel=1e-6)
    np.testing.assert_allclose(fatrop.X, ipopt.X, atol=1e-4)
    bounds = bench.limits(arm, system, spec)
    assert any(n.endswith(".tau") for n in bounds)
    if spec["joint_limits"]:
        assert any(n.endswith(".phi") for n in bounds) and any(n.endswith(".w") for n in bounds)
    scale = max(max(abs(lo), abs(hi)) for lo, hi in bounds.values())
    assert bench.limit_violation(system, ipopt, bounds) <= 1e-6 * scale
    xn, _ = bench.names(arm, spec)
    final = np.array([ipopt[n][-1] for n in xn])
    np.testing.assert_allclose(final, spec["x_goal"], atol=0.05)


def test_the_swing_up_uses_its_torque_limit():
    """Reference: the statement's premise — 0.6 N·m is below the static torque that holds the
    pendulum sideways (0.69 N·m), so the optimal swing-up saturates the limit somewhere."""
    spec, arm, system, sol = _solve("double pendulum")
    _, un = bench.names(arm, spec)
    peak = max(np.max(np.abs(sol[n])) for n in un)
    assert peak == pytest.approx(spec["torque_limit"][0], rel=1e-4)


@pytest.mark.slow
def test_ur5_speed_limit_holds_when_it_binds(monkeypatch):
    """Reference: the statement's bounds are enforced, not only met by chance — with the
    shoulder-pan speed limit of the URDF replaced by 1.7 rad/s (the 1.5 rad pan move in
    1 s needs more at its peak), the plan's peak pan speed lies on that limit to 1e-6."""
    real = bench.limits

    def tighter(arm, system, spec):
        out = real(arm, system, spec)
        out["arm.shoulder_pan_joint.w"] = (-1.7, 1.7)
        return out
    monkeypatch.setattr(bench, "limits", tighter)
    _, _, _, sol = _solve("UR5 point to point", hessian="gauss-newton")
    assert np.max(np.abs(sol["arm.shoulder_pan_joint.w"])) == pytest.approx(1.7, abs=1e-6)


def _crocoddyl_python():
    python = bench.crocoddyl_python()
    ok = subprocess.run([python, "-c", "import crocoddyl"], capture_output=True).returncode == 0
    if not ok:
        pytest.skip("no crocoddyl: set CROCODDYL_PYTHON to an interpreter with crocoddyl "
                    "3.2.1 and pin 4.0.0 (make bench-ocp makes .venv-crocoddyl)")
    return python


@pytest.mark.slow
@pytest.mark.parametrize("problem", list(SMALL))
def test_crocoddyl_states_the_same_problem(problem, monkeypatch):
    """Reference: crocoddyl 3.2.1 (benchmarks/peers/crocoddyl_ocp.py): one RK4 step of
    jourdain's model from each of crocoddyl's optimal nodes gives its next node to 1e-9 (the
    same dynamics), and crocoddyl's cost of jourdain's optimal plan is jourdain's cost to
    1e-8 (the same costs)."""
    monkeypatch.setenv("CROCODDYL_PYTHON", _crocoddyl_python())
    spec, arm, system, sol = _solve(problem)
    dt = ("--dt", str(spec["dt"]))                    # the small grid on crocoddyl's side
    croc = bench.crocoddyl_row(problem, spec["N"], 1, *dt)
    assert "us" in croc, croc
    assert bench.same_dynamics(arm, system, spec, croc) < 1e-9
    cost = bench.crocoddyl_cost(problem, spec["N"], bench.plan(arm, system, spec, sol), *dt)
    assert cost == pytest.approx(sol.cost, rel=1e-8)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("gcc") is None, reason="no C compiler")
def test_knot_library_at_o1_and_o0_reaches_the_same_optimum(tmp_path, monkeypatch):
    """Reference: two compilations of the same knot library (the double pendulum's, exact
    Hessian, fatrop): gcc -O1, chosen by the size rule for its small C, and -O0, forced by a
    size limit of 0, give the same optimum to 1e-8."""
    from jourdain.solver.optimal import knots
    chosen = []
    real = knots.knot_options

    def spy(functions):
        options = real(functions)
        chosen.append(options.flags)
        return options
    monkeypatch.setattr(knots, "knot_options", spy)
    results = []
    for limit in (knots.KNOT_O1_BYTES, 0):
        monkeypatch.setattr(knots, "KNOT_O1_BYTES", limit)
        monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path / str(limit)))   # nothing cached
        _, _, _, sol = _solve("double pendulum", codegen="knot", solver="fatrop")
        assert sol.stats["compiled"]
        results.append(sol)
    assert chosen == [knots.KNOT_O1_FLAGS, knots.KNOT_FLAGS]
    assert results[1].cost == pytest.approx(results[0].cost, rel=1e-8)
    np.testing.assert_allclose(results[1].X, results[0].X, atol=1e-6)
