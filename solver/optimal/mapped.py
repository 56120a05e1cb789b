"""Transcriptions with one per-interval function mapped over the grid (``solve(codegen=True)``).

The inlined form (:mod:`.transcription`, SX) repeats the dynamics at every point of every
interval: the parking example's Hessian of the Lagrangian had 10.9 million instructions, and
C code of that size is no faster than CasADi's virtual machine and takes gcc minutes. Here
the nonlinear part is one SX function mapped over the grid (``Function.map``), so the NLP's
derivative functions are small loops, which compile in seconds (:mod:`.compiled`):

* collocation: the point function P(v) = (f, L, c) at v = (t, x, u, p, T), evaluated at the
  N·d collocation points; the constraints and cost are linear in its values q apart from the
  step h = T/N, and the point arguments are affine in the decision vector, which
  :mod:`.structured` uses to assemble the Jacobian and the exact Hessian from P's blocks;
* fixed-step multiple shooting: the interval function F(x_k, u_k, x_{k+1}, p, T, k) ->
  (its constraint rows, its cost), differentiated by CasADi through the map.

The decision vector and the constraint rows, their order, bounds and labels are exactly those
of the inlined transcriptions (documented in :mod:`.transcription`), so solutions, warm
starts and the failure diagnosis are the same.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import casadi as ca
import numpy as np

from .functions import Functions, dynamics, system_p
from .nlp import NLP
from .transcription import (
    Collocation,
    Inputs,
    MultipleShooting,
    Plan,
    _dynamics_labels,
    _globals,
    _input_ends,
    _inputs,
    _node_state,
    _path,
)

if TYPE_CHECKING:
    from .problem import TrajectoryProblem


def transcribe_mapped(transcription, prob: TrajectoryProblem, fns: Functions, nlp: NLP,
                      guess) -> Plan:
    """The Plan of ``transcription`` (Collocation, or MultipleShooting with a fixed-step
    integrator) built from one mapped per-interval function (module docstring)."""
    if isinstance(transcription, Collocation):
        return _collocation(transcription, prob, fns, nlp, guess)
    return _shooting(transcription, prob, fns, nlp, guess)


class _Rows:
    """The constraint blocks of one interval: SX rows while F is traced, then registered for
    each interval with labels and bounds."""

    def __init__(self):
        self.blocks = []   # (name, expr, labels(k), lower, upper)

    def add(self, name: str, expr, labels, lower=0.0, upper=0.0) -> None:
        if expr.numel():
            self.blocks.append((name, expr, labels, lower, upper))

    def register(self, nlp: NLP, outs: list, N: int) -> None:
        """Every interval's rows in the order of the inlined transcription."""
        for k in range(N):
            for (name, _, labels, lower, upper), out in zip(self.blocks, outs):
                nlp.constraint(name, out[:, k], labels(k), lower, upper)


def _symbols(prob: TrajectoryProblem, fns: Functions, n_v: int, n_u: int):
    s = prob.system
    return (ca.SX.sym("x_k", s.nx), ca.SX.sym("v_k", n_v), ca.SX.sym("u_k", n_u),
            ca.SX.sym("x_next", s.nx), ca.SX.sym("p", fns.L.nnz_in(3)), ca.SX.sym("T"),
            ca.SX.sym("k"))


def _path_rows(rows: _Rows, fns: Functions, where, t, x, u, p, T) -> None:
    if fns.c_lower.size:
        rows.add("path", fns.c(t, x, u, p, T),
                 lambda k: [f"{lab}, {where(k)}" for lab in fns.c_labels],
                 fns.c_lower, fns.c_upper)


