"""Alias elimination: equations a = b between two unknowns (Modelica's ``T = port.T``, a
sensor without a drop) are removed and one symbol kept for the class of equal variables.

Besides shrinking the system, this is the cheap part of the index reduction: two
components that each put ``der()`` on their own variable, tied by aliases (two heat
capacitors on one node), share one state, whose derivative every ``der()`` of the class
becomes; other constraints between states go to :mod:`.index`. An equation x = c of a
node potential x (a Ground's p.v = 0, a FixedTemperature's port.T = T) puts the number c
for x when x is under no ``der()`` (a state's value is a constraint for the index
reduction) and no alias joins it (a class keeps its equation, so a conflict through an
alias, an op-amp's virtual short to the ground, still names the component of the alias);
flows keep their equations (an op-amp's in_n.i = 0), which messages name. The ground
potential that every component of a circuit reads is then no dense column of the
Jacobian.
"""
from __future__ import annotations

import casadi as ca

from .structure import Equation
from .variables import Table


def eliminate_aliases(table: Table, equations: list[Equation]) -> tuple[list, dict]:
    """The equations without the aliases, with every member of a class replaced by its
    representative (a differentiated member when there is one) or by the number an equation
    x = c gives the class; and {member hash: the representative's symbol or the number} of
    the members removed from ``table.unknowns``."""
    parent: dict = {}

    def find(h):
        while parent.get(h, h) != h:
            h = parent[h]
        return h

    kind = []   # per equation: None (kept), "alias", or (hash, value) of x = c
    for eq in equations:
        pair = _alias_pair(table, eq.expr)
        if pair is not None and find(pair[0]) != find(pair[1]):
            parent[find(pair[1])] = find(pair[0])
            kind.append("alias")
            continue   # (a repeated alias stays: the analysis names it as redundant)
        kind.append(None if pair is not None else _constant_binding(table, eq.expr))
    classes: dict = {}
    for h in list(parent):
        classes.setdefault(find(h), []).append(h)
    for root, members in classes.items():
        if root not in members:
            members.append(root)
    constant: dict = {}   # root -> its value, for classes that x = c fixes (a Ground)
    potentials = {sym.element_hash() for sym in table.potential.values()}
    for k, binding in enumerate(kind):
        if isinstance(binding, tuple):
            root = find(binding[0])
            if root in constant or root in classes or root in table.der or \
                    root not in potentials:
                kind[k] = None   # see the module docstring: stays an equation
            else:
                constant[root] = binding[1]
    kept = [eq for eq, k in zip(equations, kind) if k is None]
    if not parent and not constant:
        return equations, {}
    for root in constant:
        classes.setdefault(root, [root])
    alias, olds, news = {}, [], []
    created = {h: k for k, h in enumerate(table.unknowns)}   # the first declared names it
    for root, members in classes.items():
        order = sorted(members, key=lambda h: (h not in table.der, created[h]))
        rep = order[0]
        if root in constant:   # every member is the constant
            for h in order:
                alias[h] = constant[root]
                olds.append(table.unknowns[h].sym)
                news.append(constant[root])
                del table.unknowns[h]
            continue
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


def _constant_binding(table: Table, expr: ca.SX):
    """(hash, value) when ``expr`` is x or x − c of an unknown x (no derivative) and a number
    c: a Ground's p.v = 0, a FixedTemperature's port.T = T."""
    if expr.is_symbolic():
        h, c = expr.element_hash(), ca.SX(0)
    elif expr.is_op(ca.OP_SUB) and expr.dep(0).is_symbolic() and expr.dep(1).is_constant():
        h, c = expr.dep(0).element_hash(), ca.SX(float(expr.dep(1)))
    else:
        return None
    if h not in table.unknowns or h in table.rates:
        return None
    return h, c


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
