"""URDF ``<mimic joint multiplier offset>``: q_mimic = multiplier·q_leader + offset, enforced
by a :class:`~jourdain.blocks.LinearCoupling` between the two joints' axis flanges. Between two
tree joints the coupling is a holonomic closure equation of the 1-D flange network
(docs/domains.md), so the constraint stage (partitioning, Baumgarte, DAE) keeps the mimic
joint on its leader: the coupled mechanism has the leader's degree of freedom with the mimic
side's inertia reflected onto it (multiplier²·J), as Pinocchio's ``mimic=True`` and Drake's
coupler constraint model it.

A leader welded by ``locked`` (or a fixed joint) welds its mimic joints at the implied value;
a mimic on a fixed joint moves nothing and is only noted.
"""
from __future__ import annotations

import networkx as nx

from jourdain.blocks import LinearCoupling
from jourdain.blocks.errors import ModelError

from .spec import JointSpec, JointType

ONE_DOF = (JointType.REVOLUTE, JointType.CONTINUOUS, JointType.PRISMATIC)


def mimic_locks(joints: list[JointSpec], locked: dict, notes: list[str]) -> dict:
    """``locked`` plus the mimic joints of welded leaders, at multiplier·value + offset
    (a fixed leader counts as welded at 0), followed down chains of mimics."""
    by_name = {j.name: j for j in joints}
    out = dict(locked)
    changed = True
    while changed:
        changed = False
        for j in joints:
            if not j.mimic or j.name in out or j.type not in ONE_DOF:
                continue
            leader, multiplier, offset = j.mimic
            lead = by_name.get(leader)
            if lead is None:
                continue            # reported by couple_mimics
            if leader in out or lead.type is JointType.FIXED:
                value = multiplier * float(out.get(leader, 0.0)) + offset
                out[j.name] = value
                notes.append(f"mimic joint '{j.name}' locked at {value:g} with its leader "
                             f"'{leader}'")
                changed = True
    return out


def couple_mimics(robot, joints: list[JointSpec], welded: set) -> None:
    """A LinearCoupling ``<joint>_mimic`` (flange_a on the mimic joint's axis, flange_b on the
    leader's) for every enforced mimic; ``robot.mimics`` maps the joint names to them.
    ``joints`` are the joints after locking; ``welded`` the names of the fixed joints of the
    file."""
    from .robot import sanitize, unique_name
    by_name = {j.name: j for j in joints}
    graph = nx.DiGraph()
    for j in joints:
        if not j.mimic:
            continue
        leader, multiplier, offset = j.mimic
        lead = _leader(j, by_name)
        if j.type is JointType.FIXED:
            if j.name in welded:
                robot.notes.append(f"mimic on fixed joint '{j.name}' ignored (it does not "
                                   "move)")
            elif lead.type is not JointType.FIXED:     # locked by the user, leader free
                robot.notes.append(f"mimic joint '{j.name}' is locked: it does not follow "
                                   f"'{leader}'")
            continue
        if j.type not in ONE_DOF or lead.type not in ONE_DOF:
            raise ModelError(f"{j.where}: <mimic joint='{leader}'> couples a {j.type.value} "
                             f"joint to a {lead.type.value} one; mimic joints must be "
                             "revolute, continuous or prismatic (or import with mimic=False)")
        coupling = LinearCoupling(ratio=multiplier, offset=offset)
        robot.add(unique_name(robot, f"{sanitize(j.name)}_mimic"), coupling)
        robot.connect(coupling.flange_a, robot.joints[j.name].axis)
        robot.connect(coupling.flange_b, robot.joints[leader].axis)
        robot.mimics[j.name] = coupling
        graph.add_edge(j.name, leader)
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return
    names = " -> ".join([a for a, _ in cycle] + [cycle[0][0]])
    raise ModelError(f"{robot.source}: the mimic joints {names} follow each other in a cycle: "
                     "no joint of the cycle is a leader; make one of them a plain joint")


def _leader(j: JointSpec, by_name: dict) -> JointSpec:
    leader, multiplier, _ = j.mimic
    if leader not in by_name:
        raise ModelError(f"{j.where}: <mimic joint='{leader}'> names no joint of the file; "
                         "fix the name, or import with mimic=False to let the joint move on "
                         "its own")
    if leader == j.name:
        raise ModelError(f"{j.where}: <mimic> names the joint itself as its leader")
    if multiplier == 0:
        raise ModelError(f"{j.where}: <mimic multiplier='0'> would lock the joint; make it a "
                         "fixed joint instead")
    return by_name[leader]
