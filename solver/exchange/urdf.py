"""URDF import: ``from_urdf(path or XML text)`` → a :class:`~.robot.Robot` of blocks.

The file is parsed by yourdfpy (a maintained URDF parser on lxml); this module maps its
links and joints to the neutral :mod:`.spec` and reports, by element name, what URDF says
that jourdain does not model (transmissions, Gazebo tags, safety controllers, calibration,
dry friction unless ``friction=True``). Mimic joints are kept on their leaders (:mod:`.mimic`). Errors name the
element and its line.

Conventions: an ``<inertial>`` gives mass, the centre of mass at ``origin/xyz`` and the inertia
about it in the axes rotated by ``origin/rpy``; RigidBody wants it in the link axes, so
I_link = R·I·Rᵀ. ``<origin rpy>`` is roll-pitch-yaw about fixed axes, R = Rz(y)·Ry(p)·Rx(r).
"""
from __future__ import annotations

import io
import os
import warnings
from collections import defaultdict
from pathlib import Path

import numpy as np

from jourdain.blocks.errors import ModelError

from .build import build_robot
from .contacts import with_contacts
from .joint_friction import with_friction
from .packages import resolve, search_dirs
from .robot import Robot, UnsupportedWarning, with_stops
from .spec import (
    IDENTITY,
    Geometry,
    GeometryKind,
    GeometryRole,
    Inertial,
    JointLimits,
    JointSpec,
    JointType,
    LinkSpec,
    RobotSpec,
)

_TYPES = {t.value: t for t in (JointType.REVOLUTE, JointType.CONTINUOUS, JointType.PRISMATIC,
                               JointType.FIXED, JointType.FLOATING, JointType.PLANAR)}
# what jourdain reads, per parent tag; everything else is reported by name
_KNOWN = {"robot": {"link", "joint", "material"},
          "joint": {"origin", "parent", "child", "axis", "limit", "dynamics", "mimic"},
          "link": {"inertial", "visual", "collision"},
          "geometry": {"box", "cylinder", "sphere", "mesh"}}


def from_urdf(source, package_dirs=(), *, floating_base: bool = False,
              locked: dict | None = None, merge_fixed: bool = True, joint_damping: bool = True,
              require_meshes: bool = True, balance_inertia: bool = False,
              mimic: bool = True, stops: bool | dict = False,
              friction: bool | dict = False, contacts: bool | dict = False) -> Robot:
    """Import a URDF robot as a Composite of jourdain blocks.

    source : a file path or the URDF XML text.
    package_dirs : directories searched for ``package://`` meshes (before $ROS_PACKAGE_PATH,
        $AMENT_PREFIX_PATH and example-robot-data; :mod:`.packages`).
    floating_base : put the root link on a FreeJoint ``root_joint`` (legged robots, drones),
        as Pinocchio's JointModelFreeFlyer; default: the root link is welded to ``frame_a``.
    locked : {joint name: value [rad or m]} joints welded at a value (e.g. gripper fingers).
    merge_fixed : merge links welded by fixed joints into one RigidBody (as Pinocchio).
    joint_damping : ``<dynamics damping>`` becomes a ViscousFriction on the joint's axis.
        ``<dynamics armature>`` (rotor inertia, an extension of URDF) becomes an Inertia
        (revolute) or a Mass (prismatic) on the joint's axis, as MuJoCo's armature.
    require_meshes : a mesh file that cannot be found is a ModelError (else a note).
    balance_inertia : repair principal moments that violate the triangle inequality
        (MuJoCo's ``balanceinertia``) instead of refusing them.
    mimic : keep ``<mimic>`` joints on their leaders, q = multiplier·q_leader + offset (a
        LinearCoupling between the axis flanges: a closure equation, :mod:`.mimic`); False
        lets them move independently (Pinocchio's default parse).
    stops : True makes the joints' position limits hard stops (plastic rigid Stops,
        :meth:`Robot.add_stops`); a dict gives the Stops' options (e.g. ``{"e": 0.5}``).
    friction : True makes ``<dynamics friction>`` Coulomb friction with true stiction on the
        joint's axis (a BearingFriction or SupportFriction, :meth:`Robot.add_friction`); a
        dict gives its options (``{"peak": 1.2}``: static limit 1.2 × the file's value).
        Otherwise the friction is metadata (``robot.joint_info[name].friction``, as
        Pinocchio's ``model.friction``) and one note says where it was left out.

    contacts : True declares the ``<collision>`` elements as collision shapes of their links
        (:mod:`.contacts`; a dict: contact options such as ``{"mu": 0.8, "e": 0.2}``); the
        compiled model has contacts between them (parent and child links excepted).

    Otherwise joint limits are metadata (``robot.limits``, ``robot.bounds()`` for trajectory
    problems). Visual geometry is metadata (``robot.visuals``), collision geometry too unless
    ``contacts``.
    """
    text, path = _read(source)
    xml, urdf, unsupported = _parse(text, path)
    base = path.parent if path else None
    dirs = search_dirs(package_dirs)
    lines = {(el.tag, el.get("name")): el.sourceline for el in xml.iter()
             if isinstance(el.tag, str) and el.tag in ("link", "joint")}
    where = _Where(lines, str(path) if path else "<string>")
    links = {lk.name: _link(lk, urdf.robot, where, base, dirs, require_meshes)
             for lk in urdf.robot.links}
    joints = [_joint(j, where) for j in urdf.robot.joints]
    for spec in joints:
        spec.armature = _armature(xml, spec)
    spec = RobotSpec(urdf.robot.name, links, joints, _root(links, joints),
                     where.file, unsupported=unsupported)
    if not mimic:
        spec.unsupported += [f"mimic: joint '{j.name}' follows '{j.mimic[0]}' in the file but "
                             "moves independently here (mimic=False)" for j in joints
                             if j.mimic and j.type.moving and j.name not in (locked or {})]
    missing = [g.uri for lk in links.values() for g in lk.visuals + lk.collisions
               if g.kind is GeometryKind.MESH and g.mesh is None]
    if missing:
        spec.unsupported.append(f"{len(missing)} mesh files not found (require_meshes=False), "
                                f"e.g. {missing[0]}")
    robot = build_robot(spec, floating_base, merge_fixed, joint_damping, balance_inertia,
                        locked, mimic)
    with_stops(robot, stops, "from_urdf")
    with_friction(robot, friction, "from_urdf")
    with_contacts(robot, contacts, "from_urdf")
    if spec.unsupported:
        warnings.warn(f"{spec.name}: not imported: " + "; ".join(spec.unsupported) +
                      " (robot.report() lists it again)", UnsupportedWarning, stacklevel=2)
    return robot


