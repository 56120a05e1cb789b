"""MSL ``Rotational.Components.LossyGear``: a gear with mesh efficiency by the direction of
power flow and bearing friction, which can lock (stuck) at zero speed — on the hybrid
contract of the friction elements (blocks/hybrid/base.py, docs/hybrid.md).

The MSL's equations (Pelchen, Schweiger and Otter 2002, with Bertsch's 2009 correction of the
driving side) with φ_a, φ_b measured from ``support``:

    φ_a = ratio·φ_b,   flange_b.tau = −ratio·(flange_a.tau − tauLoss),

tauLoss from the table ``lossTable`` = [|w_a|, eta_mf1, eta_mf2, |tau_bf1|, |tau_bf2|] by the
quadrant of (w_a, tau_eta): forward (w_a > 0) tauLoss = (1 − eta_mf1)·flange_a.tau + tau_bf1
while flange_a drives (tau_eta ≥ 0), (1 − 1/eta_mf2)·flange_a.tau + tau_bf2 while flange_b
drives; backward the same with −tau_bf; stuck (w_a = 0) tauLoss holds the gear while it lies
within the limits the forward and backward laws give at w_a = 0.

Here the two shafts keep their own coordinates and the gear acts through two rows of
constraint force (jourdain's hybrid rows): ``mesh`` along w_a − ratio·w_b, always a
constraint (the ideal teeth, held at position level against drift), and ``tauLoss`` along
w_a, a constraint while stuck and, while rolling, the loss torque — linear in the two rows'
forces, as a sliding friction's force is linear in its normal force. With the row forces
λ_m (mesh) and λ_L (loss): flange_a.tau = −(λ_m + λ_L), tauLoss = −λ_L. The Result shows
``<path>.tauLoss`` (MSL's tauLoss), ``<path>.mesh`` (= flange_a.tau − tauLoss, the torque
the teeth pass on, referred to flange_a), ``<path>.mode`` (MSL's mode: 1 forward, 0 stuck,
−1 backward, 2 free: lossless) and ``<path>.tau_etaPos`` (1 while flange_a drives).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

import casadi as ca
import numpy as np

from ..base import as_array, as_scalar, param
from ..errors import ModelError
from ..heat_port import ConditionalHeatPort
from ..hybrid.base import Direction, Discrete, Guard, Hybrid, Row
from ..hybrid.friction import SPEED_TOL, interpolate
from ..ports import Flange, Motion
from .base import Coupling

EPS = np.finfo(float).eps
ACC_TOL = 1e-9   # [rad/s²] an acceleration this small is zero (held by another element)
TAU_TOL = 1e-8   # tau_eta within TAU_TOL·(1 + the gear's torques) [N·m] of 0 is at its zero
RATE_SPAN = 1e-6   # [s] a rate of tau_eta that moves it less than TAU_TOL over this is 0


class GearMode(IntEnum):
    """MSL's LossyGear.mode."""

    BACKWARD = -1
    STUCK = 0
    FORWARD = 1
    FREE = 2


def loss_table(table, owner: str) -> np.ndarray:
    """lossTable [[|w_a|, eta_mf1, eta_mf2, |tau_bf1|, |tau_bf2|], …], checked."""
    try:
        arr = np.atleast_2d(as_array(table, owner, "lossTable"))
    except ModelError:
        raise
    if arr.ndim != 2 or arr.shape[1] != 5 or arr.shape[0] < 1:
        raise ModelError(f"{owner}: lossTable must have rows [|w_a|, eta_mf1, eta_mf2, "
                         f"|tau_bf1|, |tau_bf2|] (5 columns), got shape {arr.shape}")
    if arr[0, 0] < 0 or np.any(np.diff(arr[:, 0]) <= 0):
        raise ModelError(f"{owner}: the speeds |w_a| in the first column of lossTable must "
                         "start at ≥ 0 and increase")
    if np.any(arr[:, 1:3] <= 0) or np.any(arr[:, 1:3] > 1):
        raise ModelError(f"{owner}: the mesh efficiencies eta_mf1, eta_mf2 (columns 2 and 3 "
                         "of lossTable) must lie in (0, 1]")
    return arr


