"""Simulation with a controller in the loop: continuous (the law folded into the equations,
:mod:`.loop`) or sampled with a zero-order hold at a fixed period.

Sampled mode. At the sample times t_k = t0 + k·period the controller reads the state x(t_k)
and its output u_k is held until t_{k+1}. The controller runs as a
:class:`~jourdain.solver.hybrid.events.SampledCallback` of the event loop (:mod:`.events`,
docs/hybrid.md): CVODES restarts at every sample, where u jumps, the output grid is exact,
and the plant's own events (stops, contacts, friction modes, sampled blocks, the user's
events and samplers) run with it, in one time line. A closed kinematic loop under
partitioning runs each sample interval as its own simulation of the system instead, so its
partitions switch as in an open-loop run. The other inputs follow ``inputs`` as in an
open-loop simulation. A compiled law (jd.Feedback) is evaluated numerically at the samples,
a Python callable is called there.
"""
from __future__ import annotations

import inspect
from types import SimpleNamespace

import numpy as np

from jourdain.blocks.errors import ModelError, SimulationError

from ..hybrid.events import SampledCallback
from ..model.checks import mapping, number, unknown
from ..model.names import require_system
from .dae import simulate_constrained
from .diagnosis import check_initial_state
from .loop import Law, fold, resolve
from .result import Result
from .inputs import InputSignals
from .sampling import check_period
from .simulate import (
    _grid,
    given_state,
    simulate,
    start_states,
)

MERGE_TOL = 1e-12   # sample and output times closer than this (relative) coincide


def run(system, t_end: float, controller=None, period: float | None = None, **options):
    """Simulate ``system`` (``System.simulate`` delegates here): without a controller by
    :func:`.simulate.simulate` (or :func:`.dae.simulate_constrained` for a constrained
    system); with ``controller`` continuously (folded into the equations) or, with
    ``period`` [s], sampled with a zero-order hold (module docstring). ``options`` are
    simulate's keyword arguments."""
    if controller is None and period is None:
        plain = simulate_constrained if getattr(system, "method", None) is not None \
            else simulate
        return plain(system, t_end, **options)
    require_system(system, "simulate")
    if controller is None:
        raise ModelError(f"simulate: period={period!r} needs a controller (controller=..., "
                         "a function u(t, x) or a jd.Feedback) to sample")
    unknown_keys = [k for k in options if k not in SIMULATE_KEYWORDS]
    if unknown_keys:
        raise ModelError(unknown("simulate: keyword", unknown_keys[0],
                                 list(SIMULATE_KEYWORDS) + ["controller", "period"]))
    settings = {**SIMULATE_KEYWORDS, **options, "t_end": t_end}
    t0 = number(settings["t0"], "simulate: t0", unit="s")
    x0 = _initial_state(system, settings)
    p = system.parameters(settings["params"])
    law = resolve(system, controller, t0, x0, p)
    inputs = mapping(settings["inputs"], "inputs", "input name")
    both = [n for n in inputs if n in law.names]
    if both:
        raise ModelError(f"inputs: '{both[0]}' is driven by the controller; leave it out of "
                         "inputs (or let the controller return only the inputs it drives, as "
                         "a dict by name)")
    if period is not None:
        period = number(period, "simulate: period", 0.0, open_low=True, unit="s")
        grid = _grid(t0, t_end, settings["n_out"], settings["t_out"])
        check_period(period, grid[0], grid[-1], "simulate: period")   # 1e-9 s hung
        if "dae" in system.functions:
            raise ModelError("simulate: a sampled controller needs an ODE; compile with "
                             "ConstraintMethod.PARTITIONING or BAUMGARTE (not DAE)")
        return simulate_sampled(system, t_end, law, period, x0, p, settings)
    return _continuous(system, t_end, law, x0, options)


# simulate's keyword arguments and their defaults, read from its signature (so a keyword added
# there reaches the controlled runs too)
SIMULATE_KEYWORDS = {name: par.default for name, par in
                     inspect.signature(simulate).parameters.items()
                     if par.default is not inspect.Parameter.empty}


def _continuous(system, t_end: float, law: Law, x0: np.ndarray, options: dict) -> Result:
    """The law folded into the equations, integrated like any System; an error raised by a
    Python controller inside the integrator is reported as itself."""
    folded = fold(system, law.function, law.names, law.callback)
    run_options = {k: v for k, v in options.items() if k not in ("y0", "z0", "x0")}
    try:
        result = folded.simulate(t_end, x0=x0, **run_options)
    except (RuntimeError, ModelError, SimulationError) as exc:
        error = getattr(getattr(law.callback, "controller", None), "error", None)
        if error is not None and error is not exc:
            raise (error if isinstance(error, ModelError) else ModelError(
                f"controller: {error}")) from exc
        raise
    result.controller_calls = getattr(law.callback, "calls", 0)
    return result


def _initial_state(system, options: dict) -> np.ndarray:
    """x0 as simulate forms it: by name (assembled for a constrained system; component states
    with initial equations solved for the open-loop inputs at t0, the driven ones 0) or
    given."""
    y0, z0, x0 = options["y0"], options["z0"], options["x0"]
    if x0 is not None:
        return given_state(system, x0, y0, z0)
    if getattr(system, "method", None) is not None:
        return system.state(y0, z0, options["params"])
    x0 = system.state(y0, z0)
    grid = _grid(options["t0"], options["t_end"], options["n_out"], options["t_out"])
    return start_states(system, x0, grid, options["inputs"], system.parameters(
        options["params"]), z0)


