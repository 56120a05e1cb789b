"""Consumer: C code for the state derivative f (and, when a consumer needs it, its Jacobian),
compiled once and cached on disk.

CasADi's CodeGenerator writes C for ``f``; a small f (its expanded Jacobian under
``EAGER_JACOBIAN_OPS`` instructions: pendulums, cubes, carts) gets its Jacobian ``jac_f`` in
the same library (the name casadi.external looks for, so CVODES's Newton iterations use
compiled code too). A larger f is compiled alone: Adams, the default for non-stiff
mechanisms, needs no Jacobian, and gcc on the Jacobian was most of the build (the 100-link
chain: 6.0 s of 7.8 s CPU). When BDF needs one, :mod:`.jacobian` chooses its form by
measurement and :func:`attach_jacobian` compiles it into a library of its own (only when it
is small enough to be faster compiled than on the virtual machine). Sources are compiled in
parallel. A partitioned closed loop compiles its ``watch`` instead (ẋ stacked with the
projected coordinates, Newton's residual and the partition's conditioning: what its
simulation evaluates per step), and its f is the watch's leading rows. The library is named by a SHA-256 hash of the serialized function, the compiler,
its flags and the CasADi version, in ``$JOURDAIN_CACHE`` or ``~/.cache/jourdain``; the next
run with the same model and options loads it without compiling. Without a working compiler
the System keeps CasADi's virtual machine and a one-line warning says so.

Before use, every library (cached or just built) is checked against the virtual machine at
``VERIFY_POINTS`` random states near the reference configuration with random parameter values
(the defaults ±10 %): f, and the Jacobian applied to a random direction (compared with the
virtual machine's forward derivative), each to ``VERIFY_RTOL`` of the values' scale. A cached
library that does not load or does not agree (corrupt, truncated, built elsewhere) is rebuilt
with a warning. A cache directory that cannot be written is replaced by a temporary directory
for this run, removed at exit (:mod:`.cache`). Libraries are written to a private temporary
directory and renamed into place, so processes sharing a cache never see a partial file. The
compiler processes are always waited for: on a failure, a timeout or an exception (Ctrl-C) the
others are killed and reaped. The cache is pruned on request only: :func:`prune_cache` or
``python -m jourdain cache --prune``.

The C is CasADi's with its helper functions (casadi_sq, casadi_fmax, ...) made static
inline and fmax/fmin branch-free comparisons (:func:`.csource.write_source`): as CasADi
writes them, every helper call in a shared library went through the PLT, fmax into libm.

Flags (measured, benchmarks/build.py): -O1 by default — 2.7–3.6× faster code than -O0 for
4–5× the gcc time, while -O2 costs more and gained nothing on this straight-line code
(measured before the helpers were inlined; the stepping mode's step now gains 8 % from -O2
on the code it runs every step: :data:`..stepping.run.HOT_FLAGS`). A
Jacobian source above ``JACOBIAN_O0_BYTES`` is compiled at -O0.
"""
from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from . import csource
from .cache import (
    BUILD_PREFIX,
    CacheEntry,
    cache_entries,
    current_fallback,
    default_dir,
    mark_used,
    prune_cache,
    writable_dir,
)

__all__ = ["CacheEntry", "CodegenOptions", "attach", "cache_dir", "cache_entries",
           "compile_library", "load", "prune_cache"]

JACOBIAN_EXPAND_LIMIT = 100_000  # SX instructions of an expanded Jacobian worth compiling
EAGER_JACOBIAN_OPS = 10_000      # expanded Jacobians up to this size are built with f
DEFAULT_FLAGS = ("-O1",)         # modest optimization: gcc time, not run time, dominates
# appended for a jac_f source above JACOBIAN_O0_BYTES: gcc -O1 spends its time in register
# allocation of one huge function (random tree, n = 20: 1.8 MB, 17-34 s at -O1, 6 s at
# -O0, evaluation 4x slower); the Jacobian runs only in BDF Newton iterations
JACOBIAN_FLAGS = ("-O0",)
JACOBIAN_O0_BYTES = 6_000_000    # beyond jacobian.COMPILE_OPS: the forward form only
VERIFY_POINTS = 3      # random states and parameter values a library is checked at
VERIFY_RTOL = 1e-8     # allowed deviation from the virtual machine, relative to the scale


