"""Time-series plots with units: one panel per series, or one panel per unit with a legend
when units repeat; against time or any other series (``x="name"``), over a time window
(``t_range``), in display units (``units={"rad": "deg"}``), into the user's axes (``ax=``) or a
new figure (``figsize=``), with a title; saved when a path is given. The user's matplotlib
backend is never changed (pyplot creates the figure, so it shows in notebooks and
``plt.show()``)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from jourdain.blocks.errors import ModelError

from .paths import output_path

PANEL_LIMIT = 6        # up to this many series of distinct units: one panel each
LINES_PER_PANEL = 8
_SUPERSCRIPTS = str.maketrans("23", "²³")
# display units: (unit of the series, unit shown) -> factor (shown = factor · value); units
# as the components declare them (Modelica-style strings)
DISPLAY_UNITS = {
    ("rad", "deg"): 180.0 / np.pi, ("rad", "rev"): 0.5 / np.pi,
    ("rad/s", "deg/s"): 180.0 / np.pi, ("rad/s", "rpm"): 30.0 / np.pi,
    ("rad/s", "Hz"): 0.5 / np.pi, ("rad/s2", "deg/s2"): 180.0 / np.pi,
    ("m", "mm"): 1e3, ("m", "cm"): 1e2, ("m", "km"): 1e-3, ("m/s", "mm/s"): 1e3,
    ("m/s", "km/h"): 3.6, ("m/s2", "g"): 1.0 / 9.80665, ("s", "ms"): 1e3,
    ("N", "kN"): 1e-3, ("N.m", "N.mm"): 1e3, ("N.m", "kN.m"): 1e-3,
    ("W", "kW"): 1e-3, ("W", "mW"): 1e3, ("J", "kJ"): 1e-3, ("J", "mJ"): 1e3,
    ("V", "mV"): 1e3, ("V", "kV"): 1e-3, ("A", "mA"): 1e3, ("Pa", "bar"): 1e-5,
    ("Pa", "kPa"): 1e-3, ("Pa", "MPa"): 1e-6, ("kg", "g"): 1e3,
}


def pretty_unit(unit: str) -> str:
    """Modelica-style unit strings for people: "N.m" → "N·m", "kg.m2" → "kg·m²",
    "m/s2" → "m/s²"."""
    out = []
    for part in unit.replace(".", "·").split("·"):
        head = part.rstrip("23")
        out.append(head + part[len(head):].translate(_SUPERSCRIPTS) if head else part)
    return "·".join(out)


def label(name: str, unit: str) -> str:
    """``name [unit]`` (the unit omitted when unknown)."""
    return f"{name} [{pretty_unit(unit)}]" if unit else name


@dataclass
class Line:
    """One curve: its legend label, data and matplotlib format (``fmt``, keyword ``style``)."""

    name: str
    x: np.ndarray
    y: np.ndarray
    fmt: str = "-"
    style: dict = field(default_factory=dict)


def window(t: np.ndarray, t_range, what: str = "plot") -> np.ndarray:
    """Boolean mask of the samples in ``t_range`` = (t0, t1) [s] (None: all)."""
    if t_range is None:
        return np.ones(t.size, dtype=bool)
    try:
        t0, t1 = (float(v) for v in t_range)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{what}: t_range must be (t0, t1) in seconds, got {t_range!r}") \
            from exc
    if not t1 > t0:
        raise ModelError(f"{what}: t_range needs t0 < t1, got {t_range!r}")
    mask = (t >= t0) & (t <= t1)
    if not mask.any():
        raise ModelError(f"{what}: no samples in t_range {t_range!r}; the data cover "
                         f"{t[0]:g} … {t[-1]:g} s")
    return mask


def display_units(names: list[str], units: dict, wanted) -> tuple[dict, dict]:
    """The unit each series is shown in and the factor to it: ``wanted`` maps a series name
    or a unit (every series of that unit) to a display unit of :data:`DISPLAY_UNITS`."""
    if wanted is None:
        return {n: units.get(n, "") for n in names}, {n: 1.0 for n in names}
    if not isinstance(wanted, dict):
        raise ModelError(f"plot: units must be a dict of series name or unit -> display unit, "
                         f"e.g. units={{'rad': 'deg'}}, got {wanted!r}")
    shown, factors = {}, {}
    for n in names:
        unit = units.get(n, "")
        target = wanted.get(n, wanted.get(unit, unit))
        if target == unit:
            shown[n], factors[n] = unit, 1.0
            continue
        if (unit, target) not in DISPLAY_UNITS:
            choices = [b for a, b in DISPLAY_UNITS if a == unit]
            raise ModelError(f"plot: units: {n} [{unit or 'no unit'}] cannot be shown in "
                             f"{target!r}; " + (f"choose from {', '.join(choices)}" if choices
                                                else "no display unit is known for it"))
        shown[n], factors[n] = target, DISPLAY_UNITS[(unit, target)]
    unused = [k for k in wanted if k not in names and k not in {units.get(n) for n in names}]
    if unused:
        raise ModelError(f"plot: units: {unused[0]!r} is neither a plotted series nor the unit "
                         f"of one (plotted: {', '.join(names)})")
    return shown, factors


def panels_by_unit(names: list[str], units: dict) -> list[list[str]]:
    """One panel per name; when a unit repeats (or beyond PANEL_LIMIT names) one per unit (in
    order of first appearance, series without a unit one panel each), split after
    LINES_PER_PANEL lines."""
    known = [units.get(n, "") for n in names if units.get(n, "")]
    if len(names) <= PANEL_LIMIT and len(known) == len(set(known)):
        return [[n] for n in names]
    groups: dict[str, list[str]] = {}
    for n in names:
        groups.setdefault(units.get(n, "") or f"\0{n}", []).append(n)
    return [g[i:i + LINES_PER_PANEL] for g in groups.values()
            for i in range(0, len(g), LINES_PER_PANEL)]


def draw(panels: list[list[Line]], units: list[str], x_label: str, title: str | None,
         path=None, ax=None, figsize=None):
    """A figure with one axis per panel (shared x), y labels with units, legends where a
    panel holds several lines; into the user's axes ``ax`` (one per panel) if given, else a
    new figure of ``figsize`` (inches); saved to ``path`` when given. Returns the figure."""
    import matplotlib.pyplot as plt

    out = None if path is None else output_path(path, "plot", _formats(), "result.png")
    if ax is not None:
        axes = _user_axes(ax, len(panels))
        fig = axes[0, 0].figure
    else:
        cols = 1 if len(panels) <= 8 else 2
        rows = -(-len(panels) // cols)
        size = _figsize(figsize) or (7 * cols, 1.6 + 1.5 * rows)
        fig, axes = plt.subplots(rows, cols, sharex=True, squeeze=False, figsize=size)
    for ax, lines, unit in zip(axes.T.ravel(), panels, units):
        for line in lines:
            ax.plot(line.x, line.y, line.fmt, label=line.name, **line.style)
        names = list(dict.fromkeys(line.name.split(" (")[0] for line in lines))
        ax.set_ylabel(label(names[0], unit) if len(names) == 1 else
                      (f"[{pretty_unit(unit)}]" if unit else ""), fontsize=8)
        if len(lines) > 1:
            ax.legend(fontsize=7, loc="best")
        ax.grid(True, alpha=0.3)
    for ax in axes.T.ravel()[len(panels):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel(x_label)
    if title:
        fig.suptitle(title)
    if not fig.get_constrained_layout():
        fig.tight_layout()
    if out is not None:
        fig.savefig(out, dpi=120)
    return fig


# the output grid is called coarse when its spacing exceeds this many mean integrator steps
COARSE_GRID = 8.0


class CoarseGridWarning(UserWarning):
    """The output grid is much coarser than the integrator's steps: a signal faster than the
    grid is sampled, not drawn, and may show beats (aliasing) that are not there."""


def warn_if_coarse(t: np.ndarray, stats: dict, what: str) -> None:
    """Warn when the output spacing exceeds COARSE_GRID mean integrator steps: the
    integrator resolved dynamics (it needed those steps for its error test) that the grid
    cannot show. Runs without step statistics (events, optimization) are not judged."""
    steps = (stats or {}).get("steps")
    if not steps or t.size < 2:
        return
    span = float(t[-1] - t[0])
    spacing, mean_step = span / (t.size - 1), span / steps
    if spacing > COARSE_GRID * mean_step:
        import warnings
        need = int(np.ceil(span / mean_step)) + 1
        warnings.warn(f"{what}: the output grid (spacing {spacing:.3g} s, {t.size} samples) is "
                      f"{spacing / mean_step:.0f}× coarser than the integrator's mean step "
                      f"({mean_step:.3g} s, {steps} steps): signals faster than the grid may "
                      f"show beats that are not there; simulate with n_out={need} (or t_out=) "
                      f"to draw them", CoarseGridWarning, stacklevel=3)


def _user_axes(ax, n_panels: int) -> np.ndarray:
    """The user's axes as a column (one Axes for one panel, a sequence for several)."""
    from matplotlib.axes import Axes

    axes = [ax] if isinstance(ax, Axes) else list(np.ravel(np.asarray(ax, dtype=object)))
    if not axes or not all(isinstance(a, Axes) for a in axes):
        raise ModelError(f"plot: ax must be a matplotlib Axes or a sequence of them, got "
                         f"{ax!r}")
    if len(axes) != n_panels:
        raise ModelError(f"plot: ax has {len(axes)} axes for {n_panels} panels; give one Axes "
                         f"per panel (series of one unit share a panel), or no ax")
    return np.array(axes, dtype=object).reshape(-1, 1)


