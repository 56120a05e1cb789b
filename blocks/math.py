"""Memoryless signal blocks of the Modelica Standard Library's ``Blocks.Math`` with the MSL's
names, ports and parameters: Feedback (y = u1 − u2), Add3 (y = k1·u1 + k2·u2 + k3·u3) and the
function blocks Sin, Cos, Atan (y = f(u)). ``Add``, ``Gain`` and ``Product`` live in
:mod:`.controllers`."""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from .base import as_scalars, param
from .ports import RealInput, RealOutput
from .signals import SignalBlock


class Feedback(SignalBlock):
    """y = u1 − u2 (MSL ``Blocks.Math.Feedback``: u1 the reference, u2 the measured
    value fed back)."""

    def __init__(self):
        self.u1 = RealInput(self, "u1")
        self.u2 = RealInput(self, "u2")
        self.y = RealOutput(self, "y")

    def outputs(self, ctx) -> dict:
        return {self.y: ctx.value(self.u1) - ctx.value(self.u2)}


@dataclass(eq=False)
class Add3(SignalBlock):
    """y = k1·u1 + k2·u2 + k3·u3 (MSL ``Blocks.Math.Add3``)."""

    k1: float = param(1.0, "1", "gain of u1")
    k2: float = param(1.0, "1", "gain of u2")
    k3: float = param(1.0, "1", "gain of u3")

    def __post_init__(self):
        as_scalars(self, "Add3", "k1", "k2", "k3")
        self.u1 = RealInput(self, "u1")
        self.u2 = RealInput(self, "u2")
        self.u3 = RealInput(self, "u3")
        self.y = RealOutput(self, "y")

    def outputs(self, ctx) -> dict:
        return {self.y: self.k1 * ctx.value(self.u1) + self.k2 * ctx.value(self.u2)
                + self.k3 * ctx.value(self.u3)}


class _Function(SignalBlock):
    """y = FUNCTION(u) for one input ``u`` and one output ``y``."""

    FUNCTION = None

    def __init__(self):
        self.u = RealInput(self, "u")
        self.y = RealOutput(self, "y")

    def outputs(self, ctx) -> dict:
        return {self.y: type(self).FUNCTION(ctx.value(self.u))}


class Sin(_Function):
    """y = sin(u), u in rad (MSL ``Blocks.Math.Sin``)."""

    FUNCTION = staticmethod(ca.sin)


class Cos(_Function):
    """y = cos(u), u in rad (MSL ``Blocks.Math.Cos``)."""

    FUNCTION = staticmethod(ca.cos)


class Atan(_Function):
    """y = atan(u) in rad (MSL ``Blocks.Math.Atan``)."""

    FUNCTION = staticmethod(ca.atan)
