"""Speed-dependent torques of the Modelica Standard Library's ``Rotational.Sources`` with its
names and parameters: SignTorque (a constant torque that changes sign with the speed,
regularized near 0), LinearSpeedDependentTorque and InverseSpeedDependentTorque, and the
laws (free functions on CasADi expressions; the regularized sign of SignTorque is
:mod:`jourdain.blocks.regularization`'s, shared with SignForce). Where a law has a kink or a
jump (at |w| = w0), guards restart the integrator there, as the MSL's events do.

As in :mod:`.sources`, ``flange`` is flange_b and ``support`` flange_a; w is the speed of
flange relative to support; the torque acts on flange (its reaction on support). A negative
tau_nominal brakes positive speeds.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import casadi as ca

from ..base import as_scalar, param
from ..hybrid.base import Direction, Guard, Hybrid
from ..ports import Motion
from ..regularization import Regularization, check_regularization, kinks, regularized_sign
from .sources import SpeedDependentSource, _flag, _positive


def linear_law(ratio, same_direction: bool):
    """|ratio| (the same sign for both directions) or ratio (reversing with the speed)."""
    return ca.fabs(ratio) if same_direction else ratio


def inverse_law(w, w_nominal, w0, same_direction: bool):
    """The MSL's InverseSpeedDependent… law per unit of the nominal value: w_nominal/|w|
    (same direction) or w_nominal/w (reversing), below w0 w_nominal/w0 or w/w0 — as the MSL
    writes it, so the reversing law jumps at |w| = w0 unless w_nominal = w0."""
    if same_direction:
        return ca.if_else(ca.fabs(w) < w0, w_nominal / w0, w_nominal / ca.fmax(ca.fabs(w), w0))
    safe = ca.if_else(ca.fabs(w) < w0, w0, w)   # never divides by a speed below w0
    return ca.if_else(ca.fabs(w) < w0, w / w0, w_nominal / safe)


class _EventsAtW0(Hybrid):
    """Guards at w = ±w0 (the relative speed), where the law has a kink or a jump."""

    def guards(self, ctx):
        if not self._kinks():
            return []
        w = ctx.flange(self.flange).w - ctx.flange(self.support).w
        return [Guard("w_above_w0", w - self.w0, Direction.BOTH),
                Guard("w_below_minus_w0", w + self.w0, Direction.BOTH)]


@dataclass(eq=False)
class SignTorque(SpeedDependentSource, _EventsAtW0):
    """Constant torque changing sign with the speed (MSL ``Rotational.Sources.SignTorque``):
    τ = tau_nominal·sign(w), regularized below w0 by ``reg``. A negative tau_nominal brakes
    in both directions of rotation (a dry-friction load), a positive one accelerates.

    tau_nominal : [N·m] nominal torque.   reg : Regularization (default Exp, as the MSL).
    w0 : [rad/s] regularization below w0, > 0.
    """

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    tau_nominal: float = param(0.0, "N.m", "nominal torque (negative: a load)")
    reg: Regularization = Regularization.Exp
    w0: float = param(0.1, "rad/s", "regularization below w0")

    def __post_init__(self):
        self.tau_nominal = as_scalar(self.tau_nominal, "SignTorque", "tau_nominal")
        self.w0 = as_scalar(self.w0, "SignTorque", "w0")
        self._make_flanges()

    def validate(self) -> None:
        _positive(self, "w0", self.w0)   # first: check_regularization names the speed v0
        check_regularization(self, self.reg, self.w0)

    def _kinks(self) -> bool:
        return kinks(self.reg)

    def law(self, w_rel):
        return self.tau_nominal * regularized_sign(w_rel, self.w0, self.reg)


@dataclass(eq=False)
class LinearSpeedDependentTorque(SpeedDependentSource):
    """Torque linear in the speed (MSL ``Rotational.Sources.LinearSpeedDependentTorque``):
    τ = tau_nominal·|w/w_nominal| with TorqueDirection = True (default), τ =
    tau_nominal·w/w_nominal with False (a viscous load when tau_nominal < 0).

    tau_nominal : [N·m] torque at the nominal speed.   w_nominal : [rad/s] nominal speed, > 0.
    TorqueDirection : bool, same direction of torque in both directions of rotation.
    """

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    tau_nominal: float = param(0.0, "N.m", "torque at the nominal speed")
    TorqueDirection: bool = True
    w_nominal: float = param(1.0, "rad/s", "nominal speed")

    def __post_init__(self):
        self.tau_nominal = as_scalar(self.tau_nominal, "LinearSpeedDependentTorque",
                                     "tau_nominal")
        self.w_nominal = as_scalar(self.w_nominal, "LinearSpeedDependentTorque", "w_nominal")
        _flag(self, "TorqueDirection")
        self._make_flanges()

    def validate(self) -> None:
        _positive(self, "w_nominal", self.w_nominal)

    def law(self, w_rel):
        return self.tau_nominal * linear_law(w_rel / self.w_nominal, self.TorqueDirection)


@dataclass(eq=False)
class InverseSpeedDependentTorque(SpeedDependentSource, _EventsAtW0):
    """Torque inverse to the speed (MSL ``Rotational.Sources.InverseSpeedDependentTorque``),
    constant power tau_nominal·w_nominal: τ = tau_nominal·w_nominal/|w| with
    TorqueDirection = True (default; tau_nominal·w_nominal/w0 below w0), τ =
    tau_nominal·w_nominal/w with False (tau_nominal·w/w0 below w0). As in the MSL source,
    the reversing law jumps at |w| = w0 unless w_nominal = w0.

    tau_nominal : [N·m] torque at the nominal speed.   w_nominal : [rad/s] nominal speed, > 0.
    TorqueDirection : bool.   w0 : [rad/s] regularization below w0, > 0.
    """

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    tau_nominal: float = param(0.0, "N.m", "torque at the nominal speed")
    TorqueDirection: bool = True
    w_nominal: float = param(1.0, "rad/s", "nominal speed")
    w0: float = param(0.1, "rad/s", "regularization below w0")

    def __post_init__(self):
        owner = "InverseSpeedDependentTorque"
        self.tau_nominal = as_scalar(self.tau_nominal, owner, "tau_nominal")
        self.w_nominal = as_scalar(self.w_nominal, owner, "w_nominal")
        self.w0 = as_scalar(self.w0, owner, "w0")
        _flag(self, "TorqueDirection")
        self._make_flanges()

    def validate(self) -> None:
        _positive(self, "w_nominal", self.w_nominal)
        _positive(self, "w0", self.w0)

    def _kinks(self) -> bool:
        return True

    def law(self, w_rel):
        return self.tau_nominal * inverse_law(w_rel, self.w_nominal, self.w0,
                                              self.TorqueDirection)
