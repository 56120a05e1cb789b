"""Ports, component base classes and the primitive components of jourdain.

Families: :mod:`.world` (World), :mod:`.bodies` (RigidBody), :mod:`.joints` (Revolute,
Prismatic, FixedTranslation, FixedRotation), :mod:`.forces` (springs, dampers, friction,
drag, force laws and tables), :mod:`.actuators` (Motor, LinearMotor), :mod:`.sensors`, :mod:`.signals` and
:mod:`.controllers` (Gain, StateFeedback, PID, Saturation, Add, Mux, Demux,
AttitudeError), :mod:`.continuous` (Integrator, FirstOrder, SecondOrder, CriticalDamping,
Butterworth, TransferFunction), :mod:`.drivetrain` (Inertia, Mass, IdealGear, IdealPlanetary,
IdealGearR2T, IdealRollingWheel, LinearCoupling, TorqueSensor, ForceSensor, Fixed),
:mod:`.electrical` (Resistor, Capacitor, Inductor, Ground, sources, sensors, EMF),
:mod:`.multibody` (the Modelica MultiBody parts: 3-D force elements, shaped bodies, joints,
sensors) and :mod:`.drivers` (kinematic drivers).

``Fixed`` here is the 1-D one (MSL ``Rotational.Components.Fixed``); the frame fixed in the
world (MSL ``MultiBody.Parts.Fixed``) is :class:`jourdain.blocks.multibody.Fixed`, as the two
live in different packages of the MSL too.
Blocks know CasADi expressions only, nothing of the solver.
"""
from .actuators import LinearMotor, Motor
from .base import (Component, Composite, Context, FlangeState, FrameState, Model, Shape,
                   param)
from .bodies import Body, RigidBody
from .contacts import Contact, RollingContact
from .continuous import (PI, Butterworth, CriticalDamping, FirstOrder, Init, Integrator,
                         SecondOrder, TransferFunction)
from .controllers import (PID, Add, AttitudeError, Demux, Gain, Mux, Product, Saturation,
                          StateFeedback)
from .drivetrain import EddyCurrentForce, EddyCurrentTorque
from .drivetrain import (ConstantForce, ConstantTorque, ElastoBacklash, ElastoBacklash2, Fixed,
                         ForceSensor, IdealGear, IdealGearR2T, IdealPlanetary,
                         IdealRollingWheel, Inertia, LinearCoupling, LossyGear, Mass,
                         QuadraticSpeedDependentForce, QuadraticSpeedDependentTorque, Rod,
                         SpringDamper, TorqueSensor, TorqueStep, TranslationalSpringDamper)
from .electrical import (EMF, Capacitor, ConstantCurrent, ConstantVoltage, CurrentSensor, Ground,
                         HBridge, Inductor, Resistor, SignalCurrent, SignalVoltage,
                         TranslationalEMF, VoltageLimit, VoltageSensor)
from .errors import ModelError, SimulationError
from .forces import (CoulombFriction, FlangeForce, ForceLaw, QuadraticDrag, RotationalSpring,
                     TableForce, TranslationalSpring, ViscousFriction)
from .math import Add3, Atan, Cos, Feedback, Sin
from .joints import (Coordinate, FixedRotation, FixedTranslation, FreeJoint, Joint, Prismatic,
                     Revolute, Speed, Spherical, quaternion_from_angles)
from .multibody import (AbsoluteSensor, BodyBox, BodyCylinder, BodyShape, Cylindrical, Damper,
                        Force, ForceAndTorque, FrameForce, LineForce, LineForceWithMass,
                        LineForceWithTwoMasses, Mounting1D, Planar, PointMass, RelativeSensor,
                        ResolveInFrame, Rotor1D, Spring, SpringDamperParallel, Torque, Universal,
                        WorldForce, WorldForceAndTorque, WorldTorque)
from .multibody.assemblies import (JointRRP, JointRRR, JointSSP, JointUPS,
                                   UniversalSpherical)
from .multibody.forces import SpringDamperSeries
from .multibody.gears import BevelGear1D, GearConstraint
from .path_planning import KinematicPTP2
from .multibody.wheels import RollingWheel, RollingWheelSet
from .acausal import AcausalComponent
from .ports import (Connector, Flange, FluidPort, Frame, HeatPort, Motion, Pin, Port, RealInput,
                    RealOutput)
from .sensors import AngleSensor, FrameSensor, PositionSensor
from .signals import Constant, KinematicPTP, Pulse, Ramp, SignalBlock, Sine, Step, Table
from .tables import CombiTimeTable, Extrapolation, Smoothness
from .world import GravityTypes, World

