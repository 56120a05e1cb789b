"""1-D force elements on a flange pair: potentials V, dissipation functions D, applied forces.

The relative position is s_rel = s_b − s_a (phi [rad] or s [m]) and w_rel its rate. An element
contributes through three pure hooks; the solver turns them into generalized forces
(Jourdain: −∂V/∂s − ∂D/∂w + f along the partial velocity of s_rel; Lagrange: V in L, D in
the dissipation function, f as a residual force, Rayleigh's dissipation function). Units are those of the flange:
torque [N·m] on rotational, force [N] on translational flanges.

A flange left unconnected sits at the reference (position 0), e.g. a friction element with
flange_b on a joint's ``axis`` and flange_a free acts between the joint's two frames.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import casadi as ca
import numpy as np

from .base import Component, as_array, as_scalar, as_scalars, param
from .errors import ModelError
from .heat_port import ConditionalHeatPort
from .ports import Flange, Motion


class FlangeForce(Component):
    """Contract of a 1-D force element: ``flange_a``, ``flange_b`` and three hooks."""

    MOTION: ClassVar[Motion] = Motion.ANY

    def _make_flanges(self) -> None:
        self.flange_a = Flange(self, "flange_a", self.MOTION)
        self.flange_b = Flange(self, "flange_b", self.MOTION)

    def potential(self, s_rel):
        """Potential energy V(s_rel) [J]."""
        return 0

    def dissipation(self, w_rel):
        """Dissipation function D(w_rel) [W]; the force is −∂D/∂w_rel (Rayleigh's dissipation function)."""
        return 0

    def force(self, s_rel, w_rel, ctx):
        """Residual force or torque on flange_b along +s (the reaction acts on flange_a)."""
        return 0

    def supplied_power(self, ctx):
        """The power of the residual force, f·w_rel [W]: a residual force counts as a source
        (a motor, a force law; negative where it brakes) unless the element says otherwise
        (an element whose residual force dissipates reports it in ``dissipated_power`` and
        returns 0 here; a converter passes power on from another domain). Stored energy
        belongs in ``potential``, dissipation of a rate in ``dissipation``: both are
        reported by the solver."""
        a, b = ctx.flange(self.flange_a), ctx.flange(self.flange_b)
        w_rel = b.w - a.w
        return self.force(b.s - a.s, w_rel, ctx) * w_rel

    def _check_nonnegative(self, **values) -> None:
        for name, value in values.items():
            if not value >= 0:
                raise ModelError(f"{self.path}: {name} must be non-negative, got {value}")


@dataclass(eq=False)
class ViscousFriction(ConditionalHeatPort, FlangeForce):
    """Linear damping, D = ½·d·w_rel², force −d·w_rel.

    d : [N·m·s/rad] or [N·s/m] damping coefficient, ≥ 0.
    useHeatPort : add the HeatPort ``heatPort`` that takes the losses (MSL's
        ``useHeatPort`` of a Damper): heatPort.Q_flow = −d·w_rel²; the losses still count
        as dissipated and, entering the thermal network, as supplied there.
    """

    d: float = param(0.0, "N.m.s/rad", "damping coefficient")
    useHeatPort: bool = False

    def __post_init__(self):
        self.d = as_scalar(self.d, "ViscousFriction", "d")
        self._make_flanges()
        self._make_heat_port()

    def validate(self) -> None:
        self._check_nonnegative(d=self.d)

    def dissipation(self, w_rel):
        return 0.5 * self.d * w_rel**2


@dataclass(eq=False)
class CoulombFriction(FlangeForce):
    """Dry friction, D = μ·N·|w_rel|, regularized as μ·N·(√(w_rel² + ε²) − ε).

    The regularization turns the friction force −μ·N·sign(w) into −μ·N·w/√(w² + ε²), smooth at
    w = 0 (no sticking: below |w| ≈ ε the element acts as a stiff damper μ·N/ε).

    mu : [1] friction coefficient, ≥ 0.   N : [N] normal force, ≥ 0.
    w_eps : [rad/s] or [m/s] regularization speed ε, > 0 (default 1e-3).
    """

    mu: float = param(0.0, "1", "friction coefficient")
    N: float = param(0.0, "N", "normal force")
    w_eps: float = param(1e-3, "rad/s", "regularization speed")

    def __post_init__(self):
        as_scalars(self, "CoulombFriction", "mu", "N", "w_eps")
        self._make_flanges()

    def validate(self) -> None:
        self._check_nonnegative(mu=self.mu, N=self.N)
        if not self.w_eps > 0:
            raise ModelError(f"{self.path}: w_eps must be positive, got {self.w_eps}")

    def dissipation(self, w_rel):
        return self.mu * self.N * (ca.sqrt(w_rel**2 + self.w_eps**2) - self.w_eps)


@dataclass(eq=False)
class QuadraticDrag(FlangeForce):
    """Air drag, D = ⅓·c·|w_rel|³, force −c·|w_rel|·w_rel.

    c : [N·m·s²/rad²] or [N·s²/m²] drag coefficient, ≥ 0.
    """

    c: float = param(0.0, "N.s2/m2", "drag coefficient")

    def __post_init__(self):
        self.c = as_scalar(self.c, "QuadraticDrag", "c")
        self._make_flanges()

    def validate(self) -> None:
        self._check_nonnegative(c=self.c)

    def dissipation(self, w_rel):
        return self.c * ca.fabs(w_rel) ** 3 / 3


@dataclass(eq=False)
class RotationalSpring(FlangeForce):
    """Linear torsion spring, V = ½·c·(phi_rel − phi_rel0)².

    c : [N·m/rad] stiffness, ≥ 0.   phi_rel0 : [rad] rest angle.
    """

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    c: float = param(0.0, "N.m/rad", "stiffness")
    phi_rel0: float = param(0.0, "rad", "rest angle")

    def __post_init__(self):
        self.c = as_scalar(self.c, "RotationalSpring", "c")
        self.phi_rel0 = as_scalar(self.phi_rel0, "RotationalSpring", "phi_rel0")
        self._make_flanges()

    def validate(self) -> None:
        self._check_nonnegative(c=self.c)

    def potential(self, s_rel):
        return 0.5 * self.c * (s_rel - self.phi_rel0) ** 2


@dataclass(eq=False)
class TranslationalSpring(FlangeForce):
    """Linear spring, V = ½·c·(s_rel − s_rel0)².

    c : [N/m] stiffness, ≥ 0.   s_rel0 : [m] rest length.
    """

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    c: float = param(0.0, "N/m", "stiffness")
    s_rel0: float = param(0.0, "m", "rest length")

    def __post_init__(self):
        self.c = as_scalar(self.c, "TranslationalSpring", "c")
        self.s_rel0 = as_scalar(self.s_rel0, "TranslationalSpring", "s_rel0")
        self._make_flanges()

    def validate(self) -> None:
        self._check_nonnegative(c=self.c)

    def potential(self, s_rel):
        return 0.5 * self.c * (s_rel - self.s_rel0) ** 2


class SupportToFlange:
    """For a FlangeForce that acts between ``support`` and ``flange`` (an EMF, a brake with
    the MSL's port names): FlangeForce's contract sees them as flange_a and flange_b."""

    @property
    def flange_a(self) -> Flange:
        return self.support

    @property
    def flange_b(self) -> Flange:
        return self.flange


class ForceLaw(FlangeForce):
    """A force or torque given as a law f = law(s_rel, w_rel) on flange_b (−f on flange_a):
    a Python function of CasADi expressions, e.g. a gas force that depends on the piston's
    position and the sign of its speed (``ca.if_else`` for the branches). The law must be a
    pure function returning one scalar expression [N or N·m]; the power it supplies, f·w_rel,
    is reported (negative where it brakes).

    law : callable (s_rel [m or rad], w_rel [m/s or rad/s]) -> force [N] or torque [N·m].
    motion : Motion.TRANSLATIONAL (default), ROTATIONAL or ANY: the flanges it connects.
    """

    def __init__(self, law, motion: Motion = Motion.TRANSLATIONAL):
        if not callable(law):
            raise ModelError(f"ForceLaw: law must be a function (s_rel, w_rel) -> force, got "
                             f"{law!r}")
        if not isinstance(motion, Motion):
            raise ModelError(f"ForceLaw: motion must be a jd.Motion, got {motion!r}")
        self.law, self.MOTION = law, motion
        self._make_flanges()

    def validate(self) -> None:
        s, w = ca.SX.sym("s_rel"), ca.SX.sym("w_rel")
        try:
            value = ca.SX(self.law(s, w))
        except Exception as exc:   # the user's function: name it and say what failed
            raise ModelError(f"{self.path}: its law(s_rel, w_rel) fails on CasADi symbols "
                             f"({type(exc).__name__}: {exc}); write it with CasADi operations "
                             "(ca.if_else, ca.fmin, ...) instead of Python branches") from None
        if value.numel() != 1:
            raise ModelError(f"{self.path}: its law must return one scalar, got shape "
                             f"{value.shape}")

    def force(self, s_rel, w_rel, ctx):
        return self.law(s_rel, w_rel)


class TableForce(ForceLaw):
    """A force or torque interpolated from a table over the relative position s_rel, or over
    s_rel and the relative rate w_rel (linear interpolation; held at the table's edges, as the
    MSL's ``CombiTable1Ds``/``CombiTable2Ds`` with ``LinearSegments`` and constant
    extrapolation).

    s : [m or rad] increasing positions.   w : [m/s or rad/s] increasing rates, or None.
    f : [N or N·m] values, len(s) of them, or an array of len(s) × len(w).
    motion : as for ForceLaw.
    """

    def __init__(self, s, f, w=None, motion: Motion = Motion.TRANSLATIONAL):
        self.s_table = _increasing(s, "s")
        self.w_table = None if w is None else _increasing(w, "w")
        values = as_array(f, "TableForce", "f")
        shape = (self.s_table.size,) if w is None else (self.s_table.size, self.w_table.size)
        if values.shape != shape:
            raise ModelError(f"TableForce: f must have shape {shape} (positions × rates), got "
                             f"{values.shape}")
        self.f_table = values
        super().__init__(self._interpolate, motion)

    def _interpolate(self, s_rel, w_rel):
        s_held = ca.fmin(ca.fmax(s_rel, self.s_table[0]), self.s_table[-1])
        if self.w_table is None:
            return ca.pw_lin(s_held, ca.DM(self.s_table), ca.DM(self.f_table))
        w_held = ca.fmin(ca.fmax(w_rel, self.w_table[0]), self.w_table[-1])
        table = ca.interpolant("table_force", "linear", [self.s_table, self.w_table],
                               self.f_table.ravel(order="F"))
        return table(ca.vertcat(s_held, w_held))


def _increasing(values, name: str) -> np.ndarray:
    arr = as_array(values, "TableForce", name).ravel()
    if arr.size < 2 or np.any(np.diff(arr) <= 0):
        raise ModelError(f"TableForce: {name} must hold at least two strictly increasing "
                         "values")
    return arr
