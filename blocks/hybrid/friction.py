"""Coulomb friction with true stiction, by state events — the Modelica Standard Library's
Rotational friction elements (Interfaces.PartialFriction; Otter, Elmqvist & Mattsson, "Hybrid
Modeling in Modelica based on the Synchronous Data Flow Principle", CACSD 1999), with MSL's
names and parameters.

The ports are MSL's: a Clutch or OneWayClutch acts between its two flanges, w_rel = w_b − w_a;
a BearingFriction, SupportFriction or Brake acts between its shaft (``flange_a`` and
``flange_b``, rigidly joined, as in MSL) and its ``support`` (the housing), w_rel = w_shaft −
w_support — left unconnected the support is the reference, so on a joint's ``axis`` the
friction acts between the joint's own two frames.
Its ``mode`` is MSL's: BACKWARD (−1), STUCK (0), FORWARD (1), FREE (2). Sliding, the friction
torque is the characteristic τ(|w_rel|) against the motion; stuck, the relative motion is a
constraint (ẇ_rel = 0) whose reaction is the friction torque; the element breaks away when
that torque exceeds the static limit τ0_max = peak·τ0 and sticks again when w_rel returns to
zero with the static limit holding. The friction torque ``<path>.tau`` in the Result follows
MSL's sign (positive against w_rel: the torque on flange_b is −tau).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

import casadi as ca
import numpy as np

from ..base import as_scalar, as_scalars, param
from ..errors import ModelError
from ..forces import FlangeForce
from ..heat_port import ConditionalHeatPort
from ..ports import Flange, Motion, RealInput
from .base import Direction, Discrete, Guard, Hybrid, Row

SPEED_TOL = 1e-9   # [rad/s or m/s] a relative speed this small counts as zero
ACC_TOL = 1e-9     # [rad/s² or m/s²] an acceleration this small is zero (held by another)


class FrictionMode(IntEnum):
    """MSL's friction modes (PartialFriction.mode)."""

    BACKWARD = -1
    STUCK = 0
    FORWARD = 1
    FREE = 2


def friction_table(table, owner: str, name: str) -> np.ndarray:
    """A characteristic [[w, value], …] with w ≥ 0 increasing (MSL's ``*_pos`` tables)."""
    try:
        arr = np.atleast_2d(np.asarray(table, dtype=float))
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{owner}: {name} must be a table [[w, value], ...], got "
                         f"{table!r}") from exc
    if arr.ndim != 2 or arr.shape[1] != 2 or arr.shape[0] < 1 or not np.all(np.isfinite(arr)):
        raise ModelError(f"{owner}: {name} must be a finite table with two columns "
                         f"[[w, value], ...], got shape {arr.shape}")
    if arr[0, 0] < 0 or np.any(np.diff(arr[:, 0]) <= 0):
        raise ModelError(f"{owner}: the speeds in the first column of {name} must start at ≥ 0 "
                         "and increase")
    if np.any(arr[:, 1] < 0):
        raise ModelError(f"{owner}: {name} must not hold negative values")
    return arr


def interpolate(table: np.ndarray, w):
    """The table at w ≥ 0, linear between rows and through the last two rows outside (MSL's
    Extrapolation.LastTwoPoints); a one-row table is constant."""
    if table.shape[0] == 1:
        return float(table[0, 1]) + 0 * w
    if isinstance(w, (int, float)):   # a number: the same interpolation in numpy
        k = int(np.clip(np.searchsorted(table[:, 0], w) - 1, 0, table.shape[0] - 2))
        (w0, v0), (w1, v1) = table[k], table[k + 1]
        return float(v0 + (v1 - v0) * (w - w0) / (w1 - w0))
    return ca.pw_lin(w, ca.DM(table[:, 0]), ca.DM(table[:, 1]))


