"""Contract of a kinematic driver: a flange whose motion relative to its support is prescribed
by a signal (the MSL's ``Rotational.Sources.Position/Speed/Accelerate`` and their
translational counterparts).

The driven coordinate is not a degree of freedom: the solver takes its position, speed or
acceleration from the reference, removes its equation of motion and reports the force or
torque the driver must apply as the output ``tau`` (rotational) or ``f`` (translational).

* ``Level.POSITION``: exact (the reference is a known function of time, differentiated
  twice by automatic differentiation) or filtered (``exact=False``, the MSL's default: a
  second-order critically damped Bessel filter of cut-off ``f_crit``, whose states are the
  flange's position and speed);
* ``Level.SPEED``: exact (differentiated once) or filtered (first order, ``f_crit``);
* ``Level.ACCELERATION``: the acceleration is the reference itself.
"""
from __future__ import annotations

import math
from enum import Enum
from typing import ClassVar

from ..base import as_scalar
from ..errors import ModelError
from ..ports import Flange, Motion, RealInput, RealOutput
from ..signals import SignalBlock

AF, BF = 1.3617, 0.6180   # s and s² coefficients of the MSL's Bessel filter


class Level(Enum):
    """What a driver prescribes."""

    POSITION = 0
    SPEED = 1
    ACCELERATION = 2


class Driver(SignalBlock):
    """Contract: ``flange`` (driven), ``support`` (optional reference), the reference input,
    the reaction output, ``LEVEL``, ``exact`` and ``filtered_acceleration``."""

    LEVEL: ClassVar[Level] = Level.POSITION
    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    REFERENCE: ClassVar[str] = "phi_ref"   # name of the reference input
    REACTION: ClassVar[str] = "tau"        # name of the reaction output
    OPTIONAL_PORTS: ClassVar[tuple] = ("support",)   # a free support is the reference

    def __init__(self, exact: bool | None = None, f_crit: float = 50.0):
        if self.LEVEL is Level.ACCELERATION:
            exact = True    # nothing to differentiate or filter
        elif exact is None:
            exact = False   # the MSL's default
        self.exact = bool(exact)
        self.f_crit = as_scalar(f_crit, type(self).__name__, "f_crit")
        if not self.f_crit > 0:
            raise ModelError(f"{type(self).__name__}: f_crit must be positive, got {f_crit} Hz")
        self.flange = Flange(self, "flange", self.MOTION)
        self.support = Flange(self, "support", self.MOTION)
        setattr(self, self.REFERENCE, RealInput(self, self.REFERENCE))
        setattr(self, self.REACTION, RealOutput(self, self.REACTION))

    @property
    def reference_port(self) -> RealInput:
        return getattr(self, self.REFERENCE)

    def filtered_acceleration(self, ref, s, w):
        """The flange's acceleration when ``exact=False`` (MSL): Position
        a = ((ref − s)·ω_c − af·w)·ω_c/bf, Speed a = (ref − w)·ω_c, ω_c = 2π·f_crit."""
        w_crit = 2 * math.pi * self.f_crit
        if self.LEVEL is Level.POSITION:
            return ((ref - s) * w_crit - AF * w) * (w_crit / BF)
        return (ref - w) * w_crit

    def outputs(self, ctx) -> dict:
        return {getattr(self, self.REACTION): ctx.reaction(self)}
