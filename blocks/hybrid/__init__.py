"""Hybrid blocks: elements with discrete modes, impacts and sampled (discrete-time) blocks.

The contract (discrete variables, switching rows, guards, transitions) is in :mod:`.base`;
:mod:`.stops` (Stop, ElastoGap).
"""
from .base import Direction, Discrete, Guard, Hybrid, HybridState, Row, RowValue, Sampled
from .stops import ElastoGap, Stop, StopLaw, StopMode

__all__ = ["Direction", "Discrete", "ElastoGap", "Guard", "Hybrid", "HybridState", "Row",
           "RowValue", "Sampled", "Stop", "StopLaw", "StopMode"]
