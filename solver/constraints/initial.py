"""Consistent initial states of a constrained System (DESIGN.md §3.7): the coordinates the user
gives are held and the others assembled from the reference configuration by continuation;
speeds are completed from the independent ones through w = G(y)·z; a complete x0 is checked
against the constraints. The System's ``assemble`` and ``state`` delegate here.
"""
from __future__ import annotations

import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.checks import entry, mapping, vector
from ..model.names import by_name, unknown
from .assembly import assemble
from .methods import ConstraintMethod


def assemble_coordinates(system, y0: dict | None = None, params: dict | None = None) -> np.ndarray:
    """Coordinates satisfying the closure equations, with the coordinates given in ``y0``
    held fixed (independent or dependent ones alike: the rocker angle of a four-bar fixes
    the crank angle) and the others assembled from the reference configuration.

    When the given coordinates over-determine the mechanism (e.g. a complete y from an
    earlier result), the given dependent coordinates are freed again and must then be met
    to 1e-6; otherwise a ModelError names them and the values the constraints require.
    """
    y0 = mapping(y0, "y0", "coordinate name")
    y = by_name(y0, system.y_names, "y0", "coordinate", system.y_ref)
    p = system.parameters(params)
    if not np.array(system.c(y, p)).size:
        return y
    held = {system.y_names.index(n) for n in y0}
    given_dep = [i for i in system.partition.dependent_coordinates if i in held]
    try:
        return _assemble_from_reference(system, y, p, held)
    except ModelError:
        if not given_dep:
            raise
    current = _assemble_overdetermined(system, y, p, held, given_dep)
    unmet = [i for i in given_dep if abs(current[i] - y[i]) > 1e-6 * max(1.0, abs(y[i]))]
    if unmet:
        held = [n for n in y0 if system.y_names.index(n) not in given_dep]
        raise ModelError(
            "y0: " + ", ".join(f"{system.y_names[i]} = {y[i]:.6g}" for i in unmet) +
            " cannot be met under the constraints of " +
            ", ".join(dict.fromkeys(system.constraint_owners)) + " (nearest assembled: " +
            ", ".join(f"{system.y_names[i]} = {current[i]:.6g}" for i in unmet) +
            (", with " + ", ".join(held) + " held" if held else "") + "); give other "
            "values, or only independent coordinates such as " +
            ", ".join(independent_coordinates(system)))
    return current


def _assemble_overdetermined(system, y: np.ndarray, p: np.ndarray, held: set,
                             given_dep: list[int]) -> np.ndarray:
    """Given dependent coordinates freed: Newton first from the given values themselves
    (a complete y from an earlier result, whose ball-joint quaternions also carry
    independent directions such as a coupler's spin that no continuation from the
    reference can know), else by continuation from the reference."""
    released = held - set(given_dep)
    free = system.mover.free_directions(released)
    try:
        near = assemble(system.mover, y, p, free, system.y_names, system.constraint_owners)
    except ModelError:
        near = None
    if near is not None and all(abs(near[i] - y[i]) <= 1e-6 * max(1.0, abs(y[i]))
                                for i in given_dep):
        return near
    return _assemble_from_reference(system, y, p, released)


def independent_coordinates(system) -> list[str]:
    dep = set(system.partition.dependent_coordinates)
    return [system.y_names[i] for i in range(len(system.y_names)) if i not in dep]


def _assemble_from_reference(system, y: np.ndarray, p: np.ndarray, held: set) -> np.ndarray:
    """Continuation from the reference assembly in steps of at most 0.2 (rad or m) of the
    held coordinates, so Newton stays on the reference's assembly branch (no flipped
    elbow); only moves that change no held coordinate are free (a ball joint's quaternion
    moves as a whole, so giving one of its entries holds it)."""
    free = system.mover.free_directions(held)
    fixed = sorted(held)
    steps = int(np.ceil(np.abs(y[fixed] - system.y_ref[fixed]).max(initial=0.0) / 0.2))
    current = system.y_ref.copy()
    for k in range(1, steps + 1):
        # the last step lands on the given values themselves (held means held, not
        # y_ref + (y − y_ref) with its round-off: 0.29999999999999993 for 0.3)
        current[fixed] = y[fixed] if k == steps else \
            system.y_ref[fixed] + k / steps * (y[fixed] - system.y_ref[fixed])
        try:
            current = assemble(system.mover, current, p, free, system.y_names,
                               system.constraint_owners)
        except ModelError as exc:
            wanted = ", ".join(f"{system.y_names[i]} = {y[i]:.6g}" for i in fixed)
            raise ModelError(f"{exc} [on the way from the reference assembly to the "
                             f"requested {wanted}]") from exc
    if steps:
        return current
    return assemble(system.mover, y, p, free, system.y_names, system.constraint_owners)


