"""M⁻¹·R for the step's kinematics through the LᵀDL factorization of the mass matrix
(Featherstone 2005, "Efficient factorization of the joint-space inertia matrix"): M = Lᵀ·D·L
with L unit lower triangular, eliminated from the last speed up. For a tree whose speeds
are numbered parents before children, L has M's own sparsity (no fill-in: a joint's row
couples only to its ancestors), so the factorization costs O(n·d²) and each solve O(n·d)
(d: the depth of the tree) instead of a dense symbolic QR's O(n³) and O(n²) per column.

The factorization is written on SX entries, skipping the structural zeros of M and of the
right-hand side: ``ca.solve(M, Jᵀ)`` of the contact Jacobians was 8k of the hopper's 14k
operations of kinematics and 20k of the cheetah's 30k. Any symmetric positive definite M
works (a non-tree pattern fills in, which costs but stays exact); pivots are M's own
diagonal after elimination, positive for a mass matrix.
"""
from __future__ import annotations

import casadi as ca


def ltdl(M: ca.SX):
    """The factors (L as {(i, j): entry} for j < i, D as a list) of M = Lᵀ·D·L."""
    n = M.size1()
    A = {(i, j): M[i, j] for i in range(n) for j in range(i + 1) if not _zero(M, i, j)}
    for k in range(n - 1, -1, -1):
        # i from k's nearest ancestor down (Featherstone's order): the entries A[k, j],
        # j ≤ i, that the update reads are not yet divided by the pivot
        parents = sorted((j for (i, j) in A if i == k and j < k), reverse=True)
        for i in parents:
            a = A[(k, i)] / A[(k, k)]
            for j in parents:
                if j <= i:
                    A[(i, j)] = A.get((i, j), ca.SX(0)) - a * A[(k, j)]
            A[(k, i)] = a
    D = [A[(k, k)] for k in range(n)]
    L = {key: value for key, value in A.items() if key[0] != key[1]}
    return L, D


def ltdl_solve(M: ca.SX, R: ca.SX) -> ca.SX:
    """M⁻¹·R (module docstring), column by column, structural zeros of R kept out."""
    L, D = ltdl(M)
    n = M.size1()
    left = {i: [(j, v) for (ii, j), v in L.items() if ii == i] for i in range(n)}
    columns = []
    for c in range(R.size2()):
        y = [R[i, c] for i in range(n)]
        y = _upper(y, left, n)                # Lᵀ·y = r: from the last speed up
        w = [y[k] / D[k] for k in range(n)]
        for i in range(n):                    # L·x = w: from the first speed down
            for j, v in left[i]:
                w[i] = w[i] - v * w[j]
        columns.append(ca.vertcat(*w))
    return ca.horzcat(*columns) if columns else ca.SX(n, 0)


def _upper(y, left, n):
    """Lᵀ·x = y by back substitution: x_k = y_k − Σ_{i>k} L[i, k]·x_i, from the last down;
    done as the columns of L pushing x_i into the rows above it."""
    y = list(y)
    for i in range(n - 1, -1, -1):
        for j, v in left[i]:
            y[j] = y[j] - v * y[i]
    return y


def _zero(M: ca.SX, i: int, j: int) -> bool:
    return not M.sparsity().has_nz(i, j) or M[i, j].is_zero()
