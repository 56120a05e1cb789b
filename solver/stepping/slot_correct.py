"""Position correction of the slots (:mod:`.slots`) after a step, as :mod:`.correct` does
for the contacts compiled pair by pair (post-stabilization, Cline and Pai 2003; the "split
impulse" of game engines): ``simulate(..., exact=True)`` with slots.

The step holds each gap to first order only, and in a pile its sweeps leave
v_n⁺ − b unconverged (a pile of 100 balls kept 1e-5 m of penetration); after the positions
are updated the bodies are pushed out of what penetration is left by a displacement alone —
the velocities z⁺ are untouched, so the correction gives no kinetic energy. The
displacement is Δz = Σ B_n·δ over the slots (B_n = M⁻¹·J_nᵀ, the step's normal rows, from
its start), with the position-level complementarity problem

    0 ≤ δ  ⊥  g + J_n·Δz ≥ 0      (g: the gaps at the updated positions)

solved by PASSES forward–backward Gauss–Seidel passes (the sweeps' normal projection with
the target −g in place of b, in the same groups of slots, empty groups skipped), and then
applied through the kinematic map y ← y + ẏ(y, Δz)·(1 s) (unit quaternions renormalized:
the step's own ``finish`` with h = 1 s, mapped over alike bodies as the step is). A sphere's
gap is linear in its centre's displacement along the normal, so the linearization errs by
O(δ²/r) (1e-9 m for 1e-5 m on a 5 cm ball). The passes run only on a step that ends with a
gap below −SLOP; the deepest gap before them is the ledger's ``max_correction``.

What the slots still lack is the exact velocity solve of :mod:`.exact` (the sweeps' impulses
stand: the ledger's complementarity residual says by how much they miss).
"""
from __future__ import annotations

import casadi as ca

from .branch import switch
from .correct import SLOP
from .narrow import EPS
from .slot_step import GROUP, _fields, _gather, _scatter, _unless_empty, data_rows, \
    packed_rows
from .step import _column

PASSES = 10       # forward–backward passes of the position problem per corrected step


def centre_function(system, slotted) -> ca.Function:
    """centres(x, p) → 3 × (nd + planes + 1): each slotted sphere's centre, a world
    plane's point n·offset, and the dummy's zero (the columns of the slots' data)."""
    x = ca.SX.sym("x", system.nx)
    p = ca.SX.sym("p", system.p_default.size)
    R, r, _, _ = system.frames.function(x, p)
    kin = system.frames
    columns = []
    for prim in slotted.spheres:
        col = _column(kin, prim)
        columns.append(r[:, col] + ca.mtimes(R[:, 3 * col:3 * col + 3], ca.DM(prim.center)))
    columns += [ca.DM(plane[:3]) * plane[3] for plane in slotted.planes]
    columns.append(ca.DM.zeros(3))
    return ca.Function("slot_centres", [x, p], [ca.horzcat(*columns)], ["x", "p"],
                       ["centres"])


def slot_gaps(C, gather_a, gather_b, Db, mat, K: int, L: int):
    """The gap of every slot (zero for an empty one) at the centres C (MX, 3 × columns),
    as :func:`.slot_step.slot_kinematics` computes it: a plane's along its normal, two
    spheres' along the line of centres."""
    table = ca.vec(C)
    first_a = ca.reshape(gather_a, L, K)[0, :] / L * 3      # a slot's data column × 3
    first_b = ca.reshape(gather_b, L, K)[0, :] / L * 3
    three = ca.DM([0, 1, 2])
    ca_ = ca.reshape(_gather(table, ca.vec(ca.repmat(first_a, 3, 1) + three)), 3, K)
    cb = ca.reshape(_gather(table, ca.vec(ca.repmat(first_b, 3, 1) + three)), 3, K)
    mats = ca.reshape(mat, -1, K)
    ra, rb, mask = mats[0, :], mats[1, :], mats[mats.size1() - 1, :]
    normal, flag = Db[L - 4:L - 1, :], Db[L - 1, :]
    d = ca.repmat(mask, 3, 1) * (ca_ - cb) + ca.repmat(1 - mask, 3, 1) * ca.DM([1, 0, 0])
    dist = ca.sqrt(ca.sum1(d * d) + EPS)
    gap = flag * (ca.sum1(normal * d) - ra) + (1 - flag) * (dist - ra - rb)
    return (mask * gap).T


