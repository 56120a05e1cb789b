"""3-D force elements (the MSL's ``MultiBody.Forces``; names and parameter names as there).

Line forces between two frames' origins: :class:`Spring`, :class:`Damper`,
:class:`SpringDamperParallel`, :class:`SpringDamperSeries` (a state of its own: the damper's
length), :class:`LineForceWithMass`, :class:`LineForceWithTwoMasses` (contract
:class:`.interfaces.LineForce`: V(s), D(ṡ), point masses on the line).
Forces and torques from signals: :class:`ForceAndTorque`, :class:`Force`, :class:`Torque`
between two frames, :class:`WorldForce`, :class:`WorldTorque` on one frame (contract
:class:`.interfaces.FrameForce`). Geometry used only for pictures (``width``,
``coilWidth``, ``numberOfWindings``) is kept as plain attributes for the visual wing.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from ..base import as_scalars, param
from ..errors import ModelError
from ..heat_port import ConditionalHeatPort
from ..ports import Frame, RealInput
from .interfaces import (
    FrameForce,
    LineForce,
    ResolveInFrame,
    check_resolve,
    make_resolve_port,
    resolve_rotation,
)


@dataclass(eq=False)
class Spring(LineForce):
    """Linear spring between the origins of frame_a and frame_b (MSL ``Forces.Spring``):
    V = ½·c·(s − s_unstretched)², force −c·(s − s_unstretched) along the line.

    c : [N/m] spring constant, ≥ 0.   s_unstretched : [m] unstretched length, ≥ 0.
    m : [kg] optional spring mass, a point mass on the line at lengthFraction·s from
        frame_a (0 ≤ lengthFraction ≤ 1), as in the MSL.
    """

    c: float = param(1.0, "N/m", "spring constant")
    s_unstretched: float = param(0.0, "m", "unstretched spring length")
    m: float = param(0.0, "kg", "spring mass located on the line")
    lengthFraction: float = param(0.5, "1", "location of the mass from frame_a (fraction of s)")
    width: float = 0.02
    coilWidth: float = 0.002
    numberOfWindings: int = 5

    def __post_init__(self):
        as_scalars(self, "Spring", "c", "s_unstretched", "m", "lengthFraction")
        self._make_ports()

    def validate(self) -> None:
        self._check_nonnegative(c=self.c, s_unstretched=self.s_unstretched, m=self.m)
        _check_fraction(self, self.lengthFraction)

    def potential(self, s):
        return 0.5 * self.c * (s - self.s_unstretched) ** 2

    def masses(self, r_a, r_b, e) -> list:
        return _mass_on_line(self.m, r_a + self.lengthFraction * (r_b - r_a))


@dataclass(eq=False)
class Damper(ConditionalHeatPort, LineForce):
    """Linear damper between the origins of frame_a and frame_b (MSL ``Forces.Damper``):
    D = ½·d·ṡ², force −d·ṡ along the line.

    d : [N·s/m] damping constant, ≥ 0.
    useHeatPort : add ``heatPort``; the losses leave through it (blocks/heat_port.py).
    """

    d: float = param(0.0, "N.s/m", "damping constant")
    useHeatPort: bool = False

    def __post_init__(self):
        as_scalars(self, "Damper", "d")
        self._make_ports()
        self._make_heat_port()

    def validate(self) -> None:
        self._check_nonnegative(d=self.d)

    def dissipation(self, v):
        return 0.5 * self.d * v ** 2


@dataclass(eq=False)
class SpringDamperParallel(ConditionalHeatPort, LineForce):
    """Spring and damper in parallel between two frames' origins (MSL
    ``Forces.SpringDamperParallel``): V = ½·c·(s − s_unstretched)², D = ½·d·ṡ².

    c : [N/m] ≥ 0.   d : [N·s/m] ≥ 0.   s_unstretched : [m] ≥ 0.
    useHeatPort : add ``heatPort``; the losses leave through it (blocks/heat_port.py).
    """

    c: float = param(1.0, "N/m", "spring constant")
    d: float = param(0.0, "N.s/m", "damping constant")
    s_unstretched: float = param(0.0, "m", "unstretched spring length")
    width: float = 0.02
    coilWidth: float = 0.002
    numberOfWindings: int = 5
    useHeatPort: bool = False

    def __post_init__(self):
        as_scalars(self, "SpringDamperParallel", "c", "d", "s_unstretched")
        self._make_ports()
        self._make_heat_port()

    def validate(self) -> None:
        self._check_nonnegative(c=self.c, d=self.d, s_unstretched=self.s_unstretched)

    def potential(self, s):
        return 0.5 * self.c * (s - self.s_unstretched) ** 2

    def dissipation(self, v):
        return 0.5 * self.d * v ** 2


@dataclass(eq=False)
class SpringDamperSeries(ConditionalHeatPort, LineForce):
    """Linear spring and linear damper in series between two frames' origins (MSL
    ``Forces.SpringDamperSeries``): frame_a — damper — spring — frame_b, with the damper's
    length ``s_damper`` a state of the element (``<path>.s_damper``, start s_damper_start):
    the tension f = c·(s − s_unstretched − s_damper) pulls the frames together and
    d·der(s_damper) = f.

    c : [N/m] > 0.   d : [N·s/m] > 0 (with d = 0 the damper's length has no equation; use a
    Spring).   s_unstretched : [m] ≥ 0.   s_damper_start : [m] initial damper length.

    Energy: the spring's ½·c·(s − s_unstretched − s_damper)² depends on both the distance
    and the state, which the split T + V(y) + W(states) of the energy cannot hold, so the
    element's power −f·ṡ is counted as supplied (``power.supplied``); it equals
    −d/dt(½·f²/c) − f²/d.
    useHeatPort : add ``heatPort``; the losses leave through it (lossPower = f²/d, the damper's).
    """

    STATES = ("s_damper",)
    c: float = param(1.0, "N/m", "spring constant")
    s_unstretched: float = param(0.0, "m", "unstretched spring length")
    d: float = param(1.0, "N.s/m", "damping constant")
    s_damper_start: float = param(0.0, "m", "initial length of the damper")
    width: float = 0.02
    coilWidth: float = 0.002
    numberOfWindings: int = 5
    useHeatPort: bool = False

    def __post_init__(self):
        as_scalars(self, "SpringDamperSeries", "c", "s_unstretched", "d", "s_damper_start")
        self._make_ports()
        self._make_heat_port()

    def validate(self) -> None:
        self._check_nonnegative(s_unstretched=self.s_unstretched)
        for name in ("c", "d"):
            if not getattr(self, name) > 0:
                raise ModelError(f"{self.path}: {name} must be positive, got "
                                 f"{getattr(self, name)} (a series damper without damping "
                                 "has no equation for its length; use a Spring)")

    def start(self) -> list:
        return [self.s_damper_start]

    def _tension(self, ctx, s=None):
        if s is None:
            a, b = ctx.frame(self.frame_a), ctx.frame(self.frame_b)
            r = b.r - a.r
            s = ca.sqrt(ca.dot(r, r))
        return self.c * (s - self.s_unstretched - ctx.state(self)[0])

    def force(self, s, v, ctx):
        return -self._tension(ctx, s)

    def derivatives(self, ctx) -> list:
        return [self._tension(ctx) / self.d]

    def loss_power(self, ctx):
        """The damper's d·der(s_damper)² = f²/d [W]."""
        return self._tension(ctx) ** 2 / self.d


@dataclass(eq=False)
class LineForceWithMass(LineForce):
    """A line force given by 1-D elements on its flanges (MSL ``Forces.LineForceWithMass``):
    flange_a sits at 0 and flange_b at the distance s, so a translational spring, damper or
    force between them acts along the line; a point mass m rides at lengthFraction·s.

    m : [kg] ≥ 0.   lengthFraction : [1] in [0, 1].
    """

    FLANGES = True
    m: float = param(1.0, "kg", "mass of the point mass on the line")
    lengthFraction: float = param(0.5, "1", "location of the mass from frame_a (fraction of s)")

    def __post_init__(self):
        as_scalars(self, "LineForceWithMass", "m", "lengthFraction")
        self._make_ports()

    def validate(self) -> None:
        self._check_nonnegative(m=self.m)
        _check_fraction(self, self.lengthFraction)

    def masses(self, r_a, r_b, e) -> list:
        return _mass_on_line(self.m, r_a + self.lengthFraction * (r_b - r_a))


@dataclass(eq=False)
class LineForceWithTwoMasses(LineForce):
    """A line force given by 1-D elements on its flanges with two point masses on the line
    (MSL ``Forces.LineForceWithTwoMasses``, e.g. the two halves of a hydraulic cylinder):
    m_a at the distance L_a from frame_a, m_b at L_b from frame_b.

    m_a, m_b : [kg] ≥ 0.   L_a, L_b : [m] ≥ 0.
    """

    FLANGES = True
    m_a: float = param(1.0, "kg", "mass of the point mass near frame_a")
    m_b: float = param(1.0, "kg", "mass of the point mass near frame_b")
    L_a: float = param(0.0, "m", "distance of m_a from frame_a")
    L_b: float = param(0.0, "m", "distance of m_b from frame_b")

    def __post_init__(self):
        as_scalars(self, "LineForceWithTwoMasses", "m_a", "m_b", "L_a", "L_b")
        self._make_ports()

    def validate(self) -> None:
        self._check_nonnegative(m_a=self.m_a, m_b=self.m_b, L_a=self.L_a, L_b=self.L_b)

    def masses(self, r_a, r_b, e) -> list:
        return _mass_on_line(self.m_a, r_a + self.L_a * e) + \
            _mass_on_line(self.m_b, r_b - self.L_b * e)


def _mass_on_line(m, position) -> list:
    """[(m, position)], or [] for a numeric zero mass (no point mass at all)."""
    if isinstance(m, (int, float)) and m == 0:
        return []
    return [(m, position)]


def _check_fraction(element, fraction) -> None:
    if not 0 <= fraction <= 1:
        raise ModelError(f"{element.path}: lengthFraction must lie in [0, 1], got {fraction}")


class ForceAndTorque(FrameForce):
    """Force and torque between two frames from signals (MSL ``Forces.ForceAndTorque``).

    Inputs ``force`` [N] and ``torque`` [N·m] (3-vectors) are resolved in the axes of
    ``resolveInFrame`` (default frame_b; WORLD, FRAME_A, FRAME_B or FRAME_RESOLVE, which adds
    a ``frame_resolve`` port). They act on frame_b at its origin; frame_a receives −force and
    −torque − r_ab × force (r_ab from frame_a's to frame_b's origin), as in the MSL.
    """

    HAS_FORCE, HAS_TORQUE = True, True
    ALLOWED = (ResolveInFrame.WORLD, ResolveInFrame.FRAME_A, ResolveInFrame.FRAME_B,
               ResolveInFrame.FRAME_RESOLVE)

    def __init__(self, resolveInFrame: ResolveInFrame = ResolveInFrame.FRAME_B):
        self.resolveInFrame = check_resolve(type(self).__name__, resolveInFrame, self.ALLOWED)
        self.frame_a = Frame(self, "frame_a")
        self.frame_b = Frame(self, "frame_b")
        make_resolve_port(self, self.resolveInFrame)
        if self.HAS_FORCE:
            self.force = RealInput(self, "force", 3)
        if self.HAS_TORQUE:
            self.torque = RealInput(self, "torque", 3)

    def _vectors(self, ctx):
        R = resolve_rotation(self, ctx, self.resolveInFrame)
        f = ca.mtimes(R, ctx.value(self.force)) if self.HAS_FORCE else ca.SX.zeros(3)
        t = ca.mtimes(R, ctx.value(self.torque)) if self.HAS_TORQUE else ca.SX.zeros(3)
        return f, t

    def loads(self, ctx) -> dict:
        f, t = self._vectors(ctx)
        r_ab = ctx.frame(self.frame_b).r - ctx.frame(self.frame_a).r
        return {self.frame_b: (f, t), self.frame_a: (-f, -t - ca.cross(r_ab, f))}


class Force(ForceAndTorque):
    """Force between two frames from the signal ``force`` [N] (MSL ``Forces.Force``); see
    :class:`ForceAndTorque` for the resolution and the reaction on frame_a."""

    HAS_TORQUE = False


class Torque(ForceAndTorque):
    """Torque between two frames from the signal ``torque`` [N·m] (MSL ``Forces.Torque``):
    +torque on frame_b, −torque on frame_a."""

    HAS_FORCE = False


class WorldForce(ForceAndTorque):
    """External force ``force`` [N] on the origin of frame_b, reaction in the world (MSL
    ``Forces.WorldForce``); resolved in WORLD (default), FRAME_B or FRAME_RESOLVE axes."""

    HAS_TORQUE = False
    ALLOWED = (ResolveInFrame.WORLD, ResolveInFrame.FRAME_B, ResolveInFrame.FRAME_RESOLVE)

    def __init__(self, resolveInFrame: ResolveInFrame = ResolveInFrame.WORLD):
        self.resolveInFrame = check_resolve(type(self).__name__, resolveInFrame, self.ALLOWED)
        self.frame_b = Frame(self, "frame_b")
        make_resolve_port(self, self.resolveInFrame)
        if self.HAS_FORCE:
            self.force = RealInput(self, "force", 3)
        if self.HAS_TORQUE:
            self.torque = RealInput(self, "torque", 3)

    def loads(self, ctx) -> dict:
        return {self.frame_b: self._vectors(ctx)}


class WorldTorque(WorldForce):
    """External torque ``torque`` [N·m] on frame_b, reaction in the world (MSL
    ``Forces.WorldTorque``)."""

    HAS_FORCE, HAS_TORQUE = False, True


class WorldForceAndTorque(WorldForce):
    """External force [N] at frame_b's origin and torque [N·m] on frame_b (MSL
    ``Forces.WorldForceAndTorque``)."""

    HAS_FORCE, HAS_TORQUE = True, True
