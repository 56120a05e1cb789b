"""The stepping step's per-contact code written once per kind of contact, called per contact.

The sweep (:func:`.step._sweep`) and the Delassus blocks of the kinematics are unrolled
over the contacts as straight-line SX: for the tower of ten boxes (80 corners) the sweep
alone was 31,964 instructions (0.9 MB of C, 17 s of gcc -O1), the same few hundred
operations written 160 times with other indices. Here the contacts are grouped by *kind*:
two contacts are alike when their rows of J and columns of B = M⁻¹·Jᵀ, restricted to the
speeds they touch, have the same sparsity (the 8 corners of a box on the box below share
one kind, whatever box; the corners on the ground another). Each kind's update is one SX
Function, marked ``never_inline``, so that the part calling it holds a call per contact
(CasADi's call node: the arguments gathered, a C call) and its C defines the kind's body
once: the parts' C grows with the number of contacts by a call's marshalling, not by the
body, and gcc compiles each body once.

The arithmetic of a visit is that of the unrolled sweep, on the contact's speeds only
(the others are untouched by it): the same result up to the order of the sums (round-off).

Used where the unrolled part is large and the contacts alike (:func:`worth_mapping`); a
robot's contacts, on other links each, stay unrolled (a call's marshalling of the arguments
costs as much as a short body, and no body is shared).
"""
from __future__ import annotations

import casadi as ca

# unrolled sweep operations (estimated) above which the sweep and the Delassus blocks are
# written per kind, when a kind has KIND_SIZE contacts on average: the tower of 3 boxes (24
# contacts, 2 kinds) is at ~8,600, 10 boxes (80, 2 kinds) at ~32,000; the hopper (29
# contacts of 12 kinds, ~4,600) and the cheetah (47 of 26, ~9,100) stay unrolled
MAP_OPS = 8_000
KIND_SIZE = 4


