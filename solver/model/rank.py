"""Numeric rank decisions shared by the stages that choose pivots: the 1-D network
(:mod:`.flanges`) and the constraint partition (constraints.partition)."""
from __future__ import annotations

import numpy as np

RANK_TOL = 1e-9   # singular values below RANK_TOL·max(1, σ_max) count as zero


def numeric_rank(mat: np.ndarray) -> int:
    """Rank by singular values relative to max(1, σ_max)."""
    if mat.size == 0:
        return 0
    sv = np.linalg.svd(mat, compute_uv=False)
    return int(np.sum(sv > RANK_TOL * max(1.0, sv[0])))


def independent_rows(mat: np.ndarray) -> list[int]:
    """Rows kept in order when each raises the rank (the first of equal rows is kept)."""
    kept: list[int] = []
    for i in range(mat.shape[0]):
        if numeric_rank(mat[kept + [i]]) > len(kept):
            kept.append(i)
    return kept


def pick_columns(mat: np.ndarray, order: list[int], count: int) -> list[int]:
    """``count`` columns taken greedily in ``order`` while each raises the rank of the pick."""
    picked: list[int] = []
    for j in order:
        if len(picked) == count:
            break
        if numeric_rank(mat[:, picked + [j]]) > len(picked):
            picked.append(j)
    return picked


class Echelon:
    """Sparse vectors ({index: value}) added one by one; :meth:`add` says whether each raises
    the rank of those kept. Gaussian elimination with partial pivoting on the kept vectors,
    each a pivot row with 1 at its pivot index: a new vector is reduced by the pivots in the
    order they were made (a heap of the pivot numbers present), so a chain or a tree of sparse
    relations costs time in proportion to its entries and fill, where :func:`numeric_rank` of
    a growing dense matrix costs O(n⁴) over n vectors (a 500-gear train: 10 s of SVDs).
    ``scale`` sets the tolerance as :func:`numeric_rank` does: a reduced vector whose
    largest entry is at most RANK_TOL·max(1, scale) is dependent."""

    def __init__(self, scale: float = 1.0):
        self.tol = RANK_TOL * max(1.0, scale)
        self.drop = 1e-3 * self.tol   # entries below it are round-off of a cancellation
        self.pivots: dict = {}        # pivot index -> (pivot number, row with row[index] = 1)

    def add(self, vector: dict) -> bool:
        import heapq

        v = {k: float(x) for k, x in vector.items() if x != 0}
        heap = [(self.pivots[k][0], k) for k in v if k in self.pivots]
        heapq.heapify(heap)
        done = set()
        while heap:
            _, k = heapq.heappop(heap)
            if k in done or k not in v:
                continue
            done.add(k)
            factor, row = v.pop(k), self.pivots[k][1]
            for j, x in row.items():
                if j == k:
                    continue
                value = v.get(j, 0.0) - factor * x
                if abs(value) > self.drop:
                    v[j] = value
                    if j in self.pivots and j not in done:
                        heapq.heappush(heap, (self.pivots[j][0], j))
                else:
                    v.pop(j, None)
        if not v:
            return False
        k = max(v, key=lambda j: abs(v[j]))
        if abs(v[k]) <= self.tol:
            return False
        self.pivots[k] = (len(self.pivots), {j: x / v[k] for j, x in v.items()})
        return True


def sparse_independent_rows(rows: list[dict], scale: float) -> list[int]:
    """:func:`independent_rows` of a sparse matrix given as rows {column: value}."""
    echelon = Echelon(scale)
    return [i for i, row in enumerate(rows) if echelon.add(row)]


def sparse_pick_columns(columns, order: list, count: int, scale: float) -> list:
    """:func:`pick_columns` of a sparse matrix given by its columns {row: value} (a list or
    a dict indexed by column)."""
    echelon, picked = Echelon(scale), []
    for j in order:
        if len(picked) == count:
            break
        if echelon.add(columns[j]):
            picked.append(j)
    return picked
