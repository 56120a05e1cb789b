"""The stepping run with a broad phase (docs/hybrid.md, "Broad phase"): the contacts that
:mod:`.slots` can run are found per output interval by sweep and prune
(:mod:`..collision.broad`) instead of being compiled pair by pair.

Before each output interval (k steps of h, duration T) the slotted spheres' centres and
speeds are read from the state; the candidate pairs are those whose spheres lie within a
margin m of each other (sphere–plane: of the plane), m = 2·SAFETY·T·(largest centre
speed) and at least FLOOR. The compiled interval runs the k steps with those candidates in
its slots and returns, besides the state, the largest speed each sphere's centre reached.
If some sphere could have moved further than m/2 in the interval (speed·T > m/2: two spheres
that were not candidates might have met), the interval is run again from its start with a
margin from the speeds reached: no contact is missed. The slots' impulses carry over from
one interval to the next by pair (the warm start). When the candidates outnumber the slots,
the step is built again with twice as many (cached per size).

Python runs once per output interval here (the broad phase, a few numpy operations), never
per step or per contact.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from ..collision.broad import BroadPhase
from ..simulation.ledger import SteppingLedger
from ..simulation.result import Result
from .bodies import mapped_parts
from .slot_correct import corrected
from .slot_step import build_slot_step, data_function, slot_indices
from .slots import MAT
from .step import LEDGER, build_step

SAFETY = 1.5      # margin over twice the largest travel the speeds at the start predict
FLOOR = 1e-4      # [m] the least margin
MIN_SLOTS = 4
SLOTS_PER_SPHERE = 4   # first size: balls at rest in a pack touch the floor and ~3 others


class _Candidates:
    """The candidate pairs (indices into slotted.pairs) at given centres and margin."""

    def __init__(self, slotted):
        self.slotted = slotted
        nd, pairs = slotted.nd, slotted.pairs
        spheres = pairs[:, 1] < nd
        self.ss = np.flatnonzero(spheres)
        self.sp = np.flatnonzero(~spheres)
        ij = np.sort(pairs[self.ss], axis=1)
        keys = ij[:, 0] * nd + ij[:, 1]
        order = np.argsort(keys, kind="stable")
        self.keys, self.key_pair = keys[order], self.ss[order]
        self.phase = BroadPhase(slotted.radii, bodies=slotted.blocks, allowed=ij)
        planes = slotted.planes
        self.sp_sphere = pairs[self.sp, 0]
        self.sp_normal = planes[pairs[self.sp, 1] - nd, :3] if self.sp.size else \
            np.zeros((0, 3))
        self.sp_offset = planes[pairs[self.sp, 1] - nd, 3] if self.sp.size else np.zeros(0)

    def __call__(self, centres, margin):
        found = self.phase.pairs(centres, margin)
        keys = found[:, 0] * self.slotted.nd + found[:, 1]
        at = np.searchsorted(self.keys, keys)
        ss = self.key_pair[at]
        c = centres[self.sp_sphere]
        gap = np.einsum("ij,ij->i", c, self.sp_normal) - self.sp_offset - \
            self.slotted.radii[self.sp_sphere]
        return np.concatenate([self.sp[gap <= margin], ss])


def simulate_broad(system, grid, x0, us, p, k: int, h: float, rest, slotted,
                   iterations: int, compiled, exact: bool = False) -> Result:
    """The run of the module docstring; ``compiled(functions, ops)`` compiles a list of
    CasADi functions (run.py's); ``exact``: the slots' position correction
    (:mod:`.slot_correct`)."""
    nx, nd, s = system.nx, slotted.nd, slotted.s
    cache = system.__dict__.setdefault("_stepping_broad", {})
    key = (tuple(rest), tuple(slotted.labels), iterations, k, exact)
    if key not in cache:    # the symbolic parts, built once per contact set (seconds)
        # kinematics, sweep, finish, sizes: free bodies alike, one body's mapped (.bodies)
        mapped = (not rest and mapped_parts(system)) or None
        cache[key] = (mapped or build_step(system, rest, None), mapped is not None,
                      data_function(system, slotted)[1], _Candidates(slotted))
    parts, mapped, where, candidates = cache[key]
    nc = parts[3][2]
    T = k * h
    n_led = len(LEDGER)
    # slots: a power of two (each size is compiled once, minutes for a large one), at
    # first for twice the first candidates or four per sphere (not more than the pairs),
    # then doubled whenever the candidates outnumber them (an empty slot costs as a used one)
    K, lam_of, retries, most = 0, {}, 0, 0
    X = np.empty((nx, grid.size))
    X[:, 0] = x0
    x, lam_c, ledger = np.asarray(x0, dtype=float), np.zeros(3 * nc), np.zeros(n_led)
    for i in range(grid.size - 1):
        centres, speeds = (np.array(v) for v in where(x, p))
        centres = centres.reshape(3, nd).T
        margin = max(2 * SAFETY * T * float(speeds.max(initial=0.0)), FLOOR)
        while True:
            cand = candidates(centres, margin)
            most = max(most, cand.size)
            if cand.size > K or K == 0:
                first = 0 if K else min(len(slotted.pairs),
                                        max(2 * cand.size, SLOTS_PER_SPHERE * nd))
                K = int(2 ** np.ceil(np.log2(max(MIN_SLOTS, cand.size, first))))
            if (key, K) not in cache:
                step = build_slot_step(system, parts, slotted, K, iterations,
                                       corrected if exact else None)
                interval = _repeated(step, slot_indices(slotted, K), k)
                cache[(key, K)] = compiled([interval], step, K)[0]
            interval = cache[(key, K)]
            inputs = _slot_inputs(slotted, cand, K)
            lam_s = np.concatenate([lam_of.get(int(c), np.zeros(3)) for c in cand] +
                                   [np.zeros(3 * (K - cand.size))])
            acc = np.concatenate([[grid[i]], x, lam_c, ledger, lam_s, np.zeros(nd)])
            out = np.array(interval(acc, us[:, i], p, h, *inputs)).ravel()
            vmax = out[len(out) - nd:]
            if np.all(vmax * T <= margin / 2) or not np.all(np.isfinite(out)):
                break
            retries += 1
            margin = 2 * SAFETY * T * float(vmax.max())
        if not np.all(np.isfinite(out)):
            from jourdain.blocks.errors import ModelError
            raise ModelError(f"simulate(contact='stepping'): the state is not finite at "
                             f"t = {grid[i + 1]:.6g} s; take a smaller dt (now {h:.3g} s)")
        x = out[1:1 + nx]
        lam_c = out[1 + nx:1 + nx + 3 * nc]
        ledger = out[1 + nx + 3 * nc:1 + nx + 3 * nc + n_led]
        lam_s = out[1 + nx + 3 * nc + n_led:len(out) - nd]
        lam_of = {int(c): lam_s[3 * j:3 * j + 3] for j, c in enumerate(cand)}
        X[:, i + 1] = x
    res = Result.from_states(system, grid, X, us, p, smooth=True)
    res.ledger = SteppingLedger(**dict(zip(LEDGER, ledger.tolist())))
    res.method = "stepping"
    res.stats = {"dt": h, "steps": k * (grid.size - 1), "contacts": nc,
                 "iterations": iterations, "slots": K, "slotted_pairs": len(slotted.pairs),
                 "candidates_max": most, "broad_retries": retries,
                 "mapped": mapped, "exact": exact}
    return res


def _repeated(step, indices, k: int) -> ca.Function:
    """interval(acc, u, p, h, slot_a, slot_b, mat): the slots' entries from their columns
    (``indices``), then k steps as calls in a row — not CasADi's fold, whose iterations
    copied the slots' inputs (80 000 entries for 512 slots) at every step: 3.4 ms per step
    of 100 balls against 0.7 ms for the calls in a row (sweeps aside)."""
    args = step.mx_in()
    slot_a, slot_b = indices.mx_in()
    gather_a, gather_b, zidx = indices(slot_a, slot_b)
    acc, mat = args[0], args[-1]
    for _ in range(k):
        acc = step(acc, args[1], args[2], args[3], gather_a, gather_b, zidx, mat)
    return ca.Function(f"slot_interval_{k}", [*args[:4], slot_a, slot_b, mat], [acc],
                       ["acc", "u", "p", "h", "slot_a", "slot_b", "mat"], ["acc_next"])


def _slot_inputs(slotted, cand, K: int):
    """slot_a, slot_b and mat of slot_step for the candidate pairs ``cand``."""
    nd = slotted.nd
    dummy = nd + len(slotted.planes)
    a = np.full(K, dummy, dtype=np.int64)
    b = np.full(K, dummy, dtype=np.int64)
    m = cand.size
    a[:m], b[:m] = slotted.pairs[cand, 0], slotted.pairs[cand, 1]
    radii = np.concatenate([slotted.radii, np.zeros(dummy + 1 - nd)])
    mat = np.zeros((K, MAT))
    mat[:, 0], mat[:, 1] = radii[a], radii[b]
    mat[:m, 2:5] = slotted.mats[cand]
    mat[:m, 5] = 1.0
    return [a.astype(float), b.astype(float), mat.ravel()]
