"""Narrow phase of the time-stepping mode: analytic distances of primitive pairs as CasADi
expressions in the bodies' poses (sphere–plane, sphere–sphere, capsule–plane,
capsule–sphere, capsule–capsule, box–plane by its corners, box–sphere).

A :class:`Primitive` is a collider turned into numbers: its kind, the frame it is fixed in,
its pose in that frame and its dimensions. A contact of a pair (a, b) is ``(gap, n, pa, pb)``
in world axes: the normal n points from b to a (the direction a is pushed), gap ≥ 0 is the
separation along n (negative: penetration), pa and pb are the witness points on a and b.
Pairs this mode cannot compile (box–box, cylinders, meshes) are refused by name: run them
with ``contact="events"`` where the event-driven mode supports them.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError
from jourdain.blocks.visual.shapes import Plane as VisualPlane

from ..collision.pairs import WORLD

EPS = 1e-12    # [m²] keeps square roots and divisions finite where two points coincide
SUPPORTED = ("sphere–plane, sphere–sphere, capsule–plane, capsule–sphere, capsule–capsule, "
             "box–plane (corners), box–sphere")


@dataclass(frozen=True)
class Primitive:
    """A collider as numbers: kind ('sphere', 'capsule', 'box', 'plane'), frame path (or
    WORLD), centre c [m] and rotation R (shape axes → frame axes) in that frame, and dims:
    sphere (radius,) (0: a point), capsule (radius, half length along its z), box (half
    edges), plane (normal x, y, z in the frame, offset)."""

    kind: str
    frame: str
    center: tuple
    rotation: tuple
    dims: tuple
    name: str


def primitive(collider) -> Primitive:
    """The primitive of a solver.collision Collider (refused by name when not one)."""
    shape, label = collider.shape, collider.name or collider.frame
    if isinstance(shape, VisualPlane):     # the half-space below it: n·p ≤ n·centre
        normal = shape.unit_normal()
        return Primitive("plane", collider.frame, (0.0,) * 3, tuple(np.eye(3).ravel()),
                         tuple(normal) + (float(normal @ np.asarray(shape.center)),), label)
    kind = getattr(shape, "KIND", type(shape).__name__)
    pose = (tuple(float(v) for v in shape.center), tuple(np.asarray(shape.matrix()).ravel()))
    if kind == "sphere":
        return Primitive("sphere", collider.frame, *pose, (float(shape.radius),), label)
    if kind == "capsule":
        return Primitive("capsule", collider.frame, *pose,
                         (float(shape.radius), float(shape.length) / 2), label)
    if kind == "box":
        return Primitive("box", collider.frame, *pose,
                         tuple(float(v) / 2 for v in shape.size), label)
    raise ModelError(f"collider '{label}': a {kind} shape has no narrow phase in "
                     f"contact='stepping' (it compiles {SUPPORTED}); use spheres, capsules or "
                     "boxes, or contact='events'")


def pair_contacts(a: Primitive, pose_a, b: Primitive, pose_b) -> list[tuple]:
    """The contacts (gap, n, pa, pb) of the pair (module docstring); pose = (R, r) of the
    primitive's frame in world axes (SX or DM)."""
    order = ("plane", "box", "capsule", "sphere")     # a's kind ranks after b's, or swap
    if order.index(a.kind) < order.index(b.kind):
        return [(g, -n, pb, pa) for g, n, pa, pb in pair_contacts(b, pose_b, a, pose_a)]
    rule = _RULES.get((a.kind, b.kind))
    if rule is None:
        raise ModelError(f"collision pair '{a.name}|{b.name}': {a.kind}–{b.kind} has no "
                         f"narrow phase in contact='stepping' (it compiles {SUPPORTED}); "
                         "remove the pair, approximate a shape by spheres or capsules, or "
                         "use contact='events'")
    return rule(a, _placed(a, pose_a), b, _placed(b, pose_b))


def _placed(prim: Primitive, pose) -> tuple:
    """World rotation and centre of the primitive."""
    R, r = pose
    R_s = ca.DM(np.reshape(prim.rotation, (3, 3)))
    return ca.mtimes(R, R_s), r + ca.mtimes(R, ca.DM(prim.center))


def _plane(prim: Primitive, placed) -> tuple:
    """World unit normal and a point of the plane."""
    R, r = placed
    n = ca.mtimes(R, ca.DM(prim.dims[:3]))
    return n, r + prim.dims[3] * n


def _sphere_plane(a, pa_, b, pb_, centre=None, radius=None):
    c = pa_[1] if centre is None else centre
    radius = a.dims[0] if radius is None else radius
    n, p0 = _plane(b, pb_)
    d = ca.dot(n, c - p0)
    return [(d - radius, n, c - radius * n, c - d * n)]


