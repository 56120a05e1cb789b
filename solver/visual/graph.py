"""The component graph of a model, as Modelica's diagram view shows it: every primitive
component a node (world, bodies, joints of the spanning tree, cut joints, force elements,
contacts, sensors and signal blocks), every connection an edge (frames, flanges, signals from
output to input). Built by networkx at compile time (``system.graph``) and drawn by
``system.draw(path)`` with matplotlib, in layers by distance from the world."""
from __future__ import annotations

import networkx as nx
import numpy as np

from jourdain.blocks.ports import Flange, Frame, RealOutput

from ..model.mechanics import Mechanics
from .paths import output_path

STYLE = {  # node kind: (colour, marker, legend)
    "world": ("#555555", "s", "world"),
    "body": ("#1f77b4", "o", "body"),
    "joint": ("#d62728", "D", "joint (spanning tree)"),
    "cut joint": ("#ffffff", "D", "cut joint (closure equations)"),
    "offset": ("#9b9b9b", "D", "rigid offset"),
    "force": ("#ff7f0e", "s", "force element, actuator"),
    "contact": ("#2ca02c", "^", "contact"),
    "signal": ("#17becf", "h", "sensor, signal block"),
}
EDGE = {"frame": ("#333333", "-"), "flange": ("#ff7f0e", "-"), "signal": ("#17becf", "-")}


def component_graph(mech: Mechanics) -> nx.MultiDiGraph:
    """Nodes: component paths with ``kind``; edges: one per port connection with ``kind``
    (frame, flange, signal; signal edges point from the output to the input)."""
    flat, graph = mech.flat, nx.MultiDiGraph()
    cut = set(mech.topo.cut_joints)
    kinds = [(flat.worlds, "world"), (flat.bodies, "body"), (flat.forces, "force"),
             (flat.contacts, "contact"), (flat.signals, "signal")]
    for group, kind in kinds:
        for comp in group:
            graph.add_node(comp.path, kind=kind)
    for joint in flat.joints:
        kind = "cut joint" if joint in cut else "joint" if joint.COORDINATES else "offset"
        graph.add_node(joint.path, kind=kind)
    for ports in flat.nets:
        prim = [p for p in ports if p.owner.path in graph]
        if not prim:
            continue
        kind = "frame" if isinstance(prim[0], Frame) else \
            "flange" if isinstance(prim[0], Flange) else "signal"
        source = next((p for p in prim if isinstance(p, RealOutput)), prim[0])
        for port in prim:
            if port.owner is not source.owner:
                graph.add_edge(source.owner.path, port.owner.path, kind=kind,
                               ports=(source.name, port.name))
    return graph


def layers(graph: nx.MultiDiGraph) -> dict:
    """Positions: depth by breadth-first distance from the world (frames and flanges first,
    then signals), order within a layer by the mean position of the layer above."""
    undirected = nx.Graph(graph.to_undirected())
    roots = [n for n, k in graph.nodes(data="kind") if k == "world"] or list(graph)[:1]
    depth = {}
    for component in nx.connected_components(undirected):
        start = next((r for r in roots if r in component), next(iter(component)))
        offset = 0 if start in roots else max(depth.values(), default=-1) + 1
        for node, d in nx.single_source_shortest_path_length(undirected, start).items():
            depth[node] = d + offset
    pos, placed = {}, {}
    for level in sorted(set(depth.values())):
        nodes = [n for n in graph if depth[n] == level]
        key = {n: np.mean([placed[m] for m in undirected[n] if m in placed] or [0.0])
               for n in nodes}
        nodes.sort(key=lambda n: (key[n], n))
        for i, n in enumerate(nodes):
            placed[n] = i - (len(nodes) - 1) / 2
            pos[n] = (placed[n], -level)
    return pos


def draw_graph(graph: nx.MultiDiGraph, path=None, title: str | None = None):
    """Draw the component graph (legend by kind; cut joints hollow; signal edges as arrows)
    and save it to ``path`` if given. Returns the matplotlib figure."""
    import matplotlib.pyplot as plt

    out = None if path is None else output_path(path, "draw", (".png", ".pdf", ".svg"),
                                                "model.png")
    pos = layers(graph)
    width = max([abs(x) for x, _ in pos.values()] or [1.0])
    depth = max([-y for _, y in pos.values()] or [1.0])
    fig, ax = plt.subplots(figsize=(min(4 + 1.6 * width, 18), min(2.5 + 1.1 * depth, 14)))
    for kind, (colour, style) in EDGE.items():
        edges = [(u, v) for u, v, k in graph.edges(data="kind") if k == kind]
        arrows = {"arrows": True, "arrowsize": 12} if kind == "signal" else {"arrows": False}
        nx.draw_networkx_edges(graph, pos, edgelist=edges, edge_color=colour, style=style,
                               ax=ax, node_size=320, width=1.4, **arrows)
    for kind, (colour, marker, legend) in STYLE.items():
        nodes = [n for n, k in graph.nodes(data="kind") if k == kind]
        if nodes:
            nx.draw_networkx_nodes(graph, pos, nodelist=nodes, node_color=colour,
                                   node_shape=marker, edgecolors="#222222", node_size=320,
                                   linewidths=1.2 if kind != "cut joint" else 2.0, ax=ax,
                                   label=legend)
    nx.draw_networkx_labels(graph, {n: (x, y - 0.28) for n, (x, y) in pos.items()},
                            font_size=7, ax=ax)
    from matplotlib.lines import Line2D
    handles, _ = ax.get_legend_handles_labels()
    handles += [Line2D([], [], color=c, label=f"{k} connection") for k, (c, _) in EDGE.items()
                if any(kind == k for _, _, kind in graph.edges(data="kind"))]
    ax.legend(handles=handles, fontsize=7, loc="upper left", frameon=False, markerscale=0.6)
    ax.set_axis_off()
    ax.margins(0.12)
    if title:
        ax.set_title(title)
    fig.tight_layout()
    if out is not None:
        fig.savefig(out, dpi=120)
    return fig
