"""Signal blocks: sources of time functions (and the base of sensors and controllers).

A signal block implements one pure hook, ``outputs(ctx)``, mapping each of its RealOutput
ports to a CasADi expression of time, its inputs (``ctx.value``) and, for sensors, the
kinematics of its mechanical ports.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np

from .base import Component, as_array, as_scalar, as_scalars, param
from .errors import ModelError
from .ports import RealOutput


class SignalBlock(Component):
    """Contract of a signal block: RealInput/RealOutput ports and ``outputs(ctx)``.

    A block with memory (a PID's integral, a filter) names its internal states in ``STATES``
    and returns their time derivatives from ``derivatives(ctx)``, as every component with
    states does (:class:`~jourdain.blocks.base.Component`, docs/domains.md).
    """

    def outputs(self, ctx) -> dict:
        """{RealOutput port: CasADi expression} of time, inputs and kinematics."""
        raise NotImplementedError


class _Source(SignalBlock):
    def _make_output(self) -> None:
        self.y = RealOutput(self, "y")


@dataclass(eq=False)
class Constant(_Source):
    """y = k."""

    k: float = param(0.0, "1", "value")

    def __post_init__(self):
        self.k = as_scalar(self.k, "Constant", "k")
        self._make_output()

    def outputs(self, ctx) -> dict:
        return {self.y: self.k + 0 * ctx.t}


@dataclass(eq=False)
class Step(_Source):
    """y = offset for t < t_step, offset + height from t_step on [s]."""

    height: float = param(1.0, "1", "step height")
    t_step: float = param(0.0, "s", "step time")
    offset: float = param(0.0, "1", "value before the step")

    def __post_init__(self):
        as_scalars(self, "Step", "height", "t_step", "offset")
        self._make_output()

    def outputs(self, ctx) -> dict:
        return {self.y: self.offset + self.height * (ctx.t >= self.t_step)}

    def time_events(self, t0: float, t_end: float) -> list[float]:
        """The step time: hybrid simulation restarts the integrator there."""
        return [self.t_step] if t0 < self.t_step < t_end else []


@dataclass(eq=False)
class Sine(_Source):
    """y = offset + amplitude·sin(2π·f·t + phase); f [Hz], phase [rad]."""

    amplitude: float = param(1.0, "1", "amplitude")
    f: float = param(1.0, "Hz", "frequency")
    phase: float = param(0.0, "rad", "phase")
    offset: float = param(0.0, "1", "offset")

    def __post_init__(self):
        as_scalars(self, "Sine", "amplitude", "f", "phase", "offset")
        self._make_output()

    def outputs(self, ctx) -> dict:
        return {self.y: self.offset + self.amplitude * ca.sin(2 * np.pi * self.f * ctx.t
                                                               + self.phase)}


@dataclass(eq=False)
class Ramp(_Source):
    """MSL ``Blocks.Sources.Ramp``: y = offset until startTime, rising linearly by height over
    duration [s], then offset + height; the two kinks are declared time events."""

    height: float = param(1.0, "1", "height of the ramp")
    duration: float = param(2.0, "s", "duration of the ramp (0: a step)")
    offset: float = param(0.0, "1", "offset of the output")
    startTime: float = param(0.0, "s", "output = offset for time < startTime")

    def __post_init__(self):
        as_scalars(self, "Ramp", "height", "duration", "offset", "startTime")
        if not self.duration >= 0:
            raise ModelError(f"Ramp: duration must be ≥ 0, got {self.duration} s")
        self._make_output()

    def outputs(self, ctx) -> dict:
        elapsed = ctx.t - self.startTime
        rising = self.height * elapsed / self.duration if self.duration > 0 else self.height
        y = ca.if_else(elapsed < 0, 0, ca.if_else(elapsed < self.duration, rising,
                                                  self.height))
        return {self.y: self.offset + y}

    def time_events(self, t0: float, t_end: float) -> list[float]:
        """Where the slope jumps: startTime and startTime + duration."""
        times = {self.startTime, self.startTime + self.duration}
        return sorted(float(t) for t in times if t0 < t < t_end)


TABLE_EVENTS = 200   # a table with at most this many times declares all of them
STEEP = 0.1          # else the ends of segments carrying over this fraction of its range


def table_events(ts: np.ndarray, ys: np.ndarray, t0: float, t_end: float) -> list[float]:
    """The times in (t0, t_end) where a piecewise-linear table should restart an integrator:
    all of them for a short table (its kinks), else the ends of its steep segments (over
    STEEP of the table's range in one segment: a step sampled as a ramp). A dense measured
    table's kinks are harmless to error control; a restart at each would cost an integrator
    start per sample."""
    inside = (ts > t0) & (ts < t_end)
    if np.count_nonzero(inside) <= TABLE_EVENTS:
        return [float(t) for t in ts[inside]]
    steep = np.flatnonzero(np.abs(np.diff(ys)) > STEEP * float(np.ptp(ys)))
    ends = np.union1d(ts[steep], ts[steep + 1])
    return [float(t) for t in ends if t0 < t < t_end]


class Table(_Source):
    """Piecewise-linear interpolation of (t [s], y) samples; y is held outside the table."""

    def __init__(self, t, y):
        t_arr = as_array(t, "Table", "t").ravel()
        y_arr = as_array(y, "Table", "y").ravel()
        if t_arr.size < 2 or t_arr.size != y_arr.size:
            raise ModelError(f"Table: needs at least two (t, y) samples of equal length, got "
                             f"{t_arr.size} times and {y_arr.size} values")
        if np.any(np.diff(t_arr) <= 0):
            raise ModelError("Table: sample times t must be strictly increasing")
        self.t_samples, self.y_samples = t_arr, y_arr
        self._make_output()

    def outputs(self, ctx) -> dict:
        t_held = ca.fmin(ca.fmax(ctx.t, self.t_samples[0]), self.t_samples[-1])
        return {self.y: ca.pw_lin(t_held, ca.DM(self.t_samples), ca.DM(self.y_samples))}

    def time_events(self, t0: float, t_end: float) -> list[float]:
        """Where the slope jumps (:func:`table_events`: every sample time of a short table,
        the ends of the steep segments of a long one)."""
        return table_events(self.t_samples, self.y_samples, t0, t_end)


@dataclass(eq=False)
class Pulse(_Source):
    """Rectangular pulses (MSL Blocks.Sources.Pulse): y = offset + amplitude during the first
    width % of each period from start_time on, else offset [s, %]."""

    amplitude: float = param(1.0, "1", "pulse amplitude")
    width: float = param(50.0, "%", "width of a pulse in % of the period")
    period: float = param(1.0, "s", "time of one period")
    offset: float = param(0.0, "1", "value outside the pulses")
    start_time: float = param(0.0, "s", "time of the first pulse")

    def __post_init__(self):
        as_scalars(self, "Pulse", "amplitude", "width", "period", "offset", "start_time")
        if not self.period > 0 or not 0 <= self.width <= 100:
            raise ModelError(f"Pulse: need period > 0 and 0 ≤ width ≤ 100 %, got period "
                             f"{self.period} s, width {self.width} %")
        self._make_output()

    def outputs(self, ctx) -> dict:
        phase = ctx.t - self.start_time
        within = phase - self.period * ca.floor(phase / self.period)
        on = ca.logic_and(phase >= 0, within < self.width / 100 * self.period)
        return {self.y: self.offset + self.amplitude * on}

    def time_events(self, t0: float, t_end: float) -> list[float]:
        """The pulses' edges in (t0, t_end): hybrid simulation restarts there."""
        k = np.arange(max(0, np.floor((t0 - self.start_time) / self.period)),
                      np.ceil((t_end - self.start_time) / self.period) + 1)
        edges = np.concatenate([self.start_time + k * self.period,
                                self.start_time + (k + self.width / 100) * self.period])
        return sorted(float(t) for t in edges if t0 < t < t_end)


class KinematicPTP(SignalBlock):
    """Point-to-point motion q_begin → q_end with limited speed and acceleration (Modelica
    ``Blocks.Sources.KinematicPTP`` for one axis): a trapezoidal speed profile (triangular when
    the distance is too short to reach qd_max), starting at ``start_time`` [s]. Outputs
    ``q``, ``qd``, ``qdd`` (position [rad or m], speed, acceleration).

    qd_max, qdd_max : > 0, the limits of speed and acceleration.
    """

    def __init__(self, q_begin: float = 0.0, q_end: float = 1.0, qd_max: float = 1.0,
                 qdd_max: float = 1.0, start_time: float = 0.0):
        values = [as_scalar(v, "KinematicPTP", n) for v, n in
                  ((q_begin, "q_begin"), (q_end, "q_end"), (qd_max, "qd_max"),
                   (qdd_max, "qdd_max"), (start_time, "start_time"))]
        self.q_begin, self.q_end, self.qd_max, self.qdd_max, self.start_time = values
        if not (self.qd_max > 0 and self.qdd_max > 0):
            raise ModelError(f"KinematicPTP: qd_max and qdd_max must be positive, got "
                             f"{self.qd_max}, {self.qdd_max}")
        distance = abs(self.q_end - self.q_begin)
        self.v_peak = min(self.qd_max, np.sqrt(distance * self.qdd_max))
        self.t_acc = self.v_peak / self.qdd_max
        self.t_end = self.t_acc + (distance / self.v_peak if self.v_peak > 0 else 0.0)
        self.q = RealOutput(self, "q")
        self.qd = RealOutput(self, "qd")
        self.qdd = RealOutput(self, "qdd")

    def outputs(self, ctx) -> dict:
        """Piecewise: accelerate until t_acc, cruise, decelerate from t_end − t_acc to t_end."""
        sign = 1.0 if self.q_end >= self.q_begin else -1.0
        a, v, ta, te = self.qdd_max, self.v_peak, self.t_acc, self.t_end
        tau = ca.fmin(ca.fmax(ctx.t - self.start_time, 0), te)
        back = te - tau
        q = ca.if_else(tau < ta, 0.5 * a * tau ** 2,
                       ca.if_else(tau < te - ta, 0.5 * a * ta ** 2 + v * (tau - ta),
                                  abs(self.q_end - self.q_begin) - 0.5 * a * back ** 2))
        qd = ca.if_else(tau < ta, a * tau, ca.if_else(tau < te - ta, v, a * back))
        moving = ca.logic_and(ctx.t - self.start_time > 0, ctx.t - self.start_time < te)
        qdd = ca.if_else(moving, ca.if_else(tau < ta, a, ca.if_else(tau < te - ta, 0, -a)), 0)
        return {self.q: self.q_begin + sign * q, self.qd: sign * qd, self.qdd: sign * qdd}

    def time_events(self, t0: float, t_end: float) -> list[float]:
        """Where the acceleration qdd jumps: the start, the ends of the acceleration and
        cruise phases, the end."""
        times = self.start_time + np.array([0.0, self.t_acc, self.t_end - self.t_acc,
                                            self.t_end])
        return sorted({float(t) for t in times if t0 < t < t_end})
