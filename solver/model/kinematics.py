"""Stage 3, kinematics (CasADi SX): pose, velocity and angular velocity of every frame net as
expressions of the coordinates y and the joint speeds w, composed along the spanning tree;
flange positions and rates (DESIGN.md §3.3: v_i = J_Ti·ẏ, ω_i = J_Ri·ẏ).

The joint speeds w are the coordinate rates ẏ for scalar joints and body-fixed angular
velocities for quaternion joints; ẏ = N(y)·w collects the joints' ``coordinate_rates``.

Velocities are propagated joint by joint (v_C = v_P + ω_P × R_P·p + R_P·ṗ), not by
differentiating the positions, so the cost is O(1) per joint.

Flange nets take their positions from the 1-D network (:mod:`.flanges`): joint flanges, the
coordinates of free 1-D bodies (appended to y and w after the tree joints') and the couplings
between them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from jourdain.blocks.base import FlangeState, FrameState
from jourdain.blocks.joints import Joint

from .flanges import FlangeNetwork, plan_flanges, resolve_flanges
from .flatten import FlatModel
from .topology import Topology


@dataclass(frozen=True)
class CoordinateInfo:
    """A generalized coordinate y_i and the joint it belongs to."""

    name: str
    unit: str
    default: float
    joint: Joint


@dataclass(frozen=True)
class RateInfo:
    """A joint speed w_i (a default generalized speed); ``derivative_of`` names the coordinate
    whose time derivative it is, or is None (quaternion joints)."""

    name: str
    unit: str
    joint: Joint
    derivative_of: str | None


@dataclass(frozen=True)
class AxialFrame:
    """The velocities of a revolute joint's frame_b expressed in its frame_a axes F (which turn
    with ``w_axes``, the parent's angular velocity): ω_F = ω_a + φ̇·a, v_F = v_a. A body on
    frame_b whose inertia and center of mass are invariant under rotations about the axis a
    (a wheel) may use them: its equations then carry no sin φ, cos φ that cancel only by
    sin² + cos² = 1 (solver.mechanics)."""

    axis: ca.DM
    R: ca.SX
    v_local: ca.SX
    w_local: ca.SX
    w_axes: ca.SX


@dataclass
class Kinematics:
    y: ca.SX
    w: ca.SX                          # joint speed symbols
    ydot: ca.SX                       # ẏ = N(y)·w
    coordinates: list[CoordinateInfo]
    rates: list[RateInfo]
    frames: dict[int, FrameState]     # net id -> pose and velocities (world coordinates)
    flanges: dict[int, FlangeState]   # net id -> position and rate
    axial: dict = field(default_factory=dict)  # net id -> AxialFrame (frame_b of a revolute)
    relative: dict = field(default_factory=dict)  # tree joint -> RelativeMotion
    y_slices: dict = field(default_factory=dict)  # joint -> its slice of y
    w_slices: dict = field(default_factory=dict)  # joint -> its slice of w
    network: FlangeNetwork | None = None  # the 1-D network: closure rows, cut sensors

    @property
    def rates_are_derivatives(self) -> bool:
        """True when w = ẏ (no quaternion joints): the coordinates are minimal."""
        return all(r.derivative_of is not None for r in self.rates)


def tree_variables(flat: FlatModel, topo: Topology) -> tuple[list, list]:
    """Coordinates and joint speeds of the tree joints, in declaration order of the joints."""
    tree = {e.joint for e in topo.edges}
    coords, rates = [], []
    for joint in flat.joints:
        if joint not in tree:
            continue
        coords += [CoordinateInfo(f"{joint.path}.{c.name}", c.unit, c.default, joint)
                   for c in joint.COORDINATES]
        for i, s in enumerate(joint.SPEEDS):
            derivative = f"{joint.path}.{joint.COORDINATES[i].name}" \
                if joint.RATES_ARE_DERIVATIVES else None
            rates.append(RateInfo(f"{joint.path}.{s.name}", s.unit, joint, derivative))
    return coords, rates


def _symbols(names: list[str]) -> ca.SX:
    return ca.vertcat(*[ca.SX.sym(n) for n in names]) if names else ca.SX(0, 1)


def _dof_variables(dofs) -> tuple[list, list]:
    """Coordinates and speeds of the 1-D bodies that own their flange net's position."""
    coords, rates = [], []
    for dof in dofs:
        coords += [CoordinateInfo(f"{dof.path}.{c.name}", c.unit, c.default, dof)
                   for c in dof.COORDINATES]
        rates += [RateInfo(f"{dof.path}.{s.name}", s.unit, dof,
                           f"{dof.path}.{dof.COORDINATES[0].name}") for s in dof.SPEEDS]
    return coords, rates


