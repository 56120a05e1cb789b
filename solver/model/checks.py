"""Argument checks shared by every public entry point of the solver: numbers, counts, vectors
and dictionaries by name, enum options and keyword names. Each failure is a ModelError that
names the argument (``where``, e.g. ``"simulate: rtol"``) and, for vectors and dictionaries,
the entry at fault by its dotted name, and says what is expected (docs/errors.md).
"""
from __future__ import annotations

import difflib
import functools
import inspect
from collections.abc import Mapping, Sequence
from enum import Enum

import numpy as np

from jourdain.blocks.errors import ModelError


def unknown(what: str, name, known: list[str]) -> str:
    """"<what>: unknown name '<name>'" with the closest known names (or all of them)."""
    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=3)
    hint = f"did you mean {', '.join(close)}?" if close else \
        f"known names: {', '.join(map(str, known)) or 'none'}"
    return f"{what}: unknown name '{name}'; {hint}"


def number(value, where: str, low: float | None = None, high: float | None = None,
           open_low: bool = False, open_high: bool = False, unit: str = "") -> float:
    """A finite float within [low, high] (open ends if asked); bools and strings are refused
    (``float('5')`` would accept a string where a number is meant)."""
    if isinstance(value, (bool, str, bytes)) or value is None:
        number_ = np.nan
    else:
        try:
            number_ = float(value)
        except (TypeError, ValueError):
            number_ = np.nan
    unit = f" [{unit}]" if unit else ""
    if not np.isfinite(number_):
        raise ModelError(f"{where}: expected a finite number{unit}, got {value!r}")
    below = low is not None and (number_ <= low if open_low else number_ < low)
    above = high is not None and (number_ >= high if open_high else number_ > high)
    if below or above:
        lo = "" if low is None else ("(" if open_low else "[") + f"{low:g}"
        hi = "" if high is None else f"{high:g}" + (")" if open_high else "]")
        span = f"in {lo}, {hi}" if low is not None and high is not None else (
            f"{'>' if open_low else '≥'} {low:g}" if low is not None else
            f"{'<' if open_high else '≤'} {high:g}")
        raise ModelError(f"{where}: must be {span}{unit}, got {value!r}")
    return number_


def count(value, where: str, minimum: int = 1) -> int:
    """An integer ≥ ``minimum`` (an integral float such as 10.0 is accepted, 2.5 is not)."""
    if isinstance(value, (bool, str, bytes)) or value is None:
        ok = False
    else:
        try:
            ok = float(value) == int(value)
        except (TypeError, ValueError, OverflowError):
            ok = False
    if not ok or int(value) < minimum:
        raise ModelError(f"{where}: expected an integer ≥ {minimum}, got {value!r}")
    return int(value)


def flag(value, where: str) -> bool:
    """True or False (numpy booleans too), nothing else."""
    if not isinstance(value, (bool, np.bool_)):
        raise ModelError(f"{where}: expected True or False, got {value!r}")
    return bool(value)


def option(value, kind: type[Enum], where: str):
    """A member of the Enum ``kind``; a string or another object gets the members listed."""
    if isinstance(value, kind):
        return value
    members = ", ".join(f"jd.{kind.__name__}.{m.name}" for m in kind)
    hint = ""
    if isinstance(value, str):
        match = [m for m in kind if value.lower() in (m.name.lower(), str(m.value).lower())]
        hint = f"; did you mean jd.{kind.__name__}.{match[0].name}?" if match else ""
    raise ModelError(f"{where}: expected a jd.{kind.__name__} ({members}), got {value!r}{hint}")


def name(value, where: str) -> str:
    """A non-empty string used as a dotted name."""
    if not isinstance(value, str) or not value:
        raise ModelError(f"{where}: expected a name (a non-empty string such as "
                         f"'cube.edge.phi'), got {value!r}")
    return value


