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

import casadi as ca

from ..base import as_scalar, as_scalars, param
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
    """Torque quadratic in speed on ``flange`` (MSL
    ``Rotational.Sources.QuadraticSpeedDependentTorque``, same parameters): with
    TorqueDirection = True (default) τ = tau_nominal·(w/w_nominal)², the same sign for both
    directions of rotation; with TorqueDirection = False
    τ = tau_nominal·(w/w_nominal)·|w/w_nominal|, reversing with the speed (a load that always
    brakes when tau_nominal < 0). A negative tau_nominal brakes positive speeds (a fan, a pump,
    a vehicle's drag).

    tau_nominal : [N·m] torque at the nominal speed.   w_nominal : [rad/s] nominal speed, > 0.
    TorqueDirection : bool, same direction of torque in both directions of rotation.
    """

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    tau_nominal: float = param(0.0, "N.m", "torque at the nominal speed")
    w_nominal: float = param(1.0, "rad/s", "nominal speed")
    TorqueDirection: bool = True

    def __post_init__(self):
        self.tau_nominal = as_scalar(self.tau_nominal, "QuadraticSpeedDependentTorque",
                                     "tau_nominal")
        self.w_nominal = as_scalar(self.w_nominal, "QuadraticSpeedDependentTorque",
                                   "w_nominal")
        _flag(self, "TorqueDirection")
        self._make_flanges()

    def validate(self) -> None:
        _positive(self, "w_nominal", self.w_nominal)

    def law(self, w_rel):
        """τ [N·m] at the relative speed w_rel [rad/s]."""
        return self.tau_nominal * _quadratic(w_rel / self.w_nominal, self.TorqueDirection)


@dataclass(eq=False)
class QuadraticSpeedDependentForce(SpeedDependentSource):
    """Force quadratic in speed on ``flange`` (MSL
    ``Translational.Sources.QuadraticSpeedDependentForce``): f = f_nominal·(v/v_nominal)² with
    ForceDirection = True (default), f = f_nominal·(v/v_nominal)·|v/v_nominal| with False.

    f_nominal : [N] force at the nominal speed.   v_nominal : [m/s] nominal speed, > 0.
    ForceDirection : bool, same direction of force in both directions of movement.
    """

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    f_nominal: float = param(0.0, "N", "force at the nominal speed")
    v_nominal: float = param(1.0, "m/s", "nominal speed")
    ForceDirection: bool = True

    def __post_init__(self):
        self.f_nominal = as_scalar(self.f_nominal, "QuadraticSpeedDependentForce", "f_nominal")
        self.v_nominal = as_scalar(self.v_nominal, "QuadraticSpeedDependentForce", "v_nominal")
        _flag(self, "ForceDirection")
        self._make_flanges()

    def validate(self) -> None:
        _positive(self, "v_nominal", self.v_nominal)

    def law(self, w_rel):
        """f [N] at the relative speed w_rel [m/s]."""
        return self.f_nominal * _quadratic(w_rel / self.v_nominal, self.ForceDirection)


def _flag(owner, name: str) -> None:
    if not isinstance(getattr(owner, name), bool):
        raise ModelError(f"{type(owner).__name__}: {name} must be True or False, got "
                         f"{getattr(owner, name)!r}")


def _quadratic(ratio, same_direction: bool):
    """ratio² (same direction for both signs of speed) or ratio·|ratio| (reversing)."""
    return ratio ** 2 if same_direction else ratio * ca.fabs(ratio)


@dataclass(eq=False)
class ConstantTorque(SpeedDependentSource):
    """Constant torque tau_constant [N·m] on ``flange``, −tau_constant on ``support``
    (MSL ``Rotational.Sources.ConstantTorque``), whatever the speed."""

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    tau_constant: float = param(1.0, "N.m", "constant torque")

    def __post_init__(self):
        self.tau_constant = as_scalar(self.tau_constant, "ConstantTorque", "tau_constant")
        self._make_flanges()

    def law(self, w_rel):
        return self.tau_constant + 0 * w_rel


@dataclass(eq=False)
class ConstantForce(SpeedDependentSource):
    """Constant force f_constant [N] on ``flange`` (MSL ``Translational.Sources.ConstantForce``)."""

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    f_constant: float = param(1.0, "N", "constant force")

    def __post_init__(self):
        self.f_constant = as_scalar(self.f_constant, "ConstantForce", "f_constant")
        self._make_flanges()

    def law(self, w_rel):
        return self.f_constant + 0 * w_rel


@dataclass(eq=False)
class TorqueStep(SpeedDependentSource):
    """Torque step on ``flange`` (MSL ``Rotational.Sources.TorqueStep``): offsetTorque before
    startTime, offsetTorque + stepTorque from startTime on [N·m, s]; the step time is a
    declared time event (the integrator restarts there)."""

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    stepTorque: float = param(1.0, "N.m", "height of the torque step")
    offsetTorque: float = param(0.0, "N.m", "offset of the torque")
    startTime: float = param(0.0, "s", "time of the step")

    def __post_init__(self):
        as_scalars(self, "TorqueStep", "stepTorque", "offsetTorque", "startTime")
        self._make_flanges()

    def force(self, s_rel, w_rel, ctx):
        return self.offsetTorque + self.stepTorque * (ctx.t >= self.startTime)

    def time_events(self, t0: float, t_end: float) -> list[float]:
        return [float(self.startTime)] if t0 < self.startTime < t_end else []
