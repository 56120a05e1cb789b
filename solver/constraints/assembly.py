"""Assembly (DESIGN.md §3.7): consistent configurations of a constrained mechanism.

``assemble`` solves c(y) = 0 for the coordinates the user did not fix by a damped Gauss–Newton
iteration with minimum-norm steps (redundant equations are harmless); ``projector`` builds the
differentiable map that keeps closed loops free of drift: the dependent moves are found by a
fixed number of Newton steps (SX, so f can be written as C) from the integrated coordinates as
first guess. Both move the coordinates along
joint-speed directions (:mod:`.moves`), so a ball joint's quaternion stays on the unit sphere.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from .moves import Mover, newton_guess, retraction
from .sparse_qr import solve as sparse_solve

ASSEMBLY_TOL = 1e-12   # residual norm accepted as assembled [m, rad]
STALLED = 3            # Gauss–Newton steps in a row without decrease before giving up
NEWTON_STEPS = 2       # Newton steps of the projection inside f (quadratic convergence)
NEWTON_CHECK = 1e-10   # closure residual after them beyond which a simulation re-projects


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


def projector(c_ind: ca.SX, kin, p: ca.SX, dep: list[int],
              steps: int = NEWTON_STEPS) -> ca.Function:
    """project(y, p) -> (y ⊕ δ*, residual): the moves ``dep`` (joint-speed directions,
    :mod:`.moves`) solved from c_ind(y ⊕ δ) = 0 by ``steps`` Newton steps from the integrated
    coordinates (a fixed sequence of SX operations, so f stays one SX function that CasADi
    writes as C; the derivative of the last step is the implicit function theorem's at the
    converged point), and the largest closure residual |c_ind| after them [m, rad], which the
    simulation watches (it stops and restarts from the projected state when Newton has not
    converged: :data:`NEWTON_CHECK`). The unknowns of scalar moves are the dependent
    coordinates themselves, of a ball joint's moves its rotation vector δθ (from 0)."""
    y = kin.y
    if not dep:
        return ca.Function("project", [y, p], [y * 1, ca.SX(0)], ["y", "p"],
                           ["y_projected", "residual"])
    delta = ca.SX.sym("delta", len(dep))
    moved = retraction(kin, delta, dep, absolute=True)
    residual = ca.substitute(c_ind, y, moved)
    # One Newton step as a function, called ``steps`` times: each call is inlined into the
    # SX graph. The Jacobian of the closure equations is block diagonal over independent
    # loops (closure.relative_pose), which CasADi's sparse solve keeps.
    step = ca.Function("newton_step", [delta, y, p],
                       [delta - sparse_solve(ca.jacobian(residual, delta), residual)])
    d = newton_guess(kin, y, dep)
    for _ in range(steps):
        d = step(d, y, p)
    closure = ca.Function("closure", [delta, y, p], [residual])
    # Only the moved coordinates are recomputed; the others pass through unchanged, so
    # unconstrained joints see exactly their integrated values.
    out = ca.substitute(moved, delta, d)
    worst = ca.mmax(ca.fabs(closure(d, y, p))) if c_ind.numel() else ca.SX(0)
    return ca.Function("project", [y, p], [out, worst], ["y", "p"], ["y_projected", "residual"])
