"""Default shapes derived from the geometry, so that any model animates without extra work, as
Modelica's MultiBody animation draws them (Modelica.Mechanics.MultiBody: a body is a sphere at
its center of mass and a rod from frame_a to it; a revolute joint a cylinder along its axis; a
prismatic joint a box from frame_a to frame_b; a fixed offset a rod; MSL's default colours:
joints red, rods grey).

Joints are classified through their hooks, never by class: the rank of ∂ω_rel/∂w (rotational
freedoms) and of ∂p_rel/∂q (translational ones) at two generic coordinates tell a
revolute-like joint (one constant axis), a prismatic-like one (one constant direction), a
ball joint (three rotations) and others (a free joint: drawn by its body only). Sizes scale
with the model's nominal length L [m] (the extent of its frames): joint cylinders L/10 long,
L/20 wide (MSL's defaultJointLength and defaultJointWidth for L = 1 m), rods L/40 thick, and a
body's sphere holds its mass at the density of water, kept between L/50 and L/10 in radius.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np

from jourdain.blocks.visual.shapes import Box, Cylinder, Sphere, VisualShape, rotation_to

JOINT_RED = (1.0, 0.0, 0.0)      # Modelica.Mechanics.MultiBody.Types.Defaults.JointColor
ROD_GREY = (155 / 255,) * 3      # ... Defaults.RodColor
DENSITY = 1000.0                 # [kg/m³] of the default body spheres (water)
# templates placed and sized through the overrides (built once: compile stays fast)
ROD = Cylinder(1.0, 1.0, color=ROD_GREY)
AXIS = Cylinder(1.0, 1.0, color=JOINT_RED)
SLIDER = Box((1.0, 1.0, 1.0), color=JOINT_RED)
BALL = Sphere(1.0, color=JOINT_RED)
BODY = Sphere(1.0)


@dataclass
class Placed:
    """A shape attached to a frame port, with placement overrides as CasADi expressions (for
    defaults that follow parameters or coordinates); None uses the shape's own numbers."""

    owner: str
    frame: object
    shape: VisualShape
    default: bool = False
    label: str = ""
    rotation: object = None   # 3×3, shape axes → frame axes
    center: object = None     # 3, [m] in frame axes
    scale: object = None      # 3, factors of the unit geometry


def frame_geometry(mech, y: np.ndarray) -> np.ndarray:
    """Frame origins and body centers of mass [m] (n × 3) at coordinates y, default p."""
    points = [f.r for f in mech.kin.frames.values()] + [b.r_cm for b in mech.bodies]
    fn = ca.Function("points", [mech.kin.y, mech.params.p], [ca.horzcat(*points)])
    return np.array(fn(y, mech.params.defaults), dtype=float).T


def nominal_size(mech, points: np.ndarray) -> float:
    """L [m]: the diagonal of the box around the frames and centers of mass; for a model
    whose points coincide, four radii of gyration of its largest body; else 1 m."""
    if len(points):
        extent = float(np.linalg.norm(points.max(axis=0) - points.min(axis=0)))
        if extent > 1e-9:
            return extent
    radii = [4.0 * np.sqrt(max(np.linalg.eigvalsh(np.asarray(b.I, float)).max(), 0.0) / b.m)
             for b in mech.flat.bodies if np.asarray(b.I).size == 9 and float(b.m) > 0]
    return max(radii) if radii and max(radii) > 1e-9 else 1.0


def default_shapes(mech, comp, size: float, user_nets: set, p_num,
                   marker: float | None = None) -> list[Placed]:
    """The default shapes of one primitive component (empty for signal blocks and forces);
    ``marker`` [m] sizes the joints' markers in place of ``size`` (smaller beside the user's
    shapes)."""
    own = comp.default_shapes(size)
    if own is not None:
        return [Placed(comp.path, frame, shape, True) for frame, shape in own]
    flat = mech.flat
    if comp in flat.bodies and flat.net_of[comp.frame_a] not in user_nets:
        return _body(mech, comp, size)
    if comp in flat.joints:
        return _joint(mech, comp, size if marker is None else marker, p_num)
    return []


def _body(mech, body, size: float) -> list[Placed]:
    """A sphere at the center of mass holding m at the density of water, and a rod from
    frame_a to it when the center of mass lies outside the sphere."""
    inst = mech.inst[body]
    radius = (3.0 * float(body.m) / (4.0 * np.pi * DENSITY)) ** (1.0 / 3.0)
    radius = float(np.clip(radius, size / 50.0, size / 10.0))
    r_cm = ca.SX(inst.r_cm)
    out = [Placed(body.path, body.frame_a, BODY, True, "sphere", center=r_cm,
                  scale=ca.DM([radius] * 3))]
    offset = np.asarray(body.r_cm, dtype=float)
    if np.linalg.norm(offset) > radius:
        out.append(_rod(body.path, body.frame_a, r_cm, offset, size / 80.0, "rod"))
    return out


def _rod(owner: str, frame, vector, numeric: np.ndarray, radius: float, label: str) -> Placed:
    """A grey cylinder from the frame's origin to ``vector`` (frame axes; numeric: its value
    at the default parameters, which picks a well-conditioned completion of the axes)."""
    if vector.is_constant():     # numeric parameters: no symbolic rotation to build
        value = np.array(ca.DM(vector), dtype=float).ravel()
        return Placed(owner, frame, ROD, True, label,
                      rotation=ca.DM(rotation_to(value)), center=ca.DM(value / 2),
                      scale=ca.DM([radius, radius, float(np.linalg.norm(value))]))
    return Placed(owner, frame, ROD, True, label,
                  rotation=_along(vector, numeric), center=vector / 2,
                  scale=ca.vertcat(radius, radius, ca.norm_2(vector)))


