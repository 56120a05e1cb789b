"""Visual shapes: what a component looks like in an animation. Metadata, never physics: no
shape changes a mass, an inertia or an equation.

Every shape is centred at ``center`` [m] in the frame it is attached to, with its own axes
turned by ``rotation`` (shape axes → frame axes), as in URDF, SDFormat and Drake; cylinders
and capsules lie along ``axis``. ``Cylinder.between(a, b, radius)`` spans two points (MuJoCo's
``fromto``). Colours are names (``"steelblue"``), hex strings (``"#4682b4"``), RGB in [0, 1],
or integer RGB in 0–255 as in Modelica's ``color = {255, 0, 0}``.

Attach shapes with ``RigidBody(..., shapes=[Box(...)])`` or ``component.shape(Box(...),
frame=component.frame_b)`` (see :meth:`jourdain.blocks.base.Component.shape`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import ModelError

_HEX = "0123456789abcdef"


def as_color(value, owner: str = "shape") -> tuple[float, float, float]:
    """An RGB triple in [0, 1] from a colour name, a hex string, RGB floats in [0, 1] or
    integer RGB in 0–255 (Modelica); a ModelError naming ``owner`` otherwise."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text.startswith("#") and len(text) == 7 and all(c in _HEX for c in text[1:]):
            return tuple(int(text[i:i + 2], 16) / 255.0 for i in (1, 3, 5))
        from matplotlib.colors import to_rgb  # named colours: matplotlib's (CSS4) table
        try:
            return tuple(float(c) for c in to_rgb(text))
        except ValueError as exc:
            raise ModelError(f"{owner}: unknown colour {value!r}; use a name such as "
                             "'steelblue', a hex string '#4682b4' or an RGB triple") from exc
    if isinstance(value, tuple) and len(value) == 3 and \
            all(isinstance(c, float) and 0.0 <= c <= 1.0 for c in value):
        return value      # already RGB in [0, 1] (the common case, kept cheap)
    try:
        rgb = np.asarray(value, dtype=float).reshape(3)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{owner}: colour must be a name, a hex string or an RGB triple, "
                         f"got {value!r}") from exc
    if np.any(rgb < 0) or not np.all(np.isfinite(rgb)):
        raise ModelError(f"{owner}: colour entries must be finite and ≥ 0, got {value!r}")
    if np.any(rgb > 1):
        if np.any(rgb > 255) or np.any(rgb != np.round(rgb)):
            raise ModelError(f"{owner}: colour {value!r} is neither RGB in [0, 1] nor "
                             "integer RGB in 0–255")
        rgb = rgb / 255.0
    return tuple(float(c) for c in rgb)


def rotation_to(axis) -> np.ndarray:
    """A rotation whose third column is the unit ``axis`` (shape z → frame ``axis``)."""
    x, y, z = (float(v) for v in np.ravel(axis))
    n = math.sqrt(x * x + y * y + z * z)
    x, y, z = x / n, y / n, z / n
    ax, ay, az = abs(x), abs(y), abs(z)
    # e1 = helper × e3 with the helper the coordinate axis least aligned with e3
    if ax <= ay and ax <= az:
        e1 = (0.0, -z, y)
    elif ay <= az:
        e1 = (z, 0.0, -x)
    else:
        e1 = (-y, x, 0.0)
    m = math.sqrt(e1[0] ** 2 + e1[1] ** 2 + e1[2] ** 2)
    e1 = (e1[0] / m, e1[1] / m, e1[2] / m)
    e2 = (y * e1[2] - z * e1[1], z * e1[0] - x * e1[2], x * e1[1] - y * e1[0])
    return np.array([[e1[0], e2[0], x], [e1[1], e2[1], y], [e1[2], e2[2], z]])


def _vector(value, owner: str, name: str) -> tuple[float, float, float]:
    if isinstance(value, tuple) and len(value) == 3 and all(type(v) is float for v in value) \
            and all(math.isfinite(v) for v in value):
        return value
    try:
        vec = np.asarray(value, dtype=float).reshape(3)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{owner}: {name} must be a 3-vector, got {value!r}") from exc
    if not np.all(np.isfinite(vec)):
        raise ModelError(f"{owner}: {name} must be finite, got {value!r}")
    return tuple(float(v) for v in vec)


def _number(value, owner: str, name: str, unit: str) -> float:
    """float(value); booleans and strings are not numbers (float(True) is 1.0)."""
    try:
        if isinstance(value, (bool, np.bool_, str, bytes)):
            raise TypeError(name)
        return float(value)
    except (TypeError, ValueError) as exc:
        unit = f" [{unit}]" if unit else ""
        raise ModelError(f"{owner}: {name} must be a number{unit}, got {value!r}") from exc


def _positive(value, owner: str, name: str, unit: str = "m") -> float:
    num = _number(value, owner, name, unit)
    if not (np.isfinite(num) and num > 0):
        raise ModelError(f"{owner}: {name} must be positive and finite [{unit}], got {value!r}")
    return num


