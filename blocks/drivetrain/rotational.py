"""1-D rotational parts (Modelica ``Mechanics.Rotational.Components`` and ``Sensors``, same
names and parameters): Inertia, IdealGear, IdealPlanetary, TorqueSensor.

Positions are angles phi [rad], rates w [rad/s], torques tau [N·m].
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..base import as_scalar, param
from ..errors import ModelError
from ..ports import Flange, Motion, RealOutput
from .base import Coordinate, Coupling, CutSensor, FlangeMass, Speed


@dataclass(eq=False)
class Inertia(FlangeMass):
    """A 1-D rotational inertia J on ``flange_a``/``flange_b`` (rigidly joined): kinetic energy
    ½·J·ω² (Modelica ``Rotational.Components.Inertia``). Its coordinate, when it owns one, is
    ``<path>.phi`` [rad] with speed ``<path>.w`` [rad/s].

    J : [kg·m²] moment of inertia, ≥ 0.
    """

    J: float = param(1.0, "kg.m2", "moment of inertia")
    COORDINATES = (Coordinate("phi", "rad"),)
    SPEEDS = (Speed("w", "rad/s"),)

    def __post_init__(self):
        self.J = as_scalar(self.J, "Inertia", "J")
        self._make_flanges()

    def validate(self) -> None:
        if not self.J >= 0:
            raise ModelError(f"{self.path}: moment of inertia J must be non-negative, got "
                             f"{self.J} kg·m²")

    def inertia(self):
        return self.J


@dataclass(eq=False)
class IdealGear(Coupling):
    """Ideal gear without inertia, elasticity or losses (Modelica
    ``Rotational.Components.IdealGear``): φ_a − φ_s = ratio·(φ_b − φ_s), and by virtual work
    τ_b = −ratio·τ_a. ``support`` (the housing) sits at 0 unless connected.

    ratio : [1] transmission ratio φ_a/φ_b (e.g. 100: flange_a is the fast motor side), ≠ 0;
        a negative ratio reverses the direction.
    Gear efficiency: a loss proportional to the transmitted torque needs the constraint torque,
    which an eliminated coupling does not carry; ``LossyGear`` carries it as a row of
    constraint force (docs/domains.md).
    """

    ratio: float = param(1.0, "1", "transmission ratio flange_a.phi/flange_b.phi")
    SUPPORTS = ("support",)
    MOTION: ClassVar[Motion] = Motion.ROTATIONAL   # the translational gear and lever reuse it

    def __post_init__(self):
        self.ratio = as_scalar(self.ratio, type(self).__name__, "ratio")
        self.flange_a = Flange(self, "flange_a", self.MOTION)
        self.flange_b = Flange(self, "flange_b", self.MOTION)
        self.support = Flange(self, "support", self.MOTION)

    def validate(self) -> None:
        self._check_nonzero(ratio=self.ratio)

    def relations(self) -> list[dict]:
        return [{self.flange_a: 1.0, self.flange_b: -self.ratio,
                 self.support: self.ratio - 1.0}]


@dataclass(eq=False)
class IdealPlanetary(Coupling):
    """Ideal planetary gear (Modelica ``Rotational.Components.IdealPlanetary``):
    (1 + ratio)·φ_carrier = φ_sun + ratio·φ_ring, torques ring = ratio·sun,
    carrier = −(1 + ratio)·sun by virtual work.

    ratio : [1] ring teeth / sun teeth (e.g. 100/50), > 0.
    """

    ratio: float = param(2.0, "1", "ring teeth / sun teeth")

    def __post_init__(self):
        self.ratio = as_scalar(self.ratio, "IdealPlanetary", "ratio")
        self.sun = Flange(self, "sun", Motion.ROTATIONAL)
        self.carrier = Flange(self, "carrier", Motion.ROTATIONAL)
        self.ring = Flange(self, "ring", Motion.ROTATIONAL)

    def validate(self) -> None:
        if not self.ratio > 0:
            raise ModelError(f"{self.path}: ratio (ring teeth / sun teeth) must be positive, "
                             f"got {self.ratio}")

    def relations(self) -> list[dict]:
        return [{self.sun: 1.0, self.ring: self.ratio, self.carrier: -(1.0 + self.ratio)}]


class TorqueSensor(CutSensor):
    """Ideal sensor of the torque tau [N·m] transmitted from flange_a to flange_b, which it
    joins rigidly (Modelica ``Rotational.Sensors.TorqueSensor``): output ``tau``."""

    def __init__(self):
        self._make_ports(RealOutput(self, "tau"))
