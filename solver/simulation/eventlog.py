"""The event log of a hybrid simulation: one record per event instant (time, element, kind,
what changed, the state before and after, the kinetic energy an impact removed)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from jourdain.blocks.errors import ModelError

from ..hybrid.state import ChatteringError
from ..model.checks import count, number


@dataclass
class EventRecord:
    """One event instant.

    t : [s] time; element : dotted path of the element (or the user event's name);
    kind : "guard" (a zero crossing), "time", "sample", "initial" or "terminal";
    cause : the guard's name (``hit_lower``) or the sampler; changes : what changed, in words
    (``mode 0 → -1``, ``kinetic energy lost 0.12 J``); x_before, x_after : states;
    discrete_before, discrete_after : the discrete variables by name; energy_lost : [J]
    kinetic energy an impact removed (None without impact).
    """

    t: float
    element: str
    kind: str
    cause: str
    changes: list[str] = field(default_factory=list)
    x_before: np.ndarray | None = None
    x_after: np.ndarray | None = None
    discrete_before: dict = field(default_factory=dict)
    discrete_after: dict = field(default_factory=dict)
    energy_lost: float | None = None

    def __str__(self) -> str:
        what = "; ".join(self.changes) if self.changes else "no change"
        return f"t = {self.t:.9g} s  {self.element}  {self.kind} {self.cause}: {what}"


class EventLog(list):
    """The events of a simulation in time order (a list of EventRecord) with filters."""

    def times(self, element: str | None = None, cause: str | None = None) -> np.ndarray:
        """Times [s] of the events of ``element`` (path prefix) and/or ``cause``."""
        return np.array([r.t for r in self.select(element, cause)])

    def select(self, element: str | None = None, cause: str | None = None) -> "EventLog":
        """The records that involve ``element`` (a path or its prefix) and/or ``cause`` (a
        guard's name); simultaneous events share one record listing all of them."""
        def involves(record) -> bool:
            pairs = list(zip(record.element.split(", "), record.cause.split(", ")))
            if len(pairs) != len(record.element.split(", ")):   # one cause for all
                pairs = [(e, record.cause) for e in record.element.split(", ")]
            return any((element is None or e == element or e.startswith(element + "."))
                       and (cause is None or c == cause) for e, c in pairs)
        return EventLog(r for r in self if involves(r))

    @property
    def energy_lost(self) -> float:
        """Total kinetic energy removed by impacts [J]."""
        return float(sum(r.energy_lost or 0.0 for r in self))

    def table(self, limit: int = 40) -> str:
        """The first ``limit`` records, one per line."""
        lines = [str(r) for r in self[:limit]]
        if len(self) > limit:
            lines.append(f"... {len(self) - limit} more")
        return "\n".join(lines) if lines else "(no events)"


def chatter_limits(chatter, span: float) -> tuple[int, float]:
    """(n, span): n ≥ 2 events in a row, each within span > 0 s of the previous."""
    try:
        n, within = chatter
    except (TypeError, ValueError):
        raise ModelError(f"simulate: chatter must be a pair (n, span [s]), got "
                         f"{chatter!r}") from None
    n = count(n, "simulate: chatter n")
    if n < 2:
        raise ModelError(f"simulate: chatter n must be at least 2, got {n}")
    within = 1e-9 * max(1.0, span) if within is None else \
        number(within, "simulate: chatter span", 0.0, open_low=True, unit="s")
    return n, within


def check_chatter(log: EventLog, record: EventRecord, max_events: int, chatter: tuple,
                  run: int, state: str) -> int:
    """A ChatteringError past ``max_events`` guard events or after ``chatter[0]`` in a row,
    each within ``chatter[1]`` s of the previous; the length of the present run."""
    guards = [r for r in log if r.kind == "guard"]
    if len(guards) > max_events:
        raise ChatteringError(f"more than {max_events} events by t = {record.t:.9g} s "
                              f"(raise max_events=); last: {record}")
    if record.kind != "guard" or len(guards) < 2:
        return run
    run = run + 1 if record.t - guards[-2].t <= chatter[1] else 0
    if run >= chatter[0]:
        elements = ", ".join(dict.fromkeys(r.element for r in guards[-chatter[0]:]))
        raise ChatteringError(
            f"chattering: {chatter[0]} events in a row, each within {chatter[1]:.3g} s of "
            f"the previous, at t = {record.t:.12g} s (elements: {elements}; state: {state}). "
            "Typical causes: a mode that switches back and forth, or a chatter window wider "
            "than the last bounces before a contact rests; see docs/hybrid.md")
    return run
