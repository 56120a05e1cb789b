"""A linear coupling with an offset between any two 1-D flanges: the URDF ``<mimic>`` joint
(q_mimic = multiplier·q_leader + offset), Drake's coupler constraint
(``MultibodyPlant.AddCouplerConstraint``: q₀ = gear_ratio·q₁ + offset) and MuJoCo's linear
joint equality. The Modelica Standard Library has no such part: an ``IdealGear`` couples
positions measured from its support, so it has no offset when the support sits at 0."""
from __future__ import annotations

from dataclasses import dataclass

from ..base import as_scalar, param
from ..ports import Flange, Motion
from .base import Coupling


@dataclass(eq=False)
class LinearCoupling(Coupling):
    """Ideal coupling φ_a = ratio·φ_b + offset between two flanges of any kind (rotational or
    translational: a revolute joint may drive a prismatic one); by virtual work
    τ_b = −ratio·τ_a, as an ``IdealGear`` with its support at 0. Between two joint axes it is
    a closure equation for the constraint stage (docs/domains.md); on an ``Inertia`` or
    ``Mass`` it fixes that net.

    ratio : [1] transmission ratio dφ_a/dφ_b (URDF ``multiplier``; [m/rad] or [rad/m] between
        a translational and a rotational flange), ≠ 0.
    offset : [rad] position of flange_a when flange_b is at 0 (URDF ``offset``; [m] when
        flange_a is translational).
    """

    ratio: float = param(1.0, "1", "transmission ratio d(flange_a)/d(flange_b)")
    offset: float = param(0.0, "rad", "position of flange_a when flange_b is at 0 (m if "
                          "translational)")
    FOLLOWER = "flange_a"    # between two joints, flange_a's joint is made the dependent one

    def __post_init__(self):
        self.ratio = as_scalar(self.ratio, "LinearCoupling", "ratio")
        self.offset = as_scalar(self.offset, "LinearCoupling", "offset")
        self.flange_a = Flange(self, "flange_a", Motion.ANY)
        self.flange_b = Flange(self, "flange_b", Motion.ANY)

    def validate(self) -> None:
        self._check_nonzero(ratio=self.ratio)

    def relations(self) -> list[dict]:
        return [{self.flange_a: 1.0, self.flange_b: -self.ratio}]

    def offsets(self) -> list:
        return [-self.offset]
