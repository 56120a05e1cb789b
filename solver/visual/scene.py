"""The visual model of a compiled System: every drawn shape (the user's and the defaults
derived from the geometry) and the named CasADi function ``poses(x, p) -> (R, r, scale)`` that
places them (DESIGN.md §6: the visualization wing evaluates a compiled poses function, so
nothing in the equations depends on pictures).

For shape i on a frame with pose (R_f, r_f) and the shape's own placement (R_s, c_s) in that
frame: R_i = R_f·R_s (shape axes → world), r_i = r_f + R_f·c_s (centre, world) [m], and
scale_i the factors of the kind's unit geometry (box: edge lengths; sphere: radius; cylinder:
radius, radius, length; capsule and mesh: built to size, factors 1 or the mesh's scale).
Outputs are stacked column-wise: R is 3 × 3n, r and scale are 3 × n.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError
from jourdain.blocks.visual.shapes import Capsule, Mesh, attached_shapes
from jourdain.blocks.visual.surfaces import Surface

from ..model.mechanics import Mechanics
from .defaults import Placed, default_shapes, frame_geometry, nominal_size


@dataclass(frozen=True)
class ShapeSpec:
    """What one drawn shape is; where it is comes from ``poses``.

    name : unique label (``cube.housing/box``); owner : the component's instance path;
    kind : box, sphere, cylinder, capsule or mesh; color : RGB in [0, 1]; opacity in [0, 1];
    default : derived from the geometry rather than attached by the user;
    radius, length : [m] of a capsule; mesh : path of a mesh file;
    dynamic : the scale changes with the state (a prismatic joint's box);
    mesh_colors : a mesh given no colour, drawn in its file's own colours (materials, vertex
    colours) where it has any, else in ``color``; a multi-coloured Surface in its colours;
    surface : the Surface shape whose generated mesh is drawn (kind mesh, no file).
    """

    name: str
    owner: str
    kind: str
    color: tuple
    opacity: float
    default: bool
    radius: float = 0.0
    length: float = 0.0
    mesh: str | None = None
    dynamic: bool = False
    mesh_colors: bool = False
    surface: object = None


@dataclass
class VisualModel:
    """The shapes of a System, the world's up direction (−g/|g|) and the model's nominal
    length ``size`` [m] (the extent of its frames, which sizes the default shapes) and a
    ``title`` for the player (the model's top-level components and their classes)."""

    shapes: list[ShapeSpec] = field(default_factory=list)
    up: tuple = (0.0, 1.0, 0.0)
    size: float = 1.0
    title: str = ""

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.shapes]

    def __len__(self) -> int:
        return len(self.shapes)


# joint markers beside the user's shapes (a robot's meshes): a fraction of the default size,
# enough to see where the axes are without hiding the parts
MARKER_WITH_SHAPES = 0.4

PALETTE = ((0.12, 0.47, 0.71), (0.17, 0.63, 0.17), (1.0, 0.5, 0.05), (0.58, 0.4, 0.74),
           (0.55, 0.34, 0.29), (0.89, 0.47, 0.76), (0.09, 0.75, 0.81), (0.74, 0.74, 0.13))


def build_visual(mech: Mechanics, x_size: int, y_nominal: np.ndarray) -> tuple:
    """(VisualModel, poses function) of a model; ``x_size`` is the length of the state x
    (whose first entries are the coordinates y), ``y_nominal`` the configuration that sizes
    the default shapes (defaults, or the assembled reference of a closed loop)."""
    flat, kin = mech.flat, mech.kin
    p_sym, p_num = mech.params.p, mech.params.defaults
    geometry = frame_geometry(mech, y_nominal)
    size = nominal_size(mech, geometry)
    placed = _user_shapes(flat)
    user_nets = {flat.net_of[item.frame] for item in placed}
    hidden = _hidden_paths(flat)
    marker = size * (MARKER_WITH_SHAPES if placed else 1.0)
    for comp in flat.components:
        if attached_shapes(comp) is None and not _is_hidden(comp.path, hidden):
            placed += default_shapes(mech, comp, size, user_nets, p_num, marker)
    specs, poses = [], []
    for k, item in enumerate(placed):
        spec, pose = _place(mech, item, k, {s.name for s in specs})
        specs.append(spec)
        poses.append(pose)
    up = _up(mech.gravity, p_sym, p_num)
    x = ca.SX.sym("x", x_size)
    ny = kin.y.numel()
    R = ca.horzcat(*[pose[0] for pose in poses]) if poses else ca.SX(3, 0)
    r = ca.horzcat(*[pose[1] for pose in poses]) if poses else ca.SX(3, 0)
    s = ca.horzcat(*[pose[2] for pose in poses]) if poses else ca.SX(3, 0)
    outs = [ca.substitute(e, kin.y, x[:ny]) if ny else e for e in (R, r, s)]
    fn = ca.Function("poses", [x, p_sym], outs, ["x", "p"], ["R", "r", "scale"])
    dynamic = _dynamic_scale(outs[2], x, p_sym)
    specs = [ShapeSpec(**{**spec.__dict__, "dynamic": bool(d)}) for spec, d in zip(specs, dynamic)]
    return VisualModel(specs, up, size, model_title(flat)), fn


