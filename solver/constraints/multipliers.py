"""Stage 6 with Lagrange multipliers (DESIGN.md §3.7): the tree's equations in all joint speeds
w with the constraint forces Aᵀ·λ,

    M(y)·ẇ + k(y, w) = q(t, y, w, u) + A(y)ᵀ·λ,
    A·ẇ + Ȧ·w + 2α·A·w + β²·[c; 0] = 0,

where A = [C·N; B] are the independent velocity constraints (the implicit form), c the
independent closure equations, and α, β ≥ 0 Baumgarte's stabilization rates [1/s]
(J. Baumgarte, Comput. Methods Appl. Mech. Eng. 1, 1972). Solved for λ explicitly this is the
Baumgarte-stabilized ODE; kept implicit, with λ algebraic, it is an index-1 DAE for IDAS.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from ..equations.projection import solve_spd


@dataclass
class MultiplierEquations:
    """ẇ(λ), the acceleration-level constraint residual and the explicit λ, in (t, y, w, u, p)."""

    lam: ca.SX          # multiplier symbols
    wdot_of_lam: ca.SX  # M⁻¹·(q − k + Aᵀ·λ)
    alg: ca.SX          # acceleration-level constraint with ẇ(λ) substituted
    lam_explicit: ca.SX
    wdot: ca.SX         # ẇ with the explicit λ


def multiplier_equations(M, k, q, A, c_rows, y, w, ydot, alpha: float,
                         beta: float) -> MultiplierEquations:
    """Build the equations above; ``c_rows`` are the closure equations matching the first rows
    of A (the holonomic ones), ``ydot`` = N(y)·w."""
    m = A.shape[0]
    lam = ca.SX.sym("lambda", m)
    wdot_of_lam = solve_spd(M, q - k + ca.mtimes(A.T, lam))
    Aw = ca.mtimes(A, w)
    drift = ca.vertcat(c_rows, ca.SX.zeros(m - c_rows.numel()))
    bias = ca.jtimes(Aw, y, ydot) + 2 * alpha * Aw + beta ** 2 * drift
    alg = ca.mtimes(A, wdot_of_lam) + bias
    # Explicit λ: (A·M⁻¹·Aᵀ)·λ = −A·M⁻¹·(q − k) − bias, a symmetric positive definite system.
    MinvAT = solve_spd(M, A.T)
    free = solve_spd(M, q - k)
    lam_explicit = solve_spd(ca.mtimes(A, MinvAT), -ca.mtimes(A, free) - bias)
    wdot = free + ca.mtimes(MinvAT, lam_explicit)
    return MultiplierEquations(lam, wdot_of_lam, alg, lam_explicit, wdot)