@dataclass(frozen=True, kw_only=True)
class VisualShape:
    """Common fields of every shape.

    Parameters
    ----------
    color : colour (name, hex, RGB in [0, 1] or integer RGB 0–255); None lets the animation
        pick one (a palette colour per body).
    opacity : 1 opaque … 0 invisible.
    center : [m] centre of the shape in the frame's axes.
    rotation : 3×3 rotation from the shape's axes to the frame's axes (default identity).
    name : optional label shown in the viewer's scene tree.
    """

    color: object = None
    opacity: float = 1.0
    center: tuple = (0.0, 0.0, 0.0)
    rotation: tuple | None = None
    name: str = ""

    KIND = "shape"

    def __post_init__(self):
        owner = type(self).__name__
        if self.color is not None:
            object.__setattr__(self, "color", as_color(self.color, owner))
        opacity = np.nan if isinstance(self.opacity, (bool, np.bool_)) else \
            _number(self.opacity, owner, "opacity", "")
        if not 0.0 <= opacity <= 1.0:
            raise ModelError(f"{owner}: opacity must be in [0, 1], got {self.opacity!r}")
        object.__setattr__(self, "opacity", opacity)
        object.__setattr__(self, "center", _vector(self.center, owner, "center"))
        if self.rotation is not None:
            rot = np.asarray(self.rotation, dtype=float).reshape(3, 3)
            if np.abs(rot.T @ rot - np.eye(3)).max() > 1e-9 or np.linalg.det(rot) < 0:
                raise ModelError(f"{owner}: rotation must be a proper rotation matrix "
                                 f"(RᵀR = I, det R = 1), got {self.rotation!r}")
            object.__setattr__(self, "rotation", tuple(float(v) for v in rot.ravel()))

    def matrix(self) -> np.ndarray:
        """The rotation from shape axes to frame axes (3×3)."""
        return np.eye(3) if self.rotation is None else np.reshape(self.rotation, (3, 3))

    def geometry_scale(self) -> tuple[float, float, float]:
        """Factors applied to the unit geometry of the kind: a unit cube, a unit sphere, a
        cylinder of radius 1 and length 1 along z; capsules and meshes are built to size."""
        return (1.0, 1.0, 1.0)


@dataclass(frozen=True, kw_only=True)
class _Axial(VisualShape):
    """A shape along an axis (its local z): cylinder, capsule."""

    axis: tuple | None = None

    def __post_init__(self):
        super().__post_init__()
        if self.axis is not None:
            if self.rotation is not None:
                raise ModelError(f"{type(self).__name__}: give either axis or rotation")
            direction = _vector(self.axis, type(self).__name__, "axis")
            if np.linalg.norm(direction) < 1e-12:
                raise ModelError(f"{type(self).__name__}: axis must be non-zero")
            object.__setattr__(self, "rotation",
                               tuple(float(v) for v in rotation_to(direction).ravel()))

    @classmethod
    def between(cls, a, b, radius: float, **options):
        """The shape from point ``a`` to point ``b`` [m] (frame axes), of ``radius`` [m]."""
        a = np.asarray(_vector(a, cls.__name__, "a"))
        b = np.asarray(_vector(b, cls.__name__, "b"))
        length = float(np.linalg.norm(b - a))
        if length < 1e-12:
            raise ModelError(f"{cls.__name__}.between: the two points coincide")
        return cls(radius=radius, length=length, center=tuple((a + b) / 2),
                   axis=tuple(b - a), **options)


@dataclass(frozen=True)
class Box(VisualShape):
    """A box of edge lengths ``size`` = (x, y, z) [m] along the shape axes, centred."""

    size: tuple = (0.1, 0.1, 0.1)
    KIND = "box"

    def __post_init__(self):
        super().__post_init__()
        size = _vector(self.size, "Box", "size")
        for v in size:
            _positive(v, "Box", "size entries")
        object.__setattr__(self, "size", size)

    def geometry_scale(self):
        return self.size


@dataclass(frozen=True)
class Sphere(VisualShape):
    """A sphere of ``radius`` [m]."""

    radius: float = 0.05
    KIND = "sphere"

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "radius", _positive(self.radius, "Sphere", "radius"))

    def geometry_scale(self):
        return (self.radius,) * 3


@dataclass(frozen=True)
class Cylinder(_Axial):
    """A cylinder of ``radius`` and ``length`` [m] along ``axis`` (default the shape's z),
    centred; ``Cylinder.between(a, b, radius)`` spans two points."""

    radius: float = 0.05
    length: float = 0.1
    KIND = "cylinder"

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "radius", _positive(self.radius, "Cylinder", "radius"))
        object.__setattr__(self, "length", _positive(self.length, "Cylinder", "length"))

    def geometry_scale(self):
        return (self.radius, self.radius, self.length)