class _Where:
    """Element descriptions with line numbers for messages."""

    def __init__(self, lines: dict, file: str):
        self.lines, self.file = lines, file

    def __call__(self, tag: str, name: str) -> str:
        line = self.lines.get((tag, name))
        return f"{tag} '{name}'" + (f" ({self.file}, line {line})" if line else "")


def _read(source) -> tuple[bytes, Path | None]:
    if not isinstance(source, (str, bytes, os.PathLike)):
        raise ModelError(f"from_urdf: source must be a file path or the URDF XML text, got "
                         f"{type(source).__name__} {source!r:.60}")
    if isinstance(source, bytes):
        return source, None
    if isinstance(source, str) and source.lstrip().startswith("<"):
        return source.encode(), None
    path = Path(source).expanduser()
    if not path.is_file():
        raise ModelError(f"from_urdf: no such file: {path}")
    return path.read_bytes(), path.resolve()


def _parse(text: bytes, path: Path | None):
    """(lxml tree, yourdfpy URDF, unsupported elements); geometry yourdfpy cannot read
    (e.g. capsules) is reported and left out before it parses."""
    try:
        import yourdfpy
        from lxml import etree
    except ImportError as exc:
        raise ModelError("from_urdf needs the yourdfpy package: pip install "
                         "'jourdain[exchange]'") from exc
    name = path or "the URDF text"
    try:
        xml = etree.fromstring(text, etree.XMLParser(remove_comments=True))
    except etree.XMLSyntaxError as exc:
        raise ModelError(f"from_urdf: {name} is not well-formed XML: {exc}") from exc
    _check_elements(xml, name)
    if not xml.get("name"):   # required by URDF, but nothing depends on it
        xml.set("name", path.stem if path else "robot")
    unsupported = _unsupported(xml)
    for geometry in xml.iter("geometry"):
        if any(isinstance(g.tag, str) and g.tag not in _KNOWN["geometry"] for g in geometry):
            element = geometry.getparent()
            element.getparent().remove(element)
    try:
        urdf = yourdfpy.URDF.load(io.BytesIO(etree.tostring(xml)), build_scene_graph=False,
                                  load_meshes=False, load_collision_meshes=False)
    except Exception as exc:  # the parser's own error types and messages vary
        raise ModelError(f"from_urdf: yourdfpy could not read {name}: "
                         f"{type(exc).__name__}: {exc}") from exc
    return xml, urdf, unsupported


