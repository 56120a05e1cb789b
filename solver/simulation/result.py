"""The simulation Result: named time series of coordinates, speeds, inputs, outputs and
energies with their units; plots, 3-D animation, tables (pandas, CSV, Parquet) and
summaries for notebooks, each delegated to the wing that implements it."""
from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.signatures import delegates_to
from ..visual import tables
from ..visual.animate import animate
from ..visual.plots import plot_result, warn_if_coarse
from .check import check
from .eventlog import EventLog
from .export import series_units, to_csv, to_pandas, to_parquet


class UnknownSeriesError(ModelError, KeyError):
    """A Result has no series of that name: a ModelError like every jourdain error about a
    name, and a KeyError as a mapping's missing key is (``dict(res)``, ``res.get``)."""

    def __str__(self) -> str:   # the message as written (KeyError would quote it)
        return str(self.args[0]) if self.args else ""


class Result(Mapping):
    """Time series on the output grid ``t``; ``res[name]`` returns one series.

    A Result is a read-only mapping from series names to arrays: ``"x" in res``,
    ``res.keys()``, ``res.items()``, ``for name in res``, ``len(res)`` (the number of series;
    the number of samples is ``len(res.t)``), ``res.get(name)``; an unknown name raises
    :class:`UnknownSeriesError` (a :class:`~jourdain.ModelError` and a ``KeyError``) with the
    closest names.

    Names: coordinates (``cube.edge.phi``), speeds (``cube.edge.w`` or user speeds),
    component states, inputs, outputs, and ``energy.kinetic``, ``energy.potential``,
    ``energy.stored`` (capacitors, inductors), ``energy.total`` [J], ``power.dissipated``,
    ``power.supplied`` [W] (sources, residual forces, drivers: docs/domains.md, "Energy
    across domains"); ``check()`` verifies their balance and the constraint residuals.
    ``switches`` lists the partition switches of a
    partitioned closed-loop simulation
    (:class:`~jourdain.solver.constraints.repartition.PartitionSwitch`).

    ``method`` is the integration method that ran (a jd.Method, after Method.AUTO's choice)
    and ``stats`` what it cost: steps, rhs_evaluations, jacobian_evaluations, newton_setups,
    newton_iterations, error_test_failures, cpu_time and wall_time [s], method_reason (why
    this method) and, with BDF on a large or compiled f, the Jacobian form (``jacobian``).
    """

    method = None       # the jd.Method used by simulate
    stats: dict = {}    # integrator statistics (class docstring); replaced per Result

    def __init__(self, t: np.ndarray, series: dict[str, np.ndarray], x: np.ndarray,
                 system=None, p: np.ndarray | None = None):
        self.t = t
        self.series = series
        self.x = x
        self.system = system    # the System that produced it (names, units, poses)
        self.p = p              # the parameter vector p of the run
        self._units = None
        self.switches: list = []
        # the event log (jourdain.solver.simulation.eventlog): filled by a hybrid
        # simulation, empty for a smooth one (was None, which len() and loops refused)
        self.events = EventLog()

    @classmethod
    def from_states(cls, system, t: np.ndarray, xs: np.ndarray, us: np.ndarray,
                    p: np.ndarray, smooth: bool = False) -> "Result":
        """The Result of states xs at times t. ``smooth``: the dissipated power without
        the hybrid rows' part (the time-stepping mode's contacts are not those rows; their
        solve, in MX for many rows, was most of a stepping run's cost)."""
        n = t.size
        # p may vary along the result (discrete variables of hybrid elements): one column each
        P = np.asarray(p, dtype=float) if np.ndim(p) == 2 else \
            np.repeat(np.asarray(p, dtype=float).reshape(-1, 1), n, axis=1)
        fn, names = row_function(system, smooth)
        xs, rows = (np.array(v) for v in _mapped(system, fn, n)(t, xs, us, P))
        # p stays one column per sample where discrete variables change along the run
        return cls.from_rows(system, t, xs, us, rows.reshape(len(names), n), names,
                             P if np.ndim(p) == 2 else P[:, 0])

    @classmethod
    def from_rows(cls, system, t: np.ndarray, xs: np.ndarray, us: np.ndarray,
                  rows: np.ndarray, names: list, p: np.ndarray) -> "Result":
        """The Result of states xs (after the drive and the projection) and the rows of
        :func:`row_function` at times t (how a compiled run hands in what it computed)."""
        series = {name: xs[i] for i, name in enumerate(system.x_names)}
        series.update({name: us[i] for i, name in enumerate(system.u_names)})
        series.update(zip(names, rows))
        series["energy.total"] = series["energy.kinetic"] + series["energy.potential"] + \
            series["energy.stored"]
        series = {name: series[name] for name in _series_order(system, names)}
        return cls(t, series, xs, system, p)

    @property
    def ledger(self):
        """The physics ledger of the contacts (:mod:`.ledger`): energy in and out per
        contact, deepest penetration, complementarity and friction-cone residuals (a
        stepping run's own, :class:`.ledger.SteppingLedger`, is set by that run)."""
        stored = self.__dict__.get("_ledger")
        if stored is not None:
            return stored
        from .ledger import contact_ledger
        return contact_ledger(self)

    @ledger.setter
    def ledger(self, value):
        self.__dict__["_ledger"] = value

    @property
    def names(self) -> list[str]:
        """Names of all series, in order."""
        return list(self.series)

    @property
    def units(self) -> dict[str, str]:
        """Unit of every series by name ("" when unknown), from the components."""
        if self._units is None:
            self._units = series_units(self.system) if self.system is not None else {}
        return self._units

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self.series:
            close = difflib.get_close_matches(name, self.names, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise UnknownSeriesError(f"Result: no series named '{name}'{hint}")
        return self.series[name]

    def __iter__(self):
        return iter(self.series)

    def __len__(self) -> int:
        return len(self.series)

    def __contains__(self, name) -> bool:
        return name in self.series

    # a Result holds arrays: equality is identity (Mapping's == would compare arrays)
    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return summary_text(self)

    def _repr_html_(self) -> str:
        return summary_html(self)

    def final(self) -> dict[str, float]:
        """The last value of every series."""
        return {name: float(v[-1]) for name, v in self.series.items()}

    def plot(self, *names: str, x: str | None = None, t_range=None, title: str | None = None,
             path: str | Path | None = None, ax=None, figsize=None, units: dict | None = None):
        """Plot the named series (default: coordinates and speeds) against time or against
        the series ``x``, over ``t_range`` = (t0, t1) [s]; y labels carry the units;
        series that share a unit share a panel (one legend). ``units`` shows series in other
        units, by series name or by unit: ``units={"rad": "deg", "cube.bearing.w": "rpm"}``
        (the choices: ``jourdain.solver.visual.plots.DISPLAY_UNITS``). ``ax`` draws into your
        matplotlib Axes (one per panel), else a new figure of ``figsize`` (inches). Saved to
        ``path`` if given (a file name with a suffix matplotlib knows: .png, .pdf, .svg, …;
        ``~`` is expanded). Returns the matplotlib figure; the backend is left alone."""
        names = names or tuple(n for n in self.names if n in self._state_names())
        warn_if_coarse(self.t, self.stats, "plot")
        return plot_result(self.t, self.series, self.units, names, x, t_range, title, path,
                           ax, figsize, units)

    def _state_names(self) -> set:
        if self.system is None:
            return {n for n in self.names if not n.startswith(("energy", "power"))}
        return set(self.system.x_names)

    @delegates_to(animate)
    def animate(self, path=None, **options):
        """The motion in 3-D: ``path`` .html (a self-contained three.js player), .gif or .mp4;
        see :func:`jourdain.solver.visual.animate.animate` for the options."""
        return animate(self, path, **options)

    def check(self, rtol: float = 1e-3, constraint_tol: float = 1e-6):
        """Recompute the energy balance E(t) − E(0) − ∫(P_supplied − P_dissipated) dt (less
        the impacts' losses from the event log) and the constraint residuals of this Result;
        returns a :class:`~jourdain.solver.simulation.check.Check` (printable, truthy when
        both hold: the balance to ``rtol`` of the energy scale, the residuals within
        ``constraint_tol``). See docs/domains.md, "Energy across domains"."""
        return check(self, rtol, constraint_tol)

    def to_pandas(self):
        """A pandas DataFrame indexed by t [s], one column per series, units in
        ``df.attrs["units"]`` (needs pandas: ``pip install 'jourdain[data]'``)."""
        return to_pandas(self)

    def to_csv(self, path) -> Path:
        """Write the series to CSV (header rows: names, units); returns the path."""
        return to_csv(self, path)

    def to_parquet(self, path) -> Path:
        """Write the series to Parquet with units in the field metadata (needs pyarrow:
        ``pip install 'jourdain[data]'``); returns the path."""
        return to_parquet(self, path)


ENERGIES = ("energy.kinetic", "energy.potential", "energy.stored", "energy.total",
            "power.dissipated")
NUMBERED = ("residual.", "lambda[")   # numbered series of constrained systems


def series_names(system) -> list[str]:
    """The names of the series a simulation of ``system`` returns, without simulating (the
    numbered residual and multiplier series start with NUMBERED): what Result.from_states,
    the partitioned and the hybrid simulations add. Lets a study check its names before any
    run."""
    names = list(system.x_names) + list(system.u_names) + list(system.output_names)
    names += list(getattr(system, "flange_names", []))
    names += list(ENERGIES) + (["power.supplied"] if "supplied" in system.functions else [])
    names += [n for n in getattr(system, "speed_names", []) if n not in names]
    info = getattr(system, "hybrid", None)
    if info is not None:
        names += list(info.discrete_names) + [row.label for row in info.rows]
    return names


def summary_text(result: Result) -> str:
    """One paragraph: samples, time span and how many series of each kind."""
    t = result.t
    span = f"t = {t[0]:g} … {t[-1]:g} s" if len(t) else "no samples"
    system = result.system
    kinds = ""
    if system is not None:
        kinds = "; " + ", ".join(tables.count(len(names), what) for names, what in (
            (system.y_names, "coordinate"), (system.z_names, "speed"),
            (system.u_names, "input"), (system.output_names, "output")))
    return f"<Result: {len(t)} samples, {span}{kinds}; {len(result.series)} series>"


def summary_html(result: Result) -> str:
    """Name, unit, initial, final, minimum and maximum of every series."""
    rows = [[n, tables.unit(result.units.get(n, "")), v[0], v[-1], np.min(v), np.max(v)]
            for n, v in result.series.items() if len(v)]
    return tables.section(summary_text(result).strip("<>"), [], [tables.table(
        "series", ["name", "unit", "initial", "final", "min", "max"], rows, (2, 3, 4, 5))])


def _mapped(system, fn, n: int):
    """fn.map(n), made once per System, function and length (a stepping run's Result asks
    for the same maps at every run; making them took ~10 % of a robot's 2 s run)."""
    cache = system.__dict__.setdefault("_result_maps", {})
    key = (id(fn), n)
    if key not in cache or cache[key][0] is not fn:     # (ids of another process: unpickled)
        if len(cache) > 64:                # runs of many lengths: keep the cache small
            cache.clear()
        cache[key] = (fn, fn.map(n))       # fn kept: its id stays its own
    return cache[key][1]


def row_function(system, smooth: bool = False) -> tuple[ca.Function, list[str]]:
    """(fn, names): fn(t, x, u, p) → (x_out: x after the drive and the projection, every other
    series of a Result stacked in one column, named by ``names``: outputs, flanges, the
    three energies, the dissipated and supplied powers, constraint residuals and
    multipliers), made once per System. One call of fn's map builds a Result (five calls of
    the functions' maps, each converting the parameters again, took 18 ms of a 2 s hopper
    run); ``energy.total`` is their sum (:meth:`Result.from_rows`). ``smooth``: the
    dissipated power without the hybrid rows' part (from_states)."""
    cache = system.__dict__.setdefault("_row_function", {})
    if smooth in cache:
        return cache[smooth]
    fns = system.functions
    t, x, u, p = (ca.MX.sym(name, system.h.sparsity_in(i))
                  for i, name in enumerate(("t", "x", "u", "p")))
    xs = x
    if "drive" in fns:  # exactly driven coordinates and speeds at their prescribed values
        xs = fns["drive"](t, xs, u, p)
    if "project" in fns:  # closed loops: dependent coordinates from the Newton projection
        xs = fns["project"](xs, p)
    columns, names = [], []

    def add(value, labels):
        columns.append(ca.vec(value))
        names.extend(labels)
    add(system.h(t, xs, u, p), list(system.output_names))
    if "flanges" in fns:   # 1-D bodies without a coordinate of their own (behind a gear)
        add(fns["flanges"](t, xs, u, p), list(system.flange_names))
    for value, label in zip(system.energy(xs, p), ("kinetic", "potential", "stored")):
        add(value, [f"energy.{label}"])
    dissipation = fns.get("dissipation_smooth", system.dissipation) if smooth else \
        system.dissipation
    add(dissipation(t, xs, u, p), ["power.dissipated"])
    if "supplied" in fns:
        add(fns["supplied"](t, xs, u, p), ["power.supplied"])
    if "residuals" in fns:  # constraint residuals c(y) and A(y)·w
        for kind, vals in zip(("position", "velocity"), fns["residuals"](xs, p)):
            add(vals, [f"residual.{kind}[{i}]" for i in range(vals.numel())])
    if "multipliers" in fns:  # constraint forces λ (Baumgarte, DAE)
        lam = fns["multipliers"](t, xs, u, p)
        add(lam, [f"lambda[{i}]" for i in range(lam.numel())])
    fn = ca.Function("result_rows", [t, x, u, p], [xs, ca.vertcat(*columns)],
                     ["t", "x", "u", "p"], ["x_out", "rows"])
    cache[smooth] = (fn, names)
    return cache[smooth]


def _series_order(system, names: list) -> list:
    """The series' order of a Result: states, inputs, the rows up to the stored energy,
    the total, then the powers and the rest (as from_states always listed them)."""
    at = names.index("energy.stored") + 1
    return [*system.x_names, *system.u_names, *names[:at], "energy.total", *names[at:]]
