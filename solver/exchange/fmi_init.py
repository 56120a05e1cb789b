"""The FMU's initialization as C, run in ``fmi2ExitInitializationMode`` with the start time,
states, inputs and parameters the importer has set, so the FMU starts where ``simulate``
starts for the same values:

1. ``jd_drive0(t, x, u, p) -> x0``: the kinematic drivers' prescribed coordinates and speeds
   at t0 (``drive0``, which may read inputs: a driver's reference left open is an input);
   then the wrapper assembles closed loops (:mod:`.fmi_assembly`);
2. ``jd_init(t, x, u, p) -> (x0, residual)``: the initial equations of component states (a filter settled on its input at t0,
   ``Init.STEADY_STATE``) solved by Newton with the other states held, as
   :func:`~jourdain.solver.constraints.initial_equations.solve_initial_states` does, but with
   CasADi's ``fast_newton`` rootfinder, which CasADi writes as C (its ``newton`` plugin has
   no code generation). ``residual`` is the largest residual left; the wrapper refuses to
   leave initialization (fmi2Error, with a logged message) when it exceeds
   ``INIT_TOL``·max(1, |x0|∞).

States given in ``z0`` at export are held; with ``x0`` given, step 2 is skipped (as simulate
does for a complete x0).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca
import numpy as np

INIT_TOL = 1e-9          # largest residual the FMU accepts, times max(1, |x0|∞)
NEWTON_TOL = 1e-13       # fast_newton's tolerance on the residual
NEWTON_ITER = 50


@dataclass
class Initialization:
    """jd_drive0, jd_init and what they do to the states: ``overwritten`` (indices in x) are
    set by the drivers whatever their start values (FMI initial="calculated"), ``solved`` are
    Newton unknowns whose start values are first guesses (initial="approx")."""

    drive: ca.Function
    function: ca.Function
    overwritten: list[int] = field(default_factory=list)
    solved: list[int] = field(default_factory=list)


def initialization(system, held=(), solve: bool = True) -> Initialization:
    """The initialization function of ``system`` (module docstring)."""
    fns, nx = system.functions, system.nx
    T, X = ca.MX.sym("t"), ca.MX.sym("x", nx)
    U, P = ca.MX.sym("u", len(system.u_names)), ca.MX.sym("p", len(system.p_names))
    driven = fns["drive0"](T, X, U, P) if "drive0" in fns else X
    pattern = ca.jacobian(driven, X).sparsity()
    overwritten = [i for i in range(nx) if not pattern.has_nz(i, i)]
    drive = ca.Function("jd_drive0", [T, X, U, P], [driven], ["t", "x", "u", "p"], ["x0"])
    start = X   # after the drivers and the assembly of closed loops (the wrapper's order)
    cols, rows = _unknowns(system, held) if solve else ([], [])
    if not cols:
        return Initialization(drive, ca.Function("jd_init", [T, X, U, P], [start, ca.MX(0)],
                                                 ["t", "x", "u", "p"], ["x0", "residual"]),
                              overwritten)
    residual = _residual(fns["init"], nx, cols, rows)
    newton = ca.rootfinder("jd_init_newton", "fast_newton", residual,
                           {"abstol": NEWTON_TOL, "max_iter": NEWTON_ITER})
    root = newton(start[cols], T, start, U, P)
    place = ca.DM.zeros(nx, len(cols))
    keep = np.ones(nx)
    for k, i in enumerate(cols):
        place[i, k], keep[i] = 1.0, 0.0
    x0 = ca.mtimes(ca.diag(ca.DM(keep)), start) + ca.mtimes(place, root)
    left = ca.norm_inf(residual(root, T, start, U, P))
    return Initialization(drive, ca.Function("jd_init", [T, X, U, P], [x0, left],
                                             ["t", "x", "u", "p"], ["x0", "residual"]),
                          overwritten, cols)


def _residual(init: ca.Function, nx: int, cols: list[int], rows: list[int]) -> ca.Function:
    """r(s, t, x, u, p): the rows ``rows`` of the initial equations with the states ``cols``
    of x replaced by the unknowns s (SX when init is, so the C stays expanded)."""
    sym = ca.SX if init.is_a("SXFunction") else ca.MX
    s, t, x = sym.sym("s", len(cols)), sym.sym("t"), sym.sym("x", nx)
    u, p = sym.sym("u", init.size1_in(2)), sym.sym("p", init.size1_in(3))
    trial = ca.vertcat(*[s[cols.index(i)] if i in cols else x[i] for i in range(nx)])
    return ca.Function("jd_init_residual", [s, t, x, u, p], [init(t, trial, u, p)[rows]])


def _unknowns(system, held) -> tuple[list[int], list[int]]:
    """(indices in x of the states the initial equations solve, their rows of init)."""
    s_init = list(getattr(system, "s_init", []))
    if not s_init or "init" not in system.functions:
        return [], []
    offset = system.nx - len(system.s_names)
    rows = [k for k, i in enumerate(s_init) if system.s_names[i] not in set(held)]
    return [offset + s_init[k] for k in rows], rows