def _check_elements(xml, name) -> None:
    """The robot root, named and unique links and joints, joints with parent and child."""
    if xml.tag != "robot":
        raise ModelError(f"from_urdf: {name} has root element <{xml.tag}>, expected <robot>")
    if xml.find("link") is None:
        raise ModelError(f"from_urdf: {name} has no <link>: there is no robot in it")
    for tag in ("link", "joint"):
        seen = {}
        for el in xml.findall(tag):
            if not el.get("name"):
                raise ModelError(f"from_urdf: a <{tag}> in {name} (line {el.sourceline}) has no "
                                 "name attribute")
            if el.get("name") in seen:
                raise ModelError(f"from_urdf: {tag} '{el.get('name')}' is defined twice in "
                                 f"{name} (lines {seen[el.get('name')]} and {el.sourceline})")
            seen[el.get("name")] = el.sourceline
    for el in xml.findall("joint"):
        for role in ("parent", "child"):
            if el.find(role) is None or not el.find(role).get("link"):
                raise ModelError(f"from_urdf: joint '{el.get('name')}' (line {el.sourceline}) "
                                 f"has no <{role} link=...>")


def _root(links: dict, joints: list[JointSpec]) -> str:
    """The first link that is no joint's child (without one, the tree check names the
    cycle)."""
    children = {j.child for j in joints}
    return next((name for name in links if name not in children), next(iter(links), ""))


def _armature(xml, spec: JointSpec) -> float:
    """``<dynamics armature>`` of a joint (an extension of URDF that Pinocchio's and Drake's
    users write for rotor inertia [kg·m² or kg]); 0 when absent."""
    for joint in xml.iter("joint"):
        if joint.get("name") == spec.name:
            dyn = joint.find("dynamics")
            value = None if dyn is None else dyn.get("armature")
            try:
                armature = _float(value, spec.where, "<dynamics armature>")
            except ValueError:
                armature = float("nan")
            if not armature >= 0:
                raise ModelError(f"{spec.where}: <dynamics armature> must be ≥ 0 [kg·m² or "
                                 f"kg], got {value}")
            return armature
    return 0.0


def _joint(j, where: _Where) -> JointSpec:
    here = where("joint", j.name)
    kind = _TYPES.get(j.type)
    if kind is None:
        raise ModelError(f"{here}: unknown joint type '{j.type}'; URDF joint types are "
                         + ", ".join(_TYPES))
    lim = j.limit
    limits = JointLimits() if lim is None else JointLimits(
        *(None if v is None else float(v) for v in (lim.lower, lim.upper, lim.effort,
                                                     lim.velocity)))
    if kind is JointType.CONTINUOUS:
        limits = JointLimits(None, None, limits.effort, limits.velocity)
    dyn = j.dynamics
    mimic = None if j.mimic is None else (
        j.mimic.joint, 1.0 if j.mimic.multiplier is None else float(j.mimic.multiplier),
        _float(j.mimic.offset))
    if any(v is not None and np.isnan(v) for v in limits.__dict__.values()) or (
            mimic and not np.all(np.isfinite(mimic[1:]))):
        raise ModelError(f"{here}: <limit> and <mimic> must hold numbers, not NaN")
    return JointSpec(j.name, kind, j.parent, j.child,
                     IDENTITY.copy() if j.origin is None else
                     _finite(j.origin, here, "<origin>"),
                     here, axis=_finite(j.axis, here, "<axis xyz>"), limits=limits,
                     damping=_float(dyn and dyn.damping, here, "<dynamics damping>"),
                     friction=_float(dyn and dyn.friction, here, "<dynamics friction>"),
                     mimic=mimic)


def _float(value, here: str = "", what: str = "") -> float:
    return 0.0 if value is None else float(_finite(value, here, what))


def _finite(value, here: str, what: str) -> np.ndarray:
    """The numbers of an element, or a ModelError naming it (a NaN origin would otherwise end
    in numpy's "SVD did not converge" deep in the kinematics)."""
    arr = np.asarray(value, dtype=float)
    if not np.all(np.isfinite(arr)):
        raise ModelError(f"{here}: {what} must be finite numbers, got NaN or inf; fix the "
                         "file")
    return arr


