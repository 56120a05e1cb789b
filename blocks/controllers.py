"""Controller signal blocks: gains, state feedback, saturation, sums, vector routing and PID.

A closed loop of sensors, controllers and actuators is one model that compiles, simulates and
linearizes like any other. All blocks are memoryless except PID, whose integral and
derivative-filter states become system states s (x = (y, z, s)).
"""
from __future__ import annotations

from typing import ClassVar

import casadi as ca
import numpy as np

from .base import as_scalar, as_size
from .errors import ModelError
from .geometry import vex
from .ports import RealInput, RealOutput
from .signals import SignalBlock


def _matrix(value, owner: str, name: str) -> np.ndarray:
    """A finite 2-D float matrix (a scalar or vector becomes one row), or a ModelError."""
    try:
        mat = np.atleast_2d(np.asarray(value, dtype=float))
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{owner}: {name} must be a matrix of numbers, got {value!r}") from exc
    if mat.ndim != 2 or not np.all(np.isfinite(mat)) or mat.size == 0:
        raise ModelError(f"{owner}: {name} must be a finite, non-empty 2-D matrix, got shape "
                         f"{mat.shape}")
    return mat


def _vector(value, size: int, owner: str, name: str) -> np.ndarray:
    """A finite vector of ``size`` entries (a scalar is repeated), or a ModelError."""
    try:
        vec = np.broadcast_to(np.asarray(0.0 if value is None else value, dtype=float),
                              (size,))
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{owner}: {name} must be a number or {size} numbers, got "
                         f"{value!r}") from exc
    if not np.all(np.isfinite(vec)):
        raise ModelError(f"{owner}: {name} must be finite, got {value!r}")
    return np.array(vec)


class Gain(SignalBlock):
    """y = K·u for a constant matrix K (m × n): input ``u`` (n), output ``y`` (m)."""

    def __init__(self, K):
        self.K = _matrix(K, "Gain", "K")
        self.u = RealInput(self, "u", self.K.shape[1])
        self.y = RealOutput(self, "y", self.K.shape[0])

    def outputs(self, ctx) -> dict:
        return {self.y: ca.mtimes(ca.DM(self.K), ctx.value(self.u))}


class StateFeedback(SignalBlock):
    """u = u_ref − K·(x − x_ref): input ``x`` (n states), output ``u`` (m inputs).

    K : (m × n) gain, e.g. ``jd.lqr(lin, Q, R).K``; x_ref (n) and u_ref (m) default to 0 (a
    Feedback's ``x_op`` and ``u_op`` give the design's operating point). The state vector must
    be assembled (with Mux) in the order of the design's state names.
    """

    def __init__(self, K, x_ref=None, u_ref=None):
        self.K = _matrix(K, "StateFeedback", "K")
        m, n = self.K.shape
        self.x_ref = _vector(x_ref, n, "StateFeedback", "x_ref")
        self.u_ref = _vector(u_ref, m, "StateFeedback", "u_ref")
        self.x = RealInput(self, "x", n)
        self.u = RealOutput(self, "u", m)

    def outputs(self, ctx) -> dict:
        error = ctx.value(self.x) - ca.DM(self.x_ref)
        return {self.u: ca.DM(self.u_ref) - ca.mtimes(ca.DM(self.K), error)}


class PID(SignalBlock):
    """Continuous PID with a filtered derivative, y = k_p·e + k_i·∫e dt + k_d·ė_f, on the
    error input ``e`` (form e = reference − measurement with Add(1, −1)); output ``y``.

    The derivative is that of a first-order lag, ė_f = (e − x_f)/T_f with ẋ_f = (e − x_f)/T_f
    (transfer function k_d·s/(T_f·s + 1)), so it is proper and needs no derivative of the
    measurement. States: ``integral`` (∫e dt) and ``filter`` (x_f), both 0 at t = 0 unless
    set by name in z0 (start ``filter`` at e(0) to avoid a derivative kick).

    k_p [output/error], k_i [output/(error·s)], k_d [output·s/error], T_f [s] > 0.
    """

    STATES: ClassVar[tuple[str, ...]] = ("integral", "filter")

    def __init__(self, k_p: float = 1.0, k_i: float = 0.0, k_d: float = 0.0,
                 T_f: float = 0.01):
        self.k_p, self.k_i, self.k_d, self.T_f = (as_scalar(v, "PID", n) for v, n in
                                                  ((k_p, "k_p"), (k_i, "k_i"), (k_d, "k_d"),
                                                   (T_f, "T_f")))
        if not self.T_f > 0:
            raise ModelError(f"PID: the derivative filter time T_f must be positive, got "
                             f"{self.T_f} s")
        self.e = RealInput(self, "e")
        self.y = RealOutput(self, "y")

    def _filtered_rate(self, ctx):
        return (ctx.value(self.e) - ctx.state(self)[1]) / self.T_f

    def outputs(self, ctx) -> dict:
        integral = ctx.state(self)[0]
        return {self.y: self.k_p * ctx.value(self.e) + self.k_i * integral +
                self.k_d * self._filtered_rate(ctx)}

    def derivatives(self, ctx) -> list:
        return [ctx.value(self.e), self._filtered_rate(ctx)]


