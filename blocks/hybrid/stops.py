"""Hard stops on a flange pair (joint limits) and MSL's elastic gap.

``Stop`` limits s_rel = s_b − s_a (connect flange_b to a joint's ``axis``; flange_a left free
is the joint's own reference, as with every force element): lower ≤ s_rel ≤ upper, either
rigid (impacts with Newton's restitution, then resting contact as a constraint) or compliant
(a Hunt–Crossley contact force). ``ElastoGap`` is the Modelica Standard Library's
spring–damper that can lift off (Translational.Components.ElastoGap, same names).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import ClassVar

import casadi as ca
import numpy as np

from ..base import as_scalar, as_scalars, param
from ..errors import ModelError
from ..forces import FlangeForce
from ..heat_port import ConditionalHeatPort
from .base import Direction, Discrete, Guard, Hybrid, Row

GAP_TOL = 1e-9       # [m or rad] a gap this small counts as closed
SPEED_TOL = 1e-9     # [m/s or rad/s] a speed this small counts as zero
TIE_TOL = 1e-9       # [N or N·m, m/s² or rad/s²] forces and accelerations this small are zero
# a rigid stop takes the load before a stuck friction on the same motion (their split is
# indeterminate; the solver splits it in inverse proportion to the rows' compliances)
STOP_COMPLIANCE = 1e-14


class StopMode(IntEnum):
    """Contact state of a Stop."""

    LOWER = -1   # resting against the lower limit (a constraint)
    FREE = 0
    UPPER = 1    # resting against the upper limit


class StopLaw(Enum):
    """How a Stop acts at its limits."""

    RIGID = "rigid"          # impacts (restitution e), resting contact as a constraint
    COMPLIANT = "compliant"  # Hunt–Crossley force c·δⁿ·(1 + d·δ̇), no impacts


def _limit(value, name: str) -> float:
    try:
        num = float(value)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"Stop: {name} must be a number, got {value!r}") from exc
    if np.isnan(num):
        raise ModelError(f"Stop: {name} must not be NaN")
    return num


def check_restitution(e, owner: str) -> float:
    """Newton's coefficient of restitution: a number in [0, 1], or a ModelError."""
    value = as_scalar(e, owner, "restitution e")
    if not 0.0 <= value <= 1.0:
        raise ModelError(f"{owner}: the coefficient of restitution e must lie in [0, 1], got "
                         f"{value} (0: plastic, 1: elastic)")
    return value


