"""Collision geometry of bodies: which shapes of which bodies may touch (pairs, filtering)
and the contact material between them. The event-driven contacts and the time-stepping fast
mode both read the pairs from here: :mod:`.build` makes them from a model's declarations
(``component.collide(...)``) and adds the event-driven contacts, :mod:`.narrow` gives the
distance and witness points of any pair numerically (MuJoCo's collision functions), with a
broad phase."""
from .build import add_contacts, collision_pairs
from .pairs import WORLD, Collider, CollisionPair, ContactMaterial

__all__ = ["Collider", "CollisionPair", "ContactMaterial", "WORLD", "add_contacts",
           "collision_pairs"]
