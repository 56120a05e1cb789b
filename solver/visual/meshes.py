"""Mesh files for the player and the videos, read by trimesh: vertices, triangles and the
file's own colours (COLLADA/OBJ/glTF materials, PLY/OFF vertex or face colours), so that an
imported robot is drawn as its makers coloured it, not in a palette."""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from jourdain.blocks.errors import ModelError


@dataclass(frozen=True)
class MeshData:
    """vertices (n × 3) [file units], faces (m × 3) vertex indices, colors (n × 3) RGB in
    [0, 1] per vertex, NaN where a part of the file has no colour (None: no colour at all)."""

    vertices: np.ndarray
    faces: np.ndarray
    colors: np.ndarray | None


def shape_mesh(spec) -> MeshData:
    """The triangles of a drawn mesh shape: a Surface's generated grid, or its file's."""
    surface = getattr(spec, "surface", None)
    if surface is not None:
        return MeshData(surface.vertices, surface.faces, surface.colors)
    return read_mesh(spec.mesh)


def mesh_key(spec) -> str:
    """What identifies a drawn mesh's triangles: the file, or the surface shape's name."""
    return spec.mesh if getattr(spec, "surface", None) is None else f"surface:{spec.name}"


def load_mesh(path: str) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (n × 3) and triangles (m × 3) of a mesh file, through trimesh."""
    data = read_mesh(path)
    return data.vertices, data.faces


def read_mesh(path: str) -> MeshData:
    """The geometry and colours of a mesh file, its parts placed by the file's scene graph
    (a COLLADA file's nodes) and merged into one triangle list; cached by path and
    modification time, since the floor, the player and the videos all read the same files."""
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        stamp = None      # trimesh reports the missing file by name
    return _read(str(path), stamp)


@lru_cache(maxsize=64)
def _read(path: str, stamp) -> MeshData:
    try:
        import trimesh
    except ImportError as exc:
        raise ImportError("mesh shapes are read by trimesh: pip install 'jourdain[visual]' "
                          "(or pip install trimesh)") from exc
    try:
        loaded = trimesh.load(path)
        parts = _parts(loaded, trimesh)
    except Exception as exc:  # trimesh raises many kinds for unreadable files
        raise ModelError(f"Mesh: trimesh cannot read {path!r}: {exc}") from exc
    parts = [m for m in parts if len(m.faces)]
    if not parts:
        raise ModelError(f"Mesh: {path!r} holds no triangles; give a mesh file (STL, OBJ, "
                         "DAE, PLY, glTF)")
    vertices, faces, colors, offset = [], [], [], 0
    for mesh in parts:
        vertices.append(np.asarray(mesh.vertices, float))
        faces.append(np.asarray(mesh.faces, np.int64) + offset)
        colors.append(_colors(mesh, len(mesh.vertices)))
        offset += len(mesh.vertices)
    rgb = np.concatenate(colors)
    return MeshData(np.concatenate(vertices), np.concatenate(faces),
                    None if np.isnan(rgb).all() else rgb)


def _parts(loaded, trimesh) -> list:
    if isinstance(loaded, trimesh.Scene):
        return [geometry.copy().apply_transform(loaded.graph[node][0])
                for node in loaded.graph.nodes_geometry
                for geometry in (loaded.geometry[loaded.graph[node][1]],)
                if isinstance(geometry, trimesh.Trimesh)]
    return [loaded] if isinstance(loaded, trimesh.Trimesh) else []


def _colors(mesh, n: int) -> np.ndarray:
    """RGB per vertex in [0, 1] from the mesh's visual: a material's main colour (texture
    visuals: the material colour, the texture's mean left aside), or its vertex or face
    colours; NaN for a part that defines none (trimesh's default grey)."""
    visual = getattr(mesh, "visual", None)
    kind = getattr(visual, "kind", None)
    try:
        if kind == "texture":
            rgba = np.asarray(visual.material.main_color, float)[:3] / 255.0
            return np.tile(rgba, (n, 1))
        if kind in ("vertex", "face"):
            return np.asarray(visual.vertex_colors, float)[:, :3] / 255.0
    except (AttributeError, ValueError, IndexError):
        pass    # a visual trimesh cannot convert: the shape's colour is used
    return np.full((n, 3), np.nan)
