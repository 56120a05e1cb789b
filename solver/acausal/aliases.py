"""Alias elimination: equations a = b between two unknowns (Modelica's ``T = port.T``, a
sensor without a drop) are removed and one symbol kept for the class of equal variables.

Besides shrinking the system, this is the one index reduction the compiler does: two
components that each put ``der()`` on their own variable, tied by aliases (two heat
capacitors on one node, two capacitors in parallel), share one state, whose derivative
every ``der()`` of the class becomes. Constraints between states that are not aliases are
refused by the structural analysis (:mod:`.structure`).
"""
from __future__ import annotations

import casadi as ca

from .structure import Equation
from .variables import Table


def eliminate_aliases(table: Table, equations: list[Equation]) -> tuple[list, dict]:
    """The equations without the aliases, with every member of a class replaced by its
    representative (a differentiated member when there is one); and {member hash: the
    representative's symbol} of the members removed from ``table.unknowns``."""
    parent: dict = {}

    def find(h):
        while parent.get(h, h) != h:
            h = parent[h]
        return h

    kept = []
    for eq in equations:
        pair = _alias_pair(table, eq.expr)
        if pair is None or find(pair[0]) == find(pair[1]):
            kept.append(eq)     # a repeated alias stays: the analysis names it as redundant
            continue
        parent[find(pair[1])] = find(pair[0])
    if not parent:
        return equations, {}
    classes: dict = {}
    for h in list(parent):
        classes.setdefault(find(h), []).append(h)
    for root, members in classes.items():
        if root not in members:
            members.append(root)
    alias, olds, news = {}, [], []
    created = {h: k for k, h in enumerate(table.unknowns)}   # the first declared names it
    for members in classes.values():
        order = sorted(members, key=lambda h: (h not in table.der, created[h]))
        rep = order[0]
        for h in order[1:]:
            alias[h] = table.unknowns[rep].sym
            olds.append(table.unknowns[h].sym)
            news.append(table.unknowns[rep].sym)
            if h in table.der:    # its der() is the representative's
                d = table.der.pop(h)
                olds.append(d)
                news.append(table.der[rep])
                alias[d.element_hash()] = table.der[rep]
                del table.unknowns[d.element_hash()]
            del table.unknowns[h]
    old, new = ca.vertcat(*olds), ca.vertcat(*news)
    exprs = ca.substitute(ca.vertcat(*[eq.expr for eq in kept]), old, new)
    return [Equation(exprs[k], eq.owner, eq.text) for k, eq in enumerate(kept)], alias


def _alias_pair(table: Table, expr: ca.SX):
    """(a, b) hashes when ``expr`` is a − b of two unknowns (no derivatives), read from the
    expression's top operation (no CasADi function built per equation)."""
    if not expr.is_op(ca.OP_SUB):
        return None
    a, b = expr.dep(0), expr.dep(1)
    if not (a.is_symbolic() and b.is_symbolic()):
        return None
    keys = (a.element_hash(), b.element_hash())
    if any(k not in table.unknowns or k in table.rates for k in keys) or keys[0] == keys[1]:
        return None
    return keys
