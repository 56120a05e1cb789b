"""MJCF import: ``from_mjcf(path or XML text)`` → a :class:`~.robot.Robot` of blocks.

MuJoCo's own compiler reads the file (defaults, ``<compiler angle>``, ``inertiafromgeom``,
``fromto``, includes and meshes are resolved as MuJoCo resolves them); the compiled MjModel
gives every body's pose in its parent (body_pos, body_quat), its inertial frame (body_ipos,
body_iquat, principal body_inertia) and its joints (type, anchor jnt_pos, jnt_axis, qpos0).

MuJoCo moves a body through its joints in order, each about or along its anchor in the body
frame: T = T_body · Π_i tr(p_i)·M_i(q_i − qpos0_i)·tr(−p_i). Hinge and slide coordinates are
therefore measured from the model's pose (``ref``): jourdain's phi = qpos − qpos0 (kept as
``joint_info[name].ref``). Free joints (top-level bodies) map one to one onto FreeJoint: both
use the world position, the scalar-first quaternion, the world linear velocity and the
body-fixed angular velocity; ball joints onto Spherical (body-fixed ω, as MuJoCo).

Joint armature (hinge, slide) becomes a rotor inertia on the joint's axis (an Inertia or a
Mass: ½·armature·q̇² as in MuJoCo's mass matrix). Geoms that collide (contype or conaffinity)
become collision shapes with ``contacts=True`` (:mod:`.contacts`).

Not imported (reported by name): actuators, tendons, equality constraints, sensors, the
armature of free and ball joints; dry friction (frictionloss) unless ``friction=True``.
"""
from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np

from jourdain.blocks.errors import ModelError

from .build import build_robot
from .contacts import with_contacts
from .joint_friction import with_friction
from .robot import Robot, UnsupportedWarning, with_stops
from .spec import (
    Geometry,
    GeometryKind,
    GeometryRole,
    Inertial,
    JointLimits,
    JointSpec,
    JointType,
    LinkSpec,
    RobotSpec,
    pose,
)

NO_CONTACTS = "contacts between geoms (from_mjcf(..., contacts=True) imports them)"
_JOINT = {0: JointType.FLOATING, 1: JointType.BALL, 2: JointType.PRISMATIC, 3: JointType.REVOLUTE}
_GEOM = {0: GeometryKind.PLANE, 2: GeometryKind.SPHERE, 3: GeometryKind.CAPSULE,
         4: GeometryKind.ELLIPSOID, 5: GeometryKind.CYLINDER, 6: GeometryKind.BOX,
         7: GeometryKind.MESH}


def from_mjcf(source, *, joint_damping: bool = True, balance_inertia: bool = False,
              stops: bool | dict = False, friction: bool | dict = False,
              contacts: bool | dict = False) -> Robot:
    """Import the multibody part of an MJCF model (bodies, inertials, hinge/slide/ball/free
    joints, damping and springs, geoms as shape metadata, sites as frames) as a Composite.

    source : a file path or the MJCF XML text. The Robot's ``frame_a`` is MuJoCo's world
    frame; ``robot.gravity`` is the model's ``<option gravity>``. stops : True makes the
    ranges of limited joints hard stops (:meth:`Robot.add_stops`; a dict: the Stops' options).
    friction : True makes the joints' ``frictionloss`` Coulomb friction with true stiction
    (:meth:`Robot.add_friction`; a dict: its options, ``{"peak": ...}``); MuJoCo's own
    frictionloss is a soft constraint that lets a held joint creep, here it holds exactly.
    contacts : True declares the colliding geoms as collision shapes (:mod:`.contacts`:
    contype/conaffinity, friction, solref mapped onto the rigid law; a dict: contact options
    over the file's, ``{"e": 0.3}``); the compiled model has contacts between them.
    """
    model, name = _compile(source)
    spec = _spec(model, name)
    robot = build_robot(spec, joint_damping=joint_damping, balance_inertia=balance_inertia,
                        merge_fixed=True)
    with_stops(robot, stops, "from_mjcf")
    with_friction(robot, friction, "from_mjcf")
    with_contacts(robot, contacts, "from_mjcf")
    if contacts:
        spec.unsupported = [u for u in spec.unsupported if u != NO_CONTACTS]
    if spec.unsupported:
        warnings.warn(f"{spec.name}: not imported: " + "; ".join(spec.unsupported),
                      UnsupportedWarning, stacklevel=2)
    return robot


