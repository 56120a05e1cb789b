"""Consumer: C code for the state derivative f and its Jacobian, compiled once and cached on disk.

CasADi's CodeGenerator writes C for ``f`` and its Jacobian ``jac_f`` (the name casadi.external
looks for, so CVODES's Newton iterations use compiled code too), one file each, compiled in
parallel and linked into one shared library. The library is named by a SHA-256 hash of the
serialized f, the compiler, its flags and the CasADi version, in ``$JOURDAIN_CACHE`` or
``~/.cache/jourdain``; the next run with the same model and options loads it without
compiling. Without a working compiler the System keeps CasADi's virtual machine and a one-line
warning says so. A cached library that does not load or does not reproduce f at a test point
(corrupt, truncated, built elsewhere) is rebuilt; a cache directory that cannot be written is
replaced by a temporary one for this run (with a warning). Libraries are written to a private
temporary directory and renamed into place, so processes sharing a cache never see a partial
file. The cache is never pruned: delete the directory to reclaim space.

The Jacobian is expanded symbolically (fast to evaluate) while its instruction count stays
under ``JACOBIAN_EXPAND_LIMIT``; beyond, it is assembled column by column from the forward
derivative (code size O(size of f) instead of O(n · size of f): gcc time grows much faster than
the C file, PERFORMANCE_NOTES.md). A Jacobian source above ``JACOBIAN_O0_BYTES`` is compiled
at -O0.
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
import warnings
from dataclasses import dataclass
from pathlib import Path

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

JACOBIAN_EXPAND_LIMIT = 100_000  # SX instructions of an expanded Jacobian worth compiling
DEFAULT_FLAGS = ("-O1",)         # modest optimization: gcc time, not run time, dominates
# appended for a jac_f source above JACOBIAN_O0_BYTES: gcc -O1 spends its time in register
# allocation of the one huge function (random tree, n = 20: 1.8 MB, 17-34 s at -O1, 6 s at
# -O0, evaluation 4x slower); the Jacobian runs only in BDF Newton iterations
JACOBIAN_FLAGS = ("-O0",)
JACOBIAN_O0_BYTES = 1_000_000


@dataclass(frozen=True)
class CodegenOptions:
    """How the C code is built: compiler executable, flags, and cache directory (None: the
    default, ``$JOURDAIN_CACHE`` or ``~/.cache/jourdain``)."""

    compiler: str = "gcc"
    flags: tuple = DEFAULT_FLAGS
    cache_dir: str | None = None


def cache_dir(options: CodegenOptions) -> Path:
    """The directory of the compiled libraries."""
    if options.cache_dir:
        return Path(options.cache_dir)
    env = os.environ.get("JOURDAIN_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "jourdain"


def derivative_functions(f: ca.Function) -> list[ca.Function]:
    """f and jac_f: the functions compiled into one library (CVODES needs no more)."""
    return [f, jacobian_function(f)]


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


FORMAT = 1  # bump when the generated library layout changes


def library_key(f: ca.Function, options: CodegenOptions) -> str:
    """SHA-256 of the serialized f (its derivatives follow from it), the compiler, flags, the
    Jacobian rule, the CasADi version and the platform (a cache shared between machines).
    The compiler's version is not part of it: the C code and the calling convention do not
    depend on it."""
    digest = hashlib.sha256(f.serialize().encode())
    rule = (JACOBIAN_FLAGS, JACOBIAN_O0_BYTES, JACOBIAN_EXPAND_LIMIT)
    digest.update(repr((options.compiler, tuple(options.flags), rule, ca.__version__, FORMAT,
                        sys.platform, platform.machine())).encode())
    return digest.hexdigest()


def compile_library(f: ca.Function, options: CodegenOptions = CodegenOptions()) -> Path | None:
    """Path of the shared library holding f and its Jacobian: from the cache, or generated and
    compiled now; None (with a warning) when no C compiler works."""
    key = library_key(f, options)
    target = cache_dir(options) / f"jd_{f.name()}_{key[:24]}.so"
    if target.exists():
        return target
    compiler = shutil.which(options.compiler)
    if compiler is None:
        _warn(f"jourdain: no C compiler '{options.compiler}' found; using CasADi's virtual "
              "machine (slower)")
        return None
    target = _writable(target)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        error = _build(compiler, options.flags, derivative_functions(f), Path(tmp), target.name)
        if error:
            reason = next((line for line in error.splitlines() if "error" in line), error)
            _warn(f"jourdain: compiling {f.name()} failed ({reason.strip()[:160]}); using "
                  "CasADi's virtual machine")
            return None
        os.replace(Path(tmp) / target.name, target)  # atomic: others see all or nothing
    return target


def _writable(target: Path) -> Path:
    """``target``, or the same file name in a fresh temporary directory (with a warning) when
    the cache directory cannot be created or written."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent):
            return target
    except OSError as exc:
        fallback = Path(tempfile.mkdtemp(prefix="jourdain-"))
        _warn(f"jourdain: cache directory {target.parent} is not writable ({exc.strerror}); "
              f"compiling into {fallback} for this run only (set JOURDAIN_CACHE or cache_dir)")
        return fallback / target.name


