"""FMU export (FMI 2.0): ``system.export_fmu(path)`` writes a zip with modelDescription.xml,
the compiled binary (CasADi's C for f, h and the energies plus the hand-written FMI wrapper;
no Python inside) under binaries/<platform>/ and the C sources under sources/, so other
platforms can rebuild it.

Model exchange hands ẋ = f(t, x, u, p) to the importer's integrator; co-simulation embeds
Dormand–Prince 5(4) with error control at the experiment's tolerance (the importer's
``fmi2SetupExperiment`` tolerance, else ``tolerance``), or classical RK4 with a fixed step.
Constrained systems export when their f is explicit: coordinate partitioning (f solves the
dependent coordinates by a fixed number of Newton steps, plain C; the FMU keeps the compiled
partition, with no switching at the partition's dead points) and Baumgarte stabilization do;
the DAE method has no explicit ẋ (refused by name). Their loops are assembled at
initialization for the start values set then; sampled blocks are time events; hybrid elements
with modes are refused by name (no state events).
"""
from __future__ import annotations

import re
import tempfile
import zipfile
from enum import Enum, Flag
from pathlib import Path

import numpy as np

from jourdain.blocks.errors import ModelError

from ..constraints.initial_equations import solve_initial_states
from ..model.checks import keywords
from ..model.names import require_system
from .fmi_checks import (
    check_exportable,
    checked_build,
    checked_name,
    checked_path,
    checked_x0,
)
from .fmi_build import (
    Layout,
    build_library,
    config_header,
    guid_of,
    platform_folder,
    write_model,
    write_wrapper,
)
from .fmi_assembly import assembly_config, loop_start
from .fmi_init import initialization
from .fmi_sampled import sampling, sampling_config
from .fmi_xml import model_description, variables


class FMUKind(Flag):
    """What the FMU offers; combine with ``|`` (the default offers both)."""

    MODEL_EXCHANGE = 1
    CO_SIMULATION = 2


class FMUSolver(Enum):
    """The integrator embedded for co-simulation."""

    DOPRI5 = 2   # Dormand–Prince 5(4), error control at the tolerance, step at most `step`
    RK4 = 1      # classical Runge–Kutta, fixed step `step`


_KIND_NAMES = {"model-exchange": FMUKind.MODEL_EXCHANGE, "co-simulation": FMUKind.CO_SIMULATION,
               "both": FMUKind.MODEL_EXCHANGE | FMUKind.CO_SIMULATION}


