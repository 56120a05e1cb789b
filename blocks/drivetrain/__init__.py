"""1-D drive trains (Modelica ``Mechanics.Rotational`` and ``Mechanics.Translational``): rigid
1-D bodies with coordinates of their own (Inertia, Mass), ideal couplings between flanges
(IdealGear, IdealPlanetary, IdealGearR2T, IdealRollingWheel), cut sensors (TorqueSensor,
ForceSensor), Fixed, a LinearCoupling with an offset (URDF mimic joints) and speed-dependent
loads (QuadraticSpeedDependentTorque, …Force), constant and step sources (ConstantTorque,
ConstantForce, TorqueStep) and compliant elements (SpringDamper, ElastoBacklash). See
docs/domains.md."""
from .base import Coupling, CutSensor, Fixed, FlangeMass
from .compliant import (ElastoBacklash, ElastoBacklash2, SpringDamper,
                        TranslationalSpringDamper)
from .converters import IdealGearR2T, IdealRollingWheel
from .coupling import LinearCoupling
from .lossy import GearMode, LossyGear
from .rotational import IdealGear, IdealPlanetary, Inertia, TorqueSensor
from .sources import (ConstantForce, ConstantTorque, QuadraticSpeedDependentForce,
                      QuadraticSpeedDependentTorque, SpeedDependentSource, TorqueStep)
from .translational import ForceSensor, Mass, Rod

__all__ = ["Coupling", "CutSensor", "Fixed", "FlangeMass", "ForceSensor", "IdealGear",
           "IdealGearR2T", "IdealPlanetary", "IdealRollingWheel", "Inertia", "LinearCoupling",
           "Mass", "TorqueSensor", "QuadraticSpeedDependentForce",
           "QuadraticSpeedDependentTorque", "SpeedDependentSource", "ConstantForce",
           "ConstantTorque", "ElastoBacklash", "ElastoBacklash2", "GearMode", "LossyGear", "Rod",
           "TranslationalSpringDamper", "SpringDamper", "TorqueStep"]

from .eddy_current import EddyCurrentForce, EddyCurrentTorque  # noqa: E402  (on the acausal core)

__all__ += ["EddyCurrentForce", "EddyCurrentTorque"]

from .speed_dependent import (InverseSpeedDependentTorque,  # noqa: E402
                              LinearSpeedDependentTorque, SignTorque)
from .rotational_sensors import RotationalMultiSensor  # noqa: E402

__all__ += ["InverseSpeedDependentTorque", "LinearSpeedDependentTorque",
            "RotationalMultiSensor", "SignTorque"]
# MSL Translational parts of issue 26 (examples CompareBrakingForce … Vehicle)
from .translational import IdealLever, TranslationalIdealGear  # noqa: E402
from .translational_sensors import AccSensor, MultiSensor, PowerSensor, SpeedSensor  # noqa: E402
from .translational_sources import (InverseSpeedDependentForce,  # noqa: E402
                                    LinearSpeedDependentForce, RollingResistance, SignForce)
from .vehicle import Vehicle  # noqa: E402

__all__ += ["AccSensor", "IdealLever", "InverseSpeedDependentForce",
            "LinearSpeedDependentForce", "MultiSensor", "PowerSensor", "RollingResistance",
            "SignForce", "SpeedSensor", "TranslationalIdealGear", "Vehicle"]
