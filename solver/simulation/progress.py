"""Progress bars for simulations (tqdm; a widget in Jupyter, text on a terminal).

``progress=None`` (the default) costs next to nothing: the integrator runs in one call as always, and
only when that call has lasted ``DELAY`` seconds does a bar appear that counts the elapsed
time (CasADi releases the GIL while CVODES runs, so a watcher thread can draw it).
``progress=True`` integrates the output grid in ``CHUNKS`` pieces with one time-shifted
integrator and shows the fraction done; CVODES restarts at every piece, which costs 33–57 %
on runs of 5 ms to 0.8 s (benchmarks/visual.py: chains of 5 to 60 links, the cube on a
corner). ``progress=None`` measured 0.96–1.16 times a plain run there (noise around 1).
``progress=False`` shows nothing.
"""
from __future__ import annotations

import threading
import time

import casadi as ca
import numpy as np

DELAY = 2.0     # [s] a run that lasts longer gets an elapsed-time bar (progress=None)
CHUNKS = 20     # pieces of the output grid with progress=True


def check_progress(progress) -> None:
    """progress must be None, True or False (a ModelError otherwise)."""
    if progress is not None and not isinstance(progress, bool):
        from jourdain.blocks.errors import ModelError
        raise ModelError(f"simulate: progress must be None, True or False, got {progress!r}")


class Watch:
    """Context manager: an elapsed-time bar after ``DELAY`` s, closed on exit."""

    def __init__(self, enabled: bool, desc: str):
        self.enabled, self.desc = enabled, desc
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
        from tqdm.auto import tqdm
        start = time.perf_counter() - DELAY
        with tqdm(desc=self.desc, total=None, bar_format="{desc}: {postfix}") as bar:
            while True:
                bar.set_postfix_str(f"{time.perf_counter() - start:.0f} s elapsed (progress=True "
                                    "shows the fraction done)", refresh=True)
                if self._done.wait(0.5):
                    break


def chunked(dae: dict, t, grid: np.ndarray, x0, p, opts: dict, desc: str) -> np.ndarray:
    """x on ``grid`` (nx × n) integrated piece by piece with a tqdm bar; the ODE is shifted to
    start at 0 (t = t_k + τ) so one integrator serves every piece of equal spacing."""
    from tqdm.auto import tqdm

    tk = type(t).sym("t_k")
    shifted = {"t": t, "x": dae["x"], "p": ca.vertcat(dae["p"], tk),
               "ode": ca.substitute(dae["ode"], t, tk + t)}
    bounds = np.unique(np.linspace(0, len(grid) - 1, min(CHUNKS, len(grid) - 1) + 1).astype(int))
    out, x, integ, rel_prev = [np.asarray(x0, float).reshape(-1, 1)], x0, None, None
    with tqdm(total=float(grid[-1] - grid[0]), desc=desc, unit="s (model)") as bar:
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
    return np.hstack(out)
