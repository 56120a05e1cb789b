"""modelDescription.xml of an FMI 2.0 FMU (schema fmi2ModelDescription.xsd).

Variables keep the System's dotted names (variableNamingConvention "structured"; "flat"
when a name does not fit that grammar): states as continuous locals with exact start values,
their derivatives ``der(name)``, inputs, parameters (the System's symbolic parameters,
fixed), outputs (sensor and signal outputs) and the energies ``energy.kinetic`` and
``energy.potential`` as calculated locals. Every variable with a unit names it in its Real
element (``unit``) and in UnitDefinitions with its SI base-unit exponents (FMI 2.0 §2.2.2).
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from ..model.names import signal_units
from .units import BASE, base_units

_IDENT = r"[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+(,[0-9]+)*\])?"
_STRUCTURED = re.compile(rf"^{_IDENT}(\.{_IDENT})*$")


@dataclass
class Variable:
    """One ScalarVariable of type Real (value references follow the list order)."""

    name: str
    causality: str
    variability: str
    initial: str | None = None
    start: float | None = None
    unit: str = ""
    description: str = ""
    derivative: int | None = None   # 1-based index of the state this is the derivative of
    hidden: bool = False   # keeps its value reference but is not described (a held output)


def variables(system, x0, u0, p0, init=None, calculated=(), discrete=()) -> list[Variable]:
    """The FMU's variables in value-reference order (fmi_build.Layout). ``init``
    (:class:`.fmi_init.Initialization`): states the drivers overwrite at initialization are
    "calculated" (no start value), as are the dependent coordinates and speeds of closed
    loops (``calculated``, indices in x: :mod:`.fmi_assembly`); states the initial equations
    solve "approx" (the start value is Newton's first guess); the others "exact". Entries of
    p in ``discrete`` (indices) are held values of sampled blocks: discrete locals, or the
    output of the same name alone (:mod:`.fmi_sampled`)."""
    st = system.structure
    units = list(st.coordinate_units) + list(st.speed_units)
    units += [""] * (system.nx - len(units))
    kinds = (["coordinate"] * len(system.y_names) + ["generalized speed"] * len(system.z_names)
             + ["component state"] * len(system.s_names))
    for i in calculated:   # a closed loop's dependent coordinate or speed
        kinds[i] = f"dependent {kinds[i]}, solved from the closure equations at initialization"
    overwritten = set(init.overwritten if init is not None else ()) | set(calculated)
    solved = set(init.solved) if init is not None else set()
    out = [Variable(n, "local", "continuous", "calculated", None, u, k) if i in overwritten
           else Variable(n, "local", "continuous", "approx" if i in solved else "exact",
                         float(v), u, k)
           for i, (n, v, u, k) in enumerate(zip(system.x_names, x0, units, kinds))]
    out += [Variable(f"der({n})", "local", "continuous", unit=_rate(u),
                     description=f"time derivative of {n}", derivative=i + 1)
            for i, (n, u) in enumerate(zip(system.x_names, units))]
    signal = signal_units(system)
    out += [Variable(n, "input", "continuous", None, float(v), signal[n], "input")
            for n, v in zip(system.u_names, u0)]
    held = set(discrete)
    out += [Variable(n, "local", "discrete", "exact", float(v), st.parameter_units.get(n, ""),
                     "held value of a sampled block", hidden=n in system.output_names)
            if i in held else
            Variable(n, "parameter", "fixed", "exact", float(v),
                     st.parameter_units.get(n, ""), "parameter")
            for i, (n, v) in enumerate(zip(system.p_names, p0))]
    out += [Variable(n, "output", "continuous", unit=signal[n], description="output")
            for n in system.output_names]
    out += [Variable("energy.kinetic", "local", "continuous", unit="J",
                     description="kinetic energy T"),
            Variable("energy.potential", "local", "continuous", unit="J",
                     description="potential energy V")]
    return out


def _rate(unit: str) -> str:
    """The unit of a time derivative: "rad" → "rad/s", "m/s" → "m/s2", "1" → "1/s"."""
    if not unit:
        return ""
    num, _, den = unit.partition("/")
    match = re.fullmatch(r"s(\d*)", den)
    if not den:
        return f"{num}/s"
    if match:
        return f"{num}/s{int(match.group(1) or 1) + 1}"
    return f"{num}/{den}.s"


def model_description(identifier: str, guid: str, kinds: tuple[bool, bool], vars_: list,
                      description: str, tolerance: float, sources: list[str],
                      version: str) -> str:
    """The XML text. ``kinds`` = (model exchange, co-simulation)."""
    structured = all(_STRUCTURED.match(v.name) or _STRUCTURED.match(v.name[4:-1])
                     for v in vars_)
    root = ET.Element("fmiModelDescription", {
        "fmiVersion": "2.0", "modelName": identifier, "guid": guid,
        "description": description, "generationTool": f"jourdain {version}",
        "variableNamingConvention": "structured" if structured else "flat",
        "numberOfEventIndicators": "0"})
    common = {"modelIdentifier": identifier, "canNotUseMemoryManagementFunctions": "true",
              "canGetAndSetFMUstate": "true", "canSerializeFMUstate": "true"}
    for enabled, tag, extra in ((kinds[0], "ModelExchange",
                                 {"completedIntegratorStepNotNeeded": "true"}),
                                (kinds[1], "CoSimulation",
                                 {"canHandleVariableCommunicationStepSize": "true"})):
        if enabled:
            element = ET.SubElement(root, tag, {**common, **extra})
            files = ET.SubElement(element, "SourceFiles")
            for name in sources:
                ET.SubElement(files, "File", {"name": name})
    _units(root, vars_)
    ET.SubElement(ET.SubElement(root, "LogCategories"), "Category",
                  {"name": "logStatusError", "description": "errors"})
    ET.SubElement(root, "DefaultExperiment", {"startTime": "0.0",
                                              "tolerance": repr(float(tolerance))})
    _model_variables(root, vars_)
    _structure(root, vars_)
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


def _units(root, vars_: list) -> None:
    used = sorted({v.unit for v in vars_ if v.unit})
    if not used:
        return
    defs = ET.SubElement(root, "UnitDefinitions")
    for unit in used:
        element = ET.SubElement(defs, "Unit", {"name": unit})
        parsed = base_units(unit)
        if parsed is not None:
            exps, factor = parsed
            attrs = {b: str(exps[b]) for b in BASE if b in exps}
            if factor != 1.0:
                attrs["factor"] = repr(factor)
            ET.SubElement(element, "BaseUnit", attrs)


def _model_variables(root, vars_: list) -> None:
    group = ET.SubElement(root, "ModelVariables")
    for vr, v in enumerate(vars_):
        if v.hidden:
            continue
        attrs = {"name": v.name, "valueReference": str(vr), "causality": v.causality,
                 "variability": v.variability}
        if v.description:
            attrs["description"] = v.description
        if v.initial:
            attrs["initial"] = v.initial
        element = ET.SubElement(group, "ScalarVariable", attrs)
        real = {}
        if v.start is not None:
            real["start"] = repr(float(v.start))
        if v.unit:
            real["unit"] = v.unit
        if v.derivative is not None:
            real["derivative"] = str(v.derivative)
        ET.SubElement(element, "Real", real)


def _structure(root, vars_: list) -> None:
    structure = ET.SubElement(root, "ModelStructure")
    vars_ = [v for v in vars_ if not v.hidden]   # indices count the described variables
    outputs = [i + 1 for i, v in enumerate(vars_) if v.causality == "output"]
    derivatives = [i + 1 for i, v in enumerate(vars_) if v.derivative is not None]
    computed = [i + 1 for i, v in enumerate(vars_)     # states set at initialization
                if v.causality == "local" and v.initial in ("approx", "calculated")]
    for tag, indices in (("Outputs", outputs), ("Derivatives", derivatives),
                         ("InitialUnknowns", sorted(outputs + derivatives + computed))):
        if indices:
            group = ET.SubElement(structure, tag)
            for index in indices:
                ET.SubElement(group, "Unknown", {"index": str(index)})
