"""Build once, solve many: a trajectory problem transcribed into its NLP once, with its solver
(compiled, with ``codegen=True``), solved again and again with a new initial state and new
problem parameters (targets, weights: NLP parameters), warm-started from the last solution,
primal and dual. This is the receding-horizon (MPC) loop's object::

    mpc = ocp.build(jd.MultipleShooting(jd.Integrator.RK4), codegen=True)
    for k in range(steps):
        sol = mpc.solve(x0=measured_state, params={"target": target(t)})
        u = sol.inputs_at(sol.t[0])

``TrajectoryProblem.solve`` is a build followed by one solve.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.checks import count, flag, keywords, mapping, number
from . import backends, knots
from .compiled import codegen_solver
from .guess import make_guess
from .mapped import transcribe_mapped
from .nlp import NLP
from .solution import Solution
from .solve import (
    OptimizationError,
    check_codegen,
    check_partition,
    check_plan,
    check_start,
    checked_transcription,
    failure_report,
    make_solution,
    warm_start,
)
from .transcription import Collocation

if TYPE_CHECKING:
    from .problem import TrajectoryProblem


class BuiltProblem:
    """A TrajectoryProblem's NLP and solver, built once (see the module docstring).

    transcription : default Collocation(3, Radau). guess : the first solve's initial guess
        (as for :meth:`TrajectoryProblem.solve`). solver : "ipopt" or "fatrop" (stage-wise
        Riccati factorization; fixed-step multiple shooting, fixed horizon). hessian :
        "exact" or "gauss-newton" (least-squares costs, :mod:`.backends`). codegen: as for
        ``solve``, or "knot" (fixed-step RK4 multiple shooting: one compiled function per knot
        mapped over the grid, with IPOPT or fatrop and either Hessian, :mod:`.knots`). tol,
        max_iter, progress, raise_on_failure as for ``solve``; ``options``: the solver's own
        options ({name: value}, IPOPT's or fatrop's). plan_tol: after each successful solve,
        re-simulate the plan interval by interval (``sol.check()``, CVODES) and warn when a
        state deviates by more than plan_tol (its unit) from the next node: the transcription
        is too coarse (``check_plan`` in :mod:`.solve`); None (default) skips the check.
    """

    @keywords
    def __init__(self, prob: TrajectoryProblem, transcription=None, guess=None,
                 progress: bool | int = False, tol: float = 1e-8, max_iter: int = 3000,
                 ipopt: dict | None = None, raise_on_failure: bool = True,
                 codegen: bool | str = False, solver: str = "ipopt", hessian: str = "exact",
                 options: dict | None = None, plan_tol: float | None = None):
        transcription = checked_transcription(transcription or Collocation(), progress)
        self.plan_tol = None if plan_tol is None else \
            number(plan_tol, "solve: plan_tol", 0.0, open_low=True)
        self.tol = number(tol, "solve: tol", 0.0, open_low=True)
        self.max_iter = count(max_iter, "solve: max_iter")
        extra = {**mapping(ipopt, "solve: ipopt", "IPOPT option"),
                 **mapping(options, "solve: options", "solver option")}
        self.raise_on_failure = flag(raise_on_failure, "solve: raise_on_failure")
        codegen = check_codegen(codegen, transcription)
        backends.check_choice(solver, hessian, transcription, prob, codegen)
        start = time.perf_counter()
        self.problem, self.transcription, self.progress = prob, transcription, progress
        self.solver_name, self.hessian = solver, hessian
        fns = prob.functions()
        g0 = make_guess(prob, guess)
        knot = None
        if codegen == "knot":
            nlp = NLP(ca.MX)
            knot = knots.knot_function(prob, fns, transcription.steps)
            fast = knots.compiled_knot(knot, hessian == "exact",
                                       knots.guess_arguments(prob, fns, g0))
            plan = knots.transcribe_knots(prob, fns, nlp, g0, fast or knot)
        elif codegen:
            nlp = NLP(ca.MX)
            plan = transcribe_mapped(transcription, prob, fns, nlp, g0)
        else:
            nlp = NLP(transcription.symbols(prob))
            plan = transcription.transcribe(prob, fns, nlp, g0)
        stages = backends.stage_structure(nlp) if solver == "fatrop" else None
        check_start(nlp)
        self.nlp, self.plan = nlp, plan
        self.arrays = nlp.arrays()
        self.par = prob.parameter_vector()
        self._x0_rows = backends.node_rows(nlp, 0)
        # a previous Solution's multipliers are of rows in its solver's order (fatrop's
        # stages or the transcription's): of no use to the other
        same = (g0.multipliers or {}).get("stage_order", False) == (stages is not None)
        self._first_warm = warm_start(g0.multipliers, nlp) if same else {}
        self._stage_order = stages is not None

        def opts(warm: bool) -> dict:
            return backends.options(solver, plan, nlp, progress, self.tol, self.max_iter,
                                    extra, warm, hessian, stages)
        self._opts = opts
        if codegen is True:
            factory, self.compiled = codegen_solver(nlp, plan, opts(False), self.par,
                                                    solver=solver)
        else:
            dict_ = backends.nlp_dict(nlp, plan)
            factory = (lambda o: backends.make(solver, dict_, o))
            self.compiled = knot is not None and fast is not None
        self._factory = factory
        self._solvers = {False: factory(opts(False))}
        self._last = None            # (w, lam_x, lam_g) of the last solve
        self.build_time = time.perf_counter() - start
        if progress:
            nw, ng = nlp.sizes
            print(f"jourdain: {transcription}, {prob.intervals} intervals, {nw} variables, "
                  f"{ng} constraints (built in {self.build_time:.2f} s)", flush=True)

    def solve(self, x0=None, params: dict | None = None, guess: Solution | None = None,
              warm: bool = True) -> Solution:
        """Solve with the initial state ``x0`` ({state name: value}, or all nx states in the
        system's order; default: the problem's initial conditions) and the problem
        parameters ``params`` ({name: value}; default: their declared values). ``warm``:
        start from the last solve's primal and dual solution (or from ``guess``, a Solution
        of this built problem), else from the build's initial guess."""
        arrays = dict(self.arrays)
        if x0 is not None:
            arrays["lbx"], arrays["ubx"] = self._fix_x0(x0)
        self.par = self.problem.parameter_vector(params)
        flag(warm, "solve: warm")
        start_point = self._start(guess) if warm else None
        extra = {}
        if start_point is not None:
            arrays["x0"] = start_point[0]
            extra = {"lam_x0": start_point[1], "lam_g0": start_point[2]}
        elif self._first_warm:
            extra = self._first_warm
        key = bool(extra)
        if key not in self._solvers:
            self._solvers[key] = self._factory(self._opts(True))
        solver = self._solvers[key]
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            result = solver(**arrays, p=self.par, **extra)
        except RuntimeError as exc:     # fatrop checks its options only when called
            reason = str(exc).strip().splitlines()[-1].split(": ", 1)[-1]
            if "option" not in reason.lower():
                raise
            raise ModelError(f"solve: {self.solver_name} refused an option ({reason}); check "
                             "the options={...} dict against the solver's options") from None
        stats = dict(solver.stats(), t_wall_total=time.perf_counter() - wall,
                     t_proc_total=time.process_time() - cpu)
        if not isinstance(stats["return_status"], str):   # fatrop's is a number
            stats["return_status"] = "Solve_Succeeded" if stats["success"] else \
                f"fatrop status {stats['return_status']} ({stats.get('unified_return_status')})"
        return self._finish(result, stats)

    # ---- helpers -----------------------------------------------------------------------------
    def _fix_x0(self, x0) -> tuple:
        """lbx, ubx with the node-0 states fixed at x0 (checked against their bounds)."""
        lbx, ubx = self.arrays["lbx"].copy(), self.arrays["ubx"].copy()
        for i, v in initial_state(self.problem, x0):
            lbx[self._x0_rows[i]] = ubx[self._x0_rows[i]] = v
        return lbx, ubx

    def _start(self, guess) -> tuple | None:
        if guess is None:
            return self._last
        if not isinstance(guess, Solution) or guess.multipliers.get("w") is None or \
                guess.multipliers["w"].size != self.nlp.sizes[0]:
            raise ModelError("solve: guess of a built problem must be a Solution it returned "
                             "(same NLP); for another guess build again with "
                             "ocp.build(..., guess=...)")
        m = guess.multipliers
        return m["w"], m["lam_x"], m["lam_g"]

    def _finish(self, result: dict, stats: dict) -> Solution:
        sol = make_solution(self.problem, self.plan, self.nlp, result, stats,
                            self.transcription, self.build_time)
        sol.stats.update(compiled=self.compiled, solver=self.solver_name, hessian=self.hessian)
        sol.multipliers["w"] = np.array(result["x"]).ravel()
        sol.multipliers["stage_order"] = self._stage_order
        self._last = (sol.multipliers["w"], sol.multipliers["lam_x"], sol.multipliers["lam_g"])
        check_partition(sol)
        if self.plan_tol is not None and sol.success:
            check_plan(sol, self.plan_tol)
        if self.progress:
            print(sol.report())
        if stats["return_status"] == "Invalid_Option":
            raise ModelError(f"solve: {self.solver_name} rejected an option value "
                             "(Invalid_Option), e.g. a linear solver this IPOPT build lacks; "
                             "see the solver's options reference")
        if not sol.success and self.raise_on_failure:
            raise OptimizationError(failure_report(self.nlp, self.plan, result, stats,
                                                   self.par), sol)
        return sol