def _map(prob, nlp: NLP, rows: _Rows, args: list, cost, columns: list, p, T) -> ca.MX:
    """Map F over the N intervals, register its rows; the total of its cost output."""
    N = prob.intervals
    F = ca.Function("interval", args, [*[b[1] for b in rows.blocks], cost],
                    ["x_k", "v_k", "u_k", "x_next", "p", "T", "k"],
                    [*[f"g{i}" for i in range(len(rows.blocks))], "cost"])
    outs = F.map(N, "serial")(*columns, p, T, ca.DM(np.arange(N)).T)
    rows.register(nlp, outs[:-1], N)
    return ca.sum2(outs[-1])


@dataclass
class Points:
    """A structured transcription's point function P(v) -> q (SX), its arguments at the M
    points (the columns of V, affine in the decision vector w: times, states and inputs are
    variables, p and T variables or constants) and the symbol q (nq × M) that stands for P's
    values in the constraints and the cost."""

    P: ca.Function
    V: ca.MX
    q: ca.MX

    def values(self) -> ca.MX:
        """P at every point: P mapped over the columns of V."""
        return self.P.map(self.V.size2(), "serial")(self.V)


def point_function(prob, fns: Functions) -> ca.Function:
    """P(v) = (f, L, c) at v = (t, x, u, p, T): dynamics, integral-cost integrand, path
    constraints; everything a collocation point evaluates."""
    s = prob.system
    nx, nu, n_p = s.nx, len(s.u_names), fns.L.nnz_in(3)
    v = ca.SX.sym("v", 1 + nx + nu + n_p + 1)
    t, x, u = v[0], v[1:1 + nx], v[1 + nx:1 + nx + nu]
    p, T = v[1 + nx + nu:1 + nx + nu + n_p], v[-1]
    q = ca.vertcat(dynamics(s)(t, x, u, system_p(p, s)), fns.L(t, x, u, p, T),
                   fns.c(t, x, u, p, T))
    return ca.Function("point", [v], [q], ["v"], ["q"])


def _collocation(colloc: Collocation, prob, fns: Functions, nlp: NLP, guess) -> Plan:
    """Collocation with P (dynamics, cost integrand, path constraints) at the N·d points as
    the symbol q: the rows and their order are those of Collocation.transcribe."""
    tau, C, D, B = colloc.coefficients()
    s, d, N, t0 = prob.system, colloc.degree, prob.intervals, prob.t0
    nx, nc = s.nx, fns.c_lower.size
    collocated = colloc.inputs is Inputs.COLLOCATED
    u_tau = tau[1:] if collocated else np.zeros(1)
    p, T = _globals(prob, nlp, guess)
    X, U, XC = _collocation_variables(colloc, prob, fns, nlp, guess, u_tau, p)
    h = T / N
    P = point_function(prob, fns)
    q = ca.MX.sym("q", P.nnz_out(0), N * d)
    columns, cost = [], 0
    for k in range(N):
        if not collocated:
            _path(fns, nlp, f"node {k}", t0 + k * h, X[k], U[k], p, T)
        else:
            _input_ends(prob, nlp, k, U[k], u_tau)
        Xc = ca.horzcat(X[k], ca.reshape(XC[k], nx, d))
        for j in range(1, d + 1):
            i, u_j = k * d + j - 1, (U[k][:, j - 1] if collocated else U[k])
            columns.append(ca.vertcat(t0 + (k + tau[j]) * h, Xc[:, j], u_j, p, T))
            nlp.constraint("collocation", h * q[:nx, i] - ca.mtimes(Xc, C[:, j]),
                           _dynamics_labels(prob, f"collocation point {j}:", k))
            if nc:
                nlp.constraint("path", q[nx + 1:, i], [f"{lab}, interval {k}, point {j}"
                                                       for lab in fns.c_labels],
                               fns.c_lower, fns.c_upper)
            cost += B[j] * h * q[nx, i]
        nlp.constraint("continuity", X[k + 1] - ca.mtimes(Xc, D),
                       _dynamics_labels(prob, "continuity", k))
    if not collocated:
        _path(fns, nlp, f"node {N}", t0 + T, X[-1], U[-1], p, T)
    cost += fns.E(t0 + T, X[-1], p, T)
    plan = Plan(ca.horzcat(*X), ca.horzcat(*U), u_tau, T, system_p(p, s), cost)
    plan.points = Points(P, ca.horzcat(*columns), q)
    return plan


