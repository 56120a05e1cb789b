"""Names to vectors, and unknown names reported with the closest known ones: shared by every
stage and consumer that takes values by dotted name."""
from __future__ import annotations

import numpy as np

from jourdain.blocks.errors import ModelError

from .checks import entry, mapping, unknown

__all__ = ["by_name", "check_quaternions", "require_system", "signal_units", "unknown"]


def by_name(values, names: list[str], what: str, kind: str,
            default: np.ndarray | None = None) -> np.ndarray:
    """The vector over ``names`` with the entries of the dict ``values`` set (finite numbers);
    the others from ``default`` (zeros if None). ``what`` names the argument in errors."""
    values = mapping(values, what, f"{kind} name")
    vec = np.zeros(len(names)) if default is None else np.array(default, dtype=float)
    for name, value in values.items():
        if name not in names:
            raise ModelError(unknown(what, name, names) + f" (a {kind} name is expected)")
        vec[names.index(name)] = entry(value, what, name)
    return vec


def check_quaternions(system, y: np.ndarray, where: str) -> None:
    """A ModelError naming the joint whose unit quaternion is zero (its orientation would be
    undefined; any other length is normalized)."""
    for start, path in getattr(system, "quaternions", []):
        if not np.linalg.norm(y[start:start + 4]) > 1e-12:
            raise ModelError(f"{where}: the quaternion {path}.q0..q3 is zero; give a unit "
                             f"quaternion (or leave {path}.q0..q3 out for the identity)")


def require_system(obj, where: str) -> None:
    """A ModelError unless ``obj`` is a compiled System (duck-typed: the wings never import
    the System class, which sits above them)."""
    if all(hasattr(obj, attr) for attr in ("functions", "x_names", "state", "parameters")):
        return
    hint = " (compile it first: system = jd.compile(model))" \
        if hasattr(obj, "connect") or isinstance(obj, type) else ""
    raise ModelError(f"{where}: expected a compiled jd.System, got {type(obj).__name__} "
                     f"{obj!r:.60}{hint}")


def signal_units(system) -> dict[str, str]:
    """{name: unit} ("" when unknown) of the inputs and outputs of a System. A closed loop
    (``jd.close_loop``) shares its plant's structure, whose units follow the plant's inputs and
    outputs: they are matched by name there, so a driven input keeps its unit as an output."""
    plant = getattr(system, "plant", None) or system
    s = plant.structure
    units = dict(zip(plant.u_names, getattr(s, "input_units", [])))
    units.update(zip(plant.output_names, getattr(s, "output_units", [])))
    return {n: units.get(n, "") for n in list(system.u_names) + list(system.output_names)}
