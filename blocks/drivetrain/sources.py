"""Speed-dependent loads of 1-D drive trains (Modelica ``Rotational.Sources`` and
``Translational.Sources``, same names and parameters): a torque or force that depends on the
flange's speed, acting between ``flange`` and ``support``.

jourdain's force elements act between ``flange_a`` and ``flange_b``; here ``flange`` is
``flange_b`` and ``support`` is ``flange_a`` (the MSL's names are properties that return
them), so ``support`` left unconnected is the reference (the MSL's ``useSupport = false``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..base import as_scalar, param
from ..errors import ModelError
from ..forces import FlangeForce
from ..ports import Motion


class SpeedDependentSource(FlangeForce):
    """Contract: a torque or force ``law(w_rel)`` on ``flange`` (−law on ``support``), with
    the MSL's port names and the power it supplies (negative where it brakes)."""

    flange = property(lambda self: self.flange_b, doc="the driven flange (flange_b)")
    support = property(lambda self: self.flange_a, doc="the housing (flange_a)")

    def law(self, w_rel):
        """The torque [N·m] or force [N] at the relative speed w_rel."""
        raise NotImplementedError

    def force(self, s_rel, w_rel, ctx):
        return self.law(w_rel)   # its power law·w_rel is supplied (FlangeForce's default)


def _positive(owner, name: str, value) -> None:
    if not value > 0:
        raise ModelError(f"{owner.path}: {name} must be positive, got {value}")


@dataclass(eq=False)
class QuadraticSpeedDependentTorque(SpeedDependentSource):
    """Torque quadratic in speed, τ = tau_nominal·(w/w_nominal)² on ``flange`` (MSL
    ``Rotational.Sources.QuadraticSpeedDependentTorque`` with TorqueDirection = true: the
    same sign for both directions of rotation). A negative tau_nominal brakes positive
    speeds (a fan, a pump, a vehicle's drag).

    tau_nominal : [N·m] torque at the nominal speed.   w_nominal : [rad/s] nominal speed, > 0.
    """

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    tau_nominal: float = param(0.0, "N.m", "torque at the nominal speed")
    w_nominal: float = param(1.0, "rad/s", "nominal speed")

    def __post_init__(self):
        self.tau_nominal = as_scalar(self.tau_nominal, "QuadraticSpeedDependentTorque",
                                     "tau_nominal")
        self.w_nominal = as_scalar(self.w_nominal, "QuadraticSpeedDependentTorque",
                                   "w_nominal")
        self._make_flanges()

    def validate(self) -> None:
        _positive(self, "w_nominal", self.w_nominal)

    def law(self, w_rel):
        """τ [N·m] at the relative speed w_rel [rad/s]."""
        return self.tau_nominal * (w_rel / self.w_nominal) ** 2


@dataclass(eq=False)
class QuadraticSpeedDependentForce(SpeedDependentSource):
    """Force quadratic in speed, f = f_nominal·(v/v_nominal)² on ``flange`` (MSL
    ``Translational.Sources.QuadraticSpeedDependentForce`` with ForceDirection = true).

    f_nominal : [N] force at the nominal speed.   v_nominal : [m/s] nominal speed, > 0.
    """

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    f_nominal: float = param(0.0, "N", "force at the nominal speed")
    v_nominal: float = param(1.0, "m/s", "nominal speed")

    def __post_init__(self):
        self.f_nominal = as_scalar(self.f_nominal, "QuadraticSpeedDependentForce", "f_nominal")
        self.v_nominal = as_scalar(self.v_nominal, "QuadraticSpeedDependentForce", "v_nominal")
        self._make_flanges()

    def validate(self) -> None:
        _positive(self, "v_nominal", self.v_nominal)

    def law(self, w_rel):
        """f [N] at the relative speed w_rel [m/s]."""
        return self.f_nominal * (w_rel / self.v_nominal) ** 2
