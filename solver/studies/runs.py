"""The runs of a study: values of parameters, initial coordinates and speeds, and inputs, as
fixed values, grid axes (every combination) or random draws (Monte Carlo).

For each name: a number (or, for an input, a callable of t or a (t, values) table) is fixed;
a list or a 1-D array of numbers is a grid axis; a distribution (:class:`Uniform`,
:class:`Normal`) is drawn ``samples`` times per grid point. Draws are made up front in the
calling process from one seeded generator (numpy's PCG64), so a study gives the same runs
on one core, on many, or on a Dask cluster. ``cases`` gives the runs explicitly instead (a
pandas DataFrame or a list of dicts by name).
"""
from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.checks import count, mapping, number, unknown


@dataclass(frozen=True)
class Uniform:
    """A value drawn uniformly from [low, high]."""

    low: float
    high: float

    def __post_init__(self):
        number(self.low, "Uniform: low")
        number(self.high, "Uniform: high")
        if not self.low < self.high:
            raise ModelError(f"Uniform: low ({self.low}) must be below high ({self.high})")

    @classmethod
    def around(cls, nominal: float, fraction: float) -> "Uniform":
        """Uniform within ±fraction·|nominal| of nominal (e.g. ±20 %: fraction 0.2)."""
        nominal = number(nominal, "Uniform.around: nominal")
        fraction = number(fraction, "Uniform.around: fraction", 0.0, open_low=True)
        if nominal == 0:
            raise ModelError("Uniform.around: a relative spread of a zero nominal value is "
                             "zero; give Uniform(low, high)")
        return cls(nominal - fraction * abs(nominal), nominal + fraction * abs(nominal))

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` draws from the generator ``rng``."""
        return rng.uniform(self.low, self.high, n)


@dataclass(frozen=True)
class Normal:
    """A value drawn from the normal distribution N(mean, std²)."""

    mean: float
    std: float

    def __post_init__(self):
        number(self.mean, "Normal: mean")
        number(self.std, "Normal: std", 0.0, open_low=True)

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` draws from the generator ``rng``."""
        return rng.normal(self.mean, self.std, n)


DISTRIBUTIONS = (Uniform, Normal)


@dataclass
class Run:
    """One run: its index, the values by name for simulate's ``params``, ``y0``, ``z0`` and
    ``inputs``, and ``values``: the numbers that identify it (the table's input columns;
    initial coordinates and speeds named ``<name>.initial``)."""

    index: int
    params: dict = field(default_factory=dict)
    y0: dict = field(default_factory=dict)
    z0: dict = field(default_factory=dict)
    inputs: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)


GROUPS = ("params", "y0", "z0", "inputs")


def _known(system, group: str) -> list[str]:
    return {"params": list(system.p_names), "y0": list(system.y_names),
            "z0": list(system.z_names) + list(system.s_names),
            "inputs": list(system.u_names)}[group]


def _is_axis(value, group: str) -> bool:
    """A grid axis: a list or 1-D array of numbers (for inputs a tuple is a table)."""
    if isinstance(value, np.ndarray):
        return value.ndim == 1
    if isinstance(value, list):
        return group != "inputs" or not (len(value) == 2 and all(
            isinstance(v, (list, tuple, np.ndarray)) for v in value))
    return False


def _axis(value, where: str) -> list[float]:
    values = [number(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if not values:
        raise ModelError(f"{where}: a grid axis needs at least one value")
    return values


def _fixed(value, group: str, where: str):
    """A fixed value: a finite number (inputs: also a callable or a table, checked by the
    simulation of each run)."""
    if group == "inputs" and (callable(value) or isinstance(value, tuple)):
        return value
    return number(value, where)


def build_runs(system, specs: dict, samples, seed, cases) -> tuple[list[Run], int | None]:
    """The runs of a study and the seed used (None without random draws); ``specs`` maps
    each group (params, y0, z0, inputs) to its dict by name (module docstring)."""
    fixed, axes, randoms = [], [], []     # (group, name, value)
    for group in GROUPS:
        values = mapping(specs.get(group), f"sweep: {group}", "name")
        known = _known(system, group)
        for name, value in values.items():
            where = f"sweep: {group} '{name}'"
            if name not in known:
                raise ModelError(unknown(f"sweep: {group}", name, known))
            if isinstance(value, DISTRIBUTIONS):
                randoms.append((group, name, value))
            elif _is_axis(value, group):
                axes.append((group, name, _axis(value, where)))
            else:
                fixed.append((group, name, _fixed(value, group, where)))
    if cases is not None:
        if axes or randoms:
            raise ModelError("sweep: give the runs either as cases or as grids and "
                             "distributions, not both")
        return _case_runs(system, cases, fixed), None
    return _grid_runs(axes, randoms, fixed, samples, seed)


def _grid_runs(axes, randoms, fixed, samples, seed) -> tuple[list[Run], int | None]:
    points = list(itertools.product(*[values for _, _, values in axes]))
    if randoms and samples is None:
        raise ModelError("sweep: distributions (jd.Uniform, jd.Normal) need samples=n, the "
                         "number of draws (per grid point)")
    if samples is not None and not randoms:
        raise ModelError("sweep: samples is the number of random draws, but no value is a "
                         "distribution (jd.Uniform, jd.Normal); give lists for a grid")
    n_draws = count(samples, "sweep: samples") if randoms else 1
    if seed is None and randoms:
        seed = int(np.random.SeedSequence().entropy % 2**63)
    elif seed is not None:
        seed = count(seed, "sweep: seed", minimum=0)
    rng = np.random.default_rng(seed)
    draws = [dist.sample(rng, len(points) * n_draws) for _, _, dist in randoms]
    runs = []
    for k in range(len(points) * n_draws):
        run = Run(len(runs))
        entries = fixed + [(g, n, v) for (g, n, _), v in zip(axes, points[k // n_draws])] + \
            [(g, n, float(d[k])) for (g, n, _), d in zip(randoms, draws)]
        for group, name, value in entries:
            _set(run, group, name, value)
        runs.append(run)
    return runs, seed if randoms else None


def _set(run: Run, group: str, name: str, value) -> None:
    """Set a value of the run; numbers also become its columns (initial coordinates and
    speeds as ``<name>.initial``, beside the ``<name>.final`` of the results)."""
    getattr(run, group)[name] = value
    if isinstance(value, (int, float, np.floating, np.integer)):
        run.values[f"{name}.initial" if group in ("y0", "z0") else name] = float(value)


def _case_runs(system, cases, fixed) -> list[Run]:
    """Runs from a DataFrame or a list of dicts; each column name is sorted into its group."""
    rows = cases.to_dict("records") if hasattr(cases, "to_dict") else cases
    if isinstance(rows, Mapping) or not isinstance(rows, (list, tuple)):
        raise ModelError(f"sweep: cases must be a pandas DataFrame or a list of dicts by name, "
                         f"got {type(cases).__name__}")
    groups = {g: _known(system, g) for g in GROUPS}
    everything = [n for names in groups.values() for n in names]
    runs = []
    for i, row in enumerate(rows):
        run = Run(i)
        for group, name, value in fixed:
            _set(run, group, name, value)
        for name, value in mapping(row, f"sweep: cases[{i}]", "name").items():
            group = next((g for g, names in groups.items() if name in names), None)
            if group is None:
                raise ModelError(unknown(f"sweep: cases[{i}]", name, everything))
            _set(run, group, name, _fixed(value, group, f"sweep: cases[{i}] '{name}'"))
        runs.append(run)
    if not runs:
        raise ModelError("sweep: cases holds no runs")
    return runs
