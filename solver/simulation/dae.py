"""Consumer: simulation of constrained systems. Partitioning and Baumgarte are ODEs for CVODES
(partitioning with its conditioning monitored and the partition switched where it degrades,
:mod:`.partitioned`; Baumgarte through :mod:`.simulate`); the DAE method integrates
x = (y, w) with the multipliers λ algebraic by IDAS (SUNDIALS), starting from the λ that the
acceleration-level constraint gives at x0. Every method's Result passes the drift guard
(:mod:`.guard`)."""
from __future__ import annotations


import casadi as ca
import numpy as np

from jourdain.blocks.errors import SimulationError

from ..constraints.initial import check_consistent
from ..constraints.methods import ConstraintMethod
from ..model.checks import flag, keywords
from .events import needs_events
from .guard import check_drift, check_rank
from .hybrid import simulate_events
from .inputs import InputSignals
from .integrators import LinearSolver, choose_method, run
from .partitioned import simulate_partitioned
from .progress import Watch, check_progress
from .result import Result
from .singular import crossing_before_failure, crossing_level, watch_singular
from .simulate import (
    Method,
    _grid,
    _input_builder,
    given_state,
    integrator_options,
    simulate,
    start_states,
)
from .tolerances import resolve as resolve_tolerances


@keywords
def simulate_constrained(system, t_end: float, y0: dict | None = None, z0: dict | None = None,
                         x0: np.ndarray | None = None, inputs: dict | None = None,
                         params: dict | None = None, t0: float = 0.0, n_out: int = 501,
                         t_out=None, rtol: float | None = None, atol: float | None = None,
                         max_steps: int = 100000, method: Method = Method.AUTO,
                         progress: bool | None = None, stiff: bool | None = None,
                         linear_solver: LinearSolver = LinearSolver.AUTO, events=None,
                         samplers=None, event_step: float | None = None,
                         chatter: tuple | None = None, max_events: int | None = None,
                         islands: bool = True, max_step: float | None = None) -> Result:
    """Integrate a ConstrainedSystem (see ``simulate``): from y0, z0 assembled by
    ``system.state`` or from a complete x0 checked against the constraints. Partitioning and
    Baumgarte run on CVODES (``method``, ``stiff``, ``linear_solver`` as in ``simulate``),
    the DAE method on IDAS (BDF); events, samplers, event_step, chatter, max_events and
    islands as for ``simulate`` (the event loop, docs/hybrid.md); max_step [s] bounds every
    integrator's step."""
    hybrid = {"events": events, "samplers": samplers, "event_step": event_step,
              "chatter": chatter, "max_events": max_events, "islands": islands}
    check_progress(progress)
    rtol, atol, tolerances = resolve_tolerances(   # LOOPS for every constraint method
        rtol, atol, t0, _grid(t0, t_end, n_out, t_out)[-1], loops=True)
    integrator_options(rtol, atol, max_steps, method, linear_solver, None, max_step)  # checks
    if stiff is not None:
        flag(stiff, "simulate: stiff")
    if x0 is None:
        x0 = _start(system, y0, z0, params, inputs, _grid(t0, t_end, n_out, t_out))
    else:
        x0 = given_state(system, x0, y0, z0)
        check_consistent(system, x0, system.parameters(params))
    if needs_events(system, events, samplers):   # the event loop (fixed partition)
        if system.method is not ConstraintMethod.DAE:
            res = simulate(system, t_end, inputs=inputs, params=params, t0=t0, n_out=n_out,
                           t_out=t_out, rtol=rtol, atol=atol, max_steps=max_steps, x0=x0,
                           method=method, stiff=stiff, linear_solver=linear_solver,
                           max_step=max_step, **hybrid)
        else:
            grid, p = _grid(t0, t_end, n_out, t_out), system.parameters(params)
            res = simulate_events(system, grid, x0, p,
                                  _input_builder(system, inputs or {}, grid),
                                  integrator_options(rtol, atol, max_steps, max_step=max_step),
                                  dae=True, **hybrid)
        check_drift(system, res, rtol, atol)   # the drift guard holds between events too
        res.stats["tolerances"] = tolerances
        return res
    if system.method is ConstraintMethod.BAUMGARTE:
        try:
            res = simulate(system, t_end, inputs=inputs, params=params, t0=t0, n_out=n_out,
                           t_out=t_out, rtol=rtol, atol=atol, max_steps=max_steps, x0=x0,
                           method=method, progress=progress, stiff=stiff,
                           linear_solver=linear_solver, max_step=max_step)
        except SimulationError as exc:   # a singular crossing before the failure is the cause
            named = crossing_before_failure(
                system, _grid(t0, t_end, n_out, t_out), x0, system.parameters(params),
                _rerun(system, inputs, params, rtol, atol, max_steps, method, linear_solver,
                       max_step), crossing_level(rtol, atol))
            if named is None:
                raise
            raise named from exc
        res.stats["tolerances"] = tolerances
        return _guarded(system, res, system.parameters(params), rtol, atol,
                        _rerun(system, inputs, params, rtol, atol, max_steps, res.method,
                               linear_solver, max_step))
    grid = _grid(t0, t_end, n_out, t_out)
    p = system.parameters(params)
    if system.method is ConstraintMethod.PARTITIONING:
        method, reason = _method(system, method, stiff, grid, x0, inputs, p, rtol)
        res = simulate_partitioned(system, grid, x0, inputs or {}, p, rtol, atol, max_steps,
                                   method, progress, max_step)
        res.method = method
        res.stats = dict(res.stats, method_reason=reason, tolerances=tolerances)
        return _guarded(system, res, p, rtol, atol)
    try:
        sol, stats, signals = _idas(system, grid, x0, inputs, p, rtol, atol, max_steps,
                                    linear_solver, progress, max_step)
    except SimulationError as exc:   # IDAS's own text names no time nor configuration
        raise _idas_failure(system, grid, x0, p, rtol, atol, inputs, params, max_steps,
                            linear_solver, max_step) from exc
    xs = np.array(sol["xf"])
    res = Result.from_states(system, grid, xs, signals.on(grid), p)
    res.method = Method.BDF
    res.stats = dict(stats, method_reason="IDAS integrates the DAE with BDF",
                     tolerances=tolerances)
    zs = np.array(sol["zf"])
    for i in range(zs.shape[0]):
        res.series[f"lambda[{i}]"] = zs[i]
    return _guarded(system, res, p, rtol, atol,
                    _rerun(system, inputs, params, rtol, atol, max_steps, Method.BDF,
                           linear_solver, max_step))


