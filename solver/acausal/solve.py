"""Each block of the BLT form solved for its unknowns, in terms of the states, the externals
and the parameters (no algebraic unknown is left in f):

* a block **linear** in its unknowns with a numeric matrix (the usual case: conductances,
  resistances) is eliminated by a sparse LU of the matrix (the columns of its inverse that
  meet a non-zero right side, as the electrical network's nodal analysis does);
* a linear block with a symbolic matrix of at most ``SYMBOLIC_SOLVE`` unknowns by CasADi's
  symbolic solve;
* any other block (nonlinear: a diode, an orifice) is **torn**: the equations that are
  linear in their matched unknown with a coefficient free of the block's unknowns are solved
  explicitly in a causal order; the unknowns left (tearing variables, chosen greedily so the
  explicit part has no cycle) are found by Newton's method inside f, a CasADi
  ``fast_newton`` rootfinder, which CasADi writes as C (code generation, FMU export).
  Newton starts from the variables' ``start()`` values (zeros unless given).
"""
from __future__ import annotations

import casadi as ca
import networkx as nx
import numpy as np

from jourdain.blocks.errors import ModelError

SYMBOLIC_SOLVE = 12     # largest linear block with a symbolic matrix solved in closed form
DENSE = 60              # largest numeric block inverted densely
ZERO_TOL = 1e-12        # inverse entries below ZERO_TOL·max are round-off zeros
SINGULAR = 1e-14        # reciprocal condition (pivot ratio) below which a block is singular
NEWTON = {"abstol": 1e-12, "abstolStep": 1e-14, "max_iter": 100, "error_on_fail": True}


def substitute_known(expr: ca.SX, value: dict) -> ca.SX:
    """``expr`` with the unknowns already solved replaced by their values (only those it
    reads, so each block costs its own size)."""
    syms = [s for s in ca.symvar(expr) if s.element_hash() in value]
    if not syms:
        return expr
    return ca.substitute(expr, ca.vertcat(*syms),
                         ca.vertcat(*[value[s.element_hash()] for s in syms]))


def solve_block(r: ca.SX, z: list, where: list, guess: list[float], name: str) -> list:
    """Values of the unknowns ``z`` (symbols) that zero the residuals ``r`` (module
    docstring); ``where``: the block's equations, for messages."""
    zv = ca.vertcat(*z)
    J = ca.jacobian(r, zv)
    if not ca.depends_on(J, zv):
        r0 = ca.substitute(r, zv, ca.DM.zeros(len(z)))
        A = {(i, j): J[i, j] for i in range(len(z)) for j in range(len(z))
             if J.sparsity().has_nz(i, j)}
        values = linear_values(A, [r0[i] for i in range(len(z))], where)
        if values is not None:
            return values
    return _torn(r, z, guess, name)


def linear_values(A: dict, b: list, where: list) -> list | None:
    """The solution z of A·z + b = 0 (A: {(row, column): SX entry}), or None when the
    matrix is symbolic and too large for a closed form (the caller tears the block)."""
    n = len(b)
    if all(a.is_constant() for a in A.values()):
        return _numeric_linear(A, n, b, where)
    if n == 1:
        return [-b[0] / A[(0, 0)]]
    if n <= SYMBOLIC_SOLVE:
        S = ca.SX(n, n)
        for (i, j), a in A.items():
            S[i, j] = a
        sol = ca.solve(S, -ca.vertcat(*b))
        return [sol[k] for k in range(n)]
    return None


def _numeric_linear(A: dict, n: int, b: list, where: list) -> list:
    from scipy.sparse import csc_matrix

    if n == 1:
        a = float(A.get((0, 0), 0.0))
        if a == 0.0:
            raise ModelError(f"the equation {where[0].where()} does not determine its unknown "
                             "(its coefficient is 0); check the component's parameters")
        return [_scaled(b[0], -1.0 / a)]
    keys = list(A)
    M = csc_matrix(([float(A[k]) for k in keys], ([k[0] for k in keys], [k[1] for k in keys])),
                   shape=(n, n))
    live = [i for i in range(n) if not (b[i].is_constant() and float(b[i]) == 0)]
    X = _columns_of_inverse(M, live, where)   # checks M even when nothing drives the block
    if not live:
        return [ca.SX(0)] * n
    sol = ca.mtimes(ca.DM(-X), ca.vertcat(*[b[i] for i in live]))   # no negation per entry
    return [sol[k] for k in range(n)]


