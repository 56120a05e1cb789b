"""Collision shapes of components: ``component.collide(Sphere(0.05), mu=0.3)`` declares a
shape fixed in a frame with collision bits and a contact material, as ``shape()`` attaches
visual shapes. At compile time every two shapes that may touch become contacts
(:class:`jourdain.blocks.hybrid.BodyContact`, made by ``jourdain.solver.collision``).
"""
from __future__ import annotations

from .errors import ModelError
from .ports import Frame
from .visual.shapes import Cylinder, VisualShape

# the material's keywords (GroundContact's parameters) a declaration may carry
MATERIAL_KEYS = ("mu", "mu_static", "e", "v_rest", "law", "c", "d", "n", "v_eps")


def collide(component, shapes, frame=None, group: int = 1, mask: int = 1, **material):
    """Declare collision ``shapes`` fixed in ``frame`` (a Frame port; default the component's
    frame_a, or frame_b for the World) with collision bits ``group`` and ``mask`` (MuJoCo's
    contype and conaffinity: two shapes may touch when a.group & b.mask or b.group & a.mask)
    and a contact material (``mu``, ``mu_static``, ``e``, ``v_rest``, ``law``, ``c``, ``d``,
    ``n``, ``v_eps``: GroundContact's parameters). Returns the component."""
    owner = component.path
    shapes = tuple(shapes)
    for shape in shapes:
        if not isinstance(shape, VisualShape):
            raise ModelError(f"{owner}.collide: shapes must be collision shapes (Sphere, "
                             f"Capsule, Box, Mesh, Plane from jourdain.blocks.visual), got "
                             f"{shape!r}")
        if isinstance(shape, Cylinder):
            raise ModelError(f"{owner}.collide: Cylinder collision shapes are not supported "
                             "by the event-driven contacts (no closed-form gap on a plane "
                             "where a cap lies flat); use a Capsule or a Box")
    if frame is None:
        frame = getattr(component, "frame_a", None) or getattr(component, "frame_b", None)
    if not isinstance(frame, Frame):
        raise ModelError(f"{owner}.collide: frame must be a Frame port (e.g. body.frame_a), "
                         f"got {frame!r}")
    for name, bits in (("group", group), ("mask", mask)):
        if isinstance(bits, bool) or not isinstance(bits, int) or bits < 0:
            raise ModelError(f"{owner}.collide: {name} must be a non-negative integer of "
                             f"collision bits, got {bits!r}")
    unknown = sorted(set(material) - set(MATERIAL_KEYS))
    if unknown:
        raise ModelError(f"{owner}.collide: unknown material keyword(s) {unknown}; use "
                         f"{', '.join(MATERIAL_KEYS)}")
    store = component.__dict__.setdefault("_colliders", [])
    store.extend((frame, shape, group, mask, dict(material)) for shape in shapes)
    return component


def declared_colliders(component) -> list:
    """The (frame, shape, group, mask, material) declarations of ``component``."""
    return getattr(component, "__dict__", {}).get("_colliders", [])
