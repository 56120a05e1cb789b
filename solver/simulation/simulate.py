"""Consumer: simulation with CVODES (SUNDIALS, through CasADi's integrator).

Inputs are given by name as constants, callables of time or time tables (t, values)
(:mod:`.inputs`): tables become piecewise-linear interpolants of t inside the integrated ODE,
callables are called where CVODES asks (a CasADi Callback), so the result is right for any
horizon. The method (Adams or BDF), BDF's linear solver and Jacobian are chosen in
:mod:`.integrators` and :mod:`.jacobian`.
"""
from __future__ import annotations

import time

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..constraints.initial_equations import solve_initial_states
from ..model.checks import Indexed, count, flag, keywords, listing, number, option, vector
from ..model.names import check_quaternions, require_system
from ..model.numerics import SUNDIALS
from .diagnosis import check_initial_state, check_speed_definitions, diagnose
from .discontinuities import check_max_step, integrate_pieces, restart_times
from .events import needs_events
from .hybrid import simulate_events
from .inputs import InputSignals
from .integrators import (
    LinearSolver,
    Method,
    choose_method,
    open_mode_adams,
    right_hand_side,
    run,
    solver_options,
)
from .progress import Watch, check_progress, chunked, wanted
from .result import Result
from .tolerances import checked
from .tolerances import resolve as resolve_tolerances

__all__ = ["LinearSolver", "Method", "given_state", "integrator_options", "simulate"]


