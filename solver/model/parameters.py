"""Parameters: every component parameter is numeric by default; selected ones become CasADi
symbols in the parameter vector p, so one compiled System serves many parameter values.

Ordering of p: components in declaration order, parameters in declaration order, and within a
parameter the entries of its shape (scalar; vector [0], [1], [2]; symmetric .xx .yy .zz .xy .xz
.yz).
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from jourdain.blocks.base import Component, Shape, parameter_fields
from jourdain.blocks.errors import ModelError

from .checks import entry, mapping, unknown
from .checks import name as check_name

_SYM_ENTRIES = (("xx", 0, 0), ("yy", 1, 1), ("zz", 2, 2), ("xy", 0, 1), ("xz", 0, 2), ("yz", 1, 2))


@dataclass
class ParameterSet:
    """The symbolic parameter vector p, its entry names and default values, and the constants."""

    names: list[str]
    p: ca.SX
    defaults: np.ndarray
    constants: dict[str, object]  # parameter name -> numeric value baked into the equations
    units: dict[str, str]
    # component -> [(field, shape, entry names, compiled value)] of its symbolic parameters
    owners: dict = field(default_factory=dict)
    constant_units: dict[str, str] = field(default_factory=dict)    # constant name -> unit
    constant_entries: dict[str, str] = field(default_factory=dict)  # entry -> constant name

    def __getstate__(self) -> dict:
        """Pickle without the symbols p (an SX needs a CasADi pickle context, and a compiled
        System only keeps the set for :meth:`check`): sweeps send Systems to worker
        processes (solver/studies)."""
        return {**self.__dict__, "p": None}

    def check(self, p: np.ndarray) -> None:
        """Run each component's ``validate`` at the parameter values p, so a negative mass
        given at run time is reported as such, with the component's path, like one given
        at compile time."""
        values = dict(zip(self.names, np.asarray(p, dtype=float).ravel()))
        for comp, fields in self.owners.items():
            numeric = {}
            for fld, shape, entries, value in fields:
                filled = [values.get(e, v) for e, v in zip(entries, _defaults(value, shape))]
                numeric[fld] = _from_entries(filled, shape)
            try:
                comp.with_parameters(numeric).validate()
            except ModelError as exc:
                raise ModelError(f"params: {exc}") from None
            except (TypeError, ValueError) as exc:
                raise ModelError(f"params: {comp.path}: invalid parameter: {exc}") from None


def _entry_names(name: str, shape: Shape) -> list[str]:
    if shape is Shape.SCALAR:
        return [name]
    if shape is Shape.VECTOR3:
        return [f"{name}[{i}]" for i in range(3)]
    return [f"{name}.{e}" for e, _, _ in _SYM_ENTRIES]


def _numeric(value, shape: Shape):
    if shape is Shape.SYMMETRIC3:
        return ca.DM(np.asarray(value, dtype=float).reshape(3, 3))
    if shape is Shape.VECTOR3:
        return ca.DM(np.asarray(value, dtype=float).reshape(3))
    return float(value)


def _from_entries(values: list[float], shape: Shape):
    """A parameter value from its entries (the inverse of :func:`_defaults`)."""
    if shape is Shape.SCALAR:
        return values[0]
    if shape is Shape.VECTOR3:
        return tuple(values)
    mat = np.zeros((3, 3))
    for v, (_, i, j) in zip(values, _SYM_ENTRIES):
        mat[i, j] = mat[j, i] = v
    return mat


def _symbolic(entries: list[str], shape: Shape, selected: set[str], value):
    """The parameter value with the selected entries as symbols and the others numeric."""
    numeric = _defaults(value, shape)
    syms = {e: ca.SX.sym(e) for e in entries if e in selected}
    parts = [syms.get(e, ca.SX(v)) for e, v in zip(entries, numeric)]
    if shape is Shape.SYMMETRIC3:
        mat = ca.SX.zeros(3, 3)
        for part, (_, i, j) in zip(parts, _SYM_ENTRIES):
            mat[i, j] = part
            mat[j, i] = part
        return syms, mat
    return syms, (ca.vertcat(*parts) if shape is Shape.VECTOR3 else parts[0])


def _defaults(value, shape: Shape) -> list[float]:
    arr = np.asarray(value, dtype=float)
    if shape is Shape.SYMMETRIC3:
        arr = arr.reshape(3, 3)
        return [float(arr[i, j]) for _, i, j in _SYM_ENTRIES]
    return [float(v) for v in arr.ravel()]


def instantiate(components: list[Component], symbolic=()) -> tuple[dict, ParameterSet]:
    """Copies of the components with CasADi-valued parameters, and the parameter set.

    ``symbolic`` lists parameter names (``cube.housing.m``, ``cube.housing.I``), single entries
    (``cube.housing.I.zz``, ``world.g[1]``; the other entries stay numeric) or component paths
    (``cube.housing`` selects all its parameters).
    """
    wanted = set(_symbolic_names(symbolic))
    used: set[str] = set()
    owners: dict = {}
    all_names: list[str] = []
    instances, names, syms, defaults, constants, units = {}, [], [], [], {}, {}
    constant_units, constant_entries = {}, {}
    for comp in components:
        values = {}
        for fld in parameter_fields(comp):
            name, shape = f"{comp.path}.{fld.name}", fld.metadata["shape"]
            entries = _entry_names(name, shape)
            all_names += [name, *entries]
            whole = {w for w in wanted if w == name or name.startswith(w + ".")}
            single = {w for w in wanted if w in entries and w != name}
            used |= whole | single
            selected = set(entries) if whole else single
            value = getattr(comp, fld.name)
            if selected:
                entry_syms, values[fld.name] = _symbolic(entries, shape, selected, value)
                owners.setdefault(comp, []).append((fld.name, shape, entries, value))
                for e, v in zip(entries, _defaults(value, shape)):
                    if e in entry_syms:
                        names.append(e)
                        syms.append(entry_syms[e])
                        defaults.append(v)
                        units[e] = fld.metadata["unit"]
            else:
                values[fld.name] = _numeric(value, shape)
                constants[name] = value
                constant_units[name] = fld.metadata["unit"]
                constant_entries.update({e: name for e in entries})
        instances[comp] = comp.with_parameters(values)
    _check_unknown(wanted - used, all_names)
    p = ca.vertcat(*syms) if syms else ca.SX(0, 1)
    return instances, ParameterSet(names, p, np.array(defaults, dtype=float), constants, units,
                                   owners, constant_units, constant_entries)


def _symbolic_names(symbolic) -> list[str]:
    """compile's ``parameters``: an iterable of names (not a bare string, not a dict)."""
    if symbolic is None:
        return []
    if isinstance(symbolic, str):
        raise ModelError(f"parameters: give a list of names, e.g. parameters=['{symbolic}'], "
                         f"not the bare string '{symbolic}'")
    if isinstance(symbolic, dict):
        raise ModelError("parameters: lists the names to keep symbolic, e.g. parameters="
                         f"{list(symbolic)!r}; their values are given later, by name, with "
                         "params={...} in simulate, linearize or TrajectoryProblem")
    try:
        names = list(symbolic)
    except TypeError:
        raise ModelError(f"parameters: expected a list of names, got {symbolic!r}") from None
    return [check_name(n, "parameters") for n in names]


