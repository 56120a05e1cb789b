"""Consumer: parameter sweeps and Monte Carlo studies of a compiled System, returned as one tidy
table (a pandas DataFrame, one row per run).

    table = jd.sweep(system, params={"cube.housing.m": jd.Uniform.around(0.419, 0.2)},
                     y0={"cube.edge.phi": [0.05, 0.1]}, t_end=5.0, samples=100, seed=1)

Runs are built by :mod:`.runs` (fixed values, grid axes, distributions, or explicit cases),
executed by :mod:`.executors` (here, local processes by default, or a Dask cluster), and
each does its :mod:`.tasks` task (simulate, linearize, or a function). Columns: ``run``,
the values that define the run (by name), ``status`` ("ok" or "failed"), ``error`` (the
failure's first line), ``seconds`` and ``cpu_seconds`` (wall and CPU time of the run), then
the metrics. With
``series=[...]`` the table is long instead: one row per run and output time, with ``t``
and the series. ``table.attrs`` holds the seed, the backend, the wall time and the number
of failed runs.
"""
from __future__ import annotations

import time
import warnings

from jourdain.blocks.errors import ModelError

from ..model.checks import count, flag, keywords, mapping, number, option, unknown
from ..model.names import require_system
from ..simulation.controlled import SIMULATE_KEYWORDS
from ..simulation.progress import check_progress, display, options
from ..simulation.result import NUMBERED, series_names
from ..simulation.simulate import _grid, integrator_options
from .executors import default_workers, run_dask, run_processes, run_serial
from .runs import build_runs
from .tasks import Job, Task

LINEARIZE_OPTIONS = ("t",)


def _pandas():
    try:
        import pandas
    except ImportError as exc:   # an optional dependency (the studies extra)
        raise ModelError("jd.sweep returns a pandas DataFrame: pip install "
                         "'jourdain[studies]' (or pandas)") from exc
    return pandas


def _job(system, task, t_end, options, metrics, series) -> Job:
    """The checked task and its settings."""
    if not callable(task) or isinstance(task, Task):
        task = option(task, Task, "sweep: task (or a function task(system, run))")
    options = mapping(options, "sweep: options", "keyword")
    allowed = (list(SIMULATE_KEYWORDS) + ["controller", "period"]) if task is Task.SIMULATE \
        else list(LINEARIZE_OPTIONS) if task is Task.LINEARIZE else None
    per_run = ("y0", "z0", "inputs", "params", "x0")
    for key in options:
        if allowed is not None and (key not in allowed or key in per_run):
            keys = ", ".join(a for a in allowed if a not in per_run)
            raise ModelError(f"sweep: options may not hold '{key}'; the runs set y0, z0, "
                             f"inputs and params; allowed: {keys}")
    if task is Task.SIMULATE:
        t_end = number(t_end, "sweep: t_end", 0.0, open_low=True, unit="s")
        _check_simulate_options(t_end, options)
    if metrics is not None and not isinstance(metrics, dict):
        if isinstance(metrics, str) or not all(isinstance(m, str) for m in metrics):
            raise ModelError("sweep: metrics must be a list of series names or a dict "
                             "{column: function(result) -> number}")
        if task is not Task.SIMULATE:
            raise ModelError("sweep: metrics as a list of series names apply to simulations; "
                             "give {column: function(value) -> number} for this task")
        _check_series(system, metrics, "metrics")
    if isinstance(metrics, dict):
        for name, fn in metrics.items():
            if not callable(fn):
                raise ModelError(f"sweep: metric '{name}' must be a function of the run's "
                                 f"result, got {fn!r:.60}")
    if series is not None:
        if task is not Task.SIMULATE:
            raise ModelError("sweep: series are kept from simulations (task=jd.Task.SIMULATE)")
        if isinstance(series, str) or not all(isinstance(s, str) for s in series):
            raise ModelError("sweep: series must be a list of names, e.g. ['cube.edge.phi']")
        series = list(series)
        _check_series(system, series, "series")
    return Job(task, t_end, options, metrics, series)


def _check_simulate_options(t_end: float, options: dict) -> None:
    """simulate's checks of the options every run shares, made once before any run (a bad
    rtol would otherwise fail each run, reported only in the table)."""
    settings = {**SIMULATE_KEYWORDS, **options}
    try:
        _grid(settings["t0"], t_end, settings["n_out"], settings["t_out"])
        integrator_options(settings["rtol"], settings["atol"], settings["max_steps"],
                           settings["method"], settings["linear_solver"])
        check_progress(settings["progress"])
        flag(settings["islands"], "simulate: islands")
        if settings["stiff"] is not None:
            flag(settings["stiff"], "simulate: stiff")
    except ModelError as exc:
        raise ModelError(f"sweep: options: {exc}") from None


