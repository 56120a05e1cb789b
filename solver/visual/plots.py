"""Time-series plots with units: one panel per series, or, for many series, one panel per unit
with a legend; against time or any other series (``x="name"``), over a time window
(``t_range``), with a title; saved when a path is given. The user's matplotlib backend is never
changed (pyplot creates the figure, so it shows in notebooks and ``plt.show()``)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from jourdain.blocks.errors import ModelError

from .paths import output_path

PANEL_LIMIT = 6        # up to this many series: one panel each; above: grouped by unit
LINES_PER_PANEL = 8
_SUPERSCRIPTS = str.maketrans("23", "²³")


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


def panels_by_unit(names: list[str], units: dict) -> list[list[str]]:
    """One panel per name, or for more than PANEL_LIMIT names one per unit (in order of first
    appearance), split after LINES_PER_PANEL lines."""
    if len(names) <= PANEL_LIMIT:
        return [[n] for n in names]
    groups: dict[str, list[str]] = {}
    for n in names:
        groups.setdefault(units.get(n, ""), []).append(n)
    return [g[i:i + LINES_PER_PANEL] for g in groups.values()
            for i in range(0, len(g), LINES_PER_PANEL)]


def draw(panels: list[list[Line]], units: list[str], x_label: str, title: str | None,
         path=None):
    """A figure with one axis per panel (shared x), y labels with units, legends where a
    panel holds several lines; saved to ``path`` when given. Returns the figure."""
    import matplotlib.pyplot as plt

    out = None if path is None else output_path(path, "plot", _formats(), "result.png")
    cols = 1 if len(panels) <= 8 else 2
    rows = -(-len(panels) // cols)
    fig, axes = plt.subplots(rows, cols, sharex=True, squeeze=False,
                             figsize=(7 * cols, 1.6 + 1.5 * rows))
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
    fig.tight_layout()
    if out is not None:
        fig.savefig(out, dpi=120)
    return fig


def _formats() -> tuple[str, ...]:
    from matplotlib.backend_bases import FigureCanvasBase
    return tuple("." + k for k in FigureCanvasBase.get_supported_filetypes())


def plot_result(t: np.ndarray, series: dict, units: dict, names, x=None, t_range=None,
                title=None, path=None):
    """Result.plot: the named series (default: coordinates and speeds) against time or the
    series ``x``; see :func:`draw`."""
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
    xs, x_label = (t, "t [s]") if x in (None, "t") else (series[x], label(x, units.get(x, "")))
    panels = panels_by_unit(names, units)
    lines = [[Line(n, xs[mask], series[n][mask]) for n in group] for group in panels]
    return draw(lines, [units.get(g[0], "") for g in panels], x_label, title, path)


def _unknown(name: str, series: dict) -> str:
    import difflib
    close = difflib.get_close_matches(str(name), list(series), n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return f"plot: no series named '{name}'{hint}"
