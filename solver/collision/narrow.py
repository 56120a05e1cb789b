"""Numeric narrow and broad phase: the distance and witness points of any two collision
shapes at given poses, through MuJoCo's own collision functions (``mj_geomDistance``: its
closed forms for primitives, its GJK/EPA for boxes against capsules, cylinders and convex
meshes), and a broad phase on bounding spheres.

Why MuJoCo: it is already the project's MJCF compiler and test peer (no new dependency), it
is maintained, its pair functions cover every shape jourdain declares (convex meshes
included, through their hull), and the same library's numbers are the reference of the
benchmark scenes. A :class:`Narrow` builds one small MjModel per pair (two mocap bodies
carrying the two geoms) once and then costs one ``mj_kinematics`` and one
``mj_geomDistance`` per query.
"""
from __future__ import annotations

import numpy as np

from jourdain.blocks.errors import ModelError
from jourdain.blocks.visual import Box, Capsule, Cylinder, Mesh, Plane, Sphere

PLANE_EXTENT = 1e3      # [m] half-size MuJoCo gives the plane geom (infinite for collisions)


def _quat(R) -> np.ndarray:
    import mujoco
    q = np.zeros(4)
    mujoco.mju_mat2Quat(q, np.ascontiguousarray(np.asarray(R, dtype=float).ravel()))
    return q


def _geom_xml(shape, name: str) -> tuple[str, str]:
    """(asset, geom) XML of a shape placed by its own centre and rotation."""
    pos = " ".join(repr(float(v)) for v in shape.center)
    quat = " ".join(repr(float(v)) for v in _quat(shape.matrix()))
    where = f'pos="{pos}" quat="{quat}"'
    if isinstance(shape, Sphere):
        return "", f'<geom name="{name}" type="sphere" size="{shape.radius!r}" {where}/>'
    if isinstance(shape, (Capsule, Cylinder)):
        kind = "capsule" if isinstance(shape, Capsule) else "cylinder"
        return "", (f'<geom name="{name}" type="{kind}" size="{shape.radius!r} '
                    f'{shape.length / 2!r}" {where}/>')
    if isinstance(shape, Box):
        half = " ".join(repr(v / 2) for v in shape.size)
        return "", f'<geom name="{name}" type="box" size="{half}" {where}/>'
    if isinstance(shape, Plane):
        return "", (f'<geom name="{name}" type="plane" size="{PLANE_EXTENT} {PLANE_EXTENT} 1" '
                    f'{where}/>')
    if isinstance(shape, Mesh):
        scale = " ".join(repr(v) for v in shape.scale)
        return (f'<mesh name="{name}_mesh" file="{shape.path}" scale="{scale}"/>',
                f'<geom name="{name}" type="mesh" mesh="{name}_mesh" {where}/>')
    raise ModelError(f"collision shape {shape!r}: not a collision shape; use Sphere, Capsule, "
                     "Cylinder, Box, Mesh or Plane from jourdain.blocks.visual")


