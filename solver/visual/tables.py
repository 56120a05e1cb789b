"""HTML summaries for notebooks (Jupyter calls ``_repr_html_``): small tables with names,
units and values, escaped, long tables cut with a note. Used by the reprs of Result, System,
LinearSystem, Feedback and Solution."""
from __future__ import annotations

import html

import numpy as np

from .plots import pretty_unit

MAX_ROWS = 40
STYLE = ("<style>.jd-table{border-collapse:collapse;font-size:12px;margin:4px 0}"
         ".jd-table td,.jd-table th{padding:2px 8px;border-bottom:1px solid #ddd;"
         "text-align:left}.jd-table td.num{text-align:right;font-variant-numeric:"
         "tabular-nums}.jd-table caption{text-align:left;font-weight:600}</style>")


def number(value) -> str:
    """A compact number: 6 significant digits."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return html.escape(str(value))
    return f"{v:.6g}"


def table(caption: str, headers: list[str], rows: list[list], numeric=()) -> str:
    """An HTML table; columns whose index is in ``numeric`` are right-aligned numbers."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = []
    for row in rows[:MAX_ROWS]:
        cells = "".join(f'<td class="num">{number(v)}</td>' if i in numeric else
                        f"<td>{html.escape(str(v))}</td>" for i, v in enumerate(row))
        body.append(f"<tr>{cells}</tr>")
    if len(rows) > MAX_ROWS:
        body.append(f'<tr><td colspan="{len(headers)}">… {len(rows) - MAX_ROWS} more</td></tr>')
    return (f'<table class="jd-table"><caption>{html.escape(caption)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")


def section(title: str, lines: list[str], tables: list[str]) -> str:
    """A titled block: a few lines of text and the tables."""
    text = "".join(f"<div>{html.escape(line)}</div>" for line in lines)
    return f"<div>{STYLE}<strong>{html.escape(title)}</strong>{text}{''.join(tables)}</div>"


def count(n: int, noun: str) -> str:
    """"1 input", "2 inputs"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def unit(u: str) -> str:
    return pretty_unit(u) if u else ""


def matrix(caption: str, values: np.ndarray, rows: list[str], cols: list[str]) -> str:
    """A labelled matrix (e.g. a gain K by input and state)."""
    values = np.atleast_2d(np.asarray(values, dtype=float))
    return table(caption, [""] + list(cols),
                 [[r] + list(values[i]) for i, r in enumerate(rows)],
                 numeric=tuple(range(1, len(cols) + 1)))
