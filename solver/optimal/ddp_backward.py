"""The backward Riccati pass of box-FDDP (:func:`.ddp._backward`) as one CasADi function:
the per-knot step in SX, folded over the knots (``mapaccum``), compiled into a small cached
library (``solve(solver="fddp", codegen=True)``).

It computes what the numpy reference :func:`.ddp._backward` computes, with the same
algorithm and constants, so the two agree to round-off (tests/test_ddp_backward.py; a
change of the numpy pass needs the same change in :func:`knot_step`, which the test flags): the
unconstrained Newton step by Cholesky of Q_uu + μ·I; where it leaves the box or an input is
on its bound, the box QP by projected Newton (:func:`.ddp._box_gains`: at most
``ddp.CAPPED_BOX_ITER`` iterations, each trying the steps ``ddp.CAPPED_BOX_ALPHAS``); the value function's
update with the gaps. A data-dependent free set is a mask M (1 free, 0 clamped): the Newton
step on the free inputs, H_ff⁻¹·g_f, is the solution of (M·H·M + I − M)·y = M·g, whose
matrix is positive definite exactly when H_ff is, and iterations after convergence leave
the iterate unchanged (a fixed number of unrolled iterations computes what the numpy loop's
early exits compute). A Cholesky pivot ≤ 0 where the numpy pass returns None sets ``ok`` to
0: the caller raises μ (an input: the regularization schedule of :mod:`.ddp` drives it).

``B(Fx, Fu, qx, qu, Hxx, Huu, Hux, Ex, Exx, gaps, U, kprev, lower, upper, mu) ->
(kff, K, Vx, Vxx, info)``, matrices over the knots stacked horizontally in knot order
(Fx: nx × N·nx, …; gaps: nx × (N+1); K: column k is K_k (nu × nx) column-major, the
roll-out's layout), info = (√Σ‖Q_u,free‖², dg, dq, ok). The per-knot code is the same for
every N; the C holds it once, looped.
"""
from __future__ import annotations

import functools

import casadi as ca
import numpy as np

from ..simulation import codegen
from . import ddp
from .buffered import Buffered
from .compiled import loaded_checked, start_library

# the per-knot function is SX straight-line code of a few thousand instructions: -O1 pays
BACKWARD_FLAGS = ("-O1",)


def _cholesky(A: ca.SX) -> tuple:
    """(L, ok) with A = L·Lᵀ (unrolled, no pivoting, as LAPACK's dpotrf) and ok = 1 when
    every pivot is positive (A positive definite); L stays finite either way."""
    n = A.shape[0]
    L = ca.SX.zeros(n, n)
    ok = ca.SX(1)
    for j in range(n):
        pivot = A[j, j] - ca.sumsqr(L[j, :j]) if j else A[j, j]
        ok = ca.logic_and(ok, pivot > 0)
        d = ca.sqrt(ca.if_else(pivot > 0, pivot, 1.0))
        L[j, j] = d
        for i in range(j + 1, n):
            s = A[i, j] - ca.dot(L[i, :j].T, L[j, :j].T) if j else A[i, j]
            L[i, j] = s / d
    return L, ok


def _chol_solve(L: ca.SX, B: ca.SX) -> ca.SX:
    """(L·Lᵀ)⁻¹·B by forward and back substitution."""
    n = L.shape[0]
    Y = ca.SX.zeros(B.shape)
    for i in range(n):
        Y[i, :] = (B[i, :] - (ca.mtimes(L[i, :i], Y[:i, :]) if i else 0)) / L[i, i]
    X = ca.SX.zeros(B.shape)
    for i in range(n - 1, -1, -1):
        X[i, :] = (Y[i, :] - (ca.mtimes(L[i + 1:, i].T, X[i + 1:, :]) if i < n - 1 else 0)) \
            / L[i, i]
    return X


