"""The stepping mode's M⁻¹·Jᵀ through the LᵀDL factorization of the mass matrix
(solver/stepping/ltdl.py) against numpy's dense solve (the reference)."""
from __future__ import annotations

import casadi as ca
import numpy as np
import pytest

from jourdain.solver.stepping.ltdl import ltdl_solve


def _tree_matrix(rng, parents):
    """An SPD matrix with the sparsity of a kinematic tree: M_ij ≠ 0 only where one speed is
    an ancestor of the other (parents[i] < i, -1 for a root)."""
    n = len(parents)
    ancestors = []
    for i, p in enumerate(parents):
        ancestors.append({i} | (ancestors[p] if p >= 0 else set()))
    A = rng.normal(size=(n, n))
    M = A @ A.T + n * np.eye(n)
    mask = np.array([[j in ancestors[i] or i in ancestors[j] for j in range(n)]
                     for i in range(n)])
    return M * mask + n * np.eye(n)


@pytest.mark.parametrize("parents", [[-1, 0, 1, 2, 3, 4],               # a chain: dense
                                     [-1, 0, 1, 2, 2, 4, 2, 6, 7]])     # a root, two legs
def test_ltdl_solve_agrees_with_dense_solve(parents):
    """M⁻¹·R by LᵀDL (structural zeros of a tree's M and of a sparse R skipped) equals
    numpy.linalg.solve to 1e-12 relative, on random SPD matrices of a tree's sparsity and a
    random sparse right-hand side; where the tree branches, the factorization has fewer
    operations than CasADi's dense symbolic solve."""
    rng = np.random.default_rng(3)
    n = len(parents)
    M_num = _tree_matrix(rng, parents)
    M = ca.SX.sym("M", _pattern(M_num))
    R_num = rng.normal(size=(n, 5)) * (rng.random((n, 5)) < 0.5)
    R = ca.SX.sym("R", _pattern(R_num))
    fn = ca.Function("f", [M, R], [ltdl_solve(M, R)])
    got = np.array(fn(ca.DM(M_num), ca.DM(R_num)))
    want = np.linalg.solve(M_num, R_num)
    assert np.abs(got - want).max() <= 1e-12 * np.abs(want).max()
    if len(parents) == 9:
        dense = ca.Function("d", [M, R], [ca.solve(M, R)])
        assert fn.n_instructions() < dense.n_instructions()


def _pattern(A):
    rows, cols = np.nonzero(A)
    return ca.Sparsity.triplet(*A.shape, rows.tolist(), cols.tolist())
