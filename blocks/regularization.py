"""Regularized sign functions (Modelica ``Blocks.Types.Regularization``): a force or torque
that changes sign with the speed, made continuous within [−v0, v0] so that the integrator
does not chatter at standstill. Used by the speed-dependent sources and the rolling
resistance of the MSL (``SignForce``, ``RollingResistance``)."""
from __future__ import annotations

from enum import Enum

import casadi as ca

from .errors import ModelError


class Regularization(Enum):
    """The MSL's regularizations of sign(v) within [−v0, v0]."""

    Exp = "Exp"         # 2/(1 + exp(−v/(0.01·v0))) − 1, smooth everywhere
    Sine = "Sine"       # sin(π/2·v/v0) inside, sign(v) outside
    Linear = "Linear"   # v/v0 inside, sign(v) outside
    CoSine = "CoSine"   # sign(v)·(1 − cos(π/2·v/v0)) inside, sign(v) outside


def check_regularization(owner, reg, v0) -> None:
    """A ModelError naming the component unless reg is a Regularization and v0 > 0."""
    if not isinstance(reg, Regularization):
        raise ModelError(f"{owner.path}: reg must be a jourdain.blocks.Regularization (Exp, "
                         f"Sine, Linear, CoSine), got {reg!r}")
    if not v0 > 0:
        raise ModelError(f"{owner.path}: v0 (the regularization speed) must be positive, "
                         f"got {v0}")


def regularized_sign(v, v0, reg: Regularization):
    """sign(v) regularized within [−v0, v0] as the MSL's SignForce, RollingResistance."""
    if reg is Regularization.Exp:
        return 2 / (1 + ca.exp(-v / (0.01 * v0))) - 1
    x = v / v0
    inside = {Regularization.Sine: ca.sin(ca.pi / 2 * x), Regularization.Linear: x,
              Regularization.CoSine: ca.sign(v) * (1 - ca.cos(ca.pi / 2 * x))}[reg]
    return ca.if_else(ca.fabs(v) >= v0, ca.sign(v), inside)


def kinks(reg: Regularization) -> bool:
    """Whether the regularized sign has kinks at ±v0 (where the MSL's events restart the
    integrator); Exp is smooth."""
    return reg is not Regularization.Exp
