"""Actuators: a torque or force on a flange pair, driven by a signal input.

The input is a system input (named e.g. ``cube.motor.tau``) unless it is wired to a signal
block such as a source or a controller.
"""
from __future__ import annotations

from typing import ClassVar

from .forces import FlangeForce
from .ports import Motion, RealInput


def _power(source, ctx, port):
    """The power an ideal source delivers: its torque or force times the relative rate."""
    rate = ctx.flange(source.flange_b).w - ctx.flange(source.flange_a).w
    return ctx.value(port) * rate


class Motor(FlangeForce):
    """Ideal torque source: tau [N·m] on flange_b, −tau on flange_a (input ``tau``)."""

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL

    def __init__(self):
        self._make_flanges()
        self.tau = RealInput(self, "tau", unit="N.m")

    def force(self, s_rel, w_rel, ctx):
        return ctx.value(self.tau)

    def supplied_power(self, ctx):
        return _power(self, ctx, self.tau)


class LinearMotor(FlangeForce):
    """Ideal force source: f [N] on flange_b, −f on flange_a (input ``f``)."""

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL

    def __init__(self):
        self._make_flanges()
        self.f = RealInput(self, "f", unit="N")

    def force(self, s_rel, w_rel, ctx):
        return ctx.value(self.f)

    def supplied_power(self, ctx):
        return _power(self, ctx, self.f)
