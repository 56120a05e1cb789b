"""Collision pairs of a model from its declarations (``component.collide(...)``), and the
contacts the event-driven mode runs.

Bodies are the frame nets joined by rigid elements (joints without coordinates: offsets,
bodies' own frames); two colliders may touch when they are on different bodies, those bodies
are not parent and child through one joint (MuJoCo's rule, the world excepted: a body on a
free joint still meets the ground), their collision bits match (``a.group & b.mask or
b.group & a.mask``), and not both are fixed in the world. The material of a pair combines
its two colliders' (MuJoCo's rule for friction, the larger; the smaller restitution; springs
in series for compliant laws).
"""
from __future__ import annotations

from dataclasses import fields

from jourdain.blocks import Composite
from jourdain.blocks.errors import ModelError
from jourdain.blocks.colliders import declared_colliders
from jourdain.blocks.hybrid.body_contact import BodyContact
from jourdain.blocks.hybrid.contacts import ContactLaw
from jourdain.blocks.hybrid.narrow import point_count

from ..model.flatten import flatten
from .pairs import WORLD, Collider, CollisionPair, ContactMaterial

CONTACTS = "contacts"      # the model's child holding the BodyContacts


def _declarations(model) -> list:
    """(component, frame, shape, group, mask, material) of every declaration in the model."""
    out, stack = [], [model]
    while stack:
        comp = stack.pop()
        out += [(comp, *entry) for entry in declared_colliders(comp)]
        if isinstance(comp, Composite):
            stack += list(comp.children.values())[::-1]
    return out


def _bodies(flat):
    """Body index of every frame net (nets joined by rigid elements share one), the world's
    body, and the set of body pairs joined by one joint with coordinates."""
    parent = list(range(len(flat.nets)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    for joint in flat.joints:
        if not joint.COORDINATES:
            parent[find(flat.net_of[joint.frame_a])] = find(flat.net_of[joint.frame_b])
    world = find(flat.net_of[flat.worlds[0].frame_b])
    adjacent = set()
    for joint in flat.joints:
        if joint.COORDINATES:
            a, b = find(flat.net_of[joint.frame_a]), find(flat.net_of[joint.frame_b])
            adjacent |= {(a, b), (b, a)}
    return find, world, adjacent


def material_of(a: dict, b: dict) -> ContactMaterial:
    """The contact material of two colliders' material keywords (module docstring): each
    parameter from the colliders that give it (the larger μ, the smaller e, springs in series,
    the larger damping and exponent), ContactMaterial's default where neither does."""
    base = ContactMaterial()

    def given(key, combine, default):
        values = [m[key] for m in (a, b) if m.get(key) is not None]
        return float(combine(values)) if values else default
    mu = given("mu", max, base.mu)
    statics = [m.get("mu_static", m.get("mu")) for m in (a, b)]
    statics = [v for v in statics if v is not None]
    compliant = [m for m in (a, b) if m.get("law") is ContactLaw.COMPLIANT or "c" in m]
    c = None
    if compliant:
        cs = [m.get("c", 1e6) for m in compliant]
        c = cs[0] if len(cs) == 1 else cs[0] * cs[1] / (cs[0] + cs[1])
    return ContactMaterial(mu=mu, mu_static=max(max(statics, default=mu), mu),
                           e=given("e", min, base.e), c=c, d=given("d", max, base.d),
                           n=given("n", max, base.n))


def collision_pairs(model) -> list[CollisionPair]:
    """The pairs of declared collision shapes that may touch (module docstring), in
    declaration order. Colliders carry their frame's dotted path and, in ``port``, the Frame
    port itself."""
    decls = _declarations(model)
    if not decls:
        return []
    flat = flatten(model)
    find, world, adjacent = _bodies(flat)
    colliders = []
    for k, (comp, frame, shape, group, mask, material) in enumerate(decls):
        if frame not in flat.net_of:
            raise ModelError(f"{comp.path}.collide: the frame {frame.path} is not part of the "
                             "model (declare collision shapes on frames of its components)")
        body = find(flat.net_of[frame])
        name = shape.name or f"{frame.path}#{k}"
        path = WORLD if body == world else frame.path
        colliders.append((Collider(path, shape, group, mask, name, port=frame,
                                   options=tuple(sorted(material.items(), key=str))),
                          body, material))
    pairs = []
    for i, (a, body_a, mat_a) in enumerate(colliders):
        for b, body_b, mat_b in colliders[i + 1:]:
            if body_a == body_b or (body_a, body_b) in adjacent and world not in (body_a,
                                                                               body_b):
                continue
            if not a.may_touch(b):
                continue
            pairs.append(CollisionPair(a, b, material_of(mat_a, mat_b)))
    return pairs


def _options(pair: CollisionPair) -> dict:
    """GroundContact keywords of a pair: its material and the colliders' other keywords."""
    m = pair.material
    out = {"mu": m.mu, "mu_static": m.mu_static if m.mu_static is not None else m.mu,
           "e": m.e}
    if m.c is not None:
        out.update(law=ContactLaw.COMPLIANT, c=m.c, d=m.d, n=m.n)
    for collider in (pair.a, pair.b):
        for key, value in collider.options:
            if key in ("v_rest", "v_eps"):
                out[key] = value
    return out


def add_contacts(model, pairs=None) -> Composite | None:
    """Add the BodyContacts of ``pairs`` (default :func:`collision_pairs`) to the model under
    ``contacts``, connected to the colliders' frames; once per model (a second call, or a
    compile of a model whose contacts were added, changes nothing). Returns the composite."""
    if CONTACTS in getattr(model, "children", {}):
        existing = model.children[CONTACTS]
        if getattr(existing, "_collision_pairs", None) is not None:
            if len(_declarations(model)) != existing._declared:
                raise ModelError("collision shapes were declared after the model's contacts "
                                 "were made (by an earlier compile); declare every shape "
                                 "before the first compile, or build the model anew")
            return existing
        raise ModelError(f"the model has a child named '{CONTACTS}' that is not its collision "
                         "contacts; rename it (declared collision shapes add their contacts "
                         f"under '{CONTACTS}')")
    pairs = collision_pairs(model) if pairs is None else list(pairs)
    if not pairs:
        return None
    group = Composite()
    world = flatten(model).worlds[0].frame_b if any(
        c.port is None for pair in pairs for c in (pair.a, pair.b)) else None
    for k, pair in enumerate(pairs):
        count = point_count(pair.a.shape, pair.b.shape, f"contact {pair.name}")
        for point in range(count):
            elem = BodyContact(shape_a=pair.a.shape, shape_b=pair.b.shape, point=point,
                               **_options(pair))
            name = f"pair{k}" if count == 1 else f"pair{k}_{point}"
            group.add(name, elem)
            group.connect(elem.frame_a, pair.a.port if pair.a.port is not None else world)
            group.connect(elem.frame_b, pair.b.port if pair.b.port is not None else world)
    object.__setattr__(group, "_collision_pairs", tuple(pairs))
    object.__setattr__(group, "_declared", len(_declarations(model)))
    model.add(CONTACTS, group)
    return group


def declared(model) -> bool:
    """True when some component of the model declares collision shapes."""
    return bool(_declarations(model))


def material_fields() -> tuple[str, ...]:
    return tuple(f.name for f in fields(ContactMaterial))