@dataclass(frozen=True)
class CodegenOptions:
    """How the C code is built: compiler executable, flags, and cache directory (None: the
    default, ``$JOURDAIN_CACHE`` or ``~/.cache/jourdain``)."""

    compiler: str = "gcc"
    flags: tuple = DEFAULT_FLAGS
    cache_dir: str | None = None
    timeout: float | None = None    # [s] for the whole build; None: no limit


def cache_dir(options: CodegenOptions) -> Path:
    """The directory of the compiled libraries."""
    return Path(options.cache_dir) if options.cache_dir else default_dir()


def derivative_functions(f: ca.Function) -> list[ca.Function]:
    """The functions compiled into f's library: f, and jac_f when it is small (its expanded
    form within EAGER_JACOBIAN_OPS instructions; module docstring)."""
    return [f, *eager_jacobian(f)]


def eager_jacobian(f: ca.Function) -> list[ca.Function]:
    """[jac_f] when f's expanded Jacobian is small, else []."""
    n_dir = sum(f.nnz_in(i) for i in range(f.n_in()))
    if f.n_out() != 1 or f.n_instructions() * n_dir > 20 * EAGER_JACOBIAN_OPS:
        return []
    jac = f.jacobian()
    return [jac] if jac.n_instructions() <= EAGER_JACOBIAN_OPS else []


def jacobian_function(f: ca.Function) -> ca.Function:
    """``jac_f`` with CasADi's signature (inputs, out_*) -> (jac_<out>_<in> ...), expanded when
    small, else by forward derivatives mapped over the columns (module docstring)."""
    n_dir = sum(f.nnz_in(i) for i in range(f.n_in()))
    # The expanded size is at most (instructions of f) × (directions), often far less (trees
    # have sparse Jacobians); build it unless even that bound is hopeless.
    if f.n_out() != 1 or f.n_instructions() * n_dir <= 40 * JACOBIAN_EXPAND_LIMIT:
        jac = f.jacobian()
        if jac.n_instructions() <= JACOBIAN_EXPAND_LIMIT or f.n_out() != 1:
            return jac
    args = [ca.MX.sym(f.name_in(i), f.sparsity_in(i)) for i in range(f.n_in())]
    out_name = f.name_out(0)
    out = ca.MX.sym("out_" + out_name, ca.Sparsity(f.size1_out(0), f.size2_out(0)))
    # Column j of the Jacobian is the forward derivative along the j-th unit seed.
    ends = list(itertools.accumulate(f.nnz_in(i) for i in range(f.n_in())))
    ranges = [slice(end - f.nnz_in(i), end) for i, end in enumerate(ends)]
    seeds = ca.DM.eye(n_dir)
    cols = f.forward(1).map(n_dir, "serial")(*args, ca.MX(f.size1_out(0), f.size2_out(0)),
                                              *[seeds[r, :] for r in ranges])
    names = [f"jac_{out_name}_{name}" for name in f.name_in()]
    return ca.Function("jac_" + f.name(), [*args, out], [cols[:, r] for r in ranges],
                       [*f.name_in(), "out_" + out_name], names)


FORMAT = 2  # bump when the generated library layout changes


def library_key(f: ca.Function, options: CodegenOptions) -> str:
    """SHA-256 of the serialized f (its derivatives follow from it), the compiler, flags, the
    Jacobian rule, the CasADi version and the platform (a cache shared between machines).
    The compiler's version is not part of it: the C code and the calling convention do not
    depend on it."""
    digest = hashlib.sha256(f.serialize().encode())
    rule = (JACOBIAN_FLAGS, JACOBIAN_O0_BYTES, JACOBIAN_EXPAND_LIMIT, EAGER_JACOBIAN_OPS)
    digest.update(repr((options.compiler, tuple(options.flags), rule, ca.__version__, FORMAT,
                        csource.TUNING, sys.platform, platform.machine())).encode())
    return digest.hexdigest()