__all__ = [
    "AcausalComponent", "Connector", "EddyCurrentForce", "EddyCurrentTorque", "FluidPort",
    "HeatPort",
    "Add", "AttitudeError", "Demux", "Gain", "Mux", "PID", "Saturation", "StateFeedback",
    "AngleSensor", "Body", "Component", "Composite", "Constant", "Contact", "Context",
    "Coordinate",
    "CoulombFriction", "FixedRotation", "FixedTranslation", "Flange", "FlangeForce",
    "FlangeState", "Frame", "FrameSensor", "FrameState", "FreeJoint", "Joint", "LinearMotor", "Model",
    "ModelError", "Motion", "Motor", "Port", "PositionSensor", "Prismatic", "QuadraticDrag",
    "RealInput", "RealOutput", "Revolute", "RollingContact", "RigidBody", "RotationalSpring", "Shape",
    "SignalBlock", "SimulationError", "Sine", "Speed", "Spherical", "Step", "Table", "TranslationalSpring",
    "ViscousFriction", "World", "param", "quaternion_from_angles",
    # continuous blocks with states, 1-D drive trains, electrical domain (issue 14)
    "Butterworth", "CriticalDamping", "FirstOrder", "Init", "Integrator", "SecondOrder",
    "TransferFunction", "Fixed", "ForceSensor", "IdealGear", "IdealGearR2T", "IdealPlanetary",
    "IdealRollingWheel", "Inertia", "Mass", "TorqueSensor", "Capacitor", "ConstantCurrent",
    "ConstantVoltage", "CurrentSensor", "EMF", "Ground", "HBridge", "Inductor", "Pin",
    "Resistor", "SignalCurrent", "SignalVoltage", "TranslationalEMF", "VoltageLimit",
    "VoltageSensor", "KinematicPTP", "LinearCoupling",
    # Modelica MultiBody parts (blocks/multibody; its Fixed frame: multibody.Fixed)
    "AbsoluteSensor", "RelativeSensor", "BodyBox", "BodyCylinder", "BodyShape", "Cylindrical",
    "Mounting1D", "Planar", "PointMass", "Rotor1D", "Universal",
    "Damper", "Force", "ForceAndTorque", "FrameForce", "GravityTypes", "LineForce",
    "LineForceWithMass", "LineForceWithTwoMasses", "ResolveInFrame", "Spring",
    "SpringDamperParallel", "Torque", "WorldForce", "WorldForceAndTorque", "WorldTorque",
    "JointRRP", "JointRRR", "JointSSP", "JointUPS", "SpringDamperSeries",
    "RollingWheel", "RollingWheelSet", "UniversalSpherical", "GearConstraint",
    "BevelGear1D", "KinematicPTP2",   # issue 26
    "Product", "Pulse",  # issue 13 (hybrid blocks live in jourdain.blocks.hybrid)
    # loads for machines with loops (issue 11)
    "ForceLaw", "QuadraticSpeedDependentForce", "QuadraticSpeedDependentTorque", "TableForce",
    # MSL Rotational/Translational parts and Blocks (issue 26)
    "Add3", "Atan", "CombiTimeTable", "ConstantForce", "ConstantTorque", "Cos",
    "ElastoBacklash", "ElastoBacklash2", "Extrapolation", "LossyGear", "Rod",
    "TranslationalSpringDamper", "Feedback", "PI", "Ramp", "Sin", "Smoothness",
    "SpringDamper", "TorqueStep",
]

# MSL Rotational sources and sensors of the Rotational examples (issue 26, branch mslrot)
from .drivetrain import (InverseSpeedDependentTorque, LinearSpeedDependentTorque,  # noqa: E402
                         RotationalMultiSensor, SignTorque)
from .regularization import Regularization  # noqa: E402

__all__ += ["InverseSpeedDependentTorque", "LinearSpeedDependentTorque", "Regularization",
            "RotationalMultiSensor", "SignTorque"]
# MSL Translational parts of issue 26 (CompareBrakingForce, GearGrounded, LeverGrounded,
# Sensors, Vehicle)
from .drivetrain import (AccSensor, IdealLever, InverseSpeedDependentForce,  # noqa: E402
                         LinearSpeedDependentForce, MultiSensor, PowerSensor,
                         RollingResistance, SignForce, SpeedSensor, TranslationalIdealGear,
                         Vehicle)

__all__ += ["AccSensor", "IdealLever", "InverseSpeedDependentForce",
            "LinearSpeedDependentForce", "MultiSensor", "PowerSensor",
            "RollingResistance", "SignForce", "SpeedSensor", "TranslationalIdealGear",
            "Vehicle"]
