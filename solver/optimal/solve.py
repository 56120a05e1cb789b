"""Consumer: trajectory optimization, the checks before a solve and what is made of its result:
the Solution, and, when the solver fails, the constraints that stay violated named instead
of a meaningless trajectory (the solve itself: :mod:`.built`).
"""
from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError, SimulationError

from ..constraints.repartition import assess
from ..model.checks import flag
from .nlp import NLP
from .solution import Solution
from .transcription import Collocation, Integrator, MultipleShooting, Plan

if TYPE_CHECKING:
    from .problem import TrajectoryProblem


class OptimizationError(SimulationError):
    """IPOPT did not find an optimal solution; the message names the worst-violated
    constraints at the last iterate, and ``solution`` holds that iterate."""

    def __init__(self, message: str, solution: Solution):
        super().__init__(message)
        self.solution = solution


def checked_transcription(transcription, progress):
    """The transcription, after checking it and the progress option."""
    if not isinstance(transcription, (Collocation, MultipleShooting)):
        raise ModelError(f"solve: the transcription must be a jd.Collocation or "
                         f"jd.MultipleShooting, got {transcription!r}")
    if not isinstance(progress, (bool, int)) or progress < 0:
        raise ModelError(f"solve: progress must be False, True or a number of iterations "
                         f"between log lines, got {progress!r}")
    return transcription


def check_codegen(codegen, transcription):
    """codegen: False, True (the NLP's functions compiled; a transcription with an SX
    per-interval function) or "knot" (one compiled function per knot of fixed-step RK4
    multiple shooting, :mod:`.knots`); returns it."""
    if isinstance(codegen, str):
        if codegen != "knot":
            raise ModelError(f"solve: codegen must be False, True or 'knot', got {codegen!r}")
        if not (isinstance(transcription, MultipleShooting) and
                transcription.integrator is Integrator.RK4):
            raise ModelError("solve: codegen='knot' compiles one RK4 shooting interval; use "
                             "jd.MultipleShooting(jd.Integrator.RK4, steps=...) with it, or "
                             "codegen=True for the other transcriptions")
        return codegen
    if flag(codegen, "solve: codegen") and isinstance(transcription, MultipleShooting) and \
            transcription.integrator is Integrator.CVODES:
        raise ModelError("solve: codegen=True compiles the per-interval functions to C, which "
                         "a CVODES integrator has no form of; use Integrator.RK4 or "
                         "COLLOCATION, or jd.Collocation")
    return codegen


def check_start(nlp: NLP) -> None:
    """No bound contradicts another, and the initial guess is finite (a NaN in a table or a
    Result would stop IPOPT)."""
    conflicts = nlp.check_bounds()
    if conflicts:
        raise ModelError("trajectory problem infeasible as stated: " + "; ".join(conflicts[:5]))
    rows = np.flatnonzero(~np.isfinite(nlp.arrays()["x0"]))
    if rows.size:
        labels = [nlp.variable_label(r) for r in rows[:3]]
        raise ModelError(f"solve: the initial guess is not finite at {rows.size} entries, e.g. "
                         f"{'; '.join(labels)}: give finite guess values")


def warm_start(multipliers: dict | None, nlp: NLP) -> dict:
    """The previous multipliers, if the NLP has the same shape (same transcription and grid)."""
    if not multipliers:
        return {}
    nw, ng = nlp.sizes
    if multipliers["lam_x"].size != nw or multipliers["lam_g"].size != ng:
        return {}
    return {"lam_x0": multipliers["lam_x"], "lam_g0": multipliers["lam_g"]}


def make_solution(prob, plan: Plan, nlp: NLP, result: dict, stats: dict, transcription,
              build_time: float) -> Solution:
    w = nlp.vector()
    values = ca.Function("plan", [w], [plan.X, plan.U, plan.T, plan.p], ["w"],
                         ["X", "U", "T", "p"])(result["x"])
    X, U, T, p = (np.array(v, dtype=float) for v in values)
    nu, N = len(prob.system.u_names), prob.intervals
    T = float(T.ravel()[0])
    t = prob.t0 + np.linspace(0.0, T, N + 1)
    info = {"status": stats["return_status"], "success": bool(stats["success"]),
            "iterations": int(stats.get("iter_count", -1)),
            "solve_time": float(stats.get("t_wall_total", np.nan)), "build_time": build_time,
            "solve_cpu_time": float(stats.get("t_proc_total", np.nan)),
            "variables": nlp.sizes[0], "constraints": nlp.sizes[1],
            "transcription": str(transcription)}
    multipliers = {"lam_x": np.array(result["lam_x"]).ravel(),
                   "lam_g": np.array(result["lam_g"]).ravel()}
    return Solution(prob, t, X, U.reshape(nu, N, plan.u_tau.size), plan.u_tau, float(T), p,
                    float(result["f"]), info, multipliers)


