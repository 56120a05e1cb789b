"""MSL ``Rotational.Components.FreeWheel``: an ideal freewheel, a unilateral constraint on
the relative speed of two flanges (on the hybrid contract of :mod:`.base`).

The MSL models it like an ideal diode with the relative speed w_rel = w_a − w_b and the
torque tau = flange_a.tau: ``free`` while w_rel ≤ 0 (flange_b overruns; only the residual
torque wRes·w_rel acts), locked while flange_a drives (tau ≥ 0, w_rel = tauRes·tau, a residual
slip). Here the lock is rigid (tauRes = 0): locked, w_rel = 0 is a constraint whose force is
tau; it releases when tau would turn negative (flange_a would pull flange_b back) and locks
again when w_rel rises to 0 (flange_a catches up). So there is no stiff regularization
(the MSL's 1/tauRes = 1e5 N·m·s/rad) to integrate, and the locked speeds are equal.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..base import as_scalar, param
from ..errors import ModelError
from ..forces import FlangeForce
from ..ports import Motion
from .base import Direction, Discrete, Guard, Hybrid, Row
from .friction import SPEED_TOL


@dataclass(eq=False)
class FreeWheel(FlangeForce, Hybrid):
    """Ideal freewheel between ``flange_a`` and ``flange_b`` (MSL
    ``Rotational.Components.FreeWheel``): locked while flange_a drives flange_b forward
    (tau = flange_a.tau ≥ 0), free while flange_b overruns (w_rel = w_a − w_b ≤ 0). The Result
    shows ``<path>.tau`` (the MSL's tau) and ``<path>.free`` (1 freewheeling, 0 locked).

    wRes : [N·m·s/rad] residual torque coefficient while free (tau = wRes·w_rel), ≥ 0; MSL
        default 1e-5.
    tauRes : must stay 0: the lock is rigid (the MSL's residual slip w_rel = tauRes·tau is
        the regularization this element does without).
    """

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    DISCRETE: ClassVar = (Discrete("free", 0, "1 freewheeling (flange_b overruns), 0 locked",
                                   (0, 1)),)
    wRes: float = param(1e-5, "N.m.s/rad", "residual torque coefficient while free")
    tauRes: float = 0.0

    def __post_init__(self):
        self.wRes = as_scalar(self.wRes, "FreeWheel", "wRes")
        if as_scalar(self.tauRes, "FreeWheel", "tauRes") != 0:
            raise ModelError(f"FreeWheel: tauRes = {self.tauRes} is not supported: the lock is "
                             "rigid here (the MSL's residual slip tauRes·tau is a stiff "
                             "regularization this element does without); leave tauRes at 0")
        self._make_flanges()

    def validate(self) -> None:
        self._check_nonnegative(wRes=self.wRes)

    def _overrun(self, ctx):
        """w_b − w_a = −w_rel: ≥ 0 is the free side (the impact solver's opening direction)."""
        return ctx.flange(self.flange_b).w - ctx.flange(self.flange_a).w

    def rows(self, ctx):
        free = ctx.discrete(self)["free"]
        overrun = self._overrun(ctx)
        # λ acts on flange_b along w_b − w_a (−λ on flange_a): the MSL's tau = −flange_b.tau
        # = λ, ≥ 0 while locked (pushing); free, tau = wRes·w_rel = −wRes·overrun
        return [Row("tau", overrun, 1 - free, -self.wRes * overrun * free)]

    def guards(self, ctx):
        return [Guard("release", ctx.multiplier(self, "tau"), Direction.FALLING,
                      {"free": (0,)}),
                Guard("lock", self._overrun(ctx), Direction.FALLING, {"free": (1,)})]

    def on_event(self, guard, state):
        state.set(self, free=1 if guard == "release" else 0)

    def initialize(self, state):
        overrun = state.row(self, "tau").velocity
        if overrun < -SPEED_TOL:
            # started with flange_a faster: it takes flange_b along at once, a plastic impact
            # (momentum kept, the kinetic energy it takes in the event log)
            state.set(self, free=0)
            state.impact(self, "tau", restitution=0.0)
        else:
            state.set(self, free=1 if overrun > SPEED_TOL else 0)

    def after_impact(self, state):
        state.set(self, free=0)

    def settle(self, state):
        """Locked but pulling (tau < 0): free; free with flange_a catching up at w_rel = 0
        and accelerating past flange_b: locked."""
        row = state.row(self, "tau")
        if round(state.discrete(self)["free"]) == 0:
            if row.force < -1e-10 * (1 + abs(row.force)):
                state.set(self, free=1)
                return True
            return False
        if row.velocity <= SPEED_TOL and row.acceleration < 0:
            state.set(self, free=0)
            return True
        return False
