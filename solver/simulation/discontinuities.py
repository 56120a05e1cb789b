"""Discontinuities in time: where the integrator must stop and restart, and ``max_step``.

A multistep integrator steps over what it does not see: a 50 ms road bump written with
``ca.if_else`` on ``ctx.t`` lies between two steps of CVODES on a smooth stretch, and the
wheel never moves (peak 0.0000 m against 0.085 m). The instants where a signal jumps are
therefore segment ends, where the integration stops and restarts (:func:`integrate_pieces`
for a smooth model, the event loop's time events for a hybrid one), from three sources:

* **declared** by blocks through the public hook ``time_events(t0, t_end)`` of
  :class:`~jourdain.blocks.base.Component` (a Step's step time, a Pulse's edges, a Table's
  breakpoints, a user block's bump), collected at compile time (``system.time_sources``);
* the times of the inputs' tables (:mod:`.inputs`);
* **found** by a scan (:func:`scan_jumps`): the outputs that depend on time alone (signal
  sources, custom signal blocks) and the callable inputs are sampled SCAN_SAMPLES times per
  output interval (at most MAX_SCAN besides the outputs), and every increment that stands
  out from its neighbours is bisected down to 1e-12·(1 + |t|) s; what still jumps there by
  more than JUMP_TOL of the signal's range is a jump. A pulse shorter than the scan's
  spacing is not seen: declare it, or give ``max_step``.

``max_step`` [s] bounds CVODES's (IDAS's) step everywhere (:func:`check_max_step`).
"""
from __future__ import annotations

import copy

import casadi as ca
import numpy as np

from jourdain.blocks.base import Component
from jourdain.blocks.ports import Port
from jourdain.blocks.errors import ModelError

from ..model.checks import number
from .integrators import run

SCAN_SAMPLES = 16     # scan samples per output interval
MAX_SCAN = 100_001    # ... and at most this many besides the outputs (long output grids)
STANDOUT = 2.0        # an increment this many times its neighbours' is bisected
MAX_BISECTIONS = 200  # candidate increments bisected at most (the largest first)
JUMP_TOL = 1e-6       # a jump over 1e-12·(1 + |t|) s larger than this (of the range)
MERGE = 1e-9          # [s, relative to 1 + |t|] restart times closer than this are one


def check_max_step(max_step) -> float | None:
    """None, or a positive finite number of seconds (a ModelError naming max_step)."""
    if max_step is None:
        return None
    return number(max_step, "simulate: max_step", 0.0, open_low=True, unit="s")


def time_sources(components) -> list:
    """The components that override the ``time_events`` hook (compile time), detached: a
    shallow copy with its path but without its ports and its parent, so a pickled System
    (sweeps in other processes) does not carry the whole model with it (a ForceLaw's lambda
    elsewhere in the model would not pickle)."""
    out = []
    for comp in components:
        if type(comp).time_events is Component.time_events:
            continue
        copy_ = copy.copy(comp)
        for name, value in list(vars(copy_).items()):
            if isinstance(value, Port):
                delattr(copy_, name)
        copy_._path, copy_._parent = comp.path, None
        out.append(copy_)
    return out


def declared_times(system, t0: float, t_end: float) -> list[float]:
    """The times in (t0, t_end) the model's blocks declare, checked."""
    owner = getattr(system, "parent", system)   # an island's view: the whole System's blocks
    out = []
    for comp in getattr(owner, "time_sources", ()):
        try:
            times = np.asarray(comp.time_events(float(t0), float(t_end)), dtype=float).ravel()
        except (TypeError, ValueError):
            times = np.array([np.nan])
        if not np.all(np.isfinite(times)):
            raise ModelError(f"{comp.path}: time_events(t0, t_end) must return finite times "
                             f"[s], got {comp.time_events(t0, t_end)!r:.80}")
        out += [float(t) for t in times if t0 < t < t_end]
    return out


def restart_times(system, grid: np.ndarray, p: np.ndarray, signals=None) -> tuple:
    """(sorted restart times in the open horizon, the jumps the scan found that nothing
    declared): declared times, input tables' times and scanned jumps (module docstring)."""
    owner = getattr(system, "parent", system)   # islands share their System's scan
    key = (np.asarray(grid, dtype=float).tobytes(), np.asarray(p, dtype=float).tobytes(),
           id(signals))
    cached = owner.__dict__.get("_restart_times")
    if cached is not None and cached[0] == key:
        return cached[1]
    t0, t_end = float(grid[0]), float(grid[-1])
    known = declared_times(system, t0, t_end)
    if signals is not None:
        known += [t for t in signals.breakpoints if t0 < t < t_end]
    found = [t for t in scan_jumps(system, grid, p, signals) if not _near(t, known)]
    owner._restart_times = (key, (_merged(known + found), found))
    return owner._restart_times[1]


def _near(t: float, times) -> bool:
    return any(abs(t - s) <= 1e-6 * (1 + abs(t)) for s in times)


def _merged(times) -> list[float]:
    out: list[float] = []
    for t in sorted(times):
        if not out or t - out[-1] > MERGE * (1 + abs(t)):
            out.append(float(t))
    return out