class Saturation(SignalBlock):
    """y = min(max(u, lower), upper) entrywise, e.g. a motor's torque limit [N·m].

    The limits make the closed loop piecewise smooth; the integrator steps through the kinks.
    """

    def __init__(self, upper, lower=None, size: int = 1):
        size = as_size(size, "Saturation", "size")
        self.upper = _vector(upper, size, "Saturation", "upper")
        self.lower = -self.upper if lower is None else _vector(lower, size, "Saturation",
                                                               "lower")
        if np.any(self.lower > self.upper):
            raise ModelError(f"Saturation: lower {self.lower} exceeds upper {self.upper}")
        self.u = RealInput(self, "u", size)
        self.y = RealOutput(self, "y", size)

    def outputs(self, ctx) -> dict:
        clipped = ca.fmin(ca.fmax(ctx.value(self.u), ca.DM(self.lower)), ca.DM(self.upper))
        return {self.y: clipped}


class Add(SignalBlock):
    """y = k1·u1 + k2·u2 for signals of ``size`` entries (k2 = −1 gives a difference)."""

    def __init__(self, k1: float = 1.0, k2: float = 1.0, size: int = 1):
        self.k1, self.k2 = as_scalar(k1, "Add", "k1"), as_scalar(k2, "Add", "k2")
        size = as_size(size, "Add", "size")
        self.u1 = RealInput(self, "u1", size)
        self.u2 = RealInput(self, "u2", size)
        self.y = RealOutput(self, "y", size)

    def outputs(self, ctx) -> dict:
        return {self.y: self.k1 * ctx.value(self.u1) + self.k2 * ctx.value(self.u2)}


class Mux(SignalBlock):
    """Stack inputs ``u1`` … ``un`` (sizes given) into one vector output ``y``."""

    def __init__(self, *sizes: int):
        if not sizes:
            raise ModelError("Mux: give the positive sizes of the inputs, e.g. Mux(1, 1, 3)")
        sizes = [as_size(s, "Mux", f"the size of u{i}") for i, s in enumerate(sizes, 1)]
        self.inputs = [RealInput(self, f"u{i}", s) for i, s in enumerate(sizes, 1)]
        for port in self.inputs:
            setattr(self, port.name, port)
        self.y = RealOutput(self, "y", int(sum(sizes)))

    def outputs(self, ctx) -> dict:
        return {self.y: ca.vertcat(*[ctx.value(p) for p in self.inputs])}


class Demux(SignalBlock):
    """Split the vector input ``u`` into outputs ``y1`` … ``yn`` of the given sizes."""

    def __init__(self, *sizes: int):
        if not sizes:
            raise ModelError("Demux: give the positive sizes of the outputs, e.g. Demux(1, 2)")
        sizes = [as_size(s, "Demux", f"the size of y{i}") for i, s in enumerate(sizes, 1)]
        self.u = RealInput(self, "u", sum(sizes))
        self.outputs_ = [RealOutput(self, f"y{i}", s) for i, s in enumerate(sizes, 1)]
        for port in self.outputs_:
            setattr(self, port.name, port)

    def outputs(self, ctx) -> dict:
        value, start, out = ctx.value(self.u), 0, {}
        for port in self.outputs_:
            out[port] = value[start:start + port.size]
            start += port.size
        return out


class AttitudeError(SignalBlock):
    """Attitude and body rates from a FrameSensor, in the linearization's chart coordinates.

    Inputs ``R`` (9, row-major frame → world rotation) and ``w`` (3, world angular velocity
    [rad/s]); outputs ``theta`` (3) = 2·vex(E − Eᵀ)/(1 + tr E) with E = R_refᵀ·R, the rotation
    vector of the Gibbs chart (exact inverse of the chart of :mod:`jourdain.solver.linearize`,
    valid below 180°) [rad], and ``w_local`` (3) = Rᵀ·w, the body-fixed angular velocity.
    R_ref is the reference orientation (frame → world) at θ = 0 (default: the identity).
    """

    def __init__(self, R_ref=None):
        self.R_ref = np.eye(3) if R_ref is None else _matrix(R_ref, "AttitudeError", "R_ref")
        if self.R_ref.shape != (3, 3) or not np.allclose(self.R_ref.T @ self.R_ref, np.eye(3),
                                                         atol=1e-9):
            raise ModelError("AttitudeError: R_ref must be a 3×3 rotation matrix")
        self.R = RealInput(self, "R", 9)
        self.w = RealInput(self, "w", 3)
        self.theta = RealOutput(self, "theta", 3, "rad")
        self.w_local = RealOutput(self, "w_local", 3, "rad/s")

    def outputs(self, ctx) -> dict:
        R = ca.reshape(ctx.value(self.R), 3, 3).T
        E = ca.mtimes(ca.DM(self.R_ref).T, R)
        return {self.theta: 2 * vex(E) / (1 + ca.trace(E)),
                self.w_local: ca.mtimes(R.T, ctx.value(self.w))}
