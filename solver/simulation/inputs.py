"""The inputs of one simulation: constants, tables (t, values) and callables of time.

* a **constant** enters as a number;
* a **table** becomes a clamped piecewise-linear interpolant of t (CasADi ``interpolant``,
  binary search) inside the integrated equations; its times are restarts of the integrator
  (:mod:`.discontinuities`). A table whose values zig-zag at the rate of its own samples
  cannot represent the signal it was sampled from (aliasing): :func:`check_table` warns with
  the numbers (aliasing at a whole number of periods per sample cannot be seen in the
  samples: a table is the signal as given);
* a **callable** ``u(t)`` is called exactly where the integrator asks, through a CasADi
  ``Callback`` in an MX graph (as a Python controller is, :mod:`.loop`), so CVODES's error
  control sees the true signal whatever the horizon. (Before, callables were sampled at
  2001 points over the horizon and interpolated: a 50 Hz sine over 40 s arrived with 0.057
  of its amplitude, without a word.) The Callback's derivative with respect to t, never
  needed by CVODES (its Jacobian is ∂f/∂x), is left to finite differences.

Consumers that can take MX (simulate, the event loop, islands, controllers, compiled code,
closed loops, the DAE method) call the callables (:attr:`InputSignals.needs_mx`). Where an
expression must be SX (parameter estimation's shooting), a callable is sampled over the output
grid, and refused by name (:func:`check_sampling`) when the samples' interpolation misses it
by more than SAMPLING_TOL of its range at the midpoints.
"""
from __future__ import annotations

import functools
import math
import warnings

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError
from jourdain.blocks.signals import table_events

from ..model.checks import finite, mapping, number
from ..model.names import unknown
from .discontinuities import jumps_of

ZIGZAG = 0.5   # a table with local extrema at more than this fraction of its samples aliases
MIN_SAMPLES = 2001       # samples of a callable where SX is needed (see sampled)
SAMPLES_PER_OUTPUT = 8   # ... or this many per output interval, if more
SAMPLING_TOL = 1e-3      # the samples' interpolation may miss the callable by this (of range)
MISSED = 0.01            # ... at up to this fraction of the midpoints


class InputWarning(UserWarning):
    """An input table that cannot represent its signal (aliasing)."""


class InputSignals:
    """The checked inputs of a run (module docstring): ``expression(t)``, ``numbers(t)``,
    ``breakpoints``; ``error`` holds the first exception a callable raised inside the
    integrator (CasADi passes on a RuntimeError without it)."""

    def __init__(self, system, inputs: dict | None):
        inputs = mapping(inputs or {}, "inputs", "input name")
        for name in inputs:
            if name not in system.u_names:
                raise ModelError(unknown("inputs", name, system.u_names) +
                                 (" (the model has no free inputs)" if not system.u_names
                                  else ""))
        self.names = list(system.u_names)
        self.given = list(inputs)   # set by the caller (a sampler must not override them)
        self.specs = [_spec(name, inputs.get(name, 0.0)) for name in self.names]
        self.callables = [k for k, s in enumerate(self.specs) if s[0] == "callable"]
        self.error: Exception | None = None
        self._callback = None

    @functools.cached_property
    def breakpoints(self) -> list[float]:
        """Where a table restarts the integrator (the blocks' Table rule: every time of a
        short table, the steep segments' ends of a long one); found when an integrator asks
        (a stepping run does not: 0.24 ms of each cheetah run for its six torque tables)."""
        return sorted({t for s in self.specs if s[0] == "table"
                       for t in table_events(s[1], s[2], -np.inf, np.inf)})

    @property
    def needs_mx(self) -> bool:
        """True when a callable input makes u(t) an MX expression (a Callback call)."""
        return bool(self.callables)

    def expression(self, t, grid=None):
        """u(t) as an expression of ``t``: callables called exactly when ``t`` is MX; in an
        SX graph they are sampled over ``grid`` (its span, SAMPLES_PER_OUTPUT per output
        interval, at least MIN_SAMPLES) and interpolated, after :func:`check_sampling`;
        without a grid an SX expression refuses them by name."""
        entries = [None] * len(self.names)
        if self.callables and isinstance(t, ca.MX):
            called = ca.vertsplit(self.callback()(t))
            for k, value in zip(self.callables, called):
                entries[k] = value
        elif self.callables:
            if grid is None:
                names = ", ".join(self.names[k] for k in self.callables)
                raise ModelError(f"inputs: {names} given as a Python function cannot enter "
                                 "here (a symbolic SX expression is needed); give a (t, "
                                 "values) table instead")
            for k in self.callables:
                ts, vs = sampled(self.names[k], self.specs[k][1], grid)
                entries[k] = _interpolant(k, ts, vs, t)
        for k, spec in enumerate(self.specs):
            if spec[0] == "constant":
                entries[k] = spec[1] + 0 * t
            elif spec[0] == "table":
                entries[k] = _interpolant(k, spec[1], spec[2], t)
        return ca.vertcat(*entries) if entries else type(t)(0, 1)

    def numbers(self, t: float) -> np.ndarray:
        """u(t) as numbers (callables called directly)."""
        out = np.zeros(len(self.names))
        for k, spec in enumerate(self.specs):
            if spec[0] == "constant":
                out[k] = spec[1]
            elif spec[0] == "table":
                out[k] = np.interp(t, spec[1], spec[2])
            else:
                out[k] = call(self.names[k], spec[1], t)
        return out

    def on(self, times) -> np.ndarray:
        """u at ``times``: one column per time (len(names) × n)."""
        times = np.asarray(times, dtype=float).ravel()
        out = np.zeros((len(self.names), times.size))
        # a table or a constant row at once (a stepping run asks for thousands of times)
        for k, spec in enumerate(self.specs):
            if spec[0] == "constant":
                out[k] = spec[1]
            elif spec[0] == "table":
                out[k] = np.interp(times, spec[1], spec[2])
            else:
                out[k] = [call(self.names[k], spec[1], t) for t in times]
        return out

    def function(self, sym=None) -> ca.Function:
        """u_of_t(t) as a casadi.Function (MX when a callable needs it, else ``sym``)."""
        sym = ca.MX if self.needs_mx else (sym or ca.SX)
        t = sym.sym("t")
        options = {"never_inline": True} if sym is ca.MX else {}
        return ca.Function("u_of_t", [t], [self.expression(t)], ["t"], ["u"], options)

    def callback(self) -> "_Callables":
        if self._callback is None:
            self._callback = _Callables(self)
        return self._callback

    def builder(self):
        """t ↦ u(t) as expressions, for the event loop (which builds them in its own time
        variable); carries ``breakpoints``, ``needs_mx`` and ``signals`` (this object)."""
        def build(t):
            return self.expression(t)
        build.breakpoints, build.needs_mx, build.signals = self.breakpoints, self.needs_mx, self
        build.given = self.given
        return build

    def raise_recorded(self, exc: BaseException) -> None:
        """Re-raise the error a callable raised inside the integrator (if any) as itself."""
        if self.error is not None and self.error is not exc:
            raise self.error from exc


