"""Point-to-point reference motions of several axes at once (the MSL's
``Blocks.Sources.KinematicPTP2``); the one-axis :class:`~.signals.KinematicPTP` is in
:mod:`.signals`."""
from __future__ import annotations

import casadi as ca
import numpy as np

from .base import as_array, as_scalar
from .errors import ModelError
from .ports import RealOutput
from .signals import SignalBlock


class KinematicPTP2(SignalBlock):
    """Move as fast as possible from q_begin to q_end within the speed and acceleration
    limits, all axes synchronized (MSL ``Blocks.Sources.KinematicPTP2``, same parameters).

    q_begin, q_end, qd_max, qdd_max : one value per axis, or one value for all (as in the
        MSL, the number of axes nout is the longest of them); qd_max, qdd_max > 0.
    startTime : [s] when the motion starts.

    All axes follow one path parameter s(t) from 0 to 1, q = q_begin + (q_end − q_begin)·s,
    whose speed and acceleration limits are set by the most demanding axis: every axis is in
    its acceleration, constant-speed and deceleration phases at the same times and all stop
    at ``endTime`` (an attribute here), only one axis at its limits. Outputs ``q``, ``qd``,
    ``qdd`` (vectors of nout) and ``moving`` (1 while an axis with q_begin ≠ q_end has not
    reached its end, else 0; the MSL's Boolean).
    """

    def __init__(self, q_begin=(0.0,), q_end=(1.0,), qd_max=(1.0,), qdd_max=(1.0,),
                 startTime: float = 0.0):
        given = {name: as_array(value, "KinematicPTP2", name).ravel() for name, value in
                 (("q_begin", q_begin), ("q_end", q_end), ("qd_max", qd_max),
                  ("qdd_max", qdd_max))}
        self.nout = max(v.size for v in given.values())
        for name, value in given.items():
            if value.size not in (1, self.nout):
                raise ModelError(f"KinematicPTP2: {name} has {value.size} entries; give one "
                                 f"per axis ({self.nout}) or one for all")
            given[name] = np.broadcast_to(value, (self.nout,)).astype(float)
        if not (np.all(given["qd_max"] > 0) and np.all(given["qdd_max"] > 0)):
            raise ModelError(f"KinematicPTP2: qd_max and qdd_max must be positive, got "
                             f"{given['qd_max']}, {given['qdd_max']}")
        self.q_begin, self.q_end = given["q_begin"], given["q_end"]
        self.qd_max, self.qdd_max = given["qd_max"], given["qdd_max"]
        self.startTime = as_scalar(startTime, "KinematicPTP2", "startTime")
        self.deltaq = self.q_end - self.q_begin
        self._timing()
        self.q = RealOutput(self, "q", self.nout)
        self.qd = RealOutput(self, "qd", self.nout)
        self.qdd = RealOutput(self, "qdd", self.nout)
        self.moving = RealOutput(self, "moving", self.nout)

    def _timing(self) -> None:
        """The path parameter's limits and phase times (the MSL's sd_max, sdd_max, Ta1,
        Ta2, Tv, Te; a move of length zero ends at once)."""
        eps = 10 * np.finfo(float).eps
        sd_inv = np.abs(self.deltaq / self.qd_max).max()
        sdd_inv = np.abs(self.deltaq / self.qdd_max).max()
        self.still = sd_inv <= eps or sdd_inv <= eps
        if self.still:
            self.sd_max = self.sdd_max = self.Ta1 = self.Ta2 = self.Tv = self.Te = 0.0
            self.noWphase = False
        else:
            self.sd_max, self.sdd_max = 1 / sd_inv, 1 / sdd_inv
            self.Ta1 = np.sqrt(1 / self.sdd_max)
            self.Ta2 = self.sd_max / self.sdd_max
            self.noWphase = bool(self.Ta2 >= self.Ta1)
            self.Tv = self.Ta1 if self.noWphase else 1 / self.sd_max
            self.Te = 2 * self.Ta1 if self.noWphase else self.Tv + self.Ta2
        self.endTime = self.startTime + self.Te

    def _profile(self, t):
        """s, ṡ, s̈ of the path parameter at time t (piecewise polynomial)."""
        if self.still:
            return ca.SX(0), ca.SX(0), ca.SX(0)
        a, tau = self.sdd_max, t - self.startTime
        if self.noWphase:      # accelerate to Ta1, decelerate to Te = 2·Ta1
            peak, back = a * self.Ta1, tau - self.Ta1
            s = ca.if_else(tau < self.Ta1, a / 2 * tau**2,
                           a / 2 * self.Ta1**2 + peak * back - a / 2 * back**2)
            sd = ca.if_else(tau < self.Ta1, a * tau, peak - a * back)
            sdd = ca.if_else(tau < self.Ta1, a, -a)
        else:                  # accelerate to Ta2, cruise to Tv, decelerate to Te
            v, cruise, back = self.sd_max, tau - self.Ta2, tau - self.Tv
            s1 = a / 2 * self.Ta2**2
            s2 = s1 + v * (self.Tv - self.Ta2)
            s = ca.if_else(tau < self.Ta2, a / 2 * tau**2,
                           ca.if_else(tau < self.Tv, s1 + v * cruise,
                                      s2 + v * back - a / 2 * back**2))
            sd = ca.if_else(tau < self.Ta2, a * tau, ca.if_else(tau < self.Tv, v, v - a * back))
            sdd = ca.if_else(tau < self.Ta2, a, ca.if_else(tau < self.Tv, 0, -a))
        before, after = tau < 0, tau >= self.Te
        s = ca.if_else(before, 0, ca.if_else(after, 1, s))
        sd = ca.if_else(ca.logic_or(before, after), 0, sd)
        sdd = ca.if_else(ca.logic_or(before, after), 0, sdd)
        return s, sd, sdd

    def outputs(self, ctx) -> dict:
        s, sd, sdd = self._profile(ctx.t)
        dq, moves = ca.DM(self.deltaq), ca.DM((np.abs(self.deltaq) > 0).astype(float))
        running = ca.if_else(ctx.t < self.endTime, 1, 0)
        return {self.q: ca.DM(self.q_begin) + dq * s, self.qd: dq * sd, self.qdd: dq * sdd,
                self.moving: moves * running}

    def time_events(self, t0: float, t_end: float) -> list[float]:
        """Where qdd jumps: the start, the ends of the acceleration and cruise phases, the
        end."""
        phases = (0.0, self.Ta1, self.Te) if self.noWphase else (0.0, self.Ta2, self.Tv,
                                                                 self.Te)
        return sorted({float(self.startTime + p) for p in phases
                       if t0 < self.startTime + p < t_end})
