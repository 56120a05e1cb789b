"""The parts a Modelica user knows from ``Modelica.Mechanics.MultiBody``, under the MSL's names
and parameter names: 3-D force elements (:mod:`.forces`) and their contracts
(:mod:`.interfaces`), shaped bodies, point mass and rotor (:mod:`.parts`), joints
(:mod:`.joints`), joint assemblies for loops (:mod:`.assemblies`), sensors in any frame
(:mod:`.sensors`), rolling wheels (:mod:`.wheels`), gears between 3-D shafts (:mod:`.gears`).

All names are also importable from :mod:`jourdain.blocks`.
"""
from .assemblies import JointRRP, JointRRR, JointSSP, JointUPS, UniversalSpherical
from .gears import BevelGear1D, GearConstraint
from .forces import (
                     Damper,
                     Force,
                     ForceAndTorque,
                     LineForceWithMass,
                     LineForceWithTwoMasses,
                     Spring,
                     SpringDamperParallel,
                     SpringDamperSeries,
                     Torque,
                     WorldForce,
                     WorldForceAndTorque,
                     WorldTorque,
)
from .interfaces import FrameForce, LineForce, Mount, ResolveInFrame
from .joints import Cylindrical, Planar, Universal
from .parts import (
                     BodyBox,
                     BodyCylinder,
                     BodyShape,
                     Fixed,
                     Mounting1D,
                     PointMass,
                     Rotor1D,
                     RotorInertia,
)
from .sensors import AbsoluteSensor, RelativeSensor
from .wheels import RollingWheel, RollingWheelSet

__all__ = ["AbsoluteSensor", "BevelGear1D", "BodyBox", "BodyCylinder", "BodyShape", "Cylindrical",
           "Damper", "Fixed", "Force", "ForceAndTorque", "FrameForce", "GearConstraint",
           "JointRRP", "JointRRR", "JointSSP", "JointUPS", "LineForce", "LineForceWithMass",
           "LineForceWithTwoMasses", "Mount", "Mounting1D", "Planar", "PointMass",
           "RelativeSensor", "ResolveInFrame", "RollingWheel", "RollingWheelSet", "Rotor1D",
           "RotorInertia", "Spring", "SpringDamperParallel", "SpringDamperSeries", "Torque",
           "Universal", "UniversalSpherical", "WorldForce", "WorldForceAndTorque", "WorldTorque"]