def mapping(values, where: str, kind: str = "name") -> dict:
    """A dict {name: value} (None is empty); a list, an array or a string is refused with the
    form that is meant."""
    if values is None:
        return {}
    if not isinstance(values, Mapping):
        by_position = " (values are given by name, not by position)" if isinstance(
            values, (np.ndarray, list, tuple)) else ""
        raise ModelError(f"{where}: expected a dict {{{kind}: value}}, got "
                         f"{type(values).__name__} {values!r:.60}{by_position}")
    for key in values:
        name(key, f"{where} key")
    return dict(values)


def listing(values, where: str, kind: str) -> list:
    """None → [], a list or tuple → a list; anything else (a single object, a string) is a
    ModelError asking for a list of ``kind``."""
    if values is None:
        return []
    if not isinstance(values, (list, tuple)):
        raise ModelError(f"{where} must be a list of {kind}, got {values!r:.60} (wrap a "
                         "single one in a list: [...])")
    return list(values)


def entry(value, where: str, what: str) -> float:
    """One value of a dictionary by name: a finite number, named ``what`` in the message."""
    return number(value, f"{where}: '{what}'")


def finite(vector, names: list[str], where: str) -> np.ndarray:
    """The vector, or a ModelError naming its non-finite entries by name."""
    vector = np.asarray(vector, dtype=float)
    bad = np.flatnonzero(~np.isfinite(vector.ravel()))
    if bad.size:
        listed = ", ".join(f"{names[i]} = {vector.ravel()[i]}" for i in bad[:5])
        raise ModelError(f"{where}: not finite: {listed}; give finite values")
    return vector


def _booleans(value) -> bool:
    """True for a boolean, or a list, tuple or array holding one."""
    if isinstance(value, (bool, np.bool_)):
        return True
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "b" or value.dtype.kind == "O" and any(
            _booleans(v) for v in value.ravel())
    return isinstance(value, (list, tuple)) and any(_booleans(v) for v in value)


class Indexed(Sequence):
    """The names ``prefix[0]``, ``prefix[1]``, ... of n entries, each formed only when asked
    for (an error message): naming a run's output times anew cost 0.1 ms a run."""

    def __init__(self, prefix: str, n: int):
        self.prefix, self.n = prefix, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self.n))]
        if not -self.n <= i < self.n:
            raise IndexError(i)
        return f"{self.prefix}[{i % self.n}]"


def vector(value, names: list[str], where: str) -> np.ndarray:
    """A float vector with one finite entry per name (no broadcasting of a single value);
    booleans are refused (True would be 1.0)."""
    if _booleans(value):
        raise ModelError(f"{where}: expected {len(names)} numbers, got booleans "
                         f"{value!r:.60}")
    if isinstance(value, (str, bytes, Mapping)):
        raise ModelError(f"{where}: expected {len(names)} numbers in the order "
                         f"{', '.join(names)}, got {type(value).__name__} {value!r:.60}")
    try:
        vec = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ModelError(f"{where}: expected {len(names)} numbers, got {value!r:.60}") from None
    if vec.ndim > 1 and 1 not in vec.shape[1:] or vec.size != len(names):
        raise ModelError(f"{where}: has {vec.size} entries, expected {len(names)} ("
                         f"{', '.join(names)})")
    return finite(vec.ravel(), names, where)


def keywords(fn):
    """Decorate a public function so that an unknown keyword or a wrong number of arguments is
    a ModelError naming it (with the closest known keyword), not Python's TypeError."""
    signature = inspect.signature(fn)
    known = [n for n, p in signature.parameters.items()
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and n != "self"]
    where = fn.__qualname__.removesuffix(".__init__")

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        for key in kwargs:
            if key not in known:
                raise ModelError(unknown(f"{where}: keyword", key, known))
        try:
            signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise ModelError(f"{where}: {exc}; its arguments are {', '.join(known)}") from None
        return fn(*args, **kwargs)

    return checked
