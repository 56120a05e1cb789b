"""The compiled backward pass of box-FDDP (solver/optimal/ddp_backward.py) and the buffered
calls of the DDP solver (solver/optimal/buffered.py).

References: two implementations of the same algorithm — the numpy Riccati pass with its
projected-Newton box QP (ddp._backward, ddp._box_gains) against the CasADi function folded
over the knots, on CasADi's virtual machine and compiled, on random knot models whose
bounds make some knots take the box QP and others the Newton step; and IPOPT's optimum of
the same RK4 multiple-shooting NLP for the compiled FDDP solve.
"""
import casadi as ca
import numpy as np
import pytest

from jourdain.solver.optimal import ddp, ddp_backward
from jourdain.solver.optimal.buffered import Buffered

NX, NU, N = 4, 2, 7


def _knots(seed, bound=0.4, gap=0.05):
    """Random knot models (positive-definite Hessians, Jacobians near identity), inputs
    partly on their bounds, gaps of size ``gap``."""
    rng = np.random.default_rng(seed)
    A = 0.6 * rng.standard_normal((N, NX + NU, NX + NU))
    H = A @ A.transpose(0, 2, 1) + 0.05 * np.eye(NX + NU)
    d = {"Fx": np.eye(NX) + 0.2 * rng.standard_normal((N, NX, NX)),
         "Fu": 0.5 * rng.standard_normal((N, NX, NU)),
         "qx": rng.standard_normal((N, NX)), "qu": rng.standard_normal((N, NU)),
         "Hxx": H[:, :NX, :NX].copy(), "Huu": H[:, NX:, NX:].copy(),
         "Hux": H[:, NX:, :NX].copy()}
    B = rng.standard_normal((NX, NX))
    lower, upper = -bound * np.ones(NU), bound * np.ones(NU)
    U = np.clip(0.6 * rng.standard_normal((N, NU)), lower, upper)
    return (d, rng.standard_normal(NX), B @ B.T + np.eye(NX),
            gap * rng.standard_normal((N + 1, NX)), U, 0.1 * rng.standard_normal((N, NU)),
            lower, upper)


def _numpy(case, mu):
    """The numpy pass with the compiled pass's box-QP caps (ddp.CAPPED_*)."""
    d, Ex, Exx, gaps, U, kprev, lower, upper = case
    saved = ddp.BOX_ITER, ddp.BOX_ALPHAS
    ddp.BOX_ITER, ddp.BOX_ALPHAS = ddp.CAPPED_BOX_ITER, ddp.CAPPED_BOX_ALPHAS
    try:
        return _numpy_pass(d, Ex, Exx, gaps, U, kprev, lower, upper, mu)
    finally:
        ddp.BOX_ITER, ddp.BOX_ALPHAS = saved


def _numpy_pass(d, Ex, Exx, gaps, U, kprev, lower, upper, mu):
    return ddp._backward(d, Ex, Exx, gaps, U, ddp.Model(None, None, None, lower, upper), mu,
                         True, kprev, False)


def _assert_same(ours, ref):
    for name, a, b in zip(("k", "K", "Vx", "Vxx", "stop", "dg", "dq"), ours, ref):
        a, b = np.asarray(a), np.asarray(b)
        scale = max(1.0, np.abs(b).max())
        assert np.abs(a - b).max() <= 1e-10 * scale, name


@pytest.mark.parametrize("seed", range(4))
def test_folded_backward_pass_equals_the_numpy_pass(seed):
    """Reference: the numpy pass (ddp._backward). The CasADi fold of the per-knot step on
    the virtual machine gives the same gains, value function, stopping measure and expected
    improvement to 1e-10 relative, on knots where the box QP is taken (inputs on their bounds
    or Newton steps leaving the box) and where it is not."""
    case = _knots(seed)
    d, _, _, _, U, _, lower, upper = case
    on_bound = np.isclose(np.abs(U), upper[0]).any(axis=1)
    assert on_bound.any() and not on_bound.all()        # both branches are exercised
    B = ddp_backward.CompiledBackward(ddp_backward.backward_function(NX, NU, N), lower, upper)
    d_, Ex, Exx, gaps, U, kprev, *_ = case
    for mu in (1e-9, 1e-3):
        _assert_same(B(d_, Ex, Exx, gaps, U, mu, kprev), _numpy(case, mu))


def test_unbounded_inputs_take_the_newton_step():
    """Reference: the numpy pass without bounds (infinite bounds: the box QP is never
    entered) — same gains to 1e-10."""
    d, Ex, Exx, gaps, U, kprev, _, _ = _knots(7)
    inf = np.full(NU, np.inf)
    case = (d, Ex, Exx, gaps, U, kprev, -inf, inf)
    B = ddp_backward.CompiledBackward(ddp_backward.backward_function(NX, NU, N), -inf, inf)
    _assert_same(B(d, Ex, Exx, gaps, U, 1e-9, kprev), _numpy(case, 1e-9))


