"""One time step of the fast contact mode as CasADi functions (Moreau 1988, Jean 1999;
Anitescu and Potra 1997 for the gap target): velocities by an impulse balance with exact
complementarity at velocity level, positions from the new velocities.

    M(y)·(z⁺ − z) = h·M(y)·ż_s(t, y, z) + Jᵀ·λ,      y⁺ = y + h·ẏ(y, z⁺)

λ = (λ_n, λ_t) per contact [N·s]: 0 ≤ λ_n ⊥ v_n⁺ − b ≥ 0 with b = min(−g/h, 0) (a gap g
closes no further than to zero within the step: no sinking; a penetration left by the
linearized rotation is the position correction's, :mod:`.correct`, never a speed's) or, for
a contact that closes within the step faster than v_rest, b = max(b, −e·v_n⁻) (Newton's
restitution: the normal speed after is e times
the one before, never more: no energy gained at an impact); Coulomb's cone |λ_t| ≤ μ·λ_n
with λ_t opposing the slip whenever it slips. The complementarity problem is solved by a
projected Gauss–Seidel (Jean and Moreau's NSGS): per contact, the normal impulse projected
on λ_n ≥ 0, then the tangential one projected on the disk of radius μ·λ_n, a fixed number of
passes over the contacts, alternately forward and backward, (a CasADi fold: compiled, no
Python per sweep or per step), then solved exactly on the active set the sweeps found
(:mod:`.exact`: all the coupled contacts at once, in the speeds' space, kept where it meets
the law). With the exact solve, the first EARLY_FOLDS sweep folds run before it, and the
rest of ``iterations`` only where it misses the law (a warm-started step's active set is
mostly right after a few passes; :mod:`.branch` runs the rest only when needed). Fewer than
six passes leave a sliding contact's direction unconverged, which the law's check does not
see (it asks only that the contact not slip along its impulse).

Functions: ``kinematics`` (t, x, u, p, h) → contact Jacobian J, B = M⁻¹·Jᵀ, the blocks of
the Delassus matrix, targets b, μ, the free speeds and the gaps; ``sweep`` one NSGS sweep;
``finish`` the positions and the run's ledger (maximum penetration [m], complementarity and
cone residuals [m/s]); ``step`` all three, the block solve and the position correction; ``settle`` the first step's impulses solved to
convergence (SETTLE_PASSES), the warm start of a run.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from ..collision.pairs import WORLD
from .correct import correct, displacement_function
from .branch import switch
from .exact import block_solve
from .ltdl import ltdl_solve
from .kinds import mapped_inverses, mapped_sweep, worth_mapping
from .narrow import pair_contacts

LEDGER = ("max_penetration", "complementarity", "cone", "max_step_gain", "max_correction",
          "energy_taken")
MAXED = 5      # the first MAXED entries of the ledger are maxima over the steps, the rest sums
# passes of the first step's solve (``settle``): a run starts from converged impulses, so
# that a stack at rest is held from its first step (cold, 30 passes let a 10-box tower sag
# and tilt by millimetres before the warm starts caught up). With the exact solve they run
# only where it misses the law after EARLY_FOLDS (the cheetah's 1000 passes: 2-5 ms a run)
SETTLE_PASSES = 1000
# sweep folds (two passes each: forward, backward) before a first exact solve; the rest of a
# step's ``iterations`` run only where that solve misses the law (exact=True)
EARLY_FOLDS = 3
# nonzeros of J and B above which the step's start is MX (:func:`_start`): the tower of ten
# boxes has 5,472, the cheetah 1,422, the tumbling box 288. 0 (always MX) since the C's
# helpers are inlined (csource.TUNING): the cheetah's run 6 % and the box's 6 % faster than
# with an SX start below 3,000 (tests/test_stepping_kinds.py keeps the SX form tested)
START_MX_NNZ = 0


def contact_rows(system, specs, x, p):
    """Gaps g (c), and the rows' velocities γ = (v_n, v_t1, v_t2) per contact (3c, linear
    in z) as SX in the state x; μ, e and v_rest per contact, and which contacts are
    geometric (1; gaps in m) rather than a stop's rows (0; a joint's unit, no tangents: μ = 0
    and zero tangential rows)."""
    from .scene import RowSpec
    kin = system.frames
    R, r, v, w = kin.function(x, p)
    hybrid = None

    def pose(prim):
        if prim.frame == WORLD:
            return ca.DM.eye(3), ca.DM.zeros(3), None
        k = _column(kin, prim)
        return R[:, 3 * k:3 * k + 3], r[:, k], k

    gaps, gammas, mats = [], [], []
    for spec in specs:
        if isinstance(spec, RowSpec):
            if hybrid is None:      # every row's gap and speed; the multipliers play no part
                fn = system.functions["hybrid_others"]
                hybrid = fn(0, x, ca.DM.zeros(fn.size1_in(2)), p,
                            ca.DM.zeros(fn.size1_in(4)))
            gaps.append(hybrid[1][spec.index])
            gammas += [hybrid[0][spec.index], ca.SX(0), ca.SX(0)]
            mats.append((0.0, spec.e, spec.v_rest, 0.0))
            continue
        Ra, ra, ka = pose(spec.a)
        Rb, rb, kb = pose(spec.b)
        for gap, n, pa, pb in pair_contacts(spec.a, (Ra, ra), spec.b, (Rb, rb)):
            rel = _point_velocity(v, w, r, ka, pa) - _point_velocity(v, w, r, kb, pb)
            t1, t2 = _tangents(n)
            gaps.append(gap)
            gammas += [ca.dot(n, rel), ca.dot(t1, rel), ca.dot(t2, rel)]
            mats.append((spec.mu, spec.e, spec.v_rest, 1.0))
    return ca.vertcat(*gaps), ca.vertcat(*gammas), np.array(mats).reshape(-1, 4)


def _column(kin, prim) -> int:
    from jourdain.blocks.errors import ModelError
    if prim.frame not in kin.index:
        close = [k for k in kin.index if k.split(".")[0] == prim.frame.split(".")[0]]
        raise ModelError(f"collider '{prim.name}': frame '{prim.frame}' is not a frame of "
                         "the model connected to the world"
                         + (f" (its frames: {', '.join(close[:4])})" if close else ""))
    return kin.index[prim.frame]


def _point_velocity(v, w, r, k, point):
    if k is None:
        return ca.DM.zeros(3)
    return v[:, k] + ca.cross(w[:, k], point - r[:, k])


def _tangents(n):
    """An orthonormal pair spanning the plane normal to n (constant when n is)."""
    helper = ca.if_else(ca.fabs(n[0]) < 0.9, ca.DM([1, 0, 0]), ca.DM([0, 1, 0]))
    t1 = ca.cross(n, helper)
    t1 = t1 / ca.norm_2(t1)
    return t1, ca.cross(n, t1)


def build_step(system, specs, iterations: int, exact: bool = True):
    """The functions of the module docstring for ``system`` and its contacts ``specs``."""
    if iterations is None:
        return build_parts(system, specs, None, exact)
    parts, compose, nc = build_parts(system, specs, iterations, exact)
    return (*compose(*parts), nc)


def build_parts(system, specs, iterations, exact: bool = True, suffix: str = ""):
    """(the step's large SX functions [kinematics, sweep, finish], compose: those three (or
    their compiled ``external`` stand-ins) → (step, settle), nc): the step apart from its
    parts, so that each part can be compiled in a file of its own (:mod:`.staged`).
    ``suffix`` ends the parts' names (two steps' parts in one library: :mod:`.dormant`)."""
    ny, nz, nx = len(system.y_names), len(system.z_names), system.nx
    t, h = ca.SX.sym("t"), ca.SX.sym("h")
    x, u = ca.SX.sym("x", nx), ca.SX.sym("u", len(system.u_names))
    p = ca.SX.sym("p", system.p_default.size)
    y, z = x[:ny], x[ny:ny + nz]
    f = system.functions.get("f_smooth", system.functions["f"])
    xdot = f(t, x, u, p)
    gap, gamma, mats = contact_rows(system, specs, x, p)
    nc = gap.numel()
    J = ca.jacobian(gamma, x)[:, ny:ny + nz]
    M = system.functions["M"](y, p)
    B = ltdl_solve(M, J.T)         # M⁻¹·Jᵀ through M = Lᵀ·D·L (a dense QR cost 2–3×)
    mu, e, v_rest, geometric = (ca.DM(mats[:, k]) if nc else ca.DM(0, 1) for k in range(4))
    v_before = ca.vertcat(*[gamma[3 * c] for c in range(nc)]) if nc else ca.SX(0, 1)
    b = targets(gap, v_before, h, e, v_rest, exact)
    # many alike contacts (a tower's corners): their blocks and sweep visits written once
    # per kind and called per contact (kinds.py), so the C grows by a call per contact
    mapped = bool(nc) and worth_mapping(J.sparsity(), B.sparsity(), nc)
    if mapped:
        w_n, w_t = mapped_inverses(J, B, nc, _tiny)
    else:
        W = [ca.mtimes(J[3 * c:3 * c + 3, :], B[:, 3 * c:3 * c + 3]) for c in range(nc)]
        w_n = ca.vertcat(*[1 / (Wc[0, 0] + _tiny(Wc)) for Wc in W]) if nc else ca.SX(0, 1)
        w_t = ca.vertcat(*[ca.reshape(ca.inv(Wc[1:, 1:] + _tiny(Wc) * ca.DM.eye(2)), 4, 1)
                           for Wc in W]) if nc else ca.SX(0, 1)
    z_free = z + h * xdot[ny:ny + nz]
    outs = [J, B, w_n, w_t, b, z_free, gap]
    # the same subexpressions built more than once (a point's velocity in each of its rows,
    # M's entries in the dynamics and in B) computed once: the cheetah's 20.8k → ~18k ops;
    # the same arithmetic, so the same numbers (the kinds' calls are left as they are)
    outs = outs if mapped else ca.cse(outs)
    kinematics = ca.Function(f"kinematics{suffix}", [t, x, u, p, h], outs,
                             ["t", "x", "u", "p", "h"],
                             ["J", "B", "w_n", "w_t", "b", "z_free", "gap"])
    sweep = (mapped_sweep if mapped else _sweep)(J.sparsity(), B.sparsity(), nz, nc, mu,
                                                 f"sweep{suffix}")
    finish = _finish(system, f, J.sparsity(), nc, mu, geometric, f"finish{suffix}")
    if iterations is None:     # the parts to which the broad phase's step adds its slots
        return kinematics, sweep, finish, (nx, nz, nc, u.numel(), p.numel())
    after = _after(system, f, x, p, gap, mu, geometric, nz, nc if exact else 0)

    def compose(kinematics, sweep, finish):
        return _step(kinematics, sweep, finish, after, nx, nz, nc, u.numel(), p.numel(),
                     iterations, exact)
    return [kinematics, sweep, finish], compose, nc


def targets(gap, v_before, h, e, v_rest, exact: bool = True):
    """The normal rows' targets b (module docstring): the gap closing to zero within the
    step, or Newton's restitution of the speed before where the contact closes within the
    step faster than v_rest."""
    closing = ca.logic_and(gap + h * v_before <= 0, -v_before > v_rest)
    # a penetration is the position correction's to remove (correct.py), never a speed's:
    # a target b > 0 out of a penetration would give the body kinetic energy (the sweeps
    # alone, exact=False, have no correction: the next step's target removes it, as before)
    closes = ca.fmin(-gap / h, 0) if exact else -gap / h
    return ca.if_else(closing, ca.fmax(closes, -e * v_before), closes)


def _after(system, f, x, p, gap, mu, geometric, nz: int, nc: int):
    """What follows the sweeps (MX): the exact solve on their active set (:mod:`.exact`),
    and the position correction of the new state (:mod:`.correct`); nothing for nc = 0 (no
    contacts, or ``exact=False``: the sweeps alone)."""
    gaps = ca.Function("gaps", [x, p], [gap], ["x", "p"], ["gap"])
    displace = displacement_function(system, f, _normalized)

    def solve(zl, z_free, J, B, b):
        return block_solve(zl, z_free, J, B, b, mu, nz, nc) if nc else (zl, ca.MX(1))

    def position(x_new, t, u, p_, J, B):
        if not nc:
            return x_new, ca.MX(0)
        return correct(x_new, t, u, p_, J, B, gaps, displace, geometric)
    return solve, position


def _tiny(Wc):
    """A regularization of a contact's Delassus block far below its scale: a planar model
    (the hopper, the cheetah) cannot move out of its plane, so a contact's tangent along
    the plane's normal has no effective mass (a singular block, whose inverse was inf and
    the run NaN). Its speed is zero whatever the impulse, so the regularized inverse leaves
    the impulse there at zero and changes the others' by 1e-12 relative."""
    return 1e-12 * (Wc[0, 0] + Wc[1, 1] + Wc[2, 2]) + 1e-300