def _symmetric_product(A: ca.SX, B: ca.SX) -> ca.SX:
    """Aᵀ·B where it is known to be symmetric: the upper triangle computed, mirrored."""
    n = A.shape[1]
    S = ca.SX(n, n)
    for i in range(n):
        for j in range(i, n):
            S[i, j] = ca.dot(A[:, i], B[:, j])
            if j > i:
                S[j, i] = S[i, j]
    return S


def _any(v: ca.SX) -> ca.SX:
    return ca.mmax(v) > 0


def _masked(H: ca.SX, free: ca.SX) -> ca.SX:
    """M·H·M + I − M for the mask ``free``: its inverse applied to M·g is H_ff⁻¹·g_f on the
    free rows and 0 on the clamped ones."""
    M = ca.diag(free)
    return ca.mtimes([M, H, M]) + ca.diag(1 - free)


def _free(x, grad, lb, ub) -> ca.SX:
    """1 where an input is free: not on a bound that its gradient pushes it against."""
    clamped = ca.logic_or(ca.logic_and(x <= lb, grad > 0), ca.logic_and(x >= ub, grad < 0))
    return 1 - clamped


def _pn_iteration(nu: int) -> ca.Function:
    """One projected-Newton iteration of :func:`.ddp._box_gains` on the state (x, done, ok):
    the Newton step on the free inputs, the full step tried first and the shorter ones of
    ``ddp.CAPPED_BOX_ALPHAS`` only when it is rejected (a branch evaluated only then)."""
    sym = ca.SX.sym
    state, H, g, lb, ub = sym("s", nu + 2), sym("H", nu, nu), sym("g", nu), sym("lb", nu), \
        sym("ub", nu)
    x, done, ok = state[:nu], state[nu], state[nu + 1]
    grad = g + ca.mtimes(H, x)
    free = _free(x, grad, lb, ub)
    done = ca.logic_or(done, 1 - _any(free))
    L, ok_free = _cholesky(_masked(H, free))
    ok = ca.logic_and(ok, ca.logic_or(done, ok_free))
    gf = free * grad
    done = ca.logic_or(done, ca.dot(gf, gf) < ddp.BOX_GRAD_SMALL)
    step = -_chol_solve(L, gf)
    value = ca.dot(x, 0.5 * ca.mtimes(H, x) + g)

    def trial(t):
        candidate = ca.fmin(ca.fmax(x + t * step, lb), ub)
        better = ca.dot(candidate, 0.5 * ca.mtimes(H, candidate) + g) <= \
            value + ddp.BOX_ACCEPT * ca.dot(grad, candidate - x)
        return candidate, better
    full, accepted = trial(ddp.CAPPED_BOX_ALPHAS[0])
    new = x      # no step length accepted: x stays (converged)
    for t in ddp.CAPPED_BOX_ALPHAS[:0:-1]:
        candidate, better = trial(t)
        new = ca.if_else(better, candidate, new)
    head = ca.Function("ddp_pn_head", [state, H, g, lb, ub],
                       [full, accepted, done, ok])
    short = ca.Function("ddp_pn_short", [sym("full", nu), state, H, g, lb, ub], [new])
    # the MX iteration: the backtracking only when the full step is rejected
    sm, Hm, gm, lbm, ubm = (ca.MX.sym(n, *a.shape) for n, a in
                            (("s", state), ("H", H), ("g", g), ("lb", lb), ("ub", ub)))
    full_m, accepted_m, done_m, ok_m = head(sm, Hm, gm, lbm, ubm)
    new_m = _branch("ddp_pn_step", accepted_m, _passthrough(short, 0), short,
                    [full_m, sm, Hm, gm, lbm, ubm])
    x_m = sm[:nu]
    moved = ca.mmax(ca.fabs(new_m - x_m))
    x_next = ca.if_else(done_m, x_m, new_m)
    done_next = ca.logic_or(done_m, moved < ddp.BOX_MOVED_SMALL)
    return ca.Function("ddp_pn", [sm, Hm, gm, lbm, ubm],
                       [ca.vertcat(x_next, done_next, ok_m)])


