"""The reference for the stepping mode's exact solve (tests/test_stepping_exact.py): the
block solve of the contact problem on the active set the sweeps found, as it ran in
solver/stepping/exact.py before the solve in the speeds' space replaced it (a sparse QR of
the 3·nc × 3·nc Delassus system, one regularized solve). Kept unchanged as the second
formulation the new solve is tested against.

After the projected Gauss–Seidel sweeps (:mod:`.step`), every contact is in one of three
states: open (λ_n = 0), sticking (|λ_t| < μ·λ_n) or sliding (|λ_t| = μ·λ_n along a
direction d). On that active set the contact law is linear, and its equations are solved
at once by a sparse LU/QR of the Delassus matrix W = J·M⁻¹·Jᵀ (compiled: CasADi's sparse QR
runs in the generated code):

    open:      λ_n = 0, λ_t = 0
    sticking:  (W·λ)_n = b − v_free,n,  (W·λ)_t = −v_free,t       (v_n⁺ = b, v_t⁺ = 0)
    sliding:   (W·λ)_n = b − v_free,n,  λ_t = μ·d·λ_n              (Coulomb's slip law)

Four coplanar corners under a box hold three motions with four normal impulses: W is
singular there, and its rows are regularized by EPS times their diagonal, proximally: the
change from a reference (the sweeps' normal impulses, no tangential ones) is the unknown,
so the solution is the one nearest to it, and the velocity the regularization leaves is
EPS·W_ii times that change (a least-norm impulse instead would blow up on the round-off of
a target outside W's range).
The solution is kept only where it satisfies the whole law — λ_n ≥ 0, every sticking
impulse inside the cone, every open contact separating (v_n⁺ ≥ b), every sliding one
slipping against its impulse — and is finite; otherwise the sweeps' impulses stand (the
ledger's residuals then say by how much they miss). Where it is kept, complementarity and
the cone hold to round-off: a stack at rest stays at rest to ~1e-15 m per step instead of
the unconverged sweeps' tilt (docs/hybrid.md, "Two contact modes").
"""
from __future__ import annotations

import casadi as ca
import numpy as np

EPS = 1e-8        # proximal regularization of the active rows, relative to their diagonal
FLOOR = 1e-14     # regularization of rows without effective mass, relative to max W_ii
SLIDE = 1e-9      # |λ_t| ≥ (1 − SLIDE)·μ·λ_n: the sweeps projected the impulse on the cone
TOL = 1e-9        # relative tolerance of the check of the law on the solved impulses


def block_solve(zl, z_free, J, B, b, mu, nz: int, nc: int):
    """(z, λ) of the sweeps → (z, λ) of the exact solve on their active set where it holds
    the contact law; else on the same active set with every frictional contact sticking (a
    stack at rest, whose unconverged sweeps put a corner's friction on the cone); else the
    sweeps' (module docstring). MX in, MX out; the second solve runs only when needed."""
    lam = zl[nz:]
    mu = ca.DM(np.asarray(mu, dtype=float).ravel())
    frictional = ca.DM((np.asarray(mu).ravel() > 0).astype(float))
    lam_n, lam_t1, lam_t2 = lam[0::3], lam[1::3], lam[2::3]
    size_t = ca.sqrt(lam_t1 ** 2 + lam_t2 ** 2)
    active = lam_n > 0
    sliding = active * ca.logic_or(size_t >= (1 - SLIDE) * mu * lam_n, 1 - frictional)
    d = [ca.if_else(size_t > 0, lt / (size_t + 1e-300), 0) for lt in (lam_t1, lam_t2)]
    W = ca.mtimes(J, B)
    common = (lam, z_free, J, B, W, b, mu, frictional, active, nc)
    ok, exact = _attempt(*common, sliding, d)
    ok_stick, stick = _attempt(*common, active * (1 - frictional), d)
    # the sweeps' split of a box's load over its coplanar corners is one of many (W is
    # singular); the solve nearest to it can pull at a corner: drop those, solve again
    held = active * (stick[nz::3] > 0)
    ok_held, kept = _attempt(lam * _rows(held, held, nc), z_free, J, B, W, b, mu, frictional,
                             held, nc, held * (1 - frictional), d)
    fallback = ca.if_else(ok_held, kept, zl, True)
    solved = ca.if_else(ok, exact, ca.if_else(ok_stick, stick, fallback, True), True)
    # the solves run only on a step with a closed contact whose sweeps did not converge
    # (flight, a contact the sweeps settled: the sweeps' impulses already meet the law)
    return ca.if_else(ca.logic_and(ca.sum1(active) > 0,
                                   ca.logic_not(_converged(zl[:nz], J, b, frictional, active))),
                      solved, zl, True)


