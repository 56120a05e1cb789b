"""Sampled updates in the event loop: the model's sampled blocks (ZeroOrderHold,
DiscretePID, …) as SampledCallbacks in signal order, the user's callbacks checked, and which
callbacks are due at an instant. The general machinery (a callback with its own period whose
output is held in discrete variables or inputs) is :class:`~jourdain.solver.hybrid.events.
SampledCallback`; a Python controller running at a sample period uses the same path."""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError, SimulationError

from ..hybrid.events import SampledCallback


def model_samplers(system) -> list[SampledCallback]:
    """The model's sampled blocks as callbacks, each after the blocks it reads."""
    info, out = system.hybrid, []
    for order, block in enumerate(_sampled_order(system)):
        fn = system.functions[f"update:{block.path}"]
        targets = [system.p_names[i] for i in info.discrete_index[block.path].values()]
        out.append(SampledCallback(block.sample_period, _block_update(fn), targets,
                                   block.start_time, block.path, order))
    return out


MAX_SAMPLES = 10_000_000   # samples of one sampled block or callback over a simulation
PERIOD_FLOOR = 1e-9        # [s, relative to 1 + |t|] the shortest period the loop resolves


def check_period(period: float, t0: float, t_end: float, where: str) -> None:
    """A ModelError when a sample period cannot run: shorter than the loop resolves at these
    times (samples within 1e-12·(1 + |t|) s merge), or more than MAX_SAMPLES samples over
    the horizon (each is an event of the loop: 1e-9 s over 1 s hung the loop)."""
    floor = PERIOD_FLOOR * (1 + max(abs(t0), abs(t_end)))
    n = (t_end - t0) / period
    if period < floor or n > MAX_SAMPLES:
        raise ModelError(f"{where} {period:.3g} s " + (
            f"is below the shortest period the event loop resolves here ({floor:.3g} s)"
            if period < floor else f"makes {n:.3g} samples over the {t_end - t0:.6g} s "
            f"horizon (at most {MAX_SAMPLES:.0e}: each sample is an event of the loop)") +
            "; give a longer period or a shorter horizon")


def check_samplers(system, samplers, held_mask: np.ndarray, model: list | None = None,
                   given: list | None = None) -> list[SampledCallback]:
    """The user's callbacks, their targets checked; inputs they drive are marked held. A
    target set by another sampler (``model``: the model's sampled blocks, then the user's
    earlier callbacks) or given in ``inputs=`` (``given``) is a ModelError: one would
    silently override the other."""
    out, owner = [], {name: s.label for s in (model or []) for name in s.targets}
    for sampler in samplers:
        if not isinstance(sampler, SampledCallback):
            raise ModelError(f"simulate: samplers must be SampledCallback objects, got "
                             f"{sampler!r:.60}")
        for name in sampler.targets:
            if name in owner:
                raise ModelError(f"{sampler.label}: target '{name}' is already set by "
                                 f"{owner[name]}; two samplers would override each other")
            owner[name] = sampler.label
            if name in (given or []):
                raise ModelError(f"{sampler.label}: target '{name}' is also given in inputs=; "
                                 "the sampler would override it: leave it out of inputs")
            if name in system.u_names:
                held_mask[system.u_names.index(name)] = True
            elif name not in system.p_names:
                raise ModelError(f"{sampler.label}: target '{name}' is neither an input nor "
                                 "a discrete variable or parameter of the system")
        out.append(sampler)
    return out


def all_samplers(system, extra, held_mask: np.ndarray, given: list,
                 grid: np.ndarray) -> list[SampledCallback]:
    """The model's sampled blocks as callbacks (dependency order), then the user's (checked:
    :func:`check_samplers`); every period checked against the horizon."""
    out = model_samplers(system)
    for sampler in out:
        check_period(sampler.period, grid[0], grid[-1], f"{sampler.label}: sample_period")
    for sampler in check_samplers(system, extra, held_mask, out, given):
        check_period(sampler.period, grid[0], grid[-1], f"{sampler.label}: period")
        sampler.order = len(out)
        out.append(sampler)
    return out


