"""Consumer: simulation through the event loop (:mod:`.events`) and its Result — the usual
series plus each hybrid row's force (``<element>.<row>``, e.g. ``clutch.tau``) and each
discrete variable (``<element>.mode``) on the output grid, and the event log ``res.events``.

A model whose bodies fall into independent islands (:mod:`..hybrid.islands`: a hundred balls
that meet the walls, not each other) runs one event loop per island, each between its own
events, and the islands' results are merged: the outputs on the common grid, the event logs
in time order (a record's states are its island's; the other entries are NaN, not computed
at that instant)."""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import SimulationError

from ..hybrid.islands import island_systems
from .eventlog import EventLog, EventRecord
from .events import SIMULTANEOUS, EventLoop
from .result import Result


def simulate_events(system, grid: np.ndarray, x0: np.ndarray, p: np.ndarray, u_expr_of,
                    opts: dict, events=(), samplers=(), event_step=None, chatter=None,
                    max_events=None, dae: bool = False, islands: bool = True,
                    open_opts: dict | None = None) -> Result:
    """Run the event loop from x0 over ``grid`` and collect the Result (``open_opts``: the
    integrator options of segments where no row is active, :mod:`.segments`)."""
    # a callable input is a Callback call (:mod:`.inputs`): MX
    t = (ca.MX if getattr(u_expr_of, "needs_mx", False) else ca.SX).sym("t")
    u_numeric = ca.Function("u_of_t", [t], [u_expr_of(t)])
    extra = {}
    if chatter is not None:
        extra["chatter"] = chatter
    if max_events is not None:
        extra["max_events"] = max_events

    def loop_for(view, x_start):
        return EventLoop(view, grid, x_start, p, u_expr_of, u_numeric, opts,
                         list(events or ()), list(samplers or ()), event_step, dae=dae,
                         open_opts=open_opts, **extra)
    views = island_systems(system) if islands and not (events or samplers or dae) \
        else [system]
    if len(views) > 1:
        return _islands(system, views, grid, x0, p, loop_for, max_events)
    loop = loop_for(system, x0)
    X, P, U, n = loop.run()
    t_out = grid[:n]
    X, P, U = X[:, :n], P[:, :n], U[:, :n]
    if loop.stopped and loop.t > t_out[-1]:   # a terminal event: end at its instant
        t_out = np.append(t_out, loop.t)
        X = np.hstack([X, loop.x[:, None]])
        P = np.hstack([P, loop.p[:, None]])
        U = np.hstack([U, loop._u(loop.t)[:, None]])
    res = Result.from_states(system, t_out, X, U, P)
    _hybrid_series(system, res, t_out, X, U, P)
    res.events = loop.log
    res.segments = loop.segments.calls
    return res


def _hybrid_series(system, res: Result, t, X, U, P) -> None:
    info = system.hybrid
    if info is None:
        return
    for name in info.discrete_names:
        res.series[name] = P[system.p_names.index(name)].copy()
    if "hybrid" not in system.functions or not info.rows:
        return
    n = t.size
    out = system.functions["hybrid"].map(n)(t.reshape(1, -1), X, U, P)
    lam = np.array(out[1], dtype=float).reshape(len(info.rows), n)
    for row, values in zip(info.rows, lam):
        res.series[row.label] = row.sign * values


def _islands(system, views, grid, x0, p, loop_for, max_events) -> Result:
    """One event loop per island (module docstring), merged."""
    n = len(grid)
    X, P = np.zeros((system.nx, n)), np.tile(p[:, None], (1, n))
    U, logs, calls = None, [], 0
    for view in views:
        idx = view.island.x
        loop = loop_for(view, x0[idx])
        Xi, Pi, U, k = loop.run()
        if k < n:   # only a user's terminal event ends early, and those do not split
            raise SimulationError(f"{view!r}: the island's event loop ended at "
                                  f"t = {loop.t:.9g} s before the horizon")
        X[idx] = Xi
        own = [system.p_names.index(name) for name in
               (view.hybrid.discrete_names if view.hybrid is not None else [])]
        P[own] = Pi[own]
        logs.append((idx, loop.log))
        calls += loop.segments.calls
    res = Result.from_states(system, grid, X, U, P)
    for view in views:
        _hybrid_series(view, res, grid, X[view.island.x], U, P)
    res.events = _merged_logs(system.nx, x0, logs, max_events)
    res.segments = calls
    return res


def _merged_logs(nx: int, x0: np.ndarray, logs: list, max_events) -> EventLog:
    """The islands' event logs as one, in time order: their start records as one, and guard
    events of different islands at the same instant (within SIMULTANEOUS) as one record, as
    the single event loop fires them (two balls dropped together land together)."""
    start = EventRecord(logs[0][1][0].t, "simulation", "initial", "start", [], x0.copy(),
                        x0.copy(), {}, {}, None)
    records = []
    for k, (idx, log) in enumerate(logs):
        _absorb(start, log[0], idx)
        records += [(record.t, k, idx, record) for record in log[1:]]
    merged = EventLog([start])
    group: set = set()   # the islands in the last merged record
    for t, k, idx, record in sorted(records, key=lambda item: item[:2]):
        prev = merged[-1]
        if record.kind in ("guard", "time") and record.kind == prev.kind and k not in group \
                and abs(t - prev.t) <= SIMULTANEOUS * (1 + abs(t)):
            prev.element += ", " + record.element
            prev.cause += ", " + record.cause
            _absorb(prev, record, idx)
            group.add(k)
        else:
            blank = EventRecord(record.t, record.element, record.kind, record.cause, [],
                                np.full(nx, np.nan), np.full(nx, np.nan), {}, {}, None)
            _absorb(blank, record, idx)
            merged.append(blank)
            group = {k}
    guards = sum(1 for r in merged if r.kind == "guard")
    if max_events is not None and guards > max_events:
        raise SimulationError(f"more than {max_events} events ({guards}) over the islands of "
                              "independent bodies (raise max_events=)")
    return merged


def _absorb(into: EventRecord, record: EventRecord, idx: np.ndarray) -> None:
    """Add an island's record (its states at idx) to a merged record."""
    into.changes += record.changes
    into.x_before[idx], into.x_after[idx] = record.x_before, record.x_after
    into.discrete_before.update(record.discrete_before)
    into.discrete_after.update(record.discrete_after)
    if record.energy_lost is not None:
        into.energy_lost = (into.energy_lost or 0.0) + record.energy_lost