def _sweep(J_sp, B_sp, nz: int, nc: int, mu, name: str = "sweep") -> ca.Function:
    """Two NSGS passes over the contacts (module docstring), forward then backward: a
    symmetric order, so that no contact of a symmetric scene (four corners on a face, a
    stack) is favoured by its place in the list: (z, λ) → (z, λ)."""
    zl = ca.SX.sym("zl", nz + 3 * nc)
    J, B = ca.SX.sym("J", J_sp), ca.SX.sym("B", B_sp)
    w_n, w_t, b = ca.SX.sym("w_n", nc), ca.SX.sym("w_t", 4 * nc), ca.SX.sym("b", nc)
    z, lam = zl[:nz], [zl[nz + k] for k in range(3 * nc)]
    for c in list(range(nc)) + list(reversed(range(nc))):
        n, t = 3 * c, slice(3 * c + 1, 3 * c + 3)
        v_n = ca.mtimes(J[n, :], z)
        new_n = ca.fmax(0, lam[n] - w_n[c] * (v_n - b[c]))
        z = z + B[:, n] * (new_n - lam[n])
        v_t = ca.mtimes(J[t, :], z)
        Wi = ca.reshape(w_t[4 * c:4 * c + 4], 2, 2)
        trial = ca.vertcat(lam[n + 1], lam[n + 2]) - ca.mtimes(Wi, v_t)
        size = ca.sqrt(ca.dot(trial, trial) + 1e-300)
        new_t = trial * ca.fmin(1, float(mu[c]) * new_n / size)
        z = z + ca.mtimes(B[:, t], new_t - ca.vertcat(lam[n + 1], lam[n + 2]))
        lam[n], lam[n + 1], lam[n + 2] = new_n, new_t[0], new_t[1]
    out = ca.vertcat(z, *lam) if nc else z
    return ca.Function(name, [zl, J, B, w_n, w_t, b], [out],
                       ["zl", "J", "B", "w_n", "w_t", "b"], ["zl_next"])


