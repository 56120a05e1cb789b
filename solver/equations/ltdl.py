"""M⁻¹·B through the tree's sparse factorization M = Lᵀ·D·L (Featherstone's LTDL).

R. Featherstone, *Rigid Body Dynamics Algorithms*, Springer 2008 (RBDA), §6.5, Tables 6.3
and 6.4: the joint-space inertia of a kinematic tree has branch-induced sparsity — M_ij ≠ 0
only when speed j is speed i's ancestor (or descendant) — and factorizing it from the
leaves up as Lᵀ·D·L (L unit lower triangular) causes no fill-in, provided every speed comes
after its parent λ(i). The factorization costs O(n·d²) and each solve O(n·d) operations
(d the depth of the tree) instead of a dense LDLᵀ's O(n³) and O(n²).

The functions work on CasADi SX expressions: ``tree_parents`` reads λ from M's structural
pattern (the CRBA's, :func:`.recursive.composite_rigid_body`), ``ltdl`` factors, and
``ltdl_solve`` applies M⁻¹ to the columns of B, all as straight-line code.
"""
from __future__ import annotations

import casadi as ca


def tree_parents(M: ca.SX) -> list[int] | None:
    """λ(i), the nearest ancestor of speed i (−1 for a root), when M's structural pattern is
    branch-induced in this order (row i's entries left of the diagonal are exactly i's
    chain of ancestors); None otherwise (speeds not in tree order, or fill-in ahead)."""
    n = M.size1()
    below: list[set] = [set() for _ in range(n)]
    rows, cols = M.sparsity().get_triplet()
    for r, c in zip(rows, cols):
        if r != c:
            below[max(r, c)].add(min(r, c))
    parents: list[int] = []
    for i in range(n):
        parent = max(below[i]) if below[i] else -1
        chain, j = set(), parent
        while j >= 0:
            chain.add(j)
            j = parents[j]
        if chain != below[i]:
            return None
        parents.append(parent)
    return parents


def ltdl(M: ca.SX, parents: list[int]) -> dict:
    """The factors of M = Lᵀ·D·L (RBDA Table 6.3) as {(i, j): entry}: D_ii on the diagonal,
    L_ij for j an ancestor of i (L's unit diagonal is implied)."""
    H = {}
    for i in range(M.size1()):
        j = i
        while j >= 0:
            H[i, j] = M[i, j]
            j = parents[j]
    for k in reversed(range(M.size1())):
        i = parents[k]
        while i >= 0:
            a = H[k, i] / H[k, k]
            j = i
            while j >= 0:
                H[i, j] = H[i, j] - a * H[k, j]
                j = parents[j]
            H[k, i] = a
            i = parents[i]
    return H


def ltdl_solve(H: dict, parents: list[int], B: ca.SX) -> ca.SX:
    """M⁻¹·B for the factors ``H`` of :func:`ltdl`: Lᵀ·y = B from the leaves up, y / D,
    then L·x = y from the root down (RBDA Table 6.4, one column block at once)."""
    n = len(parents)
    y = [B[i, :] for i in range(n)]
    for k in reversed(range(n)):
        j = parents[k]
        while j >= 0:
            y[j] = y[j] - H[k, j] * y[k]
            j = parents[j]
    x = [y[i] / H[i, i] for i in range(n)]
    for k in range(n):
        j = parents[k]
        while j >= 0:
            x[k] = x[k] - H[k, j] * x[j]
            j = parents[j]
    return ca.vertcat(*x) if n else ca.SX(0, B.size2())