def _converged(z, J, b, frictional, active):
    """Whether the sweeps' (z, λ) meet the contact law to TOL: closed contacts at their
    targets, open ones separating, sticking ones still (any tangential speed counts: a
    sliding contact is left to the solve)."""
    gamma = ca.mtimes(J, z)
    v_n, v_t = gamma[0::3], ca.sqrt(gamma[1::3] ** 2 + gamma[2::3] ** 2)
    scale = ca.mmax(ca.fabs(gamma)) + ca.mmax(ca.fabs(active * b)) + 1e-300
    miss = ca.vertcat(ca.mmax(active * ca.fabs(v_n - b)),
                      ca.mmax(-(1 - active) * (v_n - b)),
                      ca.mmax(active * frictional * v_t))
    return ca.mmax(miss) <= TOL * scale


def _rows(n, t, nc: int):
    """Per-contact values interleaved into the 3nc row order (n, t, t)."""
    return ca.reshape(ca.horzcat(n, t, t).T, 3 * nc, 1)


def _attempt(lam, z_free, J, B, W, b, mu, frictional, active, nc, sliding, d):
    """(whether the law holds, (z, λ)) of the linear solve on one classification."""
    sticking = active * (1 - sliding)
    equation = _rows(active, sticking, nc)             # rows that are velocity equations
    v_free = ca.mtimes(J, z_free)
    target = _rows(b, ca.DM.zeros(nc), nc) - v_free
    # the coupling of a sliding contact's tangential impulse to its normal one
    select = _tangent_from_normal(nc)             # (3nc × 3nc), t rows ← n column
    slope = ca.reshape(ca.horzcat(ca.DM.zeros(nc), mu * sliding * d[0],
                                  mu * sliding * d[1]).T, 3 * nc, 1)
    fixed = ca.DM.eye(3 * nc) - ca.mtimes(ca.diag(slope), select)
    # a planar model's out-of-plane tangent has no effective mass (a zero row of W): the
    # floor FLOOR·max W_ii keeps A regular there, where the target and the change are zero
    diag = ca.diag(W)
    A = ca.mtimes(ca.diag(equation), W + ca.diag(EPS * diag + FLOOR * ca.mmax(diag))) + \
        ca.mtimes(ca.diag(1 - equation), fixed)
    # solved for the change from a reference (a proximal regularization, where W is
    # singular: the solution nearest to it, and the velocity the regularization leaves is
    # EPS times the change): the sweeps' normal impulses, which split a box's load over its
    # corners without pulling, and no tangential one — the sweeps leave internal friction
    # (corners pushing against each other, W's null space) that the nearest solution would
    # keep, out of the cone. A least-norm impulse instead would blow up on the round-off of
    # a target outside W's range.
    ref = lam * _rows(ca.DM.ones(nc), ca.DM.zeros(nc), nc)
    rhs = equation * (target - ca.mtimes(W, ref)) - (1 - equation) * ca.mtimes(fixed, ref)
    solved = ref + ca.solve(A, rhs, "qr")
    gamma = ca.mtimes(J, z_free + ca.mtimes(B, solved))
    s_n, s_t1, s_t2 = solved[0::3], solved[1::3], solved[2::3]
    scale_l = ca.mmax(ca.fabs(solved)) + ca.mmax(ca.fabs(lam)) + 1e-300
    scale_v = ca.mmax(ca.fabs(v_free)) + ca.mmax(ca.fabs(active * b)) + 1e-300
    v_n, v_t1, v_t2 = gamma[0::3], gamma[1::3], gamma[2::3]
    size_s = ca.sqrt(s_t1 ** 2 + s_t2 ** 2)
    checks = [ca.mmin(s_n) >= -TOL * scale_l,
              ca.mmax(sticking * (size_s - mu * s_n)) <= TOL * scale_l,
              ca.mmin((1 - active) * (v_n - b)) >= -TOL * scale_v,
              ca.mmax(sliding * frictional * (v_t1 * d[0] + v_t2 * d[1])) <= TOL * scale_v]
    total = ca.sum1(ca.fabs(solved))
    ok = ca.logic_and(total == total, total < 1e300)     # finite (NaN ≠ NaN)
    for check in checks:
        ok = ca.logic_and(ok, check)
    clipped = ca.vertcat(*[ca.vertcat(ca.fmax(s_n[c], 0), s_t1[c], s_t2[c])
                           for c in range(nc)])
    return ok, ca.vertcat(z_free + ca.mtimes(B, clipped), clipped)


def _tangent_from_normal(nc: int) -> ca.DM:
    rows = [3 * c + k for c in range(nc) for k in (1, 2)]
    cols = [3 * c for c in range(nc) for _ in (1, 2)]
    return ca.DM(ca.Sparsity.triplet(3 * nc, 3 * nc, rows, cols), 1.0)
