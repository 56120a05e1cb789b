"""Basic electrical components (Modelica ``Electrical.Analog.Basic``, same names and
parameters): Resistor, Capacitor, Inductor and the electromechanical converters EMF
(rotational) and TranslationalEMF."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..base import as_scalar, param
from ..errors import ModelError
from ..forces import FlangeForce, SupportToFlange
from ..ports import Flange, HeatPort, Motion
from .base import BranchKind, OnePort


def _positive(comp, name: str, unit: str) -> None:
    value = getattr(comp, name)
    if not value > 0:
        raise ModelError(f"{comp.path}: {name} must be positive, got {value} {unit}")


@dataclass(eq=False)
class Resistor(OnePort):
    """Ideal linear resistor, v = R·i; dissipates R·i².

    R : [Ω] resistance, > 0 (for a short circuit connect the pins directly).
    useHeatPort : add the HeatPort ``heatPort`` that takes the losses (MSL's
        ``useHeatPort``): heatPort.Q_flow = −v·i, heating what it is connected to; the
        losses still count as dissipated and, entering the thermal network, as supplied
        there (docs/acausal.md). The resistance does not depend on the temperature.
    """

    R: float = param(1.0, "Ohm", "resistance")
    useHeatPort: bool = False

    def __post_init__(self):
        self.R = as_scalar(self.R, "Resistor", "R")
        self._make_pins()
        if self.useHeatPort:
            self.heatPort = HeatPort(self, "heatPort")

    def equations(self, v) -> list:
        """The heat port's equation (only with useHeatPort)."""
        return [v.heatPort.Q_flow + v.voltage(self) * v.current(self)]

    def validate(self) -> None:
        _positive(self, "R", "Ω")

    def resistance(self):
        return self.R

    def dissipated_power(self, ctx):
        return ctx.voltage(self) * ctx.current(self)


@dataclass(eq=False)
class Capacitor(OnePort):
    """Ideal capacitor, C·dv/dt = i; state ``v`` [V] (initially 0 unless given), stores ½·C·v².

    C : [F] capacitance, > 0.
    """

    C: float = param(1.0, "F", "capacitance")
    KIND: ClassVar[BranchKind] = BranchKind.VOLTAGE
    STATES: ClassVar[tuple[str, ...]] = ("v",)

    def __post_init__(self):
        self.C = as_scalar(self.C, "Capacitor", "C")
        self._make_pins()

    def validate(self) -> None:
        _positive(self, "C", "F")

    def voltage(self, ctx):
        return ctx.state(self)[0]

    def derivatives(self, ctx) -> list:
        return [ctx.current(self) / self.C]

    def stored_energy(self, ctx):
        return 0.5 * self.C * ctx.state(self)[0] ** 2


@dataclass(eq=False)
class Inductor(OnePort):
    """Ideal inductor, L·di/dt = v; state ``i`` [A] (initially 0 unless given), stores ½·L·i².

    L : [H] inductance, > 0.
    """

    L: float = param(1.0, "H", "inductance")
    KIND: ClassVar[BranchKind] = BranchKind.CURRENT
    STATES: ClassVar[tuple[str, ...]] = ("i",)

    def __post_init__(self):
        self.L = as_scalar(self.L, "Inductor", "L")
        self._make_pins()

    def validate(self) -> None:
        _positive(self, "L", "H")

    def current(self, ctx):
        return ctx.state(self)[0]

    def derivatives(self, ctx) -> list:
        return [ctx.voltage(self) / self.L]

    def stored_energy(self, ctx):
        return 0.5 * self.L * ctx.state(self)[0] ** 2


class _Converter(SupportToFlange, OnePort, FlangeForce):
    """An ideal electromechanical converter: v = k·w_rel, and the torque or force k·i on
    ``flange`` (reaction on ``support``); electrical power v·i equals mechanical power."""

    KIND: ClassVar[BranchKind] = BranchKind.VOLTAGE

    def _make_ports(self) -> None:
        self._make_pins()
        self.flange = Flange(self, "flange", self.MOTION)
        self.support = Flange(self, "support", self.MOTION)

    def validate(self) -> None:
        if self.k == 0:
            raise ModelError(f"{self.path}: the transformation coefficient k must be "
                             "non-zero")

    def voltage(self, ctx):
        return self.k * (ctx.flange(self.flange).w - ctx.flange(self.support).w)

    def force(self, s_rel, w_rel, ctx):
        return self.k * ctx.current(self)

    def supplied_power(self, ctx):
        return 0    # power conserving: the circuit's sources report what they deliver


@dataclass(eq=False)
class EMF(_Converter):
    """Electromotoric force (Modelica ``Analog.Basic.RotationalEMF``): v = k·ω with
    ω = d(φ_flange − φ_support)/dt, and the torque k·i on ``flange`` (−k·i on ``support``,
    the housing; unconnected it sits at the reference). Power conserving: v·i = τ·ω.

    k : [N·m/A] = [V·s/rad] transformation coefficient (torque constant = back-EMF
        constant), ≠ 0.
    """

    k: float = param(1.0, "N.m/A", "transformation coefficient")
    MOTION: ClassVar[Motion] = Motion.ROTATIONAL

    def __post_init__(self):
        self.k = as_scalar(self.k, "EMF", "k")
        self._make_ports()


@dataclass(eq=False)
class TranslationalEMF(_Converter):
    """Electromotoric force of a linear motor (Modelica ``Analog.Basic.TranslationalEMF``):
    v = k·v_rel, force k·i on ``flange`` (reaction on ``support``).

    k : [N/A] = [V·s/m] transformation coefficient, ≠ 0.
    """

    k: float = param(1.0, "N/A", "transformation coefficient")
    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL

    def __post_init__(self):
        self.k = as_scalar(self.k, "TranslationalEMF", "k")
        self._make_ports()
