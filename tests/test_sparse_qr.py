"""Givens QR on large sparse symbolic constraint Jacobians (solver/constraints/sparse_qr.py):
solves, ‖A⁻¹‖_F² and det A against numpy's dense LAPACK results, the identity rotation where
two entries vanish at run time, the operation count linear in the size of a banded matrix,
and the N-four-bar (whose dependent block exceeds DENSE_MAX rows) against the closed-form
branch equation."""
import casadi as ca
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library.mbs_benchmarks import NFourBar
from jourdain.solver.constraints import sparse_qr

from test_mbs_benchmarks import _n_four_bar_reference


def _banded(n: int, seed: int) -> ca.Sparsity:
    """A banded structure (half-bandwidth 3, 70 % filled, full diagonal), rows shuffled so the
    band is hidden from the column order."""
    rng = np.random.default_rng(seed)
    rows, cols = [], []
    for i in range(n):
        for j in range(max(0, i - 3), min(n, i + 4)):
            if i == j or rng.random() < 0.7:
                rows.append(i)
                cols.append(j)
    perm = rng.permutation(n)
    return ca.Sparsity.triplet(n, n, [int(perm[r]) for r in rows], cols)


@pytest.mark.parametrize("n", [20, 60])
def test_solve_norm_and_det_match_lapack(n):
    """Reference: numpy.linalg (LAPACK's LU) on the same random matrices: A⁻¹·B to 1e-9
    relative, ‖A⁻¹‖_F² and |det A| to 1e-9 relative, and det's sign off by one fixed sign
    for every matrix of the same structure (the watch compares signs along a motion)."""
    sp = _banded(n, n)
    A, B = ca.SX.sym("A", sp), ca.SX.sym("B", n, 2)
    solve = ca.Function("s", [A, B], [sparse_qr.solve(A, B)])
    norm_det = ca.Function("nd", [A], list(sparse_qr.inverse_norm_det(A)))
    rng = np.random.default_rng(7)
    signs = set()
    for _ in range(4):
        Ad = ca.DM(sp, rng.normal(size=sp.nnz()))
        dense, b = np.array(Ad), rng.normal(size=(n, 2))
        x = np.array(solve(Ad, b))
        exact = np.linalg.solve(dense, b)
        assert np.abs(x - exact).max() <= 1e-9 * np.abs(exact).max()
        square, det = (float(v) for v in norm_det(Ad))
        inv = np.linalg.inv(dense)
        assert abs(square / np.sum(inv * inv) - 1) < 1e-9
        assert abs(abs(det) / abs(np.linalg.det(dense)) - 1) < 1e-9
        signs.add(np.sign(det) * np.sign(np.linalg.det(dense)))
    assert len(signs) == 1


def test_vanishing_entries_rotate_by_the_identity():
    """Reference: the identity matrix (A⁻¹ = I, ‖A⁻¹‖_F² = n, |det| = 1). A dense structure
    whose off-diagonal entries are all zero at run time makes every rotation meet two zeros,
    which must not give 0/0."""
    n = 14
    A = ca.SX.sym("A", ca.Sparsity.dense(n, n))
    f = ca.Function("f", [A], [sparse_qr.solve(A, ca.SX(np.arange(1.0, n + 1))),
                               *sparse_qr.inverse_norm_det(A)])
    x, square, det = f(np.eye(n))
    assert np.allclose(np.array(x).ravel(), np.arange(1.0, n + 1), rtol=0, atol=1e-14)
    assert abs(float(square) - n) < 1e-12 and abs(abs(float(det)) - 1) < 1e-12


def test_operations_grow_linearly_with_a_banded_size():
    """Reference: the operation count of the factorization, O(n·b²) for bandwidth b: from 40
    to 160 rows the instructions of a solve grow by at most 4.5× (CasADi's dense-Q solve
    grows 15×: 22k to 339k)."""
    counts = []
    for n in (40, 160):
        A, b = ca.SX.sym("A", _banded(n, 1)), ca.SX.sym("b", n)
        counts.append(ca.Function("f", [A, b], [sparse_qr.solve(A, b)]).n_instructions())
    assert counts[1] < 4.5 * counts[0]


def test_eight_four_bars_through_a_flat_crossing():
    """Reference: the one-degree-of-freedom equation of the physical branch (all rods
    parallel; test_mbs_benchmarks' helper). IFToMM A02 at n = 8 (16 dependent rows, beyond
    DENSE_MAX: Newton, G and ν by Givens QR) over 1.5 s, through the flat configuration at
    0.71 s: every rod parallel to the first to 1e-9 rad and the first within 1e-4 rad of the
    reference."""
    system = jd.compile(jd.Model.on_world(World(), m=NFourBar(8)),
                        speeds={"z0": "m.pivot0.w"})
    res = system.simulate(1.5, z0={"z0": -1.0}, n_out=151)
    phi = res["m.pivot0.phi"]
    assert phi.min() < -np.pi / 2 - 0.5   # past the flat configuration
    assert np.abs(phi - _n_four_bar_reference(8, res.t)).max() < 1e-4
    for i in range(1, 9):
        assert np.abs(res[f"m.pivot{i}.phi"] - phi).max() < 1e-9


def test_singular_error_names_speeds_spread_over_many_loops():
    """Reference: the null vector of A = I − 11ᵀ/n (n = 30), ones/√n: every entry 0.18, below
    the absolute 0.2 that used to select the speeds involved, so the singular-configuration
    error of 40 coupled four-bars named none. Now entries above 0.2 of the largest count:
    all 30 speeds and constraint owners are named."""
    from jourdain.solver.constraints.repartition import singular_error
    n = 30
    A = np.eye(n) - np.ones((n, n)) / n
    exc = singular_error(A, [f"loop{i}" for i in range(n)], [f"w{i}" for i in range(n)], 0.5,
                         np.zeros(2), ["a", "b"], "test")
    text = str(exc)
    assert "speeds involved: w0, w1" in text and "w29" in text and "loop29" in text
