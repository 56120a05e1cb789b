"""Continuous signal blocks with states (Modelica ``Blocks.Continuous``, same names and
parameters): Integrator, FirstOrder, PI, SecondOrder, CriticalDamping, Butterworth (Modelica's
``LowpassButterworth``, equal to ``Filter`` with a Butterworth low pass) and TransferFunction.

Each is a single-input single-output block (input ``u``, output ``y``) written with the
component state contract (docs/domains.md): ``STATES``, ``derivatives(ctx)`` and, for the
initialization, ``init``:

* ``Init.INITIAL_STATE`` (default): the states start at their start values (x_start, y_start);
* ``Init.STEADY_STATE``: the derivatives of the states vanish at t0 (the block starts settled
  on its input at t0; Modelica ``Init.SteadyState``);
* ``Init.INITIAL_OUTPUT``: y = y_start, the other states steady.

The initial equations are solved by Newton before a simulation starts; states given by name in
``z0`` are held.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import casadi as ca
import numpy as np

from .base import as_scalar, as_scalars, param
from .errors import ModelError
from .ports import RealInput, RealOutput
from .signals import SignalBlock


class Init(Enum):
    """How a continuous block's states are initialized (Modelica ``Blocks.Types.Init``)."""

    INITIAL_STATE = "initial_state"     # start values (x_start / y_start)
    STEADY_STATE = "steady_state"       # der(x) = 0 at t0
    INITIAL_OUTPUT = "initial_output"   # y = y_start, the other states steady


class Continuous(SignalBlock):
    """Base of the SISO blocks below: ports u, y; ``_derivatives``, ``_output`` and the
    initial equations of ``init``."""

    def _make_ports(self) -> None:
        if not isinstance(self.init, Init):
            raise ModelError(f"{type(self).__name__}: init must be a jd.blocks.Init, got "
                             f"{self.init!r}")
        self.y_start = as_scalar(self.y_start, type(self).__name__, "y_start")
        self.u = RealInput(self, "u")
        self.y = RealOutput(self, "y")

    def outputs(self, ctx) -> dict:
        return {self.y: self._output(ctx.state(self), ctx.value(self.u))}

    def derivatives(self, ctx) -> list:
        return ca.vertsplit(self._derivatives(ctx.state(self), ctx.value(self.u)))

    def initial_equations(self, ctx):
        if self.init is Init.INITIAL_STATE:
            return None
        der = self.derivatives(ctx)
        if self.init is Init.STEADY_STATE:
            return der
        y = self._output(ctx.state(self), ctx.value(self.u))
        return [y - self.y_start] + der[:-1]


@dataclass(eq=False)
class Integrator(Continuous):
    """y = k·∫u dt (Modelica ``Integrator``): state ``x`` = y, starting at y_start.

    k : [1] integrator gain.  y_start : initial output (Init.INITIAL_STATE).
    A steady-state start is singular (der(x) = k·u does not depend on x) and is refused.
    """

    k: float = param(1.0, "1", "integrator gain")
    y_start: float = 0.0
    init: Init = Init.INITIAL_STATE
    STATES = ("x",)

    def __post_init__(self):
        self.k = as_scalar(self.k, "Integrator", "k")
        self._make_ports()

    def start(self) -> list:
        return [self.y_start]

    def _derivatives(self, x, u):
        return self.k * u

    def _output(self, x, u):
        return x[0]


@dataclass(eq=False)
class FirstOrder(Continuous):
    """First-order lag T·ẏ + y = k·u (Modelica ``FirstOrder``): state ``x`` = y.

    k : [1] gain.  T : [s] time constant, > 0.  y_start : initial output.
    """

    k: float = param(1.0, "1", "gain")
    T: float = param(1.0, "s", "time constant")
    y_start: float = 0.0
    init: Init = Init.INITIAL_STATE
    STATES = ("x",)

    def __post_init__(self):
        self.k, self.T = as_scalar(self.k, "FirstOrder", "k"), as_scalar(self.T, "FirstOrder", "T")
        self._make_ports()

    def validate(self) -> None:
        _positive(self, T=self.T)

    def start(self) -> list:
        return [self.y_start]

    def _derivatives(self, x, u):
        return (self.k * u - x[0]) / self.T

    def _output(self, x, u):
        return x[0]


