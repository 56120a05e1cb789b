"""One small function mapped over many alike parts of a large expression: the stepping
mode's smooth step and slot data of a scene of free bodies that do not couple (docs/hybrid.md,
"Many balls in the stepping mode").

A scene of N free bodies has a smooth part ẋ = f(x) whose rows split into N groups that
read disjoint sets of states: a body's pose and speeds move its own rates only (its 6 × 6
block of the mass matrix, no joint to another body). Expanded into one SX function, f is N
copies of the same operations — 48 000 of them for 100 balls, megabytes of generated C that
gcc took many minutes on. Here the copies are found and replaced by one: the rows of each
group, as a function of the entries of the inputs they read (in the inputs' order), are
compared instruction by instruction (CasADi's serialization: operations, constants, and
which input entry each reads); when every group's function is the first one's, the
expression is evaluated as that function mapped over the groups (``Function.map``, a
loop in the generated C). The operations are the same, one for one, so the results are the
expanded expression's to round-off. Any difference — another mass, a spring between two
bodies, a group reading a state of another — keeps the expression as it was
(:func:`uniform` returns None).

Functions: ``independent_groups`` the state entries of each independent part of ẋ = f(x);
``uniform`` the mapped form of an expression over row groups, or None; ``Mapped.__call__``
its evaluation on MX inputs.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np


@dataclass
class Mapped:
    """``fn`` (one group's rows from the entries its inputs read) and, per input, the
    entries each group reads (N × d, one row per group); ``rows`` N × r: the rows of the
    expression each group gives, covering all of them."""

    fn: ca.Function
    deps: list
    rows: np.ndarray

    @property
    def groups(self) -> int:
        return self.rows.shape[0]

    def __call__(self, *inputs):
        """The expression (a column) at the inputs (MX or DM), by the mapped function."""
        n = self.groups
        args = [ca.reshape(value[d.ravel().tolist()], d.shape[1], n) if d.shape[1] else
                ca.MX(0, n) for value, d in zip(inputs, self.deps)]
        out = ca.vec(self.fn.map(n)(*args))
        order = np.argsort(self.rows.ravel(), kind="stable")
        return out[order.tolist()]


def independent_groups(rates, x, size_min: int = 2):
    """The entries of x in each connected part of ``rates``' dependence on x (rows of
    rates are entries of x: ẋ), as index arrays in ascending order, the parts ordered by
    their first entry; None when there are fewer than two parts or they differ in size."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components
    n = x.numel()
    rows, cols = ca.jacobian_sparsity(rates, x).get_triplet()
    graph = coo_matrix((np.ones(len(rows) + n), (list(rows) + list(range(n)),
                                                 list(cols) + list(range(n)))), shape=(n, n))
    count, label = connected_components(graph, directed=False)
    groups = [np.flatnonzero(label == k) for k in range(count)]
    groups.sort(key=lambda g: g[0])
    if count < size_min or len({g.size for g in groups}) != 1:
        return None
    return groups


def uniform(expr, inputs: list, row_groups: list, name: str = "part") -> Mapped | None:
    """The mapped form of the SX column ``expr`` of the SX symbols ``inputs`` over the
    rows ``row_groups`` (module docstring; ``name``: the mapped function's), or None when
    the groups' functions differ, read different numbers of entries, or do not cover every
    row once."""
    rows = np.array([np.asarray(g, dtype=np.int64) for g in row_groups])
    if rows.ndim != 2 or rows.shape[0] < 2 or \
            not np.array_equal(np.sort(rows.ravel()), np.arange(expr.numel())):
        return None
    sparsities = [ca.jacobian_sparsity(expr, value) for value in inputs]
    reads = [_reads(sp) for sp in sparsities]
    first, deps = None, [[] for _ in inputs]
    for g in rows:
        used = [np.unique(np.concatenate([read[r] for r in g])).astype(np.int64)
                for read in reads]
        try:
            named = ca.Function("uniform_part", [value[u.tolist()] for value, u in
                                                 zip(inputs, used)], [expr[g.tolist()]])
        except RuntimeError:      # reads an entry the sparsity did not show: not ours
            return None
        # the same symbols for every group (the serialization names them)
        fresh = [ca.SX.sym(f"i{k}", u.size) for k, u in enumerate(used)]
        fn = ca.Function(name, fresh, [named(*fresh)])
        text = fn.serialize()
        if first is None:
            first, base = text, fn
        elif text != first:
            return None
        for k, u in enumerate(used):
            deps[k].append(u)
    if any(len({u.size for u in d}) != 1 for d in deps):
        return None
    return Mapped(base, [np.array(d, dtype=np.int64).reshape(len(rows), -1) for d in deps],
                  rows)


def _reads(sparsity) -> list:
    """Per row of a Jacobian sparsity, the columns it reads."""
    rows, cols = sparsity.get_triplet()
    out = [[] for _ in range(sparsity.size1())]
    for r, c in zip(rows, cols):
        out[r].append(c)
    return [np.array(v, dtype=np.int64) for v in out]
