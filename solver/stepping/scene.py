"""What the time-stepping mode collides: the model's contacts as primitive pairs.

Two sources, one list: the collision pairs (solver.collision.CollisionPair: the System's
``collision_pairs`` and those a run passes), and the contacts of the event-driven mode, read
through their ``contact_geometry()`` hook: GroundContact and BoxContact corners (a point or
sphere on a frame against a plane of the world) and the BodyContacts that shapes declared
with ``collide`` become (their pair of shapes). A hybrid element that is not a
contact (a stop, a clutch, a sampled block) has no meaning in this mode and is refused by
name, as is a compliant contact law (its force law is the event-driven mode's).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from jourdain.blocks.errors import ModelError

from ..collision.pairs import WORLD, Collider, CollisionPair
from .narrow import Primitive, primitive

V_REST = 1e-3   # [m/s] approach speed below which a collision pair does not rebound


@dataclass(frozen=True)
class ContactSpec:
    """One pair of primitives and its material: mu [1], e [1] and v_rest [m/s]."""

    a: Primitive
    b: Primitive
    mu: float
    e: float
    v_rest: float
    label: str


def contact_specs(system, pairs=()) -> list[ContactSpec]:
    """The pairs of the system's ground contacts and collision pairs (module docstring)."""
    specs = [spec for element in _elements(system)
             if (spec := _element_spec(element)) is not None]
    given = list(getattr(system, "collision_pairs", ()) or ()) + list(pairs or ())
    for pair in given:
        if not isinstance(pair, CollisionPair):
            raise ModelError(f"simulate: pairs must hold jd.CollisionPair objects, got "
                             f"{pair!r:.60}")
        m = pair.material
        specs.append(ContactSpec(primitive(pair.a), primitive(pair.b), float(m.mu),
                                 float(m.e), V_REST, pair.name))
        if m.c is not None:
            raise ModelError(f"collision pair '{pair.name}': a compliant material (c = {m.c}) "
                             "runs with contact='events'; contact='stepping' is rigid "
                             "(leave c=None)")
    return specs


def _elements(system) -> list:
    info = getattr(system, "hybrid", None)
    if info is None:
        return []
    for element in info.elements:
        if not hasattr(element, "contact_geometry"):
            raise ModelError(f"{element.path}: a {type(element).__name__} is not a contact; "
                             "contact='stepping' runs contacts only (use contact='events' "
                             "for stops, clutches and sampled blocks)")
    return list(info.elements)


def _element_spec(element) -> ContactSpec | None:
    """The pair of a hybrid contact element: a GroundContact's sphere against its plane, or
    a BodyContact's two shapes (declared by ``collide``; its point 0 carries the pair)."""
    geometry = element.contact_geometry()
    if "pair" not in geometry:
        return _ground(element, geometry)
    if geometry["pair"] is None:
        return None
    if geometry.get("compliant"):
        raise ModelError(f"{element.path}: a compliant contact (law=ContactLaw.COMPLIANT) "
                         "runs with contact='events'; contact='stepping' is rigid")
    frame_a, shape_a, frame_b, shape_b = geometry["pair"]
    a = primitive(Collider(frame_a, shape_a, name=f"{element.path}.a"))
    b = primitive(Collider(frame_b, shape_b, name=f"{element.path}.b"))
    return ContactSpec(a, b, float(geometry["mu"]), float(geometry["e"]),
                       float(geometry["v_rest"]), element.path)


def _ground(element, geometry) -> ContactSpec:
    if geometry.get("compliant"):
        raise ModelError(f"{element.path}: a compliant contact (law=ContactLaw.COMPLIANT) "
                         "runs with contact='events'; contact='stepping' is rigid")
    try:
        values = {k: float(v) for k, v in geometry.items()
                  if k in ("radius", "offset", "mu", "e", "v_rest")}
        centre = tuple(float(v) for v in geometry["center"])
    except (TypeError, RuntimeError) as exc:
        raise ModelError(f"{element.path}: contact='stepping' needs numeric contact "
                         f"parameters (a symbolic one cannot shape the compiled step): {exc}"
                         ) from None
    body = Primitive("sphere", geometry["frame"], centre, tuple(np.eye(3).ravel()),
                     (values["radius"],), element.path)
    normal = np.asarray(geometry["normal"], dtype=float).ravel()
    normal = normal / np.linalg.norm(normal)      # GroundContact checked it is non-zero
    ground = Primitive("plane", WORLD, (0.0,) * 3, tuple(np.eye(3).ravel()),
                       tuple(normal) + (values["offset"],), "world")
    return ContactSpec(body, ground, values["mu"], values["e"], values["v_rest"],
                       element.path)
