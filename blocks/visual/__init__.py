"""Visual shapes of components (metadata for animations, never physics): :class:`Box`,
:class:`Sphere`, :class:`Cylinder`, :class:`Capsule`, :class:`Mesh`; attached with
``RigidBody(..., shapes=[...])`` or ``component.shape(...)``."""
from .shapes import (
    SHAPE_KINDS,
    Box,
    Capsule,
    Cylinder,
    Mesh,
    Plane,
    Sphere,
    VisualShape,
    as_color,
    attached_shapes,
    rotation_to,
)

__all__ = ["Box", "Capsule", "Cylinder", "Mesh", "Plane", "SHAPE_KINDS", "Sphere", "VisualShape",
           "as_color", "attached_shapes", "rotation_to"]
