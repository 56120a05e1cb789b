"""The shared vocabulary of contact between bodies.

A :class:`Collider` is one shape fixed in one body frame (its pose in that frame is the
shape's own ``center`` and ``rotation``); a :class:`CollisionPair` is two colliders that may
touch, after filtering (parent/child bodies, collision groups); a :class:`ContactMaterial`
holds the contact law's parameters of a pair. The model-level declarations (which shapes a
body collides with, groups, materials, MJCF/URDF import) produce pairs; the narrow phase
(distance, witness points, normal) and both contact modes (event-driven exact, time-stepping
fast) consume them, so a scene is declared once whichever mode runs it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

WORLD = "world"   # frame path of colliders fixed in the world (the ground, walls)


@dataclass(frozen=True)
class ContactMaterial:
    """Contact law parameters of a pair: mu [1] sliding and mu_static [1] (None: = mu)
    friction coefficients, e [1] normal restitution, and for a compliant law the stiffness
    c [N/mⁿ], Hunt–Crossley damping d [s/m] and exponent n [1] (None: rigid)."""

    mu: float = 0.5
    mu_static: float | None = None
    e: float = 0.0
    c: float | None = None
    d: float = 0.0
    n: float = 1.5


@dataclass(frozen=True)
class Collider:
    """One collision shape fixed in a body frame.

    frame: path of the frame port the shape is fixed in (e.g. ``"box.frame_a"``) or WORLD;
    shape: a shape from ``jourdain.blocks.visual`` (Sphere, Box, Capsule, Cylinder, convex
    Mesh) or a plane, placed by its own ``center``/``rotation`` in that frame;
    group, mask: collision filter bits (MuJoCo's contype/conaffinity: two colliders may touch
    when ``a.group & b.mask or b.group & a.mask``); name: label in results and errors;
    port: the Frame port itself (None for pairs made by hand: the world's frame);
    options: the declaration's other contact keywords as sorted (key, value) pairs (v_rest,
    v_eps). ``port`` and ``options`` take no part in equality.
    """

    frame: str
    shape: object
    group: int = 1
    mask: int = 1
    name: str = ""
    port: object = field(default=None, compare=False, repr=False)
    options: tuple = field(default=(), compare=False, repr=False)

    def may_touch(self, other: "Collider") -> bool:
        return bool(self.group & other.mask or other.group & self.mask)


@dataclass(frozen=True)
class CollisionPair:
    """Two colliders that may touch, and their contact material."""

    a: Collider
    b: Collider
    material: ContactMaterial = ContactMaterial()

    @property
    def name(self) -> str:
        return f"{self.a.name or self.a.frame}|{self.b.name or self.b.frame}"
