"""Closed-form narrow phase in CasADi: the gap, normal and witness points of two collision
shapes (``jourdain.blocks.visual``) fixed in two frames, as expressions of the state, so the
event-driven contacts watch the gap as a guard and hold the normal speed as a constraint.

A pair is resolved into contact *points*, each with its own rows: one for sphere–sphere,
sphere–capsule, capsule–capsule and sphere–box; one per end of a capsule on a plane, per
corner of a box, per hull vertex of a convex mesh (the deepest point of a polyhedron on a plane is always a vertex,
so the gap is exact). Every gap is the signed distance of the two shapes' closest points
(negative: penetration), with the normal ``n`` from shape a to shape b; for smooth pairs
ġ = n·(v_b − v_a) at the witness points, the row the solver holds.

Pairs without a closed form here (box–box, box–capsule, cylinders, meshes
against anything but a plane) are refused by name: :func:`point_count` raises a ModelError
that says what to do (spheres on the shape, or the time-stepping mode). The numeric narrow
phase of every pair (MuJoCo's collision functions) is ``jourdain.solver.collision.narrow``.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from ..errors import ModelError
from ..visual.shapes import Box, Capsule, Cylinder, Mesh, Plane, Sphere

# order of the kinds: a pair is solved with the lower rank as shape a (the normal flipped back)
_RANK = {Plane: 0, Box: 1, Mesh: 2, Capsule: 3, Cylinder: 4, Sphere: 5}
_SUPPORTED = {(Plane, Sphere), (Plane, Capsule), (Plane, Box), (Plane, Mesh),
              (Sphere, Sphere), (Capsule, Sphere), (Box, Sphere), (Capsule, Capsule)}
MAX_VERTICES = 64     # hull vertices of a mesh on a plane: one contact (3 rows) each


def _kind(shape):
    for cls in _RANK:
        if type(shape) is cls:
            return cls
    raise ModelError(f"collision shape {shape!r}: not a collision shape; use Sphere, Capsule, "
                     "Cylinder, Box, Mesh or Plane from jourdain.blocks.visual")


def ordered(shape_a, shape_b) -> bool:
    """True when the pair is solved as given, False when a and b are swapped."""
    return _RANK[_kind(shape_a)] <= _RANK[_kind(shape_b)]


def point_count(shape_a, shape_b, owner: str = "contact") -> int:
    """The number of contact points of the pair; a ModelError for pairs without a closed
    form (named by ``owner``)."""
    a, b = (shape_a, shape_b) if ordered(shape_a, shape_b) else (shape_b, shape_a)
    key = (_kind(a), _kind(b))
    if key not in _SUPPORTED:
        raise ModelError(
            f"{owner}: event-driven contact between a {key[0].__name__} and a "
            f"{key[1].__name__} is not supported (closed forms: sphere–sphere, sphere–capsule, "
            "capsule–capsule, sphere–box, and sphere, capsule, box or convex mesh on a "
            "plane); put Spheres on one of the shapes (e.g. at a box's corners), or filter "
            "the pair out with "
            "collision groups (group/mask)")
    if key == (Plane, Capsule):
        return 2
    if key == (Plane, Box):
        return 8
    if key == (Plane, Mesh):
        return len(mesh_vertices(b, owner))
    return 1


def mesh_vertices(mesh: Mesh, owner: str = "contact") -> np.ndarray:
    """The convex hull's vertices of a mesh file, scaled, in the mesh's own axes."""
    try:
        import trimesh
    except ImportError as exc:
        raise ModelError(f"{owner}: mesh collision shapes need trimesh: pip install "
                         "'jourdain[visual]'") from exc
    hull = trimesh.load(mesh.path, force="mesh").convex_hull
    vertices = np.asarray(hull.vertices, dtype=float) * np.asarray(mesh.scale)
    if len(vertices) > MAX_VERTICES:
        raise ModelError(f"{owner}: the convex hull of {mesh.path} has {len(vertices)} "
                         f"vertices (more than {MAX_VERTICES} contact points on a plane); "
                         "simplify the mesh or use a Box or Capsule for its collision shape")
    return vertices


def _pose(shape, frame):
    """World rotation and centre of a shape fixed in a frame (FrameState)."""
    R = ca.mtimes(frame.R, ca.DM(shape.matrix()))
    return R, frame.r + ca.mtimes(frame.R, ca.DM(shape.center))


def _unit(vec):
    return vec / ca.sqrt(ca.dot(vec, vec))


def _sphere_sphere(ca_, ra, cb, rb):
    n = _unit(cb - ca_)
    gap = ca.norm_2(cb - ca_) - ra - rb
    return gap, n, ca_ + ra * n, cb - rb * n


def _plane_point(R_plane, c_plane, point, radius):
    n = R_plane[:, 2]
    gap = ca.dot(n, point - c_plane) - radius
    on_b = point - radius * n
    return gap, n, on_b - gap * n, on_b


def _capsule_ends(R, c, capsule):
    half = 0.5 * capsule.length * R[:, 2]
    return c - half, c + half


def _segment_point(R, c, length, point):
    """The point of the segment c ± (length/2)·R[:, 2] closest to ``point``."""
    axis = R[:, 2]
    t = ca.fmin(ca.fmax(ca.dot(axis, point - c), -0.5 * length), 0.5 * length)
    return c + t * axis


def _segments(p1, d1, p2, d2):
    """Closest points of the segments p1 + s·d1 and p2 + t·d2, s, t ∈ [0, 1] (Ericson,
    *Real-Time Collision Detection*, 2005, §5.1.9); parallel segments take s = 0 (the
    distance is right, the points one of the closest pairs)."""
    r = p1 - p2
    a, e, f = ca.dot(d1, d1), ca.dot(d2, d2), ca.dot(d2, r)
    c, b = ca.dot(d1, r), ca.dot(d1, d2)
    denom = a * e - b * b

    def clamp(v):
        return ca.fmin(ca.fmax(v, 0), 1)
    s = ca.if_else(denom > 1e-12 * a * e, clamp((b * f - c * e) / denom), 0)
    t = (b * s + f) / e
    s = ca.if_else(t < 0, clamp(-c / a), ca.if_else(t > 1, clamp((b - c) / a), s))
    t = clamp(t)
    return p1 + s * d1, p2 + t * d2


def _box_sphere(R, c, box, centre, radius):
    """Sphere against a box: the closest point of the box (clamped in its axes); inside, the
    nearest face."""
    half = ca.DM(box.size) / 2
    q = ca.mtimes(R.T, centre - c)
    clamped = ca.fmin(ca.fmax(q, -half), half)
    d = q - clamped
    dist = ca.norm_2(d)
    outside = dist > 1e-12
    depth = half - ca.fabs(q)                    # inside: distance to each face pair
    ax = [ca.logic_and(depth[i] <= depth[(i + 1) % 3], depth[i] <= depth[(i + 2) % 3])
          for i in range(3)]
    ax[1] = ca.logic_and(ax[1], ca.logic_not(ax[0]))
    ax[2] = ca.logic_and(ax[2], ca.logic_not(ca.logic_or(ax[0], ax[1])))
    face = ca.vertcat(*[ca.if_else(ax[i], ca.sign(q[i]) + (q[i] == 0), 0) for i in range(3)])
    n_local = ca.if_else(outside, d / ca.fmax(dist, 1e-300), face)
    inside_depth = ca.mmin(depth)
    gap = ca.if_else(outside, dist, -inside_depth) - radius
    n = ca.mtimes(R, n_local)
    on_a = ca.if_else(outside, c + ca.mtimes(R, clamped), centre + inside_depth * n)
    return gap, n, on_a, centre - radius * n


def contact(shape_a, frame_a, shape_b, frame_b, k: int = 0, vertices=None):
    """(gap, n, p_a, p_b) of contact point ``k`` of the pair: n the unit normal from a to b
    (world axes), p_a and p_b the witness points on a and on b (world)."""
    if not ordered(shape_a, shape_b):
        gap, n, p_b, p_a = contact(shape_b, frame_b, shape_a, frame_a, k, vertices)
        return gap, -n, p_a, p_b
    Ra, ca_ = _pose(shape_a, frame_a)
    Rb, cb = _pose(shape_b, frame_b)
    key = (_kind(shape_a), _kind(shape_b))
    if key == (Sphere, Sphere):
        return _sphere_sphere(ca_, shape_a.radius, cb, shape_b.radius)
    if key == (Capsule, Sphere):
        axis_point = _segment_point(Ra, ca_, shape_a.length, cb)
        return _sphere_sphere(axis_point, shape_a.radius, cb, shape_b.radius)
    if key == (Capsule, Capsule):
        (a0, a1), (b0, b1) = _capsule_ends(Ra, ca_, shape_a), _capsule_ends(Rb, cb, shape_b)
        qa, qb = _segments(a0, a1 - a0, b0, b1 - b0)
        return _sphere_sphere(qa, shape_a.radius, qb, shape_b.radius)
    if key == (Box, Sphere):
        return _box_sphere(Ra, ca_, shape_a, cb, shape_b.radius)
    if key == (Plane, Sphere):
        return _plane_point(Ra, ca_, cb, shape_b.radius)
    if key == (Plane, Capsule):
        return _plane_point(Ra, ca_, _capsule_ends(Rb, cb, shape_b)[k], shape_b.radius)
    if key == (Plane, Box):
        from .contacts import box_corners
        corner = ca.DM(box_corners(shape_b.size)[k])
        return _plane_point(Ra, ca_, cb + ca.mtimes(Rb, corner), 0.0)
    if key == (Plane, Mesh):
        verts = mesh_vertices(shape_b) if vertices is None else vertices
        return _plane_point(Ra, ca_, cb + ca.mtimes(Rb, ca.DM(verts[k])), 0.0)
    point_count(shape_a, shape_b)           # raises the named refusal
    raise AssertionError(key)               # pragma: no cover


def tangent_basis(n):
    """Two unit tangents (t1, t2) with t1 × t2 = n for a symbolic unit normal: t1 is built
    from the coordinate axis least aligned with n (the choice switches where two components
    of n tie in magnitude; a smooth field of tangents on the sphere does not exist)."""
    ax, ay, az = ca.fabs(n[0]), ca.fabs(n[1]), ca.fabs(n[2])
    use_x = ca.logic_and(ax <= ay, ax <= az)
    use_y = ca.logic_and(ca.logic_not(use_x), ay <= az)
    e1 = ca.if_else(use_x, ca.vertcat(0, -n[2], n[1]),
                    ca.if_else(use_y, ca.vertcat(n[2], 0, -n[0]),
                               ca.vertcat(-n[1], n[0], 0)))
    t1 = _unit(e1)
    t2 = ca.cross(n, t1)
    return t1, t2
