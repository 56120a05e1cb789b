"""A Result that vouches for itself (``res.check()``): the energy balance and the constraint
residuals recomputed from the Result's own series, with a verdict.

Energy balance. With E = T + V + W (``energy.total``), P_sup (``power.supplied``), P_diss
(``power.dissipated``), the kinetic energy impacts took (the event log's ``energy_lost``:
impacts and the projection of the speeds onto closed rows) and the energy the resets of user
events put in (measured from the states before and after), each counted at its instant:

    r(t) = E(t) − E(0) − ∫₀ᵗ (P_sup − P_diss) dt + Σ_{events ≤ t} (ΔE_lost − ΔE_reset)

is zero for an exact solution whose bookkeeping is complete. The integral is Simpson's rule
on the output grid, split at the events (the power jumps there: a clutch engages, a contact
closes; its values just before and after come from the event log's states). Its own error
is estimated against the same rule on every second sample (|I_h − I_2h|/3), so a coarse
grid is not mistaken for a missing power. The verdict compares
max |r| with ``rtol`` times the energy scale (the largest of max T, the swing of V and W,
∫|P_sup|, ∫P_diss and the impacts' losses: the energy that moved) plus that estimate.

Constraint residuals. Closed loops and contacts: the series ``residual.position[i]`` (c(y))
and ``residual.velocity[i]`` (A(y)·w); hybrid rows that are constraints in their mode (a stop
resting at its limit, a stuck clutch): their velocity γ and, for unilateral rows, the gap g.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.integrate import cumulative_simpson

from ..model.checks import number


@dataclass
class Check:
    """What :func:`check` found. ``ok`` (and ``bool(check)``) is the verdict: the energy
    balance holds to ``rtol`` relative to ``energy_scale`` (beyond the quadrature's own
    error) and every constraint residual is within ``constraint_tol``."""

    energy_error: float         # max |r(t)| [J]
    energy_scale: float         # [J] the energy that moved (module docstring)
    quadrature_error: float     # [J] estimated error of the trapezoid integral
    impacts_lost: float         # [J] kinetic energy the impacts took (event log)
    rtol: float
    resets: float = 0.0         # [J] energy the user events' resets put in
    position_residual: float = 0.0   # max |c(y)| and active rows' gaps [m or rad]
    velocity_residual: float = 0.0   # max |A(y)·w| and active rows' γ [m/s or rad/s]
    constraint_tol: float = 1e-6
    notes: list = field(default_factory=list)

    @property
    def energy_relative(self) -> float:
        """max |r| / energy scale."""
        return self.energy_error / self.energy_scale

    @property
    def energy_ok(self) -> bool:
        return self.energy_error <= self.rtol * self.energy_scale + self.quadrature_error

    @property
    def constraints_ok(self) -> bool:
        return max(self.position_residual, self.velocity_residual) <= self.constraint_tol

    @property
    def ok(self) -> bool:
        return self.energy_ok and self.constraints_ok

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        verdict = "holds" if self.ok else "FAILS"
        lines = [f"Result check: {verdict}",
                 f"  energy balance  max |E(t) − E(0) − ∫(P_sup − P_diss) dt + losses| = "
                 f"{self.energy_error:.3g} J = {self.energy_relative:.3g} of the energy scale "
                 f"{self.energy_scale:.3g} J ({'within' if self.energy_ok else 'EXCEEDS'} "
                 f"rtol {self.rtol:g}; quadrature error ≈ {self.quadrature_error:.2g} J)",
                 f"  events          impacts took {self.impacts_lost:.6g} J, resets put in "
                 f"{self.resets:.6g} J",
                 f"  constraints     position {self.position_residual:.3g}, velocity "
                 f"{self.velocity_residual:.3g} ({'within' if self.constraints_ok else 'EXCEED'} "
                 f"{self.constraint_tol:g})"]
        if self.quadrature_error > 0.5 * self.rtol * self.energy_scale:
            lines.append("  note: the output grid limits the check (simulate with a larger "
                         "n_out for a sharper one)")
        return "\n".join(lines + [f"  note: {n}" for n in self.notes])

    __repr__ = __str__


@dataclass
class _Event:
    """One event instant as the balance needs it: net power and energy before and after,
    the recorded loss, and whether the Result's sample at that instant shows the after."""

    t: float
    power: tuple
    energy: tuple
    lost: float
    reset: bool          # a user event (its reset's work is measured, not logged)
    shows_after: bool