def _along(vector, numeric: np.ndarray) -> ca.SX:
    """A rotation whose z axis is the direction of ``vector`` (CasADi, may be symbolic)."""
    e3 = vector / ca.norm_2(vector)
    helper = ca.DM(np.eye(3)[int(np.argmin(np.abs(numeric)))])
    e1 = ca.cross(helper, e3)
    e1 = e1 / ca.norm_2(e1)
    return ca.horzcat(e1, ca.cross(e3, e1), e3)


def _joint(mech, joint, size: float, p_num) -> list[Placed]:
    if not joint.COORDINATES:
        numeric = np.array(ca.DM(joint.relative_pose(ca.DM(0, 1))[1]), dtype=float).ravel()
        if np.linalg.norm(numeric) < 1e-9 * size:
            return []
        rel = ca.SX(mech.inst[joint].relative_pose(ca.SX(0, 1))[1])
        return [_rod(joint.path, joint.frame_a, rel, numeric, size / 80.0, "rod")]
    rot, trans = freedoms(joint)
    if rot is not None and rot.shape[1] == 1 and trans is not None and trans.shape[1] == 0:
        return [Placed(joint.path, joint.frame_a, AXIS, True, "axis",
                       rotation=ca.DM(rotation_to(rot[:, 0])),
                       scale=ca.DM([size / 40.0, size / 40.0, size / 10.0]))]
    if rot is not None and rot.shape[1] == 0 and trans is not None and trans.shape[1] == 1:
        d = trans[:, 0]
        length = ca.dot(ca.DM(d), _relative_origin(mech, joint))
        width = size / 40.0
        return [Placed(joint.path, joint.frame_a, SLIDER, True, "slider", rotation=ca.DM(rotation_to(d)), center=ca.DM(d) * length / 2,
                       scale=ca.vertcat(width, width, ca.fmax(ca.fabs(length), 1e-9 * size)))]
    if rot is not None and rot.shape[1] == 3 and trans is not None and trans.shape[1] == 0:
        return [Placed(joint.path, joint.frame_a, BALL, True, "ball",
                       scale=ca.DM([size / 40.0] * 3))]
    return []


def _relative_origin(mech, joint) -> ca.SX:
    """The origin of frame_b in frame_a axes [m]: the joint's own hook for tree joints (in
    its coordinates), the frames' poses for cut joints (the loop decides where frame_b is)."""
    if joint in mech.kin.relative:
        return ca.SX(mech.kin.relative[joint].p)
    frames, net_of = mech.kin.frames, mech.flat.net_of
    a, b = frames[net_of[joint.frame_a]], frames[net_of[joint.frame_b]]
    return ca.mtimes(a.R.T, b.r - a.r)


_FREEDOMS: dict = {}


def freedoms(joint) -> tuple:
    """Orthonormal bases of a joint's rotation axes (∂ω_rel/∂w, exact: ω_rel is linear in w)
    and translation directions (∂p_rel/∂q by central differences) at two generic
    coordinates, or None for either when it differs between them (not constant). Evaluated
    on the numeric component and cached by class and attribute values."""
    key = _key(joint)
    if key is not None and key in _FREEDOMS:
        return _FREEDOMS[key]
    nq, nw = len(joint.COORDINATES), len(joint.SPEEDS)
    rng = np.random.default_rng(7)
    bases = [[], []]
    for q in (rng.uniform(0.2, 0.9, nq), rng.uniform(0.2, 0.9, nq)):
        Jw = np.column_stack([_num(joint.relative_angular_velocity(ca.DM(q), ca.DM(e)))
                              for e in np.eye(nw)]) if nw else np.zeros((3, 0))
        h = 1e-6
        Jp = np.column_stack([(_num(joint.relative_pose(ca.DM(q + h * e))[1]) -
                               _num(joint.relative_pose(ca.DM(q - h * e))[1])) / (2 * h)
                              for e in np.eye(nq)])
        bases[0].append(Jw)
        bases[1].append(Jp)
    result = tuple(_basis(a) if np.allclose(a, b, rtol=0, atol=1e-7) else None
                   for a, b in bases)
    if key is not None:
        _FREEDOMS[key] = result
    return result


def _num(value) -> np.ndarray:
    return np.array(ca.DM(value), dtype=float).ravel()


def _key(joint):
    """The class and the plain attribute values, or None when they are not hashable."""
    try:
        items = tuple(sorted((k, v) for k, v in vars(joint).items()
                             if not k.startswith("_") and isinstance(v, (int, float, str, tuple))))
        hash(items)
    except TypeError:
        return None
    return type(joint), items


def _basis(matrix: np.ndarray) -> np.ndarray:
    """Orthonormal columns spanning the column space of ``matrix`` (3 × k)."""
    if matrix.size == 0:
        return np.zeros((3, 0))
    u, sv, _ = np.linalg.svd(matrix)
    rank = int(np.sum(sv > 1e-6 * max(1.0, sv.max()))) if sv.size else 0
    return u[:, :rank]
