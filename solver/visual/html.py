"""One self-contained, offline HTML file that plays the motion of one or more runs in the
browser: WebGL through three.js as MeshCat bundles it (the ``meshcat`` package on PyPI ships
the build, ``viewer/dist/main.min.js``; MeshCat is the viewer of Drake and Pinocchio), with
orbit camera, scene tree, play/pause, time slider and speed control (``player.js``).

Nothing is loaded from the internet: the bundle, the player and the data (base64 float32
keyframes per shape; a shape that never moves has one) are written into the file.
"""
from __future__ import annotations

import base64
import importlib.util
import json
import re
from pathlib import Path

import numpy as np
from scipy.spatial.transform import Rotation

from jourdain.blocks.errors import ModelError

from .floor import floor_height
from .meshes import shape_mesh
from .motion import Motion, bounds, plane_normal, points

HERE = Path(__file__).resolve().parent
FOV = 75.0   # [deg] vertical field of view of MeshCat's camera
# viewer axes: MeshCat's scene is z-up; three.js's native frame (camera) is y-up
Z_UP_TO_NATIVE = np.array([[1.0, 0, 0], [0, 0, 1.0], [0, -1.0, 0]])


def three_bundle() -> str:
    """The text of MeshCat's three.js bundle (found without importing meshcat)."""
    spec = importlib.util.find_spec("meshcat")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the 3-D animation needs the three.js build that the 'meshcat' "
                          "package ships: pip install 'jourdain[visual]' (or pip install "
                          "meshcat)")
    path = Path(list(spec.submodule_search_locations)[0]) / "viewer" / "dist" / "main.min.js"
    if not path.is_file():
        raise ImportError(f"the meshcat package has no viewer bundle at {path}; reinstall "
                          "meshcat")
    return path.read_text(encoding="utf-8")


def up_rotation(up) -> np.ndarray:
    """Q: model axes → MeshCat's z-up axes, turning the model's up direction onto z (for the
    usual y-up models a quarter turn about x, which keeps x)."""
    u = np.asarray(up, dtype=float) / np.linalg.norm(up)
    if np.allclose(u, (0, 1, 0)):
        return np.array([[1.0, 0, 0], [0, 0, -1.0], [0, 1.0, 0]])
    axis, c = np.cross(u, (0, 0, 1.0)), float(u[2])
    s = np.linalg.norm(axis)
    if s < 1e-12:
        return np.eye(3) if c > 0 else np.diag([1.0, -1.0, -1.0])
    return Rotation.from_rotvec(axis / s * np.arctan2(s, c)).as_matrix()


def native(up) -> np.ndarray:
    """Model axes → three.js's native (camera) axes, whose y is the model's up."""
    return Z_UP_TO_NATIVE @ up_rotation(up)


def _b64(array, dtype=np.float32) -> str:
    return base64.b64encode(np.ascontiguousarray(array, dtype=dtype).tobytes()).decode("ascii")


def _quaternions(R: np.ndarray) -> np.ndarray:
    """(x, y, z, w) per sample, signs kept continuous so interpolation takes the short way."""
    q = Rotation.from_matrix(R).as_quat()
    for i in range(1, len(q)):
        if np.dot(q[i], q[i - 1]) < 0:
            q[i] = -q[i]
    return q


def _shape_data(motion: Motion, k: int) -> dict:
    spec = motion.visual.shapes[k]
    R, r, s = motion.R[:, k], motion.r[:, k], motion.scale[:, k]
    still = np.allclose(R, R[0], rtol=0, atol=1e-12) and np.allclose(r, r[0], rtol=0,
                                                                     atol=1e-12)
    keep = slice(0, 1) if still else slice(None)
    fixed_scale = np.allclose(s, s[0], rtol=0, atol=1e-12)
    out = {"name": spec.name, "kind": spec.kind, "color": list(spec.color),
           "opacity": spec.opacity, "radius": spec.radius, "length": spec.length,
           "position": _b64(r[keep]), "quaternion": _b64(_quaternions(R[keep])),
           "scale": _b64(s[:1] if fixed_scale else s)}
    if spec.kind == "mesh":
        mesh = shape_mesh(spec)
        out.update(vertices=_b64(mesh.vertices), faces=_b64(mesh.faces, np.uint32))
        if spec.mesh_colors and mesh.colors is not None:   # the file's (surface's) colours
            colors = np.where(np.isnan(mesh.colors), np.asarray(spec.color), mesh.colors)
            out["colors"] = _b64(colors)
    return out


def view_direction(motions: list[Motion], up, tilt: bool = True) -> np.ndarray:
    """A unit direction towards the viewer in model axes: the normal of a planar mechanism's
    plane (seen from +z, +x or +y), with ``tilt`` raised by 14° and turned by 8° so the
    ground shows; an oblique direction for a spatial one."""
    N = native(up)
    normal = plane_normal(points(motions))
    if normal is None:
        d = np.array([1.0, 0.7, 1.6])
    else:
        d = N @ normal
        lead = next((v for v in (d[2], d[0], d[1]) if abs(v) > 1e-9), 1.0)
        d = d if lead > 0 else -d
        if abs(d[1]) > 0.95:                               # a horizontal plane: look down
            d = d + np.array([0.0, 0.0, 0.6])
        elif tilt:
            d = d / np.linalg.norm(d)
            side = np.cross((0.0, 1.0, 0.0), d)
            d = d + 0.25 * np.array([0.0, 1.0, 0.0]) + 0.14 * side
    return N.T @ (d / np.linalg.norm(d))