def library_name(f: ca.Function, options: CodegenOptions) -> str:
    return f"jd_{f.name()}_{library_key(f, options)[:24]}.so"


def cached_libraries(f: ca.Function, options: CodegenOptions) -> list[Path]:
    """The cached libraries of f for ``options``: in the cache, then in this run's temporary
    directory (a read-only cache holding a bad entry); each marked as used."""
    name = library_name(f, options)
    found = [d / name for d in (cache_dir(options), current_fallback())
             if d is not None and (d / name).exists()]
    for path in found:
        mark_used(path)
    return found


def cached_library(f: ca.Function, options: CodegenOptions) -> Path | None:
    """The first of :func:`cached_libraries`, None when there is none (unverified)."""
    return next(iter(cached_libraries(f, options)), None)


def build_library(f: ca.Function, options: CodegenOptions = CodegenOptions(),
                  functions: list | None = None, name: str | None = None) -> Path | None:
    """Generate and compile ``functions`` (default: :func:`derivative_functions` of f) into
    the cache as ``name`` (default: :func:`library_name`), replacing an entry of that name;
    None (with a warning) when no C compiler works or the build fails."""
    compiler = shutil.which(options.compiler)
    if compiler is None:
        _warn(f"jourdain: no C compiler '{options.compiler}' found; using CasADi's virtual "
              "machine (slower)")
        return None
    wanted = cache_dir(options)
    directory, problem = writable_dir(wanted)
    if problem is not None:
        _warn(f"jourdain: cache directory {wanted} is not writable ({problem.strerror}); "
              f"compiling into {directory} for this run only, removed at exit (set "
              "JOURDAIN_CACHE or cache_dir)")
    target = directory / (name or library_name(f, options))
    functions = derivative_functions(f) if functions is None else functions
    with tempfile.TemporaryDirectory(prefix=BUILD_PREFIX, dir=directory) as tmp:
        error = _build(compiler, options.flags, functions, Path(tmp), target.name,
                       options.timeout)
        if not error and not (Path(tmp) / target.name).is_file():
            error = f"error: {options.compiler} reported success but wrote no library"
        if error:
            reason = next((line for line in error.splitlines() if "error" in line), error)
            _warn(f"jourdain: compiling {f.name()} failed ({reason.strip()[:160]}); using "
                  "CasADi's virtual machine")
            return None
        os.replace(Path(tmp) / target.name, target)  # atomic: others see all or nothing
    return target


def compile_library(f: ca.Function, options: CodegenOptions = CodegenOptions()) -> Path | None:
    """Path of the shared library holding f and its Jacobian: from the cache (unverified:
    :func:`attach` verifies), or generated and compiled now; None (with a warning) when no C
    compiler works."""
    return cached_library(f, options) or build_library(f, options)


def _warn(message: str) -> None:
    """A RuntimeWarning attributed to the first caller outside jourdain (the user's line)."""
    frame, level = sys._getframe(0), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("jourdain"):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, RuntimeWarning, stacklevel=level)


def _build(compiler: str, flags: tuple, functions: list[ca.Function], tmp: Path,
           name: str, timeout: float | None = None) -> str:
    """Generate one C file per function, compile them in parallel (gcc time dominates) and link
    one shared library; returns the compiler's error text, empty on success. No compiler
    process outlives the call: on a failure, the timeout [s] or an exception the others are
    killed, and all are waited for."""
    jobs: list[tuple[subprocess.Popen, Path]] = []
    try:
        return _compile_and_link(compiler, flags, functions, tmp, name, timeout, jobs)
    except OSError as exc:      # the compiler cannot be run (permissions, not an executable)
        return f"error: cannot run {compiler}: {exc.strerror or exc}"
    finally:
        _reap(jobs)


