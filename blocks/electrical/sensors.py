"""Electrical sensors (Modelica ``Electrical.Analog.Sensors``): ideal voltmeter (an open
circuit, i = 0) and ammeter (a short circuit, v = 0), whose readings are signal outputs."""
from __future__ import annotations

from typing import ClassVar

from ..ports import RealOutput
from ..signals import SignalBlock
from .base import BranchKind, OnePort


class VoltageSensor(OnePort, SignalBlock):
    """Output ``v`` [V] = p.v − n.v; draws no current."""

    KIND: ClassVar[BranchKind] = BranchKind.CURRENT

    def __init__(self):
        self._make_pins()
        self.v = RealOutput(self, "v")

    def current(self, ctx):
        return 0.0

    def outputs(self, ctx) -> dict:
        return {self.v: ctx.voltage(self)}


class CurrentSensor(OnePort, SignalBlock):
    """Output ``i`` [A], the current from p through the sensor to n; no voltage drop."""

    KIND: ClassVar[BranchKind] = BranchKind.VOLTAGE

    def __init__(self):
        self._make_pins()
        self.i = RealOutput(self, "i")

    def voltage(self, ctx):
        return 0.0

    def outputs(self, ctx) -> dict:
        return {self.i: ctx.current(self)}
