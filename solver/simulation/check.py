"""A Result that vouches for itself (``res.check()``): the energy balance and the constraint
residuals recomputed from the Result's own series, with a verdict.

Energy balance. With E = T + V + W (``energy.total``), P_sup (``power.supplied``), P_diss
(``power.dissipated``) and the kinetic energy impacts took (the event log's ``energy_lost``,
counted at each impact's instant):

    r(t) = E(t) − E(0) − ∫₀ᵗ (P_sup − P_diss) dt + Σ_{impacts ≤ t} ΔE_lost

is zero for an exact solution whose bookkeeping is complete. The integral is the trapezoid
rule on the output grid; its own error is estimated by Richardson's rule against the same
rule on every second sample (|I_h − I_2h|/3, cumulative), so a coarse grid is not mistaken for
a missing power. The verdict compares max |r| with ``rtol`` times the energy scale (the
largest of max T, the swing of V and of W, ∫|P_sup|, ∫P_diss and the impact losses: the energy
that moved) plus that quadrature estimate.

Constraint residuals. Closed loops and contacts: the series ``residual.position[i]`` (c(y))
and ``residual.velocity[i]`` (A(y)·w); hybrid rows that are constraints in their mode (a stop
resting at its limit, a stuck clutch): their velocity γ and, for unilateral rows, the gap g.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..model.checks import number


@dataclass
class Check:
    """What :func:`check` found. ``ok`` is the verdict: the energy balance holds to ``rtol``
    relative to ``energy_scale`` (beyond the quadrature's own error) and every constraint
    residual is within ``constraint_tol``."""

    energy_error: float         # max |r(t)| [J]
    energy_scale: float         # [J] the energy that moved (module docstring)
    quadrature_error: float     # [J] estimated error of the trapezoid integral
    impacts_lost: float         # [J] kinetic energy the impacts took (event log)
    rtol: float
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
                 f"  energy balance  max |E(t) − E(0) − ∫(P_sup − P_diss) dt + impacts| = "
                 f"{self.energy_error:.3g} J = {self.energy_relative:.3g} of the energy scale "
                 f"{self.energy_scale:.3g} J ({'ok' if self.energy_ok else 'exceeds'} rtol "
                 f"{self.rtol:g}; quadrature error ≈ {self.quadrature_error:.2g} J)",
                 f"  impacts         {self.impacts_lost:.6g} J of kinetic energy lost",
                 f"  constraints     position {self.position_residual:.3g}, velocity "
                 f"{self.velocity_residual:.3g} ({'ok' if self.constraints_ok else 'exceed'} "
                 f"{self.constraint_tol:g})"]
        return "\n".join(lines + [f"  note: {n}" for n in self.notes])

    __repr__ = __str__


def check(result, rtol: float = 1e-3, constraint_tol: float = 1e-6) -> Check:
    """Recompute the energy balance and the constraint residuals of ``result`` (module
    docstring); ``rtol`` [1] relative to the energy scale, ``constraint_tol`` the largest
    residual accepted."""
    rtol = number(rtol, "check: rtol", 0.0, open_low=True)
    constraint_tol = number(constraint_tol, "check: constraint_tol", 0.0)
    t = np.asarray(result.t, dtype=float)
    s = result.series
    E = np.asarray(s["energy.total"], dtype=float)
    P_sup = np.asarray(s.get("power.supplied", np.zeros_like(t)), dtype=float)
    P_diss = np.asarray(s["power.dissipated"], dtype=float)
    lost = _impact_losses(result, t)
    integral = cumulative_trapezoid(t, P_sup - P_diss)
    r = E - E[0] - integral + lost
    notes = []
    bad = ~np.isfinite(r)
    if bad.any():
        notes.append(f"{int(bad.sum())} samples with non-finite energy or power")
    scale = max(np.nanmax(np.abs(s["energy.kinetic"])) if t.size else 0.0,
                float(np.ptp(s["energy.potential"])) if t.size else 0.0,
                float(np.ptp(s["energy.stored"])) if t.size else 0.0,
                float(cumulative_trapezoid(t, np.abs(P_sup))[-1]) if t.size else 0.0,
                float(cumulative_trapezoid(t, np.abs(P_diss))[-1]) if t.size else 0.0,
                float(lost[-1]) if t.size else 0.0, np.finfo(float).tiny)
    out = Check(float(np.max(np.abs(r))) if r.size and not bad.any() else float("inf"),
                float(scale), _quadrature_error(t, P_sup - P_diss), float(lost[-1]) if t.size
                else 0.0, rtol, constraint_tol=constraint_tol, notes=notes)
    out.position_residual, out.velocity_residual = constraint_residuals(result)
    return out


def cumulative_trapezoid(t: np.ndarray, f: np.ndarray) -> np.ndarray:
    """∫₀ᵗ f by the trapezoid rule on the samples, starting at 0."""
    if t.size < 2:
        return np.zeros_like(t)
    return np.concatenate([[0.0], np.cumsum(0.5 * (f[1:] + f[:-1]) * np.diff(t))])


def _quadrature_error(t: np.ndarray, f: np.ndarray) -> float:
    """Richardson's estimate of the trapezoid rule's error over the run: |I_h − I_2h|/3 on
    the samples up to every even index (the largest over them)."""
    if t.size < 3:
        return 0.0
    fine = cumulative_trapezoid(t, f)[::2]
    coarse = cumulative_trapezoid(t[::2], f[::2])
    return float(np.max(np.abs(fine - coarse)) / 3.0)


def _impact_losses(result, t: np.ndarray) -> np.ndarray:
    """Σ of the impacts' kinetic energy losses up to each sample (an impact at the sample's
    instant counts: the Result shows the state after it)."""
    log = getattr(result, "events", None)
    out = np.zeros_like(t)
    for record in log or ():
        if record.energy_lost:
            out[t >= record.t - 1e-12 * (1.0 + abs(record.t))] += record.energy_lost
    return out


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
        gap, gamma = rows
        pos.append(gap)
        vel.append(gamma)
    return float(max(pos, default=0.0)), float(max(vel, default=0.0))


def _active_rows(result):
    """(max |gap|, max |γ|) of the hybrid rows that are constraints in their modes, or None."""
    system = result.system
    fns = getattr(system, "functions", {}) or {}
    info = getattr(system, "hybrid", None)
    if info is None or not info.rows or "hybrid_others" not in fns or not result.t.size:
        return None
    n = result.t.size
    P = np.asarray(result.p, dtype=float)
    P = P if P.ndim == 2 else np.repeat(P.reshape(-1, 1), n, axis=1)
    U = np.array([result.series[name] for name in system.u_names]).reshape(-1, n)
    t = result.t.reshape(1, -1)
    hyb = fns["hybrid"].map(n)(t, result.x, U, P)
    lam = np.array(hyb[1], dtype=float).reshape(len(info.rows), n)
    out = fns["hybrid_others"].map(n)(t, result.x, U, P, lam)
    gamma, gap, active = (np.array(out[k], dtype=float).reshape(len(info.rows), n)
                          for k in (0, 1, 4))
    on = active > 0.5
    unilateral = np.array([r.unilateral for r in info.rows])[:, None] & on
    g = np.abs(np.where(unilateral, gap, 0.0))
    return float(g.max(initial=0.0)), float(np.abs(np.where(on, gamma, 0.0)).max(initial=0.0))