def initial_state(problem, x0) -> list[tuple[int, float]]:
    """[(state index, value)] of a solve's ``x0`` ({state name: value} or all nx states in
    the system's order), each checked finite and within its bound."""
    s = problem.system
    if isinstance(x0, dict):
        values = mapping(x0, "solve: x0", "state name")
        unknown_names = [n for n in values if n not in s.x_names]
        if unknown_names:
            raise ModelError(f"solve: x0 names no state '{unknown_names[0]}'; the states "
                             f"are {', '.join(s.x_names)}")
        rows = [s.x_names.index(n) for n in values]
        vals = [number(v, f"solve: x0 '{n}'") for n, v in values.items()]
    else:
        vec = np.asarray(x0, dtype=float).ravel() if _numeric(x0) else np.full(0, np.nan)
        if vec.size != s.nx or not np.isfinite(vec).all():
            raise ModelError(f"solve: x0 must be {s.nx} finite values (the states "
                             f"{', '.join(s.x_names)}) or a dict by state name, got "
                             f"{x0!r:.80}")
        rows, vals = list(range(s.nx)), list(vec)
    lo, hi = problem.x_limits.lower, problem.x_limits.upper
    for i, v in zip(rows, vals):
        if not lo[i] <= v <= hi[i]:
            raise ModelError(f"solve: x0 '{s.x_names[i]}' = {v} lies outside its bound "
                             f"[{lo[i]}, {hi[i]}]; the problem is infeasible as stated")
    return list(zip(rows, (float(v) for v in vals)))