def check(result, rtol: float = 1e-3, constraint_tol: float = 1e-6) -> Check:
    """Recompute the energy balance and the constraint residuals of ``result`` (module
    docstring); ``rtol`` [1] relative to the energy scale, ``constraint_tol`` the largest
    residual accepted [m or rad, m/s or rad/s]."""
    rtol = number(rtol, "check: rtol", 0.0, open_low=True)
    constraint_tol = number(constraint_tol, "check: constraint_tol", 0.0)
    t = np.asarray(result.t, dtype=float)
    s = result.series
    E = np.asarray(s["energy.total"], dtype=float)
    P = np.asarray(s.get("power.supplied", np.zeros_like(t)), dtype=float) - \
        np.asarray(s["power.dissipated"], dtype=float)
    events = event_points(result)
    integral = cumulative_integral(t, P, events)
    lost, resets = np.zeros_like(t), np.zeros_like(t)
    for ev in events:
        tol = 1e-12 * (1.0 + abs(ev.t))
        at = t >= ev.t - tol if ev.shows_after else t > ev.t + tol
        lost[at] += ev.lost
        if ev.reset:
            resets[at] += ev.energy[1] - ev.energy[0]
    r = E - E[0] - integral + lost - resets if t.size else np.zeros(0)
    notes = []
    if not np.all(np.isfinite(r)):
        notes.append(f"{int(np.sum(~np.isfinite(r)))} samples with non-finite energy or power")
    moved = [np.abs(s["energy.kinetic"]).max(), np.ptp(s["energy.potential"]),
             np.ptp(s["energy.stored"]), cumulative_integral(t, np.abs(P))[-1], lost[-1],
             np.abs(resets).max()] if t.size else []
    out = Check(float(np.max(np.abs(r))) if r.size and not notes else float("inf"),
                float(max(moved + [np.finfo(float).tiny])), _quadrature_error(t, P, events),
                float(lost[-1]) if t.size else 0.0, rtol,
                float(resets[-1]) if t.size else 0.0, constraint_tol=constraint_tol,
                notes=notes)
    out.position_residual, out.velocity_residual = constraint_residuals(result)
    return out


def cumulative_integral(t: np.ndarray, f: np.ndarray, events=()) -> np.ndarray:
    """∫₀ᵗ f on the samples, starting at 0: Simpson's rule (scipy's cumulative_simpson)
    between events; over an interval that holds an event (_Event), where f jumps, the
    trapezoid rule up to the value before and on from the value after."""
    if t.size < 2:
        return np.zeros_like(t)
    steps = 0.5 * (f[1:] + f[:-1]) * np.diff(t)
    within: dict = {}
    for ev in events:
        # the interval (t_i, t_i+1] holds the event, or [t_i, t_i+1) where the sample at
        # the event's instant shows the state before it
        i = int(np.searchsorted(t, ev.t, side="left" if ev.shows_after else "right")) - 1
        if 0 <= i < t.size - 1:
            within.setdefault(i, []).append(ev)
    for i, evs in within.items():   # straight lines between the samples and the jumps
        times = [t[i]] + [e.t for e in evs for _ in (0, 1)] + [t[i + 1]]
        values = [f[i]] + [v for e in evs for v in e.power] + [f[i + 1]]
        steps[i] = sum(0.5 * (values[k] + values[k + 1]) * (times[k + 1] - times[k])
                       for k in range(0, len(times) - 1, 2))
    jumped = np.zeros(t.size - 1, dtype=bool)
    jumped[list(within)] = True
    edges = np.flatnonzero(np.diff(np.concatenate([[True], jumped, [True]]).astype(int)))
    for a, b in zip(edges[::2], edges[1::2]):   # runs of intervals [a, b) without events
        if b - a >= 2:
            steps[a:b] = np.diff(cumulative_simpson(f[a:b + 1], x=t[a:b + 1], initial=0.0))
    return np.concatenate([[0.0], np.cumsum(steps)])


def _quadrature_error(t: np.ndarray, f: np.ndarray, events=()) -> float:
    """An estimate of the quadrature's error over the run: |I_h − I_2h|/3 against the same
    rule on every second sample (Richardson's for the trapezoid; Simpson's own is smaller)."""
    if t.size < 5:
        return 0.0
    fine = cumulative_integral(t, f, events)[::2]
    coarse = cumulative_integral(t[::2], f[::2], events)
    return float(np.max(np.abs(fine - coarse)) / 3.0)


