"""The compiled constrained System: everything a System has, plus the constraint functions
A(y, p) (independent rows, in the joint speeds w), G(y, p) (A·G = 0, w = G·z), c(y, p) (all
closure equations), residuals(x, p), the assembled reference configuration, the partition into
dependent and independent coordinates and speeds, and seed 002's classification.

Extra functions by method: ``project(x, p)`` (partitioning: the dependent coordinates by
Newton), ``dae`` and ``multipliers`` (Baumgarte and DAE: constraint forces λ), ``m_gen(q, p)``
for one-DOF mechanisms (seed 003).
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from .assembly import assemble, projector
from .constrained import (ConstraintMethod, analyze, check_generic_rank, constraint_functions,
                          integrability_of, multiplier_functions, one_dof_mass,
                          partitioned_functions, speeds_for, state_expr)
from .dynamics import jourdain
from .mechanics import Mechanics
from .system import (Formulation, System, _by_name, _functions, _names, _unknown,
                     structure_of)


class ConstrainedSystem(System):
    """A System with constraints; x = (y, z) (partitioning) or x = (y, w) (Baumgarte, DAE)."""

    def __init__(self, base: tuple, method: ConstraintMethod, info: dict):
        super().__init__(*base)
        self.method = method
        self.y_ref: np.ndarray = info["y_ref"]
        self.partition = info["partition"]
        self._classify = info["integrability"]
        self._integrability = None
        self.constraint_owners: list[str] = info["owners"]
        self.speed_names: list[str] = info["speed_names"]      # all joint speeds w
        self.dependent_coordinates = [self.y_names[i] for i in self.partition.dependent_coordinates]
        self.dependent_speeds = [self.speed_names[j] for j in self.partition.dependent_speeds]
        self.independent_speeds = [self.speed_names[j]
                                   for j in self.partition.independent_speeds]
        self._mover = info["mover"]

    @property
    def integrability(self):
        """Seed 002's classification (computed on first use: the Lie brackets take time)."""
        if self._integrability is None:
            self._integrability = self._classify()
        return self._integrability

    @property
    def f_dof(self) -> int:
        """Position DOF f (seed 002)."""
        return self.integrability.f

    @property
    def g_dof(self) -> int:
        """Velocity DOF g (seed 002)."""
        return self.integrability.g

    # ---- consistent initial states -----------------------------------------------------
    def assemble(self, y0: dict | None = None, params: dict | None = None) -> np.ndarray:
        """Coordinates satisfying the closure equations, with the coordinates given in ``y0``
        held fixed (independent or dependent ones alike: the rocker angle of a four-bar fixes
        the crank angle) and the others assembled from the reference configuration.

        When the given coordinates over-determine the mechanism (e.g. a complete y from an
        earlier result), the given dependent coordinates are freed again and must then be met
        to 1e-6; otherwise a ModelError names them and the values the constraints require.
        """
        y0 = y0 or {}
        y = _by_name(y0, self.y_names, "y0", "coordinate", self.y_ref)
        p = self.parameters(params)
        if not np.array(self.c(y, p)).size:
            return y
        held = {self.y_names.index(n) for n in y0}
        given_dep = [i for i in self.partition.dependent_coordinates if i in held]
        try:
            return self._assemble_from_reference(y, p, held)
        except ModelError:
            if not given_dep:
                raise
        current = self._assemble_overdetermined(y, p, held, given_dep)
        unmet = [i for i in given_dep if abs(current[i] - y[i]) > 1e-6 * max(1.0, abs(y[i]))]
        if unmet:
            held = [n for n in y0 if self.y_names.index(n) not in given_dep]
            raise ModelError(
                "y0: " + ", ".join(f"{self.y_names[i]} = {y[i]:.6g}" for i in unmet) +
                " cannot be met under the constraints of " +
                ", ".join(dict.fromkeys(self.constraint_owners)) + " (nearest assembled: " +
                ", ".join(f"{self.y_names[i]} = {current[i]:.6g}" for i in unmet) +
                (", with " + ", ".join(held) + " held" if held else "") + "); give other "
                "values, or only independent coordinates such as " +
                ", ".join(self._independent_coordinates()))
        return current

    def _assemble_overdetermined(self, y: np.ndarray, p: np.ndarray, held: set,
                                 given_dep: list[int]) -> np.ndarray:
        """Given dependent coordinates freed: Newton first from the given values themselves
        (a complete y from an earlier result, whose ball-joint quaternions also carry
        independent directions such as a coupler's spin that no continuation from the
        reference can know), else by continuation from the reference."""
        released = held - set(given_dep)
        free = self._mover.free_directions(released)
        try:
            near = assemble(self._mover, y, p, free, self.y_names, self.constraint_owners)
        except ModelError:
            near = None
        if near is not None and all(abs(near[i] - y[i]) <= 1e-6 * max(1.0, abs(y[i]))
                                    for i in given_dep):
            return near
        return self._assemble_from_reference(y, p, released)

    def _independent_coordinates(self) -> list[str]:
        dep = set(self.partition.dependent_coordinates)
        return [self.y_names[i] for i in range(len(self.y_names)) if i not in dep]

    def _assemble_from_reference(self, y: np.ndarray, p: np.ndarray, held: set) -> np.ndarray:
        """Continuation from the reference assembly in steps of at most 0.2 (rad or m) of the
        held coordinates, so Newton stays on the reference's assembly branch (no flipped
        elbow); only moves that change no held coordinate are free (a ball joint's quaternion
        moves as a whole, so giving one of its entries holds it)."""
        free = self._mover.free_directions(held)
        fixed = sorted(held)
        steps = int(np.ceil(np.abs(y[fixed] - self.y_ref[fixed]).max(initial=0.0) / 0.2))
        current = self.y_ref.copy()
        for k in range(1, steps + 1):
            current[fixed] = self.y_ref[fixed] + k / steps * (y[fixed] - self.y_ref[fixed])
            try:
                current = assemble(self._mover, current, p, free, self.y_names,
                                   self.constraint_owners)
            except ModelError as exc:
                wanted = ", ".join(f"{self.y_names[i]} = {y[i]:.6g}" for i in fixed)
                raise ModelError(f"{exc} [on the way from the reference assembly to the "
                                 f"requested {wanted}]") from exc
        if steps:
            return current
        return assemble(self._mover, y, p, free, self.y_names, self.constraint_owners)

    def state(self, y0: dict | None = None, z0: dict | None = None,
              params: dict | None = None) -> np.ndarray:
        """x0 from independent coordinates and speeds by name; the rest is assembled. Given
        dependent speeds must agree with the constraints."""
        y = self.assemble(y0, params)
        p = self.parameters(params)
        self._check_defined(y, p)
        z0 = dict(z0 or {})
        known = self.z_names + [n for n in self.speed_names if n not in self.z_names]
        for name in z0:
            if name not in known:
                raise ModelError(_unknown("z0", name, known) + " (a speed name is expected)")
        z_ind = np.array([float(z0.get(n, 0.0)) for n in self._independent_keys()])
        w = np.array(self.G(y, p)).dot(z_ind).ravel()
        self._check_speeds(z0, w)
        if self.method is ConstraintMethod.PARTITIONING:
            return np.concatenate([y, z_ind])
        return np.concatenate([y, w])

    def _check_defined(self, y: np.ndarray, p: np.ndarray) -> None:
        """The constraint matrices must be finite at the initial configuration."""
        A, G = np.array(self.A(y, p)), np.array(self.G(y, p))
        if np.isfinite(A).all() and np.isfinite(G).all():
            return
        rows = [r for i, r in enumerate(self.partition.velocity_rows)
                if not np.isfinite(A[i]).all()] or self.partition.velocity_rows
        owners = ", ".join(dict.fromkeys(self.constraint_owners[r] for r in rows))
        raise ModelError(
            f"the constraints of {owners} are undefined at the initial configuration (" +
            ", ".join(f"{n} = {v:.6g}" for n, v in zip(self.y_names, y)) + "): e.g. a rolling "
            "disk lying flat on the ground (axle vertical) or a singular position of a loop; "
            "give other initial coordinates")

    def _check_consistent(self, x: np.ndarray, p: np.ndarray, tol: float = 1e-6) -> None:
        """A state given as x0 must satisfy the constraints (after the Newton projection of
        the dependent coordinates, with partitioning) to ``tol`` [m, rad, m/s, rad/s]."""
        if "project" in self.functions:
            x = np.array(self.functions["project"](x, p)).ravel()
        pos, vel = (np.array(r, dtype=float).ravel() for r in self.residuals(x, p))
        res = np.concatenate([pos, vel])       # vel rows: [C·N; B], owners as c then b
        if res.size and not np.abs(res).max() <= tol:
            i = int(np.argmax(np.where(np.isfinite(res), np.abs(res), np.inf)))
            owner = self.constraint_owners[i if i < pos.size else i - pos.size]
            raise ModelError(
                f"x0 violates the constraints of {owner} by "
                f"{abs(res[i]):.3g} (tolerance {tol:g}); assemble a consistent state with "
                "system.state(y0, z0) or simulate(y0=..., z0=...)")

    def _independent_keys(self) -> list[str]:
        if self.method is ConstraintMethod.PARTITIONING:
            return self.z_names
        return self.independent_speeds

    def _check_speeds(self, z0: dict, w: np.ndarray) -> None:
        for name, value in z0.items():
            if name in self.speed_names:
                j = self.speed_names.index(name)
                if abs(w[j] - float(value)) > 1e-9 * max(1.0, abs(float(value))):
                    raise ModelError(
                        f"initial speeds violate the constraints: {name} = {float(value):.6g} "
                        f"but the constraints of {', '.join(dict.fromkeys(self.constraint_owners))}"
                        f" require {w[j]:.6g} given the independent speeds "
                        f"{', '.join(self._independent_keys())}; give only those")

    def simulate(self, t_end: float, **options):
        """Integrate: CVODES for partitioning and Baumgarte, IDAS for the DAE method."""
        params = options.get("params")
        y0, z0, x0 = options.pop("y0", None), options.pop("z0", None), options.pop("x0", None)
        if x0 is None:
            x0 = self.state(y0, z0, params)
        else:
            x0 = np.asarray(x0, dtype=float)
            self._check_consistent(x0, self.parameters(params))
        from .simulate_dae import simulate_constrained
        return simulate_constrained(self, t_end, x0, **options)

    def report(self) -> str:
        from .report import structure_report
        return structure_report(self) + "\n" + self.constraint_report()

    def _dependent_lines(self) -> list[str]:
        """The dependent coordinates and, for ball joints inside loops, the rotation
        directions Newton turns their quaternions about (solver/moves.py)."""
        lines = ["    dependent coordinates (solved by Newton): " +
                 (", ".join(self.dependent_coordinates) or "none") +
                 " (∂c/∂y_dep non-singular; translations and later-declared joints first, so "
                 "the first-declared joint stays independent)"]
        turns = [self.speed_names[j] for j in self.partition.dependent_moves
                 if len(self._mover.moved[j]) == 4]
        if turns:
            lines.append("    ball joints inside loops: Newton turns their quaternions about "
                         "the rotation directions " + ", ".join(turns) + " (q ← q ⊗ (1, ½·δθ),"
                         " normalized); their other directions stay independent")
        return lines

    def constraint_report(self) -> str:
        """Plain words on what the constraint stage found and why (DESIGN.md §3.4)."""
        part, owners = self.partition, self.constraint_owners
        nc = len(part.holonomic_rows) + len(part.redundant_rows)
        lines = [f"  constraints (method: {self.method.value})"]
        if nc:
            loops = any("closing the loop" in owners[i] for i in range(nc))
            kind = "closure equations" if loops else "contact height equations"
            lines += [f"    {nc} {kind} c(y) = 0 from " +
                      ", ".join(dict.fromkeys(owners[i] for i in range(nc))) +
                      f"; rank {len(part.holonomic_rows)} at the assembled configuration"]
            if loops:
                lines.append("    (a loop is cut at its last-declared joint that no force "
                             "element acts on; a cut revolute gives 3 position + 2 axis "
                             "equations)")
            if part.redundant_rows:
                lines.append(f"    {len(part.redundant_rows)} equations are redundant "
                             "(satisfied identically or implied by the others, e.g. motion out "
                             "of the plane of a planar loop) and dropped: rows " +
                             ", ".join(map(str, part.redundant_rows)))
            lines += self._dependent_lines()
        lines.append(f"    {len(part.velocity_rows)} independent velocity constraints A(y)·w = 0"
                     + (f" ({len(part.velocity_redundant)} redundant dropped)"
                        if part.velocity_redundant else ""))
        lines.append("    dependent speeds: " + (", ".join(self.dependent_speeds) or "none") +
                     "; independent speeds: " + ", ".join(self.independent_speeds) +
                     " (driven and user-chosen speeds are kept independent)")
        if self.method is not ConstraintMethod.PARTITIONING:
            lines.append("    multipliers (Result 'lambda[i]', generalized constraint forces of "
                          "the rows of A): " + ", ".join(
                              f"lambda[{i}]: {owners[r].split(' (')[0]} row {r}"
                              for i, r in enumerate(part.velocity_rows)))
        lines.append("    assembled configuration: " + ", ".join(
            f"{n}={v:.6g}" for n, v in zip(self.y_names, self.y_ref)))
        lines += ["    " + line for line in str(self.integrability).splitlines()]
        return "\n".join(lines)