def _finish(system, f, J_sp, nc: int, mu, geometric, name: str = "finish") -> ca.Function:
    """Positions y⁺ = y + h·ẏ(y, z⁺) (unit quaternions renormalized), component states by
    an explicit step, and the ledger's residuals of this step (the penetration of the
    geometric contacts only: a stop's gap is in the joint's unit)."""
    ny, nz, nx = len(system.y_names), len(system.z_names), system.nx
    t, h = ca.SX.sym("t"), ca.SX.sym("h")
    x, u = ca.SX.sym("x", nx), ca.SX.sym("u", len(system.u_names))
    p = ca.SX.sym("p", system.p_default.size)
    zl = ca.SX.sym("zl", nz + 3 * nc)
    J = ca.SX.sym("J", J_sp)
    w_n, b, gap = ca.SX.sym("w_n", nc), ca.SX.sym("b", nc), ca.SX.sym("gap", nc)
    z_free = ca.SX.sym("z_free", nz)
    z_new, lam, z_start = zl[:nz], zl[nz:], x[ny:ny + nz]
    moved = ca.vertcat(x[:ny], z_new, x[ny + nz:])
    rate = f(t, moved, u, p)[:ny]
    y_new = _normalized(system, x[:ny] + h * rate)
    s_new = x[ny + nz:] + h * f(t, x, u, p)[ny + nz:]
    residuals = [ca.SX(0)] * 5
    if nc:
        lam_n, v_n = lam[0::3], ca.mtimes(J[0::3, :], z_new)     # the normal rows only
        slack = v_n - b
        lam_t = ca.sqrt(lam[1::3] ** 2 + lam[2::3] ** 2)
        residuals = [ca.mmax(ca.fmax(-gap, 0) * geometric),
                     ca.mmax(ca.fabs(ca.fmin(lam_n / w_n, slack))),
                     ca.mmax(ca.fmax(lam_t - ca.DM(mu) * lam_n, 0) / w_n)]
        # M·(z⁺ − z_free) = Jᵀλ: the kinetic energy the impulses add to the free step's,
        # ½(z⁺ + z_free)ᵀM(z⁺ − z_free) = ½λᵀJ(z⁺ + z_free), is ≤ 0 when every target b ≤ 0
        # (the impulse solve is a projection in the metric M onto a cone holding 0); > 0
        # flags energy a contact gave (restitution, a penetration pushed out). What the
        # contacts take over the run is their work at the step's mean speed, ½λᵀJ(z⁺ + z)
        # (M·(z⁺ − z) = h·F + Jᵀλ splits the change of kinetic energy exactly): zero for a
        # resting contact, −½·m·(1 − e²)·v² for Newton's impact
        # (Jᵀλ formed once: each product with J is a third of this part's C for a tower)
        impulse = ca.mtimes(J.T, lam)
        gain = ca.dot(impulse, z_new + z_free) / 2
        work = ca.dot(impulse, z_new + z_start) / 2
        residuals += [gain, -work]
    return ca.Function(name, [t, x, u, p, h, zl, J, w_n, b, gap, z_free],
                       [ca.vertcat(y_new, z_new, s_new), ca.vertcat(*residuals)],
                       ["t", "x", "u", "p", "h", "zl", "J", "w_n", "b", "gap", "z_free"],
                       ["x_next", "ledger"])