# ---- the scan ----------------------------------------------------------------------------
def time_signals(system):
    """(F(t, p) -> the outputs of h that depend on time alone, their names), cached on the
    System; None when there are none (or h is not an SX function). An island's view reads
    its System's; a System with a controller folded in (:mod:`.loop`, whose h may be MX) its
    plant's, whose outputs come first in the same order."""
    owner = getattr(system, "parent", system)
    owner = getattr(owner, "plant", owner)
    cached = owner.__dict__.get("_time_signals", False)
    if cached is not False:
        return cached
    owner._time_signals = None
    h = owner.functions.get("h")
    if h is None or not h.is_a("SXFunction") or not owner.output_names:
        return None
    rows = _time_only_rows(h)
    if rows:
        t, p = ca.SX.sym("t"), ca.SX.sym("p", h.nnz_in(3))
        out = h(t, ca.SX.zeros(h.nnz_in(1)), ca.SX.zeros(h.nnz_in(2)), p)[rows]
        try:
            owner._time_signals = (ca.Function("time_signals", [t, p], [out]),
                                   [owner.output_names[r] for r in rows])
        except RuntimeError:   # a row reads another symbol after all: no scan
            owner._time_signals = None
    return owner._time_signals


def _time_only_rows(h: ca.Function) -> list[int]:
    def used(i):
        return set(h.sparsity_jac(i, 0).get_triplet()[0]) if h.nnz_in(i) else set()
    return sorted(used(0) - used(1) - used(2))


def scan_jumps(system, grid: np.ndarray, p: np.ndarray, signals=None) -> list[float]:
    """Times of jumps of the time-only outputs and the callable inputs (module docstring)."""
    fns = []
    spec = time_signals(system)
    if spec is not None:
        fns.append(_mapped(spec[0], p))
    if signals is not None and signals.callables:
        fns.append(lambda ts: signals.on(ts)[signals.callables])
    if not fns:
        return []
    n = min(SCAN_SAMPLES * (len(grid) - 1) + 1, MAX_SCAN)
    ts = np.unique(np.concatenate([grid, np.linspace(grid[0], grid[-1], n)]))
    jumps = []
    for values_of in fns:
        Y = values_of(ts)
        for row in range(Y.shape[0]):
            def value(t, values_of=values_of, row=row):
                return float(values_of(np.array([t]))[row, 0])
            jumps += jumps_of(ts, Y[row], value)
    return _merged(jumps)


def _mapped(fn: ca.Function, p: np.ndarray):
    """ts -> the function's rows at the times ts (one column each)."""
    def values_of(ts):
        if len(ts) == 1:
            return np.array(fn(ts[0], p), dtype=float).reshape(-1, 1)
        return np.array(fn.map(len(ts))(ts.reshape(1, -1), p),
                        dtype=float).reshape(-1, len(ts), order="F")
    return values_of


def jumps_of(ts: np.ndarray, y: np.ndarray, value) -> list[float]:
    """The jumps of one sampled signal: increments that stand out (STANDOUT times the smaller
    of their neighbours': a one-sample spike has one quiet neighbour), the largest
    MAX_BISECTIONS of them bisected (:func:`_bisect`)."""
    d = np.abs(np.diff(y))
    scale = float(np.ptp(y))
    if scale == 0.0 or not np.isfinite(scale):
        return []
    left = np.concatenate([[0.0], d[:-1]])
    right = np.concatenate([d[1:], [0.0]])
    stands = np.flatnonzero((d > STANDOUT * np.minimum(left, right)) &
                            (d > JUMP_TOL * scale))
    stands = stands[np.argsort(-d[stands])][:MAX_BISECTIONS]
    out = []
    for k in sorted(stands):
        t = _bisect(ts[k], ts[k + 1], y[k], y[k + 1], value, JUMP_TOL * scale)
        if t is not None:
            out.append(t)
    return out


def _bisect(a: float, b: float, ya: float, yb: float, value, tol: float) -> float | None:
    """The time where the signal jumps in [a, b] (the end of a bracket of 1e-12·(1 + |t|) s
    across which it still changes by more than ``tol``), or None when it is continuous there:
    the half with the larger change is kept."""
    width = 1e-12 * (1 + abs(b))
    while b - a > width:
        m = 0.5 * (a + b)
        if m <= a or m >= b:
            break
        ym = value(m)
        if abs(ym - ya) >= abs(yb - ym):
            b, yb = m, ym
        else:
            a, ya = m, ym
        if abs(yb - ya) <= tol:
            return None
    return float(b) if abs(yb - ya) > tol else None


# ---- integration in pieces ---------------------------------------------------------------
def integrate_pieces(dae: dict, t, grid: np.ndarray, x0, p, opts: dict, times) -> tuple:
    """(states on the grid, statistics) integrated from restart to restart: CVODES stops at
    every time of ``times`` and restarts there (order 1, a fresh step). The ODE is shifted to
    start at 0 (t = t_k + τ) so one integrator serves every piece of the same relative
    output times."""
    tk = type(t).sym("t_k")
    shifted = {"t": t, "x": dae["x"], "p": ca.vertcat(dae["p"], tk),
               "ode": ca.substitute(dae["ode"], t, tk + t)}
    bounds = [float(grid[0])] + [b for b in times if grid[0] < b < grid[-1]] + \
        [float(grid[-1])]
    cache, stats = {}, {}
    x = np.asarray(x0, dtype=float)
    out = [x.reshape(-1, 1)]
    for a, b in zip(bounds[:-1], bounds[1:]):
        outs = grid[(grid > a) & (grid <= b)]
        ends_at_b = outs.size and outs[-1] == b
        rel = (outs if ends_at_b else np.append(outs, b)) - a
        key = tuple(np.round(rel, 12))
        if key not in cache:
            cache[key] = ca.integrator(f"piece_{len(cache)}", "cvodes", shifted, 0.0,
                                       list(rel), opts)
        sol, piece = run(cache[key], x0=x, p=np.append(p, a))
        for name, value in piece.items():
            stats[name] = stats.get(name, 0) + value
        xs = np.array(sol["xf"], dtype=float).reshape(x.size, -1)
        x = xs[:, -1]
        out.append(xs[:, :outs.size])   # the outputs come first; b last unless one of them
    stats["restarts"] = len(bounds) - 2
    return np.hstack(out), stats