def _numeric(value) -> bool:
    try:
        np.asarray(value, dtype=float)
        return not isinstance(value, (str, bytes))
    except (TypeError, ValueError):
        return False


def solve(prob: TrajectoryProblem, transcription=None, guess=None, **options) -> Solution:
    """Solve ``prob`` with ``transcription`` (default: Collocation(3, Radau)): a build and one
    solve (:class:`BuiltProblem`).

    guess : None (interpolate the boundary conditions), a simulation Result, a previous
        Solution (warm start, with multipliers when the NLP has the same shape) or a dict
        {name: constant | callable(t) | (t, values)}.
    progress : False, True (the solver's iteration log) or n (a log line every n iterations).
    tol, max_iter : convergence tolerance and iteration limit; ``ipopt`` (or ``options``)
        adds the solver's own options.
    raise_on_failure : raise :class:`OptimizationError` (default) or return the failed Solution.
    codegen : build the NLP from one per-interval function mapped over the grid and compile
        the functions the solver calls to C, cached on disk (:mod:`.compiled`; the same
        optimum, the same iterations, several times faster per iteration). Collocation and
        fixed-step multiple shooting; ``sol.stats['compiled']`` says whether C ran.
    solver, hessian : "ipopt" or "fatrop"; "exact" or "gauss-newton" (:mod:`.backends`).
    """
    return prob.build(transcription, guess=guess, **options).solve(warm=False)
