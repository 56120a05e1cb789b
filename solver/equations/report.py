"""Showing a System to people: the structure report and the equations in sympy form."""
from __future__ import annotations

import casadi as ca
import numpy as np
import sympy as sp

from ..model import checks
from .pretty import format_equations, simplify_matrix, sx_to_sympy


def structure_report(system) -> str:
    s = system.structure
    lines = [f"System ({system.formulation.value} formulation)",
             f"  bodies ({len(s.bodies)}): " + ", ".join(s.bodies),
             f"  joints ({len(s.joints)}): " + ", ".join(s.joints)]
    if s.forces:
        lines.append(f"  force elements ({len(s.forces)}): " + ", ".join(s.forces))
    if s.signal_blocks:
        lines.append(f"  signal blocks ({len(s.signal_blocks)}): " + ", ".join(s.signal_blocks))
    for label, parts in (("1-D bodies and couplings", getattr(s, "one_dim", [])),
                         ("electrical components", getattr(s, "electrical", []))):
        if parts:
            lines.append(f"  {label} ({len(parts)}): " + ", ".join(parts))
    lines.append(f"  coordinates y ({len(system.y_names)}):")
    lines += [f"    {n} [{u}]" for n, u in zip(system.y_names, s.coordinate_units)]
    lines.append(f"  speeds z ({len(system.z_names)}), z = W(y)·w (w: joint speeds, ẏ for scalar joints):")
    lines += [f"    {d}" for d in s.speed_definitions]
    if system.s_names:
        lines.append(f"  component states s ({len(system.s_names)}): " +
                     ", ".join(system.s_names))
    lines.append(f"  inputs u ({len(system.u_names)}): " + (", ".join(system.u_names) or "none"))
    lines.append(f"  symbolic parameters p ({len(system.p_names)}): " +
                 (", ".join(f"{n}={v:g}" for n, v in zip(system.p_names, system.p_default))
                  or "none"))
    constants = constant_rows(s)
    lines.append(f"  constant parameters ({len(constants)})" + (":" if constants else ": none"))
    lines += [f"    {n} = {v}" + (f" [{u}]" if u else "") for n, u, v in constants]
    lines.append(f"  outputs ({len(system.output_names)}): " +
                 (", ".join(system.output_names) or "none"))
    ops = {k: system.functions[k].n_instructions() for k in ("M", "k", "f")}
    lines.append("  operation counts: " + ", ".join(f"{k}: {v}" for k, v in ops.items()))
    if getattr(s, "default_speed_ops", None):
        lines.append("    (with the joint speeds as generalized speeds: " +
                     ", ".join(f"{k}: {v}" for k, v in s.default_speed_ops.items()) + ")")
    return "\n".join(lines)


def _symbol_map(system, symbols: dict) -> dict:
    """Name -> sympy expression: a string becomes a Symbol, a sympy expression is kept (so
    ``{"world.g[1]": -sympy.Symbol("g")}`` prints gravity as textbooks do)."""
    names = system.y_names + system.z_names + system.u_names + system.p_names + system.s_names
    symbols = checks.mapping(symbols, "equations: symbols", "name")

    def to_sympy(name: str):
        value = symbols.get(name, name.replace(".", "_"))
        return sp.Symbol(value) if isinstance(value, str) else value
    return {n: to_sympy(n) for n in names}


def sympy_equations(system, symbols: dict, simplify: bool):
    """(M, k, q) as sympy matrices, symbols renamed through ``symbols``."""
    mapping = _symbol_map(system, symbols)
    ny, nz, nu, np_ = (len(system.y_names), len(system.z_names), len(system.u_names),
                       len(system.p_names))
    y, z = ca.SX.sym("y", ny), ca.SX.sym("z", nz)
    u, p, t = ca.SX.sym("u", nu), ca.SX.sym("p", np_), ca.SX.sym("t")
    s = ca.SX.sym("s", len(system.s_names))
    q_args = (t, y, z, u, p, s) if system.s_names else (t, y, z, u, p)
    exprs = [system.M(y, p), system.k(y, z, p), system.q(*q_args)]
    flat = {}
    for vec, names in ((y, system.y_names), (z, system.z_names), (u, system.u_names),
                       (p, system.p_names), (s, system.s_names)):
        for i, n in enumerate(names):
            flat[vec[i].name()] = mapping[n]
    out = [sx_to_sympy(e, flat) for e in exprs]
    return tuple(simplify_matrix(m) for m in out) if simplify else tuple(out)


def equations_text(system, symbols: dict, simplify: bool) -> str:
    M, k, q = sympy_equations(system, symbols, simplify)
    zdots = [sp.Symbol(str(_symbol_map(system, symbols)[n]) + "'") for n in system.z_names]
    return format_equations(M, k, q, zdots)


def constant_rows(structure) -> list[tuple[str, str, str]]:
    """(name, unit, value as text) of every constant parameter, in declaration order: a
    scalar as a number, a vector as a tuple, an inertia tensor as diag(...) when diagonal."""
    units = getattr(structure, "constant_units", {}) or {}
    return [(name, units.get(name, ""), _value_text(value))
            for name, value in structure.constants.items()]


def _value_text(value) -> str:
    arr = np.asarray(value, dtype=float)
    if arr.ndim == 0:
        return f"{float(arr):g}"
    if arr.shape == (3, 3) and not np.any(arr - np.diag(np.diag(arr))):
        return "diag(" + ", ".join(f"{v:g}" for v in np.diag(arr)) + ")"
    if arr.ndim == 1:
        return "(" + ", ".join(f"{v:g}" for v in arr) + ")"
    return "[" + "; ".join(", ".join(f"{v:g}" for v in row) for row in arr) + "]"
