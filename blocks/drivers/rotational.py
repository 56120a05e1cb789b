"""Rotational kinematic drivers (the MSL's ``Rotational.Sources``, same names): prescribe a
rotational flange's angle phi [rad], speed w [rad/s] or acceleration a [rad/s²] relative to
its support; the output ``tau`` [N·m] is the torque the driver applies to the flange."""
from __future__ import annotations

from .base import Driver, Level


class Position(Driver):
    """Forced angle phi_ref [rad] (MSL ``Rotational.Sources.Position``; exact=False filters
    the reference with f_crit [Hz], the MSL's default)."""

    LEVEL = Level.POSITION
    REFERENCE = "phi_ref"


class Speed(Driver):
    """Forced speed w_ref [rad/s] (MSL ``Rotational.Sources.Speed``); the angle integrates."""

    LEVEL = Level.SPEED
    REFERENCE = "w_ref"


class Accelerate(Driver):
    """Forced acceleration a_ref [rad/s²] (MSL ``Rotational.Sources.Accelerate``)."""

    LEVEL = Level.ACCELERATION
    REFERENCE = "a_ref"