def _collocation_variables(colloc, prob, fns, nlp: NLP, guess, u_tau, p):
    """Node states, inputs and collocation states in the order of Collocation.transcribe;
    the closure of a constrained plant at t0 right after x_0."""
    s, d, N, t0, Tg = prob.system, colloc.degree, prob.intervals, prob.t0, guess.T
    tau = colloc.coefficients()[0]
    X, U, XC = [_node_state(prob, nlp, 0, guess.x(t0)[:, 0])], [], []
    if fns.closure is not None:
        nlp.constraint("closure", fns.closure(X[0], system_p(p, s)), fns.closure_labels)
    for k in range(N):
        U.append(_inputs(prob, nlp, k, len(u_tau), guess.u(t0 + (k + u_tau) * Tg / N)))
        XC.append(nlp.variable(f"xc_{k}", [f"collocation state {n}, interval {k}, point {j}"
                                            for j in range(1, d + 1) for n in s.x_names],
                               np.tile(prob.x_limits.lower, d), np.tile(prob.x_limits.upper, d),
                               guess.x(t0 + (k + tau[1:]) * Tg / N).T.ravel()))
        X.append(_node_state(prob, nlp, k + 1, guess.x(t0 + (k + 1) * Tg / N)[:, 0]))
    return X, U, XC


def shooting_nodes(prob, fns: Functions, nlp: NLP, guess) -> tuple:
    """The globals p, T and the node states X[0..N] and inputs U[0..N-1] of fixed-step
    multiple shooting (with the closure at the first node), in the NLP's order: shared by the
    mapped and the compiled-knot transcriptions (:mod:`.knots`)."""
    s, N, t0, Tg = prob.system, prob.intervals, prob.t0, guess.T
    p, T = _globals(prob, nlp, guess)
    X, U = [_node_state(prob, nlp, 0, guess.x(t0)[:, 0])], []
    if fns.closure is not None:
        nlp.constraint("closure", fns.closure(X[0], system_p(p, s)), fns.closure_labels)
    for k in range(N):
        U.append(_inputs(prob, nlp, k, 1, guess.u(t0 + (k + np.zeros(1)) * Tg / N)))
        X.append(_node_state(prob, nlp, k + 1, guess.x(t0 + (k + 1) * Tg / N)[:, 0]))
    return p, T, X, U


def _shooting(shoot: MultipleShooting, prob, fns: Functions, nlp: NLP, guess) -> Plan:
    s, N, t0 = prob.system, prob.intervals, prob.t0
    nu = len(s.u_names)
    p, T, X, U = shooting_nodes(prob, fns, nlp, guess)
    x_k, v_k, u_k, x_next, p_s, T_s, k_s = args = _symbols(prob, fns, 0, nu)
    h = T_s / N
    rows = _Rows()
    _path_rows(rows, fns, lambda k: f"node {k}", t0 + k_s * h, x_k, u_k, p_s, T_s)
    step = shoot.shooting_function(prob, fns)(x0=x_k, p=ca.vertcat(u_k, p_s, t0 + k_s * h, h,
                                                                   T_s))
    rows.add("continuity", x_next - step["xf"],
             lambda k: _dynamics_labels(prob, "shooting continuity", k))
    columns = [ca.horzcat(*X[:-1]), ca.DM(0, N), ca.horzcat(*U), ca.horzcat(*X[1:])]
    total = _map(prob, nlp, rows, list(args), step["qf"], columns, p, T)
    _path(fns, nlp, f"node {N}", t0 + T, X[-1], U[-1], p, T)
    total += fns.E(t0 + T, X[-1], p, T)
    return Plan(ca.horzcat(*X), ca.horzcat(*U), np.zeros(1), T, system_p(p, s), total)
