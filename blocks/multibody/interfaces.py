"""Contracts of the 3-D force elements (the MSL's ``MultiBody.Interfaces``) and the choice of
the frame in which vectors are resolved.

Two kinds, each with pure hooks (CasADi in, CasADi out):

* :class:`LineForce`, between the origins of ``frame_a`` and ``frame_b``: the force acts along
  the connecting line. Its relative position is the distance s = |r_b − r_a| [m] and its rate
  ṡ = e·(v_b − v_a), e = (r_b − r_a)/s, so it has the 1-D contract of a flange force element:
  a potential V(s), a dissipation function D(ṡ) (Rayleigh's) and a residual force f(s, ṡ)
  pushing frame_b away from frame_a. Optional point masses ride on the line (``masses``), and
  optional translational flanges (flange_a at 0, flange_b at s) let any 1-D element act along
  the line, as in the MSL's ``LineForceWithMass``.
* :class:`FrameForce`, forces and torques on frames given by signals: ``loads(ctx)`` returns,
  per frame port, the force f [N] at the frame's origin and the torque t [N·m], both in world
  coordinates. The solver projects them with the partial velocities (Jourdain) or takes their
  virtual work (Lagrange).
"""
from __future__ import annotations

from enum import Enum
from typing import ClassVar

import casadi as ca

from ..base import Component
from ..errors import ModelError
from ..ports import Flange, Frame, Motion

S_SMALL = 1e-10   # [m] below this distance the line direction e is taken as r/S_SMALL


class ResolveInFrame(Enum):
    """Frame in whose axes a vector signal is given or measured (the MSL's
    ``Types.ResolveInFrameA/B/AB``: world, frame_a, frame_b, frame_resolve)."""

    WORLD = "world"
    FRAME_A = "frame_a"
    FRAME_B = "frame_b"
    FRAME_RESOLVE = "frame_resolve"


def check_resolve(owner: str, value, allowed: tuple) -> ResolveInFrame:
    """``value`` as a ResolveInFrame member allowed for this component, or a ModelError."""
    if not isinstance(value, ResolveInFrame) or value not in allowed:
        names = ", ".join(f"ResolveInFrame.{m.name}" for m in allowed)
        raise ModelError(f"{owner}: resolveInFrame must be one of {names}, got {value!r}")
    return value


def make_resolve_port(component, resolve: ResolveInFrame) -> None:
    """frame_resolve exists only when vectors are resolved in it (Modelica's conditional
    connector), so an unused one never dangles."""
    if resolve is ResolveInFrame.FRAME_RESOLVE:
        component.frame_resolve = Frame(component, "frame_resolve")


def resolve_rotation(component, ctx, resolve: ResolveInFrame):
    """Rotation matrix from the axes named by ``resolve`` to world axes."""
    if resolve is ResolveInFrame.WORLD:
        return ca.DM.eye(3)
    port = {ResolveInFrame.FRAME_A: "frame_a", ResolveInFrame.FRAME_B: "frame_b",
            ResolveInFrame.FRAME_RESOLVE: "frame_resolve"}[resolve]
    return ctx.frame(getattr(component, port)).R


class LineForce(Component):
    """Contract of a line force element: ``frame_a``, ``frame_b`` and the hooks below."""

    FLANGES: ClassVar[bool] = False   # flange_a (at 0) and flange_b (at s) along the line

    def _make_ports(self) -> None:
        self.frame_a = Frame(self, "frame_a")
        self.frame_b = Frame(self, "frame_b")
        if self.FLANGES:
            self.flange_a = Flange(self, "flange_a", Motion.TRANSLATIONAL)
            self.flange_b = Flange(self, "flange_b", Motion.TRANSLATIONAL)

    def potential(self, s):
        """Potential energy V(s) [J] of the distance s [m]."""
        return 0

    def dissipation(self, v):
        """Dissipation function D(ṡ) [W]; the force along the line is −∂D/∂ṡ."""
        return 0

    def force(self, s, v, ctx):
        """Residual force [N] on frame_b along e (pushing frame_b away from frame_a)."""
        return 0

    def supplied_power(self, ctx):
        """The power of the residual force, f·ṡ [W]: a source unless the element says
        otherwise (as for 1-D elements, FlangeForce.supplied_power)."""
        a, b = ctx.frame(self.frame_a), ctx.frame(self.frame_b)
        r = b.r - a.r
        s = ca.sqrt(ca.dot(r, r))
        v = ca.dot(r / ca.fmax(s, S_SMALL), b.v - a.v)
        return self.force(s, v, ctx) * v

    def masses(self, r_a, r_b, e) -> list:
        """Point masses on the line: [(m [kg], position [m] in world coordinates)]."""
        return []

    def _check_nonnegative(self, **values) -> None:
        for name, value in values.items():
            if not value >= 0:
                raise ModelError(f"{self.path}: {name} must be non-negative, got {value}")


class FrameForce(Component):
    """Contract of a force/torque element on frames: ``loads(ctx)``."""

    def loads(self, ctx) -> dict:
        """{frame port: (f, t)}: force f [N] at the port frame's origin and torque t [N·m],
        both in world coordinates, as CasADi 3-vectors."""
        raise NotImplementedError

    def supplied_power(self, ctx):
        """Σ f·v + t·ω over the loaded frames [W] (v: the origin's velocity, ω: the angular
        velocity, world coordinates): the power the forces and torques deliver."""
        total = 0
        for port, (f, t) in self.loads(ctx).items():
            frame = ctx.frame(port)
            total += ca.dot(ca.SX(f), frame.v) + ca.dot(ca.SX(t), frame.w)
        return total


class Mount(Component):
    """Contract of a 1-D support fixed in a 3-D frame (the MSL's ``Mounting1D``): ``frame_a``,
    ``flange_b`` and ``support_position()``, the constant position of flange_b [rad or m]."""

    def support_position(self):
        raise NotImplementedError