def _breakpoints(grid: np.ndarray, period: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sorted union of output and sample times, and which of them are outputs/samples."""
    n = int(np.floor((grid[-1] - grid[0]) / period * (1 + MERGE_TOL))) + 1
    samples = grid[0] + period * np.arange(n)
    times = np.concatenate([grid, samples])
    order = np.argsort(times, kind="stable")
    times = times[order]
    is_output = order < grid.size
    tol = MERGE_TOL * max(1.0, float(np.abs(grid).max()))
    merged, out_flags, sample_flags = [], [], []
    for t, out in zip(times, is_output):
        if merged and t - merged[-1] <= tol:
            out_flags[-1] |= out
            sample_flags[-1] |= not out
            continue
        merged.append(t)
        out_flags.append(out)
        sample_flags.append(not out)
    return np.array(merged), np.array(out_flags), np.array(sample_flags)


def simulate_sampled(system, t_end: float, law: Law, period: float, x0: np.ndarray,
                     p: np.ndarray, options: dict) -> Result:
    """The sampled-data loop of the module docstring: the controller as a sampled callback
    of the event loop (for a partitioned closed loop, :func:`_sampled_segments`)."""
    if getattr(system, "partitions", None) is not None:
        return _sampled_segments(system, t_end, law, period, x0, p, options)
    calls = [0]

    def control(t, x, u, p_now):
        calls[0] += 1
        return np.asarray(law.numeric(t, x, p_now), dtype=float).ravel()
    sampler = SampledCallback(period, control, list(law.names), float(options["t0"]),
                              "controller", log=False)
    run = {k: v for k, v in options.items()
           if k in SIMULATE_KEYWORDS and k not in ("y0", "z0", "x0", "samplers")}
    run["samplers"] = list(options.get("samplers") or ()) + [sampler]
    result = simulate(system, t_end, x0=x0, **run)
    result.controller_calls = calls[0]
    return result


def _sampled_segments(system, t_end: float, law: Law, period: float, x0: np.ndarray,
                      p: np.ndarray, options: dict) -> Result:
    """Sample interval by sample interval, each a simulation of the system (partitions
    switch inside it), the controller's output held."""
    grid = _grid(options["t0"], t_end, options["n_out"], options["t_out"])
    keep = [n for n in system.u_names if n not in law.names]
    u_rest = InputSignals(SimpleNamespace(u_names=keep), options["inputs"]).numbers
    segment = _segment(system, law, p, options)
    times, is_output, is_sample = _breakpoints(grid, period)
    x = np.asarray(x0, dtype=float)
    held = np.asarray(law.numeric(times[0], x, p), dtype=float).ravel()
    u_full = _full_inputs(system, law.names, keep, held, u_rest, times[0])
    check_initial_state(system, times[0], x, u_full, p)
    xs, helds = [x], [held]
    for a, b, out, sample in zip(times[:-1], times[1:], is_output[1:], is_sample[1:]):
        try:
            x = segment(a, b, x, held)
        except RuntimeError as exc:
            raise SimulationError(f"CVODES failed between t = {a:.6g} s and {b:.6g} s with "
                                  f"the sampled controller's inputs held at "
                                  f"{dict(zip(law.names, held.round(6)))}: the motion is too "
                                  "fast or the state left the model's domain") from exc
        if sample:
            held = np.asarray(law.numeric(b, x, p), dtype=float).ravel()
        if out:
            xs.append(x)
            helds.append(held)
    us = np.vstack([_full_inputs(system, law.names, keep, u, u_rest, t)
                    for u, t in zip(helds, grid)]).T if system.u_names else \
        np.zeros((0, grid.size))
    result = Result.from_states(system, grid, np.array(xs).T, us, p)
    result.controller_calls = int(is_sample.sum())
    return result


def _segment(system, law: Law, p: np.ndarray, options: dict):
    """(a, b, x_a, held) -> x_b for a system that switches partitions (partitioning of closed
    loops): a simulation of the segment by the system itself (with its conditioning watched
    and partitions switched), the held inputs as constants and the others as given."""
    rest = {k: v for k, v in (options["inputs"] or {}).items()}
    params = dict(zip(system.p_names, np.asarray(p, dtype=float).tolist()))

    def run_segment(a, b, x, held):
        inputs = rest | dict(zip(law.names, held.tolist()))
        res = system.simulate(b, t0=a, x0=x, t_out=[a, b], inputs=inputs, params=params,
                              rtol=options["rtol"], atol=options["atol"],
                              max_steps=options["max_steps"], method=options["method"])
        return res.x[:, -1]
    return run_segment


def _full_inputs(system, driven: list[str], keep: list[str], held: np.ndarray,
                 u_rest, t: float) -> np.ndarray:
    """All inputs in system.u_names order from the held and the open-loop ones at t."""
    rest = np.asarray(u_rest(t), dtype=float).ravel()
    parts = dict(zip(driven, held)) | dict(zip(keep, rest))
    return np.array([parts[n] for n in system.u_names])
