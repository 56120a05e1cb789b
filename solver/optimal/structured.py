"""The functions IPOPT calls, assembled from the blocks of a collocation's point function.

With q = P(v_i) at the M collocation points (:class:`.mapped.Points`), the constraints and
the cost are g(w, q), φ(w, q), and the point arguments v_i are affine in the decision vector
w, so V_w = ∂v/∂w is a constant matrix. With the Lagrangian ℓ(w, q) = σ·φ + λᵀ·g,
μ = ∂ℓ/∂q and Q_w = blockdiag(∂P/∂v_i)·V_w:

  ∂g/∂w  = g_w + g_q·Q_w
  ∇²ℒ    = ℓ_ww + ℓ_wqᵀ·Q_w + Q_wᵀ·ℓ_wq + Q_wᵀ·ℓ_qq·Q_w + V_wᵀ·blockdiag(∇²(μ_iᵀ·P)(v_i))·V_w

(chain rule; ℓ is linear in q but for the step h = T/N with a free horizon, so ℓ_qq is
usually structurally zero). The blocks ∂P/∂v and ∇²(μᵀ·P) are expanded SX functions of one
point (common subexpressions eliminated), mapped over the M points; the rest is sparse linear
algebra. Compiled, the Hessian of the parking example costs a fraction of the inlined form's
10.9 million instructions per evaluation. The names, inputs and outputs are those of CasADi's
IPOPT interface (``nlpsol.get_function``), so ``nlpsol`` loads them from a library.
"""
from __future__ import annotations

import casadi as ca

from .mapped import Points


def point_blocks(P: ca.Function) -> list[ca.Function]:
    """[P, ∂P/∂v, ∇²(μᵀ·P)] of one point, expanded SX (the Hessian with common
    subexpressions eliminated)."""
    v, mu = ca.SX.sym("v", P.nnz_in(0)), ca.SX.sym("mu", P.nnz_out(0))
    return [P, ca.Function("point_jac", [v], [ca.jacobian(P(v), v)], ["v"], ["jac"]),
            ca.Function("point_hess", [v, mu], [ca.cse(ca.hessian(ca.dot(mu, P(v)), v)[0])],
                        ["v", "mu"], ["hess"])]


def nlp_functions(w: ca.MX, g: ca.MX, cost: ca.MX, points: Points, exact_hessian: bool = True,
                  blocks: list | None = None, par: ca.MX | None = None) -> list[ca.Function]:
    """nlp, nlp_f, nlp_g, nlp_grad_f, nlp_jac_g, nlp_grad and (exact Hessian) nlp_hess_l,
    from ``blocks`` (default :func:`point_blocks`; compiled ones for code generation);
    ``par`` the NLP's parameters (problem parameters), an input beside w."""
    P_values, J_block, H_block = blocks or point_blocks(points.P)
    V, q = points.V, points.q
    M, nq = q.size2(), q.size1()
    qv, Q = ca.vec(q), ca.vec(P_values.map(M, "serial")(V))
    p = ca.MX.sym("p", 0, 1) if par is None else par
    lam_f, lam_g = ca.MX.sym("lam_f"), ca.MX.sym("lam_g", g.numel())
    V_w = ca.evalf(ca.jacobian(ca.vec(V), w))          # constant: V is affine in w
    Q_w = ca.mtimes(_block_diagonal(J_block.map(M, "serial")(V), J_block.sparsity_out(0), M),
                    V_w)

    def total(expr_w, expr_q):   # d/dw of an expression of (w, q): e_w + e_q·Q_w
        return expr_w + ca.mtimes(expr_q, Q_w)

    g_w, g_q = ca.jacobian(g, w), ca.jacobian(g, qv)
    f_w, f_q = ca.jacobian(cost, w), ca.jacobian(cost, qv)
    ell = lam_f * cost + ca.dot(lam_g, g)
    ell_w, ell_q = ca.gradient(ell, w), ca.gradient(ell, qv)

    def at_q(*exprs):            # q replaced by its values P(v(w))
        return ca.substitute(list(exprs), [qv], [Q])

    xp, names = [w, p], ["x", "p"]
    lam = [lam_f, lam_g]
    # dense values and gradients: CasADi's IPOPT interface copies them into dense arrays
    f_val, g_val, jac_g, grad_f, grad_l = at_q(ca.densify(cost), ca.densify(g),
                                                total(g_w, g_q),
                                                ca.densify(total(f_w, f_q).T),
                                                ca.densify(ell_w + ca.mtimes(Q_w.T, ell_q)))
    functions = [
        ca.Function("nlp", xp, [f_val, g_val], names, ["f", "g"]),
        ca.Function("nlp_f", xp, [f_val], names, ["f"]),
        ca.Function("nlp_g", xp, [g_val], names, ["g"]),
        ca.Function("nlp_grad_f", xp, [f_val, grad_f], names, ["f", "grad_f_x"]),
        ca.Function("nlp_jac_g", xp, [g_val, jac_g], names, ["g", "jac_g_x"]),
        ca.Function("nlp_grad", xp + lam, [f_val, g_val, grad_l, ca.MX(0, 0)],
                    names + ["lam_f", "lam_g"], ["f", "g", "grad_gamma_x", "grad_gamma_p"]),
    ]
    if exact_hessian:
        mu = ca.reshape(ell_q, nq, M)
        H_q = ca.mtimes(V_w.T, ca.mtimes(_block_diagonal(
            H_block.map(M, "serial")(V, mu), H_block.sparsity_out(0), M), V_w))
        ell_wq = ca.jacobian(ell_q, w)
        H = ca.jacobian(ell_w, w) + ca.mtimes(ell_wq.T, Q_w) + ca.mtimes(Q_w.T, ell_wq) + H_q
        ell_qq = ca.jacobian(ell_q, qv)
        if ell_qq.nnz():
            H += ca.mtimes(Q_w.T, ca.mtimes(ell_qq, Q_w))
        functions.append(ca.Function("nlp_hess_l", xp + lam, at_q(ca.triu(H)),
                                     names + ["lam_f", "lam_g"], ["triu_hess_gamma_x_x"]))
    return functions


def _block_diagonal(blocks: ca.MX, pattern: ca.Sparsity, count: int) -> ca.MX:
    """blockdiag(B_1 … B_count) from their horizontal concatenation (the output of a map):
    both store the same nonzeros in the same order, so only the pattern changes."""
    return ca.MX(ca.diagcat(*[pattern] * count), blocks.nz[:])
