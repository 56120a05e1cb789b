"""An IPOPT or fatrop solver whose NLP functions are compiled C, cached on disk
(``solve(codegen=True)``).

CasADi's documented route: the functions the solver calls (objective, constraints, their
gradient and Jacobian, the Hessian of the Lagrangian; ``nlpsol.get_function``) are written as
C by one CodeGenerator, compiled into a shared library and handed back to ``nlpsol`` by file
name. Each solver has its own set (fatrop's Hessian function is the full symmetric matrix with
the Lagrangian's gradient, IPOPT's the upper triangle), so they are taken from a solver of
the same plugin on the virtual machine; fatrop's stage structure is given by name
(:func:`.backends.stage_structure`) and checked by CasADi against the library's Jacobian
sparsity. For collocation they are assembled from the point function's blocks
(:mod:`.structured`); for fixed-step multiple shooting CasADi derives them through the mapped
interval function (:mod:`.mapped`). Either way the C code holds each block once, looped over
the grid, so it stays small.

The library lives in the code-generation cache (:mod:`jourdain.solver.simulation.codegen`:
``$JOURDAIN_CACHE`` or ``~/.cache/jourdain``, pruned with it), named by a hash of the
serialized functions, compiler, flags and CasADi version; the next solve of the same problem
loads it. A library just built is checked once: its constraints, their Jacobian and (exact
Hessian) the Hessian of the Lagrangian are compared, nonzero by nonzero (never densified: the
Talos arm's 6314 × 6314 Hessian took 27 s to densify), with the same functions on CasADi's
virtual machine at the initial guess. A cached library was checked when it was built and is
named by the hash of what it computes, so loading it checks only that its functions have the
sparsity patterns of this NLP's (a collision or a stale file would differ there). A library
that does not load, does not agree, or cannot be built leaves the virtual machine in charge,
with a warning. A second library needed by the same build can be started beforehand
(:func:`start_library`: its gcc runs in the background, the FDDP backward pass's beside the
knots'); :func:`compiled_library` waits for it.
"""
from __future__ import annotations

import hashlib
import shutil
import tempfile
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import casadi as ca
import numpy as np

from ..simulation import codegen, csource
from ..simulation.cache import mark_used
from .nlp import NLP
from .structured import nlp_functions, point_blocks
from .transcription import Plan

CHECK_RTOL = 1e-8   # compiled vs virtual machine, relative to the largest value
GLUE_FLAGS = ("-O0",)   # the sparse glue code of the NLP functions (module docstring)


def codegen_solver(nlp: NLP, plan: Plan, options: dict, par0: np.ndarray,
                   codegen_options: codegen.CodegenOptions | None = None,
                   solver: str = "ipopt") -> tuple:
    """(``solver`` factory: nlpsol options -> solver, whether it runs compiled C) for the
    mapped transcription ``plan``; ``options`` those of the check, ``par0`` the NLP
    parameters' values there. fatrop: multiple shooting only (the collocation blocks of
    :mod:`.structured` are IPOPT's functions; backends.check_choice refuses the rest)."""
    opts = codegen_options or codegen.CodegenOptions()
    w, g, cost, par = nlp.vector(), ca.vertcat(*nlp.g), plan.cost, nlp.par
    if plan.points is not None:
        blocks = point_blocks(plan.points.P)
        functions = nlp_functions(w, g, cost, plan.points, plan.exact_hessian, blocks, par)

        def sources(tmp):
            # the point blocks apart (in parallel, optimized), then the NLP's glue: sparse
            # copies and products over the grid, as fast at -O0 and compiled in a fraction
            compiler = shutil.which(opts.compiler) or opts.compiler
            error = codegen._build(compiler, opts.flags, blocks, tmp, "points.so", opts.timeout)
            compiled = [] if error else [ca.external(b.name(), str(tmp / "points.so"))
                                         for b in blocks]
            glue = nlp_functions(w, g, cost, plan.points, plan.exact_hessian, compiled, par) \
                if compiled else []
            error = error or codegen._build(compiler, GLUE_FLAGS, [lambda d: [_write(glue, d)]],
                                            tmp, "glue.so", opts.timeout)
            if error:
                raise RuntimeError(error)
            return [tmp / "nlp.o"] + [tmp / f"{b.name()}.o" for b in blocks]
        f_val, g_val = functions[0].call([w, par])
        nlp.g, plan.cost = [g_val], f_val     # q replaced: the failure diagnosis reads them
    else:
        vm = _vm_solver(nlp, plan, options, solver)
        functions = [vm.oracle()] + [vm.get_function(n) for n in vm.get_function()
                                     if n.startswith("nlp_")]

        def sources(tmp):
            return [_write(functions, tmp)]   # CasADi's derivatives: compiled with opts.flags
    path, fresh = compiled_library(functions, opts, sources)
    fast = _load(functions, path, options, nlp.arrays()["x0"], par0, fresh, solver) \
        if path else None
    if fast is None:
        return (lambda o: _vm_solver(nlp, plan, o, solver)), False
    return (lambda o: ca.nlpsol("trajectory", solver, str(path), o)), True


def compiled_library(functions: list[ca.Function], options: codegen.CodegenOptions, sources):
    """(path of the library holding ``functions``, whether it was built now) from the cache
    or from what ``sources(tmp)`` writes (None: ``functions``, one C file each, compiled in
    parallel); (None, False) with a warning if it fails."""
    path = library_path(functions, options)
    name = path.name
    pending = _PENDING.pop(path, None)
    if pending is not None:         # started by start_library: its gcc ran meanwhile
        built = pending.result()
        return built, built is not None
    if path.exists():
        mark_used(path)
        return path, False
    try:
        items = list(functions) if sources is None else [sources]
        path = codegen.build_library(functions[0], options, functions=items, name=name)
        return path, path is not None
    except RuntimeError as exc:
        reason = next((line for line in str(exc).splitlines() if "error" in line), str(exc))
        codegen._warn(f"jourdain: compiling the NLP failed ({reason.strip()[:160]}); solving "
                      "on CasADi's virtual machine")
        return None, False


