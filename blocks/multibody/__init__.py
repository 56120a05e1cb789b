"""The parts a Modelica user knows from ``Modelica.Mechanics.MultiBody``, under the MSL's names
and parameter names: 3-D force elements (:mod:`.forces`) and their contracts
(:mod:`.interfaces`), shaped bodies, point mass and rotor (:mod:`.parts`), joints
(:mod:`.joints`), sensors in any frame (:mod:`.sensors`).

All names are also importable from :mod:`jourdain.blocks`.
"""
from .forces import (
                     Damper,
                     Force,
                     ForceAndTorque,
                     LineForceWithMass,
                     LineForceWithTwoMasses,
                     Spring,
                     SpringDamperParallel,
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

__all__ = ["AbsoluteSensor", "BodyBox", "BodyCylinder", "BodyShape", "Cylindrical", "Damper",
           "Fixed", "Force", "ForceAndTorque", "FrameForce", "LineForce", "LineForceWithMass",
           "LineForceWithTwoMasses", "Mount", "Mounting1D", "Planar", "PointMass",
           "RelativeSensor", "ResolveInFrame", "Rotor1D", "RotorInertia", "Spring",
           "SpringDamperParallel", "Torque", "Universal", "WorldForce", "WorldForceAndTorque",
           "WorldTorque"]