class PartialFriction(ConditionalHeatPort, FlangeForce, Hybrid):
    """Stick/slip logic of MSL's PartialFriction on w_rel = w_b − w_a; subclasses give the
    sliding characteristic ``_sliding(ctx, w)`` (w ≥ 0), the static limit ``_tau0_max(ctx)``
    and the normal force ``_normal(ctx)`` (> 0: engaged; ≤ 0: FREE). With ``useHeatPort``
    the friction power (sliding torque × slip speed; 0 stuck or free) leaves through
    ``heatPort`` (blocks/heat_port.py)."""

    DISCRETE: ClassVar = (Discrete("mode", FrictionMode.STUCK,
                                   "friction mode: -1 backward, 0 stuck, 1 forward, 2 free",
                                   tuple(FrictionMode)),)
    BACKWARD_SLIDING: ClassVar[bool] = True

    def _sliding(self, ctx, w):
        raise NotImplementedError

    def _tau0_max(self, ctx):
        raise NotImplementedError

    def _normal(self, ctx):
        return 1.0

    def _w_rel(self, ctx):
        return ctx.flange(self.flange_b).w - ctx.flange(self.flange_a).w


    def rows(self, ctx):
        mode = ctx.discrete(self)["mode"]
        w = self._w_rel(ctx)
        # each branch sees only its own sign of w (both are evaluated: an exponential law
        # must not overflow in the branch that does not apply)
        force = ca.if_else(mode == FrictionMode.FORWARD, -self._sliding(ctx, ca.fmax(w, 0)),
                           ca.if_else(mode == FrictionMode.BACKWARD,
                                      self._sliding(ctx, ca.fmax(-w, 0)), 0))
        return [Row("tau", w, mode == FrictionMode.STUCK, force, sign=-1.0,
                    limit=self._tau0_max(ctx))]

    def guards(self, ctx):
        w, lam = self._w_rel(ctx), ctx.multiplier(self, "tau")
        limit = self._tau0_max(ctx)
        out = [Guard("stop_forward", w, Direction.FALLING, {"mode": (FrictionMode.FORWARD,)}),
               Guard("break_forward", -lam - limit, Direction.RISING,
                     {"mode": (FrictionMode.STUCK,)})]
        if self.BACKWARD_SLIDING:
            out += [Guard("stop_backward", w, Direction.RISING,
                          {"mode": (FrictionMode.BACKWARD,)}),
                    Guard("break_backward", lam - limit, Direction.RISING,
                          {"mode": (FrictionMode.STUCK,)})]
        engaged = (FrictionMode.STUCK, FrictionMode.FORWARD, FrictionMode.BACKWARD)
        out += [Guard("release", self._normal(ctx), Direction.FALLING, {"mode": engaged}),
                Guard("engage", self._normal(ctx), Direction.RISING,
                      {"mode": (FrictionMode.FREE,)})]
        return out

    def monitors(self, ctx):
        return {"fn": self._normal(ctx), "tau0_max": self._tau0_max(ctx)}

    def on_event(self, guard, state):
        mode = {"stop_forward": FrictionMode.STUCK, "stop_backward": FrictionMode.STUCK,
                "break_forward": FrictionMode.FORWARD, "break_backward": FrictionMode.BACKWARD,
                "release": FrictionMode.FREE}.get(guard)
        if mode is not None:
            state.set(self, mode=mode)
        elif guard == "engage":
            self._engage(state)

    def initialize(self, state):
        if state.monitor(self, "fn") > 0:
            self._engage(state)
        else:
            state.set(self, mode=FrictionMode.FREE)

    def _engage(self, state):
        w = state.row(self, "tau").velocity
        if w > SPEED_TOL:
            state.set(self, mode=FrictionMode.FORWARD)
        elif w < -SPEED_TOL and self.BACKWARD_SLIDING:
            state.set(self, mode=FrictionMode.BACKWARD)
        else:
            state.set(self, mode=FrictionMode.STUCK)

    def settle(self, state):
        """MSL's finite state machine on the present numbers."""
        mode = round(state.discrete(self)["mode"])
        engaged = state.monitor(self, "fn") > 0
        if mode == FrictionMode.FREE:
            if engaged:
                self._engage(state)
                return round(state.discrete(self)["mode"]) != mode
            return False
        if not engaged:
            state.set(self, mode=FrictionMode.FREE)
            return True
        row = state.row(self, "tau")
        if mode == FrictionMode.STUCK:
            limit = state.monitor(self, "tau0_max")
            tol = 1e-10 * (1 + abs(limit))
            if -row.force > limit + tol:
                state.set(self, mode=FrictionMode.FORWARD)
                return True
            if self.BACKWARD_SLIDING and row.force > limit + tol:
                state.set(self, mode=FrictionMode.BACKWARD)
                return True
            return False
        sign = 1 if mode == FrictionMode.FORWARD else -1
        # at rest and not driven on: stick. But an element that broke away at this very
        # instant and is now at rest with zero acceleration is held by another stuck element
        # (a brake behind a stuck LossyGear): the split of the holding torque between the two
        # is undetermined, the one the solve picks put it beyond its limit, and sticking again
        # would flip for ever; it keeps sliding at its limit and the other carries the rest
        held = abs(row.acceleration) <= ACC_TOL and _broke_away_now(state, self.path)
        if sign * row.velocity <= SPEED_TOL and sign * row.acceleration <= 0 and not held:
            state.set(self, mode=FrictionMode.STUCK)   # at rest and not driven on: stick
            return True
        return False


def _broke_away_now(state, path: str) -> bool:
    """Whether the event iteration of the present instant took ``path`` from STUCK to
    sliding (its record of changes; a state without one has none)."""
    return any(c.element == path and c.kind == "mode" and c.detail.startswith("mode 0 → ")
               for c in getattr(state, "changes", ()))


