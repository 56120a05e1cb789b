"""Shape poses along a trajectory: ``poses(x, p)`` mapped over the samples of a Result or an
optimization Solution (duck-typed: anything with ``t``, ``x``, ``p`` and ``system``, or a
``trajectory`` holding them), and the view those poses suggest (bounding box, plane of a
planar mechanism)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from jourdain.blocks.errors import ModelError

from .scene import VisualModel


@dataclass
class Motion:
    """Poses of every shape at the times t [s] (n): R (n, k, 3, 3) shape axes → world,
    r (n, k, 3) centres [m], scale (n, k, 3) factors of the unit geometry; ``visual`` the
    shapes, ``label`` a name for legends (a sweep's parameter value), ``traces`` the paths
    of chosen frames' origins, name → (n × 3) [m] in world axes."""

    t: np.ndarray
    R: np.ndarray
    r: np.ndarray
    scale: np.ndarray
    visual: VisualModel
    label: str = ""
    traces: dict = field(default_factory=dict)

    @property
    def duration(self) -> float:
        return float(self.t[-1] - self.t[0]) if self.t.size else 0.0


def shape_poses(system, x: np.ndarray, p: np.ndarray) -> tuple:
    """(R, r, scale) of the shapes at the states x (nx × n) for the parameters p, shaped
    (n, k, 3, 3), (n, k, 3), (n, k, 3)."""
    poses = getattr(system, "poses", None)
    if poses is None:
        raise ModelError("this System carries no poses function; compile the model again with "
                         "this version of jourdain")
    x = np.asarray(x, dtype=float)
    n, k = x.shape[1], len(system.visual)
    P = np.asarray(p, dtype=float)   # one column per sample where hybrid modes change
    if P.ndim == 1:
        P = np.repeat(P.reshape(-1, 1), n, axis=1)
    R, r, s = (np.array(v, dtype=float) for v in poses.map(n)(x, P))
    return (R.reshape(3, n, k, 3).transpose(1, 2, 0, 3), r.reshape(3, n, k).transpose(1, 2, 0),
            s.reshape(3, n, k).transpose(1, 2, 0))


def motion_of(source, label: str = "", t_range=None, traces=()) -> Motion:
    """The Motion of a Result (``t``, ``x``, ``p``, ``system``) or of a Solution (its
    ``trajectory``), over the samples in ``t_range`` = (t0, t1) [s] (None: all), with the
    paths of the frames named in ``traces`` (:func:`.traces.frame_paths`)."""
    run = getattr(source, "trajectory", source)
    system = getattr(run, "system", None)
    if system is None or getattr(run, "x", None) is None:
        raise ModelError(f"animate: expected a simulation Result or an optimization Solution, "
                         f"got {type(source).__name__}")
    t = np.asarray(run.t, dtype=float)
    keep = np.ones(t.size, dtype=bool)
    if t_range is not None:
        from .plots import window
        keep = window(t, t_range, "animate")
    p = np.asarray(run.p, dtype=float)
    x, p = np.asarray(run.x)[:, keep], p[:, keep] if p.ndim == 2 else p
    R, r, s = shape_poses(system, x, p)
    from .traces import frame_paths
    return Motion(t[keep], R, r, s, system.visual, label,
                  frame_paths(system, t[keep], x, p, traces))


def points(motions: list[Motion]) -> np.ndarray:
    """All shape centres of all runs and samples (m × 3) [m], for planes and views."""
    return np.concatenate([m.r.reshape(-1, 3) for m in motions if m.r.size]) \
        if any(m.r.size for m in motions) else np.zeros((1, 3))


def radii(motion: Motion) -> np.ndarray:
    """Radius [m] of a sphere about each shape's centre that holds the shape (n × k); a
    mesh counts as a point (its file is read only when drawn)."""
    s = np.abs(motion.scale)
    out = np.zeros(s.shape[:2])
    for k, spec in enumerate(motion.visual.shapes):
        if spec.kind == "box":
            out[:, k] = 0.5 * np.linalg.norm(s[:, k], axis=1)
        elif spec.kind == "sphere":
            out[:, k] = s[:, k, 0]
        elif spec.kind == "cylinder":
            out[:, k] = np.hypot(s[:, k, 0], 0.5 * s[:, k, 2])
        elif spec.kind == "capsule":
            out[:, k] = spec.radius + 0.5 * spec.length
    return out


def bounds(motions: list[Motion]) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper corners [m] of a box that holds every shape of every run."""
    lo, hi = [], []
    for m in motions:
        if m.r.size:
            rad = radii(m)[..., None]
            lo.append((m.r - rad).reshape(-1, 3).min(axis=0))
            hi.append((m.r + rad).reshape(-1, 3).max(axis=0))
    if not lo:
        return np.zeros(3), np.zeros(3)
    return np.min(lo, axis=0), np.max(hi, axis=0)


def plane_normal(pts: np.ndarray, tol: float = 1e-6) -> np.ndarray | None:
    """The normal of the plane holding all points (a planar mechanism), or None."""
    if len(pts) < 3:
        return None
    centred = pts - pts.mean(axis=0)
    _, sv, vt = np.linalg.svd(centred, full_matrices=False)
    if sv.size < 3 or sv[0] == 0:
        return None
    return vt[2] if sv[2] <= tol * sv[0] else None
