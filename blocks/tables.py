"""MSL ``Blocks.Sources.CombiTimeTable``: outputs interpolated in a table of time rows, with the
MSL's parameters (``table``, ``columns``, ``smoothness``, ``extrapolation``, ``offset``,
``startTime``, ``shiftTime``, ``timeScale``) and its jumps (two rows with the same time: the
first holds before, the second from that time on).

Every row time (shifted and scaled, repeated per period when periodic) and startTime are
declared time events (``time_events``), so the integrator restarts at each kink and jump.
"""
from __future__ import annotations

from enum import Enum

import casadi as ca
import numpy as np

from .base import as_array, as_scalar
from .errors import ModelError, SimulationError
from .ports import RealOutput
from .signals import SignalBlock


class Smoothness(Enum):
    """MSL ``Blocks.Types.Smoothness`` (the ones provided; the spline kinds are refused)."""

    LinearSegments = "LinearSegments"
    ConstantSegments = "ConstantSegments"
    ContinuousDerivative = "ContinuousDerivative"
    MonotoneContinuousDerivative1 = "MonotoneContinuousDerivative1"
    MonotoneContinuousDerivative2 = "MonotoneContinuousDerivative2"
    ModifiedContinuousDerivative = "ModifiedContinuousDerivative"


class Extrapolation(Enum):
    """MSL ``Blocks.Types.Extrapolation``."""

    HoldLastPoint = "HoldLastPoint"
    LastTwoPoints = "LastTwoPoints"
    Periodic = "Periodic"
    NoExtrapolation = "NoExtrapolation"


SUPPORTED = (Smoothness.LinearSegments, Smoothness.ConstantSegments)