@dataclass(eq=False)
class LossyGear(ConditionalHeatPort, Coupling, Hybrid):
    """Gear with mesh efficiency and bearing friction, stuck or rolling (MSL
    ``Rotational.Components.LossyGear``; the module docstring gives the law).

    ratio : [1] transmission ratio flange_a.phi/flange_b.phi, ≠ 0.
    lossTable : rows [|w_a| [rad/s], eta_mf1, eta_mf2, |tau_bf1| [N·m], |tau_bf2| [N·m]]
        (MSL default [[0, 1, 1, 0, 0]]: lossless, mode FREE).
    A flange may sit on a net without inertia (straight into a Clutch, as in the MSL's
    HeatLosses): the teeth give it mass (docs/hybrid.md, "Shafts without inertia"); a gear
    with no inertia on either side is refused by name.
    useHeatPort : the MSL's heat port (blocks/heat_port.py): lossPower = tauLoss·w_a, the
        power of the ``tauLoss`` row while rolling (zero while stuck), with the row's solved
        force (the loss is linear in the mesh row's constraint force, docs/acausal.md).
    """

    ratio: float = param(1.0, "1", "transmission ratio flange_a.phi/flange_b.phi")
    lossTable: object = ((0.0, 1.0, 1.0, 0.0, 0.0),)
    useHeatPort: bool = False
    SUPPORTS: ClassVar[tuple[str, ...]] = ("support",)
    DISCRETE: ClassVar = (Discrete("mode", GearMode.STUCK,
                                   "-1 backward, 0 stuck, 1 forward, 2 free (lossless)",
                                   tuple(GearMode)),
                          Discrete("tau_etaPos", 1, "1 while flange_a drives", (0, 1)))

    def __post_init__(self):
        self.ratio = as_scalar(self.ratio, "LossyGear", "ratio")
        self.lossTable = loss_table(self.lossTable, "LossyGear")
        self.ideal = bool(np.allclose(self.lossTable, [[0, 1, 1, 0, 0]], atol=EPS, rtol=0))
        self.flange_a = Flange(self, "flange_a", Motion.ROTATIONAL)
        self.flange_b = Flange(self, "flange_b", Motion.ROTATIONAL)
        self.support = Flange(self, "support", Motion.ROTATIONAL)
        self._make_heat_port()

    def validate(self) -> None:
        self._check_nonzero(ratio=self.ratio)

    def relations(self) -> list[dict]:
        return []   # the teeth are the ``mesh`` row: its force is the torque the loss reads

    # -- the table ---------------------------------------------------------------------------
    def _losses(self, w):
        """(eta_mf1, eta_mf2, tau_bf1, tau_bf2, tau_bf_a) at |w_a| = w (numbers or SX)."""
        eta1, eta2, bf1, bf2 = (interpolate(self.lossTable[:, [0, k]], w) for k in (1, 2, 3, 4))
        bf1, bf2 = abs(bf1) if isinstance(bf1, float) else ca.fabs(bf1), \
            abs(bf2) if isinstance(bf2, float) else ca.fabs(bf2)
        equal = isinstance(eta1, float) and abs(eta1 - 1) <= EPS and abs(eta2 - 1) <= EPS
        if equal:
            return eta1, eta2, bf1, bf2, bf1 / 2
        split = (bf1 - bf2) / (eta1 - 1.0 / eta2)
        if isinstance(eta1, float):
            return eta1, eta2, bf1, bf2, split
        lossless = ca.logic_and(ca.fabs(eta1 - 1) <= EPS, ca.fabs(eta2 - 1) <= EPS)
        safe = ca.if_else(lossless, 0, split)   # the branch not taken must not divide by 0
        return eta1, eta2, bf1, bf2, ca.if_else(lossless, bf1 / 2, safe)

    # -- kinematics --------------------------------------------------------------------------
    def _w(self, ctx):
        s = ctx.flange(self.support)
        a, b = ctx.flange(self.flange_a), ctx.flange(self.flange_b)
        return a.w - s.w, b.w - s.w, a.s - s.s, b.s - s.s

    def rows(self, ctx):
        """``mesh`` (always a constraint, position-level gap against drift) and, unless
        lossless, ``tauLoss`` (a constraint while stuck, else the loss linear in λ_m)."""
        w_a, w_b, phi_a, phi_b = self._w(ctx)
        mesh = Row("mesh", w_a - self.ratio * w_b, 1, 0, gap=phi_a - self.ratio * phi_b,
                   sign=-1.0)
        if self.ideal:
            return [mesh]
        d = ctx.discrete(self)
        mode, pos = d["mode"], d["tau_etaPos"]
        eta1, eta2, bf1, bf2, _ = self._losses(ca.fabs(w_a))
        lam_m = ctx.multiplier(self, "mesh")
        # tauLoss = (1 − e)·tau_a ± bf with tau_a = −(λ_m + λ_L) and λ_L = −tauLoss:
        # λ_L = ((1 − e)·λ_m ∓ bf)/e
        e = ca.if_else(mode == GearMode.FORWARD, ca.if_else(pos, eta1, 1 / eta2),
                       ca.if_else(pos, 1 / eta2, eta1))
        bf = ca.if_else(mode == GearMode.FORWARD, ca.if_else(pos, bf1, bf2),
                        -ca.if_else(pos, bf2, bf1))
        loss = Row("tauLoss", w_a, mode == GearMode.STUCK, ((1 - e) * lam_m - bf) / e,
                   sign=-1.0)
        return [mesh, loss]

    def loss_power(self, ctx):
        """lossPower = tauLoss·w_a while rolling, 0 while stuck or lossless: the power
        −λ_L·w_a of the ``tauLoss`` row that the hybrid dynamics counts as dissipated, with
        its solved force λ_L (``ctx.multiplier``; its force law reads the mesh row's force,
        known only from the hybrid solve, which the solver substitutes here)."""
        if self.ideal:
            return ca.SX(0)
        rolling = ctx.discrete(self)["mode"] != GearMode.STUCK
        return -rolling * ctx.multiplier(self, "tauLoss") * self._w(ctx)[0]

    def _tau_a(self, lam_m, lam_l):
        return -(lam_m + lam_l)

    def _limits(self, tau_a):
        """(tauLossMax_p, tauLossMin_m): the loss torques the forward and backward laws give
        at w_a = 0 for the torque tau_a at flange_a (numbers or SX)."""
        eta1, eta2, bf1, bf2, bf_a = self._losses(0.0)
        q1, q2 = (1 - eta1) * tau_a + bf1, (1 - 1 / eta2) * tau_a + bf2
        q4, q3 = (1 - 1 / eta2) * tau_a - bf2, (1 - eta1) * tau_a - bf1
        if isinstance(tau_a, float):
            return (q1 if tau_a - bf_a > 0 else q2), (q4 if tau_a + bf_a > 0 else q3)
        return ca.if_else(tau_a - bf_a > 0, q1, q2), ca.if_else(tau_a + bf_a > 0, q4, q3)

    def guards(self, ctx):
        """Stop (w_a through 0 while rolling), start (the holding loss leaves the limits at
        w_a = 0) and the driving side (tau_eta through 0 while rolling)."""
        if self.ideal:
            return []
        w_a = self._w(ctx)[0]
        lam_m, lam_l = ctx.multiplier(self, "mesh"), ctx.multiplier(self, "tauLoss")
        tau_a = self._tau_a(lam_m, lam_l)
        held = -lam_l                                   # MSL's sa while stuck
        high, low = self._limits(tau_a)
        _, _, _, _, bf_a = self._losses(ca.fabs(w_a))
        forward, backward = (GearMode.FORWARD,), (GearMode.BACKWARD,)
        return [Guard("stop_forward", w_a, Direction.FALLING, {"mode": forward}),
                Guard("stop_backward", w_a, Direction.RISING, {"mode": backward}),
                Guard("start_forward", held - high, Direction.RISING,
                      {"mode": (GearMode.STUCK,)}),
                Guard("start_backward", low - held, Direction.RISING,
                      {"mode": (GearMode.STUCK,)}),
                Guard("driving_side_forward", tau_a - bf_a, Direction.BOTH, {"mode": forward}),
                Guard("driving_side_backward", tau_a + bf_a, Direction.BOTH,
                      {"mode": backward})]

    # -- transitions (numbers) ---------------------------------------------------------------
    def _numbers(self, state):
        mesh, loss = state.row(self, "mesh"), state.row(self, "tauLoss")
        return loss.velocity, loss.acceleration, self._tau_a(mesh.force, loss.force), \
            -loss.force

    def _driving(self, state, mode: int, tau_a: float, w: float, held: float) -> None:
        """MSL's tau_etaPos = tau_eta ≥ 0. Within round-off of tau_eta = 0 (where a
        driving_side guard fires) its sign is noise, and deciding by it flips the side on
        every pass of the event iteration (a LossyGear whose flange_b drives a Clutch
        through a light shaft chattered so at 0.439 s); there both sides give the same loss
        (the law is continuous at tau_eta = 0: Bertsch's tau_bf_a), so the side is the one
        tau_eta leaves to, as Modelica evaluates the relation at t⁺; when it does not
        leave measurably, the present side is kept."""
        bf_a = float(self._losses(abs(w))[4])
        tau_eta = tau_a - bf_a if mode == GearMode.FORWARD else tau_a + bf_a
        tol = TAU_TOL * (1.0 + abs(tau_a) + abs(held) + abs(bf_a))
        if abs(tau_eta) > tol:
            state.set(self, tau_etaPos=1 if tau_eta >= 0 else 0)
            return
        guard = "driving_side_forward" if mode == GearMode.FORWARD else \
            "driving_side_backward"
        present = round(state.discrete(self)["tau_etaPos"])
        for pos in (present, 1 - present):
            state.set(self, tau_etaPos=pos)
            rate = state.rate(self, guard)
            if abs(rate) * RATE_SPAN <= tol or (rate > 0) == bool(pos):
                return   # leaves to this side (or stays at zero: either side holds)
        state.set(self, tau_etaPos=present)   # neither side is left to: tau_eta stays at 0

    def on_event(self, guard, state):
        w, _, tau_a, held = self._numbers(state)
        if guard in ("stop_forward", "stop_backward"):
            state.set(self, mode=GearMode.STUCK)
        elif guard in ("start_forward", "start_backward"):
            mode = GearMode.FORWARD if guard == "start_forward" else GearMode.BACKWARD
            state.set(self, mode=mode)
            self._driving(state, mode, tau_a, w, held)
        elif guard.startswith("driving_side"):
            mode = round(state.discrete(self)["mode"])
            self._driving(state, mode, tau_a, w, held)

    def initialize(self, state):
        if self.ideal:
            state.set(self, mode=GearMode.FREE)
            return
        w = state.row(self, "tauLoss").velocity      # MSL: initial() and w_a > 0 → rolling
        mode = GearMode.FORWARD if w > SPEED_TOL else \
            GearMode.BACKWARD if w < -SPEED_TOL else GearMode.STUCK
        state.set(self, mode=mode)

    def settle(self, state):
        """MSL's finite state machine on the present numbers: a stuck gear starts rolling
        when the holding loss leaves the limits; a rolling one sticks at w_a = 0 when not
        driven on; the driving side follows tau_eta's sign."""
        if self.ideal:
            return False
        mode = round(state.discrete(self)["mode"])
        w, acc, tau_a, held = self._numbers(state)
        if mode == GearMode.STUCK:
            high, low = self._limits(tau_a)
            tol = 1e-10 * (1 + abs(high) + abs(low))
            if held > high + tol or held < low - tol:
                new = GearMode.FORWARD if held > high + tol else GearMode.BACKWARD
                state.set(self, mode=new)
                self._driving(state, new, tau_a, w, held)
                return True
            return False
        sign = 1 if mode == GearMode.FORWARD else -1
        # at rest and decelerated by its own loss: stick. At rest with zero acceleration
        # another stuck element holds the shaft (a BearingFriction beside the gear,
        # LossyGearDemo2): the gear keeps rolling, so that element carries the load and
        # breaks away at its own limit (sticking here would hand the load back to the gear
        # and hold both for ever)
        if sign * w <= SPEED_TOL and sign * acc < -ACC_TOL:
            state.set(self, mode=GearMode.STUCK)
            return True
        before = round(state.discrete(self)["tau_etaPos"])
        self._driving(state, mode, tau_a, w, held)
        return round(state.discrete(self)["tau_etaPos"]) != before
