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
