"""Event localization: the root of one guard between two dense-output samples of a segment,
found on a cubic Hermite interpolant of the state and polished on the true trajectory.

Between two samples (t_a, x_a) and (t_b, x_b) the rates f(t_a, x_a) and f(t_b, x_b) give a
cubic Hermite interpolant of the state, accurate to O(h⁴); the guard is scanned and its
first crossing refined on it (guard evaluations only, no integration). The root found is
then polished on the true trajectory by Newton's method: each probe is one fresh
integration from t_a, with the guard's rate ġ = ∂g/∂t + ∂g/∂x·f taken at the probe's end by
a central difference along the tangent. Each probe also samples its own interval densely
(SUNDIALS' dense output, no extra steps): a crossing of the true trajectory earlier than the
interpolant's (a guard that crosses twice between two samples, e.g. a flight shorter than
the sample spacing) moves the bracket there. The time returned is on the crossed side,
within ``tol`` of the root; when Newton's steps do not verify (a guard with a kink or a
jump, a tangent crossing), Illinois' regula falsi on probes finishes the bracket
(:func:`.crossings.illinois`). Typically two probes per event instead of ~25.

The guard enters as φ(t, x) = s·g − band, signed so that φ > 0 is exactly the 'crossed'
predicate of :func:`.crossings.crossing_sign`; φ ≤ 0 at t_a and φ > 0 at t_b.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .crossings import illinois

SCAN = 16        # guard values on the interpolant over the bracket
CHECK = 32       # dense outputs of a polishing probe checked for an earlier crossing
NEWTON = 6       # polishing probes at most before Illinois' regula falsi takes over


@dataclass
class Trajectory:
    """What localization needs of the event loop (all numeric)."""

    probe: Callable   # (t_a, x_a, times) -> states at times (columns), one integration;
    #                   times are uniform: t_a + (t − t_a)·k/n, k = 1..n
    phi: Callable     # (times, X) -> the signed guard φ at each column (> 0: crossed)
    rate: Callable    # (t, x) -> ẋ


def hermite(t_a, x_a, f_a, t_b, x_b, f_b) -> Callable:
    """The cubic Hermite interpolant of x on [t_a, t_b]: times -> states (columns)."""
    h = t_b - t_a

    def states(times):
        s = (np.asarray(times, dtype=float) - t_a) / h
        s2, s3 = s * s, s * s * s
        return (np.outer(x_a, 2 * s3 - 3 * s2 + 1) + np.outer(h * f_a, s3 - 2 * s2 + s)
                + np.outer(x_b, 3 * s2 - 2 * s3) + np.outer(h * f_b, s3 - s2))
    return states


def localize(traj: Trajectory, t_a: float, x_a, t_b: float, x_b, tol: float, guess=None):
    """(t, x, path): the first crossing of φ in (t_a, t_b] on the trajectory from
    (t_a, x_a), t on the crossed side within tol of the root, x the state there, and path
    = (times, states) the probe's dense outputs up to t (None after Illinois' fallback)
    — see the module docstring. ``guess``: the interpolant's root if known."""
    lo, v_lo = t_a, traj.phi(np.array([t_a]), x_a[:, None])[0]   # φ(lo) ≤ 0, exact
    hi, v_hi, x_hi = t_b, None, x_b     # φ(hi) > 0 on the segment's sample, not yet probed
    delta = 1e-3 * (t_b - t_a)          # the central difference's step (_slope)
    if guess is None:
        guess = interpolant_root(traj, (t_a, x_a), (t_b, x_b), tol)
    last = np.inf
    for _ in range(NEWTON):
        t = min(max(guess, lo + 0.5 * tol), hi)
        times = t_a + (t - t_a) * np.arange(1, CHECK + 1) / CHECK
        times[-1] = t
        X = traj.probe(t_a, x_a, times)
        v = traj.phi(times, X)
        i = int(np.argmax(v > 0)) if np.any(v > 0) else None
        if i is not None and i < CHECK - 1:     # crossed earlier than the interpolant said
            if i > 0:
                lo, v_lo = times[i - 1], v[i - 1]
            hi, v_hi, x_hi = times[i], v[i], X[:, i]
            guess = interpolant_root(traj, (lo, X[:, i - 1] if i > 0 else x_a),
                                     (hi, x_hi), tol)
            continue
        if i is None:
            lo, v_lo = t, v[-1]
        else:
            hi, v_hi, x_hi = t, v[-1], X[:, -1]
            if t - lo <= tol:
                return t, X[:, -1], (times, X)
        slope = _slope(traj, t, X[:, -1], delta)
        if i is not None and 0 < v[-1] <= slope * tol:
            return t, X[:, -1], (times, X)
        step = -v[-1] / slope if slope > 0 else np.inf
        if not (lo < t + step + 0.5 * tol < hi and abs(step) < 0.25 * last):
            break                # Newton does not converge here: Illinois on the bracket
        guess, last = t + step + 0.5 * tol, abs(step)
    return _illinois(traj, t_a, x_a, (lo, v_lo), (hi, v_hi, x_hi), tol) + (None,)


