"""The stepping mode's cheaper kinematics and sweeps (solver/stepping/ltdl.py, skip.py):
M⁻¹·Jᵀ through the LᵀDL factorization against numpy's dense solve; the sweeps that skip
groups of contacts they would not change against the sweeps over every contact (the
reference: the same passes without the skip), on a contact that is out of reach at the
passes' start and comes into reach within them, and on a run in which a box's corners
come to the ground from far above it."""
from __future__ import annotations

import casadi as ca
import numpy as np
import pytest

import jourdain as jd
from jourdain.solver.stepping import skip
from jourdain.solver.stepping.ltdl import ltdl_solve
from jourdain.solver.stepping.step import _sweep
from stepping_models import box_on_ground


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


def _problem(rng, nz=6, nc=6):
    """A random contact problem: J (3nc × nz), M SPD, B = M⁻¹·Jᵀ, the per-contact inverse
    Delassus blocks w_n, w_t, targets b and μ. Contact 3's normal is contact 0's reversed (a
    body between a floor and a ceiling 0.5 m apart in speed): it is out of reach at the start
    (J_n3·z = 1 ≥ b_3 = 0.5, no impulse) until contact 0's impulse stops the approach
    J_n0·z = −1, which brings J_n3·z to 0 < b_3. Contacts 4 and 5 are far (b = −100)."""
    J = rng.normal(size=(3 * nc, nz))
    J[9] = -J[0]
    A = rng.normal(size=(nz, nz))
    M = A @ A.T + nz * np.eye(nz)
    B = np.linalg.solve(M, J.T)
    W = J @ B
    w_n = np.array([1 / W[3 * c, 3 * c] for c in range(nc)])
    w_t = np.concatenate([np.linalg.inv(W[3 * c + 1:3 * c + 3, 3 * c + 1:3 * c + 3]).ravel()
                          for c in range(nc)])
    z = np.linalg.lstsq(J[[0, 3, 6]], [-1.0, -0.2, 0.3], rcond=None)[0]
    b = np.array([0.0, 0.0, 0.0, 0.5, -100.0, -100.0])
    b[3] = min(0.5, float(J[9] @ z) - 0.5)
    mu = ca.DM([0.5, 0.8, 0.3, 0.5, 0.5, 1.0])
    return J, B, w_n, w_t, b, z, mu


@pytest.mark.parametrize("size", [1, 2, 4])
def test_skipping_sweeps_agree_with_every_contact_swept(size):
    """The grouped sweeps (groups of 1, 2, 4 contacts) give the same speeds and impulses as
    the passes over every contact to 1e-12, from zero impulses over 3 folds: the far
    contacts keep zero impulses, and contact 3 — skippable at the start (no impulse, its
    speed above its target) — is caught once contact 0's impulse brings it below its
    target, and ends with a positive normal impulse (the squeeze)."""
    rng = np.random.default_rng(7)
    J, B, w_n, w_t, b, z, mu = _problem(rng)
    nz, nc = z.size, b.size
    assert float(J[9] @ z) >= b[3]                    # out of reach at the start
    syms = [ca.MX.sym("zl", nz + 3 * nc), ca.MX.sym("J", *J.shape),
            ca.MX.sym("B", *B.shape), ca.MX.sym("w_n", nc), ca.MX.sym("w_t", 4 * nc),
            ca.MX.sym("b", nc)]
    plain = _sweep(ca.Sparsity.dense(*J.shape), ca.Sparsity.dense(*B.shape), nz, nc, mu)
    grouped = skip.SkippingSweeps(ca.Sparsity.dense(*J.shape), ca.Sparsity.dense(*B.shape),
                                  nz, nc, mu, size)
    ref = ca.Function("ref", syms, [plain.fold(3)(*syms)])
    got = ca.Function("got", syms, [grouped.folds(*syms, 3)])
    args = [np.concatenate([z, np.zeros(3 * nc)]), J, B, w_n, w_t, b]
    want, have = np.array(ref(*args)).ravel(), np.array(got(*args)).ravel()
    assert np.abs(have - want).max() <= 1e-12 * np.abs(want).max()
    lam = have[nz:].reshape(nc, 3)
    assert lam[3, 0] > 1e-3 and lam[0, 0] > 1e-3
    assert np.all(lam[4:] == 0)


# two box steps compiled (gcc -O3): ~30 s each
@pytest.mark.slow
def test_run_with_skipped_groups_agrees_with_unskipped(monkeypatch):
    """A box (e = 0.5) dropped tilted from 0.5 m: its corners are out of reach in free fall
    and come into reach one after the other at the impacts; the run with each contact a group
    of its own (every group skipped in free flight) follows the run with one group of
    all eight (which runs whenever any corner is in reach) to 1e-9 m and 1e-9 J, and rests
    at its half height 0.1 m."""
    system = jd.compile(box_on_ground(e=0.5))
    y0 = {"box_j.y": 0.5, "box_j.q0": np.cos(0.2), "box_j.q1": np.sin(0.2) * 0.6,
          "box_j.q3": np.sin(0.2) * 0.8}
    runs = []
    for group in (1, 10**6):
        monkeypatch.setattr(skip, "GROUP", group)
        system.__dict__.pop("_stepping", None)
        runs.append(system.simulate(1.5, contact="stepping", dt=1e-3, y0=y0, n_out=151))
    got, want = runs
    for key in ("box_j.x", "box_j.y", "box_j.z", "box_j.q0", "box_j.q1"):
        assert np.abs(got[key] - want[key]).max() <= 1e-9
    assert abs(got.ledger.energy_taken - want.ledger.energy_taken) <= 1e-9
    assert got["box_j.y"][-1] == pytest.approx(0.1, abs=1e-6)


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