def build_kinematics(flat: FlatModel, topo: Topology, inst: dict, p=None,
                     p0=None) -> Kinematics:
    """Frame and flange kinematics in terms of y and w (``inst``: parameterized copies; p,
    p0: the parameter symbols and defaults, for the pivots of the 1-D network).

    y = (tree-joint coordinates, 1-D body coordinates), w likewise; the flange nets'
    positions come from the 1-D network (:mod:`.flanges`)."""
    tree = {e.joint for e in topo.edges}
    p = ca.SX(0, 1) if p is None else p
    plan = plan_flanges(flat, [j for j in flat.joints if j in tree], inst, p,
                        np.zeros(0) if p0 is None else p0)
    coords, rates = tree_variables(flat, topo)
    n_tree, dof_coords = len(coords), _dof_variables(plan.dofs)
    coords, rates = coords + dof_coords[0], rates + dof_coords[1]
    y, w = _symbols([c.name for c in coords]), _symbols([r.name for r in rates])
    y_of, w_of = _slices([c.joint for c in coords]), _slices([r.joint for r in rates])
    zero = ca.SX.zeros(3)
    frames = {topo.root: FrameState(ca.SX.eye(3), zero, zero, zero, zero, zero)}
    ydot_parts, axial, given, relative = {}, {}, {}, {}
    for edge in topo.edges:
        joint = inst[edge.joint]
        q = y[y_of[edge.joint]] if edge.joint in y_of else ca.SX(0, 1)
        qw = w[w_of[edge.joint]] if edge.joint in w_of else ca.SX(0, 1)
        qd = ca.SX(joint.coordinate_rates(q, qw)) if q.numel() else ca.SX(0, 1)
        ydot_parts[edge.joint] = qd
        rel = relative[edge.joint] = RelativeMotion(joint, q, qw, qd)
        frames[edge.child] = _child_frame(frames[edge.parent], rel, edge.forward)
        if edge.forward and q.numel():
            axial.update(_axial_frame(frames[edge.parent], joint, rel, qw, edge.child))
        given.update({port: ca.SX(s) for port, s in joint.flange_positions(q).items()})
    tree_joints = dict.fromkeys(c.joint for c in coords[:n_tree])
    ydot = ca.vertcat(*[ydot_parts[j] for j in tree_joints],
                      _tail(w, len(rates) - len(dof_coords[1])))
    network = resolve_flanges(flat, plan, inst, given, _tail(y, n_tree))
    flanges = {net: FlangeState(ca.SX(s), ca.jtimes(ca.SX(s), y, ydot))
               for net, s in network.positions.items()}
    return Kinematics(y, w, ydot, coords, rates, frames, flanges, axial, relative, y_of, w_of,
                      network)


class RelativeMotion:
    """A joint's relative pose (R, p), angular velocity ω_rel (frame_b axes) and ṗ, computed
    once per joint and shared by the frame composition, the axial-frame test and the
    recursive back end."""

    def __init__(self, joint, q, qw, qd):
        self.R, p = joint.relative_pose(q)
        self.p = ca.SX(p)
        self.w = ca.SX(joint.relative_angular_velocity(q, qw))
        self.pd = ca.jtimes(self.p, q, qd) if q.numel() else ca.SX.zeros(3)


def _axial_frame(parent: FrameState, joint, rel: RelativeMotion, qw, child: int) -> dict:
    """{child: AxialFrame} for a joint that purely rotates about a constant axis (p_rel = 0,
    ω_rel = a·w), else {}."""
    axis = getattr(joint, "axis_direction", None)
    if axis is None or qw.numel() != 1:
        return {}
    a = ca.DM(axis)
    if not rel.p.is_zero() or not ca.is_equal(ca.simplify(rel.w - a * qw[0]), ca.SX.zeros(3)):
        return {}
    return {child: AxialFrame(a, parent.R, parent.v_local, parent.w_local + a * qw[0],
                              parent.w_local)}


def _tail(vec: ca.SX, start: int) -> ca.SX:
    """vec[start:] as a column (CasADi slices a 1×1 matrix into 1×0)."""
    entries = ca.vertsplit(vec)[start:] if vec.numel() else []
    return ca.vertcat(*entries) if entries else ca.SX(0, 1)


def _slices(owners: list) -> dict:
    slices: dict = {}
    for k, owner in enumerate(owners):
        start = slices[owner].start if owner in slices else k
        slices[owner] = slice(start, k + 1)
    return slices


def _child_frame(parent: FrameState, rel: RelativeMotion, forward: bool) -> FrameState:
    """Compose the parent's frame with the joint. Velocities are propagated in local axes
    (ω_b = R_relᵀ·ω_a + ω_rel, v_b = R_relᵀ·(v_a + ω_a × p + ṗ)), as Pinocchio does: the
    body-axes quantities the dynamics needs stay free of R·Rᵀ products."""
    R_rel, p_rel = rel.R, rel.p
    if forward:
        R = ca.mtimes(parent.R, R_rel)
        r = parent.r + ca.mtimes(parent.R, p_rel)
        w_local = ca.mtimes(R_rel.T, parent.w_local) + rel.w
        v_local = ca.mtimes(R_rel.T, parent.v_local + ca.cross(parent.w_local, p_rel) + rel.pd)
    else:  # parent is frame_b: invert the relative pose
        R = ca.mtimes(parent.R, R_rel.T)
        r = parent.r - ca.mtimes(R, p_rel)
        w_local = ca.mtimes(R_rel, parent.w_local - rel.w)
        v_local = ca.mtimes(R_rel, parent.v_local) - ca.cross(w_local, p_rel) - rel.pd
    return FrameState(R, r, ca.mtimes(R, v_local), ca.mtimes(R, w_local), v_local, w_local)


def flange_state(kin: Kinematics, net: int) -> FlangeState:
    """Kinematics of a flange net; a net that nothing moves sits at the reference (0)."""
    return kin.flanges.get(net, FlangeState(ca.SX(0), ca.SX(0)))
