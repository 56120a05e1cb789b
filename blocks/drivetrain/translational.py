"""1-D translational parts (Modelica ``Mechanics.Translational.Components`` and ``Sensors``,
same names and parameters): Mass and ForceSensor. Positions s [m], rates v [m/s], forces
f [N]."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..base import as_scalar, param
from ..errors import ModelError
from ..ports import Motion, RealOutput
from .base import Coordinate, CutSensor, FlangeMass, Speed


@dataclass(eq=False)
class Mass(FlangeMass):
    """A 1-D sliding mass m on ``flange_a``/``flange_b`` (rigidly joined): kinetic energy
    ½·m·v², no gravity (Modelica ``Translational.Components.Mass``). Its coordinate, when it
    owns one, is ``<path>.s`` [m] with speed ``<path>.v`` [m/s].

    m : [kg] mass, ≥ 0.
    """

    m: float = param(1.0, "kg", "mass")
    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    COORDINATES = (Coordinate("s", "m"),)
    SPEEDS = (Speed("v", "m/s"),)

    def __post_init__(self):
        self.m = as_scalar(self.m, "Mass", "m")
        self._make_flanges()

    def validate(self) -> None:
        if not self.m >= 0:
            raise ModelError(f"{self.path}: mass m must be non-negative, got {self.m} kg")

    def inertia(self):
        return self.m


class ForceSensor(CutSensor):
    """Ideal sensor of the force f [N] transmitted from flange_a to flange_b, which it joins
    rigidly (Modelica ``Translational.Sensors.ForceSensor``): output ``f``."""

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    OUTPUT: ClassVar[str] = "f"

    def __init__(self):
        self._make_ports(RealOutput(self, "f"))