def parameter_vector(system, params) -> np.ndarray:
    """The parameter vector p of a compiled system: the defaults with the symbolic ones in
    ``params`` (a dict by name, finite values) replaced, checked by each component's
    ``validate`` (a negative mass is a ModelError naming the body)."""
    params = mapping(params, "params", "parameter name")
    p = np.array(system.p_default, dtype=float)
    for key, value in params.items():
        if key in system.p_names:
            p[system.p_names.index(key)] = entry(value, "params", key)
        elif key in system.structure.constants or key in constant_entries(system):
            raise ModelError(f"params: '{key}' was compiled as a constant; declare it "
                             f"symbolic with jd.compile(..., parameters=['{key}'])")
        else:
            raise ModelError(unknown_parameter(system, key))
    check = getattr(system, "check_parameters", None)
    if params and check is not None:
        check(p)
    hybrid = getattr(system, "hybrid", None)
    if params and hybrid is not None:
        hybrid.check_discrete(p, params)   # a mode no transition knows (floor.mode = 7)
    return p


def constant_entries(system) -> dict[str, str]:
    """Entry name (``p.bob.I.zz``, ``world.g[1]``) -> the constant parameter it belongs to."""
    return getattr(system.structure, "constant_entries", {}) or {}


def unknown_parameter(system, key: str) -> str:
    """A name that is neither a symbolic nor a constant parameter, with the closest names of
    both kinds (a misspelt constant is told it is one, and how to make it symbolic)."""
    known = dict.fromkeys([*system.p_names, *system.structure.constants,
                           *constant_entries(system)])
    close = difflib.get_close_matches(str(key), list(known), n=3)
    if not close:
        return unknown("params", key, system.p_names)
    said = [f"{c} (a constant: jd.compile(..., parameters=['{c}']) makes it symbolic)"
            if c not in system.p_names else c for c in close]
    return f"params: unknown name '{key}'; did you mean {', '.join(said)}?"


def _check_unknown(unknown: set, known: list[str]) -> None:
    if not unknown:
        return
    name = sorted(unknown)[0]
    close = difflib.get_close_matches(name, known, n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else "; see System.report() for names"
    raise ModelError(f"parameters: no parameter or component named '{name}'{hint}")
