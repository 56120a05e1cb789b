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


def start_sides(leaving: np.ndarray, directions: list, fired: set) -> np.ndarray:
    """The side each guard at zero at a segment start is put on (``leaving``: the side it
    moves to, 0 where it stays). A directional guard at zero that leaves to its crossed side
    crosses now (a clutch's normal force rising from exactly 0 at the start): it is left at
    0, and :func:`force_start` puts it on the side before the crossing; leaving to the other
    side it has not crossed, nor has a guard that fired at the event the segment starts at
    (``fired``, their indices)."""
    side = {Direction.RISING: 1, Direction.FALLING: -1}
    crossed = np.array([0 if k in fired else side.get(d, 0) for k, d in enumerate(directions)])
    return np.where((crossed != 0) & (leaving == crossed), 0, leaving)


def earliest_crossings(sign: np.ndarray, directions: list, watched: np.ndarray):
    """(first sample index, guards crossing there) over the watched guards' sign rows (each
    row's start forced by :func:`force_start`), or (None, [])."""
    first, hits = None, []
    for k, direction in enumerate(directions):
        if not watched[k]:
            continue
        force_start(sign[k], direction)
        j = first_crossing(sign[k], direction)
        if j is None:
            continue
        if first is None or j < first:
            first, hits = j, [k]
        elif j == first:
            hits.append(k)
    return first, hits
