"""1-D drive trains (Modelica ``Mechanics.Rotational`` and ``Mechanics.Translational``): rigid
1-D bodies with coordinates of their own (Inertia, Mass), ideal couplings between flanges
(IdealGear, IdealPlanetary, IdealGearR2T, IdealRollingWheel), cut sensors (TorqueSensor,
ForceSensor), Fixed, a LinearCoupling with an offset (URDF mimic joints) and speed-dependent
loads (QuadraticSpeedDependentTorque, …Force). See
docs/domains.md."""
from .base import Coupling, CutSensor, Fixed, FlangeMass
from .converters import IdealGearR2T, IdealRollingWheel
from .coupling import LinearCoupling
from .rotational import IdealGear, IdealPlanetary, Inertia, TorqueSensor
from .sources import (QuadraticSpeedDependentForce, QuadraticSpeedDependentTorque,
                      SpeedDependentSource)
from .translational import ForceSensor, Mass

__all__ = ["Coupling", "CutSensor", "Fixed", "FlangeMass", "ForceSensor", "IdealGear",
           "IdealGearR2T", "IdealPlanetary", "IdealRollingWheel", "Inertia", "LinearCoupling",
           "Mass", "TorqueSensor", "QuadraticSpeedDependentForce",
           "QuadraticSpeedDependentTorque", "SpeedDependentSource"]

from .eddy_current import EddyCurrentForce, EddyCurrentTorque  # noqa: E402  (on the acausal core)

__all__ += ["EddyCurrentForce", "EddyCurrentTorque"]
