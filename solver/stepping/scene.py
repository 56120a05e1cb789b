"""What the time-stepping mode collides: the model's contacts as primitive pairs.

Two sources, one list: the collision pairs (solver.collision.CollisionPair: the System's
``collision_pairs`` and those a run passes), and the contacts of the event-driven mode, read
through their ``contact_geometry()`` hook: GroundContact and BoxContact corners (a point or
sphere on a frame against a plane of the world) and the BodyContacts that shapes declared
with ``collide`` become (their pair of shapes). A rigid ``Stop`` (a joint limit: the MJCF
and URDF ranges with ``stops=True``) becomes a :class:`RowSpec`, one unilateral row per
finite limit, without friction. A hybrid element that is neither (a clutch, a sampled
block) has no meaning in this mode and is refused by name, as is a compliant contact law or
stop (its force law is the event-driven mode's).
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


@dataclass(frozen=True)
class RowSpec:
    """A unilateral row of a hybrid element (a rigid Stop's limit): its index in
    ``system.hybrid.rows`` (gap and speed from the System's ``hybrid_others``), e and
    v_rest [m/s or rad/s]."""

    index: int
    e: float
    v_rest: float
    label: str


def contact_specs(system, pairs=()) -> list:
    """The pairs of the system's ground contacts and collision pairs, and the rows of its
    stops (module docstring)."""
    specs = []
    for element in _elements(system):
        found = _stop_specs(system, element) if _is_stop(element) else \
            [_element_spec(element)]
        specs += [spec for spec in found if spec is not None]
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
        if not hasattr(element, "contact_geometry") and not _is_stop(element):
            raise ModelError(f"{element.path}: a {type(element).__name__} is neither a contact "
                             "nor a stop; contact='stepping' runs contacts and rigid stops "
                             "only (use contact='events' for clutches, friction elements and "
                             "sampled blocks)")
    return list(info.elements)


def _is_stop(element) -> bool:
    from jourdain.blocks.hybrid.stops import Stop
    return isinstance(element, Stop)


def _stop_specs(system, element) -> list[RowSpec]:
    """One RowSpec per finite limit of a rigid Stop (its rows in system.hybrid.rows)."""
    from jourdain.blocks.hybrid.stops import StopLaw
    if element.law is not StopLaw.RIGID:
        raise ModelError(f"{element.path}: a compliant stop (law=StopLaw.COMPLIANT) runs with "
                         "contact='events'; contact='stepping' is rigid (use the default "
                         "StopLaw.RIGID)")
    try:
        e, v_rest = float(element.e), float(element.v_rest)
    except (TypeError, RuntimeError) as exc:
        raise ModelError(f"{element.path}: contact='stepping' needs numeric e and v_rest "
                         f"(a symbolic one cannot shape the compiled step): {exc}") from None
    return [RowSpec(i, e, v_rest, row.label) for i, row in enumerate(system.hybrid.rows)
            if row.owner is element]


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