_PENDING: dict[Path, Future] = {}
_POOL: list = []


def start_library(functions: list[ca.Function], options: codegen.CodegenOptions) -> None:
    """Start building the library of ``functions`` (as :func:`compiled_library` would) in a
    background thread, unless it is cached: its gcc runs while the caller goes on (FDDP's
    backward pass beside the knot library: two libraries at once on two cores), and
    :func:`compiled_library` waits for it. The C is written here (CasADi is not thread
    safe); the thread only runs the compiler."""
    path = library_path(functions, options)
    if path.exists() or path in _PENDING:
        return
    source_dir = Path(tempfile.mkdtemp(prefix="jd_src_"))
    sources = [Path(_write([fn], source_dir, f"{fn.name()}.c")) for fn in functions]

    def copies(tmp):
        return [shutil.copy(source, tmp) for source in sources]

    def build():
        try:
            return codegen.build_library(functions[0], options, functions=[copies],
                                         name=path.name)
        except RuntimeError:
            return None
        finally:
            shutil.rmtree(source_dir, ignore_errors=True)
    if not _POOL:
        _POOL.append(ThreadPoolExecutor(max_workers=2, thread_name_prefix="jd_gcc"))
    _PENDING[path] = _POOL[0].submit(build)


def loaded_checked(functions: list[ca.Function], options: codegen.CodegenOptions, args_of,
                   what: str) -> list[ca.Function] | None:
    """``functions`` as ``external`` C from one cached library (built now if missing), each
    checked against the virtual machine at ``args_of(index, fn)`` when just built; None with
    a warning naming ``what`` when it cannot be built, loaded or does not agree (the virtual
    machine stays). A cached library is trusted on its sparsity: it was checked when built."""
    path, fresh = compiled_library(functions, options, None)
    if path is None:
        return None
    try:
        ours = [ca.external(fn.name(), str(path)) for fn in functions]
    except RuntimeError:
        codegen._discard(path)
        return None
    worst = _worst_deviation(functions, ours, fresh, args_of)
    if worst <= CHECK_RTOL:
        return ours
    return _rejected(what, path, worst)


def _worst_deviation(functions: list[ca.Function], libs: list[ca.Function], fresh: bool,
                     args_of) -> float:
    """The largest deviation of the compiled ``libs`` from ``functions`` on the virtual
    machine, nonzero by nonzero at ``args_of(index, fn)`` (only when ``fresh``: a cached
    library was checked when built); inf when a sparsity pattern differs."""
    worst = 0.0
    for i, (fn, lib) in enumerate(zip(functions, libs)):
        if any(lib.sparsity_out(j) != fn.sparsity_out(j) for j in range(fn.n_out())):
            return np.inf
        if fresh:
            args = args_of(i, fn)
            for a, b in zip(lib.call(args), fn.call(args)):
                a, b = (np.array(m.nonzeros(), dtype=float) for m in (a, b))
                worst = max(worst, codegen._deviation(a, b, np.array([np.abs(b).max(initial=0)])))
    return worst


def library_path(functions: list[ca.Function], options: codegen.CodegenOptions) -> Path:
    """Where the cached library of ``functions`` built with ``options`` is (or would be): named
    by the hash of what it computes, the compiler and its flags."""
    digest = hashlib.sha256()
    for fn in functions:
        digest.update(codegen.library_key(fn, options).encode())
    return codegen.cache_dir(options) / f"jd_nlp_{digest.hexdigest()[:24]}.so"


def _write(functions: list[ca.Function], tmp, name: str = "nlp.c") -> str:
    """One C file holding ``functions`` (the names the solver's interface looks for)."""
    return csource.write_source(functions, tmp, name)


def _vm_solver(nlp: NLP, plan: Plan, options: dict, solver: str = "ipopt") -> ca.Function:
    return ca.nlpsol("trajectory", solver, {"x": nlp.vector(), "p": nlp.par, "f": plan.cost,
                                             "g": ca.vertcat(*nlp.g)}, options)


def _load(functions: list, path, options: dict, w0: np.ndarray, par0: np.ndarray,
          fresh: bool, solver: str = "ipopt") -> ca.Function | None:
    """nlpsol from the library at ``path`` if it loads and its functions have the sparsity
    patterns of ``functions`` and, when ``fresh``, reproduce them on the virtual machine at
    the initial guess (random multipliers for the Hessian), compared nonzero by nonzero."""
    try:
        fast = ca.nlpsol("trajectory", solver, str(path), options)
    except RuntimeError:
        codegen._discard(path)
        return None
    rng = np.random.default_rng(0)
    checked = [fn for fn in functions if fn.name() in ("nlp_g", "nlp_jac_g", "nlp_hess_l")]
    worst = _worst_deviation(
        checked, [ca.external(fn.name(), str(path)) for fn in checked], fresh,
        lambda _, fn: [w0, par0] + [rng.uniform(-1, 1, fn.nnz_in(i)) for i in (2, 3)
                                    if i < fn.n_in()])
    if worst <= CHECK_RTOL:
        return fast
    return _rejected("NLP", path, worst)


def _rejected(what: str, path, worst: float) -> None:
    """A library that deviates from the virtual machine: said, deleted, not used."""
    codegen._warn(f"jourdain: the compiled {what} {path} deviates from the virtual machine "
                  f"({worst:.2g}); solving on the virtual machine")
    codegen._discard(path)
    return None
