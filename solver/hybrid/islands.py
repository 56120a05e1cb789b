"""Islands: groups of bodies that no equation couples (docs/hybrid.md, "Independent bodies").

A hundred balls in a box meet the walls, not each other: each ball's states, contact rows and
guards form an island that no other ball's equations read. Integrated as one system, every
event of any ball restarts the integration of all of them, so the cost grows with the number
of bodies times the number of events — N². Integrated island by island, each runs between its
own events only, and the cost is linear in N.

The islands are the connected components of a graph over the states, the hybrid rows and the
hybrid elements, with an edge wherever an expression structurally depends on another
quantity (CasADi's Jacobian sparsity of the SX expressions):

  ẋ_i of the smooth equations on x_j;  a row's terms (its line of the Delassus matrix, its
  right-hand side, J, M⁻¹·Jᵀ) on states, speeds and other rows;  guards, monitors, gaps and
  mode switches on states and on rows' forces;  M's entries on speeds and coordinates;
  a row, guard or monitor with its element;  an element's discrete variables with every
  expression that reads them.

Each island gets a restricted view of the System (:class:`IslandSystem`) with its own f,
``hybrid`` and ``impact`` functions built from the SX pieces the compiler keeps
(``hybrid_parts``, ``hybrid_others``, ``f_smooth``): the event loop runs on it unchanged.
Models that cannot be split this way (sampled blocks or user events that read the whole
state, closed loops under partitioning, the DAE method, an MX f) run as one island.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field, replace

import casadi as ca
import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from .dynamics import _functions
from .info import HybridInfo

_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()   # system -> islands


@dataclass
class Island:
    """One group of states (indices into x, increasing), rows, guards and monitors (indices
    into the System's hybrid lists) and hybrid elements."""

    x: np.ndarray
    rows: list[int] = field(default_factory=list)
    guards: list[int] = field(default_factory=list)
    monitors: list[int] = field(default_factory=list)
    elements: list = field(default_factory=list)


def splittable(system) -> bool:
    """True when the model's structure allows islands (module docstring)."""
    info, fns = getattr(system, "hybrid", None), getattr(system, "functions", {})
    return (info is not None and not info.samplers and not info.reads_rows
            and "hybrid_parts" in fns
            and "project" not in fns and fns["f_smooth"].is_a("SXFunction")
            and fns["hybrid_parts"].is_a("SXFunction") and fns["impact"].is_a("SXFunction"))


def island_systems(system) -> list:
    """The islands of ``system`` as IslandSystem views (cached per system); a list of one
    element, the system itself, when it does not split."""
    if system in _CACHE:
        return _CACHE[system]
    views = [system]
    if splittable(system):
        symbols = _Symbols(system)
        islands = find_islands(system, symbols)
        if len(islands) > 1 and all(i.x.size for i in islands):
            views = [IslandSystem(system, island, symbols) for island in islands]
    _CACHE[system] = views
    return views


class _Symbols:
    """The System's hybrid pieces evaluated once on full-size symbols (SX)."""

    def __init__(self, system):
        fns = system.functions
        nx, nu, npar = system.nx, len(system.u_names), len(system.p_names)
        nr = len(system.hybrid.rows)
        self.t, self.x = ca.SX.sym("t"), ca.SX.sym("x", nx)
        self.u, self.p, self.lam = ca.SX.sym("u", nu), ca.SX.sym("p", npar), ca.SX.sym("l", nr)
        args = (self.t, self.x, self.u, self.p)
        self.parts = dict(zip(fns["hybrid_parts"].name_out(), fns["hybrid_parts"](*args)))
        self.others = dict(zip(fns["hybrid_others"].name_out(),
                               fns["hybrid_others"](*args, self.lam)))
        self.f = fns["f_smooth"](*args)
        self.impact = dict(zip(fns["impact"].name_out(), fns["impact"](*args)))
        self.ny, self.nz = len(system.y_names), len(system.z_names)


def find_islands(system, sym: _Symbols) -> list[Island]:
    """The connected components of the dependency graph of the module docstring."""
    info = system.hybrid
    nx, nr, ne = system.nx, len(info.rows), len(info.elements)
    row0, el0 = nx, nx + nr
    element_of = {id(e): k for k, e in enumerate(info.elements)}
    edges: list[tuple[int, int]] = []

    def depend(out: ca.SX, node_of_line, wrt=("x", "lam")) -> None:
        """Edges from each line of ``out`` (a vector's entries, a matrix's rows) to the
        states (and rows' forces) its entries read."""
        if out.numel() == 0:
            return
        for var, base in ((sym.x, 0), (sym.lam, row0)):
            if var.numel() == 0 or ("x" if var is sym.x else "lam") not in wrt:
                continue
            r_, c_ = ca.jacobian_sparsity(_row_lines(out), var).get_triplet()
            edges.extend((node_of_line(_line(out, r)), base + c) for r, c in zip(r_, c_))

    def pattern(m: ca.SX, base_row: int, base_col: int) -> None:
        """Edges between the lines and columns of a matrix's nonzeros (entries that are the
        constant 0 do not count: a mass matrix may hold them structurally)."""
        r_, c_ = ca.sparsify(m).sparsity().get_triplet()
        edges.extend((base_row + a, base_col + b) for a, b in zip(r_, c_))

    ny, parts = sym.ny, sym.parts
    depend(sym.f, lambda i: i, ("x",))
    # K_reg = K + a diagonal of the Delassus matrix's: its pattern and its dependencies cover K's
    for key in ("K_reg", "r", "bias", "J"):
        depend(parts[key], lambda i: row0 + i, ("x",))
    pattern(parts["K_reg"], row0, row0)          # rows coupled through the Delassus matrix
    pattern(parts["J"], row0, ny)                # the speeds a row's velocity reads
    pattern(parts["MinvJT"], ny, row0)           # the speeds a row's force moves
    depend(parts["MinvJT"], lambda i: ny + i, ("x",))
    pattern(sym.impact["M"], ny, ny)
    depend(sym.impact["M"], lambda i: ny + i, ("x",))
    for key in ("gamma", "gap", "active"):
        depend(sym.others[key], lambda i: row0 + i)
    guards, monitors = info.guards, info.monitors
    depend(sym.others["guards"], lambda i: el0 + element_of[id(guards[i].owner)])
    depend(sym.others["monitors"], lambda i: el0 + element_of[id(monitors[i][0])])
    edges.extend((row0 + i, el0 + element_of[id(r.owner)]) for i, r in enumerate(info.rows))
    edges.extend(_discrete_edges(system, sym, row0, el0, element_of))
    n = nx + nr + ne
    a, b = (np.array([e[k] for e in edges] + list(range(n)), dtype=int) for k in (0, 1))
    graph = coo_matrix((np.ones(a.size), (a, b)), shape=(n, n))
    count, label = connected_components(graph, directed=False)
    return _assemble(info, label, count, nx, nr)


def _row_lines(m: ca.SX) -> ca.SX:
    """A matrix as the column of its entries, row after row (so entry k belongs to row
    k // ncols); a column vector as it is."""
    return ca.vec(m.T) if m.size2() > 1 else m


def _line(m: ca.SX, k: int) -> int:
    return k // m.size2() if m.size2() > 1 else k


def _discrete_edges(system, sym: _Symbols, row0: int, el0: int, element_of: dict) -> list:
    """An element's discrete variables tie it to every state and row whose terms read them
    (one sparsity pattern per expression, over all discrete variables at once)."""
    owner, d = [], []
    for element in system.hybrid.elements:
        for i in system.hybrid.discrete_index.get(element.path, {}).values():
            owner.append(el0 + element_of[id(element)])
            d.append(sym.p[i])
    if not d:
        return []
    d = ca.vertcat(*d)
    lines = [(sym.f, 0)] + [(sym.parts[k], row0) for k in ("K_reg", "r", "bias")] + \
        [(sym.others[k], row0) for k in ("gamma", "gap", "active")]
    out = []
    for expr, base in lines:
        if expr.numel() == 0:
            continue
        r_, c_ = ca.jacobian_sparsity(_row_lines(expr), d).get_triplet()
        out.extend((base + _line(expr, r), owner[c]) for r, c in zip(r_, c_))
    return out


def _assemble(info, label: np.ndarray, count: int, nx: int, nr: int) -> list[Island]:
    """Islands from the component labels; states without any hybrid element join one smooth
    island (integrated once, with no events of its own)."""
    islands: dict[int, Island] = {}
    smooth = Island(np.zeros(0, dtype=int))
    for c in range(count):
        members = np.flatnonzero(label == c)
        x = members[members < nx]
        rows = [int(m - nx) for m in members if nx <= m < nx + nr]
        elements = [info.elements[int(m - nx - nr)] for m in members if m >= nx + nr]
        if not elements:
            smooth.x = np.union1d(smooth.x, x).astype(int)
            continue
        ids = {id(e) for e in elements}
        islands[c] = Island(x, rows, [k for k, g in enumerate(info.guards)
                                      if id(g.owner) in ids],
                            [k for k, m in enumerate(info.monitors) if id(m[0]) in ids],
                            [e for e in info.elements if id(e) in ids])
    out = sorted(islands.values(), key=lambda i: info.elements.index(i.elements[0]))
    if smooth.x.size:
        out.append(smooth)
    return out


class IslandSystem:
    """A restricted view of a System for the event loop: the island's states, rows, guards,
    monitors and elements, with its own f, ``hybrid`` and ``impact`` (module docstring)."""

    def __init__(self, system, island: Island, sym: _Symbols):
        self.parent, self.island = system, island
        ny, nz = sym.ny, sym.nz
        names = system.x_names
        self.y_names = [names[i] for i in island.x if i < ny]
        self.z_names = [names[i] for i in island.x if ny <= i < ny + nz]
        self.s_names = [names[i] for i in island.x if i >= ny + nz]
        self.u_names, self.p_names = system.u_names, system.p_names
        self.driven_by = getattr(system, "driven_by", {})
        self.functions = _island_functions(system, island, sym)
        self.f = self.functions["f"]
        self.hybrid = _island_info(system.hybrid, island) if island.elements else None

    @property
    def x_names(self) -> list[str]:
        return self.y_names + self.z_names + self.s_names

    @property
    def nx(self) -> int:
        return len(self.island.x)

    def __repr__(self) -> str:
        return (f"<island of {self.parent!r}: {self.nx} states, "
                f"{len(self.island.rows)} rows, {len(self.island.elements)} elements>")


def _island_info(info: HybridInfo, island: Island) -> HybridInfo:
    local = {r: k for k, r in enumerate(island.rows)}
    rows = [replace(info.rows[r], friction_of=None if info.rows[r].friction_of is None
                    else local[info.rows[r].friction_of]) for r in island.rows]
    paths = {e.path for e in island.elements}
    index = {path: own for path, own in info.discrete_index.items() if path in paths}
    discrete = [n for n in info.discrete_names
                if any(n == f"{path}.{name}" for path, own in index.items() for name in own)]
    return HybridInfo(list(island.elements), rows, [info.guards[k] for k in island.guards],
                      [info.monitors[k] for k in island.monitors], discrete, index, [],
                      info.sources)


def _island_functions(system, island: Island, sym: _Symbols) -> dict:
    """f, hybrid and impact of one island, cut out of the full SX pieces: Functions whose
    inputs are the island's own state symbols (CasADi keeps only the expressions the outputs
    reach, and refuses any that read another island's states — a check of the split)."""
    ny, nz = sym.ny, sym.nz
    xi = island.x
    zs = [int(i - ny) for i in xi if ny <= i < ny + nz]
    R = island.rows
    t, x, u, p = sym.t, sym.x[[int(i) for i in xi]], sym.u, sym.p
    f_smooth = ca.Function("f_island", [t, x, u, p], [sym.f[[int(i) for i in xi]]],
                           ["t", "x", "u", "p"], ["xdot"])
    if not island.elements:   # the smooth island: no events of its own
        return {"f": f_smooth}
    # an island of guard-only elements (ElastoGap, a compliant stop) has no rows: the pieces
    # below are then empty, and ``hybrid`` still gives its guards and monitors
    P = sym.parts
    pieces = [P["K"][R, R], P["K_reg"][R, R], P["r"][R], P["MinvJT"][zs, R], P["J"][R, zs],
              P["bias"][R], P["zdot"][zs], P["S"][R, R]]
    parts = ca.Function("hybrid_parts", [t, x, u, p], pieces, ["t", "x", "u", "p"],
                        ["K", "K_reg", "r", "MinvJT", "J", "bias", "zdot", "S"])
    lam = sym.lam[R]
    O = sym.others
    others = ca.Function("hybrid_others", [t, x, u, p, lam],
                         [O["gamma"][R], O["gap"][R], O["guards"][island.guards],
                          O["monitors"][island.monitors], O["active"][R]],
                         ["t", "x", "u", "p", "lambda"],
                         ["gamma", "gap", "guards", "monitors", "active"])
    zero = ca.Function("dissipation", [t, x, u, p], [ca.SX(1, 1)], ["t", "x", "u", "p"],
                       ["P"])
    ny_i = sum(1 for i in xi if i < ny)
    out = _functions({"f": f_smooth, "dissipation": zero}, parts, others, ny_i, len(zs))
    I_ = sym.impact
    out["impact"] = ca.Function("impact", [t, x, u, p],
                                [I_["M"][zs, zs], I_["J"][R, zs], I_["gamma"][R],
                                 I_["active"][R]],
                                ["t", "x", "u", "p"], ["M", "J", "gamma", "active"])
    out.pop("dissipation")
    return out
