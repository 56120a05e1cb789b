"""Electrical sources (Modelica ``Electrical.Analog.Sources``, same names and parameters):
ideal voltage and current sources driven by a signal or constant, and a PWM-averaged H-bridge
with supply-voltage saturation. Each reports the power it delivers (−v·i with i flowing from
p through the source to n)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

import casadi as ca

from ..base import as_scalar, param
from ..errors import ModelError
from ..ports import RealInput
from .base import BranchKind, OnePort


class _VoltageSource(OnePort):
    KIND: ClassVar[BranchKind] = BranchKind.VOLTAGE

    def supplied_power(self, ctx):
        return -ctx.voltage(self) * ctx.current(self)


class _CurrentSource(OnePort):
    KIND: ClassVar[BranchKind] = BranchKind.CURRENT

    def supplied_power(self, ctx):
        return -ctx.voltage(self) * ctx.current(self)


class SignalVoltage(_VoltageSource):
    """Ideal voltage source v = p.v − n.v driven by the input ``v`` [V] (a system input unless
    wired to a signal block)."""

    def __init__(self):
        self._make_pins()
        self.v = RealInput(self, "v")

    def voltage(self, ctx):
        return ctx.value(self.v)


class SignalCurrent(_CurrentSource):
    """Ideal current source, i [A] from p through the source to n given by the input ``i``."""

    def __init__(self):
        self._make_pins()
        self.i = RealInput(self, "i")

    def current(self, ctx):
        return ctx.value(self.i)


@dataclass(eq=False)
class ConstantVoltage(_VoltageSource):
    """Ideal constant voltage source, p.v − n.v = V.

    V : [V] voltage.
    """

    V: float = param(1.0, "V", "voltage")

    def __post_init__(self):
        self.V = as_scalar(self.V, "ConstantVoltage", "V")
        self._make_pins()

    def voltage(self, ctx):
        return self.V + 0 * ctx.t


@dataclass(eq=False)
class ConstantCurrent(_CurrentSource):
    """Ideal constant current source, I from p through the source to n.

    I : [A] current.
    """

    I: float = param(1.0, "A", "current")

    def __post_init__(self):
        self.I = as_scalar(self.I, "ConstantCurrent", "I")
        self._make_pins()

    def current(self, ctx):
        return self.I + 0 * ctx.t


class VoltageLimit(Enum):
    """How an H-bridge limits its output to the supply voltage ±V_supply."""

    CLIP = "clip"       # v = min(max(v_ref, −V), V): exact, a kink at the limit
    SMOOTH = "smooth"   # v = v_ref / (1 + (v_ref/V)^8)^(1/8): C^∞, for optimization


SMOOTH_ORDER = 8   # exponent of the smooth limit: 0.05 % below v_ref at v_ref = V/2, 0.917·V at V


@dataclass(eq=False)
class HBridge(_VoltageSource):
    """A PWM H-bridge, averaged over the switching period: the output v = p.v − n.v follows
    the commanded voltage ``v_ref`` [V] (duty cycle × supply), limited to ±V_supply; the
    switching ripple and the dead time are not modelled. The bridge is lossless and
    bidirectional (regenerative braking returns power to the supply).

    V_supply : [V] supply voltage, > 0.
    limit : VoltageLimit.CLIP (default, exact) or VoltageLimit.SMOOTH (differentiable
        everywhere: v_ref/(1 + (v_ref/V)⁸)^(1/8), within 0.05 % of v_ref below V/2).
    """

    V_supply: float = param(24.0, "V", "supply voltage")
    limit: VoltageLimit = VoltageLimit.CLIP

    def __post_init__(self):
        self.V_supply = as_scalar(self.V_supply, "HBridge", "V_supply")
        if not isinstance(self.limit, VoltageLimit):
            raise ModelError(f"HBridge: limit must be a VoltageLimit, got {self.limit!r}")
        self._make_pins()
        self.v_ref = RealInput(self, "v_ref")

    def validate(self) -> None:
        if not self.V_supply > 0:
            raise ModelError(f"{self.path}: V_supply must be positive, got {self.V_supply} V")

    def voltage(self, ctx):
        v, V = ctx.value(self.v_ref), self.V_supply
        if self.limit is VoltageLimit.CLIP:
            return ca.fmin(ca.fmax(v, -V), V)
        return v / (1 + (v / V) ** SMOOTH_ORDER) ** (1.0 / SMOOTH_ORDER)
