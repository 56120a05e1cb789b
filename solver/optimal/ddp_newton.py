"""The second-order terms that FDDP's Gauss–Newton model leaves out, for Newton steps in a
warm re-solve (``ocp.build(..., solver="fddp", newton=True)``, :mod:`.ddp_built`).

FDDP's model of a knot (:mod:`.ddp_model`) has exact gradients but Gauss–Newton Hessians and
no second derivatives of the dynamics, so near an optimum whose residuals are not small (a
gripper that does not reach its target) it converges linearly: on the Talos arm reach a
re-solve after moving the target 2 cm takes 21 iterations to crocoddyl's stop and ends
1.7e-8 (relative) above the optimum's cost, its gripper 6 µm off. The exact Hessian of the
transcription's Lagrangian at a knot is ∇²(q_k + λ_(k+1)ᵀ·F_k) over z = (x_k, u_k), with
λ the costate of a dynamically consistent plan (λ_N = ∇E, λ_k = ∇_x q_k + F_x,kᵀ·λ_(k+1));
with it, FDDP's backward pass is Newton's method on the inputs (quadratically convergent).

What is computed: C_k = ∇²(q_k + λ_(k+1)ᵀ·F_k) − (the model Hessian of q_k), and for the
terminal cost C_N = ∇²E − (its model Hessian), by forward differences of the exact gradient
∇q_k + F_zᵀ·λ along each of the nx + nu directions (every knot moved at once: one mapped
call of the compiled knot derivatives per direction). CasADi's own second derivatives of a
robot's knot are tens of MB of C (docs/trajectory_optimization.md, "One compiled function
per knot"); the differences reuse the compiled first derivatives and cost nx + nu of their
evaluations (the Talos arm, N = 100: 0.12–0.16 s).

How it is used: the corrections are computed at the end of a successful solve (at its
optimum, where they are positive definite in the reduced sense) and added to the model
Hessians of the next warm re-solve, frozen: the second-order terms change little when the
target moves a few cm, so the re-solve converges in a few steps (Talos arm, 2 cm: 3–4 iterations
instead of 21, to the optimum that the exact Newton iteration reaches). It is the
preparation phase of real-time schemes (acados' RTI): its time is reported apart
(``stats["prepare_cpu_time"]``), and the solve's own time is the latency from new data to
the plan. When the target moved far, the terms of the old optimum fit the new one poorly
(Talos arm, target moved 14 cm: 110 iterations with them fixed, 80 with Gauss–Newton): a
round of ``NEWTON_ROUND`` iterations that ends unconverged takes them afresh at its
(feasible) iterate, within the solve and its time (:func:`solve`; 17 iterations then, and
a 2 cm move still ends within the first round: rounds of 10 made a 5 cm move refresh
after its 10th iteration and take 0.29 s instead of 0.11 s).
"""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from . import ddp

# iterations on one set of terms before they are taken afresh at the iterate (solve)
NEWTON_ROUND = 15
FEASIBLE = 1e-8       # [state units] largest gap of a plan taken as dynamically consistent
# the forward-difference step relative to max(1, |z_i|): √(machine epsilon)-scale, the
# Hessian's error then ~1e-7 relative, which leaves Newton's convergence quadratic down to
# the solver's tolerances (measured on the Talos arm: the cost to 1e-12 relative)
FD_STEP = 1e-7


def costate(d: dict, Ex: np.ndarray) -> np.ndarray:
    """λ (N+1 × nx) of a dynamically consistent plan: λ_N = ∇E, λ_k = q_x + F_xᵀ·λ_(k+1)."""
    N, nx = d["qx"].shape
    lam = np.empty((N + 1, nx))
    lam[N] = Ex
    for k in range(N - 1, -1, -1):
        lam[k] = d["qx"][k] + d["Fx"][k].T @ lam[k + 1]
    return lam


def _gradient(d: dict, lam: np.ndarray) -> np.ndarray:
    """∇_z(q_k + λ_(k+1)ᵀ·F_k) at every knot: N × (nx + nu)."""
    return np.concatenate([d["qx"] + np.einsum("kij,ki->kj", d["Fx"], lam[1:]),
                           d["qu"] + np.einsum("kij,ki->kj", d["Fu"], lam[1:])], 1)


