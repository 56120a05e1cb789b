"""Consumer: fast numeric evaluation of a compiled System's functions from Python.

Calling a casadi.Function with numpy arrays converts every argument to a DM and the result
back (tens of µs, PERFORMANCE_NOTES.md). ``NumericFunction`` evaluates through
``Function.buffer`` instead: the arguments are copied into preallocated arrays, the function
runs on them, and a numpy array comes back — the cost of a Pinocchio-style Python call.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError


class NumericFunction:
    """Numeric calls of a casadi.Function: ``fn(*args) -> ndarray`` (or a tuple of arrays).

    Arguments are numbers or array-likes with as many entries as the function's input
    (names and sizes in ``input_names`` / ``input_sizes``); results are fresh arrays, shaped as
    the outputs (vectors 1-D, matrices 2-D, structural zeros filled in).
    """

    def __init__(self, fn: ca.Function):
        self.function = fn
        self.input_names = fn.name_in()
        self.input_sizes = [fn.nnz_in(i) for i in range(fn.n_in())]
        for i, name in enumerate(self.input_names):
            if not fn.sparsity_in(i).is_dense():
                raise ModelError(f"{fn.name()}: input '{name}' is sparse; NumericFunction "
                                 "needs dense inputs")
        self._buffer, self._trigger = fn.buffer()
        self._args = [np.zeros(n) for n in self.input_sizes]
        self._res = [np.zeros(fn.nnz_out(i)) for i in range(fn.n_out())]
        for i, arr in enumerate(self._args):
            self._buffer.set_arg(i, memoryview(arr))
        for i, arr in enumerate(self._res):
            self._buffer.set_res(i, memoryview(arr))
        self._shapes = [_scatter(fn.sparsity_out(i)) for i in range(fn.n_out())]

    def __call__(self, *args):
        if len(args) != len(self._args):
            raise ModelError(f"{self.function.name()} takes {len(self._args)} arguments "
                             f"({', '.join(self.input_names)}), got {len(args)}")
        try:  # the common case first: a plain copy, no reshaping (keeps the call cheap)
            for dst, value in zip(self._args, args):
                dst[:] = value
        except ValueError:
            self._copy_reshaped(args)
        self._trigger()
        if len(self._res) == 1:
            return self._shapes[0](self._res[0])
        return tuple(shape(res) for shape, res in zip(self._shapes, self._res))

    def _copy_reshaped(self, args) -> None:
        for name, dst, value in zip(self.input_names, self._args, args):
            flat = np.ravel(value)
            if flat.size != dst.size:
                raise ModelError(f"{self.function.name()}: argument '{name}' needs "
                                 f"{dst.size} entries, got {flat.size}")
            dst[:] = flat


def _scatter(sparsity: ca.Sparsity):
    """A function turning the nonzeros of an output into a fresh dense array of its shape."""
    rows, cols = sparsity.get_triplet()
    shape = (sparsity.size1(), sparsity.size2())
    if shape[1] == 1 and sparsity.is_dense():
        return lambda nz: nz.copy()
    if sparsity.is_dense():
        return lambda nz: nz.reshape(shape, order="F").copy()

    def dense(nz):
        out = np.zeros(shape)
        out[rows, cols] = nz
        return out if shape[1] != 1 else out[:, 0]
    return dense


def buffered(fn: ca.Function, args: list):
    """A zero-argument trigger that evaluates ``fn`` on fixed copies of ``args`` into fixed
    output arrays (CasADi's buffer API: no conversions per call, for timing a function)."""
    buf, trigger = fn.buffer()
    keep = [np.ascontiguousarray(a, dtype=float).ravel() for a in args]
    for i, arr in enumerate(keep):
        buf.set_arg(i, memoryview(arr))
    for i in range(fn.n_out()):
        keep.append(np.zeros(fn.nnz_out(i)))
        buf.set_res(i, memoryview(keep[-1]))
    trigger.keep = (buf, keep)   # the buffer and arrays must outlive the trigger
    return trigger



CHUNK = 64   # the largest mapped call of :func:`chunk_sizes`


def chunk_sizes(n: int) -> list[int]:
    """n split into calls of at most 7 sizes (CHUNK, then the binary digits of the rest): a
    function mapped over many sample counts needs one mapped copy per size, and building one
    costs ~1 ms, as much as ~40 evaluations of a contact model's guards."""
    sizes = [CHUNK] * (n // CHUNK)
    rest, bit = n % CHUNK, CHUNK // 2
    while rest:
        if rest >= bit:
            sizes.append(bit)
            rest -= bit
        bit //= 2
    return sizes
