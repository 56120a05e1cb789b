"""Running a System in the fast contact mode, and the choice of mode per run.

``system.simulate(t_end, contact="stepping", dt=1e-3)`` runs the time-stepping scheme of
:mod:`.step` (docs/hybrid.md, "Two contact modes"); ``contact="events"`` (the default) runs
the exact event-driven loop. The step is compiled to C once per system, contact set, number of
sweeps and steps per output interval (the library cache of :mod:`..simulation.codegen`), and
one call runs every step of CHUNK output intervals: Python runs once per CHUNK output times,
never per step or per contact event. The calls go to the library's C
entry points on numpy arrays (:mod:`..simulation.ccall`), and the Result's series come from
the row function (:func:`..simulation.result.row_function`) compiled and mapped over CHUNK
samples: a run's Python outside the steps is ~1 ms (docs/hybrid.md). Body–body contacts
are left out of the steps on which they stay open (:mod:`.dormant`, ``DORMANT``). Inputs
are held over each output interval (zero-order hold at the output times). ``dt`` is the
longest step: each output interval runs a whole number of equal steps, the fewest of at
most dt (``res.stats["dt"]`` says which).

The Result is the usual one (series by name, energies) plus ``res.ledger``: the largest
penetration [m] seen at the start of any step, and the largest complementarity and friction-
cone residuals [m/s] of the impulse solve (the impulses times the inverse effective mass,
so that they compare with the velocities).
"""
from __future__ import annotations

from pathlib import Path

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.checks import count, number, unknown
from ..simulation.codegen import CodegenOptions, build_library, cached_library
from ..simulation.controlled import run as run_events
from ..simulation.inputs import InputSignals
from ..simulation.ccall import CCall
from ..simulation.result import Result, row_function
from ..simulation.simulate import _grid
from .scene import contact_specs
from .slots import split
from .staged import compiled_staged
from . import dormant
from .step import LEDGER, build_parts
from ..simulation.ledger import SteppingLedger

MODES = ("events", "stepping")
DT = 1e-3          # [s] default step of the stepping mode
ITERATIONS = 30    # default Gauss–Seidel sweeps per step
CHUNK = 100        # output intervals per call of the compiled function
# body–body contacts left out of the steps on which they stay open (:mod:`.dormant`)
DORMANT = True
# the step runs millions of times: gcc's optimizer is worth its time on a small step (a
# fraction of a second, 10 % off a box's run); on a large one -O3 takes minutes, -O1 seconds.
# A large step's glue (its start, exact solve and branches: code that runs every step) and
# its parts up to LARGE_PART_OPS at HOT_FLAGS: the cheetah's run 6.52 ms against 7.16 ms
# all at -O1 (medians of 30 alternated in one process); every part at -O2, 6.31 ms, but its
# kinematics' -O2 took 17 s of gcc against 4 s (docs/hybrid.md, Performance)
FLAGS, LARGE_FLAGS, LARGE_OPS = ("-O3",), ("-O1",), 20_000
HOT_FLAGS, LARGE_PART_OPS = ("-O2",), 10_000
STEPPING_KEYWORDS = ("y0", "z0", "x0", "inputs", "params", "t0", "n_out", "t_out", "dt",
                     "iterations", "pairs", "progress", "broad", "exact")


def simulate_mode(system, t_end: float, contact: str = "events", **options):
    """``System.simulate``: the event-driven run, or the stepping one (module docstring)."""
    if contact not in MODES:
        raise ModelError(unknown("simulate: contact", contact, list(MODES)))
    if contact == "events":
        stepping_only = [k for k in ("dt", "iterations", "pairs", "broad", "exact")
                         if k in options]
        if stepping_only:
            raise ModelError(f"simulate: {stepping_only[0]}= applies to contact='stepping' "
                             "only; the event-driven mode chooses its own steps")
        return run_events(system, t_end, **options)
    if getattr(system, "method", None) is not None:
        raise ModelError("simulate: contact='stepping' runs tree-structured systems; this "
                         "one has closed loops (a ConstrainedSystem): use contact='events'")
    for key in options:
        if key not in STEPPING_KEYWORDS:
            raise ModelError(unknown("simulate(contact='stepping'): keyword", key,
                                     list(STEPPING_KEYWORDS)))
    return simulate_stepping(system, t_end, **options)