@dataclass(eq=False)
class Stop(FlangeForce, Hybrid):
    """Hard stop (joint limit) lower ≤ s_rel ≤ upper on s_rel = s_b − s_a [rad or m].

    law : StopLaw.RIGID (default) or StopLaw.COMPLIANT.
    e : [1] Newton's coefficient of restitution of a rigid stop (v⁺ = −e·v⁻), in [0, 1].
    v_rest : [m/s or rad/s] a rigid stop whose rebound speed is below v_rest stays in contact
        (resting contact: the limit becomes a constraint until its reaction would pull).
    c : [N/mⁿ or N·m/radⁿ] contact stiffness, d : [s/m or s/rad] Hunt–Crossley damping,
        n : [1] exponent of a compliant stop: force c·δⁿ·(1 + d·δ̇) ≥ 0 at penetration δ.
    Either limit may be ±inf (a one-sided stop). Results: ``<path>.lower`` / ``.upper`` are
    the reaction forces of a rigid stop; ``<path>.mode`` its StopMode.
    """

    lower: float = -np.inf
    upper: float = np.inf
    law: StopLaw = StopLaw.RIGID
    e: float = param(0.0, "1", "coefficient of restitution")
    v_rest: float = param(1e-3, "m/s", "rebound speed below which contact persists")
    c: float = param(1e6, "N/m", "contact stiffness (compliant law)")
    d: float = param(0.0, "s/m", "Hunt–Crossley damping (compliant law)")
    n: float = param(1.0, "1", "exponent of the contact stiffness (compliant law)")
    DISCRETE: ClassVar = (Discrete("mode", StopMode.FREE, "contact state (StopMode)",
                                   tuple(StopMode)),)

    def __post_init__(self):
        self.lower, self.upper = _limit(self.lower, "lower"), _limit(self.upper, "upper")
        if not self.lower <= self.upper:
            raise ModelError(f"Stop: lower limit ({self.lower}) exceeds upper limit "
                             f"({self.upper})")
        if not isinstance(self.law, StopLaw):
            raise ModelError(f"Stop: law must be a StopLaw, got {self.law!r}")
        self.e = check_restitution(self.e, "Stop")
        as_scalars(self, "Stop", "v_rest", "c", "d", "n")
        self._make_flanges()

    def validate(self) -> None:
        self._check_nonnegative(v_rest=self.v_rest, c=self.c, d=self.d)
        if not self.n >= 1:
            raise ModelError(f"{self.path}: exponent n must be ≥ 1, got {self.n}")
        check_restitution(self.e, self.path)     # again: params= may change it at run time
        if self.law is StopLaw.COMPLIANT and not self.c > 0:
            raise ModelError(f"{self.path}: a compliant stop needs a stiffness c > 0, got "
                             f"{self.c} (with c = 0 nothing holds the limit)")

    def _sides(self):
        """(name, limit, sign) of the finite limits: sign = +1 where the stop pushes +s."""
        return [(name, lim, sign) for name, lim, sign in
                (("lower", self.lower, 1.0), ("upper", self.upper, -1.0)) if np.isfinite(lim)]

    def _relative(self, ctx):
        a, b = ctx.flange(self.flange_a), ctx.flange(self.flange_b)
        return b.s - a.s, b.w - a.w

    def potential(self, s_rel):
        """The compliant law's spring energy Σ c·δⁿ⁺¹/(n + 1) [J] (the force's elastic part
        c·δⁿ = −∂V/∂s); a rigid stop stores none."""
        if self.law is StopLaw.RIGID:
            return 0
        return sum((self.c * ca.fmax(sign * (lim - s_rel), 0) ** (self.n + 1) / (self.n + 1)
                    for _, lim, sign in self._sides()), 0)

    def force(self, s_rel, w_rel, ctx):
        """The compliant law's damping part: c·δⁿ·(1 + d·δ̇) bounded to ≥ 0, less the
        elastic part c·δⁿ that ``potential`` gives."""
        if self.law is StopLaw.RIGID:
            return 0
        total = 0
        for _, lim, sign in self._sides():
            depth = sign * (lim - s_rel)          # penetration δ ≥ 0 inside the limit
            rate = -sign * w_rel
            spring = self.c * ca.fmax(depth, 0) ** self.n
            push = spring * (1 + self.d * rate)
            total += sign * ca.if_else(depth > 0, ca.fmax(push, 0) - spring, 0)
        return total

    def supplied_power(self, ctx):
        return 0    # the residual force is the contact's damping: dissipated_power

    def dissipated_power(self, ctx):
        s, w = self._relative(ctx)
        return -self.force(s, w, ctx) * w

    def rows(self, ctx):
        if self.law is not StopLaw.RIGID:
            return []
        s, w = self._relative(ctx)
        mode = ctx.discrete(self)["mode"]
        return [Row(name, sign * w, mode == (StopMode.LOWER if sign > 0 else StopMode.UPPER),
                    gap=sign * (s - lim), unilateral=True, compliance=STOP_COMPLIANCE)
                for name, lim, sign in self._sides()]

    def guards(self, ctx):
        s, _ = self._relative(ctx)
        if self.law is StopLaw.COMPLIANT:  # restart the integrator where the force law kinks
            return [Guard(f"contact_{name}", sign * (s - lim), Direction.BOTH)
                    for name, lim, sign in self._sides()]
        out = []
        for name, lim, sign in self._sides():
            held = StopMode.LOWER if sign > 0 else StopMode.UPPER
            out += [Guard(f"hit_{name}", sign * (s - lim), Direction.FALLING,
                          {"mode": (StopMode.FREE,)}),
                    Guard(f"leave_{name}", ctx.multiplier(self, name), Direction.FALLING,
                          {"mode": (held,)})]
        return out

    def monitors(self, ctx):
        return {"e": self.e, "v_rest": self.v_rest}

    def on_event(self, guard, state):
        if guard.startswith("hit_"):
            state.impact(self, guard[4:], restitution=state.monitor(self, "e"))
        elif guard.startswith("leave_"):
            state.set(self, mode=StopMode.FREE)

    def after_impact(self, state):
        for name, _, sign in self._sides():
            row = state.row(self, name)
            if row.gap <= GAP_TOL and row.velocity <= state.monitor(self, "v_rest"):
                state.set(self, mode=StopMode.LOWER if sign > 0 else StopMode.UPPER)
                return
        state.set(self, mode=StopMode.FREE)

    def set_row(self, state, row, closed):
        held = StopMode.LOWER if row == "lower" else StopMode.UPPER
        mode = round(state.discrete(self)["mode"])
        if closed and mode == StopMode.FREE:
            state.set(self, mode=held)
        elif not closed and mode == held:
            state.set(self, mode=StopMode.FREE)

    def settle(self, state):
        if self.law is not StopLaw.RIGID:
            return False
        mode = round(state.discrete(self)["mode"])
        for name, _, sign in self._sides():
            held = StopMode.LOWER if sign > 0 else StopMode.UPPER
            row = state.row(self, name)
            # zero force with zero acceleration is a tie, not a reason to switch: a joint held
            # by a stuck friction at its limit would flip the stop open and closed forever
            if mode == held and row.force < -TIE_TOL:   # the reaction would pull: lift off
                state.set(self, mode=StopMode.FREE)
                return True
            if mode == StopMode.FREE and row.gap <= GAP_TOL and row.velocity < -SPEED_TOL:
                self.on_event(f"hit_{name}", state)   # at the limit and approaching (a start
                return True                           # there): an impact, as a crossing would
            if mode == StopMode.FREE and row.gap <= GAP_TOL and \
                    row.velocity <= SPEED_TOL and row.acceleration < -TIE_TOL:
                state.set(self, mode=held)          # resting at the limit and pushed into it
                return True
        return False


