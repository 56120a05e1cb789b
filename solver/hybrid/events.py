"""Events a user adds to one simulation, and sampled callbacks.

* :class:`Event`: a zero-crossing function of named quantities with a direction, an optional
  reset of states and an optional stop of the simulation;
* :class:`TimeEvent`: resets (or mere restarts) at given times;
* :class:`SampledCallback`: the general sampled update of the event loop — at
  t = start_time + k·period a callback maps the present numbers to new held values of some
  discrete variables (entries of p) or of some inputs (entries of u, held between samples).
  The model's sampled blocks (ZeroOrderHold, DiscretePID, …) run through it, and so can a
  controller written in Python (``callback(t, x, u, p) -> values``).

The callables of Event and TimeEvent receive a named view ``v`` of symbols: ``v["name"]``
for states, inputs, outputs and parameters, ``v.t`` for time; they are traced once into CasADi
functions, so the event loop evaluates them without calling back into Python.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError
from jourdain.blocks.hybrid.base import Direction

from ..model.names import unknown


@dataclass
class Event:
    """A zero crossing of ``guard(v)`` in ``direction``; at the crossing the states named in
    ``reset(v)`` (a dict name → expression of the values just before) are set, and the
    simulation ends there if ``terminal``. ``name`` labels it in the event log."""

    guard: Callable
    direction: Direction = Direction.BOTH
    reset: Callable | None = None
    terminal: bool = False
    name: str = "event"

    def __post_init__(self):
        if not callable(self.guard):
            raise ModelError(f"Event '{self.name}': guard must be a callable v -> expression, "
                             f"got {self.guard!r}")
        if not isinstance(self.direction, Direction):
            raise ModelError(f"Event '{self.name}': direction must be a jd.Direction, got "
                             f"{self.direction!r}")
        if self.reset is not None and not callable(self.reset):
            raise ModelError(f"Event '{self.name}': reset must be a callable v -> dict")
        if not isinstance(self.terminal, (bool, np.bool_)):
            raise ModelError(f"Event '{self.name}': terminal must be True or False, got "
                             f"{self.terminal!r}")
        _check_name(self.name, "Event")


@dataclass
class TimeEvent:
    """At each of ``times`` [s] the states named in ``reset(v)`` are set (no reset: the
    integrator merely restarts there, e.g. at a known kink of an input)."""

    times: Any
    reset: Callable | None = None
    name: str = "time event"

    def __post_init__(self):
        _check_name(self.name, "TimeEvent")
        try:
            if isinstance(self.times, (str, bytes)) or \
                    any(isinstance(v, (str, bytes, bool)) for v in np.ravel(self.times)):
                raise TypeError
            times = np.atleast_1d(np.asarray(self.times, dtype=float)).ravel()
        except (TypeError, ValueError):
            times = np.array([np.nan])
        if self.reset is not None and not callable(self.reset):
            raise ModelError(f"TimeEvent '{self.name}': reset must be a callable v -> dict")
        if times.size == 0 or not np.all(np.isfinite(times)):
            raise ModelError(f"TimeEvent '{self.name}': times must be finite numbers, got "
                             f"{self.times!r}")
        self.times = np.sort(times)


@dataclass
class SampledCallback:
    """A sampled update: at t = start_time + k·period, ``callback(t, x, u, p)`` (numbers)
    returns the new held values of the targets, in order. Targets are names of discrete
    variables (entries of p) or of inputs (entries of u; held between samples, replacing
    the interpolated input). ``label`` names it in the event log; ``order`` breaks ties
    between callbacks sampled at the same instant (lower first)."""

    period: float
    callback: Callable
    targets: list[str]
    start_time: float = 0.0
    label: str = "sampler"
    order: int = 0
    log: bool = False   # sampled updates are frequent: the log keeps them only on request

    def __post_init__(self):
        if not (np.isfinite(self.period) and self.period > 0):
            raise ModelError(f"{self.label}: the sample period must be a positive number of "
                             f"seconds, got {self.period!r}")

    def next_time(self, t: float, eps: float) -> float:
        """The first sample instant ≥ t − eps."""
        k = max(0.0, np.ceil((t - eps - self.start_time) / self.period))
        return self.start_time + k * self.period


@dataclass
class Named:
    """The named view ``v`` handed to event callables: v["name"], v.t."""

    t: Any
    values: dict = field(default_factory=dict)
    where: str = "event"

    def __getitem__(self, name: str):
        if name not in self.values:
            raise ModelError(unknown(self.where, name, list(self.values)))
        return self.values[name]


def named_view(system, t, x, u, p, where: str) -> Named:
    """Symbols of states, inputs, parameters and outputs by name."""
    values = dict(zip(system.x_names, ca.vertsplit(x)))
    values.update(zip(system.u_names, ca.vertsplit(u)))
    values.update(zip(system.p_names, ca.vertsplit(p)))
    values.update(zip(system.output_names, ca.vertsplit(system.h(t, x, u, p))))
    return Named(t, values, where)


def _check_name(name, kind: str) -> None:
    if not isinstance(name, str) or not name:
        raise ModelError(f"{kind}: name must be a non-empty string, got {name!r}")


def _traced(fn, view: Named, where: str, what: str):
    """fn(view) on CasADi symbols; a ModelError naming the event where Python cannot trace
    it (math.sin of a symbol, an ``if`` on a symbolic comparison, numpy functions)."""
    try:
        return fn(view)
    except ModelError:
        raise
    except Exception as exc:
        raise ModelError(
            f"{where}: its {what} cannot be traced with CasADi symbols ({type(exc).__name__}: "
            f"{str(exc).splitlines()[0][:120] if str(exc) else ''}); v['name'] are symbols, "
            "not numbers: write the expression with CasADi functions (ca.sin, ca.fabs, "
            "ca.fmax, ca.if_else(cond, a, b) instead of math.* and Python if/and/or)") \
            from exc


def trace_guards(system, events: list[Event]) -> ca.Function:
    """g(t, x, u, p): the user events' guards stacked (MX)."""
    t, x, u, p = _symbols(system)
    rows = []
    for event in events:
        where = f"Event '{event.name}'"
        expr = _traced(event.guard, named_view(system, t, x, u, p, where), where, "guard")
        try:
            expr = ca.MX(expr) if not isinstance(expr, ca.MX) else expr
        except (TypeError, NotImplementedError, RuntimeError):
            raise ModelError(f"{where}: the guard must return one CasADi expression or "
                             f"number, got {expr!r:.60}") from None
        if expr.numel() != 1:
            raise ModelError(f"Event '{event.name}': the guard must be one scalar expression, "
                             f"got {expr.numel()} entries")
        rows.append(expr)
    return ca.Function("user_guards", [t, x, u, p], [ca.vertcat(*rows) if rows else
                                                     ca.MX(0, 1)], ["t", "x", "u", "p"], ["g"])