def _check_series(system, names: list[str], what: str) -> None:
    """Each name a series of the system's simulations (closest names suggested)."""
    known = series_names(system)
    for name in names:
        if name not in known and not name.startswith(NUMBERED):
            raise ModelError(unknown(f"sweep: {what}", name, known) + " (names of the "
                             "simulation's series: states, inputs, outputs, energies)")


def _progress(total: int, show: bool):
    """A progress display (tqdm on a terminal, lines in a log: :mod:`..simulation.progress`)
    when asked for, the global switch jd.options.progress is on and tqdm is installed;
    otherwise a silent counter."""
    if show and options.progress:
        try:
            return display("sweep", total, "run")
        except ImportError:
            pass

    class Silent:
        def update(self, n):
            pass

        def close(self):
            pass
    return Silent()


@keywords
def sweep(system, params: dict | None = None, y0: dict | None = None, z0: dict | None = None,
          inputs: dict | None = None, t_end: float | None = None, task=Task.SIMULATE,
          samples: int | None = None, seed: int | None = None, cases=None, metrics=None,
          series: list | None = None, options: dict | None = None, client=None,
          workers: int | None = None, progress: bool = True, chunk: int | None = None):
    """Run ``system`` over a grid or random samples and return a pandas DataFrame (module
    docstring).

    params, y0, z0, inputs : {name: value} with a number (fixed), a list or 1-D array (a
        grid axis: every combination runs), or a jd.Uniform / jd.Normal (drawn ``samples``
        times per grid point, from ``seed``); inputs may also be callables or tables.
    cases : the runs explicitly instead: a DataFrame or a list of dicts by name.
    task : jd.Task.SIMULATE (default; ``t_end`` [s] needed), jd.Task.LINEARIZE, or a
        function task(system, run) -> {column: number} (e.g. solving a TrajectoryProblem;
        ``run`` has params, y0, z0, inputs by name).
    metrics : the per-run columns: None (final states; for LINEARIZE the eigenvalues), a
        list of series names (their final values), or {column: function(result)}.
    series : names of series to keep over time (a long table: one row per output time).
    options : more keyword arguments of simulate (n_out, rtol, method, controller, ...) or
        linearize (t).
    client : a dask.distributed.Client (or a scheduler address) to run on a Dask cluster;
        else ``workers`` local processes (default: the cores; 1 runs here, serially).
    progress : show a progress bar (tqdm). chunk : runs per task sent to a worker.

    A run that fails is reported in its row (status "failed", error) and the study goes on.
    """
    pandas = _pandas()
    require_system(system, "sweep")
    job = _job(system, task, t_end, options, metrics, series)
    runs, seed = build_runs(system, {"params": params, "y0": y0, "z0": z0, "inputs": inputs},
                            samples, seed, cases)
    workers = default_workers() if workers is None else count(workers, "sweep: workers")
    chunk = None if chunk is None else count(chunk, "sweep: chunk")
    bar = _progress(len(runs), flag(progress, "sweep: progress"))
    start = time.perf_counter()
    try:
        if client is not None:
            rows, backend = run_dask(system, runs, job, client, chunk, bar), "dask"
        elif workers == 1 or len(runs) == 1:
            rows, backend = run_serial(system, runs, job, bar), "serial"
        else:
            rows = run_processes(system, runs, job, min(workers, len(runs)), chunk, bar)
            backend = f"processes ({min(workers, len(runs))})"
    finally:
        bar.close()
    table = _table(pandas, sorted(rows, key=lambda r: r["run"]), job)
    failed = int((table.drop_duplicates("run")["status"] == "failed").sum())
    table.attrs.update(seed=seed, backend=backend, runs=len(runs), failed=failed,
                       wall_time=time.perf_counter() - start)
    if failed:
        warnings.warn(f"jd.sweep: {failed} of {len(runs)} runs failed; see the 'status' and "
                      "'error' columns", RuntimeWarning, stacklevel=3)
    return table


def _table(pandas, rows: list[dict], job: Job):
    """One row per run, or with series one row per run and output time."""
    if not job.series:
        return pandas.DataFrame(rows)
    frames = []
    for row in rows:
        series = row.pop("series", None)
        if series is None:
            frames.append(pandas.DataFrame([row]))
            continue
        frame = pandas.DataFrame(series)
        for key, value in reversed(list(row.items())):
            frame.insert(0, key, [value] * len(frame))
        frames.append(frame)
    return pandas.concat(frames, ignore_index=True)
