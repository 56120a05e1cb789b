"""Animations as video (MP4 through the ffmpeg that imageio-ffmpeg ships) or GIF (Pillow),
drawn by matplotlib in an orthographic projection: a planar mechanism is seen along the
normal of its plane (a true 2-D picture), a spatial one from an oblique direction. Shapes are
drawn as their silhouettes (spheres as circles, boxes, cylinders and meshes as the convex hull
of their projected outline), back to front.

The figure is a bare ``matplotlib.figure.Figure`` on the Agg canvas: no pyplot window, and the
user's backend is left alone.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .html import view_direction
from .meshes import mesh_key, shape_mesh
from .motion import Motion, radii

RING = np.linspace(0.0, 2 * np.pi, 24, endpoint=False)
_k = np.arange(64) + 0.5                 # 64 points spread over the unit sphere (Fibonacci)
_z = 1 - 2 * _k / 64
SPHERE = np.column_stack([np.sqrt(1 - _z**2) * np.cos(np.pi * (3 - np.sqrt(5)) * _k),
                          np.sqrt(1 - _z**2) * np.sin(np.pi * (3 - np.sqrt(5)) * _k), _z])


def view_basis(motions: list[Motion], view=None) -> np.ndarray:
    """Rows (right, up, towards the viewer) of the projection; ``view`` is a direction
    towards the viewer in model axes, default the default camera's."""
    up = np.asarray(motions[0].visual.up, dtype=float)
    if view is None:
        view = view_direction(motions, up, tilt=False)
    d = np.asarray(view, dtype=float)
    d = d / np.linalg.norm(d)
    v = up - np.dot(up, d) * d
    if np.linalg.norm(v) < 1e-9:        # looking along up: screen up is the model's -z or x
        v = np.cross(d, (1.0, 0, 0)) if abs(d[0]) < 0.9 else np.cross(d, (0, 0, 1.0))
    v = v / np.linalg.norm(v)
    return np.vstack([np.cross(v, d), v, d])


def outline(kind: str, R: np.ndarray, r: np.ndarray, s: np.ndarray, spec, mesh=None):
    """Points of a shape's outline in model coordinates (m × 3), or ("circle", radius)."""
    if kind == "sphere":
        return ("circle", float(s[0]))
    if kind == "box":
        corners = np.array([[x, y, z] for x in (-.5, .5) for y in (-.5, .5) for z in (-.5, .5)])
        local = corners * s
    elif kind == "cylinder":
        ring = np.column_stack([s[0] * np.cos(RING), s[0] * np.sin(RING), np.zeros(RING.size)])
        local = np.vstack([ring + (0, 0, -s[2] / 2), ring + (0, 0, s[2] / 2)])
    elif kind == "capsule":      # the hull of the two end spheres
        ball = spec.radius * SPHERE
        local = np.vstack([ball + (0, 0, -spec.length / 2), ball + (0, 0, spec.length / 2)])
    else:
        local = mesh * s
    return r + local @ R.T


def _turn(a, b, c) -> float:
    """z of (b − a) × (c − a): > 0 for a left turn."""
    return float((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))


def _hull(xy: np.ndarray) -> np.ndarray:
    """The convex hull of 2-D points (Andrew's monotone chain), counter-clockwise."""
    pts = np.unique(np.round(xy, 12), axis=0)
    if len(pts) < 3:
        return pts

    def half(seq):
        out = []
        for p in seq:
            while len(out) >= 2 and _turn(out[-2], out[-1], p) <= 0:
                out.pop()
            out.append(p)
        return out
    lower, upper = half(pts), half(pts[::-1])
    return np.array(lower[:-1] + upper[:-1])


def _frames(motions: list[Motion], fps: float, speed: float) -> np.ndarray:
    t0 = min(m.t[0] for m in motions)
    t1 = max(m.t[-1] for m in motions)
    count = max(2, int(round((t1 - t0) / speed * fps)) + 1)
    return np.linspace(t0, t1, count)


