"""Rotational ↔ translational couplings (Modelica ``Rotational.Components.IdealGearR2T`` and
``IdealRollingWheel``, same names and parameters): a rack and pinion, a belt or a rope on a
pulley. Two IdealRollingWheels on one translational flange make a belt drive between two
pulleys (with a Mass on that flange, a belt with mass)."""
from __future__ import annotations

from dataclasses import dataclass

from ..base import as_scalar, param
from ..errors import ModelError
from ..ports import Flange, Motion
from .base import Coupling


class _RotationToTranslation(Coupling):
    SUPPORTS = ("supportR", "supportT")

    def _make_flanges(self) -> None:
        self.flangeR = Flange(self, "flangeR", Motion.ROTATIONAL)
        self.flangeT = Flange(self, "flangeT", Motion.TRANSLATIONAL)
        self.supportR = Flange(self, "supportR", Motion.ROTATIONAL)
        self.supportT = Flange(self, "supportT", Motion.TRANSLATIONAL)

    def _relation(self, rotation: float, translation: float) -> list[dict]:
        """rotation·(φ_R − φ_sR) = translation·(s_T − s_sT)."""
        return [{self.flangeR: rotation, self.supportR: -rotation,
                 self.flangeT: -translation, self.supportT: translation}]


@dataclass(eq=False)
class IdealGearR2T(_RotationToTranslation):
    """Ideal rack and pinion: φ_R − φ_sR = ratio·(s_T − s_sT), f = −ratio·τ by virtual work.

    ratio : [rad/m] transmission ratio flangeR.phi/flangeT.s (1/pinion radius), ≠ 0.
    """

    ratio: float = param(1.0, "rad/m", "transmission ratio flangeR.phi/flangeT.s")

    def __post_init__(self):
        self.ratio = as_scalar(self.ratio, "IdealGearR2T", "ratio")
        self._make_flanges()

    def validate(self) -> None:
        self._check_nonzero(ratio=self.ratio)

    def relations(self) -> list[dict]:
        return self._relation(1.0, self.ratio)


@dataclass(eq=False)
class IdealRollingWheel(_RotationToTranslation):
    """Ideal wheel (or pulley) rolling without slip: radius·(φ_R − φ_sR) = s_T − s_sT.

    radius : [m] wheel radius, > 0.
    """

    radius: float = param(0.3, "m", "wheel radius")

    def __post_init__(self):
        self.radius = as_scalar(self.radius, "IdealRollingWheel", "radius")
        self._make_flanges()

    def validate(self) -> None:
        if not self.radius > 0:
            raise ModelError(f"{self.path}: radius must be positive, got {self.radius} m")

    def relations(self) -> list[dict]:
        return self._relation(self.radius, 1.0)