def simulate_stepping(system, t_end: float, y0=None, z0=None, x0=None, inputs=None,
                      params=None, t0: float = 0.0, n_out: int = 501, t_out=None,
                      dt: float = DT, iterations: int = ITERATIONS, pairs=(),
                      progress=None, broad=None, exact=None) -> Result:
    """Time-stepping run from t0 to t_end (module docstring)."""
    dt = number(dt, "simulate: dt", 0.0, open_low=True, unit="s")
    if exact is not None and not isinstance(exact, (bool, np.bool_)):
        raise ModelError(f"simulate: exact= must be True (the block solve and the position "
                         f"correction after the sweeps), False (the sweeps alone) or None (the "
                         f"default: True), got "
                         f"{exact!r:.40}")
    iterations = count(iterations, "simulate: iterations")
    grid = _grid(t0, t_end, n_out, t_out)
    spacing = np.diff(grid)
    if spacing.size and np.ptp(spacing) > 1e-9 * max(spacing.max(), 1e-300):
        raise ModelError("simulate: contact='stepping' needs equally spaced output times "
                         "(t_out) or n_out: each output interval runs a whole number of steps")
    x0 = system.state(y0, z0) if x0 is None else np.asarray(x0, dtype=float).ravel()
    p = system.parameters(params)
    us = InputSignals(system, inputs).on(grid)
    k = int(np.ceil(spacing[0] / dt - 1e-9)) if spacing.size else 1
    h = spacing[0] / k if spacing.size else dt
    n = grid.size - 1
    if broad not in (None, True, False):
        raise ModelError(f"simulate: broad must be None (automatic), True or False, got "
                         f"{broad!r}")
    rest, slotted = _split(system, pairs, broad)
    if slotted is not None:
        if exact and rest:   # the slots' correction covers the slots only
            raise ModelError("simulate: exact=True is not available for a scene whose "
                             "contacts run partly in slots (the broad phase's 64 or more "
                             "spheres and world planes) and partly compiled pair by pair "
                             f"({rest[0].label} and {len(rest) - 1} more); pass broad=False "
                             "to compile every pair with the block solve, or leave exact "
                             "unset for the sweeps alone")
        from .broadrun import simulate_broad
        return simulate_broad(system, grid, x0, us, p, k, h, rest, slotted, iterations,
                              _compile_slot_step, bool(exact))
    chunk = max(1, min(n, CHUNK))
    chunks, settle, nc = _chunks(system, pairs, iterations, k, chunk, exact is not False)
    acc = np.concatenate([[grid[0]], x0, np.zeros(3 * nc + len(LEDGER))])
    acc[1 + system.nx:1 + system.nx + 3 * nc] = settle(acc, us[:, 0], p, h)[0].ravel()
    X = np.empty((system.nx, grid.size))
    X[:, 0] = x0
    U = np.hstack([us[:, :-1], np.repeat(us[:, -1:], chunk, axis=1)])
    P, H = np.repeat(p.reshape(-1, 1), chunk, axis=1), np.full(chunk, h)
    for i in range(0, n, chunk):   # the last chunk may run past t_end: those are dropped
        accs = chunks(acc, U[:, i:i + chunk], P, H)[0]
        if not np.all(np.isfinite(accs)):
            bad = i + int(np.argmax(~np.all(np.isfinite(accs), axis=0))) + 1
            raise ModelError(f"simulate(contact='stepping'): the state is not finite at "
                             f"t = {grid[min(bad, n)]:.6g} s; take a smaller dt (now "
                             f"{h:.3g} s)")
        take = min(chunk, n - i)
        X[:, i + 1:i + 1 + take] = accs[1:1 + system.nx, :take]
        acc = accs[:, take - 1]
    res = _result(system, grid, X, us, p, chunk)
    res.ledger = SteppingLedger(**dict(zip(LEDGER, acc[-len(LEDGER):].tolist())))
    res.method = "stepping"
    res.stats = {"dt": h, "steps": k * (grid.size - 1), "contacts": nc,
                 "iterations": iterations, "exact": exact is not False}
    return res