def write_video(motions: list[Motion], path: Path, fps: float = 30.0, speed: float = 1.0,
                view=None, title: str = "", size=(6.4, 4.8), dpi: int = 100) -> Path:
    """Render the motions to ``path`` (.gif through Pillow, .mp4 through imageio-ffmpeg's
    ffmpeg) at ``fps`` frames per second; ``speed`` > 1 plays faster than real time."""
    from matplotlib.animation import FFMpegWriter, PillowWriter
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    basis = view_basis(motions, view)
    meshes = _meshes(motions)
    fig = Figure(figsize=size, dpi=dpi)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    _limits(ax, motions, basis)
    times = _frames(motions, fps, speed)
    if path.suffix.lower() == ".gif":
        writer = PillowWriter(fps=fps)
        writer.setup(fig, str(path), dpi)
        _render(ax, fig, writer, motions, basis, meshes, times, title)
        writer.finish()
        return path
    import matplotlib
    with matplotlib.rc_context({"animation.ffmpeg_path": _ffmpeg()}):
        writer = FFMpegWriter(fps=fps, codec="libx264", extra_args=["-pix_fmt", "yuv420p"])
        writer.setup(fig, str(path), dpi)
        _render(ax, fig, writer, motions, basis, meshes, times, title)
        writer.finish()
    return path


def _ffmpeg() -> str:
    try:
        import imageio_ffmpeg
    except ImportError as exc:
        raise ImportError("MP4 video needs ffmpeg from imageio-ffmpeg: pip install "
                          "'jourdain[visual]' (or pip install imageio-ffmpeg); GIF needs "
                          "nothing more") from exc
    return imageio_ffmpeg.get_ffmpeg_exe()


def _meshes(motions: list[Motion]) -> dict:
    return {mesh_key(s): shape_mesh(s).vertices for m in motions for s in m.visual.shapes
            if s.kind == "mesh"}


def _limits(ax, motions: list[Motion], basis: np.ndarray) -> None:
    size = max(m.visual.size for m in motions)
    pts = np.concatenate([m.r.reshape(-1, 3) for m in motions]) @ basis[:2].T
    rad = np.concatenate([radii(m).ravel() for m in motions])[:, None]
    pad = 0.05 * size
    lo, hi = (pts - rad).min(axis=0) - pad, (pts + rad).max(axis=0) + pad
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_aspect("equal")
    names = "xyz"
    for row, setter in zip(basis[:2], (ax.set_xlabel, ax.set_ylabel)):
        k = int(np.argmax(np.abs(row)))
        axis = ("−" if row[k] < 0 else "") + names[k] if abs(row[k]) > 1 - 1e-9 else ""
        setter(f"{axis} [m]".strip())
    ax.grid(True, alpha=0.25)


def _render(ax, fig, writer, motions, basis, meshes, times, title) -> None:
    from matplotlib.patches import Circle, Polygon

    patches = []
    label = ax.set_title(title)
    for t in times:
        for patch in patches:
            patch.remove()
        patches = []
        drawn = []
        for i, m in enumerate(motions):
            j = min(int(np.searchsorted(m.t, t)), len(m.t) - 1)
            alpha = 1.0 if i == 0 else 0.35
            for k, spec in enumerate(m.visual.shapes):
                shape = outline(spec.kind, m.R[j, k], m.r[j, k], m.scale[j, k], spec,
                                meshes.get(mesh_key(spec)))
                depth = float(basis[2] @ m.r[j, k])
                drawn.append((depth, spec, shape, m.r[j, k], alpha))
        for depth, spec, shape, centre, alpha in sorted(drawn, key=lambda d: d[0]):
            colour = (*spec.color, spec.opacity * alpha)
            edge = (*(0.6 * np.asarray(spec.color)), spec.opacity * alpha)
            if isinstance(shape, tuple):
                patch = Circle(tuple(basis[:2] @ centre), shape[1], fc=colour, ec=edge, lw=0.8)
            else:
                patch = Polygon(_hull(shape @ basis[:2].T), closed=True, fc=colour, ec=edge,
                                lw=0.8)
            patches.append(ax.add_patch(patch))
        label.set_text(f"{title + '   ' if title else ''}t = {t:.2f} s")
        writer.grab_frame()
