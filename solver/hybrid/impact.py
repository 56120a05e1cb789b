"""Impact maps and velocity projections on the speeds z (numbers, numpy).

An impact changes the speeds by impulses Λ along rows of J (M·Δz = Jᵀ·Λ, Pfeiffer & Glocker,
*Multibody Dynamics with Unilateral Contacts*, 1996), the positions stay:

* bilateral rows that are constraints now (a stuck clutch): γ⁺ = 0;
* unilateral rows (stops, contact normals) that are closed or impacting: Newton's law
  γ⁺ ≥ −e·γ⁻ (γ⁻ < 0, approaching), Λ ≥ 0, and one of the two holds with equality
  (complementarity); closed rows have γ⁻ = 0, so γ⁺ ≥ 0;
* tangential rows of those normals: Coulomb's law in the impulses, |Λ_t| ≤ μ·Λ_n with
  γ_t⁺ = 0 (sticking impact) or Λ_t = −μ·Λ_n·γ_t⁺/|γ_t⁺| (sliding impact).

Newton's law with friction can *create* energy where several contacts act or the slip turns
within the impact (Kane's example): ΔT = ½·Λᵀ·(γ⁺ + γ⁻), and a restitution e_N > 0 with
e_T = 0 leaves Λᵀ·(γ⁺ + e·γ⁻) ≤ 0 short of a bound. With the same restitution in the
tangential law — Coulomb's law on ξ_t = γ_t⁺ + e·γ_t⁻ — every impact dissipates:
ΔT = Λᵀ·ξ/(1 + e) − ½·(1 − e)/(1 + e)·Λᵀ·D·Λ ≤ 0 (Glocker, *Energetic consistency
conditions for standard impacts*, Multibody System Dynamics 29, 2013). ``tangential=True``
solves that law; the event instant uses it where the plain law would gain energy.

The complementarity problem is solved by an active-set iteration on the Delassus matrix
D = J·M⁻¹·Jᵀ (exact in a few steps for the small sets of one impact instant; the least-squares
solution where rows are redundant, as four corners of a box landing flat); where its guesses
cycle, by projected Gauss–Seidel on the same laws. The kinetic
energy lost is ½·z⁻ᵀ·M·z⁻ − ½·z⁺ᵀ·M·z⁺; for one frictionless row it is
(1 − e²)·½·m_eff·γ⁻² with m_eff = 1/D.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from jourdain.blocks.errors import SimulationError

MAX_ITER = 200
MAX_TURNS = 40   # refinements of a sliding impact's direction (3-D slip may turn)
MAX_SWEEPS = 20000   # projected Gauss–Seidel, the fallback


@dataclass
class ImpactRows:
    """The rows taking part in one impact and their laws (indices into J's rows)."""

    bilateral: list[int] = field(default_factory=list)
    unilateral: dict = field(default_factory=dict)     # row -> restitution e
    tangents: dict = field(default_factory=dict)       # normal row -> (tangent rows, μ)

    @property
    def rows(self) -> list[int]:
        out = list(self.bilateral) + list(self.unilateral)
        for tangent_rows, _ in self.tangents.values():
            out += list(tangent_rows)
        return list(dict.fromkeys(out))


def solve_impact(M: np.ndarray, J: np.ndarray, gamma: np.ndarray, rows: ImpactRows,
                 tangential: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Impulses Λ (one per row of J; 0 off the impact) and the speed jump Δz; with
    ``tangential`` the friction law acts on ξ_t = γ_t⁺ + e·γ_t⁻ (module docstring)."""
    P = rows.rows
    Lam = np.zeros(J.shape[0])
    if not P:
        return Lam, np.zeros(M.shape[0])
    MinvJT = np.linalg.solve(M, J[P].T)
    D = J[P] @ MinvJT
    pos = {r: k for k, r in enumerate(P)}
    shift = np.zeros(len(P))                # e·γ_t⁻ on the tangent rows (tangential law)
    if tangential:
        for normal, (tangent_rows, _) in rows.tangents.items():
            for r in tangent_rows:
                shift[pos[r]] = rows.unilateral.get(normal, 0.0) * gamma[r]
    target = {r: -e * min(gamma[r], 0.0) for r, e in rows.unilateral.items()}
    closed = {r for r in rows.unilateral}            # rows in the equality set
    slide: dict = {}                                   # normal -> slip direction
    turns: dict = {}
    seen = set()
    for _ in range(MAX_ITER + 4 * len(P)):    # one row changes set per step
        lam = _equalities(D, gamma[P] + shift, P, pos, rows, closed, target, slide)
        post = gamma[P] + shift + D @ lam
        key = (frozenset(closed), tuple(sorted(slide)))
        if not slide and key in seen:          # the active sets cycle
            break
        seen.add(key)
        if not _update(lam, post, pos, rows, closed, target, slide, turns):
            Lam[P] = lam
            return Lam, MinvJT @ lam
    lam = _gauss_seidel(D, gamma[P] + shift, pos, rows, target)
    Lam[P] = lam
    return Lam, MinvJT @ lam


def _gauss_seidel(D, g, pos, rows: ImpactRows, target) -> np.ndarray:
    """Projected Gauss–Seidel on the same laws (Moreau; Jean): row by row, each impulse the
    one that meets its law given the others, projected on Λ_n ≥ 0 and on the disc
    |Λ_t| ≤ μ·Λ_n. Slow but it always settles; used where the active-set guesses cycle."""
    n = len(g)
    lam = np.zeros(n)
    diag = np.maximum(np.diag(D), 1e-300)
    blocks = [(pos[r], None, None) for r in rows.bilateral]
    blocks += [(pos[r], r, None) for r in rows.unilateral]
    blocks += [([pos[r] for r in t], normal, mu) for normal, (t, mu) in rows.tangents.items()]
    scale = 1e-13 * (1.0 + np.abs(g).max() + max(map(abs, target.values()), default=0.0))
    for _ in range(MAX_SWEEPS):
        change = 0.0
        for k, normal, mu in blocks:
            if mu is None:                     # a bilateral or a normal row
                want = 0.0 if normal is None else target[normal]
                new = lam[k] - (g[k] + D[k] @ lam - want) / diag[k]
                if normal is not None:
                    new = max(new, 0.0)
            else:                              # a tangent block: solve, then project
                post = g[k] + D[k] @ lam
                new = lam[k] - np.linalg.lstsq(D[np.ix_(k, k)], post, rcond=1e-13)[0]
                limit = mu * max(lam[pos[normal]], 0.0)
                norm = np.linalg.norm(new)
                if norm > limit:
                    new = new * (limit / norm)
            change = max(change, float(np.max(np.abs(new - lam[k]))))
            lam[k] = new
        if change * float(diag.max()) <= scale:
            return lam
    raise SimulationError(f"impact: neither the active-set iteration nor {MAX_SWEEPS} "
                          "Gauss–Seidel sweeps settled; the contacts may be inconsistent")


def _equalities(D, g, P, pos, rows: ImpactRows, closed, target, slide) -> np.ndarray:
    """Solve the linear equations of the present guess (least squares where redundant)."""
    n = len(P)
    A, b = np.zeros((n, n)), np.zeros(n)
    for r in rows.bilateral:
        A[pos[r]], b[pos[r]] = D[pos[r]], -g[pos[r]]
    for r in rows.unilateral:
        k = pos[r]
        if r in closed:
            A[k], b[k] = D[k], target[r] - g[k]
        else:
            A[k, k] = 1.0
    for normal, (tangent_rows, mu) in rows.tangents.items():
        direction = slide.get(normal)
        for j, r in enumerate(tangent_rows):
            k = pos[r]
            if normal not in closed:           # no normal impulse: no friction impulse
                A[k, k] = 1.0
            elif direction is None:            # sticking: γ_t⁺ = 0
                A[k], b[k] = D[k], -g[k]
            else:                              # sliding: Λ_t = −μ·Λ_n·d
                A[k, k], A[k, pos[normal]] = 1.0, mu * direction[j]
    return np.linalg.lstsq(A, b, rcond=1e-13)[0]


def _update(lam, post, pos, rows: ImpactRows, closed, target, slide, turns) -> bool:
    """Move one row between the sets where the guess violates a law; True if changed.
    Friction first (a sticking guess can make the normal impulse pull where sliding does
    not), then the normal rows."""
    scale = 1e-10 * (1.0 + np.abs(lam).max())
    for normal, (tangent_rows, mu) in rows.tangents.items():
        if normal not in closed:
            continue
        k = [pos[r] for r in tangent_rows]
        lam_t, lam_n = lam[k], lam[pos[normal]]
        if normal not in slide and np.linalg.norm(lam_t) > mu * max(lam_n, 0.0) + scale:
            norm = np.linalg.norm(lam_t)
            slide[normal] = -lam_t / norm if norm > 0 else np.eye(len(k))[0]
            turns[normal] = 0
            return True
        if normal in slide and turns[normal] < MAX_TURNS:
            v = post[k]                      # slip after the impact: align d with it
            if np.linalg.norm(v) > 1e-12:
                new = slide[normal] + v / np.linalg.norm(v)
                new /= max(np.linalg.norm(new), 1e-300)
                if np.linalg.norm(new - slide[normal]) > 1e-9:
                    slide[normal] = new      # damped fixed point on the direction
                    turns[normal] += 1
                    return True
    worst = min(((lam[pos[r]], r) for r in closed), default=(0.0, None))
    if worst[0] < -scale:                     # a normal impulse would pull: open the row
        closed.discard(worst[1])
        return True
    for r in rows.unilateral:
        if r not in closed and post[pos[r]] < target[r] - 1e-12 * (1 + abs(target[r])):
            closed.add(r)                     # an open row would penetrate: close it
            return True
    return False


def project_velocities(M: np.ndarray, J: np.ndarray, gamma: np.ndarray,
                       rows: list[int]) -> np.ndarray:
    """The smallest change Δz in the kinetic-energy metric that makes γ = 0 on ``rows``
    (their constraints hold exactly after a mode change): Δz = −M⁻¹·Jᵀ·(J·M⁻¹·Jᵀ)⁺·γ."""
    if not rows:
        return np.zeros(M.shape[0])
    MinvJT = np.linalg.solve(M, J[rows].T)
    D = J[rows] @ MinvJT
    return -MinvJT @ np.linalg.lstsq(D, gamma[rows], rcond=1e-13)[0]


def kinetic_energy(M: np.ndarray, z: np.ndarray) -> float:
    return 0.5 * float(z @ M @ z)
