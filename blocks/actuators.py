"""Actuators: a torque or force on a flange pair, driven by a signal input.

The input is a system input (named e.g. ``cube.motor.tau``) unless it is wired to a signal
block such as a source or a controller. The power each delivers, τ·w_rel or f·v_rel, is the
power of its residual force (FlangeForce.supplied_power): ``power.supplied`` of a Result.
"""
from __future__ import annotations

from typing import ClassVar

from .forces import FlangeForce
from .ports import Motion, RealInput


class Motor(FlangeForce):
    """Ideal torque source: tau [N·m] on flange_b, −tau on flange_a (input ``tau``)."""

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL

    def __init__(self):
        self._make_flanges()
        self.tau = RealInput(self, "tau", unit="N.m")

    def force(self, s_rel, w_rel, ctx):
        return ctx.value(self.tau)


class LinearMotor(FlangeForce):
    """Ideal force source: f [N] on flange_b, −f on flange_a (input ``f``)."""

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL

    def __init__(self):
        self._make_flanges()
        self.f = RealInput(self, "f", unit="N")

    def force(self, s_rel, w_rel, ctx):
        return ctx.value(self.f)
