"""The FMU's binary: C for the System's functions (CasADi's code generator), a generated
configuration header and the hand-written FMI 2.0 wrapper (``fmi2_wrapper.c``, package data),
compiled by gcc into one shared library and cached on disk under a hash of the sources.

The generated functions are ``jd_f(t, x, u, p) -> xdot``, ``jd_h(t, x, u, p) -> out``,
``jd_energy(x, p) -> (T, V)``, and for the start state ``jd_drive0(t, x, u, p) -> x0`` and
``jd_init(t, x, u, p) -> (x0, residual)`` (:mod:`.fmi_init`), ``jd_assemble(y, p) ->
(y_next, residual)`` and ``jd_speeds(x, p) -> x0`` (:mod:`.fmi_assembly`), and the sampled
blocks' ``jd_sample(t, x, u, p, active) -> p_next`` (:mod:`.fmi_sampled`), with dense outputs (the wrapper reads plain arrays); for a partitioned
closed loop h and the energies are taken at the projected coordinates (f projects them
itself: Newton as a fixed sequence of steps, plain C). A function CasADi cannot write as C
(a callback) is refused by name.
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import uuid
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..simulation.cache import BUILD_PREFIX, default_dir, mark_used, writable_dir
from .fmi_init import INIT_TOL

WRAPPER = "fmi2_wrapper.c"
CS_MAX_STEPS = 10_000_000      # per communication step: a hang guard, not a tuning knob


@dataclass(frozen=True)
class Layout:
    """Sizes of the FMU's variable blocks (value references are contiguous in this order:
    states, derivatives, inputs, parameters, outputs, energies)."""

    nx: int
    nu: int
    np: int
    nout: int

    @property
    def offsets(self) -> dict[str, int]:
        out, start = {}, 0
        for key, size in (("X", self.nx), ("DX", self.nx), ("U", self.nu), ("P", self.np),
                          ("OUT", self.nout), ("E", 2)):
            out[key] = start
            start += size
        return out


def platform_folder() -> tuple[str, str]:
    """(FMI 2.0 binaries folder, shared library suffix) of this machine."""
    system, machine = platform.system(), platform.machine().lower()
    bits = "64" if sys.maxsize > 2**32 else "32"
    if system == "Linux":
        return ("linux" + bits if machine in ("x86_64", "amd64", "i686", "i386")
                else f"{machine}-linux"), ".so"
    if system == "Darwin":
        return "darwin" + bits, ".dylib"
    if system == "Windows":
        return "win" + bits, ".dll"
    return f"{machine}-{system.lower()}", ".so"


def write_model(system, folder: Path, init, loops, sample: ca.Function) -> str:
    """jd_model.c and jd_model.h (CasADi) in ``folder``; returns the C code. ``init`` holds
    jd_drive0 and jd_init (:class:`.fmi_init.Initialization`), ``loops`` jd_assemble and
    jd_speeds (:class:`.fmi_assembly.LoopStart`), ``sample`` is jd_sample (the sampled
    blocks' updates, :mod:`.fmi_sampled`). A ModelError when CasADi cannot write a
    function as C."""
    gen = ca.CodeGenerator("jd_model.c", {"with_header": True, "with_export": False})
    # functions["f"], not system.f: after System.codegen() f is the compiled library's
    # external function, whose C CasADi cannot write into another file
    h, energy = system.functions["h"], system.functions["energy"]
    project = system.functions.get("project")
    if project is not None:   # partitioned loops: outputs at the projected coordinates
        h, energy = _after_projection(h, project), _after_projection(energy, project)
    for fn in (_dense("jd_f", system.functions["f"]), _dense("jd_h", h),
               _dense("jd_energy", energy, outputs=2), _dense("jd_drive0", init.drive),
               _dense("jd_init", init.function), _dense("jd_assemble", loops.assemble),
               _dense("jd_speeds", loops.speeds), _dense("jd_sample", sample)):
        gen.add(fn)
    gen.generate(str(folder) + os.sep)
    code = (folder / "jd_model.c").read_text()
    errors = [line for line in code.splitlines() if line.strip().startswith("#error")]
    if errors:
        raise ModelError("export_fmu: the System's functions cannot be written as C: " +
                         errors[0].strip().removeprefix("#error").strip())
    return code


def _after_projection(fn: ca.Function, project: ca.Function) -> ca.Function:
    """``fn`` evaluated at project(x, p): a partitioned System's integrated dependent
    coordinates carry the integration error, its outputs are taken where the loops close
    (as a Result does)."""
    args = fn.sx_in()
    x, p = args[fn.index_in("x")], args[fn.index_in("p")]
    inner = list(args)
    inner[fn.index_in("x")] = project(x, p)
    return ca.Function(fn.name(), args, fn.call(inner), fn.name_in(), fn.name_out())


def _dense(name: str, fn: ca.Function, outputs: int | None = None) -> ca.Function:
    """``fn`` under a new name with dense outputs (SX when fn is SX, so it stays expanded);
    only its first ``outputs`` outputs when given (the wrapper reads energy's T and V)."""
    args = fn.sx_in() if fn.is_a("SXFunction") else fn.mx_in()
    outs = [ca.densify(o) for o in fn.call(args)][:outputs]
    return ca.Function(name, args, outs, fn.name_in(), fn.name_out()[:outputs])


def write_wrapper(folder: Path, config: str) -> list[Path]:
    """jd_config.h and the FMI wrapper next to the model code; all source paths."""
    (folder / "jd_config.h").write_text(config)
    wrapper = resources.files("jourdain.solver.exchange").joinpath(WRAPPER).read_text()
    (folder / WRAPPER).write_text(wrapper)
    return [folder / n for n in ("jd_model.c", "jd_model.h", "jd_config.h", WRAPPER)]


def config_header(layout: Layout, guid: str, starts: dict, tolerance: float,
                  method: int, step: float, extra: list[str] = ()) -> str:
    """jd_config.h: sizes, value-reference offsets, start values, GUID, integrator; ``extra``
    lines (the assembly of closed loops, :func:`.fmi_assembly.assembly_config`)."""
    lines = ["/* generated by jourdain: model-specific constants of the FMI wrapper */",
             f'#define JD_GUID "{guid}"',
             f"#define JD_NX {layout.nx}", f"#define JD_NU {layout.nu}",
             f"#define JD_NP {layout.np}", f"#define JD_NOUT {layout.nout}"]
    lines += [f"#define JD_VR_{k} {v}" for k, v in layout.offsets.items()]
    lines += [f"#define JD_TOLERANCE {tolerance!r}", f"#define JD_INIT_TOL {INIT_TOL!r}",
              f"#define JD_CS_METHOD {method}",
              f"#define JD_CS_STEP {float(step)!r}", f"#define JD_CS_MAX_STEPS {CS_MAX_STEPS}"]
    for key in ("x", "u", "p"):
        values = np.asarray(starts[key], dtype=float).ravel()
        body = ", ".join(format(v, ".17g") for v in values) or "0"
        lines.append(f"static const double jd_{key}_start[{max(1, values.size)}] = {{{body}}};")
    lines += list(extra)
    return "\n".join(lines) + "\n"


def guid_of(*texts: str) -> str:
    """A GUID that changes whenever the model or its description changes."""
    digest = hashlib.sha256("\0".join(texts).encode()).hexdigest()
    return "{" + str(uuid.UUID(digest[:32])) + "}"


def build_library(sources: list[Path], identifier: str, compiler: str, flags: tuple,
                  cache: str | None) -> Path:
    """The compiled shared library of ``sources``: from the cache (``jd_fmu_<model>_<hash>``
    beside the codegen libraries, so ``python -m jourdain cache --prune`` handles it too) when
    it loads, or built now."""
    _, suffix = platform_folder()
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(repr((compiler, tuple(flags), sys.platform, platform.machine())).encode())
    name = f"jd_fmu_{identifier}_{digest.hexdigest()[:24]}{suffix}"
    target = (Path(cache) if cache else default_dir()) / name
    if target.exists() and _loads(target):
        mark_used(target)
        return target
    exe = shutil.which(compiler)
    if exe is None:
        raise ModelError(f"export_fmu: no C compiler '{compiler}' found; an FMU needs one "
                         "(install gcc, or pass compiler=...)")
    folder, _ = writable_dir(target.parent)
    with tempfile.TemporaryDirectory(prefix=BUILD_PREFIX, dir=folder) as tmp:
        out = Path(tmp) / name
        c_files = [str(p) for p in sources if p.suffix == ".c"]
        command = [exe, *flags, "-std=c99", "-shared", "-fPIC", "-fvisibility=hidden",
                   f"-I{sources[0].parent}", *c_files, "-o", str(out), "-lm"]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0 or not out.exists():
            first = next((ln for ln in run.stderr.splitlines() if "error" in ln), run.stderr)
            raise ModelError(f"export_fmu: compiling the FMU failed: {first.strip()[:300]}")
        os.replace(out, folder / name)   # atomic: a concurrent export sees all or nothing
    return folder / name


def _loads(path: Path) -> bool:
    """Whether a cached library loads and exports the FMI API (not truncated or foreign)."""
    try:
        return hasattr(ctypes.CDLL(str(path)), "fmi2Instantiate")
    except OSError:
        return False