@dataclass(eq=False)
class PI(Continuous):
    """Proportional-integral controller y = k·(x + u), ẋ = u/T (Modelica
    ``Blocks.Continuous.PI``, same parameters): transfer function k·(1 + 1/(T·s)).

    k : [1] gain.  T : [s] time constant of the integral part, > 0.
    x_start : start of the integral state (Init.INITIAL_STATE); y_start : initial output
    (Init.INITIAL_OUTPUT). Init.STEADY_STATE asks u(t0) = 0 of the loop, a residual that does
    not involve x, and is refused as for the Integrator.
    """

    k: float = param(1.0, "1", "gain")
    T: float = param(1.0, "s", "time constant")
    x_start: float = 0.0
    y_start: float = 0.0
    init: Init = Init.INITIAL_STATE
    STATES = ("x",)

    def __post_init__(self):
        as_scalars(self, "PI", "k", "T", "x_start")
        self._make_ports()

    def validate(self) -> None:
        _positive(self, T=self.T)

    def start(self) -> list:
        return [self.x_start]

    def _derivatives(self, x, u):
        return u / self.T

    def _output(self, x, u):
        return self.k * (x[0] + u)


@dataclass(eq=False)
class SecondOrder(Continuous):
    """Second-order lag y = k/((s/w)² + 2·D·(s/w) + 1)·u (Modelica ``SecondOrder``): states
    ``x`` = y and ``xd`` = ẏ.

    k : [1] gain.  w : [rad/s] angular frequency, > 0.  D : [1] damping, ≥ 0.
    """

    k: float = param(1.0, "1", "gain")
    w: float = param(1.0, "rad/s", "angular frequency")
    D: float = param(1.0, "1", "damping")
    y_start: float = 0.0
    init: Init = Init.INITIAL_STATE
    STATES = ("x", "xd")

    def __post_init__(self):
        as_scalars(self, "SecondOrder", "k", "w", "D")
        self._make_ports()

    def validate(self) -> None:
        _positive(self, w=self.w)

    def start(self) -> list:
        return [self.y_start, 0.0]

    def _derivatives(self, x, u):
        return ca.vertcat(x[1], self.w ** 2 * (self.k * u - x[0]) - 2 * self.D * self.w * x[1])

    def _output(self, x, u):
        return x[0]


def _positive(block, **values) -> None:
    for name, value in values.items():
        if not value > 0:
            raise ModelError(f"{block.path}: {name} must be positive, got {value}")


def _order(n, owner: str) -> int:
    if int(n) != n or n < 1:
        raise ModelError(f"{owner}: the order n must be a positive integer, got {n!r}")
    return int(n)


@dataclass(eq=False)
class CriticalDamping(Continuous):
    """n-th order filter with critical damping (Modelica ``CriticalDamping``):
    y = u/(s/ω + 1)ⁿ, ω = 2π·f/α, α = √(2^(1/n) − 1) when normalized (−3 dB at f), else 1;
    n first-order stages ẋ₁ = ω·(u − x₁), ẋᵢ = ω·(xᵢ₋₁ − xᵢ), y = xₙ (states x1 … xn).

    n : order ≥ 1.  f : [Hz] cut-off frequency, > 0.  normalized : amplitude 1/√2 at f.
    x_start : start values of the states (default zeros).  y_start : Init.INITIAL_OUTPUT's y.
    """

    n: int = 2
    f: float = param(1.0, "Hz", "cut-off frequency")
    normalized: bool = True
    init: Init = Init.INITIAL_STATE
    x_start: tuple | None = None
    y_start: float = 0.0

    def __post_init__(self):
        self.n = _order(self.n, "CriticalDamping")
        self.f = as_scalar(self.f, "CriticalDamping", "f")
        self.STATES = tuple(f"x{i + 1}" for i in range(self.n))
        self.x_start = _starts(self.x_start, self.n, "CriticalDamping")
        self._make_ports()

    def validate(self) -> None:
        _positive(self, f=self.f)

    def start(self) -> list:
        return list(self.x_start)

    def _derivatives(self, x, u):
        alpha = np.sqrt(2 ** (1 / self.n) - 1) if self.normalized else 1.0
        w = 2 * np.pi * self.f / alpha
        inputs = ca.vertcat(u, x[:-1]) if self.n > 1 else u
        return w * (inputs - x)

    def _output(self, x, u):
        return x[self.n - 1]


def _starts(values, n: int, owner: str) -> tuple:
    if values is None:
        return (0.0,) * n
    out = tuple(np.asarray(values, dtype=float).ravel())
    if len(out) != n:
        raise ModelError(f"{owner}: x_start needs {n} values, got {len(out)}")
    return out