@keywords
def export_fmu(system, path, fmi: str = "2.0",
               kind: FMUKind = FMUKind.MODEL_EXCHANGE | FMUKind.CO_SIMULATION, *,
               model_name: str | None = None, y0: dict | None = None, z0: dict | None = None,
               params: dict | None = None, x0=None, solver: FMUSolver = FMUSolver.DOPRI5,
               step: float = 1e-2, tolerance: float = 1e-8, compiler: str = "gcc",
               flags=("-O1",), cache_dir=None) -> Path:
    """Write ``system`` as an FMI 2.0 FMU to ``path`` (a ``.fmu`` file) and return the path.

    kind : FMUKind.MODEL_EXCHANGE, FMUKind.CO_SIMULATION or both (``|``, default); the
        strings "model-exchange", "co-simulation" and "both" are accepted too.
    model_name : the modelIdentifier (a C identifier; default: the file name).
    y0, z0, params, x0 : start values of states and symbolic parameters, as in simulate
        (constrained systems assemble y0). The drivers' prescribed values and the components'
        initial equations (states in z0 held; none with x0) are applied again when the FMU
        leaves initialization, with the start time, inputs and parameters set then, as
        simulate does at t0 (:mod:`.fmi_init`); the description's start values are those for
        zero inputs. Closed loops are assembled again there too, with the independent
        coordinates and the parameters the importer set held (:mod:`.fmi_assembly`); their
        dependent coordinates and speeds are calculated, not settable.

    Sampled blocks become FMI time events (:mod:`.fmi_sampled`). Hybrid elements with modes
    (stops, impacts, stick–slip friction, contacts, latches) and the DAE method are refused
    by name (:mod:`.fmi_checks`), as are bad arguments.
    solver, step : co-simulation integrator (FMUSolver.DOPRI5: largest step [s];
        FMUSolver.RK4: fixed step [s]); tolerance : DefaultExperiment tolerance and the
        co-simulation error tolerance when the importer gives none.
    compiler, flags, cache_dir : the C build (cached by a hash of the sources, as codegen).
    """
    require_system(system, "export_fmu")
    kinds = _kind(kind)
    if str(fmi) != "2.0":
        raise ModelError(f"export_fmu: fmi must be '2.0' (FMI 3.0 is not written yet), got "
                         f"{fmi!r}")
    if not isinstance(solver, FMUSolver):
        raise ModelError(f"export_fmu: solver must be a jd.FMUSolver, got {solver!r}")
    step, tolerance, compiler, flags = checked_build(step, tolerance, compiler, flags)
    path = checked_path(path)
    identifier = _identifier(checked_name(model_name) or path.stem)
    x0 = checked_x0(system, x0)
    check_exportable(system)
    p = system.parameters(params)
    x = _start(system, y0, z0, p) if x0 is None else x0
    starts = {"x": x, "u": np.zeros(len(system.u_names)), "p": p}
    layout = Layout(system.nx, len(system.u_names), len(system.p_names),
                    len(system.output_names))
    init = initialization(system, held=list(z0 or {}), solve=x0 is None)
    loops, sampled = loop_start(system), sampling(system)
    vars_ = variables(system, starts["x"], starts["u"], starts["p"], init, loops.dependent,
                      sampled.discrete)
    with tempfile.TemporaryDirectory(prefix="jourdain-fmu-") as tmp:
        folder = Path(tmp)
        code = write_model(system, folder, init, loops, sampled.function)
        names = "\n".join(v.name for v in vars_)
        values = np.concatenate([starts["x"], starts["p"]]).tobytes().hex()
        extra = assembly_config(loops, len(system.y_names)) + sampling_config(sampled)
        # the extra lines carry what the C code does not (a hold's sample period, y_ref)
        guid = guid_of(code, names, identifier, values, repr((solver, step, tolerance)),
                       "\n".join(extra))
        config = config_header(layout, guid, starts, tolerance, solver.value, step, extra)
        sources = write_wrapper(folder, config)
        library = build_library(sources, identifier, compiler, tuple(flags), cache_dir)
        xml = model_description(identifier, guid, kinds, vars_, _description(system),
                                tolerance, [p.name for p in sources if p.suffix == ".c"],
                                _version())
        _zip(path, identifier, xml, library, sources)
    return path


def _start(system, y0, z0, p) -> np.ndarray:
    """The start values of the description: the start state as simulate builds it at t = 0
    with zero inputs (driven coordinates and speeds at their prescribed values, component
    states with initial equations solved unless given in z0). The FMU recomputes the driven
    and solved entries at initialization for the inputs set then (jd_init)."""
    x = system.state(y0, z0)
    u = np.zeros(len(system.u_names))
    if "drive0" in system.functions:
        x = np.array(system.functions["drive0"](0.0, x, u, p)).ravel()
    return solve_initial_states(system, x, 0.0, u, p, z0 or {})


def _kind(kind) -> tuple[bool, bool]:
    if isinstance(kind, str):
        if kind not in _KIND_NAMES:
            raise ModelError(f"export_fmu: kind must be a jd.FMUKind or one of "
                             f"{', '.join(_KIND_NAMES)}, got {kind!r}")
        kind = _KIND_NAMES[kind]
    if not isinstance(kind, FMUKind) or not kind:
        raise ModelError(f"export_fmu: kind must be a jd.FMUKind, got {kind!r}")
    return FMUKind.MODEL_EXCHANGE in kind, FMUKind.CO_SIMULATION in kind


def _identifier(name: str) -> str:
    """A modelIdentifier: a C identifier that is also a file name."""
    ident = re.sub(r"\W", "_", name, flags=re.ASCII) or "model"
    return "_" + ident if ident[0].isdigit() else ident


def _description(system) -> str:
    kind = getattr(system, "method", None)
    extra = f", constraints by {kind.value}" if kind is not None else ""
    return (f"jourdain multibody model: {len(system.y_names)} coordinates, "
            f"{len(system.z_names)} speeds, {len(system.u_names)} inputs{extra}")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("jourdain")
    except PackageNotFoundError:
        return "unknown"


def _zip(path: Path, identifier: str, xml: str, library: Path, sources: list[Path]) -> None:
    folder, suffix = platform_folder()
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("modelDescription.xml", xml)
        zf.write(library, f"binaries/{folder}/{identifier}{suffix}")
        for source in sources:
            zf.write(source, f"sources/{source.name}")
