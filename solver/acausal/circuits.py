"""Well-posedness of the electrical circuits compiled on the acausal core: the checks that
name the components at fault before the structural analysis, in the terms of circuit theory
(docs/domains.md). A circuit of the electrical library's two-pin components (capacitor
voltages and inductor currents are their own states, source values are given) has a unique
solution (R > 0) exactly when, on the graph of nodes and branches (networkx):

* every connected part of the circuit holds a Ground (else its potentials float);
* no loop consists of voltage branches only (sources, capacitors, EMFs, ammeters): their
  voltages would not be independent (Kirchhoff's voltage law); one such branch with both
  pins on one node is the shortest such loop (a short circuit);
* no cut set consists of current branches only (current sources, inductors, voltmeters): a
  node group whose currents they alone fix (Kirchhoff's current law), e.g. a floating node.

A circuit that holds an acausal component with pins (a Diode, an op-amp, a user's
capacitor) is left to the core's structural analysis and index reduction, which name what
is missing or redundant in the components' own equations.
"""
from __future__ import annotations

import networkx as nx

from jourdain.blocks.electrical import BranchKind, Ground, OnePort
from jourdain.blocks.errors import ModelError
from jourdain.blocks.ports import Pin

GROUND = "ground"


def check_circuit(flat) -> None:
    """The three checks of the module docstring on the two-pin components of ``flat``."""
    branches = [c for c in flat.electrical if isinstance(c, OnePort)]
    if not branches:
        return
    node = _node_map(flat)
    graph = nx.MultiGraph()
    graph.add_nodes_from(sorted(set(node.values()), key=str))
    for b in branches:
        graph.add_edge(node[flat.net_of[b.p]], node[flat.net_of[b.n]], key=b)
    _check_grounded(flat, graph, branches)
    _check_voltage_loops(node, flat, branches)
    _check_current_cuts(node, flat, graph, branches)


def _node_map(flat) -> dict:
    """Pin net -> node; every net holding a Ground pin is the one ground node."""
    grounds = {flat.net_of[g.p] for g in flat.electrical if isinstance(g, Ground)}
    nets = {flat.net_of[pin] for c in flat.electrical for pin in c.ports()
            if isinstance(pin, Pin)}
    return {net: GROUND if net in grounds else net for net in nets}


def _names(items) -> str:
    return ", ".join(dict.fromkeys(c.path for c in items))


def _check_grounded(flat, graph: nx.MultiGraph, branches: list) -> None:
    for part in nx.connected_components(graph):
        if GROUND in part:
            continue
        members = [b for b in branches if flat.net_of[b.p] in part or flat.net_of[b.n] in part]
        what = "the circuit has no Ground" if not graph.has_node(GROUND) else \
            "this part of the circuit is not connected to a Ground (its potentials float)"
        raise ModelError(f"{what}: {_names(members)}; add a jd.blocks.Ground and connect its "
                         "pin p to one node of the circuit")


def _check_voltage_loops(node: dict, flat, branches: list) -> None:
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
                "their voltages by the others; add a resistor into the loop, merge "
                "capacitors in parallel into one (C = C1 + C2), or write the capacitor as an "
                "acausal component, whose constraint index reduction handles (docs/acausal.md)")
        parts.union(a, c)
        forest.add_edge(a, c, branch=b)


def _check_current_cuts(node: dict, flat, graph: nx.MultiGraph,
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