def _branch(name: str, cond, if_true: ca.Function, if_false: ca.Function, args: list):
    """``if_true(*args)`` where cond else ``if_false(*args)``, only the chosen one evaluated: a
    Switch whose branches take their inputs explicitly (MX's short-circuit if_else forms each
    branch from the graph's symbolic inputs, so every earlier iteration would be evaluated
    again inside it)."""
    return ca.Function.if_else(name, if_true, if_false)(cond, *args)


def _passthrough(like: ca.Function, i: int) -> ca.Function:
    """A function with the inputs of ``like`` returning its input ``i``."""
    args = [ca.MX.sym(f"a{j}", like.sparsity_in(j)) for j in range(like.n_in())]
    return ca.Function(f"{like.name()}_pass{i}", args, [args[i]])


def _box_qp(nu: int, nx: int) -> ca.Function:
    """(k, vec K, ok) of min ½δᵀHδ + gᵀδ over lb ≤ δ ≤ ub: :func:`.ddp._box_gains`, its
    iterations after convergence skipped (short-circuit branches)."""
    sym = ca.MX.sym
    newton = sym("newton", nu + nu * nx + 1)    # the other branch's value (not used here)
    H, g, Qux, lb, ub, start = sym("H", nu, nu), sym("g", nu), sym("Qux", nu, nx), \
        sym("lb", nu), sym("ub", nu), sym("start", nu)
    pn = _pn_iteration(nu)
    state = ca.vertcat(ca.fmin(ca.fmax(start, lb), ub), 0, 1)
    for _ in range(ddp.CAPPED_BOX_ITER):
        state = _branch("ddp_pn_skip", state[nu], _passthrough(pn, 0), pn,
                        [state, H, g, lb, ub])
    xs, Hs, gs, Qs, lbs, ubs = (ca.SX.sym(n, *a.shape) for n, a in
                                (("x", start), ("H", H), ("g", g), ("Qux", Qux), ("lb", lb),
                                 ("ub", ub)))
    free = _free(xs, gs + ca.mtimes(Hs, xs), lbs, ubs)
    L, ok_free = _cholesky(_masked(Hs, free))
    final = ca.Function("ddp_box_gains", [xs, Hs, gs, Qs, lbs, ubs],
                        [_chol_solve(L, ca.diag(free) @ Qs), ok_free])
    K, ok_free = final(state[:nu], H, g, Qux, lb, ub)
    return ca.Function("ddp_box_qp", [newton, H, g, Qux, lb, ub, start],
                       [ca.vertcat(-state[:nu], ca.vec(K), ca.logic_and(state[nu + 1],
                                                                          ok_free))])


