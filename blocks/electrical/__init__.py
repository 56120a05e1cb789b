"""The acausal electrical domain (Modelica ``Electrical.Analog``): Pin ports, Resistor,
Capacitor, Inductor, Ground, sources, sensors and the electromechanical converters EMF and
TranslationalEMF. See docs/domains.md."""
from .base import BranchKind, Electrical, Ground, OnePort
from .basic import EMF, Capacitor, Inductor, Resistor, TranslationalEMF
from .nonlinear import Diode, IdealDiode, IdealOpAmp
from .sensors import CurrentSensor, VoltageSensor
from .sources import (
                      ConstantCurrent,
                      ConstantVoltage,
                      HBridge,
                      SignalCurrent,
                      SignalVoltage,
                      VoltageLimit,
)

__all__ = ["BranchKind", "Capacitor", "Diode", "IdealDiode", "IdealOpAmp", "ConstantCurrent", "ConstantVoltage", "CurrentSensor",
           "EMF", "Electrical", "Ground", "HBridge", "Inductor", "OnePort", "Resistor",
           "SignalCurrent", "SignalVoltage", "TranslationalEMF", "VoltageLimit",
           "VoltageSensor"]
