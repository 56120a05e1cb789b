"""Visual shapes of components (metadata for animations, never physics): :class:`Box`,
:class:`Sphere`, :class:`Cylinder`, :class:`Capsule`, :class:`Mesh`, :class:`Surface`
(a parametric surface; :func:`Torus`, :func:`VoluminousWheel`, :func:`PipeWithScalarField`);
attached with ``RigidBody(..., shapes=[...])`` or ``component.shape(...)``."""
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
from .surfaces import PipeWithScalarField, Surface, Torus, VoluminousWheel

__all__ = ["Box", "Capsule", "Cylinder", "Mesh", "PipeWithScalarField", "Plane", "SHAPE_KINDS",
           "Sphere", "Surface", "Torus", "VisualShape", "VoluminousWheel", "as_color",
           "attached_shapes", "rotation_to"]