@dataclass(eq=False)
class Butterworth(Continuous):
    """n-th order Butterworth low pass (Modelica ``LowpassButterworth``; ``Filter`` with
    analogFilter = Butterworth, filterType = LowPass): amplitude 1/√2 at f, as a series of
    m = ⌊n/2⌋ second-order stages ẋ1ᵢ = x2ᵢ, ẋ2ᵢ = ω0ᵢ²·(zᵢ − x1ᵢ) − 2·Dᵢ·ω0ᵢ·x2ᵢ (z₁ = u,
    zᵢ₊₁ = x1ᵢ) with the prototype poles e^{i(π/2 + π(i − ½)/n)} scaled by ω = 2π·f, and for
    odd n a first-order stage ẋr = ω·(z_{m+1} − xr). States x1_1, x2_1, …, (xr).

    n : order ≥ 1.  f : [Hz] cut-off frequency, > 0.  y_start : Init.INITIAL_OUTPUT's y.
    """

    n: int = 2
    f: float = param(1.0, "Hz", "cut-off frequency")
    init: Init = Init.INITIAL_STATE
    y_start: float = 0.0

    def __post_init__(self):
        self.n = _order(self.n, "Butterworth")
        self.f = as_scalar(self.f, "Butterworth", "f")
        m = self.n // 2
        self.STATES = tuple(n for i in range(1, m + 1) for n in (f"x1_{i}", f"x2_{i}")) + \
            (("xr",) if self.n % 2 else ())
        self._make_ports()

    def validate(self) -> None:
        _positive(self, f=self.f)

    def _derivatives(self, x, u):
        w, n, z, out = 2 * np.pi * self.f, self.n, u, []
        for i in range(n // 2):
            angle = np.pi / 2 + np.pi / n * (i + 0.5)
            damping = -np.cos(angle)            # D = −Re(pole) for unit-modulus poles
            x1, x2 = x[2 * i], x[2 * i + 1]
            out += [x2, w ** 2 * (z - x1) - 2 * damping * w * x2]
            z = x1
        if n % 2:
            out.append(w * (z - x[n - 1]))
        return ca.vertcat(*out)

    def _output(self, x, u):
        return x[self.n - 1] if self.n % 2 else x[self.n - 2]


class TransferFunction(Continuous):
    """y = (b₀·s^{nb−1} + … + b_{nb−1}) / (a₀·s^{na−1} + … + a_{na−1}) · u (Modelica
    ``TransferFunction``, coefficients in descending powers of s), proper (nb ≤ na, a₀ ≠ 0),
    realized in controllable canonical form (scipy.signal.tf2ss); states x1 … x_{na−1}.

    b, a : numerator and denominator coefficients.  x_start : start values (default zeros).
    """

    def __init__(self, b, a, init: Init = Init.INITIAL_STATE, x_start=None,
                 y_start: float = 0.0):
        from scipy.signal import tf2ss
        b_arr, a_arr = (np.atleast_1d(np.asarray(v, dtype=float)).ravel() for v in (b, a))
        if a_arr.size == 0 or a_arr[0] == 0 or b_arr.size > a_arr.size or \
                not np.all(np.isfinite(np.concatenate([a_arr, b_arr]))):
            raise ModelError(f"TransferFunction: needs a proper transfer function with a[0] ≠ 0"
                             f" and len(b) ≤ len(a), got b={b!r}, a={a!r}")
        self.b, self.a = tuple(b_arr), tuple(a_arr)
        A, B, C, D = tf2ss(b_arr, a_arr)
        self.A, self.B, self.C, self.D = (np.atleast_2d(m) for m in (A, B, C, D))
        self.STATES = tuple(f"x{i + 1}" for i in range(a_arr.size - 1))
        self.x_start = _starts(x_start, len(self.STATES), "TransferFunction")
        self.init, self.y_start = init, y_start
        self._make_ports()

    def start(self) -> list:
        return list(self.x_start)

    def _derivatives(self, x, u):
        if not self.STATES:
            return ca.SX(0, 1)
        return ca.mtimes(ca.DM(self.A), x) + ca.DM(self.B) * u

    def _output(self, x, u):
        y = ca.DM(self.D)[0, 0] * u
        return y + ca.mtimes(ca.DM(self.C), x) if self.STATES else y
