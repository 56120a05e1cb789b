"""A CasADi function called on numpy arrays without conversions (``Function.buffer``): the
DDP solver's per-iteration calls (:mod:`.ddp_built`) at MPC rate, where converting the
outputs of an ordinary call (``DM.full()``) cost more than computing them (Talos arm,
N = 20: 0.9 ms to convert the knot derivatives' nine outputs, 1.2 ms to compute them).

Layout: CasADi reads and writes the nonzeros of a dense matrix in column-major order, which
is the memory of the C-ordered numpy array of the transposed shape: an nx × N input is a
numpy (N, nx) array (row k the knot's vector), an nx × (N·m) stack of blocks a numpy
(N, m, nx) array (entry k the transposed block).
"""
from __future__ import annotations

import casadi as ca
import numpy as np


def dense(fn: ca.Function) -> ca.Function:
    """``fn`` with every output dense (structural zeros written as zeros), the layout the
    buffers assume; ``fn`` itself when its outputs are dense already."""
    if all(fn.sparsity_out(i).is_dense() for i in range(fn.n_out())) and \
            all(fn.sparsity_in(i).is_dense() for i in range(fn.n_in())):
        return fn
    args = [ca.MX.sym(fn.name_in(i), fn.size_in(i)) for i in range(fn.n_in())]
    return ca.Function(fn.name() + "_dense", args, [ca.densify(o) for o in fn.call(args)],
                       fn.name_in(), fn.name_out())


class Buffered:
    """``fn`` (dense inputs and outputs) called on numpy arrays: ``call(*arrays)`` -> the
    outputs as new flat float arrays (module docstring for the layout)."""

    def __init__(self, fn: ca.Function):
        self.fn = dense(fn)
        self._buffer, self._run = self.fn.buffer()
        self._sizes_in = [self.fn.nnz_in(i) for i in range(self.fn.n_in())]
        self._sizes_out = [self.fn.nnz_out(i) for i in range(self.fn.n_out())]
        # the arrays the input buffers point into (kept alive), and the caller's array when
        # it is that very array (contiguous floats): passed again, it needs no new binding
        self._held = [None] * len(self._sizes_in)
        self._bound = [None] * len(self._sizes_in)

    def __call__(self, *args) -> list[np.ndarray]:
        for i, a in enumerate(args):
            if a is self._bound[i]:
                continue                   # bound already; its values are read at the call
            flat = np.ascontiguousarray(a, dtype=float).reshape(-1)
            if flat.size != self._sizes_in[i]:
                raise ValueError(f"{self.fn.name()}: input {self.fn.name_in(i)} has "
                                 f"{flat.size} values, expected {self._sizes_in[i]}")
            self._buffer.set_arg(i, memoryview(flat))
            self._held[i] = flat
            self._bound[i] = a if isinstance(a, np.ndarray) and np.may_share_memory(a, flat) \
                else None
        out = [np.empty(n) for n in self._sizes_out]
        for i, o in enumerate(out):
            self._buffer.set_res(i, memoryview(o))
        self._run()
        return out
