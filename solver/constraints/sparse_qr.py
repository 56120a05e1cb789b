"""Linear algebra on large sparse symbolic (SX) constraint Jacobians, in operations linear in
their size when they are banded: Givens QR along the structure, solves with it, and ν's
‖A⁻¹‖_F and det A from the factor.

Why. Loops that share links (the N-four-bar: each window shares a rod with the next) give
one connected dependent-coordinate Jacobian A_dep whose structure is block-banded. CasADi's
symbolic ``solve`` factors it by a QR whose Q is dense and its inverse is dense too, so
Newton's step, G, the speed bias and the conditioning ν grew as n² (n = 80 rows at n = 40
windows: 193k instructions per evaluation of the watch; 5.9k per row at n = 5, 2.4k at 40
and growing). Here:

* **Givens QR** (George & Heath 1980, row merging): the columns are taken in a
  bandwidth-reducing order (reverse Cuthill–McKee on the structure of AᵀA), and in each
  column the rows with a structural entry there are rotated into one pivot row. No pivoting
  by value is needed (rotations are orthogonal, so the factorization is stable wherever A is
  regular), and fill stays inside the band: O(n·b²) operations for bandwidth b.
* **ν** = ‖A⁻¹‖_F, and ‖A⁻¹‖_F² = trace((AᵀA)⁻¹) = trace(Z), Z = (RᵀR)⁻¹; the diagonal of Z
  comes from Takahashi's recursion on the structure of R (Takahashi, Fagan & Chin 1973;
  Erisman & Tinney 1975), R·Z = R⁻ᵀ read above the diagonal:
  Z_ij = (δ_ij/r_ii − Σ_(k>i) r_ik·Z_kj)/r_ii for j ≥ i, needing only entries inside the
  pattern of R + Rᵀ, so again O(n·b²).
* **det A** = ±Π r_ii: rotations have determinant 1, and the sign of the fixed column order
  does not change along a motion, which is all the partition watch compares.

A rotation of two entries that both vanish at run time (rods exactly vertical at the start)
is the identity, not 0/0.
"""
from __future__ import annotations

import casadi as ca
import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import reverse_cuthill_mckee

DENSE_MAX = 12   # rows up to which CasADi's own dense-QR solve and inverse are kept


def solve(A: ca.SX, B: ca.SX) -> ca.SX:
    """A⁻¹·B for a square SX A: CasADi's ``solve`` up to DENSE_MAX rows (the small loops
    keep exactly their former expressions), Givens QR beyond."""
    if A.shape[0] <= DENSE_MAX:
        return ca.solve(A, B)
    rows, order = _factor(A, B)
    return _back_substitute(rows, order, B.shape[1])


def inverse_norm_det(A: ca.SX) -> tuple[ca.SX, ca.SX]:
    """(‖A⁻¹‖_F², det A up to a fixed sign) of a square SX A (module docstring)."""
    if A.shape[0] <= DENSE_MAX:
        return ca.sumsqr(ca.solve(A, ca.SX.eye(A.shape[0]))), ca.det(A)
    rows, order = _factor(A, ca.SX(A.shape[0], 0))
    return _trace_inverse(rows, order), _product(rows, order)


def _column_order(A: ca.SX) -> list[int]:
    """Reverse Cuthill–McKee order of the structure of AᵀA (bandwidth reducing)."""
    sp = A.sparsity()
    n = A.shape[1]
    pattern = csr_matrix((np.ones(sp.nnz()), (sp.row(), sp.get_col())), shape=A.shape)
    gram = (pattern.T @ pattern).tocsr()
    return [int(k) for k in reverse_cuthill_mckee(gram, symmetric_mode=True)][:n]


def _factor(A: ca.SX, B: ca.SX) -> tuple[list[dict], list[int]]:
    """Givens QR of A with Qᵀ applied to B: one row dict per column of ``order`` (the pivot
    row of that column: {column: entry} of R, and 'rhs': its row of Qᵀ·B)."""
    n, nb = A.shape[0], B.shape[1]
    sp = A.sparsity()
    live = [dict() for _ in range(n)]
    for r, c in zip(sp.row(), sp.get_col()):
        live[r][c] = A[r, c]
    for r in range(n):
        live[r]["rhs"] = [B[r, j] for j in range(nb)]
    order = _column_order(A)
    pivots: list[dict] = []
    pending = set(range(n))
    for col in order:
        hits = sorted(r for r in pending if col in live[r])
        if not hits:
            raise ZeroDivisionError("structurally singular")   # caller checked regularity
        p = hits[0]
        for q in hits[1:]:
            live[p], live[q] = _rotate(live[p], live[q], col)
        pending.discard(p)
        pivots.append(live[p])
    return pivots, order


def _rotate(a: dict, b: dict, col: int) -> tuple[dict, dict]:
    """Rows (a, b) rotated so that b's entry in ``col`` vanishes."""
    x, y = a[col], b[col]
    r = ca.sqrt(x * x + y * y)
    zero = r == 0
    safe = r + zero
    c, s = ca.if_else(zero, 1, x / safe), y / safe
    new_a, new_b = {}, {}
    for k in (set(a) | set(b)) - {"rhs", col}:
        u, v = a.get(k, 0), b.get(k, 0)
        new_a[k] = c * u + s * v
        new_b[k] = c * v - s * u
    new_a[col] = r
    new_a["rhs"] = [c * u + s * v for u, v in zip(a["rhs"], b["rhs"])]
    new_b["rhs"] = [c * v - s * u for u, v in zip(a["rhs"], b["rhs"])]
    return new_a, new_b


def _back_substitute(rows: list[dict], order: list[int], nb: int) -> ca.SX:
    """X with R·X = Qᵀ·B, rows in A's column numbering."""
    n = len(order)
    X: dict = {}
    for i in range(n - 1, -1, -1):
        col, row = order[i], rows[i]
        out = []
        for j in range(nb):
            acc = row["rhs"][j]
            for k, entry in row.items():
                if k not in ("rhs", col):
                    acc = acc - entry * X[k][j]
            out.append(acc / row[col])
        X[col] = out
    return ca.vertcat(*[ca.horzcat(*X[c]) if nb else ca.SX(1, 0) for c in range(n)])


def _trace_inverse(rows: list[dict], order: list[int]) -> ca.SX:
    """trace((RᵀR)⁻¹) by Takahashi's recursion (module docstring); R's rows are indexed by
    position i in ``order``."""
    n = len(order)
    pos = {c: i for i, c in enumerate(order)}
    R = [{pos[k]: v for k, v in row.items() if k != "rhs"} for row in rows]
    Z: dict = {}

    def z(i: int, j: int):
        i, j = min(i, j), max(i, j)
        if (i, j) not in Z:
            acc = 1 / R[i][i] if i == j else 0
            for k, entry in R[i].items():
                if k > i:
                    acc = acc - entry * z(k, j)
            Z[i, j] = acc / R[i][i]
        return Z[i, j]
    total = ca.SX(0)
    for i in range(n - 1, -1, -1):
        for j in sorted((k for k in R[i] if k > i), reverse=True):
            z(i, j)
        total = total + z(i, i)
    return total


def _product(rows: list[dict], order: list[int]) -> ca.SX:
    det = ca.SX(1)
    for row, col in zip(rows, order):
        det = det * row[col]
    return det
