"""The fast contact mode: time stepping with exact complementarity at velocity level,
compiled end to end (docs/hybrid.md, "Two contact modes")."""
from .narrow import Plane
from .run import simulate_stepping

__all__ = ["Plane", "simulate_stepping"]