def _result(system, grid, X, us, p, chunk: int) -> Result:
    """The run's Result: its series by name computed by the compiled rows (result.
    row_function, mapped over ``chunk`` samples), ``chunk`` samples per call; the last call's
    samples past the end repeat the last one and are dropped."""
    rows, names = _rows(system, chunk)
    n = grid.size
    m = -(-n // chunk) * chunk

    def padded(a):
        return np.concatenate([a, np.repeat(a[..., -1:], m - n, axis=-1)], axis=-1)
    T, Xp, Up = padded(grid), padded(X), padded(us)
    outs = [rows(T[j:j + chunk], Xp[:, j:j + chunk], Up[:, j:j + chunk], p)
            for j in range(0, m, chunk)]
    xs, values = (np.hstack([o[i] for o in outs])[:, :n] for i in (0, 1))
    return Result.from_rows(system, grid, xs, us, values, names, p)


def _rows(system, chunk: int):
    """(CCall, names): the Result's rows (result.row_function, smooth) mapped over ``chunk``
    samples with the parameters shared, compiled once per System and chunk (at the default
    flags: it runs once per output, not per step)."""
    cache = system.__dict__.setdefault("_stepping_rows", {})
    if chunk not in cache:
        fn, names = row_function(system, smooth=True)
        mapped = fn.map(f"result_rows_{chunk}", "serial", chunk, [3], [])
        functions, path = _compiled([mapped], CodegenOptions().flags)
        cache[chunk] = (CCall(functions[0], path), names)
    return cache[chunk]


def _chunks(system, pairs, iterations: int, k: int, chunk: int, exact: bool = True):
    """The compiled function of ``chunk`` output intervals of k steps each, for this system
    and contact set (cached on the System): (acc, U, p, h) → the accumulator after each
    interval (one column per interval; U: the inputs held over each)."""
    _, specs, specs_key = _specs_entry(system, pairs)
    cache = system.__dict__.setdefault("_stepping", {})
    key = (specs_key, iterations, k, chunk, exact, DORMANT)
    if key not in cache:
        parts, compose, nc = _tiered_parts(system, specs, iterations, exact)
        names = [f"stepping_{k}x{chunk}", "settle"]

        def chunked(step, settle):
            interval = step.fold(k) if k > 1 else step
            chunks = interval.mapaccum(chunk) if chunk > 1 else interval
            args = chunks.mx_in()
            return [ca.Function(names[0], args, [chunks(*args)], ["acc", "u", "p", "h"],
                                ["accs"]), settle]
        step, settle = compose(*parts)
        ops = sum(f.n_instructions() for f in step.find_functions()
                  if f.class_name() == "SXFunction")
        # the parts in C files of their own (staged.py: gcc took minutes on one file)
        compiled = compiled_staged(parts, [step, settle], lambda *ps: chunked(*compose(*ps)),
                                   names, *_flags(ops, parts))
        functions, path = compiled or (chunked(step, settle), None)
        cache[key] = (*(CCall(fn, path) for fn in functions), nc)
    return cache[key]


def _flags(ops: int, parts: list) -> tuple:
    """(the glue's flags, each part's): FLAGS for a small step; else LARGE_FLAGS for its
    large parts and HOT_FLAGS for the glue and the other parts (module constants)."""
    if ops <= LARGE_OPS:
        return FLAGS, [FLAGS] * len(parts)
    return HOT_FLAGS, [LARGE_FLAGS if p.n_instructions() > LARGE_PART_OPS else HOT_FLAGS
                       for p in parts]


def _tiered_parts(system, specs, iterations: int, exact: bool):
    """build_parts' (parts, compose, nc), with the body–body contacts dormant while they
    stay open (:mod:`.dormant`) where that applies: the parts of both steps, and compose
    returning the tiered step (the contacts ordered near first) and the full settle."""
    tiers = dormant.split(system, specs) if exact and DORMANT else None
    if tiers is None:
        return build_parts(system, specs, iterations, exact)
    parts, compose, nc = build_parts(system, tiers[0] + tiers[1], iterations, exact)
    if not dormant.worth_it(parts, nc):     # built again in the scene's own order: a
        return build_parts(system, specs, iterations, exact)   # tower's sweeps keep theirs
    near, compose_near, nc_near = build_parts(system, tiers[0], iterations, exact,
                                              suffix="_near")
    check = dormant.open_check(system, tiers[1])

    def compose_both(*ps):
        full, settle = compose(*ps[:len(parts)])
        step_near, _ = compose_near(*ps[len(parts):])
        return dormant.tiered(full, step_near, check, system.nx, nc, nc_near), settle
    return [*parts, *near], compose_both, nc


def _specs(system, pairs) -> list:
    """contact_specs once per System and pairs (the same objects; a robot's took ~4 ms per
    call, twice per run)."""
    return _specs_entry(system, pairs)[1]


def _specs_entry(system, pairs) -> tuple:
    """(pairs, specs, key) cached per System and pairs: key stands for the specs in the
    caches of compiled steps (hashing a robot's 47 specs anew took ~0.5 ms, twice a run)."""
    pairs = tuple(pairs or ())
    cache = system.__dict__.setdefault("_stepping_specs", {})
    key = tuple(map(id, pairs))
    hit = cache.get(key)
    if hit is None or any(a is not b for a, b in zip(hit[0], pairs)):
        specs = contact_specs(system, pairs)
        hit = cache[key] = (pairs, specs, _SpecsKey(specs))
    return hit


class _SpecsKey(tuple):
    """tuple(specs) with its hash computed once (a dict finds the same key by identity)."""

    def __new__(cls, specs):
        self = super().__new__(cls, specs)
        self._hash = tuple.__hash__(self)
        return self

    def __hash__(self):
        return self._hash


def _split(system, pairs, broad):
    """The contacts compiled pair by pair and those run in slots (:mod:`.slots`), cached
    on the System per contact set."""
    _, specs, specs_key = _specs_entry(system, pairs)
    cache = system.__dict__.setdefault("_stepping_split", {})
    key = (specs_key, broad)
    if key not in cache:
        cache[key] = split(system, specs, broad)
    return cache[key]


def _compile_slot_step(functions: list, step, slots: int) -> list:
    # the slots' passes are unrolled: their calls count as ~100 operations each
    ops = sum(f.n_instructions() for f in step.find_functions()
              if f.class_name() == "SXFunction") + 100 * slots * ITERATIONS
    return _compiled(functions, FLAGS if ops <= LARGE_OPS else LARGE_FLAGS)[0]


def _compiled(functions: list, flags: tuple) -> tuple[list, Path | None]:
    """(functions, library): the functions as C (generated, compiled and cached in one
    library like the System's f) and the library's path, or the virtual machine and None
    when no compiler works (build_library warns)."""
    options = CodegenOptions(flags=flags)
    first = functions[0]
    path = cached_library(first, options)
    for _ in range(2):     # a cached library that does not load (foreign, truncated): rebuilt
        path = path or build_library(first, options, functions=functions)
        if path is None:
            return functions, None
        try:
            return [ca.external(fn.name(), str(path)) for fn in functions], path
        except RuntimeError:
            path = None
    return functions, None
