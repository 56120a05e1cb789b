"""From a :class:`~.spec.RobotSpec` to a :class:`~.robot.Robot` of ordinary blocks.

Each joint becomes parent frame → [FixedTranslation/FixedRotation for its origin] → Revolute,
Prismatic, Spherical or FreeJoint → [offset back from an MJCF anchor] → child frame; a fixed
joint is its origin offset; a mimic joint is coupled to its leader (:mod:`.mimic`). Links
become RigidBody components on their frames. As in
Pinocchio, links welded by fixed joints are merged into one body by default (fewer bodies, the
same dynamics); a link without an inertial is massless, and a moving joint that carries no
mass at all is refused (its row of the mass matrix would be zero).
"""
from __future__ import annotations

import networkx as nx
import numpy as np
from scipy.spatial.transform import Rotation

from jourdain.blocks import (
    FixedRotation,
    FixedTranslation,
    FreeJoint,
    Inertia,
    Mass,
    Prismatic,
    Revolute,
    RigidBody,
    RotationalSpring,
    Spherical,
    TranslationalSpring,
    ViscousFriction,
)
from jourdain.blocks.errors import ModelError

from .joint_friction import check_dynamics
from .mimic import couple_mimics, mimic_locks
from .robot import Robot, sanitize, unique_name
from .shapes import dress
from .spec import IDENTITY, Inertial, JointSpec, JointType, RobotSpec, is_identity, pose

INERTIA_TOL = 1e-9  # [kg·m²] slack of the triangle inequality, as RigidBody.validate


def build_robot(spec: RobotSpec, floating_base: bool = False, merge_fixed: bool = True,
                joint_damping: bool = True, balance_inertia: bool = False,
                locked: dict | None = None, mimic: bool = True) -> Robot:
    """The Robot composite of ``spec`` (see the module docstring; options as from_urdf)."""
    robot = Robot(spec.name, spec.source, spec.gravity)
    robot.notes += spec.unsupported
    joints = _tree_order(spec)
    welded = {j.name for j in joints if j.type is JointType.FIXED}
    if mimic:
        locked = mimic_locks(joints, locked or {}, robot.notes)
    joints = _lock(joints, locked or {}, spec)
    builder = _Builder(robot)
    anchor = None
    if floating_base:
        if any(j.parent == spec.root for j in joints if j.type is JointType.FLOATING):
            raise ModelError(f"{spec.name}: floating_base=True but the file already has a "
                             f"floating joint on the root link '{spec.root}'")
        free = JointSpec("root_joint", JointType.FLOATING, "<world>", spec.root, IDENTITY,
                         "floating_base=True")
        joints = [free] + joints
        builder.port["<world>"] = None
    for joint in joints:
        builder.joint(joint, joint_damping)
    if mimic:
        couple_mimics(robot, joints, welded)
    if floating_base:
        anchor = robot.joints["root_joint"].frame_a
    bodies, builder.carrier = _bodies(spec, joints, merge_fixed, balance_inertia, robot)
    for carrier, inertial in bodies.items():
        builder.body(carrier, inertial)
    _check_moving_mass(spec, joints)
    for link in (name for name, lk in spec.links.items() if not lk.internal):
        robot.visuals[link] = spec.links[link].visuals
        robot.collisions[link] = spec.links[link].collisions
        robot.links.setdefault(link, builder.body_of.get(builder.carrier.get(link, link)))
    for name, (link, T) in spec.frames.items():
        builder.frame(name, link, T)
    root_port = anchor if anchor is not None else builder.port.get(builder.net(spec.root))
    if root_port is None:
        raise ModelError(f"{spec.name} ({spec.source}): nothing to import: no moving joint "
                         "and no link with mass")
    robot.frames.update({link: builder.port[builder.net(link)] for link in robot.visuals
                         if builder.port.get(builder.net(link)) is not None})
    dress(robot)            # the file's visual geometry as shapes for animations
    robot.expose(root_port, "frame_a")
    return robot