def knot_step(nx: int, nu: int) -> ca.Function:
    """One knot of the backward pass: (V_x, V_xx at k+1, the knot's model, its gap, u_k, the
    last k_k, bounds, μ) -> (V_x, V_xx at k, k_k, vec K_k, (stop², dg, dq, ok) of the knot);
    the box QP is evaluated only where it is needed (a short-circuit branch)."""
    sym = ca.SX.sym
    Vx1, Vxx1, Fx, Fu = sym("Vx", nx), sym("Vxx", nx, nx), sym("Fx", nx, nx), sym("Fu", nx, nu)
    qx, qu, Hxx, Huu = sym("qx", nx), sym("qu", nu), sym("Hxx", nx, nx), sym("Huu", nu, nu)
    Hux, gap, u, kprev = sym("Hux", nu, nx), sym("gap", nx), sym("u", nu), sym("kprev", nu)
    lower, upper, mu = sym("lower", nu), sym("upper", nu), sym("mu")
    # the products in the order that uses V_xx's symmetry: W = V_xx·F_x once, the
    # symmetric Q_xx and Q_uu by their upper triangles (a third fewer multiplications); each
    # its own function (gcc's time grows faster than the length of one function: 5.0 s at
    # -O1 for them as one, the same run time)
    Wx = sym("W", nx, nx)                      # V_xx·F_x
    products = [ca.Function("ddp_vxx_fx", [Vxx1, Fx], [ca.mtimes(Vxx1, Fx)]),
                ca.Function("ddp_qxx", [Hxx, Fx, Wx], [Hxx + _symmetric_product(Fx, Wx)]),
                ca.Function("ddp_qux", [Hux, Fu, Wx], [Hux + ca.mtimes(Fu.T, Wx)]),
                ca.Function("ddp_quu", [Huu, Fu, Vxx1, mu],
                            [Huu + _symmetric_product(Fu, ca.mtimes(Vxx1, Fu)) +
                             mu * ca.SX.eye(nu)]),
                ca.Function("ddp_q", [Vx1, Fx, Fu, qx, qu],
                            [qx + ca.mtimes(Fx.T, Vx1), qu + ca.mtimes(Fu.T, Vx1)])]
    Quu_r, Qu, Qux = sym("Quu", nu, nu), sym("Qu", nu), sym("Qux", nu, nx)
    L, ok = _cholesky(Quu_r)
    sol = _chol_solve(L, ca.horzcat(Qu, Qux))
    k_n, K_n = sol[:, 0], sol[:, 1:]
    lb, ub = lower - u, upper - u
    # an input on or within NEAR_BOUND·(upper − lower) of a bound (:func:`.ddp._backward`);
    # an infinite range gives no band (if_else_zero drops the branch not taken, inf included)
    width = upper - lower
    band = ca.if_else(width < ca.inf, ddp.NEAR_BOUND * width, 0)
    near = ca.logic_or(lb >= -band, ub <= band)
    box = ca.logic_or(ca.logic_or(_any(-k_n < lb), _any(-k_n > ub)), _any(near))
    newton = ca.Function("ddp_newton", [Quu_r, Qu, Qux, u, lower, upper],
                         [k_n, K_n, ok, box, lb, ub, near])

    def pre(Vx1, Vxx1, Fx, Fu, qx, qu, Hxx, Huu, Hux, u, lower, upper, mu):
        vxx_fx, qxx, qux, quu, q = products
        W = vxx_fx(Vxx1, Fx)
        Qx, Qu = q(Vx1, Fx, Fu, qx, qu)
        Quu_r, Qux = quu(Huu, Fu, Vxx1, mu), qux(Hux, Fu, W)
        return (Qx, Qu, qxx(Hxx, Fx, W), Quu_r, Qux,
                *newton(Quu_r, Qu, Qux, u, lower, upper))

    # the value function's update with the gains k, K (Newton's or the box QP's)
    kff, K = sym("k", nu), sym("K", nu, nx)
    Qx_, Qu_, Qxx_, Quu_, Qux_ = sym("Qx", nx), sym("Qu", nu), sym("Qxx", nx, nx), \
        sym("Quu", nu, nu), sym("Qux", nu, nx)
    box_ = sym("box")
    # the projected gradient at the current inputs (not at the QP's step)
    free = ca.if_else(box_, _free(u, Qu_, lower, upper), ca.SX.ones(nu))
    Quk = ca.mtimes(Quu_, kff)
    # the closed loop's adjoint: exact first-order model of the roll-out for any k, K
    Vx = Qx_ - ca.mtimes(K.T, Qu_)
    # Q_xx − Q_uxᵀK − KᵀQ_ux + KᵀQ_uu·K for any K (not only the box QP's: its value for
    # whatever gains the pass returns), symmetric by construction
    A = ca.mtimes(Qux_.T, K)
    vxx = ca.Function("ddp_vxx", [Qxx_, Qux_, Quu_, K, mu],
                      [Qxx_ - A - A.T + _symmetric_product(K, ca.mtimes(Quu_, K)) +
                       mu * ca.SX.eye(nx)])
    Vxx_ = sym("Vxx_k", nx, nx)
    Vx = Vx + ca.mtimes(Vxx_, gap)
    info = ca.vertcat(ca.sumsqr(free * Qu_),
                      ca.dot(Qu_, kff) - ca.dot(Vx, gap),
                      -ca.dot(kff, Quk) + ca.dot(gap, ca.mtimes(Vxx_, gap)))
    rest = ca.Function("ddp_back_post", [Qx_, Qu_, Vxx_, Quu_, Qux_, kff, K, box_, gap, u,
                                         lower, upper], [Vx, info])

    def post(Qx, Qu, Qxx, Quu_r, Qux, kff, K, box, gap, u, lower, upper, mu):
        Vxx = vxx(Qxx, Qux, Quu_r, K, mu)
        Vx, info = rest(Qx, Qu, Vxx, Quu_r, Qux, kff, K, box, gap, u, lower, upper)
        return Vx, Vxx, info
    names = ("Vx", "Vxx", "Fx", "Fu", "qx", "qu", "Hxx", "Huu", "Hux", "gap", "u", "kprev",
             "lower", "upper", "mu")
    m = {n: ca.MX.sym(n, *v.shape) for n, v in
         zip(names, (Vx1, Vxx1, Fx, Fu, qx, qu, Hxx, Huu, Hux, gap, u, kprev, lower, upper, mu))}
    Qx, Qu, Qxx, Quu_r, Qux, k_n, K_n, ok, box, lb, ub, near = pre(
        *[m[n] for n in ("Vx", "Vxx", "Fx", "Fu", "qx", "qu", "Hxx", "Huu", "Hux", "u",
                         "lower", "upper", "mu")])
    newton = ca.vertcat(k_n, ca.vec(K_n), 1)
    qp = _box_qp(nu, nx)
    gains = _branch("ddp_gains", box, qp, _passthrough(qp, 0),
                    [newton, Quu_r, Qu, Qux, lb, ub, -m["kprev"]])
    kff, K = gains[:nu], ca.reshape(gains[nu:nu + nu * nx], nu, nx)
    # no feedback on an input at (or next to) its bound, as the numpy pass
    K = ca.mtimes(ca.diag(1 - near), K)
    ok = ca.logic_and(ok, gains[-1])
    Vx, Vxx, info = post(Qx, Qu, Qxx, Quu_r, Qux, kff, K, box, m["gap"], m["u"], m["lower"],
                         m["upper"], m["mu"])
    return ca.Function("ddp_back_knot", list(m.values()),
                       [Vx, Vxx, kff, ca.vec(K), ca.vertcat(info, ok)])


