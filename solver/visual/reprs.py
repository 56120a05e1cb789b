"""Rich HTML summaries for Jupyter: the System (its structure report as tables), a
LinearSystem (operating point, modes), a Feedback (the gain by input and state, closed-loop
eigenvalues). Duck-typed: the classes delegate here without this wing importing them."""
from __future__ import annotations

import numpy as np

from ..equations.report import constant_rows
from ..model.names import signal_units
from . import tables


def system_html(system) -> str:
    """Bodies, joints, coordinates, speeds, inputs, outputs and parameters with units."""
    s = system.structure
    lines = [f"{len(s.bodies)} bodies, {len(s.joints)} joints, {len(s.forces)} force elements,"
             f" {len(s.signal_blocks)} signal blocks"]
    if getattr(system, "method", None) is not None:
        lines.append(f"constraints: {system.method.value}; dependent coordinates: " +
                     (", ".join(system.dependent_coordinates) or "none"))
    ops = {k: system.functions[k].n_instructions() for k in ("M", "k", "f")}
    lines.append("operation counts: " + ", ".join(f"{k}: {v}" for k, v in ops.items()))
    states = [[n, "coordinate y", tables.unit(u), d] for n, u, d in
              zip(system.y_names, s.coordinate_units, system.y_default)]
    states += [[n, "speed z", tables.unit(u), ""] for n, u in zip(system.z_names, s.speed_units)]
    states += [[n, "signal state s", "", ""] for n in system.s_names]
    units = signal_units(system)
    signals = [[n, "input u", tables.unit(units[n])] for n in system.u_names]
    signals += [[n, "output", tables.unit(units[n])] for n in system.output_names]
    params = [[n, tables.unit(s.parameter_units.get(n, "")), v]
              for n, v in zip(system.p_names, system.p_default)]
    constants = [[n, tables.unit(u), v] for n, u, v in constant_rows(s)]
    parts = [tables.table("states x", ["name", "kind", "unit", "default"], states, (3,))]
    if signals:
        parts.append(tables.table("inputs and outputs", ["name", "kind", "unit"], signals))
    if params:
        parts.append(tables.table("symbolic parameters p", ["name", "unit", "default"],
                                  params, (2,)))
    if constants:
        parts.append(tables.table("constant parameters", ["name", "unit", "value"], constants))
    title = f"System ({system.formulation.value} formulation)"
    return tables.section(title, lines, parts)


def linear_html(lin) -> str:
    """Kind of operating point, sizes, and the modes (eigenvalue, frequency, damping,
    dominant states)."""
    rows = [[f"{m.eigenvalue.real:+.4g}{m.eigenvalue.imag:+.4g}j", m.frequency, m.damping,
             ", ".join(m.dominant)] for m in lin.modes()]
    lines = [f"{len(lin.state_names)} states, {len(lin.input_names)} inputs, "
             f"{len(lin.output_names)} outputs"]
    return tables.section(f"LinearSystem ({lin.kind})", lines, [tables.table(
        "modes", ["λ [1/s]", "f [Hz]", "ζ", "dominant states"], rows, (1, 2))])


def feedback_html(fb) -> str:
    """The gain K (rows: inputs, columns: states) and the closed-loop eigenvalues."""
    eig = ", ".join(f"{lam:.4g}" for lam in np.asarray(fb.closed_loop))
    lines = [f"closed-loop eigenvalues [1/s]: {eig}"]
    if len(fb.uncontrollable):
        lines.append("kept by A (uncontrollable): " +
                     ", ".join(f"{lam:.4g}" for lam in np.asarray(fb.uncontrollable)))
    return tables.section("Feedback u = u_op − K·(x − x_op)", lines,
                          [tables.matrix("K", fb.K, fb.input_names, fb.state_names)])
