"""Where the player puts its ground: the lowest point of the machine over the shown motion,
measured along the world's up direction, so the grid lies under the model (a pendulum's
lowest swing, a robot's base, a cube lying on its floor) instead of through its pivot.

Exact per shape kind, at every sample: the height of a shape's lowest point is the height of
its centre minus its half-extent along up — a box Σ|u·Rᵢ|·eᵢ (half edges eᵢ), a sphere its
radius, a cylinder ½L·|u·a| + r·√(1 − (u·a)²) (axis a), a capsule ½L·|u·a| + r; a mesh its
lowest vertex of the convex hull.
"""
from __future__ import annotations

import numpy as np

from .meshes import shape_mesh
from .motion import Motion


def floor_height(motions: list[Motion], up) -> float:
    """The lowest height u·r [m] any shape of any run reaches (0 when nothing is drawn)."""
    u = np.asarray(up, dtype=float) / np.linalg.norm(up)
    low = [_lowest(m, k, u) for m in motions for k in range(len(m.visual))
           if m.r.size]
    return float(min(low)) if low else 0.0


def _lowest(motion: Motion, k: int, u: np.ndarray) -> float:
    spec = motion.visual.shapes[k]
    R, c, s = motion.R[:, k], motion.r[:, k], np.abs(motion.scale[:, k])
    height = c @ u
    ua = np.einsum("i,nij->nj", u, R)          # u in shape axes, per sample
    if spec.kind == "box":
        reach = np.sum(np.abs(ua) * s / 2, axis=1)
    elif spec.kind == "sphere":
        reach = s[:, 0]
    elif spec.kind == "cylinder":
        along = np.abs(ua[:, 2])
        reach = s[:, 2] / 2 * along + s[:, 0] * np.sqrt(np.clip(1 - along ** 2, 0, 1))
    elif spec.kind == "capsule":
        reach = spec.length / 2 * np.abs(ua[:, 2]) + spec.radius
    else:                                       # mesh: its hull's lowest vertex
        hull = _hull(spec)
        return float(np.min(height + np.min((ua * motion.scale[:, k]) @ hull.T, axis=1)))
    return float(np.min(height - reach))


def _hull(spec) -> np.ndarray:
    vertices = shape_mesh(spec).vertices
    try:
        from scipy.spatial import ConvexHull
        return vertices[ConvexHull(vertices).vertices]
    except Exception:   # a flat or degenerate mesh (qhull refuses it): all its vertices
        return vertices