def interpolant_root(traj: Trajectory, a, b, tol: float) -> float:
    """The first root of φ on the Hermite interpolant between the samples a = (t_a, x_a)
    and b = (t_b, x_b): a scan, then Illinois' regula falsi on the interpolant in the first
    sub-interval that crosses (to tol: exact where the motion is a cubic, e.g. a free
    flight; for the rest the interpolation error decides how close it is)."""
    (t_a, x_a), (t_b, x_b) = a, b
    states = hermite(t_a, x_a, traj.rate(t_a, x_a), t_b, x_b, traj.rate(t_b, x_b))
    times = t_a + (t_b - t_a) * np.arange(SCAN + 1) / SCAN
    v = traj.phi(times, states(times))
    if v[0] > 0 or not np.any(v > 0):
        return t_b           # no root on the interpolant (φ(t_b) > 0 held on the sample)
    i = int(np.argmax(v > 0))

    def on_interpolant(t):
        return traj.phi(np.array([t]), states(np.array([t])))[0]
    return illinois(on_interpolant, lambda value: value > 0, times[i - 1], times[i],
                    v[i - 1], v[i], tol)


def _slope(traj: Trajectory, t: float, x, delta: float) -> float:
    """dφ/dt along the trajectory at (t, x): a central difference along the tangent
    (ġ = ∂g/∂t + ∂g/∂x·f up to O(δ²) and the rounding of φ over 2δ)."""
    xdot = traj.rate(t, x)
    v = traj.phi(np.array([t - delta, t + delta]),
                 np.column_stack([x - delta * xdot, x + delta * xdot]))
    return float(v[1] - v[0]) / (2 * delta)


def _illinois(traj: Trajectory, t_a, x_a, low, high, tol):
    """The bracket low = (lo, φ(lo)), high = (hi, φ(hi) or None, x(hi)) finished by
    Illinois' regula falsi on probes from t_a; (t, x) on the crossed side."""
    ends: dict = {}

    def phi(h):
        if h not in ends:
            x = traj.probe(t_a, x_a, np.array([t_a + h]))[:, -1]
            ends[h] = (traj.phi(np.array([t_a + h]), x[:, None])[0], x)
        return ends[h][0]
    (lo, v_lo), (hi, v_hi, x_hi) = low, high
    if v_hi is None:
        v_hi = phi(hi - t_a)
        x_hi = ends[hi - t_a][1]
        if v_hi <= 0:      # the fresh integration lost the crossing: take hi
            return hi, x_hi
    else:
        ends[hi - t_a] = (v_hi, x_hi)
    h = illinois(phi, lambda v: v > 0, lo - t_a, hi - t_a, v_lo, v_hi, tol)
    phi(h)
    return t_a + h, ends[h][1]


def earliest(trajs: dict, brackets: dict, tol: float, together: float):
    """(t_e, x_e, fired): the earliest crossing among several guards (trajs: key ->
    Trajectory; brackets: key -> ((t_a, x_a), (t_b, x_b))), its state, and the keys whose
    roots lie within together·(1 + |t_e|) after it, in the order of ``trajs``.

    The guards are polished in the order of their interpolant roots; a guard that has not
    crossed on the first one's probe (its dense outputs and end) is settled there by a
    Newton estimate of its root — later: it does not fire; within ``together``: it fires
    with it — so a box landing flat on four corners costs one guard's probes, not four."""
    guesses = {k: interpolant_root(trajs[k], *brackets[k], tol) for k in trajs}
    pending, roots, estimates = sorted(trajs, key=guesses.get), {}, {}
    while pending:
        k = pending.pop(0)
        (t_a, x_a), (t_b, x_b) = brackets[k]
        t, x, path = localize(trajs[k], t_a, x_a, t_b, x_b, tol, guesses[k])
        roots[k] = (t, x)
        for m in list(pending) if path is not None else []:
            est = _estimate(trajs[m], path, 1e-3 * (brackets[m][1][0] - brackets[m][0][0]),
                            tol)
            if est is not None:
                estimates[m] = est
                pending.remove(m)
    t_e, x_e = min(roots.values(), key=lambda r: r[0])
    limit = t_e + together * (1 + abs(t_e))
    fired = [k for k in trajs if (roots[k][0] if k in roots else estimates[k]) <= limit]
    return t_e, x_e, fired


def _estimate(traj: Trajectory, path, delta: float, tol: float):
    """The root of a guard that has not crossed on ``path`` (a probe's dense outputs up to
    an event time t), linearized at t: a time after t - tol (inf: not crossing soon), or
    None when it has crossed before that (it needs its own localization)."""
    times, X = path
    v = traj.phi(times, X)
    if np.any(v[:-1] > 0):
        return None
    slope = _slope(traj, times[-1], X[:, -1], delta)
    if slope <= 0:
        return None if v[-1] > 0 else np.inf
    est = times[-1] - v[-1] / slope
    return est if est >= times[-1] - tol else None