class CombiTimeTable(SignalBlock):
    """Table look-up in time (MSL ``Blocks.Sources.CombiTimeTable``): output ``y`` (a vector
    of len(columns) entries; a ``Demux`` splits it) =
    offset + table value at (time − shiftTime)/timeScale for time ≥ startTime, offset before.

    table : rows [t, y1, y2, ...], times non-decreasing; a time repeated once is a jump.
    columns : 1-based column indices as in the MSL (default: all columns after the first).
    smoothness : Smoothness.LinearSegments (default) or ConstantSegments; the spline kinds
        are refused by name.
    extrapolation : Extrapolation.LastTwoPoints (MSL default), HoldLastPoint, Periodic or
        NoExtrapolation (a run beyond the table is refused before it starts).
    offset : one number or one per column.  startTime, shiftTime [s], timeScale [s] > 0.
    """

    def __init__(self, table, columns=None, smoothness: Smoothness = Smoothness.LinearSegments,
                 extrapolation: Extrapolation = Extrapolation.LastTwoPoints, offset=0.0,
                 startTime: float = 0.0, shiftTime: float = 0.0, timeScale: float = 1.0):
        data = as_array(table, "CombiTimeTable", "table")
        if data.ndim != 2 or data.shape[0] < 1 or data.shape[1] < 2:
            raise ModelError(f"CombiTimeTable: table must be a matrix of rows [t, y1, ...] with "
                             f"at least two columns, got shape {data.shape}")
        times = data[:, 0]
        if np.any(np.diff(times) < 0):
            raise ModelError("CombiTimeTable: the times in the first column of table must not "
                             "decrease")
        if np.any((times[2:] == times[1:-1]) & (times[1:-1] == times[:-2])):
            raise ModelError("CombiTimeTable: a time appears three times in table; a jump is "
                             "two rows with the same time")
        cols = list(range(2, data.shape[1] + 1)) if columns is None else \
            [int(c) for c in np.atleast_1d(columns)]
        if not cols or any(c < 2 or c > data.shape[1] for c in cols):
            raise ModelError(f"CombiTimeTable: columns must be 1-based indices in 2 … "
                             f"{data.shape[1]} (column 1 is the time), got {columns!r}")
        if not isinstance(smoothness, Smoothness) or smoothness not in SUPPORTED:
            raise ModelError(f"CombiTimeTable: smoothness {smoothness!r} is not supported; use "
                             "Smoothness.LinearSegments or Smoothness.ConstantSegments (the "
                             "MSL's spline variants are not provided)")
        if not isinstance(extrapolation, Extrapolation):
            raise ModelError(f"CombiTimeTable: extrapolation must be a jd.blocks.Extrapolation, "
                             f"got {extrapolation!r}")
        if extrapolation is Extrapolation.Periodic and times[-1] <= times[0]:
            raise ModelError("CombiTimeTable: a periodic table needs a last time after the first")
        self.timeScale = as_scalar(timeScale, "CombiTimeTable", "timeScale")
        if not self.timeScale > 0:
            raise ModelError(f"CombiTimeTable: timeScale must be positive, got {timeScale}")
        self.startTime = as_scalar(startTime, "CombiTimeTable", "startTime")
        self.shiftTime = as_scalar(shiftTime, "CombiTimeTable", "shiftTime")
        offsets = as_array(offset, "CombiTimeTable", "offset").ravel()
        if offsets.size not in (1, len(cols)):
            raise ModelError(f"CombiTimeTable: offset must be one number or one per column "
                             f"({len(cols)}), got {offsets.size}")
        self.times, self.values = times, data[:, [c - 1 for c in cols]]
        self.offset = np.broadcast_to(offsets, (len(cols),)).copy()
        self.columns, self.smoothness, self.extrapolation = cols, smoothness, extrapolation
        self.y = RealOutput(self, "y", len(cols))

    def outputs(self, ctx) -> dict:
        tau = (ctx.t - self.shiftTime) / self.timeScale
        if self.extrapolation is Extrapolation.Periodic:
            t0, period = self.times[0], self.times[-1] - self.times[0]
            tau = t0 + (tau - t0) - period * ca.floor((tau - t0) / period)
        entries = [self._column(tau, k) for k in range(self.values.shape[1])]
        started = ctx.t >= self.startTime
        return {self.y: ca.DM(self.offset) + started * ca.vertcat(*entries)}

    def _column(self, tau, k: int):
        """One column at table time tau: a sum of indicator-weighted pieces, so jumps (equal
        times) and both smoothness kinds need no search."""
        ts, ys = self.times, self.values[:, k]
        if ts.size == 1:
            return ys[0] + 0 * tau
        value = ca.SX(0) if isinstance(tau, ca.SX) else 0
        linear = self.smoothness is Smoothness.LinearSegments
        for i in range(ts.size - 1):
            if ts[i + 1] == ts[i]:
                continue   # a jump: the next piece starts at the same time
            inside = (tau >= ts[i]) * (tau < ts[i + 1])
            piece = ys[i] + (ys[i + 1] - ys[i]) * (tau - ts[i]) / (ts[i + 1] - ts[i]) \
                if linear else ys[i] + 0 * tau
            value = value + inside * piece
        return value + self._before(tau, ts, ys, linear) + self._after(tau, ts, ys, linear)

    def _before(self, tau, ts, ys, linear):
        slope = (ys[1] - ys[0]) / (ts[1] - ts[0]) if ts[1] > ts[0] else 0.0
        if self.extrapolation is not Extrapolation.LastTwoPoints or not linear:
            slope = 0.0
        return (tau < ts[0]) * (ys[0] + slope * (tau - ts[0]))

    def _after(self, tau, ts, ys, linear):
        slope = (ys[-1] - ys[-2]) / (ts[-1] - ts[-2]) if ts[-1] > ts[-2] else 0.0
        if self.extrapolation is not Extrapolation.LastTwoPoints or not linear:
            slope = 0.0
        return (tau >= ts[-1]) * (ys[-1] + slope * (tau - ts[-1]))

    def _real_times(self, t0: float, t_end: float) -> np.ndarray:
        ts = np.unique(self.times)
        if self.extrapolation is Extrapolation.Periodic:
            period = ts[-1] - ts[0]
            lo = np.floor(((t0 - self.shiftTime) / self.timeScale - ts[0]) / period)
            hi = np.ceil(((t_end - self.shiftTime) / self.timeScale - ts[0]) / period)
            ts = np.unique(np.concatenate([ts + k * period for k in np.arange(lo, hi + 1)]))
        return self.shiftTime + self.timeScale * ts

    def time_events(self, t0: float, t_end: float) -> list[float]:
        """The rows' times (kinks and jumps) and startTime in (t0, t_end); a run beyond the
        table with NoExtrapolation is refused here, before it starts."""
        if self.extrapolation is Extrapolation.NoExtrapolation:
            first, last = self._real_times(t0, t_end)[[0, -1]]
            if max(t0, self.startTime) < first or t_end > last:
                raise SimulationError(
                    f"{self.path}: extrapolation = NoExtrapolation, but the run from "
                    f"{t0:g} s to {t_end:g} s leaves the table's times [{first:g}, {last:g}] s; "
                    "extend the table or choose another Extrapolation")
        times = set(self._real_times(t0, t_end).tolist()) | {self.startTime}
        return sorted(float(t) for t in times if t0 < t < t_end)