def _normalized(system, y):
    for i, _ in system.quaternions:      # (index of q0, joint) of every unit quaternion
        q = y[i:i + 4]
        y[i:i + 4] = q / ca.norm_2(q)
    return y


def _start(kinematics, sweep, nx: int, nz: int, nc: int, nu: int, n_p: int, folds: int):
    """start(t, x, u, p, h, λ) → the kinematics' outputs and (z, λ) after ``folds`` sweep
    folds from the warm start z_free + B·λ: one function calling the parts (the sweeps one
    by one, not a fold, which copied J and B for each of its iterations)."""
    # MX above START_MX_NNZ: an SX function copies every entry of J and B into each call
    # of the compiled parts (the ten boxes: 24,000 lines of C, most of the glue's gcc
    # time; the cheetah: 6 % of its step); MX passes them by pointer
    kind = ca.MX if kinematics.nnz_out(0) + kinematics.nnz_out(1) > START_MX_NNZ else ca.SX
    t, h = kind.sym("t"), kind.sym("h")
    x, u, p = kind.sym("x", nx), kind.sym("u", nu), kind.sym("p", n_p)
    lam = kind.sym("lam", 3 * nc)
    outs = kinematics(t, x, u, p, h)
    J, B, w_n, w_t, b, z_free, _ = outs
    zl = ca.vertcat(z_free + ca.mtimes(B, lam), lam)
    for _ in range(folds):
        zl = sweep(zl, J, B, w_n, w_t, b)
    return ca.Function("start", [t, x, u, p, h, lam], [*outs, zl])