def _kinds(J_sp: ca.Sparsity, B_sp: ca.Sparsity, nc: int):
    """Per contact (its speeds: the columns of its rows of J and the rows of its columns of
    B, increasing; its kind's key; its J rows' and B columns' sparsity on those speeds)."""
    touched = [set() for _ in range(nc)]
    for i, j in zip(*J_sp.get_triplet()):
        touched[i // 3].add(j)
    for i, j in zip(*B_sp.get_triplet()):
        touched[j // 3].add(i)
    J1, B1 = ca.DM(J_sp, 1), ca.DM(B_sp, 1)
    out = []
    for c in range(nc):
        idx, rows = sorted(touched[c]), list(range(3 * c, 3 * c + 3))
        Jc, Bc = J1[rows, idx].sparsity(), B1[idx, rows].sparsity()
        out.append((idx, (len(idx), Jc.serialize(), Bc.serialize()), Jc, Bc))
    return out


def worth_mapping(J_sp: ca.Sparsity, B_sp: ca.Sparsity, nc: int) -> bool:
    """Whether the unrolled sweep would exceed MAP_OPS operations (~5.4 per nonzero of J
    and B and ~30 per contact, fitted on the tower and the robots to 1 %) with contacts
    alike enough to share their code (KIND_SIZE per kind on average)."""
    if 5.4 * (J_sp.nnz() + B_sp.nnz()) + 30 * nc <= MAP_OPS:
        return False
    return nc >= KIND_SIZE * len({key for _, key, _, _ in _kinds(J_sp, B_sp, nc)})


def _visit(Jc_sp: ca.Sparsity, Bc_sp: ca.Sparsity, k: int, name: str) -> ca.Function:
    """One contact's NSGS update of :func:`.step._sweep` on its k speeds: (z_c, λ_c, J_c,
    B_c, w_n, w_t, b, μ) → (z_c, λ_c)."""
    z0, lam = ca.SX.sym("z", k), ca.SX.sym("lam", 3)
    J, B = ca.SX.sym("J", Jc_sp), ca.SX.sym("B", Bc_sp)
    w_n, w_t, b, mu = ca.SX.sym("w_n"), ca.SX.sym("w_t", 4), ca.SX.sym("b"), ca.SX.sym("mu")
    v_n = ca.mtimes(J[0, :], z0)
    new_n = ca.fmax(0, lam[0] - w_n * (v_n - b))
    z = z0 + B[:, 0] * (new_n - lam[0])
    v_t = ca.mtimes(J[1:3, :], z)
    Wi = ca.reshape(w_t, 2, 2)
    trial = lam[1:3] - ca.mtimes(Wi, v_t)
    size = ca.sqrt(ca.dot(trial, trial) + 1e-300)
    new_t = trial * ca.fmin(1, mu * new_n / size)
    z = z + ca.mtimes(B[:, 1:3], new_t - lam[1:3])
    return ca.Function(name, [z0, lam, J, B, w_n, w_t, b, mu], [z, ca.vertcat(new_n, new_t)],
                       {"never_inline": True})


def mapped_sweep(J_sp: ca.Sparsity, B_sp: ca.Sparsity, nz: int, nc: int, mu,
                 name: str = "sweep") -> ca.Function:
    """:func:`.step._sweep` (two NSGS passes, forward then backward: (z, λ) → (z, λ)) with
    each contact's update a call of its kind's Function (module docstring)."""
    zl = ca.SX.sym("zl", nz + 3 * nc)
    J, B = ca.SX.sym("J", J_sp), ca.SX.sym("B", B_sp)
    w_n, w_t, b = ca.SX.sym("w_n", nc), ca.SX.sym("w_t", 4 * nc), ca.SX.sym("b", nc)
    z = [zl[k] for k in range(nz)]
    lam = [zl[nz + k] for k in range(3 * nc)]
    kinds, visits = {}, []
    for idx, key, Jc_sp, Bc_sp in _kinds(J_sp, B_sp, nc):
        if key not in kinds:
            kinds[key] = _visit(Jc_sp, Bc_sp, len(idx), f"sweep_kind{len(kinds)}")
        visits.append((idx, kinds[key]))
    rows = [list(range(3 * c, 3 * c + 3)) for c in range(nc)]
    for c in list(range(nc)) + list(reversed(range(nc))):
        idx, visit = visits[c]
        z_c, lam_c = visit(ca.vertcat(*[z[i] for i in idx]), ca.vertcat(*lam[3 * c:3 * c + 3]),
                           J[rows[c], idx], B[idx, rows[c]], w_n[c], w_t[4 * c:4 * c + 4],
                           b[c], float(mu[c]))
        for j, i in enumerate(idx):
            z[i] = z_c[j]
        lam[3 * c:3 * c + 3] = [lam_c[0], lam_c[1], lam_c[2]]
    out = ca.vertcat(*z, *lam)
    return ca.Function(name, [zl, J, B, w_n, w_t, b], [out],
                       ["zl", "J", "B", "w_n", "w_t", "b"], ["zl_next"])


def _block(Jc_sp: ca.Sparsity, Bc_sp: ca.Sparsity, name: str, _tiny) -> ca.Function:
    """One contact's Delassus block W_c = J_c·B_c and the inverses the sweep uses, as
    :func:`.step.build_parts` writes them (``_tiny``: its regularization of the block):
    (J_c, B_c) → (1/W_nn, (W_tt)⁻¹ as 4)."""
    J, B = ca.SX.sym("J", Jc_sp), ca.SX.sym("B", Bc_sp)
    Wc = ca.mtimes(J, B)
    w_n = 1 / (Wc[0, 0] + _tiny(Wc))
    w_t = ca.reshape(ca.inv(Wc[1:, 1:] + _tiny(Wc) * ca.DM.eye(2)), 4, 1)
    return ca.Function(name, [J, B], [w_n, w_t], {"never_inline": True})


def mapped_inverses(J, B, nc: int, tiny):
    """(w_n, w_t) of :func:`.step.build_parts` (each contact's 1/W_nn and 2×2 (W_tt)⁻¹,
    ``tiny``: the regularization of a block) with each contact's block a call of its
    kind's Function."""
    kinds, w_n, w_t = {}, [], []
    for c, (idx, key, Jc_sp, Bc_sp) in enumerate(_kinds(J.sparsity(), B.sparsity(), nc)):
        if key not in kinds:
            kinds[key] = _block(Jc_sp, Bc_sp, f"delassus_kind{len(kinds)}", tiny)
        rows = list(range(3 * c, 3 * c + 3))
        n, t = kinds[key](J[rows, idx], B[idx, rows])
        w_n.append(n)
        w_t.append(t)
    return ca.vertcat(*w_n), ca.vertcat(*w_t)
