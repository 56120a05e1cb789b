"""Massless junctions: a frame joined to the mechanism only by line force elements (the
connection point of springs in series, the MSL's ``Examples.Elementary.ThreeSprings``) has no
joint and no mass. It gets three translational coordinates (world x, y, z of its origin,
named ``<first port>.x``, ``.y``, ``.z``) that carry no inertia; the force balance at the point,
∂V/∂y_J = 0 (springs only), is a holonomic equation that the constraint stage solves for
them (coordinate partitioning keeps them dependent, Newton finds them at every evaluation),
so stiff springs need no fictitious small mass.
"""
from __future__ import annotations

from typing import ClassVar

import casadi as ca
import networkx as nx

from jourdain.blocks.errors import ModelError
from jourdain.blocks.joints import Coordinate, Joint, Speed
from jourdain.blocks.ports import Frame

from .flatten import FlatModel


class Junction(Joint):
    """The free translation of a massless junction point (solver-made, never wired by users)."""

    COORDINATES: ClassVar = (Coordinate("x", "m"), Coordinate("y", "m"), Coordinate("z", "m"))
    SPEEDS: ClassVar = (Speed("vx", "m/s"), Speed("vy", "m/s"), Speed("vz", "m/s"))

    def __init__(self, path: str):
        self._path = path
        self._make_frames()

    def relative_pose(self, q):
        return ca.DM.eye(3), q


def add_junctions(flat: FlatModel) -> list[Junction]:
    """A Junction for every frame net that only line forces (and sensors) touch and that no
    joint connects to the world; appended to the flat model's joints and components."""
    world = flat.net_of[flat.worlds[0].frame_b]
    graph = nx.Graph()
    graph.add_nodes_from(range(len(flat.nets)))
    graph.add_edges_from((flat.net_of[j.frame_a], flat.net_of[j.frame_b]) for j in flat.joints)
    reached = nx.node_connected_component(graph, world)
    line_nets = {flat.net_of[port] for e in flat.lines for port in (e.frame_a, e.frame_b)}
    out = []
    for net in sorted(line_nets - reached):
        owners = {p.owner for p in flat.net_ports(flat.nets[net][0])}
        blocking = [o.path for o in owners if o not in flat.lines and o not in flat.signals]
        if blocking:
            continue   # a body or force element there: reported by the topology stage
        first = min((p for p in flat.nets[net] if isinstance(p, Frame)), key=lambda p: p.path)
        junction = Junction(first.path)
        for port, target in ((junction.frame_a, world), (junction.frame_b, net)):
            flat.net_of[port] = target
            flat.nets[target].append(port)
        flat.joints.append(junction)
        flat.components.append(junction)
        out.append(junction)
    return out


def junction_equations(mech, junctions: list[Junction]) -> tuple[list, list[str]]:
    """Force balance rows ∂V/∂y_J and their owners; a ModelError when a damper or a residual
    force acts on a junction (its position would need its own first-order dynamics)."""
    kin, rows, owners = mech.kin, [], []
    V = sum((e.potential for e in mech.elements), ca.SX(0))
    for junction in junctions:
        y_j = kin.y[kin.y_slices[junction]]
        w_j = kin.w[kin.w_slices[junction]]
        other = sum((ca.jacobian(e.w, w_j).T * (e.damping_force + e.force)
                     for e in mech.elements), ca.SX.zeros(3))
        pushed = any(ca.depends_on(ca.vertcat(ld.v, ld.w), w_j) for ld in mech.loads)
        if not ca.simplify(other).is_zero() or pushed:
            raise ModelError(f"the massless junction at {junction.path} is joined by dampers or "
                             "forces, not springs only; its position would need dynamics of "
                             "its own: give it a mass (PointMass on a FreeJoint) instead")
        touching = sorted({e.path for e in mech.elements if ca.depends_on(e.s, y_j)})
        rows.append(ca.gradient(V, y_j))
        owners += [f"junction {junction.path} (force balance of {', '.join(touching)})"] * 3
    return rows, owners