class _Bearing:
    """MSL's PartialElementaryTwoFlangesAndSupport2: flange_a and flange_b are one shaft
    (joined rigidly), the friction acts against ``support``."""

    RIGID: ClassVar[tuple] = (("flange_a", "flange_b"),)

    def _make_support(self) -> None:
        self.support = Flange(self, "support", self.MOTION)

    def _w_rel(self, ctx):
        return ctx.flange(self.flange_b).w - ctx.flange(self.support).w


def _peak(value, owner: str) -> float:
    peak = as_scalar(value, owner, "peak")
    _check_peak(peak, owner)
    return peak


def _check_peak(peak: float, owner: str) -> None:
    if not peak >= 1:
        raise ModelError(f"{owner}: peak must be ≥ 1 (static limit = peak × sliding friction "
                         f"at w = 0), got {peak}")


@dataclass(eq=False)
class BearingFriction(_Bearing, PartialFriction):
    """Coulomb friction in a bearing (MSL Rotational.Components.BearingFriction): sliding
    torque tau_pos(|w|) [N·m] from a table [[w [rad/s], tau [N·m]], …], static limit
    tau0_max = peak·tau_pos(0), between the shaft (flange_a = flange_b, e.g. on a joint's
    axis or an Inertia) and ``support``."""

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    tau_pos: object = ((0.0, 1.0),)
    peak: float = param(1.0, "1", "static limit / sliding friction at w = 0")
    useHeatPort: bool = False

    def __post_init__(self):
        self.tau_pos = friction_table(self.tau_pos, type(self).__name__, "tau_pos")
        self.peak = _peak(self.peak, type(self).__name__)
        self._make_flanges()
        self._make_support()
        self._make_heat_port()

    def validate(self) -> None:
        _check_peak(self.peak, self.path)   # again: params= may change it at run time

    def _sliding(self, ctx, w):
        return interpolate(self.tau_pos, w)

    def _tau0_max(self, ctx):
        return self.peak * float(interpolate(self.tau_pos, 0.0))


@dataclass(eq=False)
class SupportFriction(BearingFriction):
    """Coulomb friction of a sliding mass on its support (MSL Translational.Components.
    SupportFriction): sliding force f_pos(|v|) [N] from a table [[v [m/s], f [N]], …],
    static limit peak·f_pos(0). Use :func:`stribeck_table` for a Stribeck curve."""

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    tau_pos: object = None
    f_pos: object = ((0.0, 1.0),)

    def __post_init__(self):
        self.tau_pos = self.f_pos if self.tau_pos is None else self.tau_pos
        super().__post_init__()
        self.f_pos = self.tau_pos


@dataclass(eq=False)
class StribeckFriction(_Bearing, PartialFriction):
    """Stribeck friction of a sliding mass on its support, the law of MSL's
    Translational.Components.MassWithStopAndFriction: sliding force
    F_Coulomb + F_prop·|v| + F_Stribeck·exp(−fexp·|v|) against the motion, static limit
    1.001·(F_Coulomb + F_Stribeck) (MSL's f0_max = 1.001·f0).

    F_prop [N·s/m] ≥ 0, F_Coulomb [N], F_Stribeck [N], fexp [s/m] ≥ 0.
    """

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    F_prop: float = param(1.0, "N.s/m", "velocity dependent friction")
    F_Coulomb: float = param(5.0, "N", "constant friction: Coulomb force")
    F_Stribeck: float = param(10.0, "N", "Stribeck effect")
    fexp: float = param(2.0, "s/m", "exponential decay")
    useHeatPort: bool = False

    def __post_init__(self):
        as_scalars(self, "StribeckFriction", "F_prop", "F_Coulomb", "F_Stribeck", "fexp")
        self._make_flanges()
        self._make_support()
        self._make_heat_port()

    def validate(self) -> None:
        self._check_nonnegative(F_prop=self.F_prop, fexp=self.fexp)

    def _sliding(self, ctx, w):
        return self.F_Coulomb + self.F_prop * w + self.F_Stribeck * ca.exp(-self.fexp * w)

    def _tau0_max(self, ctx):
        return 1.001 * (self.F_Coulomb + self.F_Stribeck)


def stribeck_table(F_prop: float, F_Coulomb: float, F_Stribeck: float, fexp: float,
                   v_max: float, nTable: int = 100) -> np.ndarray:
    """MSL Translational.Examples.Utilities.GenerateStribeckFrictionTable:
    f(v) = F_Coulomb + F_prop·v + F_Stribeck·exp(−fexp·v) at nTable speeds in [0, v_max]."""
    v = np.linspace(0.0, v_max, int(nTable))
    return np.column_stack([v, F_Coulomb + F_prop * v + F_Stribeck * np.exp(-fexp * v)])


