"""The parts a Modelica user knows from ``Modelica.Mechanics.MultiBody``, under the MSL's names
and parameter names: 3-D force elements (:mod:`.forces`) and their contracts
(:mod:`.interfaces`), shaped bodies, point mass and rotor (:mod:`.parts`), joints
(:mod:`.joints`).

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
from .interfaces import FrameForce, LineForce, ResolveInFrame
from .joints import Cylindrical, Planar, Universal
from .parts import BodyBox, BodyCylinder, BodyShape, Fixed, PointMass, Rotor1D, RotorInertia

__all__ = ["BodyBox", "BodyCylinder", "BodyShape", "Cylindrical", "Fixed", "Planar",
           "PointMass", "Rotor1D", "RotorInertia", "Universal", "Damper", "Force", "ForceAndTorque", "FrameForce", "LineForce", "LineForceWithMass",
           "LineForceWithTwoMasses", "ResolveInFrame", "Spring", "SpringDamperParallel",
           "Torque", "WorldForce", "WorldForceAndTorque", "WorldTorque"]