MAX_GUARD_SAMPLES = 1e8    # guard samples over a simulation (event_step ≥ horizon/1e8)


def check_event_step(event_step: float, span: float) -> None:
    """A ModelError for an event_step that makes more than MAX_GUARD_SAMPLES guard samples
    (1e-12 s over 20 s asked numpy for 146 TiB)."""
    if span / event_step > MAX_GUARD_SAMPLES:
        raise ModelError(f"simulate: event_step {event_step:.3g} s makes "
                         f"{span / event_step:.3g} guard samples over the {span:.6g} s "
                         f"horizon (at most {MAX_GUARD_SAMPLES:.0e}); give a larger "
                         "event_step (default: a quarter of the output interval)")


def check_time_events(events: list, t0: float) -> None:
    """A ModelError for a TimeEvent time at or before the start (it would never fire)."""
    for event in events:
        early = event.times[event.times <= t0 + 1e-12 * (1 + abs(t0))]
        if early.size:
            raise ModelError(f"TimeEvent '{event.name}': time {early[0]:.6g} s is not after the "
                             f"start t0 = {t0:.6g} s, so it would never fire; give the state at "
                             "t0 (y0, z0) instead of a reset there")


def due(samplers: list[SampledCallback], t: float) -> list[SampledCallback]:
    """The callbacks with a sample at t, in their order."""
    eps = 1e-9 * max(1e-3, min((s.period for s in samplers), default=1.0))
    return sorted((s for s in samplers if abs(s.next_time(t, eps) - t) <= eps),
                  key=lambda s: s.order)


def _sampled_order(system) -> list:
    """The model's sampled blocks, each after the sampled blocks it reads (a topological order
    of the signal graph; declaration order breaks ties and cycles)."""
    info = system.hybrid
    if info is None:
        return []
    blocks = list(info.samplers)
    deps = {b.path: set() for b in blocks}
    for b in blocks:
        fn = system.functions[f"update:{b.path}"]
        used = set(np.flatnonzero(np.array(ca.DM(fn.sparsity_jac("p", "d")).full()).any(axis=0)))
        for other in blocks:
            if other is not b and used & set(info.discrete_index[other.path].values()):
                deps[b.path].add(other.path)
    order, done = [], set()
    while len(order) < len(blocks):
        ready = [b for b in blocks if b.path not in done and deps[b.path] <= done] or \
            [next(b for b in blocks if b.path not in done)]
        order.append(ready[0])
        done.add(ready[0].path)
    return order


def _block_update(fn: ca.Function):
    def update(t, x, u, p):
        return np.array(fn(t, x, u, p), dtype=float).ravel()
    return update


def sample_values(sampler: SampledCallback, t: float, x, u, p) -> np.ndarray:
    """The callback's new values at t, or a SimulationError naming the callback and the
    time where it raises, returns something that is not numbers, or returns NaN/inf."""
    try:
        values = np.atleast_1d(np.asarray(sampler.callback(t, x, u, p), dtype=float)).ravel()
    except (ModelError, SimulationError):
        raise
    except Exception as exc:
        raise SimulationError(f"{sampler.label}: the sampled callback failed at t = {t:.9g} s "
                              f"({type(exc).__name__}: {exc})") from exc
    if values.size != len(sampler.targets):
        raise SimulationError(f"{sampler.label}: the sampled callback returned "
                              f"{values.size} values for {len(sampler.targets)} targets")
    bad = np.flatnonzero(~np.isfinite(values))
    if bad.size:
        raise SimulationError(f"{sampler.label}: the sampled callback returned "
                              f"{values[bad[0]]} for '{sampler.targets[bad[0]]}' at "
                              f"t = {t:.9g} s; its values must be finite")
    return values