@dataclass(eq=False)
class ElastoGap(ConditionalHeatPort, FlangeForce, Hybrid):
    """Spring–damper that acts only in contact, s_rel = s_b − s_a < s_rel0 (MSL
    Translational.Components.ElastoGap, same parameters and law): f_c = −c·|s_rel − s_rel0|ⁿ,
    f_d = d·v_rel bounded to |f_d| ≤ |f_c|, MSL's cut force f = f_c + f_d (the force on the
    part at flange_b is −f: it only pushes and is continuous at contact); a guard restarts the
    integrator at contact and release.

    c : [N/m] spring constant, d : [N·s/m] damping constant, s_rel0 : [m] unstretched length,
    n : [1] exponent of the spring force (1.5 for Hertzian sphere contact).
    useHeatPort : add ``heatPort``; the losses leave through it (blocks/heat_port.py).
    """

    c: float = param(1.0, "N/m", "spring constant")
    d: float = param(1.0, "N.s/m", "damping constant")
    s_rel0: float = param(0.0, "m", "unstretched spring length")
    n: float = param(1.0, "1", "exponent of the spring force")
    useHeatPort: bool = False
    # a compliant contact (Component.stiff): Method.AUTO's stiffness test at the start sees
    # its spring and damper only if it starts closed, so the choice followed the start and
    # the horizon — MSL PreLoad (contacts of 1e6 N/m on 10 g plates) ran Adams for 100 s
    # (48 s CPU) and BDF for 40 s (0.2 s CPU); declared, it runs BDF (100 s: 0.3 s CPU)
    stiff = True

    def __post_init__(self):
        as_scalars(self, "ElastoGap", "c", "d", "s_rel0", "n")
        self._make_flanges()
        self._make_heat_port()

    def validate(self) -> None:
        self._check_nonnegative(c=self.c, d=self.d)
        if not self.n >= 1:
            raise ModelError(f"{self.path}: exponent n must be ≥ 1, got {self.n}")

    def potential(self, s_rel):
        """The spring's energy c·δⁿ⁺¹/(n + 1) in contact (δ = s_rel0 − s_rel > 0) [J]: its
        force −f_c = c·δⁿ is −∂V/∂s_rel."""
        return self.c * ca.fmax(self.s_rel0 - s_rel, 0) ** (self.n + 1) / (self.n + 1)

    def force(self, s_rel, w_rel, ctx):
        """The damping part −f_d of MSL's force −(f_c + f_d) on flange_b (``potential``
        gives −f_c)."""
        depth = self.s_rel0 - s_rel
        f_c = -self.c * ca.fabs(depth) ** self.n
        f_d = ca.fmin(ca.fmax(self.d * w_rel, f_c), -f_c)
        return ca.if_else(depth > 0, -f_d, 0)

    def supplied_power(self, ctx):
        return 0    # the residual force is the damper's: dissipated_power

    def dissipated_power(self, ctx):
        """f_d·w_rel ≥ 0 (f_d has the sign of w_rel) [W]."""
        a, b = ctx.flange(self.flange_a), ctx.flange(self.flange_b)
        w = b.w - a.w
        return -self.force(b.s - a.s, w, ctx) * w

    def guards(self, ctx):
        a, b = ctx.flange(self.flange_a), ctx.flange(self.flange_b)
        return [Guard("contact", self.s_rel0 - (b.s - a.s), Direction.BOTH)]