class _Builder:
    """Creates the blocks of a Robot and wires the frame nets of its links."""

    def __init__(self, robot: Robot):
        self.robot = robot
        self.port: dict = {}          # net representative link -> a port in its frame net
        self.alias: dict = {}         # link welded at identity to another link
        self.carrier: dict = {}       # link -> link whose body carries its mass
        self.body_of: dict = {}       # carrier link -> RigidBody

    def net(self, link: str) -> str:
        while link in self.alias:
            link = self.alias[link]
        return link

    def attach(self, link: str, port) -> None:
        key = self.net(link)
        if self.port.get(key) is None:
            self.port[key] = port
        else:
            self.robot.connect(self.port[key], port)

    def add(self, base: str, block, file_name: str | None = None, kind: str = "joint"):
        """Add ``block`` under a free name made from ``base``; record the name of a joint or
        link of the file (links and joints may share names in a file)."""
        name = unique_name(self.robot, sanitize(base))
        self.robot.add(name, block)
        if file_name is not None:
            getattr(self.robot, f"{kind}_names")[file_name] = name
        return block

    def offset(self, T: np.ndarray, base: str, file_name: str | None = None):
        """A FixedTranslation or FixedRotation block for the pose T, or None for identity."""
        if is_identity(T):
            return None
        R, p = T[:3, :3], T[:3, 3]
        if np.abs(R - np.eye(3)).max() <= 1e-15:
            return self.add(base, FixedTranslation(r=p), file_name)
        rotvec = Rotation.from_matrix(R).as_rotvec()
        angle = float(np.linalg.norm(rotvec))
        return self.add(base, FixedRotation(angle=angle, r=p, axis=rotvec / angle), file_name)

    def chain(self, parent: str, T: np.ndarray, base: str, file_name: str | None = None):
        """The port at pose T in ``parent``'s frame (an offset block when T ≠ I)."""
        block = self.offset(T, base, file_name)
        if block is None:
            return None
        self.attach(parent, block.frame_a)
        return block.frame_b

    def joint(self, spec: JointSpec, damping: bool) -> None:
        self.robot.joint_info[spec.name] = spec
        if spec.type is JointType.FIXED:
            port = self.chain(spec.parent, spec.origin, spec.name, spec.name)
            if port is None:
                self.alias[spec.child] = spec.parent
            else:
                self.attach(spec.child, port)
            return
        block = self.add(spec.name, _joint_block(spec), spec.name)
        block.limits = spec.limits      # metadata for bounds() and Robot.add_stops
        self.robot.joints[spec.name] = block
        start = self.chain(spec.parent, spec.origin, f"{sanitize(spec.name)}_origin")
        if start is None:
            self.attach(spec.parent, block.frame_a)
        else:
            self.robot.connect(start, block.frame_a)
        post = self.offset(spec.post, f"{sanitize(spec.name)}_post")
        if post is None:
            self.attach(spec.child, block.frame_b)
        else:
            self.robot.connect(block.frame_b, post.frame_a)
            self.attach(spec.child, post.frame_b)
        self.forces(spec, block, damping)

    def forces(self, spec: JointSpec, block, damping: bool) -> None:
        """Viscous damping (URDF <dynamics damping>, MJCF damping) and springs (MJCF
        stiffness) on the joint's axis flange; other joint kinds get a note instead. Dry
        friction is added on request (:mod:`.joint_friction`)."""
        check_dynamics(spec)
        one_dof = isinstance(block, (Revolute, Prismatic))
        base = sanitize(spec.name)
        if damping and spec.damping > 0:
            if one_dof:
                element = self.add(f"{base}_damping", ViscousFriction(d=spec.damping))
                self.robot.connect(element.flange_b, block.axis)
            else:
                self.robot.notes.append(f"damping {spec.damping:g} of {spec.type.value} joint "
                                        f"'{spec.name}' not imported (1-D joints only)")
        if spec.armature > 0 and one_dof:    # MuJoCo's armature: ½·a·q̇² on the joint axis
            rotor = Inertia(J=spec.armature) if isinstance(block, Revolute) else \
                Mass(m=spec.armature)
            self.add(f"{base}_armature", rotor)
            self.robot.connect(rotor.flange_a, block.axis)
        if spec.stiffness > 0:
            if not one_dof:
                self.robot.notes.append(f"stiffness of {spec.type.value} joint '{spec.name}' "
                                        "not imported (1-D joints only)")
                return
            spring = (RotationalSpring(c=spec.stiffness, phi_rel0=spec.spring_ref)
                      if isinstance(block, Revolute) else
                      TranslationalSpring(c=spec.stiffness, s_rel0=spec.spring_ref))
            self.add(f"{base}_spring", spring)
            self.robot.connect(spring.flange_b, block.axis)

    def body(self, link: str, inertial: Inertial) -> None:
        body = self.add(link, RigidBody(m=inertial.m, r_cm=inertial.com, I=inertial.I), link,
                        "link")
        self.body_of[link] = body
        self.attach(link, body.frame_a)

    def frame(self, name: str, link: str, T: np.ndarray) -> None:
        """An extra named frame (an MJCF site) at pose T on ``link``."""
        port = self.chain(link, T, name)
        self.robot.frames[name] = port if port is not None else self.port[self.net(link)]


