"""The visual geometry of an imported file as visual shapes of the Robot (jourdain.blocks.visual),
so an imported robot animates with its own boxes, cylinders, spheres and meshes. Metadata,
never physics; collision geometry is not drawn.

Each element's origin (a 4×4 pose in its link frame) becomes the shape's centre and rotation;
cylinders and capsules lie along the element's z, as in URDF and MJCF; rgba becomes colour and
opacity. Ellipsoids, infinite planes and meshes whose file was not found are not drawn (noted
in ``robot.notes``).
"""
from __future__ import annotations

import numpy as np

from jourdain.blocks.errors import ModelError
from jourdain.blocks.visual import Box, Capsule, Cylinder, Mesh, Sphere
from jourdain.blocks.visual.shapes import attach

from .spec import Geometry, GeometryKind


def dress(robot) -> None:
    """Attach every link's visual geometry to the link's frame (``robot.frames``)."""
    skipped = []
    for link, elements in robot.visuals.items():
        frame = robot.frames.get(link)
        if frame is None:
            continue
        shapes = []
        for element in elements:
            shape = visual_shape(element, link)
            if shape is None:
                skipped.append(f"{link} ({element.kind.value})")
            else:
                shapes.append(shape)
        if shapes:
            attach(robot, shapes, frame)     # not robot.shape: a link may be named so
    if skipped:
        robot.notes.append("visual geometry not drawn (ellipsoid, infinite plane or missing "
                           "mesh): " + ", ".join(skipped))


def visual_shape(element: Geometry, link: str = ""):
    """The shape of one visual element (named after the element or its link), or None when
    it cannot be drawn."""
    T = np.asarray(element.origin, dtype=float)
    options = {"center": tuple(T[:3, 3]), "rotation": tuple(T[:3, :3].ravel()),
               "name": element.name or link}
    if element.rgba is not None:
        options.update(color=tuple(float(c) for c in element.rgba[:3]),
                       opacity=float(element.rgba[3]) if len(element.rgba) > 3 else 1.0)
    size, kind = tuple(float(v) for v in element.size), element.kind
    try:
        if kind is GeometryKind.BOX:
            return Box(size[:3], **options)
        if kind is GeometryKind.SPHERE:
            return Sphere(size[0], **options)
        if kind is GeometryKind.CYLINDER:
            return Cylinder(size[0], size[1], **options)
        if kind is GeometryKind.CAPSULE:
            return Capsule(size[0], size[1], **options)
        if kind is GeometryKind.PLANE and min(size[:2]) > 0:
            return Box((2 * size[0], 2 * size[1], 1e-3 * max(size[:2])), **options)
        if kind is GeometryKind.MESH and element.mesh is not None:
            return Mesh(str(element.mesh), scale=size[:3] if len(size) >= 3 else 1.0,
                        **options)
    except ModelError:   # a degenerate element (zero size) is not drawn
        return None
    return None
