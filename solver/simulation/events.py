"""The event loop of hybrid simulation (DESIGN.md §6, docs/hybrid.md).

The horizon is integrated in segments (:mod:`.segments`). In each segment the guards —
the hybrid elements' and the user's :class:`~jourdain.solver.hybrid.events.Event` — are
sampled on SUNDIALS' dense output (spacing ``event_step``); a sign change in a guard's
direction is localized on a Hermite interpolant of the two samples and polished by Newton's
method on fresh integrations from the sample before it (:mod:`.localize`), so the event time
is as accurate as the integration. Guards whose roots coincide (within
1e-12·(1 + |t|) s) fire together, in declaration order: a box landing flat hits with four
corners at once. At the event instant the transitions run (:func:`.hybrid.state.resolve`:
impacts, Modelica's event iteration, the projection onto the constraints that hold now), the
record goes to the event log, and the integrator restarts from the new state.

Time events are segment ends: samples of the sampled callbacks (model blocks such as a
ZeroOrderHold, or Python callbacks), the user's TimeEvents, the times blocks declare through
their ``time_events`` hook (a Step's step time), the input tables' times, and the jumps of
time-only signals a scan finds (:mod:`.discontinuities`). Chattering — ``chatter[0]``
events in a row, each within ``chatter[1]`` s of the previous — ends in a
:class:`~jourdain.solver.hybrid.state.ChatteringError` with the time, the state and the
elements involved.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError, SimulationError
from jourdain.blocks.hybrid.base import Direction

from ..hybrid.events import Event, SampledCallback, TimeEvent, trace_guards, trace_reset
from ..hybrid.state import EventState, check_reset_gaps, check_start_gaps, resolve
from ..model.checks import count, number
from .crossings import bracket_start, crossing_sign, earliest_crossings, start_sides
from .discontinuities import restart_times
from .eventlog import EventLog, EventRecord, chatter_limits, check_chatter
from .localize import Trajectory, earliest
from .numeric import NumericFunction, chunk_sizes
from .sampling import (all_samplers, check_event_step, check_time_events, due,
                       sample_values)
from .segments import Segments, segment_times
from .zeno import (ZenoWatch, bounce_slots, element_zeno_error, rate_function,
                   user_zeno_error)

SAMPLES_PER_OUTPUT = 4     # guard samples per output interval unless event_step says otherwise
SAMPLES_PER_HORIZON = 400  # at least, whatever n_out: a double crossing between two is missed
ROOT_TOL = 1e-13           # [s, relative to 1 + |t|] Brent's tolerance on event times
SIMULTANEOUS = 1e-12       # [s, relative to 1 + |t|] roots this close fire together
BAND = 1e-13               # guard values within ±BAND·(1 + scale) count as zero
AT_EVENT = 1e-9            # right after an event, |guard| ≤ AT_EVENT·(1 + scale) is zero
PREFIX = 64                # samples whose guards are evaluated first (_first_crossing)
SEGMENT_SAMPLES = 65536    # guard samples in one segment at most (memory of its time grid)


@dataclass
class GuardSlot:
    """One watched zero-crossing function: its label, direction and origin."""

    label: str
    direction: Direction
    owner: object = None      # hybrid element (GuardInfo) or None for a user event
    info: object = None       # GuardInfo or Event


def needs_events(system, events, samplers) -> bool:
    """True when the simulation needs the event loop."""
    return bool(getattr(system, "hybrid", None) is not None or events or samplers)


class EventLoop:
    """One hybrid simulation (see the module docstring). Build, then ``run()``."""

    def __init__(self, system, grid, x0, p, u_expr_of, u_numeric, opts, events=(),
                 samplers=(), event_step=None, chatter=(100, None), max_events=200000,
                 dae: bool = False, open_opts: dict | None = None):
        self.system, self.grid, self.opts = system, grid, opts
        self.t, self.x, self.p = float(grid[0]), np.array(x0, dtype=float), p.copy()
        self.nu = len(system.u_names)
        self.u_held = np.zeros(self.nu)
        self.held_mask = np.zeros(self.nu, dtype=bool)
        self.u_numeric = u_numeric
        user = [e for e in events if isinstance(e, Event)]
        self.time_events = [e for e in events if isinstance(e, TimeEvent)]
        bad = [e for e in events if not isinstance(e, (Event, TimeEvent))]
        if bad:
            raise ModelError(f"simulate: events must be jd.Event or jd.TimeEvent objects, got "
                             f"{bad[0]!r:.60}")
        self.samplers = all_samplers(system, samplers, self.held_mask,
                                     getattr(u_expr_of, "given", []), grid)
        check_time_events(self.time_events, self.t)
        dae_spec = None
        if dae:   # IDAS on the constrained DAE; λ at each start from the explicit formula
            dae_spec = (system.dae, system.dae.size1_in(2),
                        lambda t, x, p, u_held: np.array(system.multipliers(
                            t, x, self._u(t), p), dtype=float).ravel())
        self.segments = Segments(system, u_expr_of, self.held_mask, opts, dae_spec, open_opts)
        self.slots, self.G = self._guards(user)
        self.G_full = self._full_guards(u_expr_of)
        self._u_fast = NumericFunction(u_numeric)
        self._watched_key, self._watched_mask = None, None
        self.resets = {id(e): trace_reset(system, e.reset, f"Event '{e.name}'")
                       for e in list(user) + self.time_events if e.reset is not None}
        span = float(grid[-1] - grid[0])
        self.event_step = min(float(np.min(np.diff(grid))) / SAMPLES_PER_OUTPUT, span /
                              SAMPLES_PER_HORIZON) if event_step is None else \
            number(event_step, "simulate: event_step", 0.0, open_low=True, unit="s")
        check_event_step(self.event_step, span)
        self.chatter = chatter_limits(chatter, span)
        self._zeno_watch = ZenoWatch(max(self.event_step, 1e-3 * span))
        self._scales, self._gdot = np.ones(len(self.slots)), None
        self.max_events = count(max_events, "simulate: max_events")
        info = system.hybrid
        # the blocks' declared time events, the input tables' times and the jumps a scan
        # finds (:mod:`.discontinuities`)
        found, _ = restart_times(system, grid, p, getattr(u_expr_of, "signals", None))
        self.source_times = sorted(set(found) | set(
            info.time_events(grid[0], grid[-1]) if info is not None else []) | {
            t for t in getattr(u_expr_of, "breakpoints", []) if grid[0] < t < grid[-1]})
        self.log = EventLog()
        self._after_event, self._offsets = True, np.zeros(0)
        self._fired: set = set()   # the guards that fired at the event the segment starts at
        self._run_length, self._chatter_run = 0, 0
        self._maps: dict = {}
        self.stopped, self._impacted = False, set()

    # ---- set-up ------------------------------------------------------------------------
    def _guards(self, user: list[Event]):
        """One function of all guards, G(t, x, u, p) (MX), and the slots describing them."""
        slots, parts = [], []
        t, x = ca.MX.sym("t"), ca.MX.sym("x", self.system.nx)
        u, p = ca.MX.sym("u", self.nu), ca.MX.sym("p", len(self.system.p_names))
        info = self.system.hybrid
        if info is not None and info.guards:
            parts.append(self.system.functions["hybrid"](t, x, u, p)[4])
            slots += [GuardSlot(g.label, g.direction, g.owner, g) for g in info.guards]
        if user:
            parts.append(trace_guards(self.system, user)(t, x, u, p))
            slots += [GuardSlot(e.name, e.direction, None, e) for e in user]
        G = ca.Function("guards", [t, x, u, p], [ca.vertcat(*parts) if parts else
                                                 ca.MX(0, 1)])
        return slots, G

    def _full_guards(self, u_expr_of) -> ca.Function:
        """G(t, x, p, u_held) with the inputs (interpolated or held) computed inside."""
        t, x = ca.MX.sym("t"), ca.MX.sym("x", self.system.nx)
        p, held = ca.MX.sym("p", len(self.system.p_names)), ca.MX.sym("u_held", self.nu)
        mask = ca.DM(self.held_mask.astype(float))
        u = mask * held + (1 - mask) * u_expr_of(t) if self.nu else u_expr_of(t)
        return ca.Function("guards_full", [t, x, p, held], [self.G(t, x, u, p)])

    # ---- numbers -----------------------------------------------------------------------
    def _u(self, t) -> np.ndarray:
        u = np.atleast_1d(self._u_fast(t)).astype(float).ravel()
        return np.where(self.held_mask, self.u_held, u) if self.nu else u

    def _guard_values(self, times, X) -> np.ndarray:
        """All guards at the given times and states (mapped calls of a few cached sizes)."""
        n, out, k = len(times), np.zeros((len(self.slots), len(times))), 0
        times, X = np.asarray(times, dtype=float), np.asarray(X, dtype=float)
        for m in (chunk_sizes(n) if self.slots else []):
            if m not in self._maps:   # p and the held inputs shared by the samples
                self._maps[m] = NumericFunction(self.G_full.map(m, [False, False, True, True],
                                                                [False]))
            res = self._maps[m](times[k:k + m], X[:, k:k + m].T.ravel(), self.p, self.u_held)
            out[:, k:k + m] = np.asarray(res, dtype=float).reshape(len(self.slots), m,
                                                                   order="F")
            k += m
        return out

    def _rate(self, t: float, x: np.ndarray) -> np.ndarray:
        """ẋ = f(t, x, u, p) (a buffered call, built on first use)."""
        if getattr(self, "_f_fast", None) is None:
            self._f_fast = NumericFunction(self.system.f)
        return np.asarray(self._f_fast(t, x, self._u(t), self.p), dtype=float).ravel()

    def _watched(self) -> np.ndarray:
        """Which guards are watched in the present modes (cached per p)."""
        key = self.p.tobytes()
        if key != self._watched_key:
            info = self.system.hybrid
            out = np.ones(len(self.slots), dtype=bool)
            for k, slot in enumerate(self.slots):
                if slot.owner is not None:
                    out[k] = slot.info.guard.watched(info.discrete_values(slot.owner, self.p))
            self._watched_key, self._watched_mask = key, out
        return self._watched_mask

    # ---- the loop ----------------------------------------------------------------------
    def run(self):
        """Integrate over the grid; returns (X, P, U, n) with n the number of grid outputs
        recorded (fewer than the grid after a terminal event)."""
        grid, n = self.grid, len(self.grid)
        X = np.zeros((self.system.nx, n))
        P = np.zeros((len(self.p), n))
        U = np.zeros((self.nu, n))
        self._initialize()
        X[:, 0], P[:, 0], U[:, 0] = self.x, self.p, self._u(self.t)
        k_out = 1
        span = grid[-1] - grid[0]
        length = span
        while k_out < n and not self.stopped:
            eps = 1e-12 * (1 + abs(self.t))
            t_hard, kind = self._next_hard(eps)
            t_b = min(t_hard, self.t + min(length, SEGMENT_SAMPLES * self.event_step))
            if t_b < t_hard and t_hard - t_b < 0.25 * length:
                t_b = t_hard             # no sliver segments before a time event
            times, Xs = self._integrate(k_out, t_b)
            t_b = times[-1]
            crossing = self._first_crossing(times, Xs)
            if crossing is not None:
                t_e, x_e, fired = self._localize(times, Xs, crossing)
                k_out = self._record(X, P, U, times, Xs, k_out, t_e, inclusive=False)
                length = max(4 * self.event_step, 2 * (t_e - self.t))
                self._guard_event(t_e, x_e, fired)
                self._after_event, self._fired = True, set(fired)
                # an output at the event shows the values after it, as at time events and
                # Modelica's last row at an event (right limits, docs/hybrid.md)
                k_out = self._record(X, P, U, np.array([t_e]), self.x[:, None], k_out, t_e, True)
                continue
            self._after_event, self._fired = t_b == t_hard and kind != "end", set()
            k_out = self._record(X, P, U, times, Xs, k_out, t_b, not self._after_event)
            self.t, self.x = float(t_b), Xs[:, -1].copy()
            length = min(2 * length, span)
            if self._after_event:   # an output at a time event shows the values after it
                self._time_event(t_b)
                k_out = self._record(X, P, U, times[-1:], self.x[:, None], k_out, t_b, True)
        return X, P, U, k_out

    def _integrate(self, k_out: int, t_b: float, tries: int = 6):
        """The segment to t_b — or, when SUNDIALS fails on it (a force law that turns
        singular past an event the segment runs through), ever shorter ones from the same
        start; a SimulationError with the time, state and modes when even a short one fails."""
        for _ in range(tries):
            times = self._segment_times(k_out, t_b)
            try:
                Xs, _ = self.segments.run(self.t, times, self.x, self.p, self.u_held)
                return times, Xs
            except RuntimeError as exc:
                failure = str(exc).rsplit(":", 1)[-1].strip()
                t_b = self.t + (t_b - self.t) / 8
        state = ", ".join(f"{n}={v:.6g}" for n, v in zip(self.system.x_names, self.x))
        modes = ", ".join(f"{n}={v:g}" for n, v in self._discrete().items())
        raise SimulationError(f"integration failed after t = {self.t:.9g} s ({failure}); "
                              f"state: {state}; discrete: {modes or 'none'}. Likely causes: "
                              "a stiff or singular force law (a compliant contact with a large "
                              "stiffness, a tiny regularization speed), or an inconsistent "
                              "mode; try a looser tolerance or a smaller event_step")

    def _segment_times(self, k_out: int, t_b: float) -> np.ndarray:
        return segment_times(self.grid[k_out:], self.t, t_b, self.event_step)

    def _record(self, X, P, U, times, Xs, k_out, t_stop, inclusive) -> int:
        """Copy the grid outputs up to t_stop (included or not) from the segment's samples."""
        n, tol = len(self.grid), (1e-14 if inclusive else -1e-12) * (1 + abs(t_stop))
        while k_out < n and self.grid[k_out] <= t_stop + tol:
            j = int(np.argmin(np.abs(times - self.grid[k_out])))
            if abs(times[j] - self.grid[k_out]) > 1e-12 * (1 + abs(times[j])):
                break   # the output lies after the event: recorded in a later segment
            X[:, k_out], P[:, k_out] = Xs[:, j], self.p
            U[:, k_out] = self._u(self.grid[k_out])
            k_out += 1
        return k_out

    def _next_hard(self, eps: float) -> tuple[float, str]:
        """The next time event after t: a sample, a TimeEvent, a source's step, or t_end."""
        best, kind = float(self.grid[-1]), "end"
        for sampler in self.samplers:
            t_s = sampler.next_time(self.t + 2 * eps, 0.0)
            if t_s < best - eps or (kind == "end" and t_s <= best + eps):   # t_end samples too
                best, kind = t_s, "sample"
        for event in self.time_events:
            later = event.times[event.times > self.t + eps]
            if later.size and later[0] < best - eps:
                best, kind = float(later[0]), "time"
        for t_s in self.source_times:
            if self.t + eps < t_s < best - eps:
                best, kind = float(t_s), "time"
        return best, kind

    # ---- zero crossings ----------------------------------------------------------------
    def _first_crossing(self, times, Xs):
        """(index of the sample after the crossing, guards crossing there, the guard
        values, their signs) or None.

        Right after an event a guard that fired sits at zero up to the localization error
        (on either side); in the first segment after an event every guard within
        AT_EVENT·(1 + scale) of zero is measured from its start value (g − g0, so it starts
        exactly at zero) and counted on the side it is leaving to: a bounce shorter than the
        sample spacing is still seen landing. The guards are evaluated on growing prefixes
        of the samples (PREFIX, then doubling; scale is taken over the prefix): a crossing
        early in a long segment costs the prefix, not the whole segment."""
        if not self.slots:
            return None
        all_t = np.concatenate([[self.t], times])
        all_x = np.hstack([self.x[:, None], Xs])
        G, stop = np.zeros((len(self.slots), 0)), min(len(all_t), PREFIX)
        while True:
            done = G.shape[1]
            G = np.hstack([G, self._guard_values(all_t[done:stop], all_x[:, done:stop])])
            crossing = self._crossing_in(G)
            if crossing is not None or stop == len(all_t):
                return crossing
            stop = min(len(all_t), 2 * stop)

    def _crossing_in(self, G: np.ndarray):
        """:meth:`_first_crossing` on the guard values G at the first samples."""
        self._offsets = np.zeros(len(self.slots))
        scale = self._scales = 1 + np.abs(G).max(axis=1)
        if self._after_event:
            self._offsets = np.where(np.abs(G[:, 0]) <= AT_EVENT * scale, G[:, 0], 0.0)
            G = G - self._offsets[:, None]
        band = BAND * scale
        sign = np.where(G > band[:, None], 1, np.where(G < -band[:, None], -1, 0))
        watched = self._watched()
        if np.any((sign[:, 0] == 0) & watched & np.any(sign != 0, axis=1)):
            leaving = start_sides(self._leaving(G[:, 0], band),
                                  [slot.direction for slot in self.slots], self._fired)
            sign[:, 0] = np.where(sign[:, 0] == 0, leaving, sign[:, 0])
        first, hits = earliest_crossings(sign, [slot.direction for slot in self.slots], watched)
        if first is None:
            return None
        return first, hits, G, sign, band

    def _leaving(self, g0: np.ndarray, band: np.ndarray) -> np.ndarray:
        """The side each guard at zero is leaving to at the segment start, from an Euler
        step of δ = 1e-6·event_step (0 where it stays)."""
        delta = 1e-6 * self.event_step
        u = self._u(self.t)
        xdot = np.array(self.system.f(self.t, self.x, u, self.p), dtype=float).ravel()
        g1 = self._guard_values(np.array([self.t + delta]), (self.x + delta * xdot)[:, None])
        step = g1[:, 0] - self._offsets - g0
        return np.where(step > 1e-3 * band, 1, np.where(step < -1e-3 * band, -1, 0))

    def _localize(self, times, Xs, crossing):
        """The earliest root among the crossing guards, the state there, the guards firing
        (:func:`.localize.earliest`)."""
        j, hits, G, sign, bands = crossing
        all_t = np.concatenate([[self.t], times])
        all_x = np.hstack([self.x[:, None], Xs])
        trajs, brackets = {}, {}
        for k in hits:
            a = bracket_start(sign[k], j)
            s = crossing_sign(self.slots[k].direction, G[k, a], G[k, j], bands[k])
            trajs[k] = self._trajectory(k, s, bands[k])
            brackets[k] = ((all_t[a], all_x[:, a]), (all_t[j], all_x[:, j]))
        return earliest(trajs, brackets, ROOT_TOL * (1 + abs(all_t[j])), SIMULTANEOUS)

    def _trajectory(self, k, s, band) -> Trajectory:
        """Guard k as seen by localization: crossed where s·(g − offset) > band."""
        offset = self._offsets[k]

        def phi(times, X):
            return s * (self._guard_values(times, X)[k] - offset) - band
        def probe(t0, x0, ts):   # uniform times: exact k/n, one integrator per count
            taus = tuple(np.arange(1, len(ts) + 1) / len(ts))
            return self.segments.run(t0, ts, x0, self.p, self.u_held, taus)[0]
        return Trajectory(probe, phi, self._rate)

    # ---- event instants ----------------------------------------------------------------
    def _state(self, t: float, x: np.ndarray) -> EventState | None:
        if self.system.hybrid is None:
            return None
        return EventState(self.system, t, x, self._u(t), self.p)

    def _initialize(self) -> None:
        """Modelica's initial(): elements choose consistent modes; samplers due at t0 run."""
        x_before, d_before = self.x.copy(), self._discrete()
        state = self._state(self.t, self.x)
        if state is not None:
            check_start_gaps(state)
            for element in self.system.hybrid.elements:
                element.initialize(state)
            resolve(state, [])   # the impacts initialize asked for, settle, projection
            self.x, self.p = state.x, state.p
        for sampler in self._due(self.t):
            self._sample(sampler)
        changes = state.changes if state is not None else []
        lost = [c.energy_lost for c in changes if c.energy_lost is not None]   # a start impact
        self.log.append(EventRecord(self.t, "simulation", "initial", "start",
                                    [f"{c.element}: {c.detail}" for c in changes], x_before,
                                    self.x.copy(), d_before, self._discrete(),
                                    sum(lost) if lost else None))

    def _guard_event(self, t_e: float, x_e: np.ndarray, fired: list[int]) -> None:
        x_before, d_before = x_e.copy(), self._discrete()
        self.t, self.x = float(t_e), np.array(x_e, dtype=float)
        bouncing = bounce_slots(self.slots, fired)
        zeno = self._zeno(bouncing) if bouncing else []
        user = [self.slots[k] for k in fired if self.slots[k].owner is None]
        element = [self.slots[k].info for k in fired if self.slots[k].owner is not None]
        changes = []
        for slot in user:
            changes += self._reset(slot.info)
            self.stopped |= slot.info.terminal
        more, lost = self._resolve(element, {self.slots[z.slot].owner.path for z in zeno})
        # an element that made no impact is not bouncing: left to the chatter check
        zeno = [z for z in zeno if self.slots[z.slot].owner.path in self._impacted]
        changes += [z.words() for z in zeno] + more
        rates = self._guard_rates() if bouncing else []
        for k in bouncing:   # the rates after the event: the next flight's rise
            self._zeno_watch.record(k, self.t, rates[k])
        still = [z for z in zeno if self._watched()[z.slot]]
        if still:   # the plastic impact did not close the element: no rest to be had
            raise element_zeno_error(still[0], self.t, self._state_words())
        labels = [self.slots[k].label for k in fired]
        owner = ", ".join(dict.fromkeys(label.rsplit(".", 1)[0] if self.slots[k].owner
                                        is not None else label
                                        for k, label in zip(fired, labels)))
        causes = ", ".join(label.rsplit(".", 1)[-1] if self.slots[k].owner is not None
                           else "crossing" for k, label in zip(fired, labels))
        self._log(owner, "guard", causes, changes, x_before, d_before, lost)

    def _time_event(self, t: float) -> None:
        x_before, d_before = self.x.copy(), self._discrete()
        logged, changes = False, []
        for event in self.time_events:
            if np.any(np.abs(event.times - t) <= 1e-12 * (1 + abs(t))):
                changes += [f"{event.name}: {c}" for c in self._reset(event)] or [event.name]
                logged = True
        for sampler in self._due(t):
            self._sample(sampler)
            logged |= sampler.log
        more, lost = self._resolve([])
        changes += more
        if logged or more:
            self._log("simulation", "time", "time event", changes, x_before, d_before, lost)

    def _due(self, t: float) -> list[SampledCallback]:
        return due(self.samplers, t)

    def _sample(self, sampler: SampledCallback) -> None:
        values = sample_values(sampler, self.t, self.x, self._u(self.t), self.p)
        for name, value in zip(sampler.targets, values):
            if name in self.system.u_names:
                self.u_held[self.system.u_names.index(name)] = value
            else:
                self.p[self.system.p_names.index(name)] = value

    def _reset(self, event) -> list[str]:
        """Apply a user event's reset; the changes in words."""
        fn = self.resets.get(id(event))
        if fn is None:
            return []
        before = self.x
        self.x = np.array(fn(self.t, self.x, self._u(self.t), self.p), dtype=float).ravel()
        if self.system.hybrid is not None:   # a reset must not place a body in a rigid stop
            check_reset_gaps(self._state(self.t, before), self._state(self.t, self.x),
                             f"{type(event).__name__} '{event.name}'")
        return [f"{name} {a:.6g} → {b:.6g}" for name, a, b in
                zip(self.system.x_names, before, self.x) if a != b]

    def _zeno(self, bouncing: list[int]) -> list:
        """The fired guards in their Zeno limit (:mod:`.zeno`): a user event with a reset is
        a ChatteringError; element guards that ask for impacts get a plastic impact."""
        found, rates = [], self._guard_rates()
        for k in bouncing:
            zeno = self._zeno_watch.check(k, self.slots[k].label, self.t, rates[k],
                                          AT_EVENT * self._scales[k])
            if zeno is not None and self.slots[k].owner is None:
                raise user_zeno_error(zeno, self.t, self._state_words())
            if zeno is not None:
                found.append(zeno)
        return found

    def _guard_rates(self) -> np.ndarray:
        if self._gdot is None:
            self._gdot = NumericFunction(rate_function(self.G_full))
        xdot = self._rate(self.t, self.x)
        return np.asarray(self._gdot(self.t, self.x, self.p, self.u_held, xdot),
                          dtype=float).ravel()

    def _state_words(self) -> str:
        return ", ".join(f"{n}={v:.6g}" for n, v in zip(self.system.x_names, self.x))

    def _resolve(self, fired_guards: list, plastic=()) -> tuple[list[str], float | None]:
        state = self._state(self.t, self.x)
        if state is None:
            return [], None
        resolve(state, fired_guards, plastic)
        self.x, self.p = state.x, state.p
        self._impacted = {path for c in state.changes if c.kind == "impact"
                          for path in c.element.split(", ")}
        lost = [c.energy_lost for c in state.changes if c.energy_lost is not None]
        return ([f"{c.element}: {c.detail}" for c in state.changes],
                float(sum(lost)) if lost else None)

    def _discrete(self) -> dict:
        info = self.system.hybrid
        if info is None:
            return {}
        return {name: float(self.p[self.system.p_names.index(name)])
                for name in info.discrete_names}

    def _log(self, element, kind, cause, changes, x_before, d_before, lost) -> None:
        record = EventRecord(self.t, element, kind, cause, changes, x_before, self.x.copy(),
                             d_before, self._discrete(), lost)
        self.log.append(record)
        self._chatter_run = check_chatter(self.log, record, self.max_events, self.chatter,
                                          self._chatter_run, self._state_words())