def _link(lk, robot, where: _Where, base, dirs, require_meshes: bool) -> LinkSpec:
    here = where("link", lk.name)
    inertial = None
    if lk.inertial is not None:
        origin = IDENTITY if lk.inertial.origin is None else \
            _finite(lk.inertial.origin, here, "<inertial><origin>")
        tensor = np.zeros((3, 3)) if lk.inertial.inertia is None else \
            np.asarray(lk.inertial.inertia, dtype=float)
        mass = float(lk.inertial.mass or 0.0)
        if not mass >= 0 or not np.isfinite(mass) or not np.all(np.isfinite(tensor)):
            raise ModelError(f"{here}: <inertial> needs a non-negative mass and a finite "
                             f"inertia, got mass {lk.inertial.mass}")
        if mass > 0 or np.any(tensor):   # zero mass with inertia: kept, as Pinocchio does
            inertial = Inertial(mass, np.zeros(3), tensor).moved(origin)
    materials = {m.name: m for m in robot.materials}
    visuals = [_geometry(v, lk.name, GeometryRole.VISUAL, here, base, dirs, require_meshes,
                         materials) for v in lk.visuals]
    collisions = [_geometry(c, lk.name, GeometryRole.COLLISION, here, base, dirs,
                            require_meshes, materials) for c in lk.collisions]
    return LinkSpec(lk.name, inertial, here, [g for g in visuals if g],
                    [g for g in collisions if g])


def _geometry(element, link: str, role: GeometryRole, here: str, base, dirs,
              require_meshes: bool, materials: dict) -> Geometry | None:
    geo = element.geometry
    origin = IDENTITY if element.origin is None else \
        _finite(element.origin, here, f"<{role.value}><origin>")
    rgba = None
    material = getattr(element, "material", None)
    if material is not None:
        color = material.color or getattr(materials.get(material.name), "color", None)
        rgba = None if color is None else tuple(float(c) for c in color.rgba)
    common = dict(origin=origin, link=link, role=role, rgba=rgba, name=element.name)
    if geo is None:
        return None
    if geo.box is not None:
        return Geometry(GeometryKind.BOX, tuple(map(float, geo.box.size)), **common)
    if geo.sphere is not None:
        return Geometry(GeometryKind.SPHERE, (float(geo.sphere.radius),), **common)
    if geo.cylinder is not None:
        return Geometry(GeometryKind.CYLINDER, (float(geo.cylinder.radius),
                                                float(geo.cylinder.length)), **common)
    if geo.mesh is None:
        return None  # an unsupported shape, reported by _unsupported
    uri = geo.mesh.filename
    scale = np.broadcast_to(np.asarray(1.0 if geo.mesh.scale is None else geo.mesh.scale,
                                       dtype=float), (3,))
    path = resolve(uri, base, dirs)
    if path is None and require_meshes:
        raise ModelError(f"{here}: <{role.value}> mesh '{uri}' not found (searched "
                         f"{', '.join(map(str, dirs)) or 'no package directories'}"
                         f"{'' if base is None else f' and {base}'}); pass package_dirs=[...] "
                         "with the directory holding the package, or require_meshes=False to "
                         "import the dynamics without meshes")
    return Geometry(GeometryKind.MESH, tuple(map(float, scale)), mesh=path, uri=uri, **common)


def _unsupported(xml) -> list[str]:
    """'<tag> ×n (names)' for every element of the robot, its links and joints (and their
    geometry) that jourdain does not read."""
    found: dict[tuple[str, str], list[str]] = defaultdict(list)

    def scan(element, within: str, name: str | None) -> None:
        for child in element:
            if not isinstance(child.tag, str):
                continue
            if child.tag not in _KNOWN[element.tag]:
                found[(child.tag, within)].append(
                    name or child.get("name") or f"line {child.sourceline}")
            elif child.tag in ("link", "joint"):
                scan(child, f" in {child.tag}s", child.get("name"))
            elif child.tag in ("visual", "collision"):
                for geometry in child.findall("geometry"):
                    scan(geometry, within, name)

    scan(xml, "", None)
    out = []
    for (tag, within), names in found.items():
        shown = ", ".join(names[:4]) + (", …" if len(names) > 4 else "")
        out.append(f"<{tag}>{within} {shown}" if within else
                   f"<{tag}> ×{len(names)} ({shown})")
    return out