@keywords
def simulate(system, t_end: float, y0: dict | None = None, z0: dict | None = None,
             inputs: dict | None = None, params: dict | None = None, t0: float = 0.0,
             n_out: int = 501, t_out=None, rtol: float | None = None,
             atol: float | None = None,
             max_steps: int = 100000, method: Method = Method.AUTO,
             x0: np.ndarray | None = None, progress: bool | None = None,
             stiff: bool | None = None,
             linear_solver: LinearSolver = LinearSolver.AUTO, events=None,
             samplers=None, event_step: float | None = None,
             chatter: tuple | None = None, max_events: int | None = None,
             islands: bool = True, max_step: float | None = None) -> Result:
    """Integrate the system from t0 to t_end and return a Result on the output grid.

    y0, z0 : initial coordinates and speeds by name (missing ones are 0).
    inputs : {input name: constant | callable(t) | (t_samples, values)}; unset inputs are 0.
        A callable is called where the integrator asks (exact for any horizon); a table is
        interpolated linearly, and the integrator restarts at its times (:mod:`.inputs`).
    params : values of the symbolic parameters by name (others keep their defaults).
    n_out / t_out : number of equally spaced output times, or the output times themselves.
    rtol, atol : CVODES's relative (0 < rtol < 1) and absolute (> 0) tolerances; by default
        1e-8 (1e-9 for closed loops solved by partitioning), tightened beyond a 20 s horizon
        in proportion to it (:mod:`.tolerances`); ``result.stats["tolerances"]`` says which
        ran.
    max_steps : the most steps CVODES may take between two output times (≥ 1).
    max_step : [s] the longest step CVODES (IDAS) may take (None: no bound), e.g. below the
        width of a short pulse that no block declares (:mod:`.discontinuities`).
    method : Method.AUTO (default): ADAMS for non-stiff mechanisms (chains, pendulums: no
        Jacobian, no Newton iterations), BDF when components declare stiffness or the
        eigenvalues of ∂f/∂x at x0 show fast decaying modes (:mod:`.integrators`);
        Method.BDF or Method.ADAMS to choose. ``result.method`` and ``result.stats`` say
        what ran (steps, evaluations, Newton setups, time) and why.
    x0 : a complete initial state (instead of y0, z0), e.g. one assembled by a constrained
        system; used as given. With y0, z0 instead, the states of components with initial
        equations (``system.s_init``: filters in steady state) are solved at t0 for the
        inputs' values at t0, except those given in z0.
    progress : None (default) shows an elapsed-time bar once a run lasts over 2 s, at no
        cost; True integrates in pieces and shows the fraction done (CVODES restarts at each
        piece); False shows nothing. See :mod:`.progress`.
    stiff : True or False overrides AUTO's stiffness test (None: test).
    linear_solver : BDF's Newton linear solver, a jd.LinearSolver (AUTO: dense LU
        when ∂f/∂x is at least a quarter full, as on chains, else sparse LU).
    events : jd.Event / jd.TimeEvent objects (zero crossings, resets, stops; docs/hybrid.md).
    samplers : SampledCallback objects (Python callbacks run at a sample period).
    event_step : [s] spacing of the guard samples (default: a quarter of the output interval).
    chatter : (n, span): n events in a row, each within span [s] of the previous, end in a
        ChatteringError (default (100, 1e-9·horizon)). max_events : total limit.
    Time events: the integrator stops and restarts where a signal jumps — at the times blocks
    declare through their ``time_events(t0, t_end)`` hook (Step, Pulse, Table, a user's
    block), at the times of input tables, and where a scan of the time-only outputs and the
    callable inputs finds a jump (:mod:`.discontinuities`); ``result.stats["restarts"]``
    counts them.
    islands : True (default) runs bodies that no equation couples (balls that meet the walls,
        not each other) in event loops of their own, each between its own events; False
        integrates the model as one system (docs/hybrid.md, "Independent bodies").
    Models with hybrid elements (stops, friction with stiction, contacts, sampled blocks), and
    any run with events or samplers, go through the event loop (:mod:`.events`); the Result
    then carries the event log ``res.events``.

    A model without states (no degrees of freedom) gives its outputs and energies on the
    grid, as Modelica tools do. Every argument is checked first (docs/errors.md): a
    non-finite time, tolerance, state, input or parameter is a ModelError naming it.
    """
    require_system(system, "simulate")
    grid = _grid(t0, t_end, n_out, t_out)
    rtol, atol, tolerances = resolve_tolerances(rtol, atol, grid[0], grid[-1])
    integrator_options(rtol, atol, max_steps, method, linear_solver, None, max_step)  # checks
    check_progress(progress)
    progress = wanted(progress)   # the global switch jd.options.progress
    flag(islands, "simulate: islands")
    events = listing(events, "simulate: events", "jd.Event / jd.TimeEvent objects")
    samplers = listing(samplers, "simulate: samplers", "jd.SampledCallback objects")
    if stiff is not None:
        flag(stiff, "simulate: stiff")
    given = x0 is not None
    x0 = system.state(y0, z0) if x0 is None else given_state(system, x0, y0, z0)
    p = system.parameters(params)
    signals = InputSignals(system, inputs)
    if not given:   # initial equations of component states (steady-state filters)
        x0 = start_states(system, x0, grid, signals, p, z0)
    us = signals.on(grid)
    if system.nx == 0:   # nothing to integrate: outputs and energies of the fixed model
        return Result.from_states(system, grid, np.zeros((0, grid.size)), us, p)
    if "drive0" in system.functions:  # driven coordinates start at their references
        x0 = np.array(system.functions["drive0"](grid[0], x0, us[:, 0], p)).ravel()
    check_initial_state(system, grid[0], x0, us[:, 0], p)
    given = method
    method, reason = choose_method(system, method, stiff, grid, x0, us[:, 0], p, rtol)
    opts = integrator_options(rtol, atol, max_steps, method, linear_solver, system, max_step)
    if needs_events(system, events, samplers):   # hybrid elements, events, samplers
        plain = integrator_options(rtol, atol, max_steps, method, linear_solver, None,
                                   max_step)
        adams, why = open_mode_adams(system, given, stiff, grid, x0, us[:, 0], p, rtol)
        result = simulate_events(system, grid, x0, p, signals.builder(), plain, events,
                                 samplers, event_step, chatter, max_events,
                                 islands=islands, open_opts=integrator_options(
                                     rtol, atol, max_steps, Method.ADAMS, max_step=max_step)
                                 if adams else None)
        result.method, result.stats = method, {"method_reason": reason + why,
                                               "tolerances": tolerances}
        return result
    # SX when f is small (the interpolants enter as call nodes): CVODES then runs the
    # expanded expression graph, about 3× faster than an MX graph wrapping the same function.
    # MX when f embeds a rootfinder (closed loops), which SX cannot hold, is compiled C code
    # (System.codegen), which is called, not expanded, or is large (integrators.INLINE_OPS).
    sym, rhs = right_hand_side(system, method)
    if signals.needs_mx:   # a callable input is a Callback call: an MX graph
        sym = ca.MX
    t, x, pp = sym.sym("t"), sym.sym("x", system.nx), sym.sym("p", len(p))
    # an MX call CasADi may inline costs 0.5 s at creation: u_of_t is never inlined there
    u_of_t = signals.function(sym)
    dae = {"t": t, "x": x, "p": pp, "ode": rhs(t, x, u_of_t(t), pp)}
    restarts, found = restart_times(system, grid, p, signals)
    try:
        xs, stats = _integrate(dae, t, grid, x0, p, opts, progress, restarts)
    except RuntimeError as exc:
        signals.raise_recorded(exc)
        raise diagnose(system, dae, grid, x0, opts, p, us) from exc
    result = Result.from_states(system, grid, xs, us, p)
    result.method, result.stats = method, dict(stats, method_reason=reason,
                                                tolerances=tolerances)
    if found:
        result.stats["jumps_found"] = found
    if method is Method.BDF and sym is ca.MX:
        result.stats["jacobian"] = str(getattr(system, "jacobian_choice", ""))
    check_speed_definitions(system, result, p)
    return result


