"""Signal blocks: sources of time functions (and the base of sensors and controllers).

A signal block implements one pure hook, ``outputs(ctx)``, mapping each of its RealOutput
ports to a CasADi expression of time, its inputs (``ctx.value``) and, for sensors, the
kinematics of its mechanical ports.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import casadi as ca
import numpy as np

from .base import Component, as_array, as_scalar, param
from .errors import ModelError
from .ports import RealOutput


class SignalBlock(Component):
    """Contract of a signal block: RealInput/RealOutput ports and ``outputs(ctx)``.

    A block with memory (a PID's integral, a filter) names its internal states in ``STATES``
    (they become system states s, appended to x = (y, z, s), initially 0) and returns their
    time derivatives from ``derivatives(ctx)``; both hooks read them with ``ctx.state(self)``.
    """

    STATES: ClassVar[tuple[str, ...]] = ()

    def outputs(self, ctx) -> dict:
        raise NotImplementedError

    def derivatives(self, ctx) -> list:
        """ds/dt of the block's STATES, in their order (none for memoryless blocks)."""
        return []


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
        for name in ("height", "t_step", "offset"):
            setattr(self, name, as_scalar(getattr(self, name), "Step", name))
        self._make_output()

    def outputs(self, ctx) -> dict:
        return {self.y: self.offset + self.height * (ctx.t >= self.t_step)}


@dataclass(eq=False)
class Sine(_Source):
    """y = offset + amplitude·sin(2π·f·t + phase); f [Hz], phase [rad]."""

    amplitude: float = param(1.0, "1", "amplitude")
    f: float = param(1.0, "Hz", "frequency")
    phase: float = param(0.0, "rad", "phase")
    offset: float = param(0.0, "1", "offset")

    def __post_init__(self):
        for name in ("amplitude", "f", "phase", "offset"):
            setattr(self, name, as_scalar(getattr(self, name), "Sine", name))
        self._make_output()

    def outputs(self, ctx) -> dict:
        return {self.y: self.offset + self.amplitude * ca.sin(2 * np.pi * self.f * ctx.t
                                                               + self.phase)}


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
