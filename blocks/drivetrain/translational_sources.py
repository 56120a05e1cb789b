"""Speed-dependent forces of ``Modelica.Mechanics.Translational`` with the MSL's names,
parameters and laws: ``Sources.SignForce``, ``LinearSpeedDependentForce``,
``InverseSpeedDependentForce`` and ``Components.RollingResistance``.

Each acts between ``support`` (flange_a) and ``flange`` (flange_b), as the sources of
:mod:`.sources`; v is the flange's speed relative to the support and the force on
``flange`` is f_nominal·law(v) (the MSL's accelerating force: a negative f_nominal brakes).
Where the law has a kink or a jump (at |v| = v0), a guard restarts the integrator there, as
the MSL's events do.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import casadi as ca

from ..base import as_scalars, param
from ..errors import ModelError
from ..hybrid.base import Direction, Guard, Hybrid
from ..ports import Motion, RealInput
from ..regularization import Regularization, check_regularization, kinks, regularized_sign
from .sources import SpeedDependentSource, _flag, _positive


class _EventsAtV0(Hybrid):
    """Guards at v = ±v0 (the relative speed), where the law has a kink or a jump."""

    def _speed(self, ctx):
        return ctx.flange(self.flange).w - ctx.flange(self.support).w

    def _v0_guards(self, ctx):
        v = self._speed(ctx)
        return [Guard("v_above_v0", v - self.v0, Direction.BOTH),
                Guard("v_below_minus_v0", v + self.v0, Direction.BOTH)]


@dataclass(eq=False)
class SignForce(SpeedDependentSource, _EventsAtV0):
    """Constant force changing sign with the speed (MSL ``Translational.Sources.SignForce``):
    f = f_nominal·sign(v), regularized within [−v0, v0] by ``reg``. A positive f_nominal
    accelerates, a negative one brakes in both directions of motion.

    f_nominal : [N] nominal force.   reg : Regularization (default Exp, as the MSL).
    v0 : [m/s] regularization below v0, > 0.
    """

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    f_nominal: float = param(0.0, "N", "nominal force (negative: a load)")
    reg: Regularization = Regularization.Exp
    v0: float = param(0.1, "m/s", "regularization below v0")

    def __post_init__(self):
        as_scalars(self, "SignForce", "f_nominal", "v0")
        self._make_flanges()

    def validate(self) -> None:
        check_regularization(self, self.reg, self.v0)

    def law(self, w_rel):
        return self.f_nominal * regularized_sign(w_rel, self.v0, self.reg)

    def guards(self, ctx):
        """Restarts at v = ±v0, where the regularization has kinks (none for Exp)."""
        return self._v0_guards(ctx) if kinks(self.reg) else []


@dataclass(eq=False)
class LinearSpeedDependentForce(SpeedDependentSource):
    """Force linear in the speed (MSL ``Translational.Sources.LinearSpeedDependentForce``):
    f = f_nominal·|v/v_nominal| with ForceDirection = True (default, the same direction for
    both directions of motion), f = f_nominal·v/v_nominal with False (a viscous load when
    f_nominal < 0).

    f_nominal : [N] force at the nominal speed.   v_nominal : [m/s] nominal speed, > 0.
    ForceDirection : bool, same direction of force in both directions of motion.
    """

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    f_nominal: float = param(0.0, "N", "force at the nominal speed")
    v_nominal: float = param(1.0, "m/s", "nominal speed")
    ForceDirection: bool = True

    def __post_init__(self):
        as_scalars(self, "LinearSpeedDependentForce", "f_nominal", "v_nominal")
        _flag(self, "ForceDirection")
        self._make_flanges()

    def validate(self) -> None:
        _positive(self, "v_nominal", self.v_nominal)

    def law(self, w_rel):
        ratio = w_rel / self.v_nominal
        return self.f_nominal * (ca.fabs(ratio) if self.ForceDirection else ratio)


@dataclass(eq=False)
class InverseSpeedDependentForce(SpeedDependentSource, _EventsAtV0):
    """Force inversely proportional to the speed (MSL
    ``Translational.Sources.InverseSpeedDependentForce``, constant power): with ForceDirection
    = True (default) f = f_nominal·v_nominal/|v|, held at f_nominal·v_nominal/v0 below v0;
    with False f = f_nominal·v_nominal/v, and f_nominal·v/v0 below v0. As in the MSL the law
    jumps at |v| = v0 unless v_nominal = v0 (from f_nominal·v_nominal/v0 to f_nominal with
    ForceDirection = False); a guard there restarts the integrator.

    f_nominal : [N] force at the nominal speed.   v_nominal : [m/s] nominal speed, > 0.
    ForceDirection : bool.   v0 : [m/s] regularization below v0, > 0.
    """

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    f_nominal: float = param(0.0, "N", "force at the nominal speed")
    v_nominal: float = param(1.0, "m/s", "nominal speed")
    ForceDirection: bool = True
    v0: float = param(0.1, "m/s", "regularization below v0")

    def __post_init__(self):
        as_scalars(self, "InverseSpeedDependentForce", "f_nominal", "v_nominal", "v0")
        _flag(self, "ForceDirection")
        self._make_flanges()

    def validate(self) -> None:
        _positive(self, "v_nominal", self.v_nominal)
        _positive(self, "v0", self.v0)

    def law(self, w_rel):
        slow = ca.fabs(w_rel) < self.v0
        if self.ForceDirection:
            return self.f_nominal * self.v_nominal / ca.if_else(slow, self.v0, ca.fabs(w_rel))
        safe = ca.if_else(slow, 1.0, w_rel)   # no 1/0 in the branch not taken
        return self.f_nominal * ca.if_else(slow, w_rel / self.v0, self.v_nominal / safe)

    def guards(self, ctx):
        """Restarts at v = ±v0, where the law jumps."""
        return self._v0_guards(ctx)


@dataclass(eq=False)
class RollingResistance(SpeedDependentSource, _EventsAtV0):
    """Resistance of a rolling wheel (MSL ``Translational.Components.RollingResistance``):
    f = −Cr·fWeight·cos(atan(inclination))·sign(v), sign regularized within [−v0, v0] by
    ``reg``; Cr and the inclination (tan of the road's angle) are constants or, with
    ``useCrInput``/``useInclinationInput``, the inputs ``cr`` and ``inclination``.

    fWeight : [N] wheel load due to gravity, ≥ 0.   CrConstant : [1] rolling resistance
    coefficient.   inclinationConstant : [1] tan(angle) of the road.
    reg : Regularization (default Exp, as the MSL).   v0 : [m/s] regularization below v0.
    """

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    fWeight: float = param(0.0, "N", "wheel load due to gravity")
    useCrInput: bool = False
    CrConstant: float = param(0.01, "1", "constant rolling resistance coefficient")
    useInclinationInput: bool = False
    inclinationConstant: float = param(0.0, "1", "constant inclination = tan(angle)")
    reg: Regularization = Regularization.Exp
    v0: float = param(0.1, "m/s", "regularization below v0")

    def __post_init__(self):
        as_scalars(self, "RollingResistance", "fWeight", "CrConstant", "inclinationConstant",
                   "v0")
        _flag(self, "useCrInput")
        _flag(self, "useInclinationInput")
        self._make_flanges()
        if self.useCrInput:
            self.cr = RealInput(self, "cr")
        if self.useInclinationInput:
            self.inclination = RealInput(self, "inclination")

    def validate(self) -> None:
        check_regularization(self, self.reg, self.v0)
        if not self.fWeight >= 0:
            raise ModelError(f"{self.path}: fWeight (the wheel load) must be non-negative, "
                             f"got {self.fWeight}")

    def force(self, s_rel, w_rel, ctx):
        cr = ctx.value(self.cr) if self.useCrInput else self.CrConstant
        incl = ctx.value(self.inclination) if self.useInclinationInput else \
            self.inclinationConstant
        f_nominal = -cr * self.fWeight * ca.cos(ca.atan(incl))
        return f_nominal * regularized_sign(w_rel, self.v0, self.reg)

    def guards(self, ctx):
        """Restarts at v = ±v0, where the regularization has kinks (none for Exp)."""
        return self._v0_guards(ctx) if kinks(self.reg) else []


__all__ = ["InverseSpeedDependentForce", "LinearSpeedDependentForce", "RollingResistance",
           "SignForce"]