def event_points(result) -> list[_Event]:
    """The events of a hybrid run after its start, with P_sup − P_diss and E before and
    after (states and discrete values from the event log; the entries an island's record
    leaves NaN, and the inputs, interpolated on the grid: they do not jump there)."""
    log, system = getattr(result, "events", None), result.system
    fns = getattr(system, "functions", None) or {}
    if not log or "dissipation" not in fns or not result.t.size:
        return []
    t, X = result.t, np.asarray(result.x, dtype=float)
    names = list(system.p_names)
    P = np.asarray(result.p, dtype=float)
    U = np.array([result.series[n] for n in system.u_names]).reshape(-1, t.size)
    info = getattr(system, "hybrid", None)
    elements = {e.path for e in info.elements} if info is not None else set()
    out = []
    for record in log:
        if record.kind == "initial" or not t[0] < record.t <= t[-1]:
            continue
        i = min(int(np.searchsorted(t, record.t, side="left")), t.size - 1)
        u = np.array([np.interp(record.t, t, row) for row in U])
        p0 = P[:, max(i - 1, 0)] if P.ndim == 2 else P
        sides = []
        for x, discrete in ((record.x_before, record.discrete_before),
                            (record.x_after, record.discrete_after)):
            x = np.array(x, dtype=float)
            gaps = np.isnan(x)
            x[gaps] = [np.interp(record.t, t, X[k]) for k in np.flatnonzero(gaps)]
            p = np.array(p0, dtype=float)
            for name, value in discrete.items():
                p[names.index(name)] = value
            sides.append((x, p, _power_and_energy(fns, record.t, x, u, p)))
        user = any(e not in elements for e in record.element.split(", "))
        out.append(_Event(record.t, (sides[0][2][0], sides[1][2][0]),
                          (sides[0][2][1], sides[1][2][1]), record.energy_lost or 0.0,
                          user and record.energy_lost is None,
                          _shows_after(result, record, sides)))
    return out


def _power_and_energy(fns: dict, t: float, x: np.ndarray, u: np.ndarray,
                      p: np.ndarray) -> tuple[float, float]:
    """(P_sup − P_diss, T + V + W) at one state, after the drivers' prescription and the
    projection of a closed loop's dependent coordinates (as Result.from_states)."""
    if "drive" in fns:
        x = np.array(fns["drive"](t, x, u, p), dtype=float).ravel()
    if "project" in fns:
        x = np.array(fns["project"](x, p), dtype=float).ravel()
    supplied = float(fns["supplied"](t, x, u, p)) if "supplied" in fns else 0.0
    energy = sum(float(e) for e in fns["energy"](x, p))
    return supplied - float(fns["dissipation"](t, x, u, p)), energy


def _shows_after(result, record, sides) -> bool:
    """True when the Result's sample at the event's instant (if there is one) holds the
    state after the event (the loop may report that sample before handling the event)."""
    t = result.t
    i = int(np.argmin(np.abs(t - record.t)))
    if abs(t[i] - record.t) > 1e-12 * (1.0 + abs(record.t)):
        return True     # no sample there
    x = np.asarray(result.x, dtype=float)[:, i]
    P = np.asarray(result.p, dtype=float)
    p = P[:, i] if P.ndim == 2 else P
    (x_b, p_b, _), (x_a, p_a, _) = sides
    return bool(np.abs(x - x_a).sum() + np.abs(p - p_a).sum() <=
                np.abs(x - x_b).sum() + np.abs(p - p_b).sum())


def constraint_residuals(result) -> tuple[float, float]:
    """(max position residual, max velocity residual) over the run: closed loops' and
    contacts' c(y), A(y)·w, and the gaps and velocities of the hybrid rows that are
    constraints in their present modes."""
    pos = [np.abs(v).max() for n, v in result.series.items()
           if n.startswith("residual.position[") and len(v)]
    vel = [np.abs(v).max() for n, v in result.series.items()
           if n.startswith("residual.velocity[") and len(v)]
    rows = _active_rows(result)
    if rows is not None:
        pos.append(rows[0])
        vel.append(rows[1])
    return float(max(pos, default=0.0)), float(max(vel, default=0.0))


def _active_rows(result):
    """(max |gap|, max |γ|) of the hybrid rows that are constraints in their modes, or None."""
    system = result.system
    fns = getattr(system, "functions", None) or {}
    info = getattr(system, "hybrid", None)
    if info is None or not info.rows or "hybrid_others" not in fns or not result.t.size:
        return None
    n = result.t.size
    P = np.asarray(result.p, dtype=float)
    P = P if P.ndim == 2 else np.repeat(P.reshape(-1, 1), n, axis=1)
    U = np.array([result.series[name] for name in system.u_names]).reshape(-1, n)
    t = result.t.reshape(1, -1)
    lam = np.array(fns["hybrid"].map(n)(t, result.x, U, P)[1], dtype=float)
    out = fns["hybrid_others"].map(n)(t, result.x, U, P, lam.reshape(len(info.rows), n))
    gamma, gap, active = (np.array(out[k], dtype=float).reshape(len(info.rows), n)
                          for k in (0, 1, 4))
    on = active > 0.5
    unilateral = np.array([r.unilateral for r in info.rows])[:, None] & on
    return (float(np.abs(np.where(unilateral, gap, 0.0)).max(initial=0.0)),
            float(np.abs(np.where(on, gamma, 0.0)).max(initial=0.0)))