@dataclass(frozen=True)
class Capsule(_Axial):
    """A cylinder of ``radius`` and ``length`` [m] (between the centres of its two
    hemispherical caps, as in URDF and Drake) along ``axis``, centred."""

    radius: float = 0.05
    length: float = 0.1
    KIND = "capsule"

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "radius", _positive(self.radius, "Capsule", "radius"))
        object.__setattr__(self, "length", _positive(self.length, "Capsule", "length"))


@dataclass(frozen=True)
class Mesh(VisualShape):
    """A triangle mesh read from a file (STL, OBJ, DAE/Collada, PLY, GLB, … through trimesh,
    ``pip install jourdain[visual]``), in the file's units times ``scale`` (a number or three
    factors), its origin at ``center``."""

    path: str = ""
    scale: object = 1.0
    KIND = "mesh"

    def __post_init__(self):
        super().__post_init__()
        path = Path(self.path).expanduser()
        if not path.is_file():
            raise ModelError(f"Mesh: no file at {str(self.path)!r}; give the path of an STL, "
                             "OBJ or DAE file")
        object.__setattr__(self, "path", str(path.resolve()))
        try:
            factor = np.broadcast_to(np.asarray(self.scale, dtype=float), (3,))
        except ValueError as exc:
            raise ModelError(f"Mesh: scale must be a number or three, got {self.scale!r}") \
                from exc
        for v in factor:
            _positive(v, "Mesh", "scale", "1")
        object.__setattr__(self, "scale", tuple(float(v) for v in factor))

    def geometry_scale(self):
        return self.scale


@dataclass(frozen=True)
class Plane(VisualShape):
    """The plane through ``center`` whose normal is the shape's z axis (``normal``, default
    +z of the frame; give either ``normal`` or ``rotation``): a collision shape bounding the
    half-space below it (the ground, a wall). Drawn as a thin slab of ``size`` = (x, y) [m]
    along the shape's x and y axes (the collision plane itself is infinite)."""

    normal: tuple | None = None
    size: tuple = (2.0, 2.0)
    KIND = "box"       # drawn as a thin box: the viewers know boxes

    def __post_init__(self):
        super().__post_init__()
        if self.normal is not None:
            if self.rotation is not None:
                raise ModelError("Plane: give either normal or rotation")
            direction = _vector(self.normal, "Plane", "normal")
            if np.linalg.norm(direction) < 1e-12:
                raise ModelError("Plane: normal must be non-zero")
            object.__setattr__(self, "rotation",
                               tuple(float(v) for v in rotation_to(direction).ravel()))
        try:
            size = tuple(float(v) for v in np.asarray(self.size, dtype=float).reshape(2))
        except (TypeError, ValueError) as exc:
            raise ModelError(f"Plane: size must be two lengths (x, y) [m], got "
                             f"{self.size!r}") from exc
        for v in size:
            _positive(v, "Plane", "size entries")
        object.__setattr__(self, "size", size)

    def unit_normal(self) -> np.ndarray:
        """The plane's unit normal in the frame's axes (the shape's z)."""
        return self.matrix()[:, 2].copy()

    def geometry_scale(self):
        return (self.size[0], self.size[1], 1e-3 * max(self.size))


SHAPE_KINDS = (Box, Sphere, Cylinder, Capsule, Mesh, Plane)


def check_shapes(shapes, owner: str) -> tuple:
    """The shapes as a tuple; anything that is not a VisualShape is a ModelError."""
    shapes = tuple(shapes)
    for shape in shapes:
        if not isinstance(shape, VisualShape):
            raise ModelError(f"{owner}: shapes must be visual shapes (Box, Sphere, Cylinder, "
                             "Capsule, Mesh, Plane, Surface from jourdain.blocks.visual), got "
                             f"{shape!r}")
    return shapes


def attach(component, shapes, frame=None):
    """Attach ``shapes`` to ``frame`` (a Frame port; default the component's frame_a, or
    frame_b when it has none, as the World) and return the component. Attaching nothing marks
    the component as drawn without default shapes."""
    from ..ports import Frame

    owner = component.path
    shapes = check_shapes(shapes, owner)
    if frame is None:
        frame = getattr(component, "frame_a", None) or getattr(component, "frame_b", None)
        if frame is None and shapes:
            raise ModelError(f"{owner}.shape: the component has no frame_a or frame_b; name "
                             "the frame the shapes belong to with frame=")
    if shapes and not isinstance(frame, Frame):
        raise ModelError(f"{owner}.shape: frame must be a Frame port (e.g. body.frame_a), got "
                         f"{frame!r}")
    store = component.__dict__.setdefault("_visual", [])
    store.extend((frame, shape) for shape in shapes)
    return component


def attached_shapes(component) -> list | None:
    """The (frame, shape) pairs attached to ``component``, or None when none were attached
    (the animation then draws default shapes derived from the geometry)."""
    return component.__dict__.get("_visual")
