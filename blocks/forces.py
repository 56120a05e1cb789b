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

from .base import Component, as_scalar, param
from .errors import ModelError
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

    def _check_nonnegative(self, **values) -> None:
        for name, value in values.items():
            if not value >= 0:
                raise ModelError(f"{self.path}: {name} must be non-negative, got {value}")


@dataclass(eq=False)
class ViscousFriction(FlangeForce):
    """Linear damping, D = ½·d·w_rel², force −d·w_rel.

    d : [N·m·s/rad] or [N·s/m] damping coefficient, ≥ 0.
    """

    d: float = param(0.0, "N.m.s/rad", "damping coefficient")

    def __post_init__(self):
        self.d = as_scalar(self.d, "ViscousFriction", "d")
        self._make_flanges()

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
        for name in ("mu", "N", "w_eps"):
            setattr(self, name, as_scalar(getattr(self, name), "CoulombFriction", name))
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
