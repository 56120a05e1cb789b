"""1-D translational parts (Modelica ``Mechanics.Translational.Components`` and ``Sensors``,
same names and parameters): Mass (with its length L), Rod, IdealGear (as TranslationalIdealGear),
IdealLever and ForceSensor. Positions s [m], rates v [m/s], forces f [N]."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..base import as_scalar, param
from ..errors import ModelError
from ..ports import Flange, Motion, RealOutput
from .base import Coordinate, Coupling, CutSensor, FlangeMass, Speed
from .rotational import IdealGear


@dataclass(eq=False)
class Mass(FlangeMass, Coupling):
    """A 1-D sliding mass m of length L (Modelica ``Translational.Components.Mass``): kinetic
    energy ½·m·v², no gravity; its position s is its middle, flange_a at s − L/2 and flange_b
    at s + L/2, rigidly joined. Its coordinate, when it owns one, is ``<path>.s`` [m] with
    speed ``<path>.v`` [m/s].

    m : [kg] mass, ≥ 0.   L : [m] length (default 0: both flanges at s). With L ≠ 0 the
    flanges are nets of their own, held at ∓L/2 from an internal ``center`` flange by
    the 1-D network (two relations with offsets, eliminated exactly).
    """

    m: float = param(1.0, "kg", "mass")
    L: float = param(0.0, "m", "length of the component, from left flange to right flange")
    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    COORDINATES = (Coordinate("s", "m"),)
    SPEEDS = (Speed("v", "m/s"),)

    def __post_init__(self):
        self.m = as_scalar(self.m, "Mass", "m")
        self.L = as_scalar(self.L, "Mass", "L")
        self._make_flanges()
        if self.L != 0:   # decided here: the flanges' nets are the structure
            self.RIGID = ()
            self.center = Flange(self, "center", Motion.TRANSLATIONAL)

    def validate(self) -> None:
        if not self.m >= 0:
            raise ModelError(f"{self.path}: mass m must be non-negative, got {self.m} kg")

    def inertia(self):
        return self.m

    def body_flange(self) -> Flange:
        return getattr(self, "center", self.flange_a)

    def relations(self) -> list[dict]:
        """With a length: s_a − s = −L/2 and s_b − s = L/2 (none without)."""
        if not hasattr(self, "center"):
            return []
        return [{self.flange_a: 1.0, self.center: -1.0}, {self.flange_b: 1.0, self.center: -1.0}]

    def offsets(self) -> list:
        return [self.L / 2, -self.L / 2] if hasattr(self, "center") else []


@dataclass(eq=False)
class Rod(Coupling):
    """Rod without inertia (Modelica ``Translational.Components.Rod``): flange_b.s =
    flange_a.s + L, transmitting the force unchanged.

    L : [m] length.
    """

    L: float = param(0.0, "m", "length of the component, from left flange to right flange")

    def __post_init__(self):
        self.L = as_scalar(self.L, "Rod", "L")
        self.flange_a = Flange(self, "flange_a", Motion.TRANSLATIONAL)
        self.flange_b = Flange(self, "flange_b", Motion.TRANSLATIONAL)

    def relations(self) -> list[dict]:
        return [{self.flange_b: 1.0, self.flange_a: -1.0}]

    def offsets(self) -> list:
        return [-self.L]


@dataclass(eq=False)
class TranslationalIdealGear(IdealGear):
    """Ideal translational gear without mass (Modelica ``Translational.Components.IdealGear``,
    same parameter): s_a = ratio·s_b with s_a = flange_a.s − support.s and s_b = flange_b.s −
    support.s, so by virtual work flange_b.f = −ratio·flange_a.f and the support carries the
    rest. ``support`` left unconnected sits at 0 (the MSL's ``useSupport = false``); connected
    to a spring (the MSL's GearGrounded) it moves with the two flanges.

    ratio : [1] transmission ratio flange_a.s/flange_b.s, ≠ 0 (the MSL turns a zero ratio
        into free flanges; here it is refused: it would lock flange_a to the support).
    """

    ratio: float = param(1.0, "1", "transmission ratio flange_a.s/flange_b.s")
    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL


@dataclass(eq=False)
class IdealLever(TranslationalIdealGear):
    """Ideal lever without mass (Modelica ``Translational.Components.IdealLever``): the same
    equations as TranslationalIdealGear, s_a = ratio·s_b relative to the pivot ``support``.
    ratio < 0: a lever of the first class (pivot between the flanges); ratio > 1: second
    class (flange_b between flange_a and the pivot); 0 < ratio < 1: third class.

    ratio : [1] transmission ratio flange_a.s/flange_b.s, ≠ 0.
    """


class ForceSensor(CutSensor):
    """Ideal sensor of the force f [N] transmitted from flange_a to flange_b, which it joins
    rigidly (Modelica ``Translational.Sensors.ForceSensor``): output ``f``."""

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    OUTPUT: ClassVar[str] = "f"

    def __init__(self):
        self._make_ports(RealOutput(self, "f"))