def model_title(flat) -> str:
    """The model's top-level parts, e.g. ``cube: CubeOnEdge`` (at most three named, the world
    left out); a model of primitive parts only is named by how many it has."""
    top = [c for c in list(flat.composites) + list(flat.components)
           if c._path and "." not in c._path and type(c).__name__ != "World"]
    composites = [c for c in top if c in flat.composites]
    shown = composites or top
    if not shown:
        return ""
    names = ", ".join(f"{c.path}: {type(c).__name__}" for c in shown[:3])
    return names + (f" and {len(shown) - 3} more" if len(shown) > 3 else "")


def _user_shapes(flat) -> list[Placed]:
    placed = []
    for comp in list(flat.composites) + list(flat.components):
        for frame, shape in attached_shapes(comp) or ():
            if frame not in flat.net_of:
                raise ModelError(f"{comp.path}: a shape is attached to {frame.path}, which is "
                                 "not a frame of this model; attach it to a frame of the "
                                 "component or of its children")
            placed.append(Placed(comp.path, frame, shape))
    return placed


def _hidden_paths(flat) -> list[str]:
    """Composites on which ``shape()`` was called with no shape: their parts draw nothing."""
    return [c.path for c in flat.composites if attached_shapes(c) == [] and c._path]


def _is_hidden(path: str, hidden: list[str]) -> bool:
    return any(path == h or path.startswith(h + ".") for h in hidden)


def _place(mech: Mechanics, item: Placed, k: int, taken: set) -> tuple:
    """(ShapeSpec, (R, r, scale) in world) of one placed shape."""
    shape, frame_net = item.shape, mech.flat.net_of[item.frame]
    if frame_net not in mech.kin.frames:
        raise ModelError(f"{item.owner}: the frame {item.frame.path} carrying a shape has no "
                         "pose (it is not connected to the world through joints)")
    frame = mech.kin.frames[frame_net]
    R_s = item.rotation if item.rotation is not None else \
        (None if shape.rotation is None else ca.DM(shape.matrix()))
    c_s = item.center if item.center is not None else \
        (None if shape.center == (0.0, 0.0, 0.0) else ca.DM(shape.center))
    scale = ca.SX(item.scale if item.scale is not None else ca.DM(shape.geometry_scale()))
    R = frame.R if R_s is None else ca.mtimes(frame.R, R_s)      # skip products with I and 0
    r = frame.r if c_s is None else frame.r + ca.mtimes(frame.R, c_s)
    label = shape.name or item.label or shape.KIND
    name = f"{item.owner}/{label}" if item.owner else label
    base, n = name, 2
    while name in taken:
        name, n = f"{base}#{n}", n + 1
    color = shape.color if shape.color is not None else PALETTE[k % len(PALETTE)]
    mesh, surface = isinstance(shape, Mesh), isinstance(shape, Surface)
    spec = ShapeSpec(name, item.owner, shape.KIND, tuple(color), shape.opacity, item.default,
                     getattr(shape, "radius", 0.0) if isinstance(shape, Capsule) else 0.0,
                     getattr(shape, "length", 0.0) if isinstance(shape, Capsule) else 0.0,
                     shape.path if mesh else None,
                     mesh_colors=(mesh and shape.color is None) or
                     (surface and shape.colors is not None),
                     surface=shape if surface else None)
    return spec, (R, r, scale)


def _up(gravity, p_sym, p_num) -> tuple:
    g = np.array(ca.Function("g", [p_sym], [gravity])(p_num), dtype=float).ravel()
    norm = np.linalg.norm(g)
    return tuple(float(v) + 0.0 for v in (-g / norm if norm > 0 else (0.0, 1.0, 0.0)))


def _dynamic_scale(scale: ca.SX, x: ca.SX, p: ca.SX) -> list[bool]:
    """Which shapes' scale depends on the state (their column of ∂scale/∂x is non-zero)."""
    n = scale.size2()
    if n == 0:
        return []
    depends = ca.jacobian(ca.vec(scale), x)
    return [any(depends[3 * i + j, :].nnz() for j in range(3)) for i in range(n)]
