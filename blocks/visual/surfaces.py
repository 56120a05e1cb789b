"""Parametric surfaces drawn as triangle meshes (the Modelica Standard Library's
``MultiBody.Visualizers.Advanced.Surface`` and the visualizers built on it: ``Torus``,
``VoluminousWheel``, ``PipeWithScalarField``). Metadata for animations, never physics."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import ModelError
from .shapes import Cylinder, VisualShape, _number, _positive


@dataclass(frozen=True, eq=False)
class Surface(VisualShape):
    """A parametric surface (the MSL's ``Visualizers.Advanced.Surface``), drawn as a triangle
    mesh on an nu × nv grid: ``surfaceCharacteristic(u, v)`` receives the grid's parameters
    as nu × nv arrays, u = (i − 1)/(nu − 1) and v = (j − 1)/(nv − 1) in [0, 1] (the MSL's
    loops over i, j), and returns the arrays X, Y, Z [m] of the points in the shape's axes,
    or X, Y, Z, C with C (nu × nv × 3) their colours (RGB in [0, 1], or 0–255 as the MSL)
    when ``multiColoredSurface``. Without it the surface is drawn in ``color``. The surface
    is fixed in its frame (it moves with the frame; its shape does not change in time).

    Attributes computed once: ``vertices`` (nu·nv × 3), ``faces`` (2·(nu − 1)·(nv − 1) × 3,
    two triangles per grid cell), ``colors`` (nu·nv × 3 in [0, 1], or None).
    """

    surfaceCharacteristic: object = None
    nu: int = 2
    nv: int = 2
    multiColoredSurface: bool = False
    KIND = "mesh"

    def __post_init__(self):
        super().__post_init__()
        if not callable(self.surfaceCharacteristic):
            raise ModelError("Surface: surfaceCharacteristic must be a function (u, v) -> "
                             f"(X, Y, Z), got {self.surfaceCharacteristic!r}")
        for name in ("nu", "nv"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 2:
                raise ModelError(f"Surface: {name} must be an integer ≥ 2 (points along the "
                                 f"surface's {name[1]} direction), got {value!r}")
        u, v = np.meshgrid(np.linspace(0.0, 1.0, self.nu), np.linspace(0.0, 1.0, self.nv),
                           indexing="ij")
        out = self.surfaceCharacteristic(u, v)
        count = 4 if self.multiColoredSurface else 3
        if not isinstance(out, (tuple, list)) or len(out) != count:
            size = len(out) if hasattr(out, "__len__") else 1
            raise ModelError(f"Surface: surfaceCharacteristic must return {count} arrays ("
                             + ("X, Y, Z, C" if count == 4 else "X, Y, Z") + f"), got "
                             f"{type(out).__name__} of {size}")
        points = [np.broadcast_to(np.asarray(a, dtype=float), (self.nu, self.nv))
                  for a in out[:3]] if _shapes_fit(out[:3], (self.nu, self.nv)) else None
        if points is None or not np.all(np.isfinite(points)):
            raise ModelError(f"Surface: X, Y, Z must be finite arrays of nu × nv = "
                             f"{self.nu} × {self.nv} values")
        object.__setattr__(self, "vertices", np.stack([a.ravel() for a in points], axis=1))
        object.__setattr__(self, "faces", grid_faces(self.nu, self.nv))
        object.__setattr__(self, "colors", _surface_colors(out[3], self.nu, self.nv)
                           if self.multiColoredSurface else None)


def grid_faces(nu: int, nv: int) -> np.ndarray:
    """Two triangles per cell of an nu × nv grid of points numbered i·nv + j."""
    i, j = np.meshgrid(np.arange(nu - 1), np.arange(nv - 1), indexing="ij")
    a = (i * nv + j).ravel()
    b, c = a + 1, a + nv
    return np.concatenate([np.stack([a, c, b], 1), np.stack([b, c, c + 1], 1)]).astype(np.int64)


def _shapes_fit(arrays, shape) -> bool:
    try:
        for a in arrays:
            np.broadcast_to(np.asarray(a, dtype=float), shape)
    except (TypeError, ValueError):
        return False
    return True


def _surface_colors(C, nu: int, nv: int) -> np.ndarray:
    try:
        rgb = np.asarray(C, dtype=float).reshape(nu * nv, 3)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"Surface: C must hold nu × nv × 3 = {nu} × {nv} × 3 colour "
                         "values") from exc
    if not np.all(np.isfinite(rgb)) or np.any(rgb < 0):
        raise ModelError("Surface: colours C must be finite and ≥ 0 (RGB in [0, 1] or "
                         "0–255)")
    # the MSL's sineSurface gives red up to 400: colours beyond 255 saturate, as drawn there
    return np.clip(rgb / 255.0, 0.0, 1.0) if np.any(rgb > 1) else rgb


def Torus(R: float = 0.5, r: float = 0.1, opening: float = 0.0,
          startAngle: float = -math.pi, stopAngle: float = math.pi, n_R: int = 40,
          n_r: int = 20, **options) -> Surface:
    """A torus (the MSL's ``Visualizers.Torus`` and ``SurfaceCharacteristics.torus``): major
    radius R (any sign, as the MSL), minor radius r > 0 [m] about the shape's y axis (points
    ((R + r·cos β)·sin α, r·sin β, (R + r·cos β)·cos α)), α from startAngle to stopAngle,
    β from −π + opening to π − opening [rad]; n_R × n_r points. ``options``: colour, opacity, center, rotation."""
    _number(R, "Torus", "R", "m")                  # R < 0 in the MSL's VoluminousWheel
    _positive(r, "Torus", "r")

    def torus(u, v):
        alpha = startAngle + (stopAngle - startAngle) * u
        beta = -math.pi + opening + (2 * math.pi - 2 * opening) * v
        return ((R + r * np.cos(beta)) * np.sin(alpha), r * np.sin(beta),
                (R + r * np.cos(beta)) * np.cos(alpha))
    return Surface(surfaceCharacteristic=torus, nu=n_R, nv=n_r, **options)


def VoluminousWheel(rTire: float = 0.25, rRim: float = 0.14, width: float = 0.25,
                    rCurvature: float = 0.30, n_rTire: int = 40, n_rCurvature: int = 20,
                    color=(64, 64, 64), **options) -> tuple:
    """A tyre (the MSL's ``Visualizers.VoluminousWheel``) about the shape's y axis, centred:
    the tread, a torus slice of major radius rTire − rCurvature' and minor radius
    rCurvature' = max(rCurvature, width/2), opened so that it spans the width, and the rim,
    the MSL's pipe of outer radius ri + h drawn as a cylinder of that radius and ``width``
    (the pipe's hole of radius rRim is not drawn). Returns the two shapes."""
    for name, value in (("rTire", rTire), ("width", width), ("rCurvature", rCurvature)):
        _positive(value, "VoluminousWheel", name)
    rw = width / 2
    rc = max(rCurvature, rw)
    kw = rw / rc
    h = math.sqrt(1 - kw * kw) * rc
    ri = rTire - rc
    if not ri + h > 0:
        raise ModelError(f"VoluminousWheel: rTire − rCurvature + h = {ri + h:.4g} m leaves no "
                         "rim; give a larger rTire or a smaller width")
    tread = Torus(R=ri, r=rc, opening=math.pi - math.asin(kw), n_R=n_rTire, n_r=n_rCurvature,
                  color=color, **options)
    rim = Cylinder(radius=ri + h, length=width, axis=(0.0, 1.0, 0.0), color=color,
                   **{k: v for k, v in options.items() if k != "rotation"})
    return tread, rim


def PipeWithScalarField(rOuter: float, length: float, T, T_min: float, T_max: float,
                        xsi=None, n_colors: int = 64, n_rOuter: int = 30, n_length: int = 20,
                        **options) -> Surface:
    """A pipe along the shape's x axis coloured by a scalar field (the MSL's
    ``Visualizers.PipeWithScalarField`` with its default colour map ``jet``, here
    matplotlib's, from dark blue (0, 0, 0.5) to dark red (0.5, 0, 0)): T [any unit]
    at the relative positions ``xsi`` (default 12 equally spaced from 0 to 1) along the
    length, mapped to n_colors colours between T_min and T_max (the MSL's scalarToColor);
    n_length × n_rOuter points. The field is the one given (a fixed colouring)."""
    _positive(rOuter, "PipeWithScalarField", "rOuter")
    _positive(length, "PipeWithScalarField", "length")
    xsi = np.linspace(0.0, 1.0, 12) if xsi is None else np.asarray(xsi, dtype=float)
    T = np.broadcast_to(np.asarray(T, dtype=float), xsi.shape)
    if not T_max > T_min:
        raise ModelError(f"PipeWithScalarField: T_max must exceed T_min, got {T_min}, {T_max}")
    from matplotlib import colormaps
    table = colormaps["jet"].resampled(int(n_colors))(np.arange(int(n_colors)))[:, :3]

    def pipe(u, v):
        Ti = np.interp(u, xsi, T)
        k = np.clip(np.round((Ti - T_min) / (T_max - T_min) * (n_colors - 1)), 0,
                    n_colors - 1).astype(int)
        beta = 2 * math.pi * v
        return length * u, rOuter * np.sin(beta), rOuter * np.cos(beta), table[k]
    return Surface(surfaceCharacteristic=pipe, nu=n_length, nv=n_rOuter,
                   multiColoredSurface=True, **options)