def _spheres(ca_, ra, cb, rb):
    d = ca_ - cb
    dist = ca.sqrt(ca.dot(d, d) + EPS)
    n = d / dist
    return [(dist - ra - rb, n, ca_ - ra * n, cb + rb * n)]


def _sphere_sphere(a, pa_, b, pb_):
    return _spheres(pa_[1], a.dims[0], pb_[1], b.dims[0])


def _ends(prim, placed):
    R, c = placed
    half = prim.dims[1] * R[:, 2]
    return c - half, c + half


def _capsule_plane(a, pa_, b, pb_):
    return [item for end in _ends(a, pa_)
            for item in _sphere_plane(a, pa_, b, pb_, centre=end, radius=a.dims[0])]


def _closest_on_segment(p0, p1, q):
    d = p1 - p0
    s = ca.fmin(ca.fmax(ca.dot(q - p0, d) / (ca.dot(d, d) + EPS), 0), 1)
    return p0 + s * d


def _sphere_capsule(a, pa_, b, pb_):       # a: sphere, b: capsule (a ranks after b)
    q = _closest_on_segment(*_ends(b, pb_), pa_[1])
    return _spheres(pa_[1], a.dims[0], q, b.dims[0])


def _capsule_capsule(a, pa_, b, pb_):
    """Closest points of two segments (Ericson 2005, §5.1.9), clamped; parallel segments
    take the point of b nearest to a's start."""
    p1, q1 = _ends(a, pa_)
    p2, q2 = _ends(b, pb_)
    d1, d2, r = q1 - p1, q2 - p2, p1 - p2
    A, E, F = ca.dot(d1, d1), ca.dot(d2, d2), ca.dot(d2, r)
    C, B = ca.dot(d1, r), ca.dot(d1, d2)
    denom = A * E - B * B
    s = ca.if_else(denom > EPS * A * E, ca.fmin(ca.fmax((B * F - C * E) / (denom + EPS), 0),
                                                1), 0)
    t = (B * s + F) / E
    t_c = ca.fmin(ca.fmax(t, 0), 1)
    s = ca.if_else(t < 0, ca.fmin(ca.fmax(-C / A, 0), 1),
                   ca.if_else(t > 1, ca.fmin(ca.fmax((B - C) / A, 0), 1), s))
    return _spheres(p1 + s * d1, a.dims[0], p2 + t_c * d2, b.dims[0])


def _box_plane(a, pa_, b, pb_):
    R, c = pa_
    half = np.array(a.dims)
    out = []
    for sx in (-1, 1):
        for sy in (-1, 1):
            for sz in (-1, 1):
                corner = c + ca.mtimes(R, ca.DM(half * (sx, sy, sz)))
                out += _sphere_plane(a, pa_, b, pb_, centre=corner, radius=0.0)
    return out


def _sphere_box(a, pa_, b, pb_):           # a: sphere, b: box
    """Closest point of the box to the sphere's centre (clamped in box axes); a centre
    inside the box pushes out along the nearest face's normal."""
    R, c = pb_
    half = ca.DM(b.dims)
    local = ca.mtimes(R.T, pa_[1] - c)
    q = ca.fmin(ca.fmax(local, -half), half)
    d = local - q
    outside = ca.dot(d, d) > EPS
    depth = half - ca.fabs(local)                # distance to each face pair from inside
    k_face = [ca.logic_and(depth[i] <= depth[(i + 1) % 3], depth[i] <= depth[(i + 2) % 3])
              for i in range(3)]
    face_n = ca.vertcat(*[ca.if_else(k_face[i], ca.sign(local[i]) + (local[i] == 0), 0)
                          for i in range(3)])
    dist = ca.sqrt(ca.dot(d, d) + EPS)
    n_local = ca.if_else(outside, d / dist, face_n)
    gap_centre = ca.if_else(outside, dist, -ca.mmin(depth))
    n = ca.mtimes(R, n_local)
    point_b = c + ca.mtimes(R, ca.if_else(outside, q, local + depth * 0 + n_local *
                                          ca.mmin(depth)))
    radius = a.dims[0]
    return [(gap_centre - radius, n, pa_[1] - radius * n, point_b)]


_RULES = {("sphere", "plane"): _sphere_plane, ("sphere", "sphere"): _sphere_sphere,
          ("capsule", "plane"): _capsule_plane, ("sphere", "capsule"): _sphere_capsule,
          ("capsule", "capsule"): _capsule_capsule, ("box", "plane"): _box_plane,
          ("sphere", "box"): _sphere_box}


def world_fixed(prim: Primitive) -> bool:
    return prim.frame == WORLD
