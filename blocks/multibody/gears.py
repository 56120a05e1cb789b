"""Gears between two shafts of a 3-D housing (the MSL's ``MultiBody.Joints.GearConstraint``
and ``MultiBody.Parts.BevelGear1D``).
"""
from __future__ import annotations

from ..base import Composite, as_scalar, as_vector3
from ..drivetrain.rotational import IdealGear
from ..errors import ModelError
from ..geometry import unit_axis
from ..joints import FixedTranslation, Revolute
from .parts import Mounting1D


class GearConstraint(Composite):
    """Two shafts on one bearing coupled by an ideal gear (MSL ``Joints.GearConstraint``):
    phi_a = ratio·phi_b.

    ratio : [1] gear speed ratio, ≠ 0.   n_a, n_b : shaft axes in the bearing's frame.
    r_a, r_b : [m] the shafts' positions in the bearing's frame.

    Ports as in the MSL: ``bearing`` (the housing), ``frame_a`` and ``frame_b`` (the
    shafts). Built from the revolutes ``actuatedRevolute_a`` and ``actuatedRevolute_b`` (the
    MSL's names; coordinates ``phi``) and an IdealGear ``idealGear`` between their axis
    flanges, its support on the housing: the gear's reaction reaches the bearing through the
    joints. The two shafts form a loop through the gear; a Modelica user's phi_b/w_b start
    values are the coordinates of actuatedRevolute_b.
    """

    def __init__(self, ratio=2.0, n_a=(1.0, 0.0, 0.0), n_b=(1.0, 0.0, 0.0),
                 r_a=(0.0, 0.0, 0.0), r_b=(0.0, 0.0, 0.0)):
        super().__init__()
        self.ratio = as_scalar(ratio, "GearConstraint", "ratio")
        if self.ratio == 0:
            raise ModelError("GearConstraint: ratio must not be 0 (phi_a = ratio·phi_b)")
        self.n_a = tuple(unit_axis(n_a, "GearConstraint", "n_a"))
        self.n_b = tuple(unit_axis(n_b, "GearConstraint", "n_b"))
        self.r_a = tuple(as_vector3(r_a, "GearConstraint", "r_a"))
        self.r_b = tuple(as_vector3(r_b, "GearConstraint", "r_b"))
        self.fixedTranslation_a = FixedTranslation(r=self.r_a)
        self.fixedTranslation_b = FixedTranslation(r=self.r_b)
        self.actuatedRevolute_a = Revolute(n=self.n_a)
        self.actuatedRevolute_b = Revolute(n=self.n_b)
        self.idealGear = IdealGear(ratio=self.ratio)
        c = self.connect
        c(self.fixedTranslation_a.frame_a, self.fixedTranslation_b.frame_a)
        c(self.fixedTranslation_a.frame_b, self.actuatedRevolute_a.frame_a)
        c(self.fixedTranslation_b.frame_b, self.actuatedRevolute_b.frame_a)
        c(self.actuatedRevolute_a.axis, self.idealGear.flange_a)
        c(self.idealGear.flange_b, self.actuatedRevolute_b.axis)
        c(self.idealGear.support, self.actuatedRevolute_a.support)
        self.expose(self.fixedTranslation_a.frame_a, "bearing")
        self.expose(self.actuatedRevolute_a.frame_b, "frame_a")
        self.expose(self.actuatedRevolute_b.frame_b, "frame_b")


class BevelGear1D(Composite):
    """An ideal gear between two 1-D shafts whose axes are fixed in a 3-D carrier (MSL
    ``Parts.BevelGear1D``): phi_a = ratio·phi_b for the flanges' angles relative to the
    carrier, the gear's reaction torque on the carrier.

    ratio : [1] gear speed ratio, ≠ 0.   n_a, n_b : the shafts' axes in frame_a (those of the
    Rotor1D or joints whose flanges the gear couples; the MSL resolves the reaction with
    them, here the joints carry it).

    Ports as in the MSL: ``flange_a``, ``flange_b`` and ``frame_a`` (the carrier). Built
    from an IdealGear ``idealGear`` whose support is a Mounting1D ``mounting`` on frame_a, so
    compile checks that the shafts sit on the carrier's body (docs/msl.md).
    """

    def __init__(self, ratio=1.0, n_a=(1.0, 0.0, 0.0), n_b=(1.0, 0.0, 0.0)):
        super().__init__()
        self.ratio = as_scalar(ratio, "BevelGear1D", "ratio")
        if self.ratio == 0:
            raise ModelError("BevelGear1D: ratio must not be 0 (phi_a = ratio·phi_b)")
        self.n_a = tuple(unit_axis(n_a, "BevelGear1D", "n_a"))
        self.n_b = tuple(unit_axis(n_b, "BevelGear1D", "n_b"))
        self.idealGear = IdealGear(ratio=self.ratio)
        self.mounting = Mounting1D(n=self.n_a)
        self.connect(self.idealGear.support, self.mounting.flange_b)
        self.expose(self.idealGear.flange_a, "flange_a")
        self.expose(self.idealGear.flange_b, "flange_b")
        self.expose(self.mounting.frame_a, "frame_a")