def compile_constrained(mech: Mechanics, speeds: dict | None, formulation: Formulation,
                        method: ConstraintMethod, baumgarte: tuple) -> ConstrainedSystem:
    """Stages 4–8 for a model with cut joints or contacts."""
    if formulation is not Formulation.JOURDAIN:
        raise ModelError("closed loops and contacts need Formulation.JOURDAIN (the projection "
                         "onto the constrained speeds); Lagrange's equations here are for trees")
    if not isinstance(method, ConstraintMethod):
        raise ModelError(f"constraints must be a jd.ConstraintMethod, got {method!r}")
    _check_baumgarte(baumgarte)
    eqs, part, A, G, mv, user_names = analyze(mech, speeds)
    check_generic_rank(mech, eqs, part, mv)
    if method is not ConstraintMethod.PARTITIONING and user_names:
        raise ModelError("speeds: user-chosen speeds apply to ConstraintMethod.PARTITIONING; the "
                         "Baumgarte and DAE methods integrate all joint speeds")
    sp = speeds_for(mech, method, G, part, user_names)
    eom = jourdain(mech, sp)
    functions = _functions(mech, sp, eom, eom.zdot)
    proj_y = _method_functions(functions, mech, sp, eom, eqs, part, A, method, baumgarte)
    functions.update(constraint_functions(mech, eqs, A, G, state_expr(mech, sp)))
    functions.update(one_dof_mass(mech, sp, eom, proj_y, part))
    _check_mass(functions["M"], part.y_ref, mech, sp)
    _check_explicit_form(functions, part.y_ref, mech.params.defaults)
    names = _names(mech, sp)
    structure = structure_of(mech, sp)
    info = {"y_ref": part.y_ref, "partition": part, "owners": eqs.c_owner + eqs.b_owner,
            "integrability": lambda: integrability_of(mech, eqs, part, A, G, mv),
            "speed_names": [r.name for r in mech.kin.rates], "mover": mv}
    base = (formulation, names, functions, mech.params.defaults, structure)
    return ConstrainedSystem(base, method, info)


