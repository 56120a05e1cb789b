"""Initial equations on derivatives and parameters solved at initialization: Modelica's
``initial equation der(x) = 0`` (a steady-state start of a whole system, or of chosen
states) and ``parameter (fixed = false)`` (a spring constant or an unstretched length
from an equilibrium), solved together with every other condition of ``System.initialize``.

The unknowns are the moves of the coordinates not held (joint-speed directions, so a
quaternion stays unit: :mod:`.moves`), the speeds and component states not held, and the
parameters named in ``solve``; the equations are the closure equations c(y) = 0, the
conditions on quantities (``fix``), the derivative conditions ẋ_i = value with ẋ = f(t0, x,
u0, p) (the accelerations come from the equations of motion) and the initial equations of
component states (``s_init``). Gauss–Newton with minimum-norm steps and a line search on the
residual norm, from the start the staged solution of :mod:`.initialize` gives: a square
regular system converges quadratically (Newton); unknowns no equation determines keep their
start values (least change, reported). When the residual cannot be brought to zero the
error names the equations left unmet and says whether their Jacobian with respect to the
unknowns is singular there (an equation no unknown affects, or dependent equations) or
Newton merely failed from the start values.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.names import unknown
from ..model.parameters import constant_entries, unknown_parameter
from .methods import ConstraintMethod
from .partition import numeric_rank

NEWTON_TOL = 1e-11   # residual accepted, relative to its Jacobian row (_tolerance)
MAX_ITER = 60
STALLED = 4          # steps in a row without decrease before giving up


def derivative_conditions(system, fix: dict, steady) -> dict:
    """{x index: value} from the ``der(name)`` keys of ``fix`` (removed from it) and from
    ``steady`` (True: every state; or a list of state names: der(name) = 0)."""
    names = system.x_names
    out = {}
    for key in [k for k in fix if isinstance(k, str) and k.startswith("der(")]:
        name = key[4:-1] if key.endswith(")") else None
        if name not in names:
            raise ModelError(unknown("initialize: fix", key, [f"der({n})" for n in names]) +
                             " (der(<state>) takes a coordinate, speed or component state "
                             "from system.x_names)")
        out[names.index(name)] = fix.pop(key)
    if steady is None or steady is False:
        return out
    if steady is True:
        chosen = list(names)
    elif isinstance(steady, (list, tuple, set)) and all(isinstance(n, str) for n in steady):
        chosen = list(steady)
    else:
        raise ModelError(f"initialize: steady must be True (every state) or a list of state "
                         f"names (der(name) = 0), got {steady!r}")
    for name in chosen:
        if name not in names:
            raise ModelError(unknown("initialize: steady", name, names) +
                             " (a state name from system.x_names is expected)")
        if names.index(name) in out:
            raise ModelError(f"initialize: der({name}) is given in both fix and steady; give "
                             "it once")
        out[names.index(name)] = 0.0
    return out


def parameters_to_solve(system, solve) -> list[int]:
    """Indices into p of the parameters in ``solve`` (symbolic, not a discrete mode)."""
    if solve is None:
        return []
    if isinstance(solve, str) or not all(isinstance(n, str) for n in solve):
        raise ModelError(f"initialize: solve must be a list of parameter names, got {solve!r}")
    discrete = set(getattr(system.hybrid, "discrete_names", ()) or ())
    out = []
    for name in solve:
        if name in discrete:
            raise ModelError(f"initialize: solve: '{name}' is a discrete variable of a hybrid "
                             "element, not a parameter; it cannot be solved at initialization")
        if name in system.structure.constants or name in constant_entries(system):
            raise ModelError(f"initialize: solve: '{name}' was compiled as a constant; declare "
                             f"it symbolic with jd.compile(..., parameters=['{name}']) to solve "
                             "it at initialization")
        if name not in system.p_names:
            raise ModelError("initialize: solve: " + unknown_parameter(system, name)
                             .removeprefix("params: "))
        out.append(system.p_names.index(name))
    return list(dict.fromkeys(out))


def solve_jointly(system, x: np.ndarray, p: np.ndarray, t0: float, u0: np.ndarray,
                  held: set, derivs: dict, fix: dict, params: list[int], init):
    """(x, p) meeting every equation (module docstring); ``held``: x indices not solved."""
    if getattr(system, "method", ConstraintMethod.PARTITIONING) is not \
            ConstraintMethod.PARTITIONING:
        raise ModelError("initialize: initial equations on derivatives (der(...), steady=) and "
                         "solved parameters (solve=) need ConstraintMethod.PARTITIONING (the "
                         f"default); this system uses {system.method.name}")
    ny, nx = len(system.y_names), system.nx
    mover = system.mover
    held_y = {i for i in held if i < ny}
    free = mover.free_directions(held_y)
    rest = [i for i in range(ny, nx) if i not in held]
    F, labels = _residual_function(system, t0, u0, derivs, fix, held)
    unknowns = _unknown_names(system, free, rest, params)
    scale = np.ones(len(free) + len(rest) + len(params))
    scale[len(free) + len(rest):] = np.maximum(1.0, np.abs(p[params]))

    def evaluate(xx, pp):
        r, J = F(xx[:ny], xx[ny:], pp)
        J = np.array(J, dtype=float)
        cols = np.hstack([J[:, free], J[:, len(mover.moved) + np.array(rest, dtype=int) - ny],
                          J[:, len(mover.moved) + nx - ny + np.array(params, dtype=int)]])
        return np.array(r, dtype=float).ravel(), cols * scale

    def step_to(xx, pp, step):
        xx, pp = xx.copy(), pp.copy()
        delta = np.zeros(len(mover.moved))
        delta[free] = step[:len(free)]
        xx[:ny] = np.array(mover.retract(xx[:ny], delta)).ravel()
        xx[rest] += step[len(free):len(free) + len(rest)]
        pp[params] += step[len(free) + len(rest):]
        return xx, pp

    x, p = np.asarray(x, dtype=float).copy(), np.asarray(p, dtype=float).copy()
    r, J = evaluate(x, p)
    stalled = 0
    for _ in range(MAX_ITER):
        if not (np.isfinite(r).all() and np.isfinite(J).all()):
            bad = [labels[i] for i in range(r.size)
                   if not (np.isfinite(r[i]) and np.isfinite(J[i]).all())]
            raise ModelError("initialize: the initial equations " + ", ".join(bad) + " are "
                             "undefined at the present values (a division by zero, a square "
                             "root of a negative number); give other start values")
        if np.all(np.abs(r) <= _tolerance(J)):
            break
        step = -np.linalg.lstsq(J, r, rcond=None)[0] * scale
        norm0, accepted = np.linalg.norm(r), False
        for k in range(14):
            xt, pt = step_to(x, p, 0.5 ** k * step)
            rt, Jt = evaluate(xt, pt)
            if np.isfinite(rt).all() and np.linalg.norm(rt) < norm0:
                x, p, r, J, accepted = xt, pt, rt, Jt, True
                break
        stalled = 0 if accepted else stalled + 1
        if stalled == STALLED:
            break
    if np.any(np.abs(r) > 1e3 * _tolerance(J)):
        nd = len(mover.moved)
        columns = list(free) + [nd + i - ny for i in rest] + [nd + nx - ny + k for k in params]
        involved = F.structure[:, columns].any(axis=1)
        raise _failure(r, J, labels, unknowns, 1e3 * _tolerance(J), involved)
    _report(system, init, J, unknowns, params, p)
    return x, p


def _residual_function(system, t0, u0, derivs: dict, fix: dict, held: set):
    """F(y, rest, p) -> (R, ∂R/∂(δ, rest, p)) at δ = 0, and a label per row of R."""
    ny, nx, mover = len(system.y_names), system.nx, system.mover
    y, rest = ca.MX.sym("y", ny), ca.MX.sym("rest", nx - ny)
    pp, delta = ca.MX.sym("p", len(system.p_names)), ca.MX.sym("delta", len(mover.moved))
    ym = mover.retract(y, delta)
    xm, u = ca.vertcat(ym, rest), ca.DM(u0)
    parts, labels = [mover.c(ym, pp)], list(getattr(system, "constraint_owners", []))
    labels += ["the closure equations"] * (parts[0].numel() - len(labels))
    if fix:
        idx = [system.quantity_names.index(n) for n in fix]
        parts.append(system.quantities(t0, xm, u, pp)[idx] - ca.DM(list(fix.values())))
        labels += [f"{n} = {v:.6g}" for n, v in fix.items()]
    if derivs:
        keys = list(derivs)
        parts.append(system.f(t0, xm, u, pp)[keys] - ca.DM([derivs[k] for k in keys]))
        labels += [f"der({system.x_names[k]}) = {derivs[k]:.6g}" for k in keys]
    offset = nx - len(system.s_names)
    rows = [k for k, i in enumerate(getattr(system, "s_init", []))
            if offset + i not in held]
    if rows and "init" in system.functions:
        parts.append(system.init(t0, xm, u, pp)[rows])
        labels += [f"the initial equation of {system.s_names[system.s_init[k]]}" for k in rows]
    R = ca.vertcat(*parts)
    J = ca.jacobian(R, ca.vertcat(delta, rest, pp))
    zero = ca.DM.zeros(len(mover.moved))
    F = ca.Function("initial_newton", [y, rest, pp],
                    [ca.substitute(R, delta, zero), ca.substitute(J, delta, zero)])
    # which unknowns each equation involves at all (structure, not values at a point)
    F.structure = np.array(ca.DM.ones(J.sparsity())) > 0
    return F, labels


def _unknown_names(system, free, rest, params) -> list[str]:
    """A name per unknown: the coordinate a scalar move changes, a quaternion's rotation
    about its k-th axis, the state, the parameter."""
    moved, names, turns = system.mover.moved, [], {}
    for j in free:
        if len(moved[j]) == 1:
            names.append(system.y_names[moved[j][0]])
        else:
            joint = system.y_names[moved[j][0]].rsplit(".", 1)[0]
            turns[joint] = turns.get(joint, -1) + 1
            names.append(f"{joint} (rotation about axis {turns[joint]})")
    return names + [system.x_names[i] for i in rest] + [system.p_names[k] for k in params]


def _tolerance(J: np.ndarray) -> np.ndarray:
    """Per equation: NEWTON_TOL relative to the size of its row of the (scaled) Jacobian, the
    round-off of evaluating it (a robot's accelerations from torques of 1e3 N·m)."""
    return NEWTON_TOL * (1.0 + (np.abs(J).max(axis=1) if J.shape[1] else 0.0))


def _failure(r, J, labels, unknowns, tol, involved) -> ModelError:
    worst = [i for i in np.argsort(-np.abs(r)) if abs(r[i]) > tol[i]]
    unmet = ", ".join(f"{labels[i]} (residual {r[i]:.3g})" for i in worst)
    flat = [i for i in worst if not np.any(np.abs(J[i]) > 1e-12)]
    idle = [labels[i] for i in flat if not involved[i]]
    rank = numeric_rank(J) if J.size else 0
    said = ", ".join(unknowns) or "none"
    if idle:
        why = (" is affected by no unknown (singular: " + ", ".join(idle) + " holds or fails "
               "whatever is solved)")
    elif flat:
        why = (": no unknown changes " + ", ".join(labels[i] for i in flat) + " to first "
               "order at the present values, a singular point of the equations (a pendulum "
               "started horizontal, whose gravity torque is extremal there); give start "
               "values on the side of the intended solution (guess=, y0)")
    elif rank < J.shape[0]:
        why = (f": their Jacobian with respect to the unknowns is singular there (rank {rank} "
               f"for {J.shape[0]} equations: dependent or contradictory equations)")
    else:
        why = ": Newton's method did not converge from the start values"
    return ModelError(f"initialize: the initial equations cannot be met: {unmet}{why}; "
                      f"unknowns: {said}. Hold fewer states (y0, z0), solve a parameter "
                      "(solve=), drop a condition, or start nearer a solution (guess=)")


def _report(system, init, J, unknowns, params, p) -> None:
    """Solved parameters must be determined, and so must every unknown the equations involve:
    unknowns no equation involves keep their start values (noted); a combination of involved
    unknowns that the equations leave free (a PID's integral and filter both able to carry a
    held joint's torque) is ambiguous and refused by name, as a Modelica tool refuses an
    under-determined initialization: hold the ones meant to keep their start values."""
    n_state = J.shape[1] - len(params)
    for k, idx in enumerate(params):
        if not np.any(np.abs(J[:, n_state + k]) > 1e-10 * max(1.0, np.abs(J).max())):
            raise ModelError(f"initialize: solve: no initial equation determines the "
                             f"parameter {system.p_names[idx]} (singular); add a condition "
                             "that depends on it (fix=, steady=) or hold more states")
    small = 1e-10 * max(1.0, float(np.abs(J).max(initial=0.0)))   # zero to round-off
    involved = [j for j in range(J.shape[1]) if np.any(np.abs(J[:, j]) > small)]
    idle = [unknowns[j] for j in range(n_state) if j not in involved]
    if idle:
        init.notes.append("determined by no initial equation, kept at their start values: " +
                          ", ".join(idle))
    sub = J[:, involved]
    rank = numeric_rank(sub) if sub.size else 0
    if rank < len(involved):
        _, sv, vt = np.linalg.svd(sub)
        null = vt[rank:]
        free = [unknowns[involved[j]] for j in range(len(involved))
                if np.abs(null[:, j]).max() > 1e-8]
        said = [n for n in free if n in {system.p_names[i] for i in params}]
        raise ModelError("initialize: the initial equations do not determine " +
                         ", ".join(free) + f" ({len(involved) - rank} free combination(s) of "
                         "them meet every equation: singular)" +
                         (f"; the parameter(s) {', '.join(said)} cannot be solved with them"
                          if said else "") +
                         "; hold the ones that keep their start values (y0, z0) or add "
                         "conditions (fix=, steady=)")
    for idx in params:
        init.params[system.p_names[idx]] = float(p[idx])
