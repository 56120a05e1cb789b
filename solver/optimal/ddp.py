"""Feasibility-driven differential dynamic programming with box-constrained controls: the
backward Riccati pass and the line search of FDDP (C. Mastalli et al., "Crocoddyl: an
efficient and versatile framework for multi-contact optimal control", ICRA 2020), with the
controls' bounds handled by a projected-Newton box QP on Q_uu per knot (Y. Tassa, N. Mansard,
E. Todorov, "Control-limited differential dynamic programming", ICRA 2014), as crocoddyl's
BoxFDDP does.

The problem: min Σ_k q_k(x_k, u_k) + E(x_N) over x_(k+1) = F_k(x_k, u_k), x_0 given,
lower ≤ u_k ≤ upper. The iterate may be infeasible (gaps f_k = F(x_(k−1), u_(k−1)) − x_k, and
f_0 = x0 − x_0): the backward pass carries the gaps in the value function's gradient, the
forward pass closes them by the fraction alpha of its step (a full step rolls out a
dynamically consistent trajectory, after which every iterate stays feasible). Conventions and
acceptance rules are crocoddyl's: û = u − alpha·k − K·(x̂ − x), Armijo-like test on the
expected improvement, regularization ρ added to Q_uu and V_xx, raised when steps are short.

Two choices make the expected improvement a true first-order model of the clamped roll-out
(without them the torque-limited double-pendulum swing-up of benchmarks/ocp_vs_crocoddyl.py
stalled at its regularization limit, cost 8.51 against IPOPT's 0.5544): V_x is the adjoint
of the closed loop, Q_x − Kᵀ·Q_u, for whatever k and K the box QP returns (so Σ Q_u·k is the
roll-out cost's derivative along alpha; Tassa's V_x = Q_x − Kᵀ·Q_u − Q_uxᵀ·k + Kᵀ·Q_uu·k
equals it only without bounds), and an input on or within NEAR_BOUND of its bound gets no
feedback: K·(x̂ − x) would push it out of the box half the time, where the roll-out clamps
it, and the clamped steps raised the cost while the model promised a decrease.

The knots' derivatives come in one call (:mod:`.ddp_model`, a mapped function), so Python
work per iteration is the backward pass (small dense algebra per knot) and one roll-out call
per trial step.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from scipy.linalg import lapack

ALPHAS = 0.5 ** np.arange(10)   # 1 … 1/512, as crocoddyl
REG_MIN, REG_MAX, REG_FACTOR = 1e-9, 1e9, 10.0
ACCEPT, ACCEPT_NEGATIVE, GRAD_SMALL = 0.1, 2.0, 1e-12
STEP_DECREASE, STEP_INCREASE = 0.5, 0.01
# the box QP's projected Newton (_box_gains): at most BOX_ITER iterations, each trying the
# steps BOX_ALPHAS (1 … 2⁻³⁹) and stopping where none decreases the QP enough, the free
# gradient is below √BOX_GRAD_SMALL or the iterate moved less than BOX_MOVED_SMALL.
# :mod:`.ddp_backward` unrolls the same loop with crocoddyl's BoxQP caps (CAPPED_*: 10
# iterations, steps 1 … 1/512) to keep its C small; with those caps in the numpy pass the
# torque-limited swing-up took 1250 FDDP iterations instead of 250 (an early, inexact QP)
BOX_ITER, BOX_ALPHAS, BOX_ACCEPT = 50, 0.5 ** np.arange(40), 0.1
CAPPED_BOX_ITER, CAPPED_BOX_ALPHAS = 10, 0.5 ** np.arange(10)
BOX_GRAD_SMALL, BOX_MOVED_SMALL = 1e-24, 1e-14
# an input within NEAR_BOUND·(upper − lower) of a bound gets no feedback (module docstring)
NEAR_BOUND = 1e-6


@dataclass
class Model:
    """The numeric problem: ``derivatives(X, U)`` -> dict (x_next, q, Fx, Fu, qx, qu, Hxx, Huu,
    Hux; arrays over the knots, first axis k), ``terminal(x)`` -> (E, Ex, Exx),
    ``rollout(x0, X, U, k, K, gaps, alpha)`` -> (X̂ ((N+1) × nx, the last node's gap closed
    by the fraction alpha), Û, q (N+1: the knots' costs, then the terminal cost)), bounds of u;
    ``backward`` (optional) replaces the numpy pass :func:`_backward`: ``backward(d, Ex,
    Exx, gaps, U, reg, kff_prev)`` -> what :func:`_backward` returns (the compiled pass of
    :mod:`.ddp_backward`)."""

    derivatives: object
    terminal: object
    rollout: object
    lower: np.ndarray
    upper: np.ndarray
    backward: object = None


@dataclass
class Result:
    X: np.ndarray            # (N+1) × nx
    U: np.ndarray            # N × nu
    cost: float
    iterations: int
    success: bool
    status: str
    stop: float              # √Σ‖projected Q_u‖² at the last iterate
    gap: float               # largest |gap| at the last iterate
    expected: float = np.inf  # the expected cost decrease of a full step there


def solve(model: Model, x0: np.ndarray, X: np.ndarray, U: np.ndarray, tol: float,
          max_iter: int, reg: float = REG_MIN, log=None, budget: float | None = None,
          feasible: bool = False, clock=time.process_time) -> Result:
    """FDDP from the guess (X, U) (module docstring); converged when the iterate is feasible
    and the expected cost decrease of a full step, Σ_k Q_u·k − ½·k·Q_uu·k (crocoddyl's stop,
    ``th_stop``), is at most ``tol``; and, since a large regularization also makes that
    small, √Σ_k ‖Q_u,k‖² over the controls off their active bounds is at most √tol.
    ``log``, if given, is called after each iteration with a dict (iteration, cost, stop,
    regularization, step length, expected and actual decrease, largest gap).

    ``budget`` [s of ``clock``: process CPU time by default, ``time.perf_counter`` for wall
    time], a real-time budget: after the first iteration, stop
    when the time spent plus the longest iteration so far would exceed it (status
    "Budget_Exhausted", not a success) and return a dynamically consistent plan: the
    iterate itself when feasible, else the current plan rolled out from x0 under the last
    feedback gains (the gaps closed, no feedforward step). ``feasible``: (X, U) is known to
    be dynamically consistent (an earlier solve's plan from the same x0), so the first
    iteration may already stop."""
    started, longest, K = clock(), 0.0, None
    X, U = np.array(X, float), np.clip(np.array(U, float), model.lower, model.upper)
    bounded = bool(np.isfinite(model.lower).any() or np.isfinite(model.upper).any())
    kff = np.zeros_like(U)
    status, stop, gap, full = "Maximum_Iterations_Exceeded", np.inf, np.inf, np.inf
    cost, it = np.nan, 0
    # at most max_iter steps; the derivatives are not evaluated after the last one (an
    # MPC step of 3 iterations saves a quarter of its time), so stop is then the last pass's
    for it in range(max_iter + 1):
        if it == max_iter:
            break
        if budget is not None and it and clock() - started + longest > budget:
            return _within_budget(model, x0, X, U, K, cost, it, feasible, stop, gap, full)
        began = clock()
        d = model.derivatives(X, U)
        E, Ex, Exx = model.terminal(X[-1])
        gaps = np.vstack([x0 - X[0], d["x_next"] - X[1:]])
        gap = float(np.abs(gaps).max())
        if feasible:
            gaps[:] = 0.0
        cost = float(d["q"].sum() + E)
        while True:
            back = model.backward(d, Ex, Exx, gaps, U, reg, kff) if model.backward else \
                _backward(d, Ex, Exx, gaps, U, model, reg, bounded, kff, feasible)
            if back is not None:
                break
            reg = min(reg * REG_FACTOR, REG_MAX)
            if reg >= REG_MAX:
                return Result(X, U, cost, it, False, "Regularization_Limit", stop, gap, full)
        kff, K, Vx, Vxx, stop, dg, dq = back
        full = dg + 0.5 * dq
        if feasible and full <= tol and stop <= np.sqrt(tol):
            status = "Solve_Succeeded"
            break
        alpha = expected = dV = 0.0
        for alpha in ALPHAS:
            Xh, Uh, q = model.rollout(x0, X, U, kff, K, gaps, alpha)
            if not np.isfinite(Xh).all() or not np.isfinite(q).all():
                continue
            trial = float(q.sum())
            dv = 0.0 if feasible else float(np.einsum("ki,kij,kj->", gaps, Vxx, Xh - X))
            d1, d2 = dg + dv, dq - 2 * dv
            expected, dV = alpha * (d1 + 0.5 * alpha * d2), cost - trial
            if abs(d1) < GRAD_SMALL or \
                    dV > (ACCEPT if expected >= 0 else ACCEPT_NEGATIVE) * expected:
                X, U, feasible = Xh, Uh, feasible or alpha == 1.0
                cost, gap = trial, (1 - alpha) * gap
                break
        longest = max(longest, clock() - began)
        if log is not None:
            log({"iteration": it, "cost": cost, "stop": stop, "reg": reg, "alpha": alpha,
                 "expected": expected, "actual": dV, "gap": gap})
        if alpha > STEP_DECREASE:
            reg = max(reg / REG_FACTOR, REG_MIN)
        if alpha <= STEP_INCREASE:
            reg = min(reg * REG_FACTOR, REG_MAX)
            if reg >= REG_MAX:
                return Result(X, U, cost, it + 1, False, "Regularization_Limit", stop, gap,
                              full)
    return Result(X, U, cost, it, status == "Solve_Succeeded", status, stop, gap, full)


def _within_budget(model: Model, x0, X, U, K, cost, it, feasible, stop, gap, full) -> Result:
    """The result of a solve stopped by its time budget (:func:`solve`): a feasible plan."""
    if not feasible:      # one roll-out at alpha = 1 closes every gap (û = u − K·(x̂ − x))
        Xh, Uh, q = model.rollout(x0, X, U, np.zeros_like(U), K, np.zeros((len(X), X.shape[1])),
                                  1.0)
        if np.isfinite(Xh).all() and np.isfinite(q).all():
            X, U, cost, gap = Xh, Uh, float(q.sum()), 0.0
    return Result(X, U, cost, it, False, "Budget_Exhausted", stop, gap, full)


def _backward(d: dict, Ex, Exx, gaps, U, model: Model, reg: float, bounded: bool,
              kff_prev: np.ndarray, feasible: bool):
    """The Riccati sweep: gains k (N × nu), K (N × nu × nx), V_x, V_xx at the nodes, the
    stopping measure and the expected-improvement terms (dg, dq); None when a Q_uu (with
    ρ) is not positive definite."""
    N, nu = U.shape
    nx = gaps.shape[1]
    kff, K = np.zeros((N, nu)), np.zeros((N, nu, nx))
    Vx, Vxx = np.zeros((N + 1, nx)), np.zeros((N + 1, nx, nx))
    Vxx[N] = Exx + reg * np.eye(nx)
    Vx[N] = Ex + Vxx[N] @ gaps[N]
    eye_u, eye_x = reg * np.eye(nu), reg * np.eye(nx)
    width = model.upper - model.lower
    band = NEAR_BOUND * np.where(np.isfinite(width), width, 0.0)
    Fx, Fu, qx, qu = d["Fx"], d["Fu"], d["qx"], d["qu"]
    Hxx, Huu, Hux = d["Hxx"], d["Huu"], d["Hux"]
    stop = dg = dq = 0.0
    for k in range(N - 1, -1, -1):
        Vxx_p = Vxx[k + 1]
        FxV, FuV = Fx[k].T @ Vxx_p, Fu[k].T @ Vxx_p
        Qx, Qu = qx[k] + Fx[k].T @ Vx[k + 1], qu[k] + Fu[k].T @ Vx[k + 1]
        Qxx, Quu, Qux = Hxx[k] + FxV @ Fx[k], Huu[k] + FuV @ Fu[k], Hux[k] + FuV @ Fx[k]
        Quu_r = Quu + eye_u
        sol = _cholesky_solve(Quu_r, np.column_stack([Qu, Qux]))
        if sol is None:
            return None
        kff[k], K[k], free = sol[:, 0], sol[:, 1:], slice(None)
        lb, ub = model.lower - U[k], model.upper - U[k]
        near = (lb >= -band) | (ub <= band)
        if bounded and ((-kff[k] < lb).any() or (-kff[k] > ub).any() or near.any()):
            # the Newton step leaves the box, or an input is on (or next to) its bound
            gains = _box_gains(Quu_r, Qu, Qux, lb, ub, -kff_prev[k])
            if gains is None:
                return None
            kff[k], K[k] = gains
            # feedback on an input at its bound could only act one way (the roll-out clamps
            # the other): the step's first-order model would not hold (module docstring)
            K[k][near] = 0.0
            # the projected gradient at the current inputs (not at the QP's step)
            free = ~(((U[k] <= model.lower) & (Qu > 0)) | ((U[k] >= model.upper) & (Qu < 0)))
        stop += float(Qu[free] @ Qu[free])
        KQuu = K[k].T @ Quu_r
        # the closed loop's adjoint: exact first-order model of the roll-out for any k, K
        Vx[k] = Qx - K[k].T @ Qu
        V = Qxx - Qux.T @ K[k] - K[k].T @ Qux + KQuu @ K[k] + eye_x
        Vxx[k] = 0.5 * (V + V.T)
        Vx[k] += Vxx[k] @ gaps[k]
        dg += float(Qu @ kff[k])
        dq -= float(kff[k] @ Quu_r @ kff[k])
    if not feasible:
        dg -= float(np.einsum("ki,ki->", Vx, gaps))
        dq += float(np.einsum("ki,kij,kj->", gaps, Vxx, gaps))
    return kff, K, Vx, Vxx, np.sqrt(stop), dg, dq


def _box_gains(H, g, Qux, lb, ub, start):
    """k and K of min ½δᵀHδ + gᵀδ over lb ≤ δ ≤ ub (δ = −k) by projected
    Newton (Tassa et al. 2014): K is H_ff⁻¹·Q_ux on the free rows, zero on the clamped ones.
    None when H on the free set is not positive definite."""
    nu = g.size
    x = np.clip(start, lb, ub)
    free = np.ones(nu, bool)
    for _ in range(BOX_ITER):
        grad = g + H @ x
        clamped = ((x <= lb) & (grad > 0)) | ((x >= ub) & (grad < 0))
        free = ~clamped
        if not free.any():
            break
        gf = grad[free]
        solved = _cholesky_solve(H[free][:, free], gf)
        if solved is None:
            return None
        if gf @ gf < BOX_GRAD_SMALL:
            break
        step = np.zeros(nu)
        step[free] = -solved
        value = x @ (0.5 * H @ x + g)
        trial = x      # no step length decreases the QP enough: converged
        for t in BOX_ALPHAS:
            candidate = np.clip(x + t * step, lb, ub)
            if candidate @ (0.5 * H @ candidate + g) <= \
                    value + BOX_ACCEPT * grad @ (candidate - x):
                trial = candidate
                break
        moved = np.abs(trial - x).max()
        x = trial
        if moved < BOX_MOVED_SMALL:
            break
    grad = g + H @ x
    free = ~(((x <= lb) & (grad > 0)) | ((x >= ub) & (grad < 0)))
    K = np.zeros((nu, Qux.shape[1]))
    if free.any():
        solved = _cholesky_solve(H[free][:, free], Qux[free])
        if solved is None:
            return None
        K[free] = solved
    return -x, K


def _cholesky_solve(A: np.ndarray, B: np.ndarray):
    """A⁻¹·B by Cholesky (LAPACK directly: numpy's wrappers cost more than these 6 × 6
    solves), or None when A is not positive definite."""
    c, info = lapack.dpotrf(A, lower=1)
    if info != 0:
        return None
    return lapack.dpotrs(c, B, lower=1)[0]