def _reversed(A: ca.MX, N: int) -> ca.MX:
    """The N column blocks of A in reverse order."""
    w = A.shape[1] // N
    return A[:, [(N - 1 - j) * w + c for j in range(N) for c in range(w)]]


@functools.lru_cache(maxsize=8)
def backward_function(nx: int, nu: int, N: int) -> ca.Function:
    """B (module docstring): the knot step folded from the last knot to the first."""
    step = knot_step(nx, nu)
    sym = ca.MX.sym
    Fx, Fu, qx, qu = sym("Fx", nx, N * nx), sym("Fu", nx, N * nu), sym("qx", nx, N), \
        sym("qu", nu, N)
    Hxx, Huu, Hux = sym("Hxx", nx, N * nx), sym("Huu", nu, N * nu), sym("Hux", nu, N * nx)
    Ex, Exx, gaps = sym("Ex", nx), sym("Exx", nx, nx), sym("gaps", nx, N + 1)
    U, kprev, lower, upper, mu = sym("U", nu, N), sym("kprev", nu, N), sym("lower", nu), \
        sym("upper", nu), sym("mu")
    VxxN = Exx + mu * ca.MX.eye(nx)
    gapN = gaps[:, N]
    VxN = Ex + ca.mtimes(VxxN, gapN)
    one = ca.DM.ones(1, N)
    fold = step.mapaccum("ddp_back_fold", N, 2)
    Vx, Vxx, kff, K, info = fold(
        VxN, VxxN, *[_reversed(a, N) for a in (Fx, Fu, qx, qu, Hxx, Huu, Hux, gaps[:, :N], U,
                                               kprev)],
        ca.repmat(lower, 1, N), ca.repmat(upper, 1, N), mu * one)
    Vx = ca.horzcat(_reversed(Vx, N), VxN)
    Vxx = ca.horzcat(_reversed(Vxx, N), VxxN)
    total = ca.sum2(info)
    summary = ca.vertcat(ca.sqrt(total[0]), total[1] - ca.dot(VxN, gapN),
                         total[2] + ca.dot(gapN, ca.mtimes(VxxN, gapN)), ca.mmin(info[3, :]))
    return ca.Function("ddp_backward", [Fx, Fu, qx, qu, Hxx, Huu, Hux, Ex, Exx, gaps, U, kprev,
                                        lower, upper, mu],
                       [_reversed(kff, N), _reversed(K, N), Vx, Vxx, summary],
                       ["Fx", "Fu", "qx", "qu", "Hxx", "Huu", "Hux", "Ex", "Exx", "gaps", "U",
                        "kprev", "lower", "upper", "mu"],
                       ["kff", "K", "Vx", "Vxx", "info"])


