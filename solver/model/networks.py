"""The acausal electrical network (DESIGN.md §6, docs/domains.md): connected pins form nodes,
two-pin components are branches, and modified nodal analysis gives every branch voltage and
current as a linear function of the branch values that are known at any instant.

Known at any instant are the values of the **voltage branches** (sources, capacitor voltages
and EMFs: states, signals, speeds) and of the **current branches** (sources, inductor currents:
states, signals); resistors relate their voltage and current. With the capacitor voltages and
inductor currents as states, the unknowns (node potentials e, currents of the voltage
branches) solve one linear system

    [G  B] [e  ]   [−A_I·J]
    [Bᵀ 0] [i_V] = [  V   ]      (G: conductances, B, A_I: incidences),

so no algebraic unknown is left in f: the network reduces to ODEs coupled with the mechanics.
The system is uniquely solvable (R > 0) exactly when the network is well posed, which networkx
checks on the graph of nodes and branches, naming the components at fault:

* every connected part of the circuit holds a Ground (else its potentials float);
* no loop consists of voltage branches only (sources, capacitors, EMFs, ammeters): their
  voltages would not be independent (Kirchhoff's voltage law); one such branch with both
  pins on one node is the shortest such loop (a short circuit);
* no cut set consists of current branches only (current sources, inductors, voltmeters): a
  node group whose currents they alone fix (Kirchhoff's current law), e.g. a floating node.

Branch values enter as placeholder symbols; the signal context substitutes them only where a
quantity depends on them, so a current sensor in series with an inductor reads the inductor's
state and a controller may close a loop through it without an algebraic loop.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import networkx as nx
import numpy as np

from jourdain.blocks.electrical import BranchKind, Ground, OnePort
from jourdain.blocks.errors import ModelError
from jourdain.blocks.ports import Pin

from .flatten import FlatModel

GROUND = "ground"
ZERO_TOL = 1e-12   # inverse entries below ZERO_TOL·max are structural zeros (round-off)


@dataclass
class Circuit:
    """Branch voltages and currents, and node potentials, in terms of the placeholders."""

    voltage: dict          # branch path -> SX v = p.v − n.v
    current: dict          # branch path -> SX i (p → n through the branch)
    potential: dict        # pin net -> SX
    placeholders: dict     # branch path -> its placeholder symbol (voltage/current branches)
    branches: dict         # branch path -> the component


def build_circuit(flat: FlatModel, inst: dict, p: ca.SX, p0: np.ndarray) -> Circuit | None:
    """Check the network (module docstring) and solve it symbolically; None without pins."""
    branches = [c for c in flat.electrical if isinstance(c, OnePort)]
    if not branches:
        return None
    node = _node_map(flat)
    graph = nx.MultiGraph()
    graph.add_nodes_from(set(node.values()))
    for b in branches:
        graph.add_edge(node[flat.net_of[b.p]], node[flat.net_of[b.n]], key=b)
    _check_grounded(flat, graph, branches)
    _check_voltage_loops(node, flat, branches)
    _check_current_cuts(node, flat, graph, branches)
    return _solve(flat, inst, node, branches, p, p0)


def _node_map(flat: FlatModel) -> dict:
    """Pin net -> node; every net holding a Ground pin is the one ground node."""
    grounds = {flat.net_of[g.p] for g in flat.electrical if isinstance(g, Ground)}
    nets = {flat.net_of[pin] for c in flat.electrical for pin in c.ports()
            if isinstance(pin, Pin)}
    return {net: GROUND if net in grounds else net for net in nets}


def _names(items) -> str:
    return ", ".join(dict.fromkeys(c.path for c in items))


def _check_grounded(flat: FlatModel, graph: nx.MultiGraph, branches: list) -> None:
    for part in nx.connected_components(graph):
        if GROUND in part:
            continue
        members = [b for b in branches if flat.net_of[b.p] in part or flat.net_of[b.n] in part]
        what = "the circuit has no Ground" if not graph.has_node(GROUND) else \
            "this part of the circuit is not connected to a Ground (its potentials float)"
        raise ModelError(f"{what}: {_names(members)}; add a jd.blocks.Ground and connect its "
                         "pin p to one node of the circuit")


def _check_voltage_loops(node: dict, flat: FlatModel, branches: list) -> None:
    """Voltage branches must form a forest: a loop of them over-determines its voltages.
    A union–find of the nodes spots the branch that closes a loop (near-linear in the
    branches; a path search per branch was quadratic); only then is the loop traced."""
    forest, parts = nx.Graph(), nx.utils.UnionFind()
    for b in branches:
        if b.KIND is not BranchKind.VOLTAGE:
            continue
        a, c = node[flat.net_of[b.p]], node[flat.net_of[b.n]]
        if a == c:   # a loop of one branch: its voltage is forced to 0 by the short
            raise ModelError(
                f"{b.path}: pins p and n are connected to one node (a short circuit across "
                "a voltage-defined component: a source, capacitor, EMF or current sensor), so "
                "its voltage would be 0 whatever it prescribes; connect p and n to different "
                "nodes or put a resistor between them")
        if parts[a] == parts[c]:
            path = nx.shortest_path(forest, a, c)
            loop = [forest[u][v]["branch"] for u, v in zip(path, path[1:])] + [b]
            raise ModelError(
                f"the voltage-defined components {_names(loop)} form a loop (voltage sources, "
                "capacitors, EMFs, current sensors): Kirchhoff's voltage law fixes one of "
                "their voltages by the others; add a resistor into the loop")
        parts.union(a, c)
        forest.add_edge(a, c, branch=b)


def _check_current_cuts(node: dict, flat: FlatModel, graph: nx.MultiGraph,
                        branches: list) -> None:
    """Removing the current branches must leave every part of the circuit connected: else
    the branches between the pieces form a cut set whose currents they alone fix."""
    rest = nx.Graph()
    rest.add_nodes_from(graph.nodes)
    for b in branches:
        if b.KIND is not BranchKind.CURRENT:
            rest.add_edge(node[flat.net_of[b.p]], node[flat.net_of[b.n]])
    pieces = list(nx.connected_components(rest))
    if len(pieces) == 1:
        return
    piece = next(pc for pc in pieces if GROUND not in pc)
    cut = [b for b in branches if b.KIND is BranchKind.CURRENT and
           (node[flat.net_of[b.p]] in piece) != (node[flat.net_of[b.n]] in piece)]
    pins = [pin.path for c in flat.electrical for pin in c.ports()
            if isinstance(pin, Pin) and node.get(flat.net_of[pin]) in piece]
    raise ModelError(
        f"the current-defined components {_names(cut)} form a cut set (current sources, "
        "inductors, voltage sensors): they alone carry the current into the node(s) of "
        f"{', '.join(pins)}, whose potential is then undetermined (a floating node); connect "
        "the node(s) to the rest of the circuit through a resistor")


def _solve(flat: FlatModel, inst: dict, node: dict, branches: list, p: ca.SX,
           p0: np.ndarray) -> Circuit:
    """Modified nodal analysis (module docstring) with the branch values as placeholders.
    The matrix is assembled as a list of entries (a ladder of n sections has O(n) of them,
    not the (2n)² of a dense matrix)."""
    nodes = sorted({n for n in node.values() if n != GROUND})
    idx = {n: i for i, n in enumerate(nodes)}
    vbr = [b for b in branches if b.KIND is BranchKind.VOLTAGE]
    size = len(nodes) + len(vbr)
    entries, rhs = [], [ca.SX(0)] * size    # (row, column, value) of A; the right side
    holder = {b: ca.SX.sym(f"{b.path}.{'v' if b.KIND is BranchKind.VOLTAGE else 'i'}")
              for b in branches if b.KIND is not BranchKind.RESISTIVE}

    def ends(b):
        return idx.get(node[flat.net_of[b.p]]), idx.get(node[flat.net_of[b.n]])

    for b in branches:
        a, c = ends(b)
        if b.KIND is BranchKind.RESISTIVE:
            g = 1 / ca.SX(inst[b].resistance())
            entries += [(i, j, s * g) for i, j, s in ((a, a, 1), (c, c, 1), (a, c, -1),
                                                       (c, a, -1))
                        if i is not None and j is not None]
        elif b.KIND is BranchKind.CURRENT:   # the current leaves node a and enters node c
            for i, sign in ((a, -1), (c, 1)):
                if i is not None:
                    rhs[i] = rhs[i] + sign * holder[b]
    for k, b in enumerate(vbr):
        a, c, row = *ends(b), len(nodes) + k
        entries += [(i, row, s) for i, s in ((a, 1), (c, -1)) if i is not None]
        entries += [(row, i, s) for i, s in ((a, 1), (c, -1)) if i is not None]
        rhs[row] = holder[b]
    sol = _mna_solve(entries, size, rhs, p, p0) if size else ca.SX(0, 1)
    e = {n: sol[idx[n]] for n in nodes}
    e[GROUND] = ca.SX(0)
    return _branch_values(flat, node, branches, vbr, e, sol, len(nodes), holder, inst)


def _mna_solve(entries: list, size: int, rhs: list, p: ca.SX, p0: np.ndarray) -> ca.SX:
    """A⁻¹·rhs. Numeric A (resistances compiled as constants): a sparse LU solves for the
    columns of A⁻¹ that meet a non-zero right side, round-off zeros set to exact zeros
    (structure, not round-off), and the solution is that sparse matrix times the branch
    placeholders. Symbolic A: CasADi's symbolic solve, with the entries that vanish at the
    default parameters set to exact zeros."""
    from scipy.sparse import csc_matrix

    values = [ca.SX(v) for *_, v in entries]
    column = ca.vertcat(*values) if values else ca.SX(0, 1)
    numeric = np.array(ca.Function("mna", [p], [column])(p0) if p.numel() else
                       ca.evalf(column), dtype=float).ravel()
    rows, cols = [e[0] for e in entries], [e[1] for e in entries]
    A = csc_matrix((numeric, (rows, cols)), shape=(size, size))
    live = [i for i, r in enumerate(rhs) if not (r.is_constant() and float(ca.DM(r)) == 0)]
    if not live:
        return ca.SX.zeros(size)
    if column.is_constant():
        X = _columns_of_inverse(A, live)
        return ca.mtimes(ca.DM(X), ca.vertcat(*[rhs[i] for i in live]))
    inv = _columns_of_inverse(A, list(range(size))).toarray()
    mask = inv != 0.0
    S = ca.SX(size, size)
    for i, j, v in zip(rows, cols, values):
        S[i, j] += v
    return ca.mtimes(ca.solve(S, ca.SX.eye(size)) * ca.DM(mask.astype(float)),
                     ca.vertcat(*rhs))


BATCH = 256   # columns of A⁻¹ solved at once (memory: size × BATCH floats)


def _columns_of_inverse(A, columns: list[int]):
    """The named columns of A⁻¹ (sparse LU, in batches kept sparse), entries below
    ZERO_TOL·max(1, max |entry|) set to 0, as a scipy CSC matrix; a singular A is a
    ModelError (the checks above should have refused its network)."""
    from scipy.sparse import csc_matrix, hstack
    from scipy.sparse.linalg import splu

    try:
        lu = splu(A)
    except RuntimeError as exc:   # SuperLU: "Factor is exactly singular"
        raise ModelError(f"the circuit's nodal equations are singular ({exc}); check for "
                         "floating parts and loops of sources") from None
    parts, top = [], 1.0
    for start in range(0, len(columns), BATCH):
        chunk = columns[start:start + BATCH]
        unit = np.zeros((A.shape[0], len(chunk)))
        unit[chunk, range(len(chunk))] = 1.0
        X = lu.solve(unit)
        top = max(top, float(np.abs(X).max()))
        X[np.abs(X) < 1e-3 * ZERO_TOL * top] = 0.0   # far below the final cut: lossless
        parts.append(csc_matrix(X))
    X = hstack(parts, format="csc")
    X.data[np.abs(X.data) < ZERO_TOL * top] = 0.0
    X.eliminate_zeros()
    return X


def _branch_values(flat, node, branches, vbr, e, sol, n_nodes, holder, inst) -> Circuit:
    voltage, current = {}, {}
    row_of = {b: k for k, b in enumerate(vbr)}
    for b in branches:
        v = e[node[flat.net_of[b.p]]] - e[node[flat.net_of[b.n]]]
        voltage[b.path] = holder[b] if b.KIND is BranchKind.VOLTAGE else v
        if b.KIND is BranchKind.RESISTIVE:
            current[b.path] = v / ca.SX(inst[b].resistance())
        elif b.KIND is BranchKind.CURRENT:
            current[b.path] = holder[b]
        else:
            current[b.path] = sol[n_nodes + row_of[b]]
    potential = {net: e[n] for net, n in node.items()}
    return Circuit(voltage, current, potential, {b.path: h for b, h in holder.items()},
                   {b.path: b for b in branches})
