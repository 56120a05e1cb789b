"""The split of the holding force among constraint rows that hold one motion.

Rows whose velocities are constant multiples of one another, γ_i = k_i·γ (a Stop and two
stuck frictions on one joint or flange net, frictions on the two sides of a locked gear),
are redundant while several of them are constraints: the equations of motion fix only the
generalized force T = Σ k_i·λ_i they exert together, not its split. The regularized solve
(:mod:`.dynamics`) gives some split, and where compliances differ by orders of magnitude its
rounding error is of the order of the load (two frictions and a stop: −1960 N and −2000 N
for a 40 N push, i.e. a stop that "pulls" and frictions beyond their limits). So the split
is made explicit, after the solve, by a matrix S (λ ← S·λ) that keeps T:

* a resting stop (a row without a static limit) takes the load: the active limitless rows
  share T in the least-squares way (λ_i ∝ k_i), the stuck frictions carry nothing — a
  friction is not asked to hold what the stop holds (docs/hybrid.md);
* otherwise the stuck frictions share T in proportion to their static limits L_i
  (λ_i = sign(k_i)·L_i·T / Σ|k_j|·L_j), so each reaches its limit exactly when T reaches
  the combined limit Σ|k_j|·L_j: the stuck set breaks away together, at its combined static
  limit (the solution of the stuck set's complementarity problem for one motion; equal
  compliances split half-and-half and the weaker element broke at twice its own limit).

Rows that are not constraints keep their force law; rows whose force another row's law
reads (a contact normal under its tangents) are left out of the split.
"""
from __future__ import annotations

import casadi as ca
import numpy as np


def parallel_groups(J: ca.SX, C: ca.SX) -> list[list[tuple[int, float]]]:
    """Groups of two or more rows with constant, proportional Jacobian rows: lists of
    (row, k) with J_row = k·J_first."""
    referenced = set(C.sparsity().get_col()) if C.nnz() else set()
    groups: dict = {}   # the row's direction (pattern, scaled values) -> [(row, scale)]
    for i in range(J.size1()):
        row = J[i, :]
        if i in referenced or row.nnz() == 0 or not row.is_constant():
            continue
        v = np.array(ca.DM(row), dtype=float).ravel()
        nz = np.flatnonzero(v)
        if nz.size == 0:
            continue
        scale = v[nz[0]]
        key = (tuple(nz), tuple(np.round(v[nz] / scale, 12)))   # hashed: n rows in O(n)
        groups.setdefault(key, []).append((i, scale))
    return [[(i, s / members[0][1]) for i, s in members]
            for members in groups.values() if len(members) > 1]


def split_matrix(J: ca.SX, C: ca.SX, active: ca.SX, limit: ca.SX, has_limit) -> ca.SX:
    """S with λ_split = S·λ (module docstring); the identity outside the groups."""
    n = J.size1()
    S = ca.SX.eye(n)
    for members in parallel_groups(J, C):
        rows = [i for i, _ in members]
        k = {i: kk for i, kk in members}
        a = {i: active[i] for i in rows}
        free = [i for i in rows if not has_limit[i]]        # stops: no static limit
        stopped = ca.fmin(sum((a[i] for i in free), ca.SX(0)), 1)
        weight = {i: a[i] * (stopped if i in free else
                             (1 - stopped) * ca.fmax(limit[i], 0) / abs(k[i]))
                  for i in rows}
        den = sum((weight[i] * k[i] ** 2 for i in rows), ca.SX(0))
        even = sum((a[i] * k[i] ** 2 for i in rows), ca.SX(0))
        for i in rows:
            # no limit to share by (all zero): least squares among the active rows
            share = ca.if_else(den > 0, weight[i] * k[i] / ca.fmax(den, 1e-300),
                               a[i] * k[i] / ca.fmax(even, 1e-300))
            for j in rows:
                S[i, j] = (1 - a[i]) * float(i == j) + a[i] * share * a[j] * k[j]
    return S