def _warn(message: str) -> None:
    """A RuntimeWarning attributed to the first caller outside jourdain (the user's line)."""
    frame, level = sys._getframe(0), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("jourdain"):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, RuntimeWarning, stacklevel=level)


def _build(compiler: str, flags: tuple, functions: list[ca.Function], tmp: Path,
           name: str) -> str:
    """Generate one C file per function, compile them in parallel (gcc time dominates) and link
    one shared library; returns the compiler's error text, empty on success."""
    jobs = []
    for k, fn in enumerate(functions):  # f first, then jac_f
        source = f"{fn.name()}.c"
        gen = ca.CodeGenerator(source, {"with_header": False})
        gen.add(fn)
        gen.generate(str(tmp) + os.sep)
        large = k > 0 and (tmp / source).stat().st_size > JACOBIAN_O0_BYTES
        fn_flags = (*flags, *JACOBIAN_FLAGS) if large else flags
        # -w: the generated code has harmless int-to-pointer casts that gcc warns about
        command = [compiler, *fn_flags, "-w", "-fPIC", "-c", source, "-o", f"{fn.name()}.o"]
        try:
            jobs.append(subprocess.Popen(command, cwd=tmp, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True))
        except OSError as exc:   # not executable, or vanished since shutil.which found it
            return f"error: cannot run {compiler}: {exc.strerror}"
    for job in jobs:
        _, err = job.communicate()
        if job.returncode != 0:
            return err.strip()
    objects = [f"{fn.name()}.o" for fn in functions]
    link = subprocess.run([compiler, "-shared", *objects, "-o", name, "-lm"], cwd=tmp,
                          capture_output=True, text=True)
    if link.returncode != 0:
        return link.stderr.strip()
    # a "compiler" that exits 0 without output (a wrapper script, `true`) builds nothing
    return "" if (tmp / name).is_file() else f"error: {compiler} produced no library {name}"


def load(f: ca.Function, path: Path, p: np.ndarray) -> ca.Function | None:
    """The compiled f from ``path`` (casadi.external finds jac_f there), or None when the file
    does not load or disagrees with the virtual machine at a test point (parameters p)."""
    try:
        compiled = ca.external(f.name(), str(path))
    except RuntimeError:
        return None
    same_shape = compiled.n_in() == f.n_in() and compiled.n_out() == f.n_out() and all(
        compiled.sparsity_in(i) == f.sparsity_in(i) for i in range(f.n_in())) and all(
        compiled.sparsity_out(i) == f.sparsity_out(i) for i in range(f.n_out()))
    if not same_shape:
        return None
    rng = np.random.default_rng(0)
    args = [rng.uniform(-1, 1, f.nnz_in(i)) for i in range(f.n_in())]
    args[f.index_in("p")] = p
    try:
        a, b = (np.array(fn(*args)[0] if f.n_out() > 1 else fn(*args), dtype=float)
                for fn in (compiled, f))
    except RuntimeError:  # f fails at the test point (an embedded rootfinder): shapes only
        return compiled
    ok = np.allclose(a, b, rtol=1e-6, atol=1e-9 * max(1.0, float(np.nanmax(np.abs(b)))),
                     equal_nan=True)
    return compiled if ok else None


def attach(system, compiler: str = "gcc", flags=None, cache_dir=None):
    """Compile ``system.f`` and make the System use it (``system.library`` names the file);
    the virtual-machine function stays in ``system.functions["f"]``. A cached library that
    fails to load or to reproduce f is rebuilt once."""
    if not isinstance(compiler, str) or not compiler.strip():
        raise ModelError(f"codegen: compiler must be the name or path of a C compiler, e.g. "
                         f"'gcc', got {compiler!r}")
    if cache_dir is not None and not isinstance(cache_dir, (str, os.PathLike)):
        raise ModelError(f"codegen: cache_dir must be a directory path, got {cache_dir!r}")
    options = CodegenOptions(compiler, _flags(flags), None if cache_dir is None
                             else str(cache_dir))
    f = system.functions["f"]
    path = compile_library(f, options)
    compiled = load(f, path, system.p_default) if path is not None else None
    if path is not None and compiled is None:  # corrupt, truncated or foreign cache entry
        with contextlib.suppress(OSError):  # a read-only cache: the warning below says so
            path.unlink(missing_ok=True)
        path = compile_library(f, options)
        compiled = load(f, path, system.p_default) if path is not None else None
        if path is not None and compiled is None:
            _warn(f"jourdain: the compiled library {path} does not reproduce {f.name()}; "
                  "using CasADi's virtual machine")
    system.library = path if compiled is not None else None
    if compiled is not None:
        system.f = compiled
    return system


def _flags(flags) -> tuple:
    """Compiler flags as a tuple of strings; a string is split like a shell command line."""
    if flags is None:
        return DEFAULT_FLAGS
    if isinstance(flags, str):
        return tuple(shlex.split(flags))
    if not isinstance(flags, (tuple, list)) or not all(isinstance(s, str) for s in flags):
        raise ModelError(f"codegen: flags must be strings, e.g. ('-O2',), got {flags!r}")
    return tuple(flags)
