"""What each run of a study does: simulate, linearize, or a function of the user's (e.g. a
trajectory optimization), and the numbers it reports. A run that raises is recorded with its
error instead of stopping the study.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from ..control.linearize import linearize
from .runs import Run


class Task(Enum):
    """The built-in tasks of a sweep."""

    SIMULATE = "simulate"     # system.simulate(t_end, ...) per run
    LINEARIZE = "linearize"   # jd.linearize(system, ...) about each run's point


@dataclass
class Job:
    """A study's task and its settings, sent once to every worker.

    task : a Task, or a function task(system, run) -> {column: number} (or a number).
    t_end : [s] end of each simulation. options : further keyword arguments of simulate
    (rtol, method, controller, ...) or linearize (t). metrics : None (defaults), a list of
    series names (their final values), or {column: function(result) -> number}.
    series : names of time series to keep (long table), or None.
    """

    task: object
    t_end: float | None = None
    options: dict = field(default_factory=dict)
    metrics: object = None
    series: list | None = None


def execute(system, run: Run, job: Job) -> dict:
    """One run: {'run', the run's values, 'status', 'error', 'seconds' (wall time),
    'cpu_seconds' (this process's CPU time), metrics...}, and the kept series under the key
    ``'series'`` (a dict of arrays with 't')."""
    start, cpu = time.perf_counter(), time.process_time()
    row = {"run": run.index, **run.values}
    try:
        metrics, series = _perform(system, run, job)
        row.update(status="ok", error="")
    except Exception as exc:   # the study goes on: the row says what failed
        first = (str(exc).strip().splitlines() or [""])[0]
        metrics, series = {}, None
        row.update(status="failed", error=f"{type(exc).__name__}: {first}"[:500])
    row["seconds"] = time.perf_counter() - start
    row["cpu_seconds"] = time.process_time() - cpu
    row.update(metrics)
    if series is not None:
        row["series"] = series
    return row


def _perform(system, run: Run, job: Job) -> tuple[dict, dict | None]:
    if job.task is Task.SIMULATE:
        result = system.simulate(job.t_end, y0=run.y0, z0=run.z0, inputs=run.inputs,
                                 params=run.params, **job.options)
        series = None if not job.series else \
            {"t": result.t, **{name: result[name] for name in job.series}}
        return _metrics(job.metrics, result, _finals(system, result)), series
    if job.task is Task.LINEARIZE:
        lin = linearize(system, y0=run.y0, z0=run.z0, u0=_constants(run.inputs),
                        params=run.params, **job.options)
        return _metrics(job.metrics, lin, _eigen_metrics(lin)), None
    value = job.task(system, run)
    return (value if isinstance(value, dict) else {"value": value}), None


def _constants(inputs: dict) -> dict:
    """The inputs that are numbers (a linearization holds inputs constant)."""
    return {n: v for n, v in inputs.items() if isinstance(v, (int, float, np.number))}


def _finals(system, result) -> dict:
    """Default metrics of a simulation: the final value of every state."""
    return {f"{name}.final": float(result[name][-1]) for name in system.x_names}


def _eigen_metrics(lin) -> dict:
    """Default metrics of a linearization: the largest real part, stability, and the
    eigenvalues sorted by decreasing real part."""
    eig = lin.eigenvalues
    top = float(eig.real.max()) if eig.size else -math.inf
    out = {"max_real_eigenvalue": top, "stable": bool(top < 0)}
    out.update({f"eigenvalue[{i}]": complex(v) for i, v in enumerate(eig)})
    return out


def _metrics(spec, value, default: dict) -> dict:
    """The metrics of one run: defaults, final values of listed series, or functions."""
    if spec is None:
        return default
    if isinstance(spec, dict):
        return {name: _scalar(fn(value)) for name, fn in spec.items()}
    return {f"{name}.final": float(value[name][-1]) for name in spec}


def _scalar(value):
    """A metric value: a number (numpy scalars and 1-element arrays unwrapped) or as given."""
    if isinstance(value, np.ndarray) and value.size == 1:
        return value.item()
    return value.item() if isinstance(value, np.generic) else value
