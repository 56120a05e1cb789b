"""Broad phase by sweep and prune on bounding spheres: which pairs of n colliders may be in
contact now, without testing the n·(n − 1)/2 pairs one by one.

The colliders' bounding spheres (world centres [n×3], radii [n], grown by ``margin``/2 each)
project to intervals on the axis along which the centres spread most; the intervals are
sorted by their lower ends, and each collider meets only those that start before its own
interval ends (a binary search in the sorted lower ends: O(n·log n + pairs), vectorized,
no Python per pair). The pairs whose intervals overlap then pass the sphere test (centres
closer than the radii plus the margin) and the contact filter of docs/hybrid.md ("Contact
between bodies"): different bodies, not parent and child through one joint (``excluded``
body pairs), and matching collision bits (``a.group & b.mask or b.group & a.mask``,
MuJoCo's contype/conaffinity). An optional ``allowed`` set keeps only pairs of a given list
(the pairs a model declared). The reference is the brute-force test of every pair
(:func:`brute_force`); tests/test_broad_phase.py checks both agree on random scenes.
"""
from __future__ import annotations

import numpy as np

from jourdain.blocks.errors import ModelError


class BroadPhase:
    """The candidate pairs of a fixed set of colliders at any of their positions.

    radii [m] (finite, ≥ 0); bodies: a body id per collider (colliders of one body never
    pair); groups, masks: collision bits per collider (default 1, 1); excluded: body pairs
    (i, j) that never collide (parent and child); allowed: collider pairs (i, j) that may,
    None for every pair the rules accept.
    """

    def __init__(self, radii, bodies=None, groups=None, masks=None, excluded=(),
                 allowed=None):
        self.radii = np.asarray(radii, dtype=float).ravel()
        n = self.radii.size
        if not np.all(np.isfinite(self.radii)) or np.any(self.radii < 0):
            raise ModelError("broad phase: bounding radii must be finite and ≥ 0 (planes "
                             "are not put in the broad phase: pair them with every body)")
        self.bodies = np.arange(n) if bodies is None else _ints(bodies, n, "bodies")
        self.groups = np.ones(n, dtype=np.int64) if groups is None else \
            _ints(groups, n, "groups")
        self.masks = np.ones(n, dtype=np.int64) if masks is None else \
            _ints(masks, n, "masks")
        big = int(self.bodies.max()) + 1 if n else 1
        pairs = np.asarray(list(excluded), dtype=np.int64).reshape(-1, 2)
        self._excluded = np.unique(np.concatenate([pairs[:, 0] * big + pairs[:, 1],
                                                   pairs[:, 1] * big + pairs[:, 0]]))
        self._big = big
        self._allowed = None
        if allowed is not None:
            pairs = np.sort(np.asarray(list(allowed), dtype=np.int64).reshape(-1, 2), axis=1)
            if pairs.size and (pairs.min() < 0 or pairs.max() >= n):
                raise ModelError(f"broad phase: allowed pairs must index the {n} colliders")
            self._allowed = np.unique(pairs[:, 0] * n + pairs[:, 1])

    def pairs(self, centres, margin: float = 0.0) -> np.ndarray:
        """The candidate pairs (k × 2, i < j, sorted) at the world ``centres`` [n × 3]:
        bounding spheres within ``margin`` [m] of each other that the filter accepts."""
        centres = np.asarray(centres, dtype=float).reshape(-1, 3)
        n = self.radii.size
        if centres.shape[0] != n:
            raise ModelError(f"broad phase: {centres.shape[0]} centres for {n} colliders")
        if n < 2:
            return np.zeros((0, 2), dtype=np.int64)
        reach = self.radii + margin / 2
        axis = int(np.argmax(np.ptp(centres, axis=0)))
        lo, hi = centres[:, axis] - reach, centres[:, axis] + reach
        order = np.argsort(lo, kind="stable")
        lo_sorted = lo[order]
        # collider order[k] meets order[k+1 .. end[k]-1]: those starting before it ends
        end = np.searchsorted(lo_sorted, hi[order], side="right")
        count = np.maximum(end - np.arange(n) - 1, 0)
        first = np.repeat(np.arange(n), count)
        offset = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
        i, j = order[first], order[first + 1 + offset]
        i, j = np.minimum(i, j), np.maximum(i, j)
        keep = self._accept(i, j, centres, margin)
        out = np.column_stack([i[keep], j[keep]])
        return out[np.lexsort((out[:, 1], out[:, 0]))]

    def _accept(self, i, j, centres, margin):
        d = centres[i] - centres[j]
        near = np.einsum("ij,ij->i", d, d) <= (self.radii[i] + self.radii[j] + margin) ** 2
        ok = near & (self.bodies[i] != self.bodies[j])
        ok &= ((self.groups[i] & self.masks[j]) | (self.groups[j] & self.masks[i])) != 0
        if self._excluded.size:
            ok &= ~np.isin(self.bodies[i] * self._big + self.bodies[j], self._excluded)
        if self._allowed is not None:
            ok &= np.isin(i * self.radii.size + j, self._allowed)
        return ok


def brute_force(phase: BroadPhase, centres, margin: float = 0.0) -> np.ndarray:
    """Every pair tested one by one (the reference of :meth:`BroadPhase.pairs`)."""
    n = phase.radii.size
    i, j = np.triu_indices(n, 1)
    keep = phase._accept(i, j, np.asarray(centres, dtype=float).reshape(-1, 3), margin)
    return np.column_stack([i[keep], j[keep]]).astype(np.int64)


def _ints(values, n: int, what: str) -> np.ndarray:
    out = np.asarray(values).ravel()
    if out.size != n or not np.all(np.equal(np.mod(out, 1), 0)):
        raise ModelError(f"broad phase: {what} must be {n} integers, one per collider")
    return out.astype(np.int64)