def _check_baumgarte(baumgarte) -> None:
    """(α, β): two finite rates ≥ 0 [1/s] (negative ones would amplify the drift)."""
    try:
        ok = len(baumgarte) == 2 and all(np.isfinite(float(v)) and float(v) >= 0
                                         for v in baumgarte)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ModelError(f"baumgarte must be a pair (alpha, beta) of rates >= 0 [1/s], got "
                         f"{baumgarte!r}")


def _method_functions(functions: dict, mech: Mechanics, sp, eom, eqs, part, A,
                      method: ConstraintMethod, baumgarte: tuple):
    """Add the method's f (and project, dae, multipliers); return the Newton projection of the
    coordinates, or None when nothing is projected."""
    c_ind = eqs.c[part.holonomic_rows] if part.holonomic_rows else ca.SX(0, 1)
    if method is ConstraintMethod.PARTITIONING:
        if not part.dependent_moves:
            return None   # velocity constraints only: the plain SX f needs no projection
        proj_y = projector(c_ind, mech.kin, mech.params.p, part.dependent_moves)
        functions.update(partitioned_functions(mech, sp, eom, proj_y))
        return proj_y
    alpha, beta = baumgarte
    functions.update(multiplier_functions(mech, eom, A, c_ind, alpha, beta))
    return None


def _check_explicit_form(functions: dict, y: np.ndarray, p: np.ndarray) -> None:
    """A·G = 0 (seed 002), checked numerically at the assembled configuration."""
    A, G = np.array(functions["A"](y, p)), np.array(functions["G"](y, p))
    if A.size and np.abs(A @ G).max() > 1e-9 * max(1.0, np.abs(A).max() * np.abs(G).max()):
        raise ModelError("internal error: the explicit form G violates A·G = 0 at the assembled "
                         f"configuration (max |A·G| = {np.abs(A @ G).max():.3g}); please report")


def _check_mass(M: ca.Function, y_ref: np.ndarray, mech: Mechanics, sp) -> None:
    mass = np.array(M(y_ref, mech.params.defaults))
    if mass.size and np.linalg.eigvalsh(0.5 * (mass + mass.T))[0] <= \
            1e-12 * max(1.0, np.abs(mass).max()):
        raise ModelError("the mass matrix of the speeds " + ", ".join(sp.names) + " is singular "
                         "at the assembled configuration: a speed moves no mass; attach bodies")