def _integrate(dae: dict, t, grid: np.ndarray, x0, p, opts: dict, progress,
               restarts=()) -> tuple:
    """(states on the grid, integrator statistics): in one CVODES run, in pieces with a
    progress bar (``progress=True``: the statistics then hold the times only), or from
    restart to restart at time events (:func:`.discontinuities.integrate_pieces`)."""
    if restarts:
        with Watch(progress is not False, "simulate"):
            return integrate_pieces(dae, t, grid, x0, p, opts, restarts)
    if progress:
        cpu, wall = time.process_time(), time.perf_counter()
        xs = chunked(dae, t, grid, x0, p, opts, "simulate")
        return xs, {"cpu_time": time.process_time() - cpu,
                    "wall_time": time.perf_counter() - wall}
    integ = ca.integrator("simulate", "cvodes", dae, grid[0], grid, opts)
    with Watch(progress is None, "simulate"):
        out, stats = run(integ, x0=x0, p=p)
    return np.array(out["xf"]), stats


def integrator_options(rtol, atol, max_steps, method: Method = Method.BDF,
                       linear_solver: LinearSolver = LinearSolver.AUTO, system=None,
                       max_step: float | None = None) -> dict:
    """CVODES/IDAS options from checked tolerances, step limit, method and BDF's linear
    solver (for ``system``'s Jacobian pattern; an unresolved Method.AUTO gets BDF's options:
    resolve it first with :func:`.integrators.choose_method`), and the longest step."""
    opts = {"reltol": number(checked(rtol), "simulate: rtol", 0.0, 1.0, open_low=True,
                             open_high=True),
            "abstol": number(checked(atol), "simulate: atol", 0.0, open_low=True),
            "max_num_steps": count(max_steps, "simulate: max_steps"), **SUNDIALS}
    if check_max_step(max_step) is not None:
        opts["max_step_size"] = float(max_step)
    linear_solver = option(linear_solver, LinearSolver, "simulate: linear_solver")
    if option(method, Method, "simulate: method") is Method.ADAMS:
        opts.update(linear_multistep_method="adams", nonlinear_solver_iteration="functional")
    else:
        opts.update(solver_options(linear_solver, system))
    return opts


def given_state(system, x0, y0=None, z0=None) -> np.ndarray:
    """A complete initial state x0: one finite number per state, given instead of y0, z0."""
    if y0 is not None or z0 is not None:
        raise ModelError("simulate: give either x0 (the complete state) or y0/z0 (by name), "
                         "not both")
    x0 = vector(x0, system.x_names, "simulate: x0")
    check_quaternions(system, x0, "simulate: x0")
    return x0


def start_states(system, x0: np.ndarray, grid: np.ndarray, inputs, p,
                 z0: dict | None) -> np.ndarray:
    """x0 with the component states of initial equations solved at t0 (states given in z0
    held), for the inputs' values at t0 (``inputs``: a dict or InputSignals)."""
    if not getattr(system, "s_init", None):
        return x0
    signals = inputs if isinstance(inputs, InputSignals) else InputSignals(system, inputs)
    u0 = signals.numbers(grid[0])
    if "drive0" in system.functions:   # the states start with the driven coordinates set
        x0 = np.array(system.functions["drive0"](grid[0], x0, u0, p)).ravel()
    return solve_initial_states(system, x0, grid[0], u0, p, (z0 or {}))


def _input_builder(system, inputs: dict, grid: np.ndarray):
    """t ↦ u(t) as expressions for the event loop (:meth:`.inputs.InputSignals.builder`)."""
    return InputSignals(system, inputs).builder()


def _grid(t0: float, t_end: float, n_out: int, t_out) -> np.ndarray:
    """The output times: t_out as given (finite, increasing), or n_out from t0 to t_end."""
    t0 = number(t0, "simulate: t0", unit="s")
    if t_out is not None:
        if isinstance(t_out, (str, bytes)) or np.ndim(t_out) != 1:
            raise ModelError(f"simulate: t_out must be a sequence of times [s], got "
                             f"{t_out!r:.60}")
        grid = vector(t_out, Indexed("t_out", len(t_out)), "simulate: t_out")
        if grid.size < 2 or np.any(np.diff(grid) <= 0):
            raise ModelError("simulate: t_out must hold at least two increasing times")
        return grid
    t_end = number(t_end, "simulate: t_end", unit="s")
    if not t_end > t0:
        raise ModelError(f"simulate: t_end ({t_end}) must be greater than t0 ({t0})")
    return np.linspace(t0, t_end, count(n_out, "simulate: n_out", minimum=2))


def _input_expressions(system, inputs: dict, grid: np.ndarray, t):
    """u(t): constants as numbers, tables as clamped linear interpolants, callables called
    (MX ``t``) or sampled over ``grid`` and checked (SX ``t``; :mod:`.inputs`)."""
    return InputSignals(system, inputs).expression(t, grid)
