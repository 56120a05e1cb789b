"""Hybrid blocks: elements with discrete modes, impacts and sampled (discrete-time) blocks.

The contract (discrete variables, switching rows, guards, transitions) is in :mod:`.base`;
:mod:`.stops` (Stop, ElastoGap), :mod:`.contacts` (GroundContact, BoxContact), :mod:`.body_contact`
(BodyContact between two bodies' collision shapes; :mod:`.narrow` their gaps), :mod:`.friction` (BearingFriction, SupportFriction, Brake,
Clutch, OneWayClutch, StribeckFriction: MSL's stick/slip friction), :mod:`.sampled` (ZeroOrderHold,
DiscreteStateFeedback, DiscretePID), :mod:`.logic` (Latch).
"""
from .base import Direction, Discrete, Guard, Hybrid, HybridState, Row, RowValue, Sampled
from .body_contact import BodyContact
from .contacts import BoxContact, ContactLaw, ContactMode, GroundContact, box_corners, tangents
from .friction import (
                       BearingFriction,
                       Brake,
                       Clutch,
                       FrictionMode,
                       OneWayClutch,
                       PartialFriction,
                       StribeckFriction,
                       SupportFriction,
                       stribeck_table,
)
from .freewheel import FreeWheel
from .logic import Latch
from .sampled import DiscretePID, DiscreteStateFeedback, ZeroOrderHold
from .stops import ElastoGap, Stop, StopLaw, StopMode

__all__ = ["BodyContact", "BoxContact", "ContactLaw", "ContactMode", "GroundContact", "box_corners",
           "tangents", "BearingFriction", "Brake", "Clutch", "Direction", "Discrete", "DiscretePID",
           "DiscreteStateFeedback", "ElastoGap", "ZeroOrderHold",
           "FreeWheel", "FrictionMode", "Guard", "Hybrid", "Latch", "HybridState", "OneWayClutch", "PartialFriction",
           "Row", "RowValue", "Sampled", "Stop", "StopLaw", "StopMode", "StribeckFriction",
           "SupportFriction",
           "stribeck_table"]