def default_camera(motions: list[Motion], up) -> dict:
    """A view of the whole motion in model coordinates [m] (see :func:`view_direction`), far
    enough to hold the bounding sphere of all shapes over the motion in MeshCat's 75° field
    of view."""
    lo, hi = bounds(motions)
    size = max(m.visual.size for m in motions)
    centre = 0.5 * (lo + hi)
    radius = max(0.5 * float(np.linalg.norm(hi - lo)), 0.1 * size)
    distance = radius / np.sin(np.radians(FOV / 2))
    d = view_direction(motions, up)
    return {"position": tuple(centre + distance * d), "target": tuple(centre)}


def animation_data(motions: list[Motion], title: str, camera: dict | None,
                   opacity: list[float] | None = None, grid: bool = True) -> dict:
    """The JSON document the player reads (see ``player.js``); the title defaults to the
    model's (its top-level parts)."""
    up = motions[0].visual.up
    N, Q = native(up), up_rotation(up)
    t0 = min(float(m.t[0]) for m in motions)
    duration = max(max(float(m.t[-1]) - t0 for m in motions), 1e-6)
    cam = camera or default_camera(motions, up)
    for key in ("position", "target"):
        if key not in cam or np.asarray(cam[key], dtype=float).shape != (3,):
            raise ModelError(f"animate: camera needs '{key}' as a 3-vector [m] in model axes, "
                             f"got {camera!r}")
    position, target = (N @ np.asarray(cam[k], dtype=float) for k in ("position", "target"))
    dist = float(np.linalg.norm(position - target))
    size = max(m.visual.size for m in motions)
    grid_matrix = _grid(motions, Q, size, floor_height(motions, up))
    runs = []
    for i, m in enumerate(motions):
        times = np.append(m.t - t0, duration) if m.t[-1] - t0 < duration else m.t - t0
        run = Motion(times, *(np.concatenate([a, a[-1:]]) if len(times) > len(m.t) else a
                              for a in (m.R, m.r, m.scale)), m.visual, m.label)
        runs.append({"key": f"run{i}", "label": m.label or f"run {i}",
                     "opacity": (opacity[i] if opacity else (1.0 if i == 0 else 0.35)),
                     "times": _b64(run.t),
                     "shapes": [_shape_data(run, k) for k in range(len(m.visual))],
                     "traces": [{"name": name, "points": _b64(pts)}
                                for name, pts in m.traces.items()]})
    return {"title": title or motions[0].visual.title, "t0": t0, "duration": duration, "runs": runs,
            "root": _matrix(Q, 1.0),
            "grid": grid_matrix if grid else None,
            "axes": _matrix(np.eye(3), size / 4 / 0.5) if grid else None,
            "camera": {"position": list(position), "target": list(target),
                       "near": dist / 1000, "far": dist * 100}}


def _matrix(R: np.ndarray, scale: float, offset=(0.0, 0.0, 0.0)) -> list[float]:
    """A 4×4 homogeneous transform in three.js's column-major order."""
    T = np.eye(4)
    T[:3, :3] = R * scale
    T[:3, 3] = offset
    return [float(v) for v in T.T.ravel()]


def _grid(motions: list[Motion], Q: np.ndarray, size: float, floor: float) -> list[float]:
    """MeshCat's grid (40 cells of 0.5 in its z = 0 plane) scaled to cells of a round length
    (1, 2 or 5 × 10^k m) so that it spans the motion twice over, centred under it at the
    height ``floor`` [m] along up (the lowest point of the motion, :mod:`.floor`)."""
    lo, hi = (Q @ v for v in bounds(motions))
    extent = max(float(np.max(np.abs(hi[:2] - lo[:2]))), size, 1e-9)
    step = 10 ** np.floor(np.log10(extent / 20))
    cell = next(m * step for m in (1, 2, 5, 10) if m * step >= extent / 20)
    centre = np.array([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, floor])
    centre[:2] = np.round(centre[:2] / cell) * cell     # grid lines through round values
    return _matrix(np.eye(3), cell / 0.5, centre)


def write_html(motions: list[Motion], path, title: str = "", camera: dict | None = None,
               opacity: list[float] | None = None, grid: bool = True) -> Path:
    """Write the player with the motions to ``path`` (a .html file) and return the path;
    ``grid`` shows the ground grid (under the lowest point of the motion) and axes."""
    data = animation_data(motions, title, camera, opacity, grid)
    values = {"TITLE": _escape(data["title"] or "jourdain animation"),
              "CSS": (HERE / "player.css").read_text(encoding="utf-8"),
              "BUNDLE": three_bundle(),
              "DATA": json.dumps(data, separators=(",", ":")).replace("</", "<\\/"),
              "PLAYER": (HERE / "player.js").read_text(encoding="utf-8")}
    template = (HERE / "player.html").read_text(encoding="utf-8")
    text = re.sub(r"\{\{(\w+)\}\}", lambda m: values[m.group(1)], template)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
