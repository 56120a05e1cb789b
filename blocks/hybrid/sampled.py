"""Sampled (discrete-time) signal blocks: a digital controller inside a continuous plant.

Each block samples its input at t_k = start_time + k·sample_period, updates its discrete
state and holds its output until the next sample (zero-order hold). The held values are
discrete variables of the simulation (``<path>.y``, ``<path>.u[0]``, …) and appear in the
Result. Chains of blocks sampled at the same instant update in signal order.
"""
from __future__ import annotations

from typing import ClassVar

import casadi as ca
import numpy as np

from ..base import as_scalar
from ..controllers import _matrix, _vector
from ..errors import ModelError
from ..ports import RealInput, RealOutput
from ..signals import SignalBlock
from .base import Discrete, Sampled


def _entries(name: str, size: int) -> tuple[str, ...]:
    return (name,) if size == 1 else tuple(f"{name}[{i}]" for i in range(size))


def _held(ctx, block, names) -> ca.SX:
    values = ctx.discrete(block)
    return ca.vertcat(*[values[n] for n in names])


class ZeroOrderHold(SignalBlock, Sampled):
    """y(t) = u(t_k) for t_k ≤ t < t_k + sample_period (MSL Blocks.Discrete.ZeroOrderHold):
    input ``u`` and output ``y`` of ``size`` entries; y is 0 before the first sample.

    sample_period [s] > 0, start_time [s] (first sample).
    """

    def __init__(self, sample_period: float, start_time: float = 0.0, size: int = 1):
        self._set_sampling(sample_period, start_time, "ZeroOrderHold")
        self.u = RealInput(self, "u", size)
        self.y = RealOutput(self, "y", size)
        self._names = _entries("y", size)
        self.DISCRETE = tuple(Discrete(n, 0.0, "held output") for n in self._names)

    def outputs(self, ctx) -> dict:
        return {self.y: _held(ctx, self, self._names)}

    def update(self, ctx) -> dict:
        return dict(zip(self._names, ca.vertsplit(ca.reshape(ctx.value(self.u), -1, 1))))


class DiscreteStateFeedback(SignalBlock, Sampled):
    """u_k = u_ref − K·(x(t_k) − x_ref), held between samples: the sampled form of
    :class:`~jourdain.blocks.controllers.StateFeedback` (same K, x_ref, u_ref), e.g. an LQR
    running at 1 kHz. Input ``x`` (n), output ``u`` (m)."""

    def __init__(self, K, sample_period: float, x_ref=None, u_ref=None,
                 start_time: float = 0.0):
        self._set_sampling(sample_period, start_time, "DiscreteStateFeedback")
        self.K = _matrix(K, "DiscreteStateFeedback", "K")
        m, n = self.K.shape
        self.x_ref = _vector(x_ref, n, "DiscreteStateFeedback", "x_ref")
        self.u_ref = _vector(u_ref, m, "DiscreteStateFeedback", "u_ref")
        self.x = RealInput(self, "x", n)
        self.u = RealOutput(self, "u", m)
        self._names = _entries("u", m)
        self.DISCRETE = tuple(Discrete(n_, 0.0, "held output") for n_ in self._names)

    def outputs(self, ctx) -> dict:
        return {self.u: _held(ctx, self, self._names)}

    def update(self, ctx) -> dict:
        error = ctx.value(self.x) - ca.DM(self.x_ref)
        new = ca.DM(self.u_ref) - ca.mtimes(ca.DM(self.K), error)
        return dict(zip(self._names, ca.vertsplit(new)))


class DiscretePID(SignalBlock, Sampled):
    """Digital PID on the error input ``e``, output ``y`` held between samples:

        I_k = I_{k−1} + T·e_k                          (backward-Euler integral)
        D_k = (T_f·D_{k−1} + k_d·(e_k − e_{k−1}))/(T_f + T)   (filtered derivative, the
              backward-Euler form of k_d·s/(T_f·s + 1))
        y_k = k_p·e_k + k_i·I_k + D_k,

    with T the sample period; y saturates to [y_min, y_max] and the integral stops growing
    while saturated (conditional integration against wind-up). Discrete variables:
    ``integral``, ``e_last``, ``derivative``, ``y``.

    k_p [output/error], k_i [output/(error·s)], k_d [output·s/error], T_f [s] ≥ 0.
    """

    DISCRETE: ClassVar = (Discrete("integral"), Discrete("e_last"), Discrete("derivative"),
                          Discrete("y", 0.0, "held output"))

    def __init__(self, k_p: float = 1.0, k_i: float = 0.0, k_d: float = 0.0,
                 T_f: float = 0.0, sample_period: float = 1e-3, start_time: float = 0.0,
                 y_max: float = np.inf, y_min: float | None = None):
        self._set_sampling(sample_period, start_time, "DiscretePID")
        self.k_p, self.k_i, self.k_d, self.T_f = (as_scalar(v, "DiscretePID", n) for v, n in
                                                  ((k_p, "k_p"), (k_i, "k_i"), (k_d, "k_d"),
                                                   (T_f, "T_f")))
        if self.T_f < 0:
            raise ModelError(f"DiscretePID: the derivative filter time T_f must be ≥ 0, got "
                             f"{self.T_f} s")
        self.y_max = _bound(y_max, "y_max")
        self.y_min = -self.y_max if y_min is None else _bound(y_min, "y_min")
        if not self.y_min < self.y_max:
            raise ModelError(f"DiscretePID: y_min ({self.y_min}) must be below y_max "
                             f"({self.y_max})")
        self.e = RealInput(self, "e")
        self.y = RealOutput(self, "y")

    def outputs(self, ctx) -> dict:
        return {self.y: ctx.discrete(self)["y"]}

    def update(self, ctx) -> dict:
        d, e, T = ctx.discrete(self), ctx.value(self.e), self.sample_period
        derivative = (self.T_f * d["derivative"] + self.k_d * (e - d["e_last"])) / (self.T_f + T)
        integral = d["integral"] + T * e
        raw = self.k_p * e + self.k_i * integral + derivative
        y = ca.fmin(ca.fmax(raw, self.y_min), self.y_max)
        integral = ca.if_else(raw == y, integral, d["integral"])   # no wind-up
        return {"integral": integral, "e_last": e, "derivative": derivative, "y": y}


def _bound(value, name: str) -> float:
    """An output limit of DiscretePID: a number (±inf allowed), not NaN, not a string."""
    try:
        if isinstance(value, (str, bytes, bool)):
            raise TypeError
        num = float(value)
    except (TypeError, ValueError):
        raise ModelError(f"DiscretePID: {name} must be a number (±inf for no limit), got "
                         f"{value!r}") from None
    if np.isnan(num):
        raise ModelError(f"DiscretePID: {name} must not be NaN")
    return num
