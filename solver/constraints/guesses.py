"""Branch choice by guesses of any position-level quantity (the MSL's ``phi_guess``,
``s_guess``): before a closed loop is assembled, the coordinates are pulled toward the
guesses — Gauss–Newton on the least-squares problem ‖c(y)‖² + ‖g(y) − guess‖² (closure
equations, held conditions and the guessed quantities together, minimum-norm steps along
the joint-speed directions) — and the assembly then starts from that point. The guesses are
not held: the assembled configuration meets only the closure equations and the ``fix``
conditions, on the branch the guesses lean toward (the root of c nearest the compromise
point), as Modelica's start values with ``fixed = false`` choose the root its Newton finds.
"""
from __future__ import annotations

import numpy as np

from .moves import Mover

MAX_ITER = 50
STEP_TOL = 1e-10   # a step this small (in the moves' units) ends the pull [m, rad]


def toward_guesses(mv: Mover, y: np.ndarray, p: np.ndarray, free: list[int]) -> np.ndarray:
    """The least-squares point of the augmented residual near ``y`` (module docstring):
    no error if the guesses cannot be met (they are only a direction to start from)."""
    y = np.asarray(y, dtype=float).copy()
    if not free:
        return y
    for _ in range(MAX_ITER):
        res, J = (np.array(v, dtype=float) for v in mv.linear(y, p))
        res = res.ravel()
        if not (np.isfinite(res).all() and np.isfinite(J).all()):
            return y   # the assembly that follows names what is undefined
        step = np.zeros(J.shape[1])
        step[free] = np.linalg.lstsq(J[:, free], -res, rcond=None)[0]
        norm0 = np.linalg.norm(res)
        for scale in 0.5 ** np.arange(12):
            trial = np.array(mv.retract(y, scale * step)).ravel()
            if np.linalg.norm(np.array(mv.c(trial, p)).ravel()) < norm0:
                y = trial
                break
        else:
            return y
        if scale * np.abs(step).max() <= STEP_TOL:
            return y
    return y