def trace_reset(system, reset: Callable, where: str) -> ca.Function:
    """x⁺(t, x, u, p): the states named by ``reset(v)`` replaced, the others kept."""
    t, x, u, p = _symbols(system)
    new = _traced(reset, named_view(system, t, x, u, p, where), where, "reset")
    if not isinstance(new, dict):
        raise ModelError(f"{where}: reset must return a dict {{state name: value}}, got "
                         f"{new!r:.60}")
    entries = ca.vertsplit(x)
    for name, value in new.items():
        if name not in system.x_names:
            raise ModelError(unknown(f"{where} reset", name, system.x_names) +
                             " (only states can be reset)")
        try:
            value = ca.MX(value)
        except (TypeError, NotImplementedError, RuntimeError):
            raise ModelError(f"{where} reset: the value of '{name}' must be a CasADi "
                             f"expression or number, got {value!r:.60}") from None
        if value.numel() != 1:
            raise ModelError(f"{where} reset: the value of '{name}' must be a scalar, got "
                             f"{value.numel()} entries")
        entries[system.x_names.index(name)] = value
    return ca.Function("reset", [t, x, u, p], [ca.vertcat(*entries)], ["t", "x", "u", "p"],
                       ["x_plus"])


def _symbols(system):
    return (ca.MX.sym("t"), ca.MX.sym("x", system.nx), ca.MX.sym("u", len(system.u_names)),
            ca.MX.sym("p", len(system.p_names)))
