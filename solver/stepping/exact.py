"""The exact solve of a step's contact problem on the active set the sweeps found, in the
speeds' space: its linear algebra is nz × nz (nz: the model's speeds, 9 for the hopper, 18
for the cheetah), not 3·nc × 3·nc (87 rows for the hopper's 29 contacts, whose rank is at
most its 9 speeds).

After the projected Gauss–Seidel sweeps (:mod:`.step`), every contact is in one of three
states: open (λ_n = 0), sticking (|λ_t| < μ·λ_n) or sliding (|λ_t| = μ·λ_n along a
direction d). On that active set the contact law is linear in the impulses λ = P·ν (ν: the
free unknowns, P: open contacts carry nothing, a sliding one λ_t = μ·d·λ_n):

    open:      λ_n = 0, λ_t = 0
    sticking:  v_n⁺ = b,  v_t⁺ = 0
    sliding:   v_n⁺ = b,  λ_t = μ·d·λ_n                    (Coulomb's slip law)

with z⁺ = z_free + M⁻¹·Jᵀ·P·ν and v⁺ = J·z⁺. The equations are E·J·z⁺ = E·target (E: the
rows that are velocity equations). Four coplanar corners under a box hold three motions
with four normal impulses, so E·J·M⁻¹·Jᵀ·P is singular there: it is solved by proximal
passes, each (E·W·P + R)·Δν = target − E·J·z⁺ with R = EPS·W_ii (the change from the
previous pass's ν, starting from the sweeps' normal impulses without tangential ones, so
that the solution is the one nearest to them; the velocity a pass leaves is R·Δν, taken
out by the next). Each pass is solved in the speeds' space by Woodbury's identity,

    Δν = R⁻¹·(r − E·J·y),   (I + M⁻¹·Jᵀ·P·R⁻¹·E·J)·y = M⁻¹·Jᵀ·P·R⁻¹·r,

y the speed change: one nz × nz matrix per solve, factorized once (QR) for all passes
(B = M⁻¹·Jᵀ comes from the step's kinematics). EPS = 1e-6 rather than smaller: Woodbury's
R⁻¹·(r − E·J·y) loses digits in proportion to 1/EPS², and PASSES passes make the velocity
residual (EPS/σ)^PASSES on a direction of W with singular value σ (relative to W_ii).
The reference, the 3·nc QR of the same law's single regularized solve, is
tests/stepping_reference.py; tests/test_stepping_exact.py compares the two.

The solution is kept only where it satisfies the whole law — λ_n ≥ 0, every sticking
impulse inside the cone, every open contact separating (v_n⁺ ≥ b), every sliding one
slipping against its impulse — and is finite; else the same active set with every contact
sticking is tried (a stack whose unconverged sweeps put a corner's friction on the cone),
then that one without the corners it pulled at, then up to ACTIVE_SET active-set steps
from the first solve's result (:func:`_reclassify`); else the sweeps' impulses stand (the
ledger's residuals then say by how much they miss). Each later solve runs only when the
earlier failed (:mod:`.branch`), and none on a step whose sweeps already meet the law.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from .branch import switch

EPS = 1e-6        # proximal regularization of the active rows, relative to their diagonal
FLOOR = 1e-14     # regularization of rows without effective mass, relative to max W_ii
SLIDE = 1e-9      # |λ_t| ≥ (1 − SLIDE)·μ·λ_n: the sweeps projected the impulse on the cone
TOL = 1e-9        # relative tolerance of the check of the law on the solved impulses
PASSES = 4        # proximal passes per solve (one factorization)
ACTIVE_SET = 3    # solves on contact states corrected by the previous solve, at most
# speeds above which the solve's passes (attempt) are MX, not SX: expanded, the tower of ten
# boxes' (nz = 60: a symbolic 60 × 60 inverse) was 429,502 instructions, twice, 25 MB of C
EXPAND_NZ = 24


def block_solve(zl, z_free, J, B, b, mu, nz: int, nc: int):
    """(z, λ) of the sweeps → ((z, λ) of the exact solve on their active set where it holds
    the contact law, else the fallbacks of the module docstring; whether the result meets
    the law: solved, or the sweeps' converged). MX in, MX out. One function per problem:
    a step calls it twice (after the early sweeps, after the rest), and two instances were
    two copies of its code in the step's C."""
    mu = tuple(np.asarray(mu, dtype=float).ravel())
    key = (J.sparsity().serialize(), B.sparsity().serialize(), mu, nz, nc, EXPAND_NZ)
    if key not in _SOLVES:
        if len(_SOLVES) >= 8:
            _SOLVES.pop(next(iter(_SOLVES)))
        _SOLVES[key] = exact_function(J.sparsity(), B.sparsity(), mu, nz, nc)
    return _SOLVES[key](zl, z_free, J, B, b)


_SOLVES: dict = {}      # the last problems' exact functions (block_solve)


def exact_function(J_sp, B_sp, mu, nz: int, nc: int) -> ca.Function:
    """exact(zl, z_free, J, B, b) → (zl, ok): :func:`block_solve` as one function. Its
    arithmetic is in SX functions (:func:`_leaves`, expanded into straight-line C), the
    MX graph only calls them and chooses the branch: as MX, the proximal passes' dense
    products and the checks' loops cost ~24 µs per solve of the tumbling box's 8 corners
    (the solve runs on most steps with a closed contact), three times its sweeps."""
    mu = np.asarray(mu, dtype=float).ravel()
    check, classify, attempt, reclassify = _leaves(J_sp, B_sp, mu, nz, nc)
    zl, z_free = ca.MX.sym("zl", nz + 3 * nc), ca.MX.sym("z_free", nz)
    J, B, b = ca.MX.sym("J", J_sp), ca.MX.sym("B", B_sp), ca.MX.sym("b", nc)
    needed, converged = check(zl, z_free, J, b)

    def solve(zl, z_free, J, B, b):
        lam, active, sliding, d0, d1 = classify(zl)
        ok, exact, solved, gamma = attempt(lam, z_free, J, B, b, active, sliding, d0, d1)
        return switch("exact_stick", ok, [exact, solved, gamma, zl, z_free, J, B, b],
                      lambda e, *_: e, sticking)

    def sticking(_, *args):
        zl, z_free, J, B, b = args[2:]
        lam, active, _, d0, d1 = classify(zl)
        ok, stick, _, _ = attempt(lam, z_free, J, B, b, active, active * (1 - frictional),
                                  d0, d1)
        return switch("exact_held", ok, [stick, *args], lambda s, *_: s, held)

    def held(stick, *args):
        # the sweeps' split of a box's load over its coplanar corners is one of many (W is
        # singular); the solve nearest to it can pull at a corner: drop those, solve again
        solved, gamma, zl, z_free, J, B, b = args
        lam, active, sliding, d0, d1 = classify(zl)
        keep = active * (stick[nz:nz + 3 * nc:3] > 0)
        ok, kept, _, _ = attempt(lam * _rows(keep, keep, nc), z_free, J, B, b, keep,
                                 keep * (1 - frictional), d0, d1)
        guess = reclassify(solved, gamma, b, active, sliding, d0, d1)
        return switch("exact_active", ok, [kept, *guess, zl, z_free, J, B, b],
                      lambda k, *_: k, lambda _, *rest: active_set(1, *rest))

    def active_set(k, ref, active, sliding, d0, d1, zl, z_free, J, B, b):
        # the first solve's contact states corrected by what it found (an active-set
        # iteration): each later solve runs only when the one before missed the law
        ok, out, solved, gamma = attempt(ref, z_free, J, B, b, active, sliding, d0, d1)
        if k == ACTIVE_SET:
            return ca.if_else(ok, out, ca.vertcat(zl, 0))
        guess = reclassify(solved, gamma, b, active, sliding, d0, d1)
        return switch(f"exact_active{k}", ok, [out, *guess, zl, z_free, J, B, b],
                      lambda o, *_: o, lambda _, *rest: active_set(k + 1, *rest))
    frictional = ca.DM((mu > 0).astype(float))
    out = switch("exact_solve", needed, [zl, z_free, J, B, b], solve,
                 lambda zl, *_: ca.vertcat(zl, 0))
    ok = ca.if_else(needed, out[-1], converged)
    return ca.Function("exact", [zl, z_free, J, B, b], [out[:-1], ok],
                       ["zl", "z_free", "J", "B", "b"], ["zl_exact", "ok"])


def _leaves(J_sp, B_sp, mu, nz: int, nc: int):
    """The SX functions of the exact solve: check(zl, J, b) → (needed, converged);
    classify(zl) → (λ, active, sliding, d0, d1); attempt(λ_ref, z_free, J, B, b, active,
    sliding, d0, d1) → (ok, (z, λ, 1), solved λ, J·z) of the proximal passes on one
    classification (R = EPS·W_ii + FLOOR·max W_ii from J and B); reclassify(solved, J·z,
    b, active, sliding, d0, d1) → (reference λ, active, sliding, d0, d1)."""
    frictional = ca.DM((mu > 0).astype(float))
    mu = ca.DM(mu)
    # above EXPAND_NZ speeds, the check's products with J (every step) and the passes are
    # MX: CasADi's loops over J's nonzeros rather than straight-line code per nonzero
    kind = ca.SX if nz <= EXPAND_NZ else ca.MX
    zl, z_free = kind.sym("zl", nz + 3 * nc), kind.sym("z_free", nz)
    J, b = kind.sym("J", J_sp), kind.sym("b", nc)
    lam, active, _, _ = _classify(zl[nz:], mu, frictional)
    converged = _converged(zl[:nz], z_free, J, b, frictional, active)
    needed = ca.logic_and(ca.sum1(active) > 0, ca.logic_not(converged))
    check = ca.Function("exact_check", [zl, z_free, J, b], [needed, converged])
    zl, b = ca.SX.sym("zl", nz + 3 * nc), ca.SX.sym("b", nc)
    lam, active, sliding, d = _classify(zl[nz:], mu, frictional)
    classify = ca.Function("exact_classify", [zl], [lam, active, sliding, *d])
    ref, act, sli = (ca.SX.sym(k, n) for k, n in (("ref", 3 * nc), ("active", nc),
                                                   ("sliding", nc)))
    dd = [ca.SX.sym(f"d{k}", nc) for k in range(2)]
    attempt = _attempt_function(J_sp, B_sp, mu, frictional, nz, nc, kind)
    s_in, g_in = ca.SX.sym("solved", 3 * nc), ca.SX.sym("gamma", 3 * nc)
    guess = _reclassify(s_in, g_in, b, mu, frictional, act, sli, dd, nc)
    reclassify = ca.Function("exact_reclassify", [s_in, g_in, b, act, sli, *dd], list(guess))
    return check, classify, attempt, reclassify


def _attempt_function(J_sp, B_sp, mu, frictional, nz: int, nc: int, kind) -> ca.Function:
    """attempt(λ_ref, z_free, J, B, b, active, sliding, d0, d1) of :func:`_leaves`, in SX
    (straight-line C) or, above EXPAND_NZ speeds, in MX (CasADi's loops and its sparse QR:
    the SX of the tower of ten boxes' solve was 429,502 instructions, 25 MB of C)."""
    J, B, b, z_free = kind.sym("J", J_sp), kind.sym("B", B_sp), kind.sym("b", nc), \
        kind.sym("z_free", nz)
    ref, act, sli = (kind.sym(k, n) for k, n in (("ref", 3 * nc), ("active", nc),
                                                 ("sliding", nc)))
    dd = [kind.sym(f"d{k}", nc) for k in range(2)]
    Wd = ca.sum2(J * B.T)                           # the diagonal of W = J·M⁻¹·Jᵀ
    R = EPS * Wd + FLOOR * ca.mmax(Wd)
    ok, out, (solved, gamma) = _attempt(ref, z_free, J, B, R, b, mu, frictional, nz, nc,
                                        act, sli, dd)
    return ca.Function("exact_attempt", [ref, z_free, J, B, b, act, sli, *dd],
                       [ok, out, solved, gamma])


def _classify(lam, mu, frictional):
    """λ, which contacts are closed (λ_n > 0), which slide (on the cone, or frictionless),
    and the direction d of a sliding contact's tangential impulse."""
    lam_n, lam_t1, lam_t2 = lam[0::3], lam[1::3], lam[2::3]
    size_t = ca.sqrt(lam_t1 ** 2 + lam_t2 ** 2)
    active = lam_n > 0
    sliding = active * ca.logic_or(size_t >= (1 - SLIDE) * mu * lam_n, 1 - frictional)
    d = [ca.if_else(size_t > 0, lt / (size_t + 1e-300), 0) for lt in (lam_t1, lam_t2)]
    return lam, active, sliding, d


def _converged(z, z_free, J, b, frictional, active):
    """Whether the sweeps' (z, λ) meet the contact law to TOL: closed contacts at their
    targets, open ones separating, sticking ones still (any tangential speed counts: a
    sliding contact is left to the solve). The scale holds the free motion's contact
    speeds J·z_free, as the solve's own check does: a resting body's speeds after the
    sweeps are round-off (7e-19 m/s for the box), and relative to those alone no sweep
    ever counted as converged — the solve ran at every resting step."""
    gamma = ca.mtimes(J, z)
    v_n, v_t = gamma[0::3], ca.sqrt(gamma[1::3] ** 2 + gamma[2::3] ** 2)
    scale = ca.mmax(ca.fabs(gamma)) + ca.mmax(ca.fabs(ca.mtimes(J, z_free))) + \
        ca.mmax(ca.fabs(active * b)) + 1e-300
    miss = ca.vertcat(ca.mmax(active * ca.fabs(v_n - b)),
                      ca.mmax(-(1 - active) * (v_n - b)),
                      ca.mmax(active * frictional * v_t))
    return ca.mmax(miss) <= TOL * scale


def _rows(n, t, nc: int):
    """Per-contact values interleaved into the 3nc row order (n, t, t)."""
    return ca.reshape(ca.horzcat(n, t, t).T, 3 * nc, 1)


def _attempt(lam, z_free, J, B, R, b, mu, frictional, nz, nc, active, sliding, d):
    """(whether the law holds, (z, λ, 1)) of the proximal passes on one classification
    (module docstring), and the raw (λ, J·z) before λ_n is clipped at zero."""
    sticking = active * (1 - sliding)
    free = _rows(active, sticking, nc)               # the equation rows, and ν's entries
    slope = ca.reshape(ca.horzcat(ca.DM.zeros(nc), mu * sliding * d[0],
                                  mu * sliding * d[1]).T, 3 * nc, 1)
    # λ = P·ν: ν itself on the free entries, a sliding contact's λ_t = μ·d·ν_n
    P = ca.diag(free) + ca.mtimes(ca.diag(slope), _tangent_from_normal(nc))
    BP = ca.mtimes(B, P)                              # M⁻¹·Jᵀ·P (nz × 3nc)
    inv_r = free / R
    K_inv = woodbury_inverse(BP, inv_r, J)
    target = _rows(b, ca.DM.zeros(nc), nc)
    nu = free * lam * _rows(ca.DM.ones(nc), ca.DM.zeros(nc), nc)
    z = z_free + ca.mtimes(BP, nu)
    for _ in range(PASSES):
        step = woodbury_step(K_inv, BP, inv_r, J, target - ca.mtimes(J, z))
        nu, z = nu + step, z + ca.mtimes(BP, step)
    solved = ca.mtimes(P, nu)
    v_free = ca.mtimes(J, z_free)
    gamma = ca.mtimes(J, z)
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
    return ok, ca.vertcat(z_free + ca.mtimes(B, clipped), clipped, 1), (solved, gamma)


def _reclassify(solved, gamma, b, mu, frictional, active, sliding, d, nc: int):
    """The contact states a solve's impulses and speeds call for (an active-set step): a
    closed contact that pulled opens, an open one that sinks below its target closes
    (sticking), a sticking one whose impulse left the cone slides along that impulse, a
    sliding one that slips along its impulse sticks, and one that slides on turns its
    impulse against its slip. → (reference impulses, active,
    sliding, d0, d1)."""
    s_n, s_t1, s_t2 = solved[0::3], solved[1::3], solved[2::3]
    size_s = ca.sqrt(s_t1 ** 2 + s_t2 ** 2)
    v_n, v_t1, v_t2 = gamma[0::3], gamma[1::3], gamma[2::3]
    closes = ca.logic_and(1 - active, v_n < b)
    now = ca.logic_or(ca.logic_and(active, s_n > 0), closes)
    leaves = active * (1 - sliding) * frictional * (size_s > mu * s_n)
    wrong = sliding * frictional * (v_t1 * d[0] + v_t2 * d[1] > 0)
    slides = now * ca.logic_or(ca.logic_or(sliding * (1 - wrong), leaves), 1 - frictional)
    # a slide that goes on: its impulse turned against the slip it found (Coulomb's law)
    slip = ca.sqrt(v_t1 ** 2 + v_t2 ** 2)
    turn = sliding * (1 - wrong) * (slip > 0)
    d_new = [ca.if_else(leaves, st / (size_s + 1e-300),
                        ca.if_else(turn, -vt / (slip + 1e-300), dk))
             for st, vt, dk in zip((s_t1, s_t2), (v_t1, v_t2), d)]
    ref = _rows(now * ca.fmax(s_n, 0), ca.DM.zeros(nc), nc)
    return ref, now, slides, d_new[0], d_new[1]


def woodbury_inverse(BP, inv_r, J):
    """(I + BP·diag(inv_r)·J)⁻¹ (nz × nz; BP = M⁻¹·Jᵀ·P, inv_r = R⁻¹ on the equation rows,
    0 elsewhere): the speeds' space matrix of Woodbury's identity (module docstring),
    factorized once (Householder QR)."""
    nz = BP.size1()
    if isinstance(BP, ca.SX):       # the exact solve's leaves: a symbolic QR, expanded
        K = ca.SX.eye(nz) + ca.mtimes(BP * ca.repmat(inv_r.T, nz, 1), J)
        return ca.solve(K, ca.SX.eye(nz))
    K = ca.MX.eye(nz) + ca.mtimes(BP * ca.repmat(inv_r.T, nz, 1), J)
    return ca.solve(K, ca.MX.eye(nz), "qr")


def woodbury_step(K_inv, BP, inv_r, J, r):
    """Δν = (E·J·BP + R)⁻¹·r on the equation rows, by Woodbury's identity: R⁻¹·(r − J·y)
    with y = K⁻¹·BP·R⁻¹·r the speed change (zero on the other rows)."""
    y = ca.mtimes(K_inv, ca.mtimes(BP, inv_r * r))
    return inv_r * (r - ca.mtimes(J, y))


def _tangent_from_normal(nc: int) -> ca.DM:
    rows = [3 * c + k for c in range(nc) for k in (1, 2)]
    cols = [3 * c for c in range(nc) for _ in (1, 2)]
    return ca.DM(ca.Sparsity.triplet(3 * nc, 3 * nc, rows, cols), 1.0)
