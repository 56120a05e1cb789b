"""Initial guesses for a TrajectoryProblem: by interpolation of the boundary conditions, from a
simulation Result, from named tables or functions of time, or from a previous Solution (warm
start, which also hands IPOPT the previous multipliers when the NLP has the same shape)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.names import unknown
from ..simulation.result import Result
from .solution import Solution

if TYPE_CHECKING:
    from .problem import TrajectoryProblem


@dataclass
class Guess:
    """Guessed trajectories by name: ``series[name](t)`` for states and inputs, horizon T [s],
    free parameter values, and optionally IPOPT multipliers of a previous solve."""

    names_x: list[str]
    names_u: list[str]
    series: dict
    T: float
    p: dict = field(default_factory=dict)
    multipliers: dict | None = None

    def x(self, times) -> np.ndarray:
        """nx × n guessed states at the times [s]."""
        return self._at(self.names_x, times)

    def u(self, times) -> np.ndarray:
        """nu × n guessed inputs at the times [s]."""
        return self._at(self.names_u, times)

    def _at(self, names: list[str], times) -> np.ndarray:
        t = np.atleast_1d(np.asarray(times, dtype=float))
        return np.array([np.broadcast_to(self.series[n](t), t.shape) for n in names]) \
            .reshape(len(names), t.size)


def make_guess(prob: TrajectoryProblem, spec=None) -> Guess:
    """A Guess from None (interpolation), a Result, a Solution or a dict of
    {name: constant | callable(t) | (t, values)}; unnamed entries are interpolated."""
    series = _interpolated(prob)
    T, p, multipliers = prob.horizon_guess, {}, None
    if spec is None:
        pass
    elif isinstance(spec, Result):
        series.update(_from_result(prob, spec, spec.t[0] - prob.t0))
    elif isinstance(spec, Solution):  # warm start
        series.update(_from_result(prob, spec.trajectory, spec.trajectory.t[0] - prob.t0))
        T, p, multipliers = spec.T, dict(spec.free_parameters), spec.multipliers
    elif isinstance(spec, dict):
        series.update(_from_dict(prob, spec))
    else:
        raise ModelError("guess: expected None, a simulation Result, a Solution or a dict of "
                         f"name -> constant / callable / (t, values), got {type(spec).__name__}")
    s = prob.system
    return Guess(list(s.x_names), list(s.u_names), series, T, p, multipliers)


def _interpolated(prob: TrajectoryProblem) -> dict:
    """States: straight line from the initial to the final condition (a given one held where
    the other is free, 0 where both are); inputs 0."""
    t0, T = prob.t0, prob.horizon_guess
    series = {}
    for name in prob.system.x_names:
        a = prob.x_initial.get(name, prob.x_final.get(name, 0.0))
        b = prob.x_final.get(name, a)
        series[name] = lambda t, a=a, b=b: a + (b - a) * np.clip((t - t0) / T, 0.0, 1.0)
    for name in prob.system.u_names:
        series[name] = lambda t: np.zeros_like(t)
    return series


def _from_result(prob: TrajectoryProblem, res: Result, shift: float) -> dict:
    s = prob.system
    return {n: (lambda t, v=res[n]: np.interp(t + shift, res.t, v))
            for n in s.x_names + s.u_names if n in res.series}


def _from_dict(prob: TrajectoryProblem, spec: dict) -> dict:
    s = prob.system
    out = {}
    for name, value in spec.items():
        if name not in s.x_names + s.u_names:
            raise ModelError(unknown("guess", name, s.x_names + s.u_names))
        if callable(value):
            out[name] = lambda t, fn=value, name=name: np.array([_scalar(fn, ti, name)
                                                                for ti in t])
        elif isinstance(value, (tuple, list)) and len(value) == 2:
            ts, vs = (np.asarray(a, dtype=float).ravel() for a in value)
            if ts.size != vs.size or np.any(np.diff(ts) <= 0):
                raise ModelError(f"guess: the table for '{name}' needs increasing times and "
                                 "as many values as times")
            out[name] = lambda t, ts=ts, vs=vs: np.interp(t, ts, vs)
        else:
            try:
                c = float(value)
            except (TypeError, ValueError):
                raise ModelError(f"guess for '{name}': expected a number, a callable of t or a "
                                 f"table (t, values), got {value!r}") from None
            out[name] = lambda t, c=c: np.full_like(t, c)
    return out


def _scalar(fn, t: float, name: str) -> float:
    """fn(t) as a float, or a ModelError naming the guess."""
    try:
        return float(fn(t))
    except Exception as exc:
        raise ModelError(f"guess for '{name}': the callable must return a number for a time "
                         f"t [s], failed at t = {t:.6g}: {exc}") from None
