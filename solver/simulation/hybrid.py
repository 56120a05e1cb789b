"""Consumer: simulation through the event loop (:mod:`.events`) and its Result — the usual
series plus each hybrid row's force (``<element>.<row>``, e.g. ``clutch.tau``) and each
discrete variable (``<element>.mode``) on the output grid, and the event log ``res.events``."""
from __future__ import annotations

import casadi as ca
import numpy as np

from .events import EventLoop
from .result import Result


def simulate_events(system, grid: np.ndarray, x0: np.ndarray, p: np.ndarray, u_expr_of,
                    opts: dict, events=(), samplers=(), event_step=None, chatter=None,
                    max_events=None, dae: bool = False) -> Result:
    """Run the event loop from x0 over ``grid`` and collect the Result."""
    t = ca.SX.sym("t")
    u_numeric = ca.Function("u_of_t", [t], [u_expr_of(t)])
    extra = {}
    if chatter is not None:
        extra["chatter"] = chatter
    if max_events is not None:
        extra["max_events"] = max_events
    loop = EventLoop(system, grid, x0, p, u_expr_of, u_numeric, opts, list(events or ()),
                     list(samplers or ()), event_step, dae=dae, **extra)
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
