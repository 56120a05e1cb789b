"""Collision geometry of bodies: which shapes of which bodies may touch (pairs, filtering)
and the contact material between them. The event-driven contacts and the time-stepping fast
mode both read the pairs from here."""
from .pairs import Collider, CollisionPair, ContactMaterial

__all__ = ["Collider", "CollisionPair", "ContactMaterial"]
