"""User-written acausal components (docs/acausal.md): the contract
:class:`AcausalComponent` and the connectors it uses (re-exported from :mod:`..ports`)."""
from ..ports import Connector, FluidPort, HeatPort, Pin
from .base import AcausalComponent

__all__ = ["AcausalComponent", "Connector", "FluidPort", "HeatPort", "Pin"]
