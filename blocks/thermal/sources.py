"""Thermal boundary conditions and sensors (Modelica ``Thermal.HeatTransfer.Sources`` and
``.Sensors``). A source reports the heat it delivers into the model, −port.Q_flow, as supplied
power (negative where it absorbs heat, e.g. an ambient at a fixed temperature)."""
from __future__ import annotations

from dataclasses import dataclass

from ..acausal.base import AcausalComponent
from ..base import as_scalars, param
from ..ports import HeatPort, RealInput, RealOutput


class _Source(AcausalComponent):
    def supplied_power(self, v):
        return -v.port.Q_flow


@dataclass(eq=False)
class FixedTemperature(_Source):
    """Fixed temperature boundary: port.T = T.

    T : [K] temperature.
    """

    T: float = param(293.15, "K", "fixed temperature")

    def __post_init__(self):
        as_scalars(self, "FixedTemperature", "T")
        self.port = HeatPort(self, "port")

    def equations(self, v) -> list:
        return [v.port.T - self.T]


class PrescribedTemperature(_Source):
    """Temperature boundary from the input ``T`` [K]: port.T = T."""

    def __init__(self):
        self.T = RealInput(self, "T", unit="K")
        self.port = HeatPort(self, "port")

    def equations(self, v) -> list:
        return [v.port.T - v.T]


@dataclass(eq=False)
class FixedHeatFlow(_Source):
    """Fixed heat flow into the model: port.Q_flow = −Q_flow·(1 + alpha·(port.T − T_ref)).

    Q_flow : [W] heat flow at T_ref. T_ref : [K] reference temperature.
    alpha : [1/K] temperature coefficient of the heat flow rate.
    """

    Q_flow: float = param(0.0, "W", "fixed heat flow rate at T_ref")
    T_ref: float = param(293.15, "K", "reference temperature")
    alpha: float = param(0.0, "1/K", "temperature coefficient of heat flow rate")

    def __post_init__(self):
        as_scalars(self, "FixedHeatFlow", "Q_flow", "T_ref", "alpha")
        self.port = HeatPort(self, "port")

    def equations(self, v) -> list:
        return [v.port.Q_flow + self.Q_flow * (1 + self.alpha * (v.port.T - self.T_ref))]


@dataclass(eq=False)
class PrescribedHeatFlow(_Source):
    """Heat flow into the model from the input ``Q_flow`` [W]:
    port.Q_flow = −Q_flow·(1 + alpha·(port.T − T_ref)).

    T_ref : [K] reference temperature. alpha : [1/K] temperature coefficient.
    """

    T_ref: float = param(293.15, "K", "reference temperature")
    alpha: float = param(0.0, "1/K", "temperature coefficient of heat flow rate")

    def __post_init__(self):
        as_scalars(self, "PrescribedHeatFlow", "T_ref", "alpha")
        self.Q_flow = RealInput(self, "Q_flow", unit="W")
        self.port = HeatPort(self, "port")

    def equations(self, v) -> list:
        return [v.port.Q_flow + v.Q_flow * (1 + self.alpha * (v.port.T - self.T_ref))]


class TemperatureSensor(AcausalComponent):
    """Absolute temperature of ``port`` as the output ``T`` [K]; draws no heat."""

    def __init__(self):
        self.port = HeatPort(self, "port")
        self.T = RealOutput(self, "T", unit="K")

    def equations(self, v) -> list:
        return [v.T - v.port.T, v.port.Q_flow]


class HeatFlowSensor(AcausalComponent):
    """Heat flow from port_a to port_b as the output ``Q_flow`` [W]; no temperature drop."""

    def __init__(self):
        self.port_a = HeatPort(self, "port_a")
        self.port_b = HeatPort(self, "port_b")
        self.Q_flow = RealOutput(self, "Q_flow", unit="W")

    def equations(self, v) -> list:
        return [v.port_a.T - v.port_b.T, v.port_a.Q_flow + v.port_b.Q_flow,
                v.Q_flow - v.port_a.Q_flow]