@dataclass(eq=False)
class Clutch(PartialFriction):
    """Clutch between two flanges (MSL Rotational.Components.Clutch): sliding torque
    cgeo·mu_pos(|w_rel|)·fn with the normal force fn = fn_max·f_normalized (input
    ``f_normalized``, 0…1; free when ≤ 0), static limit peak·cgeo·mu_pos(0)·fn.

    mu_pos : table [[w_rel [rad/s], mu [1]], …]; peak [1] ≥ 1; cgeo [m] geometry constant
    (N·(r_o + r_i)/2 for N friction interfaces); fn_max [N] maximum normal force.
    """

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    mu_pos: object = ((0.0, 0.5),)
    peak: float = param(1.0, "1", "static limit / sliding friction at w = 0")
    cgeo: float = param(1.0, "m", "geometry constant")
    fn_max: float = param(1.0, "N", "maximum normal force")
    useHeatPort: bool = False

    def __post_init__(self):
        owner = type(self).__name__
        self.mu_pos = friction_table(self.mu_pos, owner, "mu_pos")
        self.peak = _peak(self.peak, owner)
        self.cgeo, self.fn_max = as_scalar(self.cgeo, owner, "cgeo"), \
            as_scalar(self.fn_max, owner, "fn_max")
        self._make_flanges()
        self.f_normalized = RealInput(self, "f_normalized")
        self._make_heat_port()

    def validate(self) -> None:
        self._check_nonnegative(cgeo=self.cgeo, fn_max=self.fn_max)
        _check_peak(self.peak, self.path)   # again: params= may change it at run time

    def _normal(self, ctx):
        return self.fn_max * ctx.value(self.f_normalized)

    def _sliding(self, ctx, w):
        return self.cgeo * interpolate(self.mu_pos, w) * self._normal(ctx)

    def _tau0_max(self, ctx):
        return self.peak * self.cgeo * float(interpolate(self.mu_pos, 0.0)) * self._normal(ctx)


@dataclass(eq=False)
class Brake(_Bearing, Clutch):
    """Brake (MSL Rotational.Components.Brake and Translational.Components.Brake): friction
    cgeo·mu_pos(|w|)·fn between the braked shaft (flange_a = flange_b) and ``support`` (the
    housing; the reference when left unconnected), fn = fn_max·f_normalized (input, 0…1)."""

    MOTION: ClassVar[Motion] = Motion.ANY

    def __post_init__(self):
        super().__post_init__()
        self._make_support()


@dataclass(eq=False)
class OneWayClutch(Clutch):
    """Freewheel in parallel with a clutch (MSL Rotational.Components.OneWayClutch): locked
    (STUCK) whenever w_rel would turn negative, forward sliding with the clutch's torque; it
    breaks away forward when the locked torque exceeds peak·τ0 (or a tiny limit
    eps0·mu0·cgeo·fn_max when the clutch is released). There is no backward sliding and no
    FREE mode: released, the freewheel still locks. Started with w_rel < 0 it locks at
    t = 0 by a plastic impact (momentum kept), which the event log's initial record shows
    with its kinetic-energy loss."""

    BACKWARD_SLIDING: ClassVar[bool] = False
    EPS0: ClassVar[float] = 1.0e-4
    DISCRETE: ClassVar = (Discrete("mode", FrictionMode.STUCK, "0 stuck (locked), 1 forward",
                                   (FrictionMode.STUCK, FrictionMode.FORWARD)),)

    def _tau0_max(self, ctx):
        mu0 = float(interpolate(self.mu_pos, 0.0))
        low = self.EPS0 * mu0 * self.cgeo * self.fn_max
        engaged = ca.fmax(self.peak, 1 + self.EPS0) * self.cgeo * mu0 * self._normal(ctx)
        return ca.if_else(self._normal(ctx) > 0, engaged, low)

    def _sliding(self, ctx, w):
        return self.cgeo * interpolate(self.mu_pos, w) * ca.fmax(self._normal(ctx), 0)

    def guards(self, ctx):
        return [g for g in super().guards(ctx) if g.name in ("stop_forward", "break_forward")]

    def monitors(self, ctx):
        return {"fn": 1.0, "tau0_max": self._tau0_max(ctx)}

    def initialize(self, state):
        # started turning backward (w_rel < 0) the freewheel locks at once: a plastic impact
        # at t = 0 (momentum kept, the kinetic energy it takes in the event log), as a rigid
        # stop started moving into its limit — never a silent change of the initial state
        if state.row(self, "tau").velocity < -SPEED_TOL:
            state.impact(self, "tau", restitution=0.0)
        self._engage(state)

    def after_impact(self, state):
        self._engage(state)
