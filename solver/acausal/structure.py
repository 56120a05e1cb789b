"""Structural analysis of the acausal equations (Pantelides 1988; Duff and Reid 1978):

* **matching**: every unknown (the derivatives of the states and the algebraic variables)
  is assigned one equation that determines it: a maximum bipartite matching (networkx's
  Hopcroft–Karp, O(E·√V)); a matching that leaves an equation or an unknown alone makes the
  system structurally singular, refused with the components, variables and equations
  involved (the Dulmage–Mendelsohn parts reached by alternating paths);
* **BLT**: the equations in the order they are solved, as strongly connected components of
  the dependency graph (Tarjan, through networkx), each a block solved together
  (:mod:`.blocks`).

A constraint between states (index > 1) is differentiated before the BLT (:mod:`.index`,
Pantelides and dummy derivatives); what is left unmatched after it is over-determined or
under-determined, and named so.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import networkx as nx
import numpy as np

from jourdain.blocks.errors import ModelError


@dataclass
class Equation:
    """A residual and who wrote it (for messages)."""

    expr: ca.SX
    owner: object          # a component, or None for a connection equation
    text: str              # what it says, in the user's terms ("equation 2": its residual)

    def where(self) -> str:
        text = self.text
        if text.startswith("equation "):   # the residual printed only for a message
            body = str(self.expr)
            text = f"{text}: 0 = {body if len(body) < 90 else body[:87] + '…'}"
        return f"{self.owner.path}: {text}" if self.owner is not None else text


def incidence(equations: list, unknowns: set) -> list[list[int]]:
    """Per equation, the element hashes of the unknowns it reads."""
    return [[h for h in (s.element_hash() for s in ca.symvar(eq.expr)) if h in unknowns]
            for eq in equations]


def matching(equations: list, unknowns: dict, inc: list) -> dict:
    """A maximum matching {("e", i): ("u", h), ("u", h): ("e", i)} (Hopcroft–Karp, scipy's,
    on indices: deterministic, where networkx's iterates sets of hashed nodes and so may
    blame a different equation of an over-determined set from one run to the next)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching

    column = {h: j for j, h in enumerate(unknowns)}
    hashes = list(unknowns)
    rows = [i for i, row in enumerate(inc) for h in row]
    cols = [column[h] for row in inc for h in row]
    graph = csr_matrix((np.ones(len(rows)), (rows, cols)),
                       shape=(len(equations), len(hashes)))
    graph.sum_duplicates()
    if not len(equations) or not hashes:
        return {}
    found = maximum_bipartite_matching(graph, perm_type="column")
    match = {}
    for i, j in enumerate(found):
        if j >= 0:
            match[("e", i)] = ("u", hashes[j])
            match[("u", hashes[j])] = ("e", i)
    return match


def blt(equations: list, unknowns: dict, states: dict, inc: list | None = None,
        match: dict | None = None) -> list[tuple[list[int], list[int]]]:
    """Blocks (equation indices, unknown hashes) in solving order, or a ModelError
    (module docstring). ``unknowns``: hash -> Unknown (without the states); ``states``:
    hash -> Unknown of the states; ``inc``: the incidence when known (else computed);
    ``match``: the matching when known (else computed)."""
    inc = incidence(equations, set(unknowns)) if inc is None else inc
    match = matching(equations, unknowns, inc) if match is None else match
    free_eq = [i for i in range(len(equations)) if ("e", i) not in match]
    free_u = [h for h in unknowns if ("u", h) not in match]
    if free_eq or free_u:
        raise ModelError(_singular(equations, unknowns, states, inc, match, free_eq, free_u))
    solves = {i: match[("e", i)][1] for i in range(len(equations))}
    by_unknown = {h: i for i, h in solves.items()}
    deps = nx.DiGraph()
    deps.add_nodes_from(range(len(equations)))
    deps.add_edges_from((by_unknown[h], i) for i, row in enumerate(inc) for h in row
                        if by_unknown[h] != i)
    cond = nx.condensation(deps)
    order = []
    for node in nx.topological_sort(cond):
        members = sorted(cond.nodes[node]["members"])
        order.append((members, [solves[i] for i in members]))
    return order


def _singular(equations, unknowns, states, inc, match, free_eq, free_u) -> str:
    """The message of a structurally singular system, in the components' terms."""
    users = {}
    for i, row in enumerate(inc):
        for h in row:
            users.setdefault(h, []).append(i)
    lines = ["the acausal equations are structurally singular "
             f"({len(equations)} equations for {len(unknowns)} unknowns):"]
    if free_u:
        reach_u, reach_e = _alternating(free_u, users, match)
        names = ", ".join(unknowns[h].name for h in free_u[:6])
        comps = _owners([unknowns[h].owner for h in reach_u] +
                        [equations[i].owner for i in reach_e])
        lines.append(f"* an equation is missing: nothing determines {names}"
                     f"{' …' if len(free_u) > 6 else ''} (components involved: {comps}); "
                     "add the missing equation, fix the potential of a floating network "
                     "(a FixedTemperature, a Ground, a fixed pressure) or connect the port")
    for i in free_eq[:4]:
        eq = equations[i]
        read = [unknowns[h].name for h in inc[i]]
        tied = [states[s.element_hash()].name for s in ca.symvar(eq.expr)
                if s.element_hash() in states]
        if not read and tied:
            lines.append(f"* the equation {eq.where()} relates only states ({', '.join(tied)}),"
                         " whose values are already known, and index reduction could not "
                         "make it determine one of them: the constraint contradicts or "
                         "repeats another; remove one of them or put a conductor or resistor "
                         "between the components")
            continue
        others = sorted({equations[match[("u", h)][1]].where() for h in inc[i]
                         if ("u", h) in match})
        comps = _owners([equations[k].owner for k in _overdetermined(i, inc, match)])
        lines.append(f"* the equation {eq.where()} is redundant or conflicting: its unknowns "
                     f"({', '.join(read) or 'none'}) are already determined by "
                     f"{'; '.join(others[:4]) or 'other equations'} (components involved: "
                     f"{comps}); remove one of them or check the components' equations (one "
                     "per variable a component introduces) and their connections")
    return "\n".join(lines)


def _alternating(free_u, users, match) -> tuple[set, set]:
    """Unknowns and equations reached from the unmatched unknowns by alternating paths (the
    under-determined part of the Dulmage–Mendelsohn decomposition)."""
    seen_u, seen_e, todo = set(free_u), set(), list(free_u)
    while todo:
        h = todo.pop()
        for i in users.get(h, []):
            if i in seen_e:
                continue
            seen_e.add(i)
            nxt = match.get(("e", i))
            if nxt is not None and nxt[1] not in seen_u:
                seen_u.add(nxt[1])
                todo.append(nxt[1])
    return seen_u, seen_e


def _overdetermined(start: int, inc, match) -> set:
    """Equations reached from an unmatched equation by alternating paths (the
    over-determined part of the Dulmage–Mendelsohn decomposition)."""
    seen, todo = {start}, [start]
    while todo:
        for h in inc[todo.pop()]:
            nxt = match.get(("u", h))
            if nxt is not None and nxt[1] not in seen:
                seen.add(nxt[1])
                todo.append(nxt[1])
    return seen


def _owners(items) -> str:
    paths = list(dict.fromkeys(c.path for c in items if c is not None))
    return ", ".join(paths[:8]) + (" …" if len(paths) > 8 else "")