def _joint_block(spec: JointSpec):
    kind = spec.type
    if kind in (JointType.REVOLUTE, JointType.CONTINUOUS):
        return Revolute(axis=_axis(spec))
    if kind is JointType.PRISMATIC:
        return Prismatic(axis=_axis(spec))
    if kind is JointType.FLOATING:
        return FreeJoint()
    if kind is JointType.BALL:
        return Spherical()
    raise ModelError(f"{spec.where}: {kind.value} joints are not supported yet (a Planar "
                     "joint block is being added to jourdain.blocks); replace it by two "
                     "prismatic joints and a revolute joint with massless links between")


def _axis(spec: JointSpec) -> np.ndarray:
    axis = np.asarray(spec.axis, dtype=float)
    if not np.all(np.isfinite(axis)) or np.linalg.norm(axis) < 1e-12:
        raise ModelError(f"{spec.where}: the joint axis must be a non-zero vector, got "
                         f"{axis.tolist()}")
    return axis


def _tree_order(spec: RobotSpec) -> list[JointSpec]:
    """The joints in depth-first order from the root (Pinocchio's order), after checking
    that they form one tree over the links."""
    for j in spec.joints:
        for role, link in (("parent", j.parent), ("child", j.child)):
            if link not in spec.links:
                raise ModelError(f"{j.where}: its {role} link '{link}' is not defined")
    parent_joint: dict[str, JointSpec] = {}
    for j in spec.joints:
        if j.child in parent_joint:
            other = parent_joint[j.child]
            raise ModelError(f"{spec.source}: link '{j.child}' is the child of two joints, "
                             f"{other.where} and {j.where}: a robot description is a tree; "
                             "import the tree and close the loop by connecting a joint's "
                             "frames with robot.connect")
        parent_joint[j.child] = j
    graph = nx.DiGraph()
    graph.add_nodes_from(spec.links)
    graph.add_edges_from((j.parent, j.child, {"joint": j}) for j in spec.joints)
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        cycle = None
    if cycle:
        names = ", ".join(graph.edges[a, b]["joint"].where for a, b in cycle)
        raise ModelError(f"{spec.source}: {names} form a cycle: a robot "
                         "description is a tree; import it without one of them and close the "
                         "loop by connecting frames")
    roots = [link for link in spec.links if graph.in_degree(link) == 0]
    if roots != [spec.root]:
        raise ModelError(f"{spec.source}: the links {', '.join(roots)} have no parent joint; a "
                         "robot description has exactly one root link")
    order = []
    for a, b in nx.dfs_edges(graph, spec.root):
        order.append(graph.edges[a, b]["joint"])
    return order


def _lock(joints: list[JointSpec], locked: dict, spec: RobotSpec) -> list[JointSpec]:
    """Joints in ``locked`` ({name: value [rad or m]}) become fixed at that value."""
    by_name = {j.name: j for j in joints}
    out = list(joints)
    for name, value in locked.items():
        j = by_name.get(name)
        if j is None or j.type not in (JointType.REVOLUTE, JointType.CONTINUOUS,
                                        JointType.PRISMATIC):
            raise ModelError(f"{spec.name}: locked: '{name}' is not a revolute, continuous or "
                             "prismatic joint of the file")
        axis = _axis(j) / np.linalg.norm(_axis(j))
        s = float(value) - j.ref
        motion = pose(p=axis * s) if j.type is JointType.PRISMATIC else \
            pose(Rotation.from_rotvec(axis * s).as_matrix())
        fixed = JointSpec(j.name, JointType.FIXED, j.parent, j.child,
                          j.origin @ motion @ j.post, j.where + f" (locked at {value:g})",
                          axis=j.axis, limits=j.limits)
        out[out.index(j)] = fixed
    return out