def start_backward(nx: int, nu: int, N: int) -> None:
    """Start compiling B in the background (:func:`.compiled.start_library`) when it is not
    cached, so that its gcc runs beside the knot library's; :func:`compiled_backward` then
    waits for it."""
    start_library([backward_function(nx, nu, N)], codegen.CodegenOptions(flags=BACKWARD_FLAGS))


def compiled_backward(nx: int, nu: int, N: int, lower, upper,
                      options: codegen.CodegenOptions | None = None) -> ca.Function | None:
    """B as C from the cache (built now if missing, then checked against the virtual machine
    at a random positive-definite sample with bounds ``lower``, ``upper``), or None with a
    warning (the numpy pass stays)."""
    B = backward_function(nx, nu, N)
    rng = np.random.default_rng(0)

    def sample(_i, fn):
        args = [rng.uniform(-1, 1, fn.sparsity_in(i).shape) for i in range(fn.n_in())]
        args[5] = args[5] + 2 * np.tile(np.eye(nu), N)                # Huu
        args[8] = args[8] @ args[8].T + np.eye(nx)                    # Exx
        args[12], args[13] = np.asarray(lower, float), np.asarray(upper, float)
        args[14] = 1e-6
        return args
    fns = loaded_checked([B], options or codegen.CodegenOptions(flags=BACKWARD_FLAGS), sample,
                         "DDP backward pass")
    return None if fns is None else fns[0]


class CompiledBackward:
    """:func:`.ddp._backward`'s signature on the compiled B (``Model.backward``): numpy in
    and out through buffers (:mod:`.buffered`), None when a Q_uu is not positive definite
    at this μ (the caller raises it)."""

    def __init__(self, fn: ca.Function, lower, upper):
        self._call = Buffered(fn)
        self._bounds = (np.asarray(lower, float), np.asarray(upper, float))

    def __call__(self, d: dict, Ex, Exx, gaps, U, reg: float, kff_prev) -> tuple | None:
        N, nu = U.shape
        nx = gaps.shape[1]
        kff, K, Vx, Vxx, info = self._call(
            *[_stacked(d[n]) for n in ("Fx", "Fu")], d["qx"], d["qu"],
            *[_stacked(d[n]) for n in ("Hxx", "Huu", "Hux")], Ex, np.transpose(Exx), gaps,
            U, kff_prev, *self._bounds, reg)
        if info[3] < 0.5:
            return None
        return (kff.reshape(N, nu), K.reshape(N, nx, nu).transpose(0, 2, 1),
                Vx.reshape(N + 1, nx), Vxx.reshape(N + 1, nx, nx).transpose(0, 2, 1),
                float(info[0]), float(info[1]), float(info[2]))


def _stacked(blocks: np.ndarray) -> np.ndarray:
    """N × r × c blocks in the memory of CasADi's r × (N·c) horizontal stack (a view when
    they came from one, :mod:`.buffered`)."""
    return np.transpose(blocks, (0, 2, 1))