def second_order(model, X: np.ndarray, U: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(C, C_N): the knots' Hessian corrections (N × nz × nz, nz = nx + nu) and the
    terminal cost's (nx × nx) at the dynamically consistent plan (X, U) of ``model``
    (a :class:`.ddp.Model`; module docstring)."""
    N, nu = U.shape
    nx = X.shape[1]
    nz = nx + nu
    d = model.derivatives(X, U)
    _, Ex, Exx = model.terminal(X[-1])
    lam = costate(d, Ex)
    g0 = _gradient(d, lam)
    Z = np.concatenate([X[:-1], U], 1)
    H = np.empty((N, nz, nz))
    for i in range(nz):
        eps = FD_STEP * max(1.0, float(np.abs(Z[:, i]).max()))
        Xp, Up = X.copy(), U.copy()
        if i < nx:
            Xp[:-1, i] += eps
        else:
            Up[:, i - nx] += eps
        H[:, :, i] = (_gradient(model.derivatives(Xp, Up), lam) - g0) / eps
    H = 0.5 * (H + H.transpose(0, 2, 1))
    H[:, :nx, :nx] -= d["Hxx"]
    H[:, nx:, nx:] -= d["Huu"]
    H[:, nx:, :nx] -= d["Hux"]
    H[:, :nx, nx:] -= d["Hux"].transpose(0, 2, 1)
    HN = np.empty((nx, nx))
    for i in range(nx):
        eps = FD_STEP * max(1.0, abs(float(X[-1, i])))
        x = X[-1].copy()
        x[i] += eps
        HN[:, i] = (np.asarray(model.terminal(x)[1]).ravel() - np.ravel(Ex)) / eps
    HN = 0.5 * (HN + HN.T) - Exx
    return H, HN


def corrected(model, correction):
    """``model`` (a :class:`.ddp.Model`) with the corrections added to its model Hessians."""
    H, HN = correction
    nx = HN.shape[0]
    derivatives, terminal = model.derivatives, model.terminal

    def second_derivatives(X, U):
        d = derivatives(X, U)
        d["Hxx"] = d["Hxx"] + H[:, :nx, :nx]
        d["Huu"] = d["Huu"] + H[:, nx:, nx:]
        d["Hux"] = d["Hux"] + H[:, nx:, :nx]
        return d

    def second_terminal(x):
        E, Ex, Exx = terminal(x)
        return E, Ex, Exx + HN
    return replace(model, derivatives=second_derivatives, terminal=second_terminal)


def shifted(correction, shift: int):
    """The corrections of a plan moved ``shift`` knots earlier (the last knot's repeated),
    as :meth:`.ddp_built.DDPProblem.solve` moves the plan."""
    H, HN = correction
    if not shift:
        return correction
    return np.concatenate([H[shift:], np.repeat(H[-1:], shift, 0)]), HN


def solve(model, second, x0, X, U, tol: float, max_iter: int, budget=None,
          clock=time.process_time) -> ddp.Result:
    """:func:`.ddp.solve` on ``model`` with the second-order terms ``second`` added, in
    rounds of NEWTON_ROUND iterations; after an unconverged round at a feasible iterate the
    terms are computed afresh there (module docstring). ``budget`` (in s of ``clock``)
    bounds the whole."""
    started, done, feasible = clock(), 0, False
    while True:
        left = None if budget is None else budget - (clock() - started)
        result = ddp.solve(corrected(model, second), x0, X, U, tol,
                           min(NEWTON_ROUND, max_iter - done), budget=left, feasible=feasible,
                           clock=clock)
        done += result.iterations
        result.iterations = done
        if result.success or result.status != "Maximum_Iterations_Exceeded" or \
                done >= max_iter:
            return result
        X, U, feasible = result.X, result.U, result.gap < FEASIBLE
        if feasible:      # the costate needs a dynamically consistent plan
            second = second_order(model, X, U)
