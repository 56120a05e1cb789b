"""The fast contact mode: time stepping with exact complementarity at velocity level,
compiled end to end (docs/hybrid.md, "Two contact modes"). Planes are
``jourdain.blocks.visual.Plane``, as for the event-driven mode."""
from .run import simulate_stepping

__all__ = ["simulate_stepping"]
