"""The functions the DDP solver calls (:mod:`.ddp`): one knot's derivatives, mapped over the
grid in one call, and the forward roll-out, folded over the grid in one call.

* ``D(x, u, p, T, k) -> (x_next, q, Fx, Fu, qx, qu, Hxx, Huu, Hux)``: the knot function K of
  :mod:`.knots` (``steps`` RK4 steps of the dynamics with the cost integrated by the same
  steps, exactly the RK4 multiple-shooting transcription), its Jacobians by CasADi's
  automatic differentiation, and the model Hessian of the knot's cost: Gauss–Newton through
  the RK4 stages (as crocoddyl's IntegratedActionModelRK), Σ_stages w·h·Jᵀ·H·J with J the
  stage point's derivative along (x, u) and H = 2·J_Rᵀ·J_R of the least-squares residuals
  plus ∇²L of the other integral cost terms (exact), no second derivatives of the dynamics
  (as iLQR and crocoddyl's FDDP). The node's Hessian alone missed the inputs' effect on the
  stage states' cost (on the double pendulum Q_uu's cost part 0.002·I against 0.5…1.8).
  The gradients (qx, qu) are exact, so the fixed point is the transcription's optimum.
* ``Dt(x, p, T) -> (E, Ex, Exx)``: the terminal cost, Gauss–Newton on its residuals, exact
  on the rest.
* ``roll(x0, XS, US, KFF, KFB, GAPS, alpha, lower, upper, p, T)``: FDDP's forward pass
  (Mastalli et al. 2020) for a step length alpha, every knot in one call (``mapaccum``):
  x̂_k = x_next + (alpha − 1)·gap_k, û_k = clamp(u_k − alpha·k_k − K_k·(x̂_k − x_k)),
  x_next = K(x̂_k, û_k); and the terminal cost at x̂_N (one call per trial step).

They are one knot's code whatever N: ``compiled=True`` writes D and the roll-out step (and
Dt) as C into one small library, cached by hash (:func:`.compiled.compiled_library`), and the
maps call it N times per Python call.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from ..simulation import codegen
from .compiled import loaded_checked
from .dynamics_derivatives import stage_jacobian
from .functions import Functions, system_p
from .knots import knot_function

# measured on the Talos arm's knot (docs/trajectory_optimization.md, "The DDP solver")
DDP_FLAGS = ("-O1",)


def knot_derivatives(prob, fns: Functions, steps: int,
                     derivatives: str = "auto") -> ca.Function:
    """D (module docstring): the knot's RK4 steps with their derivatives chained stage by
    stage from the Jacobian of f at each stage point (``derivatives``: by the recursive
    algorithms or by forward mode on f, :mod:`.dynamics_derivatives`; the Jacobian of the
    whole knot by AD through the stages, dense after the first, cost 4× the forward mode's).
    The values follow :func:`.knots.knot_function`'s formulas."""
    s, N, t0 = prob.system, prob.intervals, prob.t0
    nx, nu = s.nx, len(s.u_names)
    fj, lj = _stage_functions(prob, fns, derivatives)
    x, u = ca.MX.sym("x", nx), ca.MX.sym("u", nu)
    p, T, k = ca.MX.sym("p", fns.L.nnz_in(3)), ca.MX.sym("T"), ca.MX.sym("k")
    h = T / N
    t_k, dtau = t0 + k * h, 1.0 / steps
    ps = system_p(p, s)
    dx0 = ca.DM.eye(nx + nu)[:nx, :]           # d x / d(x, u)
    du = ca.DM.eye(nx + nu)[nx:, :]            # d u / d(x, u)

    node = _stage_hessian(fns, nx, nu)

    def rate(tau, xs, dxs):   # (h·f, h·L, h·Jᵀ·∇²L·J) at a stage, derivatives along (x, u)
        t = t_k + tau * h
        fv, Jx, Ju = fj(t, xs, u, ps)
        lv, lx, lu = lj(t, xs, u, p, T)
        J = ca.vertcat(dxs, du)               # d(x_stage, u) / d(x, u)
        return (h * fv, h * (ca.mtimes(Jx, dxs) + ca.mtimes(Ju, du)),
                h * lv, h * (ca.mtimes(lx.T, dxs) + ca.mtimes(lu.T, du)),
                h * ca.mtimes(J.T, ca.mtimes(node(t, xs, u, p, T), J)))

    xs, dxs, q, dq, H = x, dx0, 0, ca.MX(1, nx + nu), 0
    for i in range(steps):
        tau = i * dtau
        k1, d1, l1, e1, H1 = rate(tau, xs, dxs)
        k2, d2, l2, e2, H2 = rate(tau + dtau / 2, xs + dtau / 2 * k1, dxs + dtau / 2 * d1)
        k3, d3, l3, e3, H3 = rate(tau + dtau / 2, xs + dtau / 2 * k2, dxs + dtau / 2 * d2)
        k4, d4, l4, e4, H4 = rate(tau + dtau, xs + dtau * k3, dxs + dtau * d3)
        xs = xs + dtau / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        dxs = dxs + dtau / 6 * (d1 + 2 * d2 + 2 * d3 + d4)
        q = q + dtau / 6 * (l1 + 2 * l2 + 2 * l3 + l4)
        dq = dq + dtau / 6 * (e1 + 2 * e2 + 2 * e3 + e4)
        H = H + dtau / 6 * (H1 + 2 * H2 + 2 * H3 + H4)
    Hxx, Huu, Hux = H[:nx, :nx], H[nx:, nx:], H[nx:, :nx]
    return ca.Function("ddp_knot", [x, u, p, T, k],
                       [xs, q, dxs[:, :nx], dxs[:, nx:], dq[:, :nx].T, dq[:, nx:].T,
                        Hxx, Huu, Hux],
                       ["x", "u", "p", "T", "k"],
                       ["x_next", "q", "Fx", "Fu", "qx", "qu", "Hxx", "Huu", "Hux"])


def _stage_functions(prob, fns: Functions, derivatives: str) -> tuple:
    """fj(t, x, u, p) -> (f, ∂f/∂x, ∂f/∂u) (:func:`.dynamics_derivatives.stage_jacobian`:
    the recursive algorithms' derivatives or forward mode on f), and lj(t, x, u, p, T) -> (L,
    ∂L/∂x, ∂L/∂u): SX functions the knot calls at every stage (their C is written once)."""
    s = prob.system
    nx, nu = s.nx, len(s.u_names)
    t, x, u = ca.SX.sym("t"), ca.SX.sym("x", nx), ca.SX.sym("u", nu)
    p, T = ca.SX.sym("p", fns.L.nnz_in(3)), ca.SX.sym("T")
    fj = stage_jacobian(s, derivatives)
    L = fns.L(t, x, u, p, T)
    lj = ca.Function("ddp_lj", [t, x, u, p, T], [L, ca.gradient(L, x), ca.gradient(L, u)])
    return fj, lj


def _stage_hessian(fns: Functions, nx: int, nu: int) -> ca.Function:
    """H(t, x, u, p, T) = 2·J_Rᵀ·J_R + ∇²(L − ‖R‖²) over (x, u) at a stage point (SX)."""
    xs, us = ca.SX.sym("x", nx), ca.SX.sym("u", nu)
    ps, Ts, ts = ca.SX.sym("p", fns.L.nnz_in(3)), ca.SX.sym("T"), ca.SX.sym("t")
    z = ca.vertcat(xs, us)
    R = fns.R(ts, xs, us, ps, Ts)
    JR = ca.jacobian(R, z)
    H = 2 * ca.mtimes(JR.T, JR)
    rest = fns.L(ts, xs, us, ps, Ts) - ca.sumsqr(R)
    if ca.depends_on(rest, z):
        H = H + ca.hessian(rest, z)[0]
    return ca.Function("ddp_stage_hessian", [ts, xs, us, ps, Ts], [H])


def terminal_derivatives(prob, fns: Functions) -> ca.Function:
    """Dt(x, p, T) -> (E, Ex, Exx): the terminal cost at t0 + T, Gauss–Newton Hessian of its
    residuals plus the exact Hessian of its other terms."""
    s = prob.system
    x, p, T = ca.SX.sym("x", s.nx), ca.SX.sym("p", fns.L.nnz_in(3)), ca.SX.sym("T")
    t = prob.t0 + T
    E, R = fns.E(t, x, p, T), fns.Rf(t, x, p, T)
    JR = ca.jacobian(R, x)
    H = 2 * ca.mtimes(JR.T, JR)
    rest = E - ca.sumsqr(R)
    if ca.depends_on(rest, x):
        H = H + ca.hessian(rest, x)[0]
    return ca.Function("ddp_terminal", [x, p, T], [E, ca.gradient(E, x), H],
                       ["x", "p", "T"], ["E", "Ex", "Exx"])


def rollout_step(prob, fns: Functions, steps: int) -> ca.Function:
    """One knot of FDDP's forward pass (module docstring): (x_next, x̂_k, û_k, q_k)."""
    s = prob.system
    nx, nu = s.nx, len(s.u_names)
    K = knot_function(prob, fns, steps)
    x_in, xs, us, kff = (ca.MX.sym(n, m) for n, m in (("x_in", nx), ("xs", nx), ("us", nu),
                                                    ("kff", nu)))
    kfb, gap, alpha = ca.MX.sym("kfb", nu * nx), ca.MX.sym("gap", nx), ca.MX.sym("alpha")
    lower, upper = ca.MX.sym("lower", nu), ca.MX.sym("upper", nu)
    p, T, k = ca.MX.sym("p", fns.L.nnz_in(3)), ca.MX.sym("T"), ca.MX.sym("k")
    x_hat = x_in + (alpha - 1) * gap
    u_hat = us - alpha * kff - ca.mtimes(ca.reshape(kfb, nu, nx), x_hat - xs)
    u_hat = ca.fmin(ca.fmax(u_hat, lower), upper)
    x_next, q = K(x_hat, u_hat, p, T, k)
    return ca.Function("ddp_roll", [x_in, xs, us, kff, kfb, gap, alpha, lower, upper, p, T, k],
                       [x_next, x_hat, u_hat, q])


def rollout(step: ca.Function, N: int, terminal: ca.Function) -> ca.Function:
    """The forward pass over the N knots in one call, with the terminal cost at the last
    node (its gap closed by the fraction alpha): (X̂ (nx × (N+1)), Û, q (1 × (N+1)): the
    knots' costs, then the terminal cost)."""
    x0, xs, us, kff, kfb = (ca.MX.sym(n, step.size1_in(i), 1 if i == 0 else N) for i, n
                            in enumerate(("x0", "XS", "US", "KFF", "KFB")))
    gap = ca.MX.sym("GAPS", step.size1_in(5), N + 1)
    alpha, lower, upper = ca.MX.sym("alpha"), ca.MX.sym("lower", step.size1_in(7)), \
        ca.MX.sym("upper", step.size1_in(8))
    p, T = ca.MX.sym("p", step.size1_in(9)), ca.MX.sym("T")
    folded = step.mapaccum("ddp_fold", N)
    one = ca.DM.ones(1, N)
    x_acc, x_hat, u_hat, q = folded(x0, xs, us, kff, kfb, gap[:, :N], alpha * one,
                                    ca.repmat(lower, 1, N), ca.repmat(upper, 1, N),
                                    ca.repmat(p, 1, N), T * one, ca.DM(np.arange(N)).T)
    x_last = x_acc[:, -1] + (alpha - 1) * gap[:, N]
    return ca.Function("ddp_rollout", [x0, xs, us, kff, kfb, gap, alpha, lower, upper, p, T],
                       [ca.horzcat(x_hat, x_last), u_hat,
                        ca.horzcat(q, terminal(x_last, p, T)[0])])


def compiled(functions: list[ca.Function], sample_args: list[list],
             options: codegen.CodegenOptions | None = None) -> list[ca.Function] | None:
    """The functions as ``external`` C from one cached library (checked against the virtual
    machine at ``sample_args`` when just built), or None with a warning (the virtual machine
    stays)."""
    return loaded_checked(functions, options or codegen.CodegenOptions(flags=DDP_FLAGS),
                          lambda i, _: sample_args[i], "DDP library")
