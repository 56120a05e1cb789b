"""The thermal domain (Modelica ``Thermal.HeatTransfer``, same names and parameters), built on
the acausal core: HeatCapacitor, ThermalConductor, ThermalResistor, Convection, the sources
FixedTemperature, PrescribedTemperature, FixedHeatFlow, PrescribedHeatFlow and the sensors
TemperatureSensor, HeatFlowSensor. See docs/acausal.md."""
from ..ports import HeatPort
from .components import Convection, HeatCapacitor, ThermalConductor, ThermalResistor
from .sources import (FixedHeatFlow, FixedTemperature, HeatFlowSensor, PrescribedHeatFlow,
                      PrescribedTemperature, TemperatureSensor)

HeatPort_a = HeatPort_b = HeatPort   # the MSL's two icons of one connector

__all__ = ["Convection", "FixedHeatFlow", "FixedTemperature", "HeatCapacitor", "HeatFlowSensor",
           "HeatPort", "HeatPort_a", "HeatPort_b", "PrescribedHeatFlow",
           "PrescribedTemperature", "TemperatureSensor", "ThermalConductor", "ThermalResistor"]
