"""Consumer: trajectory optimization. Transcribe a TrajectoryProblem, solve the NLP with IPOPT,
return a Solution; report progress during long solves and, when IPOPT fails, name the
constraints that stay violated instead of returning a meaningless trajectory.
"""
from __future__ import annotations

import time
import warnings
from typing import TYPE_CHECKING

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError, SimulationError

from ..constraints.repartition import assess
from ..model.checks import count, flag, keywords, mapping, number
from .compiled import codegen_solver
from .guess import make_guess
from .mapped import transcribe_mapped
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


@keywords
def solve(prob: TrajectoryProblem, transcription=None, guess=None, progress: bool | int = False,
          tol: float = 1e-8, max_iter: int = 3000, ipopt: dict | None = None,
          raise_on_failure: bool = True, codegen: bool = False) -> Solution:
    """Solve ``prob`` with ``transcription`` (default: Collocation(3, Radau)).

    guess : None (interpolate the boundary conditions), a simulation Result, a previous
        Solution (warm start, with multipliers when the NLP has the same shape) or a dict
        {name: constant | callable(t) | (t, values)}.
    progress : False, True (IPOPT's iteration log) or n (a log line every n iterations).
    tol, max_iter : IPOPT's convergence tolerance and iteration limit; ``ipopt`` adds options.
    raise_on_failure : raise :class:`OptimizationError` (default) or return the failed Solution.
    codegen : build the NLP from one per-interval function mapped over the grid and compile
        the functions IPOPT calls to C, cached on disk (:mod:`.compiled`; the same optimum,
        the same iterations, several times faster per iteration). Collocation and
        fixed-step multiple shooting; ``sol.stats['compiled']`` says whether C ran.
    """
    transcription = _checked(transcription or Collocation(), progress)
    tol = number(tol, "solve: tol", 0.0, open_low=True)
    max_iter = count(max_iter, "solve: max_iter")
    ipopt = mapping(ipopt, "solve: ipopt", "IPOPT option")
    flag(raise_on_failure, "solve: raise_on_failure")
    _check_codegen(flag(codegen, "solve: codegen"), transcription)
    start = time.perf_counter()
    fns = prob.functions()
    g0 = make_guess(prob, guess)
    if codegen:
        nlp = NLP(ca.MX)
        plan = transcribe_mapped(transcription, prob, fns, nlp, g0)
    else:
        nlp = NLP(transcription.symbols(prob))
        plan = transcription.transcribe(prob, fns, nlp, g0)
    _check_start(nlp)
    warm = _warm_start(g0.multipliers, nlp)
    options = _options(plan, progress, tol, max_iter, ipopt, bool(warm))
    if codegen:
        solver, compiled = codegen_solver(nlp, plan, options)
    else:
        solver, compiled = _ipopt(nlp, plan, options), False
    build_time = time.perf_counter() - start
    if progress:
        nw, ng = nlp.sizes
        print(f"jourdain: {transcription}, {prob.intervals} intervals, {nw} variables, "
              f"{ng} constraints (built in {build_time:.2f} s)", flush=True)
    start, cpu = time.perf_counter(), time.process_time()
    result = solver(**nlp.arrays(), **warm)
    stats = dict(solver.stats(), t_wall_total=time.perf_counter() - start,
                 t_proc_total=time.process_time() - cpu)
    sol = _solution(prob, plan, nlp, result, stats, transcription, build_time)
    sol.stats["compiled"] = compiled
    _check_partition(sol)
    if progress:
        print(sol.report())
    if stats["return_status"] == "Invalid_Option":
        raise ModelError(f"solve: IPOPT rejected an option value (Invalid_Option) in "
                         f"ipopt={ipopt!r}, e.g. a linear solver this IPOPT build lacks; see "
                         "the IPOPT options reference")
    if not sol.success and raise_on_failure:
        raise OptimizationError(_failure_report(nlp, plan, result, stats), sol)
    return sol


def _checked(transcription, progress):
    """The transcription, after checking it and the progress option."""
    if not isinstance(transcription, (Collocation, MultipleShooting)):
        raise ModelError(f"solve: the transcription must be a jd.Collocation or "
                         f"jd.MultipleShooting, got {transcription!r}")
    if not isinstance(progress, (bool, int)) or progress < 0:
        raise ModelError(f"solve: progress must be False, True or a number of iterations "
                         f"between log lines, got {progress!r}")
    return transcription


def _check_codegen(codegen: bool, transcription) -> None:
    """codegen=True needs a transcription with an SX per-interval function."""
    if codegen and isinstance(transcription, MultipleShooting) and \
            transcription.integrator is Integrator.CVODES:
        raise ModelError("solve: codegen=True compiles the per-interval functions to C, which "
                         "a CVODES integrator has no form of; use Integrator.RK4 or "
                         "COLLOCATION, or jd.Collocation")


def _check_start(nlp: NLP) -> None:
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


def _ipopt(nlp: NLP, plan: Plan, options: dict):
    """The IPOPT solver of the NLP; an option IPOPT does not know is a ModelError."""
    try:
        return ca.nlpsol("trajectory", "ipopt",
                         {"x": nlp.vector(), "f": plan.cost, "g": ca.vertcat(*nlp.g)}, options)
    except RuntimeError as exc:
        reason = str(exc).strip().splitlines()[-1].split(": ", 1)[-1]
        raise ModelError(f"solve: IPOPT refused the options ({reason}); check tol, max_iter "
                         f"and the ipopt={{...}} dict against the IPOPT options") from None


def _options(plan: Plan, progress, tol: float, max_iter: int, extra: dict | None,
             warm: bool) -> dict:
    opts = {"tol": tol, "max_iter": int(max_iter), "print_level": 0,
            "sb": "yes", "mu_strategy": "adaptive"}
    if progress:
        opts["print_level"] = 5
        if not isinstance(progress, bool):
            opts["print_frequency_iter"] = int(progress)
    if not plan.exact_hessian:
        opts["hessian_approximation"] = "limited-memory"
    if warm:
        # the previous primal-dual point is already near the optimum: do not push it inward
        opts.update({"warm_start_init_point": "yes", "warm_start_bound_push": 1e-9,
                     "warm_start_mult_bound_push": 1e-9, "mu_init": 1e-6})
    opts.update(extra or {})
    return {"ipopt": opts, "print_time": False, "error_on_fail": False}


def _warm_start(multipliers: dict | None, nlp: NLP) -> dict:
    """The previous multipliers, if the NLP has the same shape (same transcription and grid)."""
    if not multipliers:
        return {}
    nw, ng = nlp.sizes
    if multipliers["lam_x"].size != nw or multipliers["lam_g"].size != ng:
        return {}
    return {"lam_x0": multipliers["lam_x"], "lam_g0": multipliers["lam_g"]}


def _solution(prob, plan: Plan, nlp: NLP, result: dict, stats: dict, transcription,
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


def _check_partition(sol: Solution) -> None:
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


def _failure_report(nlp: NLP, plan: Plan, result: dict, stats: dict) -> str:
    w = np.array(result["x"]).ravel()
    g = np.array(result["g"]).ravel()
    head = (f"trajectory optimization failed: IPOPT returned {stats['return_status']} after "
            f"{stats.get('iter_count', '?')} iterations.")
    if stats["return_status"] == "Invalid_Number_Detected":
        bad = nlp.invalid_numbers(plan.cost, w)
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
