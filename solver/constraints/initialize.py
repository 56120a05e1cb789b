"""Initialization beyond joint coordinates (the MSL's ``start``/``fixed`` attributes): initial
values for any quantity (an output, a force element's s_rel or w_rel, a frame's r_0[i] or
v_0[i], by name; ``System.quantity_names``), solved together with the closure equations.

Positions first: the unknown coordinates move along the joint-speed directions (a ball
joint's quaternion by a rotation vector, :mod:`.moves`) so that c(y) = 0 and every
position-level condition g(y) = value holds (Gauss–Newton with minimum-norm steps,
:func:`.assembly.assemble`). Coordinates given in ``y0`` are held (Modelica's
``fixed = true``); those in ``guess`` only start the iteration, which is how an assembly branch
is chosen (``fixed = false`` with a start value). Then speeds: the velocity-level conditions
are affine in z, so the unknown speeds follow by least squares (minimum norm), with the
closure's velocity constraints already in z (w = G(y)·z). What was held, fixed, solved and
left at its start value is reported (:class:`Initialization`). Guesses of quantities that are
not coordinates (a piston's position, a frame's r_0[i]) pull the start toward them before
the assembly (:mod:`.guesses`). Initial equations on derivatives (``der(name)`` in ``fix``,
``steady=``) and parameters solved at initialization (``solve=``) are solved last, together
with every condition, by Newton (:mod:`.initial_newton`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.checks import mapping, number, vector
from ..model.names import by_name, unknown
from .assembly import assemble
from .guesses import toward_guesses
from .initial_newton import derivative_conditions, parameters_to_solve, solve_jointly
from .initial_equations import solve_initial_states
from .methods import ConstraintMethod
from .moves import Mover
from .partition import numeric_rank

TOL = 1e-9   # residual accepted for a condition [its unit]


@dataclass
class Initialization:
    """The outcome of ``System.initialize``: the state x0 and what happened to each name."""

    x0: np.ndarray
    held: dict = field(default_factory=dict)      # coordinates/speeds given (kept)
    fixed: dict = field(default_factory=dict)     # conditions: name -> (value, residual)
    solved: dict = field(default_factory=dict)    # coordinates/speeds computed -> value
    at_start: dict = field(default_factory=dict)  # undetermined, kept at start -> value
    notes: list = field(default_factory=list)
    # the run's parameters: those given in params= and those solved (solve=); pass them on,
    # simulate(..., x0=init.x0, params=init.params)
    params: dict = field(default_factory=dict)

    def report(self) -> str:
        def fmt(items) -> str:
            return ", ".join(f"{k} = {v:.6g}" for k, v in items) or "none"
        lines = ["Initialization:",
                 f"  held (given): {fmt(self.held.items())}",
                 "  fixed conditions: " + (", ".join(
                     f"{k} = {v:.6g} (residual {r:.1e})" for k, (v, r) in self.fixed.items())
                     or "none"),
                 f"  solved: {fmt(self.solved.items())}",
                 f"  parameters: {fmt(self.params.items())}",
                 f"  kept at start (no condition determines them): {fmt(self.at_start.items())}"]
        return "\n".join(lines + [f"  note: {n}" for n in self.notes])

    __str__ = report


def initialize(system, y0=None, z0=None, fix=None, guess=None, params=None, t0=0.0,
               u0=None, steady=None, solve=None) -> Initialization:
    """See :meth:`jourdain.solver.system.System.initialize`."""
    y0, z0 = mapping(y0, "initialize: y0", "coordinate"), mapping(z0, "initialize: z0", "speed")
    fix, guess = mapping(fix, "initialize: fix", "quantity"), mapping(guess, "initialize: guess")
    p = system.parameters(params)
    derivs = derivative_conditions(system, fix, steady)
    derivs = {k: number(v, f"initialize: fix 'der({system.x_names[k]})'")
              for k, v in derivs.items()}
    solved_params = parameters_to_solve(system, solve)
    t0 = number(t0, "initialize: t0", unit="s")
    u0 = np.zeros(len(system.u_names)) if u0 is None else \
        vector(u0, list(system.u_names), "initialize: u0")
    names = system.quantity_names
    for name, value in fix.items():
        if name not in names and name not in system.y_names + system.z_names:
            raise ModelError(unknown("initialize: fix", name,
                                     names + system.y_names + system.z_names))
        fix[name] = number(value, f"initialize: fix '{name}'")
        given = "y0" if name in y0 else "z0" if name in z0 else None
        if given:   # a fix of a coordinate or speed holds it, as y0/z0 do: one must win
            raise ModelError(f"initialize: '{name}' is given in both {given} "
                             f"({(y0 if name in y0 else z0)[name]!r}) and fix ({value!r}); "
                             "give it once")
    for name, value in fix.items():   # a fix of a coordinate or speed is a held value
        (y0 if name in system.y_names else z0 if name in system.z_names else {})[name] = value
    fix = {k: float(v) for k, v in fix.items() if k not in system.y_names + system.z_names}
    levels = _levels(system, fix)
    init = Initialization(np.zeros(system.nx))
    y = _positions(system, y0, guess, {k: v for k, v in fix.items() if levels[k] == 0}, p,
                   t0, u0, init)
    x = _speeds(system, y, z0, {k: v for k, v in fix.items() if levels[k] == 1}, p, t0, u0,
                init)
    x = _states(system, x, z0, p, t0, u0, init)
    if derivs or solved_params:
        x, p = _jointly(system, x, p, t0, u0, y0, z0, derivs, fix, solved_params, init)
    init.x0 = x
    init.params = {**mapping(params, "params"), **init.params}
    values = np.array(system.quantities(t0, x, u0, p)).ravel()
    for name, target in fix.items():
        init.fixed[name] = (target, abs(values[names.index(name)] - target))
    bad = [k for k, (_, r) in init.fixed.items() if r > 1e-6 * max(1.0, abs(init.fixed[k][0]))]
    if bad:
        raise ModelError("initialize: the conditions " + ", ".join(
            f"{k} = {init.fixed[k][0]:.6g} (reached {values[names.index(k)]:.6g})" for k in bad)
            + " cannot all be met; drop some or give other values")
    if derivs:   # met by initial_newton (or it raised); the residuals for the report
        xdot = np.array(system.f(t0, x, u0, p)).ravel()
        init.fixed.update({f"der({system.x_names[k]})": (v, abs(xdot[k] - v))
                           for k, v in derivs.items()})
    return init


def _levels(system, fix: dict) -> dict:
    """0: depends on positions only, 1: affine in the speeds; others are refused."""
    if not fix:
        return {}
    t, x = ca.SX.sym("t"), ca.SX.sym("x", system.nx)
    u, p = ca.SX.sym("u", len(system.u_names)), ca.SX.sym("p", len(system.p_names))
    ny, nz = len(system.y_names), len(system.z_names)
    q = system.quantities(t, x, u, p)
    z, s = x[ny:ny + nz], x[ny + nz:]
    out = {}
    for name in fix:
        if name in getattr(system, "dynamic_outputs", ()):
            raise ModelError(f"initialize: {name} depends on accelerations (the dynamics); "
                             "initial values can be given for positions and velocities only")
        e = q[system.quantity_names.index(name)]
        if s.numel() and ca.depends_on(e, s):
            raise ModelError(f"initialize: {name} depends on component states (a filter's, a "
                             "capacitor's); give those states in z0 instead (their names are "
                             "in s_names)")
        if not ca.depends_on(e, z):
            out[name] = 0
        elif not ca.depends_on(ca.jacobian(e, z), z) and not ca.depends_on(e, u):
            out[name] = 1
        else:
            raise ModelError(f"initialize: {name} depends on accelerations or inputs; initial "
                             "values can be given for positions and velocities only")
    return out


def _jointly(system, x, p, t0, u0, y0: dict, z0: dict, derivs: dict, fix: dict,
             solved_params: list, init):
    """The Newton solve of :mod:`.initial_newton` from the staged solution; what it moves is
    listed as solved."""
    ny = len(system.y_names)
    held = {system.y_names.index(n) for n in y0} | set(system.driven_coordinates) | \
        {ny + system.z_names.index(n) for n in z0 if n in system.z_names} | \
        {ny + k for k in system.driven_speeds} | \
        {system.x_names.index(n) for n in z0 if n in system.s_names}
    before = np.asarray(x, dtype=float).copy()
    # the staged solution's count of undetermined directions no longer holds: the joint
    # solve decides them (and notes or refuses what stays undetermined)
    init.notes = [n for n in init.notes if "determined by no condition" not in n]
    x, p = solve_jointly(system, x, p, t0, u0, held, derivs, fix, solved_params, init)
    for i, name in enumerate(system.x_names):
        if i in held:
            continue
        if abs(x[i] - before[i]) > 1e-12 * max(1.0, abs(before[i])):
            init.solved[name] = x[i]
            init.at_start.pop(name, None)
        elif name in init.solved:
            init.solved[name] = x[i]
    return x, p


def _positions(system, y0: dict, guess: dict, fix: dict, p, t0, u0, init) -> np.ndarray:
    mover = system.mover
    start = getattr(system, "y_ref", system.y_default)
    guess = dict(guess)
    quantity_guesses = {n: number(guess.pop(n), f"initialize: guess '{n}'")
                        for n in list(guess) if n not in system.y_names and
                        n in system.quantity_names}
    y = by_name(guess, system.y_names, "guess", "coordinate or quantity", start)
    y = by_name(y0, system.y_names, "y0", "coordinate", y)
    held = {system.y_names.index(n) for n in y0}
    x = np.concatenate([y, np.zeros(system.nx - len(y))])
    if "drive0" in system.functions:   # driven coordinates at their references, held
        y = np.array(system.functions["drive0"](t0, x, u0, p)).ravel()[:len(y)]
        held |= set(system.driven_coordinates)
        init.held.update({system.y_names[i]: y[i] for i in system.driven_coordinates})
        init.notes.append(", ".join(system.y_names[i] for i in system.driven_coordinates) +
                          " held at the drivers' references")
    init.held.update({n: y[system.y_names.index(n)] for n in y0})
    free = mover.free_directions(held)
    # guesses of coordinates a closed loop solves (the MSL's s_guess of a JointRRP's slider)
    # pull like guesses of quantities: as start values alone, the assembly's minimum-norm
    # moves from the independent ones could leave them on the other branch
    loops = np.array(mover.c(y, p)).size > 0
    coordinate_guesses = {system.y_names.index(n): float(y[system.y_names.index(n)])
                          for n in guess if n in system.y_names and n not in y0} \
        if loops else {}
    if quantity_guesses or coordinate_guesses:   # with no condition on them, the guesses
        levels = _levels(system, quantity_guesses)   # place the coordinates
        if any(levels.values()):
            raise ModelError("initialize: guess: " + ", ".join(
                k for k, v in levels.items() if v) + " depend(s) on speeds; guesses choose an "
                "assembly branch and take positions only (a coordinate, a frame's r_0[i], a "
                "force element's s_rel)")
        pulled = _augmented_mover(system, mover, {**fix, **quantity_guesses}, p, t0, u0,
                                  coordinate_guesses)
        y = toward_guesses(pulled, y, p, free)
    c = np.array(mover.c(y, p)).ravel()
    gaps = _mesh_gaps(system)
    if not fix and not c.size and not gaps:
        return y
    augmented = _augmented_mover(system, mover, fix, p, t0, u0)
    owners = list(getattr(system, "constraint_owners", [])) + \
        [f"the condition {k}" for k in fix] + [system.hybrid.rows[i].label for i in gaps]
    y_new = assemble(augmented, y, p, free, system.y_names, owners)
    _classify(system, augmented, y, y_new, p, free, init)
    return y_new


def _augmented_mover(system, mover: Mover, fix: dict, p, t0, u0,
                     coordinates: dict | None = None) -> Mover:
    """The closure equations with the position-level conditions g(y) − value appended, the
    coordinate conditions y_k − value of ``coordinates`` ({index: value}), and the gaps of
    the hybrid rows that are constraints in every mode (a LossyGear's mesh)."""
    gaps = _mesh_gaps(system)
    coordinates = coordinates or {}
    if not fix and not gaps and not coordinates:
        return mover
    ny, nx = len(system.y_names), system.nx
    y, pp = ca.MX.sym("y", ny), ca.MX.sym("p", len(p))
    delta = ca.MX.sym("delta", len(mover.moved))
    idx = [system.quantity_names.index(n) for n in fix]
    target = ca.DM(list(fix.values()))

    def residual(yy):
        x = ca.vertcat(yy, ca.MX.zeros(nx - ny))
        g = system.quantities(t0, x, ca.DM(u0), pp)[idx]
        out = [mover.c(yy, pp), g - target] + \
            [yy[k] - value for k, value in coordinates.items()]
        if gaps:
            others = system.functions["hybrid_others"]
            lam = ca.MX.zeros(others.size1_in(4))
            out.append(others(t0, x, ca.DM(u0), pp, lam)[1][gaps])
        return ca.vertcat(*out)
    moved = mover.retract(y, delta)
    res = residual(moved)
    zero = ca.DM.zeros(len(mover.moved))
    J = ca.substitute(ca.jacobian(res, delta), delta, zero)
    return Mover(ca.Function("c_fix", [y, pp], [residual(y)]), mover.retract,
                 ca.Function("c_fix_linear", [y, pp], [ca.substitute(res, delta, zero), J]),
                 mover.moved)


def _classify(system, mover: Mover, before, after, p, free: list, init) -> None:
    """Solved: coordinates the solution moved; at start: free coordinates that no condition
    determines (directions in the null space of the conditions' Jacobian)."""
    J = np.array(mover.linear(after, p)[1])[:, free] if free else np.zeros((0, 0))
    rank = numeric_rank(J) if J.size else 0
    if rank < len(free):
        init.notes.append(f"{len(free) - rank} direction(s) of motion are determined by no "
                          "condition and keep their start values (least change)")
    for k, name in enumerate(system.y_names):
        if name in init.held:
            continue
        if abs(after[k] - before[k]) > 1e-12 * max(1.0, abs(before[k])):
            init.solved[name] = after[k]
        else:
            init.at_start[name] = after[k]


def _speeds(system, y: np.ndarray, z0: dict, fix: dict, p, t0, u0, init) -> np.ndarray:
    """Unknown speeds from the velocity-level conditions (affine in z), minimum norm. With
    the multiplier methods (x holds all joint speeds) the unknowns are the independent speeds
    ζ and z = G(y)·ζ, so the velocity constraints hold."""
    ny, nz = len(y), len(system.z_names)
    basis, names = np.eye(nz), system.z_names
    if getattr(system, "method", ConstraintMethod.PARTITIONING) is not \
            ConstraintMethod.PARTITIONING:
        basis, names = np.array(system.G(y, p)), system.independent_speeds
    speeds = {n: v for n, v in z0.items() if n not in system.s_names}
    zeta = by_name(speeds, names, "z0", "independent speed" if names is not system.z_names
                   else "speed")
    init.held.update({n: zeta[names.index(n)] for n in speeds})
    x = np.concatenate([y, basis @ zeta, system.s_default])
    if "drive0" in system.functions:
        x = np.array(system.functions["drive0"](t0, x, u0, p)).ravel()
        zeta = np.linalg.lstsq(basis, x[ny:ny + nz], rcond=None)[0]
    rows = _mesh_rows(system, x, p, t0, u0)
    if not fix and rows is None:
        return x
    idx = [system.quantity_names.index(n) for n in fix]
    known = [names.index(n) for n in speeds] + \
        (list(system.driven_speeds) if names is system.z_names else [])
    unknown_z = [k for k in range(len(names)) if k not in known]
    xs = ca.MX.sym("x", system.nx)
    q = system.quantities(t0, xs, ca.DM(u0), ca.DM(p))[idx]
    A = np.array(ca.Function("A", [xs], [ca.jacobian(q, xs)])(x))[:, ny:ny + nz] @ basis
    b = np.array(ca.Function("g", [xs], [q])(x)).ravel() - A @ zeta
    targets = np.array(list(fix.values()), dtype=float)
    if rows is not None:   # γ = J·z + offset = 0 on the rows that are always constraints
        J, offset, labels = rows
        A = np.vstack([A, J @ basis])
        b = np.concatenate([b, offset])
        targets = np.concatenate([targets, np.zeros(len(labels))])
    rhs = targets - b - A[:, known] @ zeta[known]
    if unknown_z:
        zeta[unknown_z] = np.linalg.lstsq(A[:, unknown_z], rhs, rcond=None)[0]
        if numeric_rank(A[:, unknown_z]) < len(unknown_z):
            init.notes.append("the velocity conditions leave some speeds undetermined; "
                              "they take the least-norm values")
    for k in unknown_z:
        init.solved[names[k]] = zeta[k]
    x[ny:ny + nz] = basis @ zeta
    if rows is not None:
        residual = rows[0] @ x[ny:ny + nz] + rows[1]
        bad = [label for label, r in zip(rows[2], residual) if abs(r) > TOL * (1 + abs(r))]
        if bad:
            raise ModelError(f"initialize: the held speeds violate {', '.join(bad)} (a "
                             "constraint in every mode, e.g. a LossyGear's mesh); give "
                             "speeds that satisfy it, or hold only one of its flanges' speeds")
    return x


def _mesh_gaps(system) -> list[int]:
    """The hybrid rows that are constraints in every mode and have a position-level gap."""
    hybrid = getattr(system, "hybrid", None)
    gaps = list(getattr(hybrid, "always_gap", ()) or ())
    return gaps if gaps and "hybrid_others" in system.functions else []


def _mesh_rows(system, x: np.ndarray, p, t0, u0):
    """(J, γ − J·z, labels) of the hybrid rows that are constraints in every mode (a
    LossyGear's mesh), or None: velocity conditions like a closure's."""
    hybrid = getattr(system, "hybrid", None)
    always = list(getattr(hybrid, "always_active", ()) or ())
    if not always or "impact" not in system.functions:
        return None
    _, J, gamma, _ = system.functions["impact"](t0, x, u0, p)
    ny = len(system.y_names)
    J = np.atleast_2d(np.array(J))[always]
    gamma = np.array(gamma).ravel()[always]
    z = x[ny:ny + len(system.z_names)]
    return J, gamma - J @ z, [hybrid.rows[i].label for i in always]


def _states(system, x: np.ndarray, z0: dict, p, t0, u0, init) -> np.ndarray:
    """Component states: given in z0 (held), else their start values, and those with initial
    equations (``s_init``: a filter in steady state) solved at t0 for the state found."""
    s_names = list(system.s_names)
    if not s_names:
        return x
    x = np.asarray(x, dtype=float).copy()
    offset = system.nx - len(s_names)
    given = [n for n in z0 if n in s_names]
    for name in given:
        x[offset + s_names.index(name)] = float(z0[name])
        init.held[name] = x[offset + s_names.index(name)]
    x = solve_initial_states(system, x, t0, u0, p, given)
    for i in system.s_init:
        if s_names[i] not in given:
            init.solved[s_names[i]] = x[offset + i]
    return x
