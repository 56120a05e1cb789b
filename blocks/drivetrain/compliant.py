"""Compliant 1-D rotational elements of the Modelica Standard Library with the MSL's names,
parameters and laws (``Rotational.Components.SpringDamper``, ``ElastoBacklash``,
``Translational.Components.SpringDamper`` as TranslationalSpringDamper): a spring and a damper
in parallel as one element, and that pair in series with a backlash.

Sign convention as in the MSL: ``tau`` is the torque the element transmits (flange_b.tau =
tau, flange_a.tau = −tau), so the torque it exerts on the part at flange_b is −tau; here
``force`` returns that torque on flange_b (jourdain's FlangeForce convention), the spring part
comes from ``potential`` (so energy and the Lagrange formulation see it) and the damping part
is dissipated.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import casadi as ca

from ..base import as_scalars, param
from ..errors import ModelError
from ..forces import FlangeForce
from ..heat_port import ConditionalHeatPort
from ..hybrid.base import Direction, Guard, Hybrid
from ..ports import Motion

B_EPS = 1e-10   # [rad] MSL's bEps: a smaller backlash is none (no chattering events at b = 0)


@dataclass(eq=False)
class SpringDamper(ConditionalHeatPort, FlangeForce):
    """Linear spring and damper in parallel (MSL ``Rotational.Components.SpringDamper``):
    tau = c·(phi_rel − phi_rel0) + d·w_rel, phi_rel = flange_b.phi − flange_a.phi.

    c : [N·m/rad] spring constant, ≥ 0.   d : [N·m·s/rad] damping constant, ≥ 0.
    phi_rel0 : [rad] unstretched spring angle.
    useHeatPort : add ``heatPort``; the losses leave through it (blocks/heat_port.py).
    """

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    c: float = param(1.0e5, "N.m/rad", "spring constant")
    d: float = param(0.0, "N.m.s/rad", "damping constant")
    phi_rel0: float = param(0.0, "rad", "unstretched spring angle")
    useHeatPort: bool = False

    def __post_init__(self):
        as_scalars(self, "SpringDamper", "c", "d", "phi_rel0")
        self._make_flanges()
        self._make_heat_port()

    def validate(self) -> None:
        self._check_nonnegative(c=self.c, d=self.d)

    def potential(self, s_rel):
        return 0.5 * self.c * (s_rel - self.phi_rel0) ** 2

    def dissipation(self, w_rel):
        return 0.5 * self.d * w_rel ** 2


@dataclass(eq=False)
class TranslationalSpringDamper(ConditionalHeatPort, FlangeForce):
    """Linear spring and damper in parallel between translational flanges (MSL
    ``Translational.Components.SpringDamper``): f = c·(s_rel − s_rel0) + d·v_rel.

    c : [N/m] spring constant, ≥ 0.   d : [N·s/m] damping constant, ≥ 0.
    s_rel0 : [m] unstretched spring length.
    useHeatPort : add ``heatPort``; the losses leave through it (blocks/heat_port.py).
    """

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    c: float = param(1.0, "N/m", "spring constant")
    d: float = param(0.0, "N.s/m", "damping constant")
    s_rel0: float = param(0.0, "m", "unstretched spring length")
    useHeatPort: bool = False

    def __post_init__(self):
        as_scalars(self, "TranslationalSpringDamper", "c", "d", "s_rel0")
        self._make_flanges()
        self._make_heat_port()

    def validate(self) -> None:
        self._check_nonnegative(c=self.c, d=self.d)

    def potential(self, s_rel):
        return 0.5 * self.c * (s_rel - self.s_rel0) ** 2

    def dissipation(self, w_rel):
        return 0.5 * self.d * w_rel ** 2


@dataclass(eq=False)
class ElastoBacklash(ConditionalHeatPort, FlangeForce, Hybrid):
    """Backlash in series with a spring and damper in parallel (MSL
    ``Rotational.Components.ElastoBacklash``, same law): with φ = phi_rel − phi_rel0 and the
    half backlash b/2, no torque while |φ| ≤ b/2; in contact the spring torque
    tau_c = c·(φ ∓ b/2) and the damping torque tau_d = d·w_rel, bounded so that the element
    never pulls (tau = 0 where tau_c + tau_d would change sign) and |tau_d| ≤ |tau_c| (the
    torque is continuous at the start of contact). b ≤ 1e-10 rad is a plain SpringDamper.

    A guard restarts the integrator at contact and release (the MSL's state events).
    Not modelled: the MSL's modified characteristic during initialization (used only to
    solve for an initial angle; here initial angles are given or assembled).

    c : [N·m/rad] spring constant, > 0.   d : [N·m·s/rad] damping constant, ≥ 0.
    b : [rad] total backlash, ≥ 0.   phi_rel0 : [rad] unstretched spring angle.
    useHeatPort : add ``heatPort``; the losses leave through it (blocks/heat_port.py).
    """

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    c: float = param(1.0e5, "N.m/rad", "spring constant")
    d: float = param(0.0, "N.m.s/rad", "damping constant")
    b: float = param(0.0, "rad", "total backlash")
    phi_rel0: float = param(0.0, "rad", "unstretched spring angle")
    useHeatPort: bool = False

    def __post_init__(self):
        as_scalars(self, type(self).__name__, "c", "d", "b", "phi_rel0")
        self._make_flanges()
        self._make_heat_port()

    def validate(self) -> None:
        self._check_nonnegative(d=self.d, b=self.b)
        if not self.c > 0:
            raise ModelError(f"{self.path}: spring constant c must be positive (the MSL "
                             f"requires c > 0), got {self.c}")

    def _depth(self, s_rel):
        """φ beyond the backlash: φ − b/2 (> 0), φ + b/2 (< 0), or 0 inside; 0 half width
        when b ≤ bEps."""
        half = ca.if_else(ca.fabs(self.b) <= B_EPS, 0, self.b / 2)
        phi = s_rel - self.phi_rel0
        return ca.if_else(phi > half, phi - half, ca.if_else(phi < -half, phi + half, 0))

    def potential(self, s_rel):
        """½·c·(contact depth)² [J]: −∂V/∂s_rel is the spring part −tau_c."""
        return 0.5 * self.c * self._depth(s_rel) ** 2

    def transmitted(self, s_rel, w_rel):
        """The MSL's tau [N·m] (flange_b.tau)."""
        tau_c = self.c * self._depth(s_rel)
        tau_d = self.d * w_rel
        pushing = ca.if_else(tau_c + tau_d <= 0, 0, tau_c + ca.fmin(tau_c, tau_d))
        pulling = ca.if_else(tau_c + tau_d >= 0, 0, tau_c + ca.fmax(tau_c, tau_d))
        small = ca.fabs(self.b) <= B_EPS
        return ca.if_else(small, tau_c + tau_d,
                          ca.if_else(tau_c > 0, pushing, ca.if_else(tau_c < 0, pulling, 0)))

    def force(self, s_rel, w_rel, ctx):
        """The damping part of −tau on flange_b (``potential`` gives −tau_c)."""
        return -(self.transmitted(s_rel, w_rel) - self.c * self._depth(s_rel))

    def supplied_power(self, ctx):
        return 0    # the residual torque is the bounded damper's: dissipated_power

    def dissipated_power(self, ctx):
        """(tau − tau_c)·w_rel ≥ 0 [W] (the MSL's lossPower)."""
        a, b = ctx.flange(self.flange_a), ctx.flange(self.flange_b)
        w = b.w - a.w
        return -self.force(b.s - a.s, w, ctx) * w

    def guards(self, ctx):
        """Contact and release at both ends of the backlash (restarts of the integrator)."""
        a, b = ctx.flange(self.flange_a), ctx.flange(self.flange_b)
        phi = b.s - a.s - self.phi_rel0
        return [Guard("contact_forward", phi - self.b / 2, Direction.BOTH),
                Guard("contact_backward", phi + self.b / 2, Direction.BOTH)]