def _bodies(spec: RobotSpec, joints: list[JointSpec], merge: bool, balance: bool,
            robot: Robot) -> tuple[dict[str, Inertial], dict[str, str]]:
    """({carrier link: inertial in its frame}, {link: carrier}): each link's inertial, moved
    into the carrier's frame and merged when ``merge`` (carrier = the nearest link up the
    fixed joints)."""
    carrier, T_in = {spec.root: spec.root}, {spec.root: IDENTITY}
    for j in joints:
        if j.child in carrier:
            continue
        if merge and j.type is JointType.FIXED and j.parent in carrier:
            carrier[j.child] = carrier[j.parent]
            T_in[j.child] = T_in[j.parent] @ j.origin
        else:
            carrier[j.child], T_in[j.child] = j.child, IDENTITY
    out: dict[str, Inertial] = {}
    members: dict[str, list[str]] = {}
    for name, link in spec.links.items():
        if link.inertial is None:
            continue
        c = carrier.get(name, name)
        moved = link.inertial.moved(T_in.get(name, IDENTITY))
        out[c] = out[c].merged(moved) if c in out else moved
        members.setdefault(c, []).append(name)
    for c, names in members.items():
        if out[c].m <= 0:
            robot.notes.append(f"links {', '.join(names)}: rotational inertia without mass "
                               "ignored (a RigidBody needs m > 0)")
            del out[c]
            continue
        if len(names) > 1:
            robot.notes.append(f"links {', '.join(names)} welded by fixed joints are one body "
                               f"'{c}'")
        out[c] = _checked_inertia(out[c], c, names, spec, balance, robot)
    return out, carrier


def _checked_inertia(inertial: Inertial, carrier: str, names: list[str], spec: RobotSpec,
                     balance: bool, robot: Robot) -> Inertial:
    """The inertial, or a ModelError naming the link elements when its principal moments
    are negative or violate the triangle inequality; ``balance`` raises the two smaller
    moments equally until I1 + I2 = I3 (the least change), with a note."""
    I = 0.5 * (inertial.I + inertial.I.T)
    moments, axes = np.linalg.eigh(I)
    scale = max(1.0, float(np.abs(I).max()))
    a, b, c = moments
    negative = a < -1e-12 * scale
    triangle = c > a + b + INERTIA_TOL * scale
    if not (negative or triangle):
        return Inertial(inertial.m, inertial.com, I)
    where = ", ".join(spec.links[n].where for n in names)
    problem = "negative principal moments" if negative else \
        f"principal moments violating the triangle inequality ({c:g} > {a:g} + {b:g})"
    if not balance:
        raise ModelError(f"{where}: the inertia of body '{carrier}' has {problem} "
                         f"(moments {moments.tolist()} kg·m²): no rigid body has these; fix "
                         "the file or pass balance_inertia=True to raise the smaller moments")
    moments = np.maximum(moments, 0.0)
    gap = max(0.0, moments[2] - moments[0] - moments[1])
    moments[:2] += gap / 2
    robot.notes.append(f"inertia of '{carrier}' balanced: {problem}; moments now "
                       f"{moments.tolist()} kg·m²")
    return Inertial(inertial.m, inertial.com, axes @ np.diag(moments) @ axes.T)


def _check_moving_mass(spec: RobotSpec, joints: list[JointSpec]) -> None:
    """A moving joint whose subtree carries no mass is refused, naming the joint and link."""
    children: dict[str, list[str]] = {}
    for j in joints:
        children.setdefault(j.parent, []).append(j.child)
    massive = {link for link, lk in spec.links.items()
               if lk.inertial is not None and lk.inertial.m > 0}

    def carries(link: str) -> bool:
        return link in massive or any(carries(c) for c in children.get(link, []))

    for j in joints:
        if j.type.moving and not carries(j.child):
            raise ModelError(f"{j.where} moves {spec.links[j.child].where}, which has no "
                             "<inertial> and carries no link with one: the joint would move no "
                             "mass (a zero row of the mass matrix). Add an inertial to "
                             f"'{j.child}', make the joint fixed, or lock it: "
                             f"locked={{'{j.name}': 0.0}}")