def check_partition(sol: Solution) -> None:
    """A closed loop is optimized in its fixed partition (the dependent coordinates solved by
    Newton), which must stay well conditioned over the solution's nodes: else a warning names
    the worst node and the independent speeds to compile with (constraints/repartition.py)."""
    system = sol.system
    if getattr(system, "partitions", None) is None:
        return
    ny = len(system.y_names)
    P = np.repeat(sol.p.reshape(-1, 1), sol.t.size, axis=1)
    nus = np.array(system.conditioning.map(sol.t.size)(sol.X[:ny], P)[0]).ravel()
    k = int(np.argmax(np.where(np.isfinite(nus), nus, np.inf)))
    verdict = assess(system, sol.X[:ny, k], sol.p)
    if not verdict.ok or verdict.singular:
        warnings.warn(f"solve: {verdict.advice(f'the node t = {sol.t[k]:.6g} s')}; check the "
                      "solution with sol.check() or ConstraintMethod.DAE in a simulation",
                      RuntimeWarning, stacklevel=3)


def check_plan(sol: Solution, tol: float) -> None:
    """The transcription's own error stays within ``tol``: each interval re-simulated with
    CVODES from its planned node (``sol.check()``, local deviation) lands within tol of the
    next node, else a RuntimeWarning names the worst state and what to do (an optimizer
    exploits a coarse transcription: the Talos arm's one-step RK4 plan ended 0.83 m from its
    own re-simulation)."""
    check = sol.check()
    name = max(check.local, key=check.local.get)
    if check.local[name] > tol:
        warnings.warn(f"solve: the plan deviates from its re-simulation by "
                      f"{check.local[name]:.3g} in state {name} over one interval (open loop "
                      f"over the horizon {check.max_open_loop:.3g}), more than plan_tol = "
                      f"{tol:g}: the transcription is too coarse for this motion; use more "
                      "steps per interval (MultipleShooting(..., steps=...)), more intervals "
                      "or a higher collocation degree", RuntimeWarning, stacklevel=4)


def failure_report(nlp: NLP, plan: Plan, result: dict, stats: dict, par=None) -> str:
    w = np.array(result["x"]).ravel()
    g = np.array(result["g"]).ravel()
    head = (f"trajectory optimization failed: IPOPT returned {stats['return_status']} after "
            f"{stats.get('iter_count', '?')} iterations.")
    if stats["return_status"] == "Invalid_Number_Detected":
        bad = nlp.invalid_numbers(plan.cost, w, par=par)
        return head + ("\nNaN or inf at the last iterate in: " + "; ".join(bad) if bad else
                       "\nA trial point produced NaN or inf.") + \
            ("\nLikely cause: sqrt, log, a division or a power evaluated outside its domain; "
             "keep its argument away from the singularity with bounds or a path constraint, "
             "and give a guess inside the domain.")
    worst, active = nlp.violations(w, g), nlp.active_bounds(w)
    if not worst:
        return head + (" All constraints hold at the last iterate; the iteration limit or "
                       "tolerance stopped it: raise max_iter or loosen tol.")
    text = head + "\nViolated at the last iterate (largest violation, what, where):\n" + \
        "\n".join("  " + row for row in worst)
    if active:
        text += "\nBounds active there (likely what makes the problem infeasible):\n" + \
            "\n".join("  " + row for row in active)
    free, equalities = nlp.degrees_of_freedom()
    if equalities > free:
        text += (f"\nThe NLP has {equalities} equality constraints for {free} free variables: "
                 "more boundary conditions than the inputs, a free horizon or free parameters "
                 "can meet; drop some or free something.")
    return text + ("\nLikely causes: bounds too tight for the boundary conditions and horizon "
                   "(loosen them, lengthen or free the horizon), or a poor initial guess.")
