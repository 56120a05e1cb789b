"""One compiled function per knot (``ocp.build(jd.MultipleShooting(jd.Integrator.RK4),
codegen="knot")``): C whose size does not depend on the horizon.

The knot function K(x_k, u_k, p, T, k) -> (x_end, cost) holds what is expensive in one
shooting interval: ``steps`` RK4 steps of dx/dτ = h·f with the cost integral as a quadrature
of the same steps (the formulas of CasADi's ``rk`` integrator that
:class:`.transcription.MultipleShooting` uses). K is an MX function calling the System's f
and L, so its C holds each of them (and their derivatives) once, whatever ``steps``; fully
expanded SX, the Talos arm's one-step knot Jacobian alone was 6.3 MB of C and its exact
second derivatives 38 MB. f's derivatives are the recursive algorithms' where the model
allows (:mod:`.dynamics_derivatives`, CasADi's ``custom_jacobian``): on the Talos arm the
one-step knot Jacobian has 46k operations instead of 259k by AD of f, its exact second
derivatives 1.24M instead of 2.86M. The node terms, path constraints c and least-squares residuals r
(the Gauss–Newton Hessian's, as in :mod:`.transcription`), are small: they are mapped on the
virtual machine beside it.

The library holds K, ``jac_K`` and ``adj1_K`` (a gradient in one reverse sweep) and, for the
exact Hessian, ``jac_adj1_K``: the names CasADi's ``external`` looks for when it
differentiates, so the NLP is an MX graph of K mapped over the N knots (``Function.map``)
and the solver's own derivative functions (IPOPT's or fatrop's, derived by CasADi) call the
compiled code. It is compiled once and cached by the hash of the serialized functions
(:mod:`.compiled`); a cached library is loaded after checking that its functions have K's
sparsity patterns, a library just built after checking its values against K on the virtual
machine at the guess.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import casadi as ca
import numpy as np

from ..simulation import codegen
from .compiled import _write, library_path, loaded_checked
from .dynamics_derivatives import knot_dynamics
from .functions import Functions, system_p
from .mapped import _Rows, shooting_nodes
from .nlp import NLP
from .transcription import Plan, _dynamics_labels, _path


# gcc -O1 spends minutes of register allocation on one knot Jacobian of a robot (the Talos
# arm's 2.5 MB of C: over 5 min CPU, unfinished) that -O0 compiles in 7 s CPU; on a smaller
# library -O1 is affordable and pays: the UR5's (1.7 MB of C) compiles in 15 s CPU at -O1
# (4 s at -O0) and its Gauss–Newton solve takes 0.18 s instead of 0.49 s (the knot Jacobian
# runs 3x faster). The level follows the size of the C (knot_options).
KNOT_FLAGS = ("-O0",)
KNOT_O1_FLAGS = ("-O1",)
KNOT_O1_BYTES = 2_000_000


def knot_function(prob, fns: Functions, steps: int, derivatives: str = "auto") -> ca.Function:
    """K(x, u, p, T, k) -> (x_end, cost) of one interval (module docstring); f's derivatives
    in K's by the recursive algorithms or CasADi's AD of f (``derivatives``, as
    :func:`.dynamics_derivatives.knot_dynamics`)."""
    s, N, t0 = prob.system, prob.intervals, prob.t0
    f = knot_dynamics(s, derivatives)
    x, u = ca.MX.sym("x", s.nx), ca.MX.sym("u", len(s.u_names))
    p, T, k = ca.MX.sym("p", fns.L.nnz_in(3)), ca.MX.sym("T"), ca.MX.sym("k")
    h = T / N
    t_k, dtau = t0 + k * h, 1.0 / steps
    ps = system_p(p, s)

    def rate(tau, xs):     # d(x, q)/dτ on the normalized interval
        t = t_k + tau * h
        return h * f(t, xs, u, ps), h * fns.L(t, xs, u, p, T)

    xs, q = x, 0
    for i in range(steps):
        tau = i * dtau
        k1, l1 = rate(tau, xs)
        k2, l2 = rate(tau + dtau / 2, xs + dtau / 2 * k1)
        k3, l3 = rate(tau + dtau / 2, xs + dtau / 2 * k2)
        k4, l4 = rate(tau + dtau, xs + dtau * k3)
        xs = xs + dtau / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        q = q + dtau / 6 * (l1 + 2 * l2 + 2 * l3 + l4)
    return ca.Function("K", [x, u, p, T, k], [xs, q], ["x", "u", "p", "T", "k"],
                       ["x_end", "cost"])


def library_functions(K: ca.Function, second_order: bool) -> list[ca.Function]:
    """K and the derivative functions ``external`` looks up by name (module docstring)."""
    functions = [K, K.jacobian(), K.reverse(1)]
    if second_order:
        functions.append(functions[-1].jacobian())
    return functions


def compiled_knot(K: ca.Function, second_order: bool, guess_args: list,
                  options: codegen.CodegenOptions | None = None) -> ca.Function | None:
    """``external`` K from the cache or compiled now, checked (module docstring); None (with
    a warning) when it cannot be built or does not agree, and the virtual machine stays."""
    functions = library_functions(K, second_order)
    rng = np.random.default_rng(0)

    def args_of(_, fn):
        return guess_args + [rng.uniform(-1, 1, fn.sparsity_in(i).shape)
                             for i in range(len(guess_args), fn.n_in())]

    ours = loaded_checked(functions, options or knot_options(functions), args_of,
                          "knot library")
    return None if ours is None else ours[0]


def knot_options(functions: list[ca.Function]) -> codegen.CodegenOptions:
    """gcc -O1 for a knot library of at most KNOT_O1_BYTES of C, -O0 above (the comment at
    KNOT_FLAGS). A library already in the cache at either level is used as it is, so a cached
    build writes no C; otherwise the C is written once to measure it."""
    fast, safe = (codegen.CodegenOptions(flags=f) for f in (KNOT_O1_FLAGS, KNOT_FLAGS))
    for opts in (fast, safe):
        if library_path(functions, opts).exists():
            return opts
    with tempfile.TemporaryDirectory() as tmp:
        size = Path(_write(functions, Path(tmp))).stat().st_size
    return fast if size <= KNOT_O1_BYTES else safe


def transcribe_knots(prob, fns: Functions, nlp: NLP, guess, K: ca.Function) -> Plan:
    """Fixed-step multiple shooting with K (SX-free MX, or its compiled ``external``) mapped
    over the N knots: the decision vector and the constraint rows, their order, bounds and
    labels, are those of :meth:`.transcription.MultipleShooting.transcribe`."""
    s, N, t0 = prob.system, prob.intervals, prob.t0
    nu = len(s.u_names)
    p, T, X, U = shooting_nodes(prob, fns, nlp, guess)
    columns = [ca.horzcat(*X[:-1]), ca.horzcat(*U)[:nu, :], p, T]
    x_end, cost = K.map(N, "serial")(*columns, ca.DM(np.arange(N)).T)
    # node terms, small: mapped on the virtual machine, beside the compiled knots
    times = t0 + ca.DM(np.arange(N)).T * (T / N)
    r = ca.sqrt(T / N) * fns.R.map(N, "serial")(times, *columns)
    rows = _Rows()
    if fns.c_lower.size:
        c = fns.c.map(N, "serial")(times, *columns)
        rows.add("path", c, lambda k: [f"{lab}, node {k}" for lab in fns.c_labels],
                 fns.c_lower, fns.c_upper)
    rows.add("continuity", ca.horzcat(*X[1:]) - x_end,
             lambda k: _dynamics_labels(prob, "shooting continuity", k))
    rows.register(nlp, [b[1] for b in rows.blocks], N)
    _path(fns, nlp, f"node {N}", t0 + T, X[-1], U[-1], p, T)
    total = ca.sum2(cost) + fns.E(t0 + T, X[-1], p, T)
    residuals = ca.vertcat(ca.vec(r), fns.Rf(t0 + T, X[-1], p, T))
    return Plan(ca.horzcat(*X), ca.horzcat(*U), np.zeros(1), T, system_p(p, s), total,
                residuals=residuals)


def guess_arguments(prob, fns: Functions, guess) -> list:
    """K's arguments at the first node of the initial guess (the check of a fresh library)."""
    s = prob.system
    x0 = np.asarray(guess.x(prob.t0)[:, 0], dtype=float)
    u0 = np.asarray(guess.u(prob.t0 + np.zeros(1)), dtype=float).ravel()[:len(s.u_names)]
    p = np.concatenate([np.asarray(prob.p_values, dtype=float).ravel(),
                        prob.parameter_vector()]) if fns.L.nnz_in(3) else np.zeros(0)
    return [x0, u0, p[:fns.L.nnz_in(3)], float(guess.T), 0.0]
