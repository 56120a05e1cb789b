"""Thermal components (Modelica ``Thermal.HeatTransfer.Components``): a lumped heat capacity
and the linear heat transfer elements between two heat ports. Heat flows are positive into a
component through its port (Modelica's sign convention)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..acausal.base import AcausalComponent
from ..base import as_scalars, param
from ..errors import ModelError
from ..ports import HeatPort, RealInput


def _positive(comp, **values) -> None:
    for name, value in values.items():
        if not value > 0:
            raise ModelError(f"{comp.path}: {name} must be positive, got {value}")


@dataclass(eq=False)
class HeatCapacitor(AcausalComponent):
    """Lumped thermal element storing heat: C·der(T) = port.Q_flow, T = port.T; state ``T``
    [K] (start ``T_start``); stores C·T (the energy above 0 K).

    C : [J/K] heat capacity, > 0. T_start : [K] initial temperature.
    """

    C: float = param(1.0, "J/K", "heat capacity")
    T_start: float = param(293.15, "K", "initial temperature")
    VARIABLES: ClassVar[dict] = {"T": "K"}

    def __post_init__(self):
        as_scalars(self, "HeatCapacitor", "C", "T_start")
        self.port = HeatPort(self, "port")

    def validate(self) -> None:
        _positive(self, C=self.C, T_start=self.T_start)

    def equations(self, v) -> list:
        return [v.T - v.port.T,
                self.C * v.der(v.T) - v.port.Q_flow]

    def start(self) -> dict:
        return {"T": self.T_start}

    def stored_energy(self, v):
        return self.C * v.T


class _TwoPorts(AcausalComponent):
    """port_a, port_b; Q_flow from port_a to port_b, dT = port_a.T − port_b.T."""

    def _make_ports(self) -> None:
        self.port_a = HeatPort(self, "port_a")
        self.port_b = HeatPort(self, "port_b")

    def _transfer(self, v, q_flow) -> list:
        return [v.port_a.Q_flow - q_flow, v.port_a.Q_flow + v.port_b.Q_flow]


@dataclass(eq=False)
class ThermalConductor(_TwoPorts):
    """Lumped thermal conduction without storage: Q_flow = G·(port_a.T − port_b.T).

    G : [W/K] thermal conductance, > 0.
    """

    G: float = param(1.0, "W/K", "thermal conductance")

    def __post_init__(self):
        as_scalars(self, "ThermalConductor", "G")
        self._make_ports()

    def validate(self) -> None:
        _positive(self, G=self.G)

    def equations(self, v) -> list:
        return self._transfer(v, self.G * (v.port_a.T - v.port_b.T))


@dataclass(eq=False)
class ThermalResistor(_TwoPorts):
    """Lumped thermal resistance: port_a.T − port_b.T = R·Q_flow.

    R : [K/W] thermal resistance, > 0.
    """

    R: float = param(1.0, "K/W", "thermal resistance")

    def __post_init__(self):
        as_scalars(self, "ThermalResistor", "R")
        self._make_ports()

    def validate(self) -> None:
        _positive(self, R=self.R)

    def equations(self, v) -> list:
        return [v.port_a.T - v.port_b.T - self.R * v.port_a.Q_flow,
                v.port_a.Q_flow + v.port_b.Q_flow]


class Convection(AcausalComponent):
    """Convective heat transfer between a solid and a fluid port: Q_flow = Gc·(solid.T −
    fluid.T), the convective thermal conductance Gc [W/K] from the input ``Gc``."""

    def __init__(self):
        self.Gc = RealInput(self, "Gc", unit="W/K")
        self.solid = HeatPort(self, "solid")
        self.fluid = HeatPort(self, "fluid")

    def equations(self, v) -> list:
        q_flow = v.Gc * (v.solid.T - v.fluid.T)
        return [v.solid.Q_flow - q_flow, v.solid.Q_flow + v.fluid.Q_flow]