def _sweeps_then_solve(sweep, solve, folds: int, first, z_free, J, B, w_n, w_t, b):
    """The exact solve after the first EARLY_FOLDS of the folds (``first``: the warm
    start's active set is most steps' own), the rest of the folds only when the solve on
    their active set missed the law (then solved again on the active set all the sweeps
    found)."""
    early = min(EARLY_FOLDS, folds)
    solved, ok = solve(first, z_free, J, B, b)
    if early == folds:
        return solved

    def more(first, z_free, J, B, w_n, w_t, b):
        return solve(sweep.fold(folds - early)(first, J, B, w_n, w_t, b), z_free, J, B, b)[0]
    return switch("more_sweeps", ok, [solved, first, z_free, J, B, w_n, w_t, b],
                  lambda s, *_: s, lambda _, *args: more(*args))


def _step(kinematics, sweep, finish, after, nx, nz, nc, nu, n_p, iterations, exact):
    """step(acc, u, p, h) → acc with acc = (t, x, λ, ledger): one step. The sweeps start
    from the previous step's impulses (a warm start: the contacts keep their places in λ,
    and a resting stack's impulses change little from step to step); the ledger keeps the
    largest residuals and step gain seen, and the energy taken summed."""
    acc = ca.MX.sym("acc", 1 + nx + 3 * nc + len(LEDGER))
    u, p, h = ca.MX.sym("u", nu), ca.MX.sym("p", n_p), ca.MX.sym("h")
    t, x = acc[0], acc[1:1 + nx]
    lam, ledger = acc[1 + nx:1 + nx + 3 * nc], acc[1 + nx + 3 * nc:]
    solve, position = after
    folds = max(1, (iterations + 1) // 2)
    if nc and exact:
        start = _start(kinematics, sweep, nx, nz, nc, nu, n_p, min(EARLY_FOLDS, folds))
        J, B, w_n, w_t, b, z_free, gap, zl = start(t, x, u, p, h, lam)
        zl = _sweeps_then_solve(sweep, solve, folds, zl, z_free, J, B, w_n, w_t, b)
    else:
        J, B, w_n, w_t, b, z_free, gap = kinematics(t, x, u, p, h)
        zl = ca.vertcat(z_free + ca.mtimes(B, lam), lam)
        if nc:
            zl = sweep.fold(folds)(zl, J, B, w_n, w_t, b)
    x_new, residuals = finish(t, x, u, p, h, zl, J, w_n, b, gap, z_free)
    x_new, corrected = position(x_new, t + h, u, p, J, B)
    residuals = ca.vertcat(residuals[:4], corrected, residuals[4:])
    out = ca.vertcat(t + h, x_new, zl[nz:], ca.fmax(ledger[:MAXED], residuals[:MAXED]),
                     ledger[MAXED:] + residuals[MAXED:])
    step = ca.Function("step", [acc, u, p, h], [out], ["acc", "u", "p", "h"], ["acc_next"])
    start = ca.vertcat(z_free, ca.MX.zeros(3 * nc))
    if nc and exact:   # the passes only where the exact solve after the first misses the law
        first = sweep.fold(EARLY_FOLDS)(start, J, B, w_n, w_t, b)
        start = _sweeps_then_solve(sweep, solve, SETTLE_PASSES // 2, first, z_free, J, B, w_n,
                                   w_t, b)
    elif nc:
        start = sweep.fold(SETTLE_PASSES // 2)(start, J, B, w_n, w_t, b)
    settle = ca.Function("settle", [acc, u, p, h], [start[nz:]], ["acc", "u", "p", "h"],
                         ["lambda"])
    return step, settle
