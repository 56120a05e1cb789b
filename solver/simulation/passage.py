"""Consumer: the deliberate passage of a partitioned simulation through a singular
configuration of its mechanism, on the branch it is moving along (as commercial multibody
codes do: a step over the singular point along the branch tangent, then a projection).

Where the constraints lose rank (a parallelogram folding flat: its parallelogram and
anti-parallelogram branches cross there) every partition is singular. The watch of
:mod:`.partitioned` raises its level until σ, the smallest singular value of the row-scaled
constraint Jacobian (:func:`distance`: about the distance to the point, in m or rad), is at
most PASS_SIGMA, and a passage is tried there; one that fails its checks is tried again
closer (the level raised PASS_CLOSER times), and refused by name only at σ ≤ PASS_FLOOR or
ν ≥ NU_SINGULAR. Closer, the rates lose accuracy (a residual ε of the closure equations
bends the computed branch by ε/d² in its tangent and ε/d³ in its curvature at a distance d:
measured, a passage's energy jump grew from 1e-8 J at ν ≈ 1e3 to 6e-4 J at ν ≈ 5e5 on the
A02 N-four-bar, n = 1); farther, the step's own error grows as dt⁵. A passage:

1. The motion is extrapolated across: the rates at the stop and at PASS_POINTS − 1 points
   back along the motion (PASS_RK4 classical Runge–Kutta steps each, of the partitioned ODE,
   where it is better conditioned) are interpolated by a polynomial in time whose integral
   is the step (Adams–Bashforth of order PASS_POINTS), the joint speeds w = G·z alike. The
   step dt = (1 + PASS_SPAN)·σ/|σ̇| lands PASS_SPAN times as far past the point as the stop
   is before it (σ̇ from σ a little back along the motion).
2. The coordinates are projected back onto the constraints by Newton from the extrapolated
   guess, with the current partition unless it is worse there than at the stop (then the
   best-conditioned one, its independent speeds from w = G·z).
   Its local error is estimated as an integrator does, against the step of one order less
   (the oldest point left out), and must be at most PASS_LOCAL times rtol·|x| + atol in
   every independent state (the energy check alone misses an error along the branch).
3. The landing is checked to lie on the branch the motion came along (:func:`branch_checks`,
   each to PASS_ANGLE, relative or in radians): Newton's correction against the step's
   length; the projected joint speeds against the extrapolated ones; the tangent spaces of
   the constraints (the column spaces of G) before and after. The closure residual must be
   converged, and the energy balance ΔE − ∫(P_supplied − P_dissipated)dt (trapezoidal over
   dt; ΔE itself for a conservative model) within PASS_ENERGY·(rtol·|E| + atol),
   |E| = |T| + |V| + |W| at the stop (measured at most 4.3e-9 J at n = 1 and 1.9e-7 J at
   n = 5 on the N-four-bars at the default 1e-9, against budgets of 2e-7 J and 1.7e-6 J).
   The stop and the landing are closed to round-off first (PASS_CLOSED): the integrator's
   1e-10 is not enough there, where a closure residual moves the energy by ν times it.

On another branch Newton's correction and the speeds' mismatch are of the order of the step
times the angle between the branches, on the own branch of a power of the step. A landing
that fails a check at the final try is a SimulationError naming the singular configuration
and the failed check: the branch is never switched silently. Each passage is recorded as a
:class:`SingularPassage` (``res.stats["singular_passages"]``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from jourdain.blocks.errors import SimulationError

from ..constraints.assembly import NEWTON_CHECK
from ..constraints.partition import HYSTERESIS

PASS_SIGMA = 1e-2      # σ from which on, with no better partition, passages are tried
PASS_FLOOR = 1e-4      # σ below which a try that fails is final (or ν ≥ NU_SINGULAR)
PASS_CLOSER = 3.0      # after a failed try, the watch's level rises by this (σ falls by it)
PASS_RELEVEL = 1.5     # the watch's level after a passage, in the landing's ν
PASS_SPAN = 2.0        # the landing's distance past the singular point, in the stop's distance
PASS_ANGLE = 1e-3      # [rad or relative]: largest disagreement of the branch checks
PASS_ENERGY = 10.0     # energy-balance defect allowed, in rtol·|E| + atol
PASS_LOCAL = 100.0     # the step's local error estimate allowed, in rtol·|x| + atol
PASS_ROUNDS = 10       # rounds of Newton's fixed steps at the landing
PASS_CLOSED = 1e-15    # [m or rad] closure residual the passage's states are projected to
PASS_RK4 = 4           # RK4 steps per interval h back along the motion
PASS_POINTS = 4        # rates along the motion the extrapolation interpolates (its order)


@dataclass(frozen=True)
class SingularPassage:
    """One passage through a singular configuration (``res.stats["singular_passages"]``)."""

    t: float                 # [s] the stop before the singular point
    t_after: float           # [s] the landing past it
    nu: float                # partition conditioning ν at the stop
    nu_after: float          # … of the partition that goes on, at the landing
    energy_jump: float       # [J] E(landing) − E(stop)
    energy_defect: float     # [J] the jump less the work of supplied and dissipated power
    angle: float             # [rad] largest disagreement of the branch checks (relative)
    local_error: float       # the step's local error estimate, in rtol·|x| + atol


def pass_singular(system, model, t: float, x: np.ndarray, p: np.ndarray, u_fn, rtol: float,
                  atol: float, stop, final: bool):
    """:func:`_passage`, or None where it fails its checks and this is not the ``final``
    try (the watch then comes closer, where the step is shorter); the final try raises
    ``stop()`` (the singular-configuration error) with the reason."""
    try:
        return _passage(system, model, t, x, p, u_fn, rtol, atol)
    except _Refused as why:
        if final:
            error = stop()   # the singular-configuration error (built only here: an SVD)
            raise SimulationError(f"{error.args[0]}. A passage along the branch tangent was "
                                  f"tried and refused: {why.args[0]}") from error
        return None


class _Refused(Exception):
    """A check of the passage failed (its reason)."""


def _passage(system, model, t: float, x: np.ndarray, p: np.ndarray, u_fn, rtol: float,
             atol: float):
    """(partition model, t, x, passage, taylor) past the singular configuration near (t, x)
    on the branch of the motion (module docstring); ``taylor(θ)`` is the extrapolated state
    at t + θ (for outputs stepped over). ``stop`` (the singular-configuration error) is
    raised, with the reason, where the passage is not sound."""
    bank, ny = system.partitions, len(model.y_names)
    nz = len(model.z_names)

    def rates(tt, xx):
        return np.array(model.f(tt, xx, u_fn(tt), p), dtype=float).ravel()

    def speeds(m, xx):
        return np.array(m.G(xx[:ny], p), dtype=float).dot(xx[ny:ny + len(m.z_names)]).ravel()

    def sigma(yy):
        return distance(bank, model.partition, yy, p)

    x = _projected(model, x, p)   # closed to round-off: the energy balance starts here
    xdot = rates(t, x)
    # the distance to the singular point, in time, from σ's rate along the motion (probed
    # where the coordinates have moved back by about σ)
    s0 = sigma(x[:ny])
    probe = s0 / max(float(np.linalg.norm(xdot[:ny])), 1e-300)
    closing = (sigma(_projected(model, x - probe * xdot, p)[:ny]) - s0) / probe
    if not closing > 0:
        _refuse("the motion does not carry it across (σ of the constraint Jacobian "
                      "is not falling towards it)")
    # landing PASS_SPAN times as far past it (the next approach's first stop then comes
    # about as far before it: PASS_RELEVEL)
    nu = float(model.conditioning(x[:ny], p)[0])
    dt = (1.0 + PASS_SPAN) * s0 / closing
    # the rates at t, t − h, …, t − (PASS_POINTS − 1)·h, back along the motion (where the
    # partition is better conditioned; RK4), interpolated by a polynomial in time whose
    # integral extrapolates the state: an Adams–Bashforth step of order PASS_POINTS over dt
    h = dt / (PASS_POINTS - 2)
    states = [x]
    for k in range(1, PASS_POINTS):
        states.append(_projected(model, _rk4(rates, t - (k - 1) * h, states[-1], -h,
                                             PASS_RK4), p))
    tau = -h * np.arange(PASS_POINTS)
    V = np.vander(tau, PASS_POINTS, increasing=True)
    rate_values = np.array([rates(t + tk, xs) for tk, xs in zip(tau, states)])
    rate_fit = np.linalg.solve(V, rate_values)
    speed_fit = np.linalg.solve(V, np.array([speeds(model, xs) for xs in states]))

    def extrapolated(theta, fit=rate_fit):
        k = np.arange(1, fit.shape[0] + 1)
        return x + (theta ** k / k) @ fit

    guess = extrapolated(dt)
    # the step's local error, as an integrator estimates it: against the step of one order
    # less (the last point left out), in the independent states, weighted by rtol·|x| + atol
    lower = extrapolated(dt, np.linalg.solve(V[:-1, :-1], rate_values[:-1]))
    own = [i for i in range(len(x)) if i not in set(bank.solved(model.partition))]
    local = float(np.max(np.abs(guess - lower)[own] / (rtol * np.abs(guess[own]) + atol)))
    if not local <= PASS_LOCAL:
        _refuse(f"the step's local error estimate is {local:.3g} times the tolerance "
                f"(at most PASS_LOCAL = {PASS_LOCAL:g})")
    # the joint speeds by the polynomial through their values: only for the branch check
    w_ext = (dt ** np.arange(PASS_POINTS)) @ speed_fit
    # the partition that goes on: the current one unless it is worse at the guess than at
    # the stop (a crossing is symmetric about the point); then the best-conditioned there,
    # unless hardly better (the search costs a QR per choice: 0.1 s at 40 loops)
    new, nu_old = model, bank.nu(model.partition, guess[:ny], p)
    if nu_old > nu:
        part = bank.candidate(guess[:ny], p, model.partition)
        nu_new = bank.nu(part, guess[:ny], p) if part is not None else np.inf
        new = bank.model(part) if HYSTERESIS * nu_new <= nu_old else model

    def chart(xt):   # a state of ``model`` in the partition that goes on, projected
        xt = _projected(model, xt, p)
        if new is not model:
            xt = np.concatenate([xt[:ny], speeds(model, xt)[new.partition.independent_speeds],
                                 xt[ny + nz:]])
        return _projected(new, xt, p)

    landing = chart(guess)
    residual = float(np.abs(np.array(new.c(landing[:ny], p), dtype=float)).max(initial=0.0))
    if not residual <= NEWTON_CHECK:
        _refuse(f"Newton found no landing past it (closure residual {residual:.3g})")
    angles = branch_checks(np.array(model.G(x[:ny], p), dtype=float),
                           np.array(new.G(landing[:ny], p), dtype=float), x[:ny],
                           guess[:ny], landing[:ny], w_ext, speeds(new, landing))
    worst = max(angles, key=angles.get)
    if not angles[worst] <= PASS_ANGLE:
        _refuse(f"the step along the branch tangent landed on another branch: {worst} "
                      f"is {angles[worst]:.3g}, above PASS_ANGLE = {PASS_ANGLE:g}")
    jump, defect, scale = _energy_balance(model, new, t, x, t + dt, landing, p, u_fn)
    budget = PASS_ENERGY * (rtol * scale + atol)
    if not abs(defect) <= budget:
        _refuse(f"the landing breaks the energy balance by {defect:.3g} J (budget "
                      f"{budget:.3g} J = {PASS_ENERGY:g}·(rtol·|E| + atol))")
    nu_after = float(new.conditioning(landing[:ny], p)[0])

    def taylor(theta):
        return chart(extrapolated(theta))

    return new, t + dt, landing, SingularPassage(t, t + dt, nu, nu_after, jump, defect,
                                                 angles[worst], local), taylor


def distance(bank, part, y: np.ndarray, p: np.ndarray) -> float:
    """σ, the smallest singular value of the row-scaled constraint Jacobian (independent
    rows; rows of unit length at the reference): about the distance, in m or rad, to the
    nearest configuration where the constraints lose rank."""
    A = bank.scaled(y, p)[part.velocity_rows]
    return float(np.linalg.svd(A, compute_uv=False)[-1])


def branch_checks(G0: np.ndarray, G1: np.ndarray, y0: np.ndarray, guess: np.ndarray,
                  y1: np.ndarray, w_ext: np.ndarray, w1: np.ndarray) -> dict:
    """{check: disagreement} of a landing y1 (speeds w1, w = G1·z) from y0 (w = G0·z), the
    extrapolated guess and speeds w_ext; each must be at most PASS_ANGLE on the own branch."""
    step = float(np.linalg.norm(guess - y0))
    return {
        "Newton's correction of the extrapolated coordinates, relative to the step":
            float(np.linalg.norm(y1 - guess)) / max(step, 1e-300),
        "the joint speeds' mismatch with the extrapolated ones, relative":
            float(np.linalg.norm(w1 - w_ext)) / max(float(np.linalg.norm(w_ext)), 1e-300),
        "the angle between the constraints' tangent spaces before and after [rad]":
            _tangent_angle(G0, G1),
    }


def _rk4(rates, t: float, x: np.ndarray, span: float, n: int) -> np.ndarray:
    """x at t + span by n classical Runge–Kutta steps of ẋ = rates(t, x) (span < 0: back)."""
    h = span / n
    for _ in range(n):
        k1 = rates(t, x)
        k2 = rates(t + h / 2, x + h / 2 * k1)
        k3 = rates(t + h / 2, x + h / 2 * k2)
        k4 = rates(t + h, x + h * k3)
        x, t = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4), t + h
    return x


def _projected(model, x: np.ndarray, p: np.ndarray) -> np.ndarray:
    """x with its dependent coordinates projected by Newton's fixed steps (at most
    PASS_ROUNDS rounds) to PASS_CLOSED, or to round-off where the residual stops falling.
    Closer than NEWTON_CHECK, which the integrator's states meet: near the point a closure
    residual ε moves the dependent speeds, and so the energy the passage is checked by, by
    about ν·ε relative (A02 n = 1, ν ≈ 320: a stop at ε = 7.6e-11 was 5.3e-7 J off its own
    motion, 2.5 times the energy budget; closed to 1e-18, 1e-10 J)."""
    x, ny = np.array(x, dtype=float), len(model.y_names)
    last = np.inf
    for _ in range(PASS_ROUNDS):
        y, residual = (np.array(v, dtype=float).ravel() for v in model.newton(x[:ny], p))
        x[:ny] = y
        if residual[0] <= PASS_CLOSED or residual[0] > 0.5 * last:
            break
        last = residual[0]
    return x


def _tangent_angle(G0: np.ndarray, G1: np.ndarray) -> float:
    """[rad] the largest principal angle between the column spaces of G0 and G1 (w = G·z:
    the null spaces of the constraints, the tangents of the branch)."""
    cosines = np.linalg.svd(np.linalg.qr(G0)[0].T @ np.linalg.qr(G1)[0], compute_uv=False)
    return float(np.arccos(np.clip(cosines.min(initial=1.0), -1.0, 1.0)))


def _energy_balance(old, new, t0, x0, t1, x1, p, u_fn):
    """(ΔE, ΔE − ∫(P_sup − P_diss)dt by the trapezoidal rule, |T| + |V| + |W| at x0)."""
    ends = []
    for model, t, x in ((old, t0, x0), (new, t1, x1)):
        parts = [float(e) for e in model.energy(x, p)]
        u = u_fn(t)
        power = -float(model.dissipation(t, x, u, p))
        if "supplied" in model.functions:
            power += float(model.supplied(t, x, u, p))
        ends.append((sum(parts), power, sum(abs(e) for e in parts)))
    jump = ends[1][0] - ends[0][0]
    return jump, jump - 0.5 * (ends[0][1] + ends[1][1]) * (t1 - t0), ends[0][2]


def _refuse(reason: str) -> None:
    raise _Refused(reason)
