"""The stepping mode's cheaper kinematics and exact solve (solver/stepping/ltdl.py,
compact.py): M⁻¹·Jᵀ through the LᵀDL factorization against numpy's dense solve; the exact
solve on the contacts that carry an impulse, gathered into slots, against the same solve
over all contacts (the reference), with the contacts left out checked to separate."""
from __future__ import annotations

import casadi as ca
import numpy as np
import pytest

from jourdain.solver.stepping.ltdl import ltdl_solve
from jourdain.solver.stepping.step import _sweep


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


def _contacts(seed: int, nz: int = 9, nc: int = 12, near: int = 6):
    """A random contact problem of nc contacts of which the first ``near`` have targets
    near the speeds (b = −0.1·|N|) and the rest are far (b = −100: open), frictionless
    ones among them (μ = 0, as a joint limit's row), and the (z, λ) of 6 sweeps."""
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(nz, nz))
    M = A @ A.T + nz * np.eye(nz)
    J = rng.normal(size=(3 * nc, nz))
    B = np.linalg.solve(M, J.T)
    z_free = rng.normal(size=nz)
    b = np.where(np.arange(nc) < near, -0.1 * np.abs(rng.normal(size=nc)), -100.0)
    mu = np.random.default_rng(99).uniform(0.2, 1.0, nc)     # one set: functions built once
    mu[1::4] = 0.0
    W = J @ B
    w_n = np.array([1 / W[3 * c, 3 * c] for c in range(nc)])
    w_t = np.concatenate([np.linalg.inv(W[3 * c + 1:3 * c + 3, 3 * c + 1:3 * c + 3])
                          .ravel(order="F") for c in range(nc)])
    sweep = _sweep(ca.Sparsity.dense(3 * nc, nz), ca.Sparsity.dense(nz, 3 * nc), nz, nc,
                   ca.DM(mu))
    zl = np.concatenate([z_free, np.zeros(3 * nc)])
    for _ in range(6):
        zl = np.array(sweep(zl, J, B, w_n, w_t, b)).ravel()
    return zl, z_free, J, B, b, mu


def test_exact_solve_on_slots_agrees_with_the_solve_over_all_contacts():
    """The exact solve over the contacts that carry an impulse, gathered into 3 slots
    (solver/stepping/compact.py), against the same solve over all 12 contacts
    (solver/stepping/exact.py; the reference): the same speeds and impulses to 1e-9 of
    their scale and the same flag, on 30 random problems — those with up to 3 active
    contacts solved in the slots (friction coefficients 0.2–1 and 0 rescaled to one), those
    with more by the fallback, both kinds present — and on a problem where a contact the
    sweeps left open would sink at the slots' solution: the fallback's result (the solve over
    all contacts, flagged as missing the law), not the slots'."""
    from jourdain.solver.stepping.compact import compact_function
    from jourdain.solver.stepping.exact import exact_function
    nz, nc = 9, 12
    dense = ca.Sparsity.dense(3 * nc, nz), ca.Sparsity.dense(nz, 3 * nc)
    counts = []
    mu = _contacts(0)[-1]
    full = exact_function(*dense, mu, nz, nc)
    slots = compact_function(*dense, mu, nz, nc, slots=3)
    for seed in range(30):
        zl, z_free, J, B, b, mu = _contacts(seed)
        want, ok_w = full(zl, z_free, J, B, b)
        got, ok_g = slots(zl, z_free, J, B, b)
        want, got = np.array(want).ravel(), np.array(got).ravel()
        assert np.abs(got - want).max() <= 1e-9 * np.abs(want).max()
        assert float(ok_g) == float(ok_w)
        counts.append(int(np.sum(zl[nz::3] > 0)))
    assert min(counts) <= 3 < max(counts)
    # an open contact that sinks at the slots' solution: its target raised above the speed
    # the solve over all contacts gives it without an impulse
    zl, z_free, J, B, b, mu = _contacts(1, near=3)
    assert np.sum(zl[nz::3] > 0) <= 3
    first = np.array(full(zl, z_free, J, B, b)[0]).ravel()
    c0 = 7                                               # far, open, no impulse
    b[c0] = float(J[3 * c0] @ first[:nz]) + 0.5
    want, ok_w = full(zl, z_free, J, B, b)
    got, ok_g = slots(zl, z_free, J, B, b)
    want, got = np.array(want).ravel(), np.array(got).ravel()
    assert np.abs(got - want).max() <= 1e-9 * np.abs(want).max()
    # no solve meets the law here (the raised target asks the contact to close, the sweeps'
    # impulses stand, flagged): the slots' solution, which meets it on the slots, was not
    # taken
    assert float(ok_g) == float(ok_w) == 0