def test_indefinite_quu_is_refused_at_the_same_regularization():
    """Reference: the numpy pass, which returns None when a Q_uu + μ·I is not positive
    definite; the compiled pass says so (None) at the same μ and agrees once μ is large
    enough."""
    d, Ex, Exx, gaps, U, kprev, lower, upper = _knots(2)
    d["Huu"][3] = -2.0 * np.eye(NU)              # an indefinite knot
    case = (d, Ex, Exx, gaps, U, kprev, lower, upper)
    B = ddp_backward.CompiledBackward(ddp_backward.backward_function(NX, NU, N), lower, upper)
    assert _numpy(case, 1e-9) is None and B(d, Ex, Exx, gaps, U, 1e-9, kprev) is None
    mu = 1e3
    assert _numpy(case, mu) is not None
    _assert_same(B(d, Ex, Exx, gaps, U, mu, kprev), _numpy(case, mu))


def test_compiled_backward_pass_equals_the_numpy_pass():
    """Reference: the numpy pass; the backward function compiled through the cached-library
    path (gcc) gives the same gains to 1e-10 (it was also checked against the virtual machine
    when built)."""
    case = _knots(5)
    d, Ex, Exx, gaps, U, kprev, lower, upper = case
    fn = ddp_backward.compiled_backward(NX, NU, N, lower, upper)
    if fn is None:
        pytest.skip("no working C compiler")
    B = ddp_backward.CompiledBackward(fn, lower, upper)
    _assert_same(B(d, Ex, Exx, gaps, U, 1e-6, kprev), _numpy(case, 1e-6))


def test_buffered_call_equals_an_ordinary_call_with_sparse_outputs():
    """Reference: CasADi's ordinary call. The buffered call reads column-major inputs from
    numpy (N × n arrays for n × N matrices) and writes dense outputs (structural zeros of
    a sparse output as zeros)."""
    x = ca.SX.sym("x", 3, 2)
    fn = ca.Function("f", [x], [ca.diag(x[:, 0]), ca.sum2(x), ca.mtimes(x.T, x)])
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 3))                 # the transposed 3 × 2 input
    ours = Buffered(fn)(a)
    for got, want in zip(ours, fn(a.T)):
        want = np.array(want.full())
        np.testing.assert_allclose(got, want.ravel(order="F"), rtol=1e-15, atol=0)
    with pytest.raises(ValueError, match="input i0 has 5 values, expected 6"):
        Buffered(fn)(np.zeros(5))


def test_compiled_fddp_reaches_ipopts_optimum_with_input_bounds():
    """Reference: IPOPT (exact Hessian, tol 1e-10) on the same RK4 multiple-shooting NLP of
    the torque-limited pendulum swing-up; FDDP with codegen=True (compiled knots, compiled
    backward pass, buffered calls) reaches the same optimum, a warm re-solve stays there, and
    codegen="knot" (compiled knots, the numpy backward pass) reaches it too."""
    from test_ddp import RK4, _pendulum, _same_optimum
    limited = _pendulum(tau_max=4.0)
    built = limited.build(RK4, solver="fddp", codegen=True, tol=1e-9)
    if not built.compiled:
        pytest.skip("no working C compiler")
    assert built._backward is not None
    fddp = built.solve()
    ipopt = limited.solve(RK4, tol=1e-10)
    assert np.isclose(np.abs(fddp.U), 4.0, rtol=1e-9).sum() >= 2     # saturated knots
    _same_optimum(fddp, ipopt, 1e-5)
    _same_optimum(built.solve(), ipopt, 1e-5)
    knots_only = limited.build(RK4, solver="fddp", codegen="knot", tol=1e-9)
    assert knots_only.compiled and knots_only._backward is None    # the numpy pass
    _same_optimum(knots_only.solve(), ipopt, 1e-5)


def test_buffered_call_reads_the_current_values_of_an_array_passed_again():
    """Reference: CasADi's ordinary call on the same values. An input array passed again
    is not bound again (its buffer points into it), so values changed in place are read;
    a non-contiguous input is copied at every call."""
    x, y = ca.SX.sym("x", 3), ca.SX.sym("y", 3)
    fn = ca.Function("f", [x, y], [x + y, 3 * x])
    call = Buffered(fn)
    a, b = np.arange(3.0), np.zeros(3)
    first = call(a, b)[1]
    a[:] = [5.0, 6.0, 7.0]
    second = call(a, b)[1]
    np.testing.assert_allclose(first, [0.0, 3.0, 6.0], rtol=0, atol=0)
    np.testing.assert_allclose(second, np.array(fn(a, b)[1]).ravel(), rtol=0, atol=0)
    strided = np.arange(6.0)[::2]
    before = call(strided, b)[1]
    strided[:] = 1.0
    np.testing.assert_allclose(before, [0.0, 6.0, 12.0], rtol=0, atol=0)
    np.testing.assert_allclose(call(strided, b)[1], [3.0, 3.0, 3.0], rtol=0, atol=0)
