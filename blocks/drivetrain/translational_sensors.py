"""Sensors of ``Modelica.Mechanics.Translational.Sensors`` with the MSL's names and outputs:
``SpeedSensor`` (v), ``AccSensor`` (a) on one flange; ``PowerSensor`` (power) and
``MultiSensor`` (f, v, power) cut the connection between two flanges, which they join
rigidly, like ``ForceSensor`` (``PositionSensor`` is :class:`jourdain.blocks.PositionSensor`,
with the speed as a second output).

The acceleration and the cut force read the dynamics (docs/msl.md, "Outputs that read the
dynamics"): they may feed outputs and filters, not the forces of the same mechanism.
"""
from __future__ import annotations

from typing import ClassVar

from ..ports import Flange, Motion, RealOutput
from ..signals import SignalBlock
from .base import CutSensor


class SpeedSensor(SignalBlock):
    """Absolute speed v [m/s] of a translational flange (MSL
    ``Translational.Sensors.SpeedSensor``)."""

    def __init__(self):
        self.flange = Flange(self, "flange", Motion.TRANSLATIONAL)
        self.v = RealOutput(self, "v", unit="m/s")

    def outputs(self, ctx) -> dict:
        return {self.v: ctx.flange(self.flange).w}


class AccSensor(SignalBlock):
    """Absolute acceleration a [m/s²] of a translational flange (MSL
    ``Translational.Sensors.AccSensor``): a = der(v), from the equations of motion."""

    def __init__(self):
        self.flange = Flange(self, "flange", Motion.TRANSLATIONAL)
        self.a = RealOutput(self, "a", unit="m/s2")

    def outputs(self, ctx) -> dict:
        return {self.a: ctx.derivative(ctx.flange(self.flange).w)}


class PowerSensor(CutSensor):
    """Power [W] transmitted from flange_a to flange_b, which it joins rigidly (MSL
    ``Translational.Sensors.PowerSensor``): power = flange_a.f·v, the cut force times the
    flanges' speed; output ``power``."""

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    OUTPUT: ClassVar[str] = "power"

    def __init__(self):
        self._make_ports(RealOutput(self, "power", unit="W"))

    def outputs(self, ctx) -> dict:
        return {self.power: ctx.cut_force(self) * ctx.flange(self.flange_a).w}


class MultiSensor(CutSensor):
    """Cut force f [N], absolute speed v [m/s] and power [W] = f·v between flange_a and
    flange_b, which it joins rigidly (MSL ``Translational.Sensors.MultiSensor``): f is the
    force flange_a transmits to flange_b (the MSL's f = flange_a.f), as ForceSensor's."""

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    OUTPUT: ClassVar[str] = "f"

    def __init__(self):
        self._make_ports(RealOutput(self, "f", unit="N"))
        self.v = RealOutput(self, "v", unit="m/s")
        self.power = RealOutput(self, "power", unit="W")

    def outputs(self, ctx) -> dict:
        f, v = ctx.cut_force(self), ctx.flange(self.flange_a).w
        return {self.f: f, self.v: v, self.power: f * v}


__all__ = ["AccSensor", "MultiSensor", "PowerSensor", "SpeedSensor"]