def position_update(s: int) -> ca.Function:
    """(Δg, δ, P, g) → (Δg, δ): one Gauss–Seidel update of a slot's position problem on
    the displacement Δg = (Δz_a, Δz_b) of its two blocks (the sweeps' normal projection
    with the target −g); an empty slot keeps δ = 0."""
    dg, delta = ca.SX.sym("dg", 2 * s), ca.SX.sym("delta")
    P, g = ca.SX.sym("P", packed_rows(s)), ca.SX.sym("g")
    J, B, w_n, _, _, _, _, mask = _fields(P, s)
    new = ca.if_else(mask > 0, ca.fmax(0, delta - w_n * (g + ca.dot(J[0, :].T, dg))), 0)
    return ca.Function("slot_position", [dg, delta, P, g], [dg + B[:, 0] * (new - delta), new])


def _group(update, nz: int, s: int, size: int, order: int) -> ca.Function:
    """(Δz_ext, δ, P, zidx, g) → (Δz_ext, δ) of ``size`` slots in ``order``."""
    dz_in, delta = ca.MX.sym("dz", nz + 1), ca.MX.sym("delta", size)
    P, zi = ca.MX.sym("P", packed_rows(s), size), ca.MX.sym("zidx", 2 * s * size)
    g = ca.MX.sym("g", size)
    deltas, dz = [delta[k] for k in range(size)], dz_in
    for k in list(range(size))[::order]:
        index = zi[2 * s * k:2 * s * (k + 1)]
        dg, deltas[k] = update(_gather(dz, index), deltas[k], P[:, k], g[k])
        dz = _scatter(dz, index, dg)
    return ca.Function("slot_position_forward" if order == 1 else "slot_position_backward",
                       [dz_in, delta, P, zi, g], [dz, ca.vertcat(*deltas)])


def correct_slots(x_new, t, u, p, h, gaps, P, zidx, used, nz: int, s: int, K: int,
                  displace):
    """(x after the step) → (x pushed out of the slots' penetrations, the deepest
    penetration before [m]) (module docstring). MX in and out; ``gaps``: the slots' gaps
    at x_new (:func:`slot_gaps`), ``displace(x, t, u, p, Δz)``: the kinematic map."""
    worst = ca.mmax(ca.fmax(-gaps, 0))
    size = min(K, GROUP)
    n_groups = K // size
    update = position_update(s)
    forward, backward = (_unless_empty(_group(update, nz, s, size, order))
                         for order in (1, -1))

    def passes(x, t, u, p, h, g, used, P, zidx):
        dz = ca.MX.zeros(nz + 1)
        deltas = [ca.MX.zeros(size) for _ in range(n_groups)]
        Ps = ca.horzsplit(P, size)
        zis = ca.vertsplit(zidx, 2 * s * size)
        gs = ca.vertsplit(g, size)
        for _ in range(PASSES):
            for fn, order in ((forward, range(n_groups)), (backward,
                                                          reversed(range(n_groups)))):
                for k in order:
                    dz, deltas[k] = fn(used > size * k, dz, deltas[k], Ps[k], zis[k],
                                       gs[k])
        return displace(x, t, u, p, dz[:nz])
    x = switch("slot_correct", ca.mmin(gaps) < -SLOP, [x_new, t, u, p, h, gaps, used, P,
                                                       zidx],
               passes, lambda x, *_: x)
    return x, worst


def corrected(system, slotted, finish, x_new, t, u, p, h, Db, gather_a, gather_b, mat, P,
              zidx, used, K: int):
    """x_new pushed out of the slots' penetrations and the deepest one before
    (:mod:`.slot_correct`); the kinematic map is the step's ``finish`` with h = 1 s (mapped
    over alike bodies as the step's), of which only the positions are kept."""
    ny, nz = len(system.y_names), len(system.z_names)
    gaps = slot_gaps(centre_function(system, slotted)(x_new, p), gather_a, gather_b, Db,
                     mat, K, data_rows(slotted.s))
    rest = [ca.DM.zeros(finish.sparsity_in(i)) for i in range(6, finish.n_in())]
    n_lam = finish.size1_in(5) - nz

    def displace(x, t, u, p, dz):
        moved = finish(t, x, u, p, 1.0, ca.vertcat(dz, ca.DM.zeros(n_lam)), *rest)[0]
        return ca.vertcat(moved[:ny], x[ny:])
    return correct_slots(x_new, t, u, p, h, gaps, P, zidx, used, nz, slotted.s, K, displace)
