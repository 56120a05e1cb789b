"""Progress displays for simulations and sweeps: tqdm on a terminal (a widget in Jupyter),
plain lines elsewhere (a log file, CI), and a global switch.

``progress=None`` (the default) costs next to nothing: the integrator runs in one call as
always, and only when that call has lasted ``DELAY`` seconds does a display appear that
counts the elapsed time (CasADi releases the GIL while CVODES runs, so a watcher thread can
draw it).
``progress=True`` integrates the output grid in ``CHUNKS`` pieces with one time-shifted
integrator and shows the fraction done; CVODES restarts at every piece, which costs 33–57 %
on runs of 5 ms to 0.8 s (benchmarks/visual.py: chains of 5 to 60 links, the cube on a
corner). ``progress=None`` measured 0.96–1.16 times a plain run there (noise around 1).
``progress=False`` shows nothing.

Where the stream is not a terminal, a bar redrawn in place by carriage returns reads as one
run-together line ("simulate: simulate: , 2 s elapsed …" in a log), so the displays write
whole lines instead, at most one every ``LINE_PERIOD`` seconds (plus the last).

The global switch ``jd.options.progress`` (:data:`options`; initially from the environment
variable ``JOURDAIN_PROGRESS``: 0/false/no/off silence) turns every display off, whatever the
calls' ``progress=`` arguments say: a run with ``progress=True`` then integrates in one call.
"""
from __future__ import annotations

import os
import sys
import threading
import time

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

DELAY = 2.0     # [s] a run that lasts longer gets an elapsed-time display (progress=None)
CHUNKS = 20     # pieces of the output grid with progress=True
LINE_PERIOD = 10.0   # [s] at most one line this often where the stream is not a terminal
ENVIRONMENT = "JOURDAIN_PROGRESS"
_OFF, _ON = ("0", "false", "no", "off"), ("1", "true", "yes", "on", "")


class Options:
    """jourdain's global settings (``jd.options``).

    progress : True shows progress displays as the calls ask (``progress=`` of simulate,
        sweep); False shows none anywhere. Unset (None), it follows the environment variable
        JOURDAIN_PROGRESS (0, false, no, off: False; unset, 1, true, yes, on: True).
    """

    def __init__(self):
        self._progress: bool | None = None

    @property
    def progress(self) -> bool:
        """True when progress displays are shown (see the class docstring)."""
        if self._progress is not None:
            return self._progress
        value = os.environ.get(ENVIRONMENT, "").strip().lower()
        if value not in _OFF + _ON:
            raise ModelError(f"the environment variable {ENVIRONMENT} must be 0 or 1 (or "
                             f"false/true, no/yes, off/on), got {value!r}")
        return value not in _OFF

    @progress.setter
    def progress(self, value) -> None:
        if value is not None and not isinstance(value, bool):
            raise ModelError(f"jd.options.progress must be True, False or None (follow "
                             f"${ENVIRONMENT}), got {value!r}")
        self._progress = value

    def __repr__(self) -> str:
        return f"jd.options(progress={self.progress})"


options = Options()


def check_progress(progress) -> None:
    """progress must be None, True or False (a ModelError otherwise)."""
    if progress is not None and not isinstance(progress, bool):
        raise ModelError(f"simulate: progress must be None, True or False, got {progress!r}")


def wanted(progress) -> bool | None:
    """The call's ``progress`` under the global switch: False when it is off."""
    return progress if options.progress else False


def _notebook() -> bool:
    """True inside a Jupyter kernel (whose streams are not terminals but draw widgets)."""
    ipython = sys.modules.get("IPython")
    try:
        shell = ipython.get_ipython() if ipython is not None else None
    except Exception:   # an IPython that is importable but not running
        return False
    return type(shell).__name__ == "ZMQInteractiveShell"


def interactive(stream=None) -> bool:
    """True where a redrawn bar reads well: a terminal, or a notebook."""
    stream = sys.stderr if stream is None else stream
    try:
        tty = bool(stream.isatty())
    except (AttributeError, ValueError):   # closed or a stream without isatty
        tty = False
    return tty or _notebook()