def _rerun(system, inputs, params, rtol, atol, max_steps, method, linear_solver, max_step):
    """rerun(t_a, x_a, times) for the singular watch (:mod:`.singular`): the states at
    ``times`` from (t_a, x_a) by the explicit-multiplier ODE f on CVODES, which both
    multiplier methods carry (IDAS restarted from an output near a singular configuration
    fails to find consistent initial conditions)."""
    def rerun(t_a, x_a, times):
        return simulate(system, times[-1], inputs=inputs, params=params,
                        t_out=np.append(t_a, times), rtol=rtol, atol=atol,
                        max_steps=max_steps, x0=x_a, method=method, progress=False,
                        linear_solver=linear_solver, max_step=max_step).x[:, 1:]
    return rerun


def _idas(system, grid, x0, inputs, p, rtol, atol, max_steps, linear_solver, progress,
          max_step):
    """(solution, stats, input signals) of IDAS on the DAE over ``grid`` from x0, λ0 from
    the acceleration-level constraint at x0."""
    signals = InputSignals(system, inputs)
    sym = ca.MX if signals.needs_mx else ca.SX   # a callable input is a Callback call
    t, x = sym.sym("t"), sym.sym("x", system.nx)
    u_fn = signals.function(sym)
    u = u_fn(t)
    lam = sym.sym("lambda", system.dae.size1_in(2))
    pp = sym.sym("p", len(p))
    ode, alg = system.dae(t, x, lam, u, pp)
    dae = {"t": t, "x": x, "z": lam, "p": pp, "ode": ode, "alg": alg}
    # The multipliers are excluded from IDAS's local error test: they are algebraic functions
    # of (y, w) solved to Newton's tolerance at every step, so their error follows the
    # states'. Kept in the test they made IDAS reject nearly every step on a spatial loop
    # (8e3 steps, 8e3 error-test failures, 60 s CPU for 0.2 s at rtol 1e-10, and a worse
    # answer: 4e-7 from partitioning against 2e-10 without them; tests/test_properties.py).
    opts = {**integrator_options(rtol, atol, max_steps, Method.BDF, linear_solver, None,
                                 max_step),
            "suppress_algebraic": True}
    integ = ca.integrator("simulate_dae", "idas", dae, grid[0], grid, opts)
    u0 = signals.numbers(grid[0])
    lam0 = np.array(system.multipliers(grid[0], x0, u0, p)).ravel()
    try:
        with Watch(progress is not False, "simulate (IDAS)"):   # no pieces: elapsed time only
            sol, stats = run(integ, x0=x0, z0=lam0, p=p)
    except RuntimeError as exc:
        signals.raise_recorded(exc)
        raise SimulationError(f"IDAS failed on the constrained DAE: {exc}; try "
                              "ConstraintMethod.PARTITIONING or looser tolerances") from exc
    return sol, stats, signals


