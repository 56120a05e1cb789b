"""The exact solve of a step on the contacts that carry an impulse only, gathered into SLOTS
slots: a robot's step has all its contacts compiled (the cheetah's 47: feet, shins, torso
against the floor, the legs against each other, the joints' limits) while two or three carry
anything. The solve of :mod:`.exact` on the sweeps' active set moves the speeds through the
closed contacts' rows only (an open contact's rows have no unknown and no equation; its
part is the check that it separates), but its products and checks ran over all 3·nc rows.

Here the contacts whose normal impulse the sweeps left positive are gathered (an index per
slot, computed in the step: CasADi's indexing by a symbolic vector; empty slots point at a
zero row) and solved as a problem of their own (the same :func:`.exact.exact_function` on
SLOTS contacts), then scattered back; every other contact keeps a zero impulse, and the
result stands only where each of them separates at the new speeds (J_n·z⁺ ≥ b, the law of
an open contact, to the exact solve's tolerance) and the slots' solve met the law: else, or
when more contacts carry an impulse than there are slots, the solve over all contacts runs
as before (a Switch: only one of the two runs). The solve on the slots is the same linear
algebra as over all rows (open rows add nothing to Woodbury's matrix), so the results agree
to round-off.

The contacts' friction coefficients differ (the cheetah's feet 0.4 and 1, the joints'
limits 0), while the compiled solve holds one μ per slot: a contact's tangent rows are
scaled by s = μ_c/μ̄ (μ̄ the largest), its tangential impulse by 1/s — Jᵀ·λ, the cone
|λ_t| ≤ μ·λ_n, sticking (v_t = 0) and the slip's direction are unchanged — and a
frictionless contact's tangent rows are zero (rows without effective mass, regularized by
the solve as a planar model's out-of-plane tangent is).
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from .branch import switch
from .exact import TOL, exact_function

SLOTS = 8      # contacts solved together at most before the solve over all contacts runs


def compact_function(J_sp, B_sp, mu, nz: int, nc: int, slots: int | None = None):
    """exact(zl, z_free, J, B, b) → (zl, ok) of :func:`.exact.exact_function`, through the
    slots where there are fewer slots than contacts (module docstring)."""
    mu = np.asarray(mu, dtype=float).ravel()
    full = exact_function(J_sp, B_sp, mu, nz, nc)
    K = min(slots or SLOTS, nc)
    if K == nc:
        return full
    top = float(mu.max())
    scale = mu / top if top > 0 else np.ones(nc)
    row_scale = np.concatenate([np.repeat(1.0, 3) if c == nc else [1.0, scale[c], scale[c]]
                                for c in range(nc + 1)])
    inverse = np.where(row_scale > 0, 1 / np.where(row_scale > 0, row_scale, 1), 0.0)
    solve = exact_function(ca.Sparsity.dense(3 * K, nz), ca.Sparsity.dense(nz, 3 * K),
                           np.full(K, top), nz, K)
    select = _selection(nz, nc, K)
    zl, z_free = ca.MX.sym("zl", nz + 3 * nc), ca.MX.sym("z_free", nz)
    J, B, b = ca.MX.sym("J", J_sp), ca.MX.sym("B", B_sp), ca.MX.sym("b", nc)
    active = zl[nz::3] > 0
    count = ca.sum1(active)

    def slotted(zl, z_free, J, B, b):
        rows, j_index, b_index, contact = select(zl[nz:])
        J_ext = ca.vec(ca.vertcat(ca.densify(J), ca.MX.zeros(3, nz)))
        B_ext = ca.vec(ca.horzcat(ca.densify(B), ca.MX.zeros(nz, 3)))
        s_rows = ca.MX(ca.DM(row_scale))[rows]
        J_s = ca.reshape(J_ext[j_index], 3 * K, nz) * ca.repmat(s_rows, 1, nz)
        B_s = ca.reshape(B_ext[b_index], nz, 3 * K) * ca.repmat(s_rows.T, nz, 1)
        lam_ext = ca.vertcat(zl[nz:], ca.MX.zeros(3))
        lam_s = lam_ext[rows] * ca.MX(ca.DM(inverse))[rows]
        b_s = ca.vertcat(b, -1.0)[contact]
        out, ok = solve(ca.vertcat(zl[:nz], lam_s), z_free, J_s, B_s, b_s)
        z_new = out[:nz]
        lam_new = ca.MX.zeros(3 * nc + 3)
        lam_new.set_nz(out[nz:] * s_rows, False, rows)
        # every contact outside the slots carries nothing: it must separate
        open_ = 1 - (zl[nz::3] > 0)
        v_n, v_free = ca.mtimes(J, z_new)[0::3], ca.mtimes(J, z_free)[0::3]
        size = ca.mmax(ca.fabs(v_free)) + ca.mmax(ca.fabs((1 - open_) * b)) + 1e-300
        holds = ca.logic_and(ok, ca.mmin(open_ * (v_n - b)) >= -TOL * size)
        return switch("exact_slots_hold", holds, [ca.vertcat(z_new, lam_new[:3 * nc]), zl,
                                                  z_free, J, B, b],
                      lambda solved, *_: ca.vertcat(solved, 1),
                      lambda _, *args: ca.vertcat(*full(*args)))

    out = switch("exact_slots", count <= K, [zl, z_free, J, B, b], slotted,
                 lambda *args: ca.vertcat(*full(*args)))
    return ca.Function("exact_compact", [zl, z_free, J, B, b], [out[:-1], out[-1]],
                       ["zl", "z_free", "J", "B", "b"], ["zl_exact", "ok"])


def _selection(nz: int, nc: int, K: int) -> ca.Function:
    """select(λ) → the rows (3K) of the slots' contacts in λ's order (n, t, t), the indices
    of their Jacobian's entries in the densified J with a zero row block appended (column
    major, 3K × nz) and of B's (nz × 3K), and the contacts (K): slot k holds the k-th
    contact with λ_n > 0, or the zero contact nc."""
    lam = ca.SX.sym("lam", 3 * nc)
    active = lam[0::3] > 0
    rank = ca.cumsum(active) - active          # active contacts before each one
    contact = []
    for k in range(K):
        contact.append(nc + ca.sum1(active * (rank == k) * (ca.DM(np.arange(nc)) - nc)))
    contact = ca.vertcat(*contact)
    rows = ca.vertcat(*[3 * contact[k] + r for k in range(K) for r in range(3)])
    height = 3 * (nc + 1)
    j_index = ca.vertcat(*[rows + height * col for col in range(nz)])
    b_index = ca.vertcat(*[nz * rows[r] + i for r in range(3 * K) for i in range(nz)])
    return ca.Function("exact_slots_select", [lam], [rows, j_index, b_index, contact])
