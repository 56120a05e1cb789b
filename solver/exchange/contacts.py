"""The collision geometry of an imported file as collision shapes of the Robot: MJCF geoms
that collide (contype or conaffinity non-zero) and URDF ``<collision>`` elements, declared
on their link's frame with ``collide`` (``jourdain.blocks.colliders``), so the compiled model
has contacts between them (``jourdain.solver.collision``).

MuJoCo's parameters map onto the rigid law: contype and conaffinity are the collision bits
(group, mask: the same rule); friction[0] the sliding coefficient μ (MuJoCo combines a pair's
by the larger, as here); solref = (timeconst, dampratio) is MuJoCo's spring–damper that
stands in for a rigid contact, whose bounce a mass on a damped linear spring gives in closed
form: e = exp(−π·ζ/√(1 − ζ²)) for ζ < 1, 0 (plastic, MuJoCo's default ζ = 1) otherwise.
Options given to the importer (``contacts={"e": 0.3}``, ``{"law": ContactLaw.COMPLIANT,
"c": 1e5}``) override the file's. Cylinders and ellipsoids (no closed-form gap here) and
meshes whose file is missing are left out, named in ``robot.notes``.
"""
from __future__ import annotations

import math

import numpy as np

from jourdain.blocks.colliders import MATERIAL_KEYS, collide
from jourdain.blocks.errors import ModelError
from jourdain.blocks.visual import Box, Capsule, Mesh, Plane, Sphere

from .options import import_option
from .spec import Geometry, GeometryKind


def restitution(solref) -> float:
    """Restitution of MuJoCo's contact spring–damper of damping ratio solref[1] (module
    docstring); negative solref (direct stiffness and damping) counts as plastic."""
    if solref is None or solref[0] <= 0 or solref[1] >= 1:
        return 0.0
    zeta = solref[1]
    return math.exp(-math.pi * zeta / math.sqrt(1 - zeta * zeta))


def collision_shape(element: Geometry, link: str = ""):
    """The collision shape of one element, or None when it has none here."""
    T = np.asarray(element.origin, dtype=float)
    options = {"center": tuple(T[:3, 3]), "rotation": tuple(T[:3, :3].ravel()),
               "name": element.name or link}
    size, kind = tuple(float(v) for v in element.size), element.kind
    if kind is GeometryKind.BOX:
        return Box(size[:3], **options)
    if kind is GeometryKind.SPHERE:
        return Sphere(size[0], **options)
    if kind is GeometryKind.CAPSULE:
        return Capsule(size[0], size[1], **options)
    if kind is GeometryKind.PLANE:
        return Plane(**options)
    if kind is GeometryKind.MESH and element.mesh is not None:
        return Mesh(str(element.mesh), scale=size[:3] if len(size) >= 3 else 1.0, **options)
    return None


def add_contacts(robot, **options) -> int:
    """Declare every link's collision geometry on the link's frame (module docstring);
    ``options`` are contact keywords (mu, mu_static, e, v_rest, law, c, d, n, v_eps) over
    the file's. Returns the number of shapes declared."""
    unknown = sorted(set(options) - set(MATERIAL_KEYS))
    if unknown:
        raise ModelError(f"add_contacts: unknown contact option(s) {unknown}; use "
                         f"{', '.join(MATERIAL_KEYS)}")
    count, skipped = 0, []
    for link, elements in robot.collisions.items():
        frame = robot.frames.get(link)
        for element in elements:
            shape = collision_shape(element, link) if frame is not None else None
            if shape is None:
                skipped.append(f"{link} ({element.kind.value})")
                continue
            material = {"e": restitution(element.solref)}
            if element.friction is not None:
                material["mu"] = element.friction
            material.update(options)
            collide(robot, [shape], frame, element.group, element.mask, **material)
            count += 1
    if skipped:
        robot.notes.append("collision geometry not imported (cylinder, ellipsoid, missing "
                           "mesh or a link without a frame): " + ", ".join(skipped))
    return count


def with_contacts(robot, contacts, caller: str) -> None:
    """The ``contacts`` option of the importers: False, True or a dict of contact options."""
    import_option(contacts, lambda **o: add_contacts(robot, **o), caller, "contacts",
                  "a dict of contact options", "{'e': 0.3}")
