"""Stage 2, topology (networkx): frame nets are nodes, joints are edges. A spanning tree rooted
at the world gives the tree joints, whose coordinates are the generalized coordinates y; joints
outside the tree are cut joints (DESIGN.md §3.2)."""
from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from jourdain.blocks.errors import ModelError
from jourdain.blocks.joints import Joint

from .flatten import FlatModel


@dataclass(frozen=True)
class TreeEdge:
    """A tree joint traversed from the parent net to the child net.

    ``forward`` is True when the parent is the joint's frame_a side (the usual case), False when
    the tree runs through the joint from frame_b to frame_a.
    """

    joint: Joint
    parent: int
    child: int
    forward: bool


@dataclass
class Topology:
    graph: nx.MultiGraph
    root: int
    edges: list[TreeEdge]        # in breadth-first order from the root
    cut_joints: list[Joint]


def build_topology(flat: FlatModel) -> Topology:
    """Spanning tree of the frame graph rooted at the world; errors name the parts at fault."""
    # flatten() has checked that there is exactly one World.
    root = flat.net_of[flat.worlds[0].frame_b]
    graph = nx.MultiGraph()
    graph.add_nodes_from(range(len(flat.nets)))
    for joint in flat.joints:
        if flat.net_of[joint.frame_a] == flat.net_of[joint.frame_b]:
            raise ModelError(f"{joint.path}: frame_a and frame_b are connected to each other "
                             f"(one rigid frame {flat.describe_net(joint.frame_a)}), so the "
                             "joint could not move; connect its two frames to different parts")
        # Rigid offsets weigh nothing so the tree never cuts them; among joints, cut the ones
        # declared last (the user's "closing" joint in the usual declaration order).
        # Joints whose axis flange drives a force element stay in the tree (their coordinate
        # must exist), so they weigh less than bare joints.
        weight = 0.0 if not joint.COORDINATES else \
            1.0 + 1e-6 * flat.joints.index(joint) - 0.5 * drives_flange(flat, joint)
        graph.add_edge(flat.net_of[joint.frame_a], flat.net_of[joint.frame_b], key=joint,
                       weight=weight)
    _check_reachable(flat, graph, root)
    reachable = graph.subgraph(nx.node_connected_component(graph, root))
    tree = nx.minimum_spanning_tree(reachable, weight="weight")
    tree_joints = {key for _, _, key in tree.edges(keys=True)}
    edges = []
    for parent, child in nx.bfs_edges(tree, root):
        joint = next(k for k in tree[parent][child])
        edges.append(TreeEdge(joint, parent, child, flat.net_of[joint.frame_a] == parent))
    cut = [j for j in flat.joints if j not in tree_joints]
    return Topology(graph, root, edges, cut)


def drives_flange(flat: FlatModel, joint: Joint) -> bool:
    """True when something (motor, spring, damper, sensor) acts on the joint's axis flange."""
    flange = getattr(joint, "axis", None)
    return flange in flat.net_of and len(flat.net_ports(flange)) > 1


def follows_coupling(flat: FlatModel, joint: Joint) -> bool:
    """True when the joint's axis flange is a coupling's follower side (``FOLLOWER``: a URDF
    mimic joint on its LinearCoupling's flange_a): the constraint stage makes such joints
    dependent first, so the leader keeps its coordinate and speed."""
    flange = getattr(joint, "axis", None)
    if flange not in flat.net_of:
        return False
    return any(getattr(port.owner, "FOLLOWER", None) == port.name
               for port in flat.net_ports(flange))


def _check_reachable(flat: FlatModel, graph: nx.MultiGraph, root: int) -> None:
    connected = nx.node_connected_component(graph, root)
    for comp in flat.bodies + flat.joints + flat.contacts:
        frame = comp.frame_a
        if flat.net_of[frame] not in connected:
            raise ModelError(f"{comp.path} has no chain of joints to the world: its frame_a is "
                             f"connected only to {flat.describe_net(frame)}; connect it through "
                             "joints or fixed offsets to world.frame_b")
    for sig in flat.signals + flat.lines + flat.wrenches + flat.mounts:
        for port in sig.ports():
            if port in flat.net_of and type(port).__name__ == "Frame" \
                    and flat.net_of[port] not in connected:
                raise ModelError(f"{port.path} is attached to frames with no path to the world")


def loop_joints(flat: FlatModel, topo: Topology, joint: Joint) -> list:
    """The tree joints of the loop that the cut joint ``joint`` closes."""
    a, b = flat.net_of[joint.frame_a], flat.net_of[joint.frame_b]
    tree = nx.Graph()
    for edge in topo.edges:
        tree.add_edge(edge.parent, edge.child, joint=edge.joint)
    nodes = nx.shortest_path(tree, a, b)
    return [tree[u][v]["joint"] for u, v in zip(nodes, nodes[1:])]


def describe_loop(flat: FlatModel, topo: Topology, joint: Joint) -> str:
    """The joints of the loop that ``joint`` closes, for messages and reports."""
    return ", ".join([j.path for j in loop_joints(flat, topo, joint)] + [joint.path])