def _compile(source):
    try:
        import mujoco
    except ImportError as exc:
        raise ModelError("from_mjcf needs the mujoco package: pip install "
                         "'jourdain[exchange]'") from exc
    if not isinstance(source, (str, os.PathLike)):
        raise ModelError(f"from_mjcf: source must be a file path or the MJCF XML text, got "
                         f"{type(source).__name__} {source!r:.60}")
    text = isinstance(source, str) and source.lstrip().startswith("<")
    if not text and not Path(source).expanduser().is_file():
        raise ModelError(f"from_mjcf: no such file: {source}")
    name = "<string>" if text else str(Path(source).expanduser().resolve())
    try:
        model = (mujoco.MjModel.from_xml_string(source) if text else
                 mujoco.MjModel.from_xml_path(name))
    except ValueError as exc:
        raise ModelError(f"from_mjcf: MuJoCo could not compile {name}: {exc}") from exc
    return model, name


def _name(model, kind: str, i: int, fallback: str) -> str:
    import mujoco
    obj = getattr(mujoco.mjtObj, f"mjOBJ_{kind}")
    return mujoco.mj_id2name(model, obj, i) or fallback


def _rot(quat) -> np.ndarray:
    """Rotation matrix of a scalar-first unit quaternion (MuJoCo's convention)."""
    w, x, y, z = np.asarray(quat, dtype=float) / np.linalg.norm(quat)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _spec(m, source: str) -> RobotSpec:
    bodies = [_name(m, "BODY", b, f"body{b}") for b in range(m.nbody)]
    links = {}
    for b, body in enumerate(bodies):
        inertial = None
        if m.body_mass[b] > 0:
            R = _rot(m.body_iquat[b])
            inertial = Inertial(float(m.body_mass[b]), np.array(m.body_ipos[b], dtype=float),
                                R @ np.diag(m.body_inertia[b]) @ R.T)
        links[body] = LinkSpec(body, inertial, f"body '{body}'")
    joints = []
    for b in range(1, m.nbody):
        joints += _body_joints(m, b, bodies, links)
    _geoms(m, bodies, links, None if source == "<string>" else Path(source).parent)
    spec = RobotSpec(_model_name(m), links, joints,
                     bodies[0], source, gravity=tuple(float(g) for g in m.opt.gravity),
                     unsupported=_unsupported(m))
    for s in range(m.nsite):
        site = _name(m, "SITE", s, "")
        if site:
            spec.frames[site] = (bodies[m.site_bodyid[s]],
                                 pose(_rot(m.site_quat[s]), m.site_pos[s]))
    return spec


def _model_name(m) -> str:
    names = bytes(m.names)
    return names[:names.index(b"\0")].decode() or "mjcf"


def _body_joints(m, b: int, bodies: list[str], links: dict) -> list[JointSpec]:
    """The chain of joint specs that places body ``b`` in its parent (module docstring)."""
    body, parent = bodies[b], bodies[m.body_parentid[b]]
    T_body = pose(_rot(m.body_quat[b]), m.body_pos[b])
    count, first = int(m.body_jntnum[b]), int(m.body_jntadr[b])
    if count == 0:
        return [JointSpec(f"{body}_weld", JointType.FIXED, parent, body, T_body,
                          f"body '{body}' (no joint: welded)")]
    out, prev_anchor, link_in = [], None, parent
    for i in range(count):
        j = first + i
        kind = _JOINT[int(m.jnt_type[j])]
        mj_type = ("free", "ball", "slide", "hinge")[int(m.jnt_type[j])]
        name = _name(m, "JOINT", j, f"{body}_{mj_type}{'' if count == 1 else i}")
        where = f"joint '{name}' of body '{body}'"
        anchor = np.zeros(3) if kind in (JointType.PRISMATIC, JointType.FLOATING) else \
            np.array(m.jnt_pos[j], dtype=float)
        if kind is JointType.FLOATING:
            origin = np.eye(4)       # MuJoCo sets the body pose from qpos directly
        else:
            origin = (T_body if i == 0 else pose(p=-prev_anchor)) @ pose(p=anchor)
        child = body if i == count - 1 else f"{body}#{i + 1}"
        if child not in links:
            links[child] = LinkSpec(child, None, f"between the joints of body '{body}'",
                                    internal=True)
        out.append(JointSpec(name, kind, link_in, child, origin, where,
                             axis=np.array(m.jnt_axis[j], dtype=float),
                             post=pose(p=-anchor) if i == count - 1 else np.eye(4),
                             **_joint_data(m, j, kind)))
        link_in, prev_anchor = child, anchor
    return out


