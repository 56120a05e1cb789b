"""The compiled step of the stepping mode built in two stages, so that gcc never sees one
huge translation unit.

The step's C was one file per function handed to ``codegen.build_library``
(the chunked step, and ``settle`` for the first step's impulses), each holding the whole
straight-line code of the kinematics, the sweep and the finish: the tower of ten boxes
(80 corner contacts) wrote 4.0 MB + 2.5 MB of C, the kinematics and the sweep compiled
twice, and gcc -O1 took 71 s of CPU on the first file alone (13–18 min of wall time on a
loaded machine). Here:

1. each large SX part (:func:`.step.build_parts`: kinematics, sweep, finish) is written to
   a C file of its own and the parts are compiled in parallel and linked into a
   temporary library;
2. the step is composed again (MX: folds, maps, the exact solve's branches) from the
   parts' ``external`` stand-ins loaded from it, so its C (and ``settle``'s) only calls them:
   a small glue file, compiled at the step's flags;
3. the glue's object and the parts' objects are linked into one library, cached under a
   name hashed from the step with its parts inlined (the same graph whatever the layout),
   the layout and the flags.

A cached library is loaded as it is; one that does not load is rebuilt once.

What the files hold grows with the contacts by calls, not by bodies, where the contacts are
alike (:mod:`.kinds`: the sweep's visits and the Delassus blocks written once per kind of
contact); the step's start is MX (:data:`.step.START_MX_NNZ`) and for large problems the
exact solve's check and passes too (:data:`.exact.EXPAND_NZ`), so the glue passes J and B
to the parts by pointer and holds no symbolic nz × nz inverse. The ten-box tower's glue was
25 MB of C (~92 s of gcc -O1), now 0.57 MB (12 s). The glue and each part may be compiled
with flags of their own (``part_flags``; :func:`..stepping.run._flags` chooses them).
"""
from __future__ import annotations

import hashlib
import shutil
import time
from pathlib import Path

import casadi as ca

from ..simulation import codegen, csource
from ..simulation.cache import current_fallback, mark_used

# every part at the step's flags: the kinematics at -O0 (61 s instead of 111 s of wall for
# the parts of the ten-box tower at load 5) made each step 37 % slower, all parts at -O0
# (35 s) 2.0x slower (benchmarks/build_solvers.py, docs/hybrid.md Limits)
LAYOUT = 1      # bump when the staged layout changes (part of the cache key)


def library_path(functions: list, names: list, options: codegen.CodegenOptions,
                 part_flags: list) -> Path:
    """The cache path of the staged library whose functions ``names`` wrap ``functions``,
    its parts compiled with ``part_flags``."""
    digest = hashlib.sha256()
    for fn in functions:
        digest.update(codegen.library_key(fn, options).encode())
    digest.update(repr(("staged", LAYOUT, list(names), tuple(part_flags))).encode())
    return codegen.cache_dir(options) / f"jd_{names[0]}_{digest.hexdigest()[:24]}.so"


def compiled_staged(parts: list, functions: list, glue, names: list, flags: tuple,
                    part_flags: list | None = None) -> tuple[list, Path] | None:
    """(externals, library): the functions ``names`` that ``glue(*parts)`` returns as
    compiled ``external`` functions of the staged library (module docstring) and its path
    (:class:`..simulation.ccall.CCall` calls them there), from the cache or built now; None
    when it cannot be built (build_library warns; the caller keeps the virtual machine).
    ``functions`` (the step and settle with the SX parts) name the library by their hash
    with ``names``: the glue's wrapping (a fold over the steps, a map over the output
    intervals: CasADi took 22 s to form it for three boxes) is formed only for a build.
    The glue is compiled with ``flags``, each part with its entry of ``part_flags``
    (default: ``flags``)."""
    options = codegen.CodegenOptions(flags=tuple(flags))
    part_flags = [tuple(f) for f in part_flags or [flags] * len(parts)]
    path = library_path(functions, names, options, part_flags)
    for _ in range(2):     # a cached library that does not load (foreign, truncated): rebuilt
        found = [d / path.name for d in (path.parent, current_fallback())
                 if d is not None and (d / path.name).exists()]
        if found:
            path = found[0]
            mark_used(path)
        else:
            try:
                built = codegen.build_library(functions[0], options, name=path.name,
                                              functions=[_sources(parts, glue, options,
                                                                  part_flags)])
            except RuntimeError as exc:     # a part did not compile (stage 1)
                reason = next((line for line in str(exc).splitlines() if "error" in line),
                              str(exc))
                codegen._warn(f"jourdain: compiling the stepping step failed "
                              f"({reason.strip()[:160]}); using CasADi's virtual machine")
                return None
            if built is None:
                return None
            path = built
        try:
            return [ca.external(name, str(path)) for name in names], path
        except RuntimeError:
            codegen._discard(path)
    return None


def _sources(parts: list, glue, options: codegen.CodegenOptions, part_flags: list):
    """The build item of :func:`codegen.build_library`: stage 1 and 2 of the module
    docstring in the build's directory; returns the glue's C and the parts' objects."""
    def write(tmp: Path) -> list:
        compiler = shutil.which(options.compiler) or options.compiler
        error = _compile_parts(compiler, parts, options, part_flags, tmp)
        if error:
            raise RuntimeError(error)
        stand_ins = [ca.external(p.name(), str(tmp / "parts.so")) for p in parts]
        glue_c = csource.write_source(glue(*stand_ins), tmp, "step_glue.c")
        return [glue_c] + [tmp / f"{p.name()}.o" for p in parts]
    return write


def _compile_parts(compiler: str, parts: list, options: codegen.CodegenOptions,
                   part_flags: list, tmp: Path) -> str:
    """Each part's C compiled with its ``part_flags``, all at once (gcc time dominates),
    and linked into ``tmp/parts.so`` (loaded for the stand-ins only); the compiler's error
    text, empty on success. No compiler process outlives the call."""
    deadline = None if options.timeout is None else time.monotonic() + options.timeout
    jobs: list = []
    try:
        for part, flags in zip(parts, part_flags):
            source = codegen._sources(part, tmp)[0]
            obj = source.removesuffix(".c") + ".o"
            command = [compiler, *flags, "-w", "-fPIC", "-c",
                       source, "-o", obj]
            jobs.append(codegen._spawn(command, tmp, tmp / f"{obj}.err"))
        for job, log in jobs:
            if not codegen._wait(job, deadline):
                return f"error: the compiler took longer than the timeout of {options.timeout:g} s"
            if job.returncode != 0:
                return log.read_text(errors="replace").strip() or f"error: exit {job.returncode}"
        objects = [f"{p.name()}.o" for p in parts]
        jobs.append(codegen._spawn([compiler, "-shared", *objects, "-o", "parts.so", "-lm"],
                                   tmp, tmp / "parts_link.err"))
        link, log = jobs[-1]
        if not codegen._wait(link, deadline):
            return f"error: linking took longer than the timeout of {options.timeout:g} s"
        return log.read_text(errors="replace").strip() if link.returncode != 0 else ""
    except OSError as exc:
        return f"error: cannot run {compiler}: {exc.strerror or exc}"
    finally:
        codegen._reap(jobs)
