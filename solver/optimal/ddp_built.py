"""A trajectory problem built for the DDP solver (``ocp.build(jd.MultipleShooting(
jd.Integrator.RK4, steps=S), solver="fddp")``): feasibility-driven DDP with box-constrained
inputs (:mod:`.ddp`) on the knot functions of :mod:`.ddp_model`, built once and re-solved
with a new initial state and new problem parameters, warm-started from the last solution
(shifted by ``shift`` knots for a receding horizon).

It solves the same RK4 multiple-shooting transcription as IPOPT and fatrop do (the same knot
states, inputs and cost), for the problems DDP fits: a fixed horizon, every initial state
given, costs (least-squares terms, integral and terminal costs) and input bounds. What it
cannot state is refused by name (:func:`check_ddp`): path constraints, state bounds, final
conditions, free horizon or parameters, other transcriptions, constrained systems.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.checks import count, flag, keywords, mapping, number
from . import ddp, ddp_backward, ddp_model, ddp_newton
from .buffered import Buffered
from .built import initial_state
from .functions import FreeTime
from .guess import make_guess
from .solution import Solution
from .solve import OptimizationError, check_plan
from .transcription import Integrator, MultipleShooting

if TYPE_CHECKING:
    from .problem import TrajectoryProblem

USE_INSTEAD = "use solver='fatrop' or solver='ipopt'"
# what a real-time budget counts (DDPProblem's clock=)
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def check_ddp(prob: TrajectoryProblem, transcription, options: dict) -> None:
    """ModelError naming what solver='fddp' cannot handle and what to do instead."""
    if not isinstance(transcription, MultipleShooting) or \
            transcription.integrator is not Integrator.RK4:
        raise ModelError(f"solve: solver='fddp' works on fixed-step RK4 multiple shooting "
                         f"(jd.MultipleShooting(jd.Integrator.RK4, steps=...)), got "
                         f"{transcription}; change the transcription or {USE_INSTEAD}")
    s = prob.system
    finite_x = [n for n, lo, hi in zip(s.x_names, prob.x_limits.lower, prob.x_limits.upper)
                if np.isfinite(lo) or np.isfinite(hi)]
    missing = [n for n in s.x_names if n not in prob.x_initial]
    refused = [
        (isinstance(prob.horizon, FreeTime), "a free horizon (jd.FreeTime)", "fix the horizon"),
        (bool(prob.free_params), f"free parameters ({', '.join(prob.free_params)})",
         "make them problem parameters (ocp.parameter) or fixed values"),
        (bool(prob.paths), f"path constraints ({', '.join(p.name for p in prob.paths)})",
         "state them as least_squares penalties"),
        (bool(finite_x), f"state bounds ({', '.join(finite_x[:3])})",
         "bound only inputs, or penalize the states with least_squares"),
        (bool(prob.x_final), f"final conditions ({', '.join(list(prob.x_final)[:3])})",
         "state them as a weighted least_squares(..., terminal=True) term"),
        (bool(missing), f"free initial states ({', '.join(missing[:3])})",
         "give every initial state with ocp.initial"),
        (getattr(s, "method", None) is not None, "a constrained system (closed loops)",
         "solve it with the NLP solvers")]
    for bad, what, instead in refused:
        if bad:
            raise ModelError(f"solve: solver='fddp' (DDP: x_0 given, inputs bounded, "
                             f"everything else in the cost) cannot handle {what}; {instead}, "
                             f"or {USE_INSTEAD}")
    extra = {**mapping(options.get("ipopt"), "solve: ipopt", "option"),
             **mapping(options.get("options"), "solve: options", "option")}
    if extra:
        raise ModelError(f"solve: solver='fddp' takes no solver options ({', '.join(extra)}); "
                         "set tol and max_iter")
    if options.get("hessian", "exact") not in ("exact", "gauss-newton"):
        raise ModelError(f"solve: hessian must be 'exact' or 'gauss-newton', got "
                         f"{options['hessian']!r}")
    if options.get("codegen", False) not in (False, True, "knot"):
        raise ModelError(f"solve: codegen must be False, True or 'knot' with solver='fddp', "
                         f"got {options['codegen']!r}")


class DDPProblem:
    """A TrajectoryProblem built for FDDP (module docstring); options as for
    :class:`.built.BuiltProblem`: tol bounds the expected cost decrease of a full step
    (crocoddyl's th_stop) and √tol the cost's gradient √Σ‖Q_u‖² along the feasible
    trajectory in the inputs off their bounds (:func:`.ddp.solve`), codegen="knot" compiles
    the knot functions into a small cached library and codegen=True also the backward pass
    (:mod:`.ddp_backward`, a library of its own), hessian is always the Gauss–Newton one
    of the least-squares terms with exact Hessians of integral and terminal costs and no
    second derivatives of the dynamics (DDP's model); derivatives: the dynamics' Jacobians
    by the recursive algorithms ("recursive"), by CasADi's forward mode on f ("forward"), or
    the former where the model allows ("auto", :mod:`.dynamics_derivatives`).
    ``newton=True``: a successful solve ends by computing the second-order terms at its
    optimum (:mod:`.ddp_newton`, timed as ``stats["prepare_cpu_time"]``, apart from
    ``solve_cpu_time``), and the next warm
    re-solve from it adds them to the model (Newton steps; ``stats["newton"]``).
    ``budget`` [s] is a real-time budget per solve (:func:`.ddp.solve`: no iteration
    started that would not fit; a feasible plan returned, ``stats["budget_stop"]``),
    counted in ``clock``: "cpu" (the default: the process's CPU time, what the solve costs,
    independent of the machine's load) or "wall" (``time.perf_counter``: the latency a
    control loop on a loaded machine sees, time spent descheduled included)."""

    @keywords
    def __init__(self, prob: TrajectoryProblem, transcription=None, guess=None,
                 progress: bool | int = False, tol: float = 1e-8, max_iter: int = 3000,
                 raise_on_failure: bool = True, codegen: bool | str = False,
                 solver: str = "fddp", hessian: str = "exact", options: dict | None = None,
                 ipopt: dict | None = None, plan_tol: float | None = None,
                 newton: bool = False, budget: float | None = None, clock: str = "cpu",
                 derivatives: str = "auto"):
        transcription = transcription or MultipleShooting(Integrator.RK4)
        check_ddp(prob, transcription, dict(codegen=codegen, hessian=hessian,
                                            options=options, ipopt=ipopt))
        start = time.perf_counter()
        self.problem, self.transcription, self.progress = prob, transcription, progress
        self.tol = number(tol, "solve: tol", 0.0, open_low=True)
        self.max_iter = count(max_iter, "solve: max_iter")
        self.raise_on_failure = flag(raise_on_failure, "solve: raise_on_failure")
        self.newton = flag(newton, "solve: newton")
        self.budget = None if budget is None else \
            number(budget, "solve: budget", 0.0, open_low=True)
        if not isinstance(clock, str) or clock not in CLOCKS:
            raise ModelError(f"solve: clock must be 'cpu' or 'wall' (what budget= counts), "
                             f"got {clock!r}")
        if clock != "cpu" and budget is None:
            raise ModelError(f"solve: clock={clock!r} says what budget= counts, and no budget "
                             "is given; give budget=... [s] or leave clock out")
        self.clock = clock
        self.plan_tol = None if plan_tol is None else \
            number(plan_tol, "solve: plan_tol", 0.0, open_low=True)
        s, N = prob.system, prob.intervals
        self.T = float(prob.horizon)
        self.t = prob.t0 + np.linspace(0.0, self.T, N + 1)
        fns = prob.functions()
        steps = transcription.steps
        functions = [ddp_model.knot_derivatives(prob, fns, steps, derivatives),
                     ddp_model.rollout_step(prob, fns, steps),
                     ddp_model.terminal_derivatives(prob, fns)]
        self.x0 = np.array([prob.x_initial[n] for n in s.x_names])
        g = make_guess(prob, guess)
        self._guess = (g.x(self.t).T, g.u(self.t[:-1]).T.reshape(N, len(s.u_names)))
        self.compiled = False
        if codegen:
            p = self._p(None)
            nu = len(s.u_names)
            lo, hi = prob.u_limits.lower, prob.u_limits.upper
            x, u = self._guess[0][0], np.clip(self._guess[1][0], lo, hi)
            samples = [[x, u, p, self.T, 0.0],
                       [x, x, u, np.zeros(nu), np.zeros(nu * s.nx), np.zeros(s.nx), 1.0, lo,
                        hi, p, self.T, 0.0],
                       [x, p, self.T]]
            if codegen is True:     # the backward pass's gcc beside the knots' (two cores)
                ddp_backward.start_backward(s.nx, nu, N)
            fast = ddp_model.compiled(functions, samples)
            if fast is not None:
                functions, self.compiled = fast, True
        D, step, Dt = functions
        # numpy in and out through buffers (no conversions: they cost more than the
        # compiled calls at MPC sizes); p and T are one column for all knots
        self._D = Buffered(D.map("ddp_knots", "serial", N, [2, 3], []))
        self._roll, self._Dt = Buffered(ddp_model.rollout(step, N, Dt)), Buffered(Dt)
        self._k = np.arange(N, dtype=float)
        lo, hi = prob.u_limits.lower, prob.u_limits.upper
        # codegen=True: the backward pass compiled too (its own library, 4.3 s of gcc once on
        # the Talos arm); codegen="knot": the knots only, the backward pass in numpy
        back = ddp_backward.compiled_backward(s.nx, len(s.u_names), N, lo, hi) \
            if self.compiled and codegen is True else None
        self._backward = None if back is None else ddp_backward.CompiledBackward(back, lo, hi)
        self._last = self._second = None
        self.build_time = time.perf_counter() - start

    def solve(self, x0=None, params: dict | None = None, guess: Solution | None = None,
              warm: bool = True, shift: int = 0) -> Solution:
        """Solve from the initial state ``x0`` ({state name: value} or all nx states;
        default: the problem's) with the problem parameters ``params``; ``warm``: start
        from the last solution (or ``guess``, a Solution of this problem), its knots moved
        ``shift`` intervals earlier (the last repeated) for a receding horizon, else from
        the build's guess. The start need not satisfy the dynamics (FDDP closes the gaps)."""
        s, N = self.problem.system, self.problem.intervals
        x_start = self.x0.copy()
        if x0 is not None:
            for i, v in initial_state(self.problem, x0):
                x_start[i] = v
        p = self._p(params)
        flag(warm, "solve: warm")
        shift = count(shift, "solve: shift", 0)
        X, U = self._start(guess, warm)
        second = self._second if warm and guess is None else None
        if shift:
            shift = min(shift, N)
            X = np.vstack([X[shift:], np.repeat(X[-1:], shift, 0)])
            U = np.vstack([U[shift:], np.repeat(U[-1:], shift, 0)])
        model = self._model(p)
        wall, cpu = time.perf_counter(), time.process_time()
        clock = CLOCKS[self.clock]
        if second is None:
            result = ddp.solve(model, x_start, X, U, self.tol, self.max_iter,
                               budget=self.budget, clock=clock)
        else:
            result = ddp_newton.solve(model, ddp_newton.shifted(second, shift), x_start, X,
                                      U, self.tol, self.max_iter, budget=self.budget,
                                      clock=clock)
        solve_wall, solve_cpu = time.perf_counter() - wall, time.process_time() - cpu
        # the preparation of the next warm re-solve (ddp_newton): at an optimum only
        self._second, prepare = None, 0.0
        if self.newton and result.success:
            prepare = time.process_time()
            self._second = ddp_newton.second_order(model, result.X, result.U)
            prepare = time.process_time() - prepare
        stats = {"status": result.status, "success": result.success,
                 "iterations": result.iterations,
                 "solve_time": solve_wall, "build_time": self.build_time,
                 "solve_cpu_time": solve_cpu, "newton": second is not None,
                 "prepare_cpu_time": prepare,
                 "variables": (N + 1) * s.nx + N * len(s.u_names), "constraints": N * s.nx,
                 "transcription": str(self.transcription), "solver": "fddp",
                 "compiled": self.compiled, "hessian": "gauss-newton",
                 "stop": result.stop, "expected_decrease": result.expected,
                 "max_gap": result.gap, "budget": self.budget, "budget_clock": self.clock,
                 "budget_stop": result.status == "Budget_Exhausted"}
        self._last = (result.X, result.U)
        sol = Solution(self.problem, self.t, result.X.T, result.U.T.reshape(-1, N, 1),
                       np.zeros(1), self.T, p[:len(s.p_names)], result.cost, stats, {})
        if self.plan_tol is not None and sol.success:
            check_plan(sol, self.plan_tol)
        if self.progress:
            print(sol.report())
        if not sol.success and self.raise_on_failure:
            raise OptimizationError(
                f"trajectory optimization failed: FDDP returned {result.status} after "
                f"{result.iterations} iterations (expected decrease of a full step "
                f"{result.expected:.3g}, √Σ‖Q_u‖² = {result.stop:.3g}, tol {self.tol:g}; "
                f"largest gap {result.gap:.3g}); raise max_iter, give a better "
                "guess, or use solver='ipopt'", sol)
        return sol

    # ---- helpers -----------------------------------------------------------------------------
    def _p(self, params) -> np.ndarray:
        prob = self.problem
        return np.concatenate([np.asarray(prob.p_values, float).ravel(),
                               prob.parameter_vector(params)])

    def _start(self, guess, warm: bool) -> tuple:
        N = self.problem.intervals
        if guess is not None:
            if not isinstance(guess, Solution) or guess.U.shape[1] != N or \
                    guess.X.shape != (self.problem.system.nx, N + 1):
                raise ModelError("solve: guess of a built problem must be a Solution of this "
                                 "problem (same grid); for another guess build again with "
                                 "ocp.build(..., guess=...)")
            return guess.X.T.copy(), guess.U[:, :, 0].T.copy()
        if warm and self._last is not None:
            return self._last
        return self._guess

    def _model(self, p: np.ndarray) -> ddp.Model:
        s, N, T = self.problem.system, self.problem.intervals, np.array([self.T])
        nx, nu = s.nx, len(s.u_names)
        lo, hi = self.problem.u_limits.lower, self.problem.u_limits.upper
        D, Dt, roll, k = self._D, self._Dt, self._roll, self._k

        def blocks(a, rows, cols):   # CasADi's rows × (N·cols) stack → N × rows × cols
            return a.reshape(N, cols, rows).transpose(0, 2, 1)

        def derivatives(X, U):
            x_next, q, Fx, Fu, qx, qu, Hxx, Huu, Hux = D(X[:-1], U, p, T, k)
            return {"x_next": x_next.reshape(N, nx), "q": q,
                    "Fx": blocks(Fx, nx, nx), "Fu": blocks(Fu, nx, nu),
                    "qx": qx.reshape(N, nx), "qu": qu.reshape(N, nu),
                    "Hxx": blocks(Hxx, nx, nx), "Huu": blocks(Huu, nu, nu),
                    "Hux": blocks(Hux, nu, nx)}

        def terminal(x):
            E, Ex, Exx = Dt(x, p, T)
            return float(E[0]), Ex, Exx.reshape(nx, nx).T

        def rollout(x0, X, U, kff, K, gaps, alpha):
            Xh, Uh, q = roll(x0, X[:-1], U, kff, K.transpose(0, 2, 1), gaps, alpha, lo, hi,
                             p, T)
            return Xh.reshape(N + 1, nx), Uh.reshape(N, nu), q

        return ddp.Model(derivatives, terminal, rollout, lo, hi, self._backward)
