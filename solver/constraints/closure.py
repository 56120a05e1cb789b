"""Stage 4, constraints (DESIGN.md §3.4; Murray, Li and
Sastry 1994): the holonomic closure equations c(y) = 0 of
the cut joints, of the 1-D couplings that close loops (a gear between two joint axes:
model.flanges) and of the contacts, and the velocity constraints of the contacts, each row with
its owner for messages. Their rank analysis and the partition are in :mod:`.partition`.

All velocity constraints are written in the joint speeds w (ẏ = N(y)·w, w = ẏ for scalar
joints):  A(y)·w = 0 with A = [C(y)·N(y); B(y)], C = ∂c/∂y, B·w the contacts' slip velocities.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from jourdain.blocks.errors import ModelError

from ..model.junctions import junction_equations
from ..model.mechanics import Mechanics
from ..model.topology import describe_loop, drives_flange


@dataclass
class ConstraintEquations:
    """Every constraint equation before the rank analysis, with its owner for messages."""

    c: ca.SX                 # holonomic residuals c(y, p)
    c_owner: list[str]       # per row: the cut joint (with its loop) or the contact
    b: ca.SX                 # velocity constraints B(y)·w (in y, w, p)
    b_owner: list[str]
    A: ca.SX                 # [C·N; B]: all rows in the joint speeds w
    branch: ca.SX = None     # cut joints' closure_branch: 1 on their own poses, −1 on mirrors
    branch_owner: list = None

    @property
    def n_holonomic(self) -> int:
        return self.c.numel()


def relative_pose(mech: Mechanics, net_a: int, net_b: int) -> tuple:
    """(R, p): the pose of frame net b in frame net a's axes, composed along the tree path
    through their lowest common ancestor. Written through the world instead (R_aᵀ·R_b), the
    closure equations of a loop that rides on other loops would carry every joint below it
    symbolically (the terms cancel only numerically), so their Jacobian would couple all the
    loops of a stack and the linear solves of f would grow with the stack's height."""
    up = {edge.child: edge for edge in mech.topo.edges}

    def chain(net):   # the nets from ``net`` up to the root
        nets = [net]
        while nets[-1] in up:
            nets.append(up[nets[-1]].parent)
        return nets
    path_a, path_b = chain(net_a), chain(net_b)
    common = next(n for n in path_a if n in set(path_b))
    R_a, p_a = _pose_below(mech, up, path_a[:path_a.index(common)])
    R_b, p_b = _pose_below(mech, up, path_b[:path_b.index(common)])
    return ca.mtimes(R_a.T, R_b), ca.mtimes(R_a.T, p_b - p_a)


def _pose_below(mech: Mechanics, up: dict, nets: list) -> tuple:
    """Pose of nets[0] in the frame of the parent of nets[-1] (nets: a path upwards)."""
    R, p = ca.SX.eye(3), ca.SX.zeros(3)
    for net in reversed(nets):   # from the common ancestor down
        edge = up[net]
        rel = mech.kin.relative[edge.joint]
        R_rel, p_rel = ca.SX(rel.R), rel.p
        if not edge.forward:   # the tree runs from frame_b to frame_a: invert
            R_rel, p_rel = R_rel.T, -ca.mtimes(R_rel.T, p_rel)
        p = p + ca.mtimes(R, p_rel)
        R = ca.mtimes(R, R_rel)
    return R, p


def collect_constraints(mech: Mechanics) -> ConstraintEquations:
    """Closure equations of the cut joints and the contacts' hook equations."""
    kin, flat = mech.kin, mech.flat
    c_rows, c_owner, b_rows, b_owner, branch, branch_owner = [], [], [], [], [], []
    for joint in mech.topo.cut_joints:
        if drives_flange(flat, joint):
            raise ModelError(f"{joint.path} closes the loop {describe_loop(flat, mech.topo, joint)}"
                             " and is cut, but force elements act on its axis flange; move them "
                             "to another joint of the loop")
        R, p = relative_pose(mech, flat.net_of[joint.frame_a], flat.net_of[joint.frame_b])
        rows = ca.SX(mech.inst[joint].closure_residual(R, p))
        c_rows.append(rows)
        owner = f"{joint.path} (closing the loop {describe_loop(flat, mech.topo, joint)})"
        c_owner += [owner] * rows.numel()
        sides = ca.SX(mech.inst[joint].closure_branch(R, p))
        branch.append(sides)
        branch_owner += [owner] * sides.numel()
    network = kin.network
    if network is not None and network.closure.numel():   # couplings closing 1-D loops
        c_rows.append(network.closure)
        c_owner += network.closure_owner
    for contact in flat.contacts:
        frame = kin.frames[flat.net_of[contact.frame_a]]
        hol, vel = (ca.SX(h) for h in (mech.inst[contact].holonomic(frame),
                                       mech.inst[contact].velocity(frame)))
        c_rows.append(hol)
        c_owner += [contact.path] * hol.numel()
        b_rows.append(vel)
        b_owner += [contact.path] * vel.numel()
    rows, owners = junction_equations(mech, mech.junctions)
    c_rows += rows
    c_owner += owners
    c = ca.vertcat(*c_rows) if c_rows else ca.SX(0, 1)
    b = ca.vertcat(*b_rows) if b_rows else ca.SX(0, 1)
    N = ca.jacobian(kin.ydot, kin.w)
    A = ca.vertcat(ca.mtimes(ca.jacobian(c, kin.y), N), ca.jacobian(b, kin.w))
    branch = ca.vertcat(*branch) if branch else ca.SX(0, 1)
    return ConstraintEquations(c, c_owner, b, b_owner, A, branch, branch_owner)