def _compile_and_link(compiler: str, flags: tuple, functions: list[ca.Function], tmp: Path,
                      name: str, timeout: float | None, jobs: list) -> str:
    """The body of :func:`_build`; every started process is appended to ``jobs``."""
    deadline = None if timeout is None else time.monotonic() + timeout
    objects = []
    for source in (name for item in functions for name in _sources(item, tmp)):
        if source.endswith(".o"):   # compiled by an earlier stage of this build
            objects.append(source)
            continue
        objects.append(source.removesuffix(".c") + ".o")
        large = source.startswith("jac_") and (tmp / source).stat().st_size > JACOBIAN_O0_BYTES
        fn_flags = (*flags, *JACOBIAN_FLAGS) if large else flags
        # -w: the generated code has harmless int-to-pointer casts that gcc warns about
        command = [compiler, *fn_flags, "-w", "-fPIC", "-c", source, "-o", objects[-1]]
        jobs.append(_spawn(command, tmp, tmp / f"{objects[-1]}.err"))
    for job, log in jobs:
        if not _wait(job, deadline):
            return f"error: the compiler took longer than the timeout of {timeout:g} s"
        if job.returncode != 0:
            return log.read_text(errors="replace").strip() or f"error: exit {job.returncode}"
    jobs.append(_spawn([compiler, "-shared", *objects, "-o", name, "-lm"], tmp,
                       tmp / "link.err"))
    link, log = jobs[-1]
    if not _wait(link, deadline):
        return f"error: linking took longer than the timeout of {timeout:g} s"
    return log.read_text(errors="replace").strip() if link.returncode != 0 else ""


def _sources(item, tmp: Path) -> list[str]:
    """The files of one build item in ``tmp``: the C source of a casadi.Function (CasADi's
    CodeGenerator), or what a callable writes into ``tmp`` (C sources, and object files of
    an earlier stage to link as they are)."""
    if not isinstance(item, ca.Function):
        return [Path(path).name for path in item(tmp)]
    return [csource.write_source([item], tmp, f"{item.name()}.c").name]


def _spawn(command: list[str], cwd: Path, log: Path) -> tuple[subprocess.Popen, Path]:
    """Start a compiler process with its messages in a file (no pipe to fill and block)."""
    with open(log, "w") as err:
        return subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err), log


def _wait(job: subprocess.Popen, deadline: float | None) -> bool:
    """Wait for ``job`` until ``deadline`` (time.monotonic); False on a timeout."""
    try:
        job.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return True
    except subprocess.TimeoutExpired:
        return False


def _reap(jobs: list) -> None:
    """Kill the compiler processes still running and wait for all of them."""
    for job, _ in jobs:
        if job.poll() is None:
            with contextlib.suppress(OSError):
                job.kill()
    for job, _ in jobs:
        job.wait()


def _reference_state(system, f: ca.Function) -> np.ndarray:
    """x at the reference configuration (assembled for closed loops) with zero speeds."""
    y = np.asarray(getattr(system, "y_ref", system.y_default), dtype=float)
    x = np.zeros(f.nnz_in(f.index_in("x")))
    x[:min(y.size, x.size)] = y[:x.size]
    return x


def _test_points(f: ca.Function, x_ref: np.ndarray, p: np.ndarray, count: int) -> list:
    """Reproducible random inputs: states within ±0.2 of x_ref (near the reference, where
    embedded Newton projections converge), inputs in ±1, parameters the defaults ±10 % (an
    exact zero within ±0.01)."""
    rng = np.random.default_rng(0)
    points = []
    for _ in range(count):
        args = [rng.uniform(-1, 1, f.nnz_in(i)) for i in range(f.n_in())]
        args[f.index_in("x")] = x_ref + rng.uniform(-0.2, 0.2, x_ref.size)
        scale = rng.uniform(-0.1, 0.1, p.size)
        args[f.index_in("p")] = np.where(p != 0, p * (1 + scale), scale / 10)
        points.append(args)
    return points


def _deviation(a: np.ndarray, b: np.ndarray, scale: np.ndarray) -> float:
    """Largest |a − b| relative to the largest finite entry of ``scale`` (equal entries,
    infinities and NaN alike, count 0; a NaN against a number counts as infinite)."""
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    diff = np.where(same, 0.0, np.abs(a - b))
    diff = np.where(np.isnan(diff), np.inf, diff)
    finite = scale[np.isfinite(scale)]
    size = float(finite.max()) if finite.size else 0.0
    worst = float(diff.max(initial=0.0))
    return worst / size if size > 0 else worst


