"""What every benchmark of benchmarks/mbs shares: CPU time (time.process_time, the median of
repeated runs after one warm-up) and the IFToMM error measure.

The IFToMM/Coruña library states its maximal errors (1e-1 low, 1e-3 high precision) "measured
with n output steps and a threshold value of 1e-3" without a formula in the statement. The
error reported here is the largest absolute difference from the reference over the n output
times and the reference quantities (positions in m, velocities in m/s, all of order 1 in
these problems). Beside it, ``rel``: the difference relative to the reference value where
that is at least the threshold in magnitude, absolute where it is smaller (a stricter reading
of the statement: near zero crossings it divides by values of ~1e-3).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

THRESHOLD = 1e-3
HIGH_PRECISION = 1e-3


def cpu(fn, repeat: int = 3, warm_up: bool = True):
    """Median CPU time [s] of fn() over ``repeat`` runs (after a warm-up run) and its last
    result."""
    if warm_up:
        fn()
    times, out = [], None
    for _ in range(max(1, repeat)):
        start = time.process_time()
        out = fn()
        times.append(time.process_time() - start)
    return float(np.median(times)), out


def iftomm_error(values: dict, reference: dict, threshold: float = THRESHOLD) -> dict:
    """The benchmark's error of ``values`` against ``reference`` (dicts of equal-length
    arrays on the same output grid): {'error': the largest absolute error, 'rel': the
    thresholded relative error (module note), 'worst': the quantity where 'error' is}."""
    worst, err, rel = None, 0.0, 0.0
    for name, ref in reference.items():
        ref = np.asarray(ref, dtype=float)
        diff = np.abs(np.asarray(values[name], dtype=float) - ref)
        scale = np.where(np.abs(ref) >= threshold, np.abs(ref), 1.0)
        rel = max(rel, float((diff / scale).max()))
        if float(diff.max()) >= err:
            err, worst = float(diff.max()), name
    return {"error": err, "rel": rel, "worst": worst}


def row(problem: str, code: str, error: float, cpu_time: float, **extra) -> dict:
    """One line of the table: the problem, who ran it (jourdain's method or a peer), the
    error in the benchmark's measure and the CPU time [s]."""
    out = {"problem": problem, "code": code, "error": float(error), "cpu": float(cpu_time)}
    out.update(extra)
    return out
