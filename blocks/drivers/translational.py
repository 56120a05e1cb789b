"""Translational kinematic drivers (the MSL's ``Translational.Sources``, same names): prescribe
a translational flange's position s [m], speed v [m/s] or acceleration a [m/s²] relative to its
support; the output ``f`` [N] is the force the driver applies to the flange."""
from __future__ import annotations

from ..ports import Motion
from .base import Driver, Level


class _Translational(Driver):
    MOTION = Motion.TRANSLATIONAL
    REACTION = "f"


class Position(_Translational):
    """Forced position s_ref [m] (MSL ``Translational.Sources.Position``)."""

    LEVEL = Level.POSITION
    REFERENCE = "s_ref"


class Speed(_Translational):
    """Forced speed v_ref [m/s] (MSL ``Translational.Sources.Speed``)."""

    LEVEL = Level.SPEED
    REFERENCE = "v_ref"


class Accelerate(_Translational):
    """Forced acceleration a_ref [m/s²] (MSL ``Translational.Sources.Accelerate``)."""

    LEVEL = Level.ACCELERATION
    REFERENCE = "a_ref"
