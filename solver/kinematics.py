"""Stage 3, kinematics (CasADi SX): pose, velocity and angular velocity of every frame net as
expressions of the coordinates y and their rates ẏ, composed along the spanning tree; flange
positions and rates (DESIGN.md §3.3, seed 001: v_i = J_Ti·ẏ, ω_i = J_Ri·ẏ).

Velocities are propagated joint by joint (v_C = v_P + ω_P × R_P·p + R_P·ṗ), not by
differentiating the positions, so the cost is O(1) per joint.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from jourdain.blocks.base import FlangeState, FrameState
from jourdain.blocks.errors import ModelError
from jourdain.blocks.joints import Joint

from .flatten import FlatModel
from .topology import Topology


@dataclass(frozen=True)
class CoordinateInfo:
    """A generalized coordinate y_i, its default speed and the joint it belongs to."""

    name: str
    unit: str
    speed: str
    speed_unit: str
    joint: Joint
    index: int


@dataclass
class Kinematics:
    y: ca.SX
    yd: ca.SX
    coordinates: list[CoordinateInfo]
    frames: dict[int, FrameState]   # net id -> pose and velocities (world coordinates)
    flanges: dict[int, FlangeState]  # net id -> position and rate


def tree_coordinates(flat: FlatModel, topo: Topology) -> list[CoordinateInfo]:
    """Coordinates of the tree joints, in declaration order of the joints."""
    tree = {e.joint for e in topo.edges}
    coords = []
    for joint in flat.joints:
        if joint in tree:
            for i, c in enumerate(joint.COORDINATES):
                coords.append(CoordinateInfo(f"{joint.path}.{c.name}", c.unit,
                                             f"{joint.path}.{c.speed}", c.speed_unit, joint, i))
    return coords


def build_kinematics(flat: FlatModel, topo: Topology, inst: dict) -> Kinematics:
    """Frame and flange kinematics in terms of symbols y, ẏ (``inst``: parameterized copies)."""
    coords = tree_coordinates(flat, topo)
    y = ca.vertcat(*[ca.SX.sym(c.name) for c in coords]) if coords else ca.SX(0, 1)
    yd = ca.vertcat(*[ca.SX.sym(c.name + ".der") for c in coords]) if coords else ca.SX(0, 1)
    slices = _joint_slices(coords)
    zero = ca.SX.zeros(3)
    frames = {topo.root: FrameState(ca.SX.eye(3), zero, zero, zero)}
    flanges: dict[int, FlangeState] = {}
    for edge in topo.edges:
        joint = inst[edge.joint]
        q, qd = (y[slices[edge.joint]], yd[slices[edge.joint]]) if edge.joint in slices \
            else (ca.SX(0, 1), ca.SX(0, 1))
        frames[edge.child] = _child_frame(frames[edge.parent], joint, q, qd, edge.forward)
        _add_flanges(flat, joint, edge.joint, q, y, yd, flanges)
    return Kinematics(y, yd, coords, frames, flanges)


def _joint_slices(coords: list[CoordinateInfo]) -> dict:
    slices: dict = {}
    for k, c in enumerate(coords):
        start = slices[c.joint].start if c.joint in slices else k
        slices[c.joint] = slice(start, k + 1)
    return slices


def _child_frame(parent: FrameState, joint, q, qd, forward: bool) -> FrameState:
    R_rel, p_rel = joint.relative_pose(q)
    w_rel = joint.relative_angular_velocity(q, qd)
    pd_rel = ca.jtimes(ca.SX(p_rel), q, qd) if q.numel() else ca.SX.zeros(3)
    if forward:
        R = ca.mtimes(parent.R, R_rel)
        arm = ca.mtimes(parent.R, p_rel)
        r = parent.r + arm
        w = parent.w + ca.mtimes(parent.R, w_rel)
        v = parent.v + ca.cross(parent.w, arm) + ca.mtimes(parent.R, pd_rel)
    else:  # parent is frame_b: invert the relative pose
        R = ca.mtimes(parent.R, R_rel.T)
        arm = ca.mtimes(R, p_rel)
        r = parent.r - arm
        w = parent.w - ca.mtimes(R, w_rel)
        v = parent.v - ca.cross(w, arm) - ca.mtimes(R, pd_rel)
    return FrameState(R, r, v, w)


def _add_flanges(flat: FlatModel, joint, original, q, y, yd, flanges: dict) -> None:
    for port, s in joint.flange_positions(q).items():
        net = flat.net_of[port]
        if net in flanges:
            raise ModelError(f"{port.path} is connected to another joint flange "
                             f"({flat.describe_net(port)}); rigidly coupling two joint axes is a "
                             "constraint: connect force elements between them instead")
        s = ca.SX(s)
        flanges[net] = FlangeState(s, ca.jtimes(s, y, yd) if y.numel() else ca.SX(0))


def flange_state(kin: Kinematics, net: int) -> FlangeState:
    """Kinematics of a flange net; a net without a joint flange sits at the reference (0)."""
    return kin.flanges.get(net, FlangeState(ca.SX(0), ca.SX(0)))