@dataclass(eq=False)
class ElastoBacklash2(ElastoBacklash):
    """Backlash in series with a spring and damper in parallel (MSL
    ``Rotational.Components.ElastoBacklash2``, same parameters and law): as ElastoBacklash,
    but in contact tau = tau_c + tau_d unbounded (0 where it would pull), so the torque jumps
    by d·w_rel at the start of contact. Guards restart the integrator at contact, release
    and where tau_c + tau_d changes sign (the MSL's events).

    c : [N·m/rad] spring constant, > 0.   d : [N·m·s/rad] damping constant, ≥ 0.
    b : [rad] total backlash, ≥ 0.   phi_rel0 : [rad] unstretched spring angle.
    useHeatPort : add ``heatPort``; the losses leave through it (blocks/heat_port.py).
    """

    def transmitted(self, s_rel, w_rel):
        """The MSL's tau [N·m] (flange_b.tau)."""
        tau_c = self.c * self._depth(s_rel)
        total = tau_c + self.d * w_rel
        small = ca.fabs(self.b) <= B_EPS
        return ca.if_else(small, total, ca.if_else(
            tau_c > 0, ca.fmax(total, 0), ca.if_else(tau_c < 0, ca.fmin(total, 0), 0)))

    def guards(self, ctx):
        """Contact and release at both ends of the backlash, and the sign of tau_c + tau_d
        in contact (where the torque is cut to 0)."""
        a, b = ctx.flange(self.flange_a), ctx.flange(self.flange_b)
        s_rel, w_rel = b.s - a.s, b.w - a.w
        push = self.c * self._depth(s_rel) + self.d * w_rel
        return super().guards(ctx) + [Guard("pulling", push, Direction.BOTH)]