def verify(f: ca.Function, compiled: ca.Function, x_ref: np.ndarray, p: np.ndarray,
           count: int = VERIFY_POINTS) -> str:
    """Empty when ``compiled`` reproduces the virtual machine's f and Jacobian at ``count``
    random states and parameter values, else what differs. The Jacobian is checked as J·v
    against the virtual machine's forward derivative (no expanded Jacobian needed), relative
    to the scale Σ|J_ij·v_j| of the product. Points where the virtual machine itself fails
    (an embedded Newton projection far from the constraint manifold) are skipped; if it fails
    at all of them only the shapes are checked."""
    same_shape = compiled.n_in() == f.n_in() and compiled.n_out() == f.n_out() and all(
        compiled.sparsity_in(i) == f.sparsity_in(i) for i in range(f.n_in())) and all(
        compiled.sparsity_out(i) == f.sparsity_out(i) for i in range(f.n_out()))
    if not same_shape:
        return "has other inputs or outputs than f"
    jac = compiled_jacobian(compiled)
    forward = f.forward(1)
    rng = np.random.default_rng(1)
    worst = {"f": 0.0, "its Jacobian": 0.0}
    for args in _test_points(f, x_ref, p, count):
        try:
            outs = f.call(args)
        except RuntimeError:    # f fails here (an embedded rootfinder): try the next point
            continue
        ref = np.array(outs[0], dtype=float)
        seeds = [rng.uniform(-1, 1, f.nnz_in(i)) for i in range(f.n_in())]
        try:
            got = np.array(compiled.call(args)[0], dtype=float)
            blocks = [np.array(b, dtype=float) for b in jac.call([*args, *outs])[:f.n_in()]] \
                if jac is not None else [np.zeros((f.nnz_out(0), v.size)) for v in seeds]
        except RuntimeError as exc:
            return f"fails to evaluate ({str(exc).splitlines()[0][:120]})"
        if jac is None:     # f alone: a Jacobian library is checked by attach_jacobian
            worst["f"] = max(worst["f"], _deviation(got.ravel(), ref.ravel(), np.abs(ref)))
            continue
        jv = sum(b @ v for b, v in zip(blocks, seeds)).ravel()
        scale = sum(np.abs(b) @ np.abs(v) for b, v in zip(blocks, seeds)).ravel()
        jv_ref = np.array(forward.call([*args, *outs, *seeds])[0], dtype=float).ravel()
        worst["f"] = max(worst["f"], _deviation(got.ravel(), ref.ravel(), np.abs(ref)))
        worst["its Jacobian"] = max(worst["its Jacobian"], _deviation(jv, jv_ref, scale))
    bad = [f"{what} (deviation {dev:.2g} of the values' scale)" for what, dev in worst.items()
           if not dev <= VERIFY_RTOL]
    return ("does not reproduce " + " nor ".join(bad) + " at random states and parameters"
            if bad else "")


def compiled_jacobian(compiled: ca.Function) -> ca.Function | None:
    """The library's jac_f, or None when it holds f alone."""
    try:
        return compiled.jacobian()
    except RuntimeError:
        return None


def load(f: ca.Function, path: Path, p: np.ndarray, x_ref: np.ndarray | None = None
         ) -> ca.Function | None:
    """The compiled f from ``path`` (casadi.external finds jac_f there), or None when the file
    does not load or disagrees with the virtual machine (:func:`verify`)."""
    compiled, _ = _load_verified(f, path, p, x_ref)
    return compiled


def _load_verified(f: ca.Function, path: Path, p: np.ndarray, x_ref=None) -> tuple:
    """(compiled f or None, why it was rejected)."""
    try:
        compiled = ca.external(f.name(), str(path))
    except RuntimeError:
        return None, "does not load"
    x_ref = np.zeros(f.nnz_in(f.index_in("x"))) if x_ref is None else x_ref
    problem = verify(f, compiled, x_ref, np.asarray(p, dtype=float))
    return (None, problem) if problem else (compiled, "")