class Lines:
    """A progress display as whole lines on ``stream`` (module docstring): ``update(n)``
    advances by n of ``total`` (None: a count of elapsed time only), at most one line per
    LINE_PERIOD seconds; ``close()`` writes the last."""

    def __init__(self, desc: str, total: float | None = None, unit: str = "",
                 stream=None):
        self.desc, self.total, self.unit = desc, total, unit
        self.stream = sys.stderr if stream is None else stream
        self.n, self.start, self._last = 0.0, time.perf_counter(), -np.inf
        self._closed = False

    def update(self, n: float = 0.0) -> None:
        self.n += n
        if time.perf_counter() - self._last >= LINE_PERIOD:
            self.write()

    def write(self, note: str = "") -> None:
        self._last = time.perf_counter()
        elapsed = self._last - self.start
        if self.total:
            done = f"{100 * self.n / self.total:.0f} % ({self.n:.4g} of {self.total:.4g}" \
                   f"{' ' + self.unit if self.unit else ''}), "
        else:
            done = ""
        print(f"{self.desc}: {done}{elapsed:.0f} s elapsed{note}", file=self.stream,
              flush=True)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.write(", done")


def display(desc: str, total: float | None = None, unit: str = ""):
    """A progress display: tqdm where :func:`interactive`, else :class:`Lines`."""
    if interactive():
        from tqdm.auto import tqdm
        return tqdm(total=total, desc=desc, unit=unit or "it")
    return Lines(desc, total, unit)


class Watch:
    """Context manager: an elapsed-time display after ``DELAY`` s, closed on exit (nothing
    when ``enabled`` is false or the global switch is off)."""

    def __init__(self, enabled: bool, desc: str):
        self.enabled, self.desc = bool(enabled) and options.progress, desc
        self._done = threading.Event()
        self._thread = None

    def __enter__(self):
        if self.enabled:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc):
        self._done.set()
        if self._thread is not None:
            self._thread.join()
        return False

    def _run(self) -> None:
        if self._done.wait(DELAY):
            return
        hint = " (progress=True shows the fraction done)"
        if not interactive():
            lines = Lines(self.desc)
            lines.start -= DELAY
            lines.write(hint)
            while not self._done.wait(LINE_PERIOD):
                lines.write(hint)
            lines.close()
            return
        from tqdm.auto import tqdm
        start = time.perf_counter() - DELAY
        with tqdm(desc=self.desc, total=None, bar_format="{desc}") as bar:
            while True:
                bar.set_description_str(f"{self.desc}: {time.perf_counter() - start:.0f} s "
                                        f"elapsed{hint}", refresh=True)
                if self._done.wait(0.5):
                    break


def chunked(dae: dict, t, grid: np.ndarray, x0, p, opts: dict, desc: str) -> np.ndarray:
    """x on ``grid`` (nx × n) integrated piece by piece with a tqdm bar; the ODE is shifted to
    start at 0 (t = t_k + τ) so one integrator serves every piece of equal spacing."""
    tk = type(t).sym("t_k")
    shifted = {"t": t, "x": dae["x"], "p": ca.vertcat(dae["p"], tk),
               "ode": ca.substitute(dae["ode"], t, tk + t)}
    bounds = np.unique(np.linspace(0, len(grid) - 1, min(CHUNKS, len(grid) - 1) + 1).astype(int))
    out, x, integ, rel_prev = [np.asarray(x0, float).reshape(-1, 1)], x0, None, None
    bar = display(desc, float(grid[-1] - grid[0]), "s (model)")
    try:
        for i0, i1 in zip(bounds[:-1], bounds[1:]):
            rel = grid[i0 + 1:i1 + 1] - grid[i0]
            if rel_prev is None or rel.shape != rel_prev.shape or \
                    np.abs(rel - rel_prev).max() > 1e-12 * max(1.0, abs(rel[-1])):
                integ = ca.integrator("simulate_piece", "cvodes", shifted, 0.0, rel, opts)
                rel_prev = rel
            xs = np.array(integ(x0=x, p=np.append(p, grid[i0]))["xf"])
            out.append(xs)
            x = xs[:, -1]
            bar.update(float(grid[i1] - grid[i0]))
    finally:
        bar.close()
    return np.hstack(out)
