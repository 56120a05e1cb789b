"""Zero crossings on sampled guard values: which samples bracket a crossing in a guard's
direction, the side it crosses to, and Illinois' regula falsi with a bisection safeguard,
which keeps the bracket so that the time returned is on the crossed side (the fallback of
:mod:`.localize`).
"""
from __future__ import annotations

import numpy as np

from jourdain.blocks.hybrid.base import Direction


def first_crossing(sign: np.ndarray, direction: Direction):
    """Index (into the samples, start = 0) where the signs cross in ``direction``."""
    last = 0
    for j, s in enumerate(sign):
        if s == 0:
            continue
        if last and s != last:
            rising = s > 0
            if direction is Direction.BOTH or (direction is Direction.RISING) == rising:
                return j
        last = s
    return None


def crossing_sign(direction: Direction, g_a: float, g_b: float, band: float = 0.0) -> float:
    """The sign s of a guard bracketed by g_a (before) and g_b (after) such that 'has
    crossed' is s·g > band: +1 rising, −1 falling, for both directions away from g_a's side
    (or towards g_b's when g_a is within ±band: a guard resting at zero after an event)."""
    if direction is Direction.FALLING:
        return -1.0
    if direction is Direction.RISING:
        return 1.0
    side = np.sign(g_a) if abs(g_a) > band else -np.sign(g_b)
    return float(-side)


def illinois(g, crossed, a: float, b: float, g_a: float, g_b: float, tol: float,
              max_iter: int = 200) -> float:
    """The far end b of a bracket [a, b] (g(a) not crossed, g(b) crossed), shrunk below
    tol: regula falsi with Illinois' halving of a stale end, bisection when it stalls."""
    side = 0
    for _ in range(max_iter):
        if b - a <= tol:
            break
        c = b - g_b * (b - a) / (g_b - g_a) if g_b != g_a else 0.5 * (a + b)
        if not a < c < b or abs(side) >= 2:
            c, side = 0.5 * (a + b), 0          # bisection when the secant stalls
        c = min(max(c, a + 0.5 * tol), b - 0.5 * tol)   # a root at an end: step past it
        g_c = g(c)
        if crossed(g_c):
            b, g_b = c, g_c
            g_a *= 0.5 if side > 0 else 1.0     # Illinois: halve the stale end
            side = max(side, 0) + 1
        else:
            a, g_a = c, g_c
            g_b *= 0.5 if side < 0 else 1.0
            side = min(side, 0) - 1
    return b


def force_start(sign: np.ndarray, direction: Direction) -> None:
    """A directional guard at zero at the segment start (just after an event) counts as on
    the side it must leave to cross: positive for FALLING, negative for RISING."""
    if sign[0] == 0 and direction is not Direction.BOTH:
        sign[0] = 1 if direction is Direction.FALLING else -1


def bracket_start(sign: np.ndarray, j: int) -> int:
    """The last sample before j with the opposite strict sign."""
    for a in range(j - 1, -1, -1):
        if sign[a] == -sign[j]:
            return a
    return 0
