"""The Zeno limit of the event loop: impacts that accumulate (docs/hybrid.md, "Zeno").

A ball dropped from h on a rigid floor with restitution e < 1 bounces at
t_{k+1} = t_k + 2·e^k·v_0/g: the flights shrink geometrically and the impacts accumulate at
t∞ = t_1 + 2·e·v_0/g/(1 − e), after which the ball rests (the classical Zeno limit; Lygeros,
Johansson, Simić, Zhang and Sastry, *Dynamical properties of hybrid automata*, IEEE TAC 48,
2003). An event loop cannot run through infinitely many events: once the guard rises during a
flight by no more than the loop's zero band
(AT_EVENT·scale, the level at which the loop itself counts a guard as at zero after an
event), the next crossing is not resolved. Before this change such bounces went on with the
crossing band's delay feeding energy in (a cycle of flights 6e-7 s long, the penetration
growing by 1e-13 m per bounce) until the guard started below the band and the ball fell
through the floor: −639 m after 20 s for e = 0.9 and v_rest = 0.

At that point the loop decides:

* an element's guard that asks for an impact (a rigid Stop, a GroundContact): the rest of
  the series is taken as one plastic impact (e = 0) and the element's own rules close the
  contact (persistent contact mode); the record says "Zeno limit" and the predicted t∞;
* a user Event with a reset (a bounce written as a reset): a ChatteringError naming the
  event, the time, the predicted t∞ and what to do — a reset cannot come to rest;
* an element guard that is still watched after the plastic impact (it did not close):
  a ChatteringError naming it.

The flight's rise is estimated as max(|ġ⁺|, |ġ⁻|)·Δ/4 (exact for a parabola: the rise
v²/(2a) with Δ = 2v/a), ġ⁺ the guard's rate just after its last firing and ġ⁻ at this
crossing (exact derivatives along ẋ = f); flights longer than max(event_step,
1e-3·horizon) are never taken for Zeno (a guard grazing zero after a long excursion).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from ..hybrid.state import ChatteringError


@dataclass
class Zeno:
    """One guard found in its Zeno limit at an event."""

    slot: int
    label: str
    interval: float          # [s] time since the guard last fired
    rise: float              # estimated rise of the guard during that flight
    t_inf: float | None      # predicted accumulation time (None: intervals not shrinking)

    def words(self) -> str:
        where = f"; the impacts accumulate at t∞ ≈ {self.t_inf:.9g} s" \
            if self.t_inf is not None else ""
        return (f"{self.label}: Zeno limit (a flight of {self.interval:.3g} s rising "
                f"{self.rise:.3g}, below the loop's resolution{where})")


@dataclass
class ZenoWatch:
    """The last firing of each guard (time, interval before it, rate just after it), and
    the test of the module docstring."""

    window: float     # [s] flights longer than this are never Zeno (a slow grazing guard)
    last: dict = field(default_factory=dict)    # slot -> (time, interval, ġ⁺)

    def check(self, k: int, label: str, t: float, rate: float, band: float) -> Zeno | None:
        """Guard k fires at t with rate ġ⁻; a Zeno record when the flight since its last
        firing rose by at most ``band``: max(|ġ⁺|, |ġ⁻|)·Δ/4 (v·Δ/4 = v²/(2a) for a
        parabola, Δ = 2v/a)."""
        before = self.last.get(k)
        if before is None or not t - before[0] < self.window:
            return None
        interval = t - before[0]
        rise = max(abs(rate), abs(before[2])) * interval / 4
        if rise > band:
            return None
        ratio = interval / before[1] if before[1] > 0 else np.inf
        t_inf = t + interval * ratio / (1 - ratio) if 0 < ratio < 1 else None
        return Zeno(k, label, interval, rise, t_inf)

    def record(self, k: int, t: float, rate_after: float) -> None:
        before = self.last.get(k)
        self.last[k] = (t, t - before[0] if before is not None else np.inf, rate_after)


def bounce_slots(slots: list, fired: list[int]) -> list[int]:
    """Fired guards that can make a bounce: the elements' and user events with a reset."""
    return [k for k in fired if slots[k].owner is not None or slots[k].info.reset is not None]


def user_zeno_error(zeno: Zeno, t: float, state: str) -> ChatteringError:
    return ChatteringError(
        f"Event '{zeno.label}' is Zeno at t = {t:.12g} s: it fires again after "
        f"{zeno.interval:.3g} s with its guard rising only {zeno.rise:.3g} in between, below "
        "what the event loop resolves" + (f"; its events accumulate at t∞ ≈ {zeno.t_inf:.9g} s"
                                          if zeno.t_inf is not None else "") +
        f" (state: {state}). A reset cannot come to rest: model a bouncing contact with a "
        "jd.blocks.hybrid.Stop or GroundContact (they rest in the Zeno limit), or make the "
        "event terminal=True")


def element_zeno_error(zeno: Zeno, t: float, state: str) -> ChatteringError:
    return ChatteringError(
        f"{zeno.label} is Zeno at t = {t:.12g} s: it fires again after {zeno.interval:.3g} s "
        f"with its guard rising only {zeno.rise:.3g} in between, and the element did not "
        f"come to rest in a plastic impact (state: {state}). Give the element a rest speed "
        "(v_rest > 0) or a compliant law")


def rate_function(G_full: ca.Function) -> ca.Function:
    """ġ(t, x, p, u_held, ẋ) = ∂g/∂t + ∂g/∂x·ẋ of every guard (exact, CasADi)."""
    t, x = ca.MX.sym("t"), ca.MX.sym("x", G_full.size1_in(1))
    p, held = ca.MX.sym("p", G_full.size1_in(2)), ca.MX.sym("u_held", G_full.size1_in(3))
    xdot = ca.MX.sym("xdot", G_full.size1_in(1))
    g = G_full(t, x, p, held)
    return ca.Function("guard_rates", [t, x, p, held, xdot],
                       [ca.jtimes(g, t, ca.MX(1)) + ca.jtimes(g, x, xdot)])