def _joint_data(m, j: int, kind: JointType) -> dict:
    if kind not in (JointType.REVOLUTE, JointType.PRISMATIC):
        dof = int(m.jnt_dofadr[j])
        return {"damping": float(m.dof_damping[dof]),
                "friction": float(m.dof_frictionloss[dof])}
    q, dof = int(m.jnt_qposadr[j]), int(m.jnt_dofadr[j])
    ref = float(m.qpos0[q])
    lo, hi = (float(v) for v in m.jnt_range[j])
    limits = JointLimits(lo, hi) if m.jnt_limited[j] else JointLimits()
    return {"limits": limits, "damping": float(m.dof_damping[dof]),
            "friction": float(m.dof_frictionloss[dof]), "ref": ref,
            "stiffness": float(m.jnt_stiffness[j]), "armature": float(m.dof_armature[dof]),
            "spring_ref": float(m.qpos_spring[q]) - ref}


def _mesh(m, k: int, origin: np.ndarray, base: Path | None) -> tuple:
    """(file as written, existing Path or None, scale, pose of the file's frame in the body):
    MuJoCo moves mesh vertices into their inertial frame (mesh_pos, mesh_quat) and places the
    geom there, so the file's own frame sits at T_geom·T_mesh⁻¹."""
    uri = bytes(m.paths)[int(m.mesh_pathadr[k]):].split(b"\0")[0].decode() \
        if m.mesh_pathadr[k] >= 0 else _name(m, "MESH", k, "")
    path = Path(uri)
    if not path.is_absolute() and base is not None:
        path = base / path
    T_mesh = pose(_rot(m.mesh_quat[k]), m.mesh_pos[k])
    return (uri, path if path.is_file() else None, tuple(m.mesh_scale[k]),
            origin @ np.linalg.inv(T_mesh))


def _geoms(m, bodies: list[str], links: dict, base: Path | None) -> None:
    for g in range(m.ngeom):
        kind = _GEOM.get(int(m.geom_type[g]))
        if kind is None:
            continue
        body = bodies[m.geom_bodyid[g]]
        size = np.asarray(m.geom_size[g], dtype=float)
        dims = {GeometryKind.PLANE: size[:2], GeometryKind.SPHERE: size[:1],
                GeometryKind.CAPSULE: (size[0], 2 * size[1]), GeometryKind.ELLIPSOID: size,
                GeometryKind.CYLINDER: (size[0], 2 * size[1]), GeometryKind.BOX: 2 * size,
                GeometryKind.MESH: (1.0, 1.0, 1.0)}[kind]
        origin = pose(_rot(m.geom_quat[g]), m.geom_pos[g])
        uri = mesh = None
        if kind is GeometryKind.MESH:
            uri, mesh, scale, origin = _mesh(m, int(m.geom_dataid[g]), origin, base)
            dims = scale
        common = dict(kind=kind, size=tuple(float(v) for v in dims), origin=origin, link=body,
                      uri=uri, mesh=mesh, rgba=tuple(float(c) for c in m.geom_rgba[g]),
                      name=_name(m, "GEOM", g, "") or None)
        links[body].visuals.append(Geometry(role=GeometryRole.VISUAL, **common))
        if m.geom_contype[g] or m.geom_conaffinity[g]:
            links[body].collisions.append(Geometry(
                role=GeometryRole.COLLISION, group=int(m.geom_contype[g]),
                mask=int(m.geom_conaffinity[g]), friction=float(m.geom_friction[g][0]),
                solref=tuple(float(v) for v in m.geom_solref[g]), **common))


def _unsupported(m) -> list[str]:
    counts = {"<actuator> (wire Motor blocks on robot.joints[...].axis)": m.nu,
              "<tendon>": m.ntendon, "<equality> constraints": m.neq, "<sensor>": m.nsensor,
              "flex bodies": m.nflex, "mocap bodies (welded here)": m.nmocap}
    out = [f"{what} ×{int(n)}" for what, n in counts.items() if n]
    multi = [d for d in np.flatnonzero(m.dof_armature) if m.jnt_type[m.dof_jntid[d]] < 2]
    if multi:      # hinge and slide armatures become rotor inertias on the joint's axis
        out.append("armature (rotor inertia) of free and ball joints " + ", ".join(dict.fromkeys(
            _name(m, "JOINT", int(m.dof_jntid[d]), str(d)) for d in multi)))
    if m.ngeom > 1 and (np.any(m.geom_contype) or np.any(m.geom_conaffinity)):
        out.append(NO_CONTACTS)
    return out
