"""The stepping mode's exact solve in the speeds' space (solver/stepping/exact.py: proximal
passes, each an nz × nz solve by Woodbury's identity) against the reference formulation it
replaced, the single regularized solve of the 3·nc × 3·nc Delassus system by sparse QR
(tests/stepping_reference.py): on random contact problems (random mass matrices, contact
Jacobians with more rows than speeds, targets and friction coefficients; the active set
from a few Gauss–Seidel sweeps) both give the same velocities and impulses, to the
reference's own regularization error, and the contact law
holds on the new solution to round-off."""
from __future__ import annotations

import casadi as ca
import numpy as np
import pytest

from jourdain.solver.stepping.branch import switch
from jourdain.solver.stepping.exact import exact_function
from jourdain.solver.stepping.step import _sweep
import stepping_reference

# (speeds, contacts): few contacts; more rows than speeds (a box on 8 corners: 24 rows, 6
# speeds, W singular); a cheetah-sized problem
SIZES = [(9, 4), (6, 8), (18, 10), (6, 3)]


def _problem(seed: int, nz: int, nc: int, sweeps: int = 6):
    """A random contact problem and the (z, λ) of a few sweeps from zero impulses."""
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(nz, nz))
    M = A @ A.T + nz * np.eye(nz)
    J = rng.normal(size=(3 * nc, nz))
    B = np.linalg.solve(M, J.T)
    z_free, b = rng.normal(size=nz), -0.1 * np.abs(rng.normal(size=nc))
    mu = rng.uniform(0.2, 1.0, nc)
    W = J @ B
    w_n = np.array([1 / W[3 * c, 3 * c] for c in range(nc)])
    w_t = np.concatenate([np.linalg.inv(W[3 * c + 1:3 * c + 3, 3 * c + 1:3 * c + 3])
                          .ravel(order="F") for c in range(nc)])
    sweep = _sweep(ca.Sparsity.dense(3 * nc, nz), ca.Sparsity.dense(nz, 3 * nc), nz, nc, mu)
    zl = np.concatenate([z_free, np.zeros(3 * nc)])
    for _ in range(sweeps):
        zl = np.array(sweep(zl, J, B, w_n, w_t, b)).ravel()
    return zl, z_free, J, B, b, mu


def _reference(nz: int, nc: int, mu) -> ca.Function:
    zl, z_free = ca.MX.sym("zl", nz + 3 * nc), ca.MX.sym("z_free", nz)
    J, B, b = ca.MX.sym("J", 3 * nc, nz), ca.MX.sym("B", nz, 3 * nc), ca.MX.sym("b", nc)
    return ca.Function("reference", [zl, z_free, J, B, b],
                       [stepping_reference.block_solve(zl, z_free, J, B, b, mu, nz, nc)])


def test_speeds_space_solve_agrees_with_the_delassus_block_solve():
    """On 40 random contact problems (SIZES) the two formulations of the exact solve give
    the same post-step speeds and impulses where the reference solves the problem, to 1e-6
    relative (the reference's single solve regularized by 1e-8·W_ii is off by 1e-8/σ on a
    direction of the active rows' singular value σ relative to W_ii: up to 6e-7 measured
    here, where the new solve's proximal passes leave (1e-6/σ)⁴); at least a quarter of
    them are solved by both (the sweeps had not converged) rather than passed through;
    where the sweeps' contact states miss the law, the new solve's active-set steps can
    find ones the reference did not; wherever the new solve changes the sweeps' result, the
    law holds on it (and its flag says so): closed contacts at their target speed and open
    ones separating to 1e-9 of the speeds, every impulse in its cone to 1e-9 of the
    impulses, no pull."""
    solved = agreed = 0
    for seed in range(40):
        nz, nc = SIZES[seed % len(SIZES)]
        zl, z_free, J, B, b, mu = _problem(seed, nz, nc)
        new = exact_function(ca.Sparsity.dense(3 * nc, nz), ca.Sparsity.dense(nz, 3 * nc),
                             mu, nz, nc)
        got, ok = new(zl, z_free, J, B, b)
        got = np.array(got).ravel()
        ref = np.array(_reference(nz, nc, mu)(zl, z_free, J, B, b)).ravel()
        z, lam = got[:nz], got[nz:]
        if np.abs(ref - zl).max() > 0:      # the reference solved it (else its sweeps stand)
            assert z == pytest.approx(ref[:nz], abs=1e-6 * np.abs(ref[:nz]).max())
            assert lam == pytest.approx(ref[nz:], abs=1e-6 * np.abs(ref[nz:]).max())
            agreed += 1
        if np.abs(got - zl).max() == 0:
            continue
        solved += 1
        assert float(ok) == 1        # the flag the step's extra sweeps wait on
        v = J @ z
        lam_n, lam_t = lam[0::3], np.hypot(lam[1::3], lam[2::3])
        scale_v, scale_l = np.abs(J @ z_free).max() + np.abs(b).max(), np.abs(lam).max()
        closed = lam_n > 0      # the new solve's open contacts carry exactly nothing
        assert np.abs(v[0::3][closed] - b[closed]).max() <= 1e-9 * scale_v
        assert (v[0::3][~closed] - b[~closed]).min(initial=0) >= -1e-9 * scale_v
        assert lam_n.min() >= 0
        assert (lam_t - mu * lam_n).max() <= 1e-9 * scale_l
    assert agreed >= 40 // 4 and solved >= agreed


class _Counted(ca.Callback):
    """y = 2·x, counting its evaluations."""

    def __init__(self):
        ca.Callback.__init__(self)
        self.calls = 0
        self.construct("counted", {})

    def eval(self, arg):
        self.calls += 1
        return [2 * arg[0]]


def test_switch_evaluates_the_chosen_branch_on_its_arguments():
    """The step's conditional (solver/stepping/branch.py) returns the chosen branch's value
    on the values handed to it (closed form of each branch); the branch not chosen is not
    evaluated, and neither is what is upstream of the switch evaluated again inside it (a
    counting callback: one call per evaluation where it is upstream, none where it is the
    branch not chosen)."""
    counted = _Counted()
    x = ca.MX.sym("x")
    upstream = counted(x)
    out = switch("s", x > 0, [upstream, x], lambda a, y: a * y, lambda a, y: a + y)
    fn = ca.Function("f", [x], [out])
    assert float(fn(0.5)) == pytest.approx(0.5, rel=1e-15)
    assert float(fn(-0.5)) == pytest.approx(-1.5, rel=1e-15)
    assert counted.calls == 2
    lazy = ca.Function("g", [x], [switch("s2", x > 0, [x], lambda y: counted(y),
                                         lambda y: -y)])
    assert float(lazy(-3.0)) == pytest.approx(3.0, rel=1e-15)
    assert counted.calls == 2
    assert float(lazy(3.0)) == pytest.approx(6.0, rel=1e-15)
    assert counted.calls == 3
