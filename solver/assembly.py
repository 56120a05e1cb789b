"""Assembly (DESIGN.md §3.7): consistent configurations of a constrained mechanism.

``assemble`` solves c(y) = 0 for the coordinates the user did not fix by a damped Gauss–Newton
iteration with minimum-norm steps (redundant equations are harmless); ``projector`` builds the
differentiable map y ↦ (y_ind, y_dep(y_ind)) that keeps closed loops free of drift: y_dep is
found by Newton's method (CasADi ``rootfinder``) from the integrated y_dep as first guess, and
its derivative follows from the implicit function theorem.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

ASSEMBLY_TOL = 1e-12   # residual norm accepted as assembled [m, rad]
NEWTON_TOL = 1e-13     # rootfinder tolerance on the independent closure equations


def assemble(c_fn: ca.Function, y_guess: np.ndarray, p: np.ndarray, free: list[int],
             names: list[str], owners: list[str], max_iter: int = 100) -> np.ndarray:
    """A configuration with c(y, p) = 0 near ``y_guess``, moving only the coordinates ``free``.

    Raises a ModelError naming the unsatisfied equations' owners and the coordinates held
    fixed when no such configuration is found.
    """
    y = np.asarray(y_guess, dtype=float).copy()
    jac = c_fn.factory("c_jac", ["y", "p"], ["c", "jac:c:y"])
    for _ in range(max_iter):
        res, J = (np.array(v, dtype=float) for v in jac(y, p))
        res = res.ravel()
        if np.linalg.norm(res) <= ASSEMBLY_TOL:
            return y
        step = np.linalg.lstsq(J[:, free], -res, rcond=None)[0]
        y = _line_search(c_fn, y, p, free, step, np.linalg.norm(res))
    res = np.array(c_fn(y, p)).ravel()
    if np.linalg.norm(res) <= 1e3 * ASSEMBLY_TOL:
        return y
    raise _assembly_error(res, owners, names, free, y)


def _line_search(c_fn, y, p, free, step, norm0):
    for scale in 0.5 ** np.arange(12):
        trial = y.copy()
        trial[free] += scale * step
        if np.linalg.norm(np.array(c_fn(trial, p)).ravel()) < norm0:
            return trial
    trial = y.copy()
    trial[free] += step
    return trial


def _assembly_error(res, owners, names, free, y) -> ModelError:
    worst = np.argsort(-np.abs(res))
    bad = list(dict.fromkeys(owners[i] for i in worst if abs(res[i]) > 1e-9))
    fixed = [n for i, n in enumerate(names) if i not in free]
    return ModelError(
        "assembly failed: the constraints of " + ", ".join(bad) + " cannot be satisfied "
        f"(largest residual {np.abs(res).max():.3g}" +
        (", with " + ", ".join(f"{n} = {y[names.index(n)]:.6g}" for n in fixed) + " held fixed"
         if fixed else "") +
        "); check the link lengths and contact heights, or give other initial coordinates")


def projector(c_ind: ca.SX, y: ca.SX, p: ca.SX, dep: list[int]) -> ca.Function:
    """project(y, p) -> y: the dependent coordinates replaced by the root of c_ind = 0 near
    their given values (Newton, CasADi rootfinder)."""
    ny = y.numel()
    if not dep:
        Y, P = ca.MX.sym("y", ny), ca.MX.sym("p", p.numel())
        return ca.Function("project", [Y, P], [Y * 1], ["y", "p"], ["y_projected"])
    yd = ca.SX.sym("y_dep", len(dep))
    y_sub = ca.vertcat(*[yd[dep.index(i)] if i in dep else y[i] for i in range(ny)])
    residual = ca.Function("closure", [yd, y, p], [ca.substitute(c_ind, y, y_sub)])
    solver = ca.rootfinder("closure_newton", "newton", residual,
                           {"abstol": NEWTON_TOL, "max_iter": 50})
    Y, P = ca.MX.sym("y", ny), ca.MX.sym("p", p.numel())
    root = solver(Y[dep], Y, P)
    keep = np.ones(ny)
    keep[dep] = 0
    place = ca.DM.zeros(ny, len(dep))
    for k, i in enumerate(dep):
        place[i, k] = 1
    out = ca.diag(ca.DM(keep)) @ Y + ca.mtimes(place, root)
    return ca.Function("project", [Y, P], [out], ["y", "p"], ["y_projected"])