class Narrow:
    """Distance queries between two shapes (each placed in its own frame)."""

    def __init__(self, shape_a, shape_b):
        try:
            import mujoco
        except ImportError as exc:
            raise ModelError("the numeric narrow phase needs MuJoCo: pip install "
                             "'jourdain[collision]'") from exc
        if isinstance(shape_a, Plane) and isinstance(shape_b, Plane):
            raise ModelError("collision: the distance between two planes is not defined "
                             "(filter the pair out: both are fixed in the world)")
        assets, geoms = zip(*(_geom_xml(s, n) for s, n in ((shape_a, "a"), (shape_b, "b"))))
        xml = (f'<mujoco><asset>{"".join(assets)}</asset><worldbody>'
               f'<body name="A" mocap="true">{geoms[0]}</body>'
               f'<body name="B" mocap="true">{geoms[1]}</body></worldbody></mujoco>')
        try:
            self.model = mujoco.MjModel.from_xml_string(xml)
        except ValueError as exc:
            raise ModelError(f"collision: MuJoCo could not build the pair ({exc})") from exc
        self.data = mujoco.MjData(self.model)
        self._mj = mujoco

    def distance(self, pose_a, pose_b, distmax: float = 10.0):
        """(distance, p_a, p_b, n) at frame poses ``pose_a`` = (R_a, r_a) and ``pose_b``:
        signed distance [m] (negative: penetration depth), the witness points on a and b
        (world) and the unit normal from a to b. Beyond ``distmax`` the distance is distmax
        and the points are undefined (NaN)."""
        d = self.data
        for k, (R, r) in enumerate((pose_a, pose_b)):
            d.mocap_pos[k] = np.asarray(r, dtype=float).ravel()
            d.mocap_quat[k] = _quat(R)
        self._mj.mj_kinematics(self.model, d)
        fromto = np.zeros(6)
        dist = float(self._mj.mj_geomDistance(self.model, d, 0, 1, distmax, fromto))
        if dist >= distmax:
            nan = np.full(3, np.nan)
            return dist, nan, nan, nan
        pa, pb = fromto[:3].copy(), fromto[3:].copy()
        n = (pb - pa) * np.sign(dist) if abs(dist) > 1e-12 else np.zeros(3)
        norm = np.linalg.norm(n)
        return dist, pa, pb, n / norm if norm > 0 else n


def distance(shape_a, pose_a, shape_b, pose_b, distmax: float = 10.0):
    """One query of :class:`Narrow` (builds the pair's model: reuse a Narrow in loops)."""
    return Narrow(shape_a, shape_b).distance(pose_a, pose_b, distmax)


def bounding_radius(shape) -> float:
    """Radius of a sphere about the shape's frame origin that holds the shape (inf for a
    plane)."""
    c = float(np.linalg.norm(shape.center))
    if isinstance(shape, Sphere):
        return c + shape.radius
    if isinstance(shape, (Capsule, Cylinder)):
        return c + shape.length / 2 + shape.radius
    if isinstance(shape, Box):
        return c + float(np.linalg.norm(shape.size)) / 2
    if isinstance(shape, Plane):
        return np.inf
    if isinstance(shape, Mesh):
        from jourdain.blocks.hybrid.narrow import mesh_vertices
        return c + float(np.max(np.linalg.norm(mesh_vertices(shape, "collision"), axis=1)))
    raise ModelError(f"collision shape {shape!r}: not a collision shape")


def broad_phase(centres, radii, candidates, margin: float = 0.0) -> list[int]:
    """The indices of ``candidates`` (pairs (i, j) of shapes) whose bounding spheres (world
    ``centres`` [n×3], ``radii`` [n]) come within ``margin`` [m]: the intervals along the
    axis of largest spread first (cheap rejections), then the sphere test. Infinite radii
    (planes) always pass. Vectorized over the candidates: no Python per pair."""
    centres, radii = np.asarray(centres, dtype=float), np.asarray(radii, dtype=float)
    finite = np.isfinite(radii)
    axis = int(np.argmax(np.ptp(centres[finite], axis=0))) if finite.sum() > 1 else 0
    lo = np.where(finite, centres[:, axis] - radii - margin / 2, -np.inf)
    hi = np.where(finite, centres[:, axis] + radii + margin / 2, np.inf)
    pairs = np.asarray(candidates, dtype=int).reshape(-1, 2)
    i, j = pairs[:, 0], pairs[:, 1]
    overlap = (lo[i] <= hi[j]) & (lo[j] <= hi[i])
    both = finite[i] & finite[j]
    gap = np.linalg.norm(centres[i] - centres[j], axis=1) - np.where(both, radii[i] + radii[j],
                                                                     0.0)
    near = ~both | (gap <= margin)
    return [int(k) for k in np.flatnonzero(overlap & near)]
