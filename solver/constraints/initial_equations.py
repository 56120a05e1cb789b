"""Initial equations of component states (Component.initial_equations, docs/domains.md): the
states in ``system.s_init`` (a filter initialized in steady state, a motor current at its
operating value) are solved by Newton at t0 from the residuals ``system.init(t, x, u, p)``,
with the coordinates, speeds and the other states held, before a simulation or a linearization
starts and at the end of ``System.initialize`` (so this module sits in the constraints wing,
beside the other initial-state computations). Row k of a component's residuals belongs to its
k-th state: states the user gives by name are held and their rows dropped.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.numerics import LINEAR_SOLVER

INIT_TOL = 1e-12


def solve_initial_states(system, x0: np.ndarray, t0: float, u0: np.ndarray, p: np.ndarray,
                         held=()) -> np.ndarray:
    """x0 with the initial equations' states solved (module docstring)."""
    s_init = list(getattr(system, "s_init", []))
    if not s_init or "init" not in system.functions:
        return x0
    offset = system.nx - len(system.s_names)
    rows = [k for k, i in enumerate(s_init) if system.s_names[i] not in set(held)]
    cols = [offset + s_init[k] for k in rows]
    if not cols:
        return x0
    unknown, x_sym = ca.SX.sym("s", len(cols)), ca.SX(ca.DM(x0))
    for k, c in enumerate(cols):
        x_sym[c] = unknown[k]
    res = system.init(t0, x_sym, ca.DM(u0), ca.DM(p))[rows]
    _check_regular(system, res, unknown, x0, cols, s_init, rows)
    solver = ca.rootfinder("initial_states", "newton", ca.Function("r", [unknown], [res]),
                           {"abstol": INIT_TOL, "max_iter": 50, "linear_solver": LINEAR_SOLVER})
    x = np.asarray(x0, dtype=float).copy()
    try:
        x[cols] = np.array(solver(x[cols])).ravel()
    except RuntimeError as exc:
        raise ModelError("the initial equations of " + _owners(system, s_init, rows) +
                         f" have no solution near the start values: {exc}") from exc
    return x


def _check_regular(system, res, unknown, x0, cols, s_init, rows) -> None:
    """The residuals must fix their states: a singular Jacobian (an Integrator asked to start
    in steady state: der(x) = k·u does not involve x) is named instead of failing in Newton."""
    J = np.array(ca.Function("J", [unknown], [ca.jacobian(res, unknown)])(x0[cols]))
    if np.linalg.matrix_rank(J) < len(cols):
        raise ModelError(
            "the initial equations of " + _owners(system, s_init, rows) + " do not determine "
            "their states (singular Jacobian): e.g. an Integrator cannot start in steady state; "
            "use Init.INITIAL_STATE for it or give its state in z0")


def _owners(system, s_init, rows) -> str:
    return ", ".join(dict.fromkeys(system.s_names[s_init[k]].rsplit(".", 1)[0] for k in rows))