def _idas_failure(system, grid, x0, p, rtol, atol, inputs, params, max_steps, linear_solver,
                  max_step) -> SimulationError:
    """The error for an IDAS failure in the user's terms. IDAS stops with its corrector
    failing (IDA_CONV_FAIL) where the motion passes a singular configuration (measured: the
    IFToMM N-four-bar at n = 4 folding flat at t = 0.867 s), and its message names neither the
    time nor the loop. So the same motion is integrated by the explicit-multiplier ODE on
    CVODES (:func:`_rerun`) and given to the singular watch (:mod:`.singular`): its named
    crossing error is raised if it finds one; otherwise a SimulationError says so."""
    rerun = _rerun(system, inputs, params, rtol, atol, max_steps, Method.BDF, linear_solver,
                   max_step)
    named = crossing_before_failure(system, grid, x0, p, rerun, crossing_level(rtol, atol))
    if named is not None:
        named.args = ("IDAS (ConstraintMethod.DAE) failed to converge: " + named.args[0],)
        return named
    return SimulationError(
        f"IDAS (ConstraintMethod.DAE) failed between t = {grid[0]:g} and {grid[-1]:g} s: its "
        "corrector did not converge, and the explicit-multiplier ODE over the same interval "
        "finds no singular configuration of the loops to blame; try "
        "ConstraintMethod.PARTITIONING (the default), looser tolerances or a smaller "
        "max_step (IDAS's own message is the cause of this error)")


def _start(system, y0, z0, params, inputs, grid) -> np.ndarray:
    """x0 from y0 and z0: the loops assembled about the held values and, with kinematic
    drivers, about the driven coordinates at their references at t0 (as ``initialize`` and
    an FMU start: assembled first and driven afterwards, a filtered driver's crank began
    where the assembly left it and was pulled to its reference); then the component states
    of initial equations."""
    if "drive0" in system.functions:
        u0 = InputSignals(system, inputs).numbers(grid[0])
        x0 = system.initialize(y0, z0, params=params, t0=float(grid[0]), u0=u0).x0
    else:
        x0 = system.state(y0, z0, params)
    return start_states(system, x0, grid, inputs, system.parameters(params), z0)


def _method(system, method, stiff, grid, x0, inputs, p, rtol) -> tuple:
    """:func:`.integrators.choose_method` at the start of a partitioned run."""
    u0 = InputSignals(system, inputs).numbers(grid[0])
    return choose_method(system, method, stiff, grid, x0, u0, p, rtol, watched=True)


def _guarded(system, res: Result, p: np.ndarray, rtol: float, atol: float,
             rerun=None) -> Result:
    """The drift guard (:mod:`.guard`): residuals within the accuracy, constraints of full
    rank (partitioning checks the rank on the way, by its conditioning monitor; the
    multiplier methods at the outputs and, by ``rerun``, between them: :mod:`.singular`)."""
    check_drift(system, res, rtol, atol)
    if system.method is not ConstraintMethod.PARTITIONING:   # the first crossing first
        watch_singular(system, res, p, rerun, crossing_level(rtol, atol))
        check_rank(system, res, p)
    return res