def _interpolant(k: int, ts: np.ndarray, vs: np.ndarray, t):
    table = ca.interpolant(f"input_{k}", "linear", [ts], vs)
    return table(ca.fmin(ca.fmax(t, ts[0]), ts[-1]))


def sampled(name: str, fn, grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(times, values) of a callable over the span of ``grid`` where an SX expression is
    needed (parameter estimation, closed-loop partitions), checked by
    :func:`check_sampling`."""
    n = max(MIN_SAMPLES, SAMPLES_PER_OUTPUT * (len(grid) - 1) + 1)
    ts = np.linspace(grid[0], grid[-1], n)
    vs = np.array([call(name, fn, t) for t in ts])
    # a jump (a step torque) is kept a jump: two samples 1e-12·(1 + |t|) s apart on either
    # side of it (:func:`.discontinuities.jumps_of`), not a ramp over a sample interval
    found = jumps_of(ts, vs, lambda t: call(name, fn, t))
    if found:
        ts = np.union1d(ts, [t - 1e-12 * (1 + abs(t)) for t in found] + found)
        vs = np.array([call(name, fn, t) for t in ts])
    check_sampling(name, fn, ts, vs)
    return ts, vs


def check_sampling(name: str, fn, ts: np.ndarray, vs: np.ndarray) -> None:
    """A ModelError when the linear interpolation of the samples misses the callable by more
    than SAMPLING_TOL of its range at more than MISSED of the midpoints (e.g. a 50 Hz sine
    sampled at 2001 points over 40 s, which arrived with 6 % of its amplitude); the few
    midpoints beside the jumps of a step torque are as well as sampling can do."""
    mids = 0.5 * (ts[:-1] + ts[1:])
    exact = np.array([call(name, fn, t) for t in mids])
    miss = np.abs(exact - 0.5 * (vs[:-1] + vs[1:]))
    scale = max(float(np.ptp(np.concatenate([vs, exact]))), 1e-300)
    worst = int(np.argmax(miss))
    missed = np.count_nonzero(miss > SAMPLING_TOL * scale)
    if missed > MISSED * miss.size:   # a few: the jumps of a step, as sampled as can be
        raise ModelError(
            f"inputs: the function given for '{name}' must be sampled here ({ts.size} samples "
            f"{ts[1] - ts[0]:.3g} s apart), and the samples miss it at {missed} of their "
            f"midpoints by more than {SAMPLING_TOL:g} of its range, by {miss[worst]:.3g} "
            f"({100 * miss[worst] / scale:.3g} % of its range) at t = {mids[worst]:.6g} s; "
            "give more output times (n_out) or a (t, values) table fine enough")


def call(name: str, fn, t: float) -> float:
    """fn(t) as a finite float, or a ModelError naming the input and the time."""
    try:
        value = fn(t)
    except Exception as exc:  # the user's callable failed: say which input
        raise ModelError(f"inputs: calling the function given for '{name}' failed at "
                         f"t = {t:.6g} s: {type(exc).__name__}: {exc}") from exc
    try:
        number_ = float(value)   # the common case first: the call is per CVODES evaluation
    except (TypeError, ValueError):
        try:
            number_ = float(np.asarray(value, dtype=float).reshape(()))
        except (TypeError, ValueError):
            raise ModelError(f"inputs: the function given for '{name}' returned "
                             f"{value!r:.60} at t = {t:.6g} s; it must return one number") \
                from None
    if not math.isfinite(number_):
        raise ModelError(f"inputs: the function given for '{name}' returns {number_} at "
                         f"t = {t:.6g} s; inputs must be finite")
    return number_


class _Callables(ca.Callback):
    """CasADi Callback t -> the callable inputs' values at t (module docstring)."""

    def __init__(self, signals: InputSignals):
        ca.Callback.__init__(self)
        self.signals = signals
        self.entries = [(signals.names[k], signals.specs[k][1]) for k in signals.callables]
        self.calls = 0
        self.construct("inputs", {"enable_fd": True})

    def get_n_in(self):
        return 1

    def get_n_out(self):
        return 1

    def get_name_in(self, i):
        return "t"

    def get_name_out(self, i):
        return "u"

    def get_sparsity_in(self, i):
        return ca.Sparsity.dense(1)

    def get_sparsity_out(self, i):
        return ca.Sparsity.dense(len(self.entries))

    def has_eval_buffer(self):
        return True

    def eval_buffer(self, arg, res):
        """Numbers in and out through CasADi's buffers (a DM per call cost 4× more)."""
        self.calls += 1
        t = float(np.frombuffer(arg[0], dtype=float)[0])
        out = np.frombuffer(res[0], dtype=float)
        try:
            for k, (name, fn) in enumerate(self.entries):
                out[k] = call(name, fn, t)
        except Exception as exc:
            if self.signals.error is None:
                self.signals.error = exc
            raise
        return 0


def _spec(name: str, spec) -> tuple:
    """("callable", fn) | ("table", times, values) | ("constant", value), checked."""
    if callable(spec):
        return ("callable", spec)
    if isinstance(spec, (tuple, list)) and len(spec) == 2:
        try:
            ts, vs = (np.asarray(a, dtype=float).ravel() for a in spec)
        except (TypeError, ValueError):
            ts = vs = np.zeros(0)
        if ts.size < 2 or ts.size != vs.size or (ts[1:] <= ts[:-1]).any():
            raise ModelError(f"inputs: the table for '{name}' needs increasing times and as "
                             "many values as times")
        if not (np.isfinite(ts).all() and np.isfinite(vs).all()):   # named only then
            finite(np.concatenate([ts, vs]), [f"{name} table time"] * ts.size +
                   [f"{name} table value"] * vs.size, "inputs")
        check_table(name, ts, vs)
        return ("table", ts, vs)
    value = None if isinstance(spec, (str, bytes)) else spec  # float('1') takes a string
    try:
        return ("constant", number(value, f"inputs: '{name}'"))
    except ModelError:
        raise ModelError(f"inputs: '{name}' must be a finite number, a callable of t or a "
                         f"(t, values) table, got {spec!r}") from None


def check_table(name: str, ts: np.ndarray, vs: np.ndarray) -> None:
    """Warn (InputWarning) when the table's values zig-zag: a local extremum at more than
    ZIGZAG of its interior samples means the sampled signal oscillates within about four
    samples (a sine sampled at 4 points per period has one at half of them, at 2 points
    at all of them), which a piecewise-linear interpolant cannot represent. Aliasing at
    about a whole number of periods per sample shows no zig-zag and is not seen (a 50 Hz
    sine sampled at 2001 points over 40 s reads as a slow wave)."""
    if vs.size < 8:
        return
    d = vs[1:] - vs[:-1]
    extrema = np.count_nonzero(d[:-1] * d[1:] < 0)
    fraction = extrema / (vs.size - 2)
    if fraction > ZIGZAG:
        spacing = float(np.median(np.diff(ts)))
        warnings.warn(InputWarning(
            f"inputs: the table for '{name}' has a local extremum at {100 * fraction:.0f} % "
            f"of its {vs.size} samples (spacing {spacing:.3g} s): the signal it samples "
            f"changes faster than {1 / (4 * spacing):.3g} Hz, which the linear interpolation "
            "between samples cannot represent (aliasing); give more samples, or the signal "
            "as a function of t"), stacklevel=3)