def _figsize(figsize):
    if figsize is None:
        return None
    try:
        w, h = (float(v) for v in figsize)
    except (TypeError, ValueError):
        w = h = np.nan
    if not (np.isfinite(w) and np.isfinite(h) and w > 0 and h > 0) or isinstance(figsize, str):
        raise ModelError(f"plot: figsize must be (width, height) in inches, got {figsize!r}")
    return (w, h)


def _formats() -> tuple[str, ...]:
    from matplotlib.backend_bases import FigureCanvasBase
    return tuple("." + k for k in FigureCanvasBase.get_supported_filetypes())


def plot_result(t: np.ndarray, series: dict, units: dict, names, x=None, t_range=None,
                title=None, path=None, ax=None, figsize=None, display=None):
    """Result.plot: the named series (default: coordinates and speeds) against time or the
    series ``x``, in the display units ``display``; see :func:`draw`."""
    names = list(names)
    if not names:   # a model without states has no default series to draw
        shown = ", ".join(n for n in series if not n.startswith(("energy.", "power.")))
        raise ModelError("plot: this run has no coordinates or speeds to plot by default (a "
                         "model without degrees of freedom); name the series, e.g. "
                         f"plot('energy.total'); its series: {shown or 'energies only'}")
    for n in names + ([x] if x not in (None, "t") else []):
        if n not in series:
            raise ModelError(_unknown(n, series))
    mask = window(t, t_range)
    plotted = names + ([x] if x not in (None, "t") else [])
    shown, factor = display_units(plotted, units, display)
    xs, x_label = (t, "t [s]") if x in (None, "t") else \
        (factor[x] * series[x], label(x, shown[x]))
    panels = panels_by_unit(names, shown)
    lines = [[Line(n, xs[mask], factor[n] * series[n][mask]) for n in group]
             for group in panels]
    return draw(lines, [shown[g[0]] for g in panels], x_label, title, path, ax, figsize)


def _unknown(name: str, series: dict) -> str:
    import difflib
    close = difflib.get_close_matches(str(name), list(series), n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return f"plot: no series named '{name}'{hint}"