def attach(system, compiler: str = "gcc", flags=None, cache_dir=None, timeout=None):
    """Compile ``system.f`` and make the System use it (``system.library`` names the file);
    the virtual-machine function stays in ``system.functions["f"]``. A cached library that
    fails to load or to reproduce f and its Jacobian is rebuilt (with a warning); a build
    that does not reproduce them is dropped for the virtual machine (with a warning).
    ``timeout`` [s] bounds the build (then the virtual machine is used)."""
    if not isinstance(compiler, str) or not compiler.strip():
        raise ModelError(f"codegen: compiler must be the name or path of a C compiler, e.g. "
                         f"'gcc', got {compiler!r}")
    if cache_dir is not None and not isinstance(cache_dir, (str, os.PathLike)):
        raise ModelError(f"codegen: cache_dir must be a directory path, got {cache_dir!r}")
    options = CodegenOptions(compiler, _flags(flags), None if cache_dir is None
                             else str(cache_dir), _timeout(timeout))
    # a partitioned closed loop compiles its watch (ẋ with everything the simulation checks
    # per step) instead; f is then its leading rows (:func:`_leading`). Not with hybrid rows:
    # the watch holds the smooth ẋ, their forces are in f only (the event loop integrates f)
    rows = "hybrid_parts" in system.functions
    f = system.functions["f"] if rows else system.functions.get("watch", system.functions["f"])
    x_ref = _reference_state(system, f)
    compiled, path = None, None
    for path in cached_libraries(f, options):
        compiled, problem = _load_verified(f, path, system.p_default, x_ref)
        if compiled is not None:
            break
        _warn(f"jourdain: the cached library {path} {problem}; rebuilding it")
        _discard(path)      # corrupt, truncated or foreign
    if compiled is None:
        # the watch keeps its Jacobian in its library whatever its size: f of a partitioned
        # loop is an MX call of it, differentiated through it (BDF, linearize, the tests)
        functions = None if f is system.functions["f"] else [f, jacobian_function(f)]
        path = build_library(f, options, functions=functions)
        if path is not None:
            compiled, problem = _load_verified(f, path, system.p_default, x_ref)
            if compiled is None:
                _warn(f"jourdain: the library just compiled ({path}) {problem}; using "
                      "CasADi's virtual machine")
                _discard(path)
    system.library = path if compiled is not None else None
    system.codegen_options = options
    if getattr(system, "jacobian_choice", None) is not None:
        system.jacobian_choice.compiled = None   # compiled for another f or options
        system.jacobian_choice.vm_kept = False
    if compiled is not None and f is system.functions["f"]:
        system.f = compiled
    elif compiled is not None:
        system.watch, system.f = compiled, _leading(compiled, system.functions["f"])
    return system


def _leading(watch: ca.Function, f: ca.Function) -> ca.Function:
    """f(t, x, u, p) as the first rows of the compiled watch (an MX call of the C function,
    differentiated through its compiled Jacobian)."""
    args = [ca.MX.sym(f.name_in(i), f.sparsity_in(i)) for i in range(f.n_in())]
    return ca.Function("f", args, [watch(*args)[:f.nnz_out(0)]], f.name_in(), f.name_out())


def _discard(path: Path) -> None:
    with contextlib.suppress(OSError):  # a read-only cache: the rebuild goes elsewhere
        path.unlink(missing_ok=True)


def _timeout(timeout) -> float | None:
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise ModelError(f"codegen: timeout must be a positive number of seconds or None, "
                         f"got {timeout!r}")
    return float(timeout)


def _flags(flags) -> tuple:
    """Compiler flags as a tuple of strings; a string is split like a shell command line."""
    if flags is None:
        return DEFAULT_FLAGS
    if isinstance(flags, str):
        return tuple(shlex.split(flags))
    if not isinstance(flags, (tuple, list)) or not all(isinstance(s, str) for s in flags):
        raise ModelError(f"codegen: flags must be strings, e.g. ('-O2',), got {flags!r}")
    return tuple(flags)
