"""The whole system solved block by block in linear time (the BLT order of :mod:`.structure`).

The work per equation is kept to a few CasADi calls for the whole system, not per block
(building a CasADi function per block costs ~0.5 ms, the bulk of the time at 1,000
components): one Jacobian J = ∂F/∂X of all equations, the residuals at X = 0, and the
dependency of J's entries on X tell which equations are linear. A block of linear equations
is then A·z + Σ J_known·x_known + F(0) = 0, assembled from J's entries with SX arithmetic
and solved by :func:`.solve.linear_values`; a block with a nonlinear equation goes to
:func:`.solve.solve_block` (tearing, Newton inside f). Each block's solution is written in
the symbols of the unknowns solved before it; ``substitute_inplace`` resolves the linear
blocks' definitions into each other in one call per run of linear blocks (between two
nonlinear ones, whose rootfinder call nodes it would drop).
"""
from __future__ import annotations

import re

import casadi as ca
import numpy as np

from .solve import linear_values, solve_block


def jacobian_structure(equations: list, columns: list) -> tuple:
    """J = ∂F/∂X (SX), its entries per row [(column, entry index)], F at X = 0, and the
    rows that are nonlinear in X."""
    F = ca.vertcat(*[eq.expr for eq in equations])
    X = ca.vertcat(*columns) if columns else ca.SX(0, 1)
    J = ca.jacobian(F, X)
    rows_of, cols_of = J.sparsity().get_triplet()
    entries = J.nonzeros()
    per_row: list = [[] for _ in range(len(equations))]
    for k, (i, j) in enumerate(zip(rows_of, cols_of)):
        per_row[i].append((j, k))
    nonlinear = set()
    if entries and columns:
        dep = ca.jacobian_sparsity(ca.vertcat(*entries), X)
        nonlinear = {rows_of[k] for k in set(dep.get_triplet()[0])}
    R0 = ca.substitute(F, X, ca.DM.zeros(len(columns))) if columns else F
    return entries, per_row, R0, nonlinear


def solve_all(equations: list, unknowns: dict, order: list, structure: tuple,
              column: dict) -> dict:
    """{unknown hash: value} in the states, externals and parameters (module docstring);
    ``column``: unknown hash -> its column in the Jacobian of ``structure``."""
    entries, per_row, R0, nonlinear = structure
    syms = [unknowns[h].sym for h in column]
    resolved: dict = {}
    pending: list = []    # (symbol, definition) of linear blocks not yet resolved
    for number, (rows, hashes) in enumerate(order):
        z = [unknowns[h].sym for h in hashes]
        where = [equations[i] for i in rows]
        values = None
        if not any(i in nonlinear for i in rows):
            local = {column[h]: k for k, h in enumerate(hashes)}
            A, b = {}, []
            for r, i in enumerate(rows):
                rhs = R0[i]
                for j, k in per_row[i]:
                    if j in local:
                        A[(r, local[j])] = entries[k]
                    else:
                        rhs = rhs + entries[k] * syms[j]
                b.append(rhs)
            values = linear_values(A, b, where)
        if values is not None:
            pending += list(zip(z, values))
            continue
        _flush(pending, resolved)
        r = ca.vertcat(*[eq.expr for eq in where])
        guess = [unknowns[h].start for h in hashes]
        values = solve_block(r, z, where, guess, loop_name(number, where))
        solved = resolve([ca.vertcat(*values)], resolved)[0]
        for s, v in zip(z, _split(solved, len(z))):
            resolved[s.element_hash()] = v
    _flush(pending, resolved)
    if all(not any(i in nonlinear for i in rows) for rows, _ in order):
        _canonical(resolved)
    return resolved


def _canonical(resolved: dict) -> None:
    """Each value of an all-linear system rewritten as Σ a_j·k_j + r with its numeric
    coefficients on the quantities it reads (states, externals, placeholders), once: the
    chain of one-unknown blocks (KCL, then Ohm's law, node by node) otherwise leaves a
    negation and a division per node in f, where modified nodal analysis has the sum."""
    if not resolved:
        return
    keys = list(resolved)
    V = ca.vertcat(*[resolved[h] for h in keys])
    K = ca.vertcat(*ca.symvar(V))
    if K.numel() == 0:
        return
    J = ca.jacobian(V, K)
    entries = J.nonzeros()
    if entries and not all(e.is_constant() for e in entries):
        return    # symbolic parameters: keep the expressions as solved
    R0 = ca.substitute(V, K, ca.DM.zeros(K.numel()))
    Jn = ca.DM(J)
    out = ca.mtimes(Jn, K) + R0
    for k, h in enumerate(keys):
        resolved[h] = out[k]


def loop_name(number: int, where: list) -> str:
    """The rootfinder's name: ``acausal_loop_<n>_in_<component>_and_<component>`` (a CasADi
    function name: letters, digits, single underscores), so the simulation's diagnosis can
    name the components of a loop whose Newton iteration failed."""
    paths = list(dict.fromkeys(eq.owner.path for eq in where if eq.owner is not None))[:3]
    tail = "_and_".join(re.sub(r"_+", "_", re.sub(r"\W", "_", p)).strip("_") for p in paths)
    return f"acausal_loop_{number}_in_{tail}" if tail else f"acausal_loop_{number}"


def _split(expr: ca.SX, n: int) -> list:
    return [expr[k] for k in range(n)] if n > 1 else [expr]


def _flush(pending: list, resolved: dict) -> None:
    """Resolve the pending linear definitions into each other (``substitute_inplace``, which
    must not see the rootfinders' call nodes: it drops them) and then the values resolved
    before (``substitute``, which keeps them)."""
    if not pending:
        return
    names = ca.vertcat(*[s for s, _ in pending])
    defs, _ = ca.substitute_inplace([names], [ca.vertcat(*[d for _, d in pending])], [],
                                    False)
    out = resolve([defs[0]], resolved)[0]
    for k, (s, _) in enumerate(pending):
        resolved[s.element_hash()] = out[k] if len(pending) > 1 else out
    pending.clear()


def resolve(exprs: list, value: dict) -> list:
    """Each expression with the solved unknowns substituted (one call for all)."""
    if not exprs:
        return []
    stacked = ca.vertcat(*[ca.reshape(ca.SX(e), -1, 1) for e in exprs])
    found = [s for s in ca.symvar(stacked) if s.element_hash() in value]
    if found:
        stacked = ca.substitute(stacked, ca.vertcat(*found),
                                ca.vertcat(*[value[s.element_hash()] for s in found]))
    sizes = np.cumsum([0] + [ca.SX(e).numel() for e in exprs])
    return [stacked[int(a):int(b)] if b - a != 1 else stacked[int(a)]
            for a, b in zip(sizes[:-1], sizes[1:])]