def _scaled(expr: ca.SX, k: float) -> ca.SX:
    """k·expr with the sign pushed into expr's top operation where that costs nothing
    (−(x − y) = y − x, −(−x) = x, (x/c)·k = x·(k/c)): the chain of one-unknown blocks of a
    circuit (a KCL, then Ohm's law) would otherwise add a negation per node to f."""
    if k == 1.0:
        return expr
    if expr.is_op(ca.OP_DIV) and expr.dep(1).is_constant():
        return _scaled(expr.dep(0), k / float(expr.dep(1)))
    if expr.is_op(ca.OP_MUL) and expr.dep(1).is_constant():
        return _scaled(expr.dep(0), k * float(expr.dep(1)))
    if k == -1.0:
        if expr.is_op(ca.OP_SUB):
            return expr.dep(1) - expr.dep(0)
        if expr.is_op(ca.OP_NEG):
            return expr.dep(0)
        return -expr
    return expr * k


def _columns_of_inverse(A, columns: list[int], where: list):
    """Columns of A⁻¹ (dense up to DENSE unknowns, else a sparse LU), round-off zeros
    removed; a singular A is a ModelError naming its equations."""
    from scipy.sparse import csc_matrix
    from scipy.sparse.linalg import splu

    try:
        if A.shape[0] <= DENSE:
            dense = A.toarray()
            if np.linalg.cond(dense) > 1 / SINGULAR:
                raise np.linalg.LinAlgError
            X = np.linalg.solve(dense, np.eye(A.shape[0])[:, columns])
        else:
            lu = splu(A)
            pivots = np.abs(lu.U.diagonal())
            if pivots.min() <= SINGULAR * pivots.max():
                raise np.linalg.LinAlgError
            X = lu.solve(np.eye(A.shape[0])[:, columns])
    except (np.linalg.LinAlgError, RuntimeError):
        raise ModelError("the linear acausal equations " + "; ".join(
            eq.where() for eq in where[:6]) + (" …" if len(where) > 6 else "") +
            " are singular (e.g. a loop of sources, or a network part whose potential "
            "nothing fixes); check the connections of these components") from None
    top = max(1.0, float(np.abs(X).max())) if X.size else 1.0
    X[np.abs(X) < ZERO_TOL * top] = 0.0
    return csc_matrix(X)


def _torn(r: ca.SX, z: list, guess: list[float], name: str) -> list:
    """Tearing + Newton (module docstring); equation k is matched to unknown z[k]."""
    n = len(z)
    index = {s.element_hash(): k for k, s in enumerate(z)}
    zv = ca.vertcat(*z)
    reads = [{index[s.element_hash()] for s in ca.symvar(r[k]) if s.element_hash() in index}
             for k in range(n)]
    tears = set()
    for k in range(n):
        a = ca.jacobian(r[k], z[k])
        if ca.depends_on(a, zv) or a.is_zero():
            tears.add(k)
    while True:
        graph = nx.DiGraph()
        graph.add_nodes_from(k for k in range(n) if k not in tears)
        graph.add_edges_from((k, j) for j in graph for k in reads[j] if k in graph and k != j)
        loops = [c for c in nx.strongly_connected_components(graph) if len(c) > 1]
        if not loops:
            break
        for loop in loops:   # the unknown that most of the loop reads or is read by
            tears.add(max(sorted(loop), key=lambda k: graph.in_degree(k) + graph.out_degree(k)))
    value: dict = {}
    for j in nx.topological_sort(graph):
        rj = substitute_known(r[j], value)
        a = ca.jacobian(rj, z[j])
        value[z[j].element_hash()] = -ca.substitute(rj, z[j], 0) / a
    torn = sorted(tears)
    T = ca.vertcat(*[z[k] for k in torn])
    res = substitute_known(ca.vertcat(*[r[k] for k in torn]), value)
    known = [s for s in ca.symvar(res) if s.element_hash() not in
             {z[k].element_hash() for k in torn}]
    K = ca.vertcat(*known) if known else ca.SX(0, 1)
    g = ca.Function(f"{name}_residual", [T, K], [res])
    newton = ca.rootfinder(name, "fast_newton", g, NEWTON)
    T_sol = newton(ca.DM([guess[k] for k in torn]), K)
    out = []
    for k in range(n):
        if k in tears:
            out.append(T_sol[torn.index(k)])
        else:
            out.append(ca.substitute(value[z[k].element_hash()], T, T_sol))
    return out