def constrained_state(system, y0: dict | None = None, z0: dict | None = None,
          params: dict | None = None) -> np.ndarray:
    """x0 from independent coordinates and speeds by name; the rest is assembled. Given
    dependent speeds must agree with the constraints; component states (``s_names``) may be
    given in z0 and default to their start values."""
    y = assemble_coordinates(system, y0, params)
    p = system.parameters(params)
    _check_defined(system, y, p)
    z0 = mapping(z0, "z0", "speed name")
    s_names = list(getattr(system, "s_names", []))
    known = system.z_names + [n for n in system.speed_names if n not in system.z_names]
    for name in z0:
        if name not in known + s_names:
            raise ModelError(unknown("z0", name, known + s_names) + " (a speed name is expected)")
    z0 = {name: entry(value, "z0", name) for name, value in z0.items()}
    s0 = np.array(getattr(system, "s_default", np.zeros(len(s_names))), dtype=float).copy()
    for name in [n for n in z0 if n in s_names]:
        s0[s_names.index(name)] = float(z0.pop(name))
    z_ind = np.array([float(z0.get(n, 0.0)) for n in independent_keys(system)])
    w = np.array(system.G(y, p)).dot(z_ind).ravel()
    _check_speeds(system, z0, w)
    if system.method is ConstraintMethod.PARTITIONING:
        return np.concatenate([y, z_ind, s0])
    return np.concatenate([y, w, s0])


def _check_defined(system, y: np.ndarray, p: np.ndarray) -> None:
    """The constraint matrices must be finite at the initial configuration."""
    A, G = np.array(system.A(y, p)), np.array(system.G(y, p))
    if np.isfinite(A).all() and np.isfinite(G).all():
        return
    rows = [r for i, r in enumerate(system.partition.velocity_rows)
            if not np.isfinite(A[i]).all()] or system.partition.velocity_rows
    owners = ", ".join(dict.fromkeys(system.constraint_owners[r] for r in rows))
    raise ModelError(
        f"the constraints of {owners} are undefined at the initial configuration (" +
        ", ".join(f"{n} = {v:.6g}" for n, v in zip(system.y_names, y)) + "): e.g. a rolling "
        "disk lying flat on the ground (axle vertical) or a singular position of a loop; "
        "give other initial coordinates")


def check_consistent(system, x: np.ndarray, p: np.ndarray, tol: float = 1e-6) -> None:
    """A state given as x0 must satisfy the constraints (after the Newton projection of
    the dependent coordinates, with partitioning) to ``tol`` [m, rad, m/s, rad/s]."""
    x = vector(x, system.x_names, "x0")
    if "project" in system.functions:
        x = np.array(system.functions["project"](x, p)).ravel()
    pos, vel = (np.array(r, dtype=float).ravel() for r in system.residuals(x, p))
    res = np.concatenate([pos, vel])       # vel rows: [C·N; B], owners as c then b
    if res.size and not np.abs(res).max() <= tol:
        i = int(np.argmax(np.where(np.isfinite(res), np.abs(res), np.inf)))
        owner = system.constraint_owners[i if i < pos.size else i - pos.size]
        raise ModelError(
            f"x0 violates the constraints of {owner} by "
            f"{abs(res[i]):.3g} (tolerance {tol:g}); assemble a consistent state with "
            "system.state(y0, z0) or simulate(y0=..., z0=...)")


def independent_keys(system) -> list[str]:
    if system.method is ConstraintMethod.PARTITIONING:
        return system.z_names
    return system.independent_speeds


def _check_speeds(system, z0: dict, w: np.ndarray) -> None:
    for name, value in z0.items():
        if name in system.speed_names:
            j = system.speed_names.index(name)
            if abs(w[j] - float(value)) > 1e-9 * max(1.0, abs(float(value))):
                raise ModelError(
                    f"initial speeds violate the constraints: {name} = {float(value):.6g} "
                    f"but the constraints of {', '.join(dict.fromkeys(system.constraint_owners))}"
                    f" require {w[j]:.6g} given the independent speeds "
                    f"{', '.join(independent_keys(system))}; give only those")
