"""Assembly (DESIGN.md §3.7): consistent configurations of a constrained mechanism.

``assemble`` solves c(y) = 0 for the coordinates the user did not fix by a damped Gauss–Newton
iteration with minimum-norm steps (redundant equations are harmless); ``projector`` builds the
differentiable map that keeps closed loops free of drift: the dependent moves are found by
Newton's method (CasADi ``rootfinder``) from the integrated coordinates as first guess, and
their derivative follows from the implicit function theorem. Both move the coordinates along
joint-speed directions (:mod:`.moves`), so a ball joint's quaternion stays on the unit sphere.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.numerics import LINEAR_SOLVER
from .moves import Mover, moved_coordinates, newton_guess, retraction

ASSEMBLY_TOL = 1e-12   # residual norm accepted as assembled [m, rad]
NEWTON_TOL = 1e-13     # rootfinder tolerance on the independent closure equations
STALLED = 3            # Gauss–Newton steps in a row without decrease before giving up


def assemble(mv: Mover, y_guess: np.ndarray, p: np.ndarray, free: list[int],
             names: list[str], owners: list[str], max_iter: int = 100) -> np.ndarray:
    """A configuration with c(y, p) = 0 near ``y_guess``, moving only along the joint-speed
    directions ``free`` (indices into w; a ball joint's directions are rotation-vector
    components, :mod:`.moves`): δ = −J⁺·c with J = ∂c(y ⊕ δ)/∂δ = C·N, then y ← y ⊕ δ.

    Raises a ModelError naming the unsatisfied equations' owners and the coordinates held
    fixed when no such configuration is found.
    """
    y = np.asarray(y_guess, dtype=float).copy()
    stalled = 0
    for _ in range(max_iter):
        res, J = (np.array(v, dtype=float) for v in mv.linear(y, p))
        res = res.ravel()
        if np.linalg.norm(res) <= ASSEMBLY_TOL:
            return y
        if not (np.isfinite(res).all() and np.isfinite(J[:, free]).all()):
            bad = list(dict.fromkeys(owners[i] for i in range(res.size)
                                     if not np.isfinite(res[i]) or
                                     not np.isfinite(J[i, free]).all()))
            raise ModelError("assembly failed: the constraints of " + ", ".join(bad) + " are "
                             "undefined at " + ", ".join(f"{n} = {v:.6g}" for n, v in
                                                         zip(names, y)) +
                             " (e.g. a line force of zero length or a disk lying flat)")
        step = np.zeros(J.shape[1])
        step[free] = np.linalg.lstsq(J[:, free], -res, rcond=None)[0]
        y, decreased = _line_search(mv, y, p, step, np.linalg.norm(res))
        # a stationary point of |c|² that is no root (a mirror pose, an unreachable
        # geometry): stop after a few kicks instead of spending max_iter line searches
        stalled = 0 if decreased else stalled + 1
        if stalled == STALLED:
            break
    res = np.array(mv.c(y, p)).ravel()
    if np.linalg.norm(res) <= 1e3 * ASSEMBLY_TOL:
        return y
    moved = {i for j in free for i in mv.moved[j]}
    raise _assembly_error(res, list(owners) + list(mv.branch_owners), names, moved, y,
                          len(mv.branch_owners))


def _line_search(mv: Mover, y, p, step, norm0) -> tuple[np.ndarray, bool]:
    for scale in 0.5 ** np.arange(12):
        trial = np.array(mv.retract(y, scale * step)).ravel()
        if np.linalg.norm(np.array(mv.c(trial, p)).ravel()) < norm0:
            return trial, True
    return np.array(mv.retract(y, step)).ravel(), False


def _assembly_error(res, owners, names, moved, y, n_branch: int = 0) -> ModelError:
    worst = np.argsort(-np.abs(res))
    bad = list(dict.fromkeys(owners[i] for i in worst if abs(res[i]) > 1e-9))
    fixed = [n for i, n in enumerate(names) if i not in moved]
    n_c = len(res) - n_branch
    mirror = n_branch and np.abs(res[:n_c]).max(initial=0) <= 1e-9 < np.abs(res[n_c:]).max()
    return ModelError(
        "assembly failed: the constraints of " + ", ".join(bad) + " cannot be satisfied "
        f"(largest residual {np.abs(res).max():.3g}" +
        ("; the closest pose is a mirror image of a cut joint's (its axis reversed or its "
         "frame turned by 180°)" if mirror else "") +
        (", with " + ", ".join(f"{n} = {y[names.index(n)]:.6g}" for n in fixed) + " held fixed"
         if fixed else "") +
        "); check the link lengths and contact heights, or give other initial coordinates")


def projector(c_ind: ca.SX, kin, p: ca.SX, dep: list[int]) -> ca.Function:
    """project(y, p) -> y ⊕ δ*: the moves ``dep`` (joint-speed directions, :mod:`.moves`)
    solved from c_ind(y ⊕ δ) = 0 by Newton (CasADi rootfinder) from the integrated
    coordinates as first guess; differentiable by the implicit function theorem. The unknowns
    of scalar moves are the dependent coordinates themselves, of a ball joint's moves its
    rotation vector δθ (from 0)."""
    y = kin.y
    ny = y.numel()
    Y, P = ca.MX.sym("y", ny), ca.MX.sym("p", p.numel())
    if not dep:
        return ca.Function("project", [Y, P], [Y * 1], ["y", "p"], ["y_projected"])
    delta = ca.SX.sym("delta", len(dep))
    moved = retraction(kin, delta, dep, absolute=True)
    residual = ca.Function("closure", [delta, y, p], [ca.substitute(c_ind, y, moved)])
    solver = ca.rootfinder("closure_newton", "newton", residual,
                           {"abstol": NEWTON_TOL, "max_iter": 50,
                            "linear_solver": LINEAR_SOLVER})
    root = solver(newton_guess(kin, Y, dep), Y, P)
    # Only the moved coordinates are recomputed; the others pass through a selection matrix,
    # so a loop of scalar joints gets exactly the arithmetic of Newton on its coordinates.
    changed = sorted({i for j in dep for i in moved_coordinates(kin)[j]})
    new_values = ca.Function("moved_values", [y, delta], [moved[changed]])
    keep, place = np.ones(ny), ca.DM.zeros(ny, len(changed))
    keep[changed] = 0
    for k, i in enumerate(changed):
        place[i, k] = 1
    out = ca.diag(ca.DM(keep)) @ Y + ca.mtimes(place, new_values(Y, root))
    return ca.Function("project", [Y, P], [out], ["y", "p"], ["y_projected"])
