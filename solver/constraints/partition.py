"""Stage 4, rank analysis (DESIGN.md §3.4; Murray, Li and Sastry 1994): the independent rows of the constraint
equations at an assembled configuration, the partition into dependent and independent
coordinates and speeds, and the explicit form w = G(y)·z with A·G = 0.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import casadi as ca
import numpy as np
import scipy.linalg

from jourdain.blocks.errors import ModelError

from ..model.mechanics import Mechanics
from ..model.rank import RANK_TOL, independent_rows, numeric_rank, pick_columns  # noqa: F401
from ..model.topology import drives_flange, follows_coupling
from .closure import ConstraintEquations
from .moves import moved_coordinates
from .sparse_qr import DENSE_MAX, inverse_norm_det
from .sparse_qr import solve as sparse_solve

NU_SWITCH = 10.0  # a partition's conditioning ν up to which it is always acceptable
NU_RATIO = 10.0   # … and beyond, while within NU_RATIO times the best partition's ν
HYSTERESIS = 4.0  # a switch during a simulation needs a ν this many times smaller
EXHAUSTIVE = 200  # choices of dependent columns tried one by one (else pivoted QR)
SX_BLOCK = 4      # determinants of dependent blocks up to this size by cofactors


@dataclass
class Partition:
    """The outcome of the rank analysis at an assembled configuration y_ref."""

    y_ref: np.ndarray
    holonomic_rows: list[int]      # independent rows of c
    redundant_rows: list[int]      # rows of c implied by the others (consistent at y_ref)
    velocity_rows: list[int]       # independent rows of A (holonomic rows first)
    velocity_redundant: list[int]  # rows of A implied by the others
    dependent_moves: list[int]     # joint-speed directions solved by Newton (.moves)
    dependent_coordinates: list[int]   # the coordinates those moves change
    dependent_speeds: list[int]
    independent_speeds: list[int]


def _preference(units: list[str], translational: str) -> list[int]:
    """Dependent candidates: translational entries first (a position or velocity is the natural
    unknown of a contact or slider), then the later-declared ones, so the first-declared joint
    (the crank of a linkage) stays independent."""
    idx = list(range(len(units)))[::-1]
    return [i for i in idx if units[i] == translational] + \
        [i for i in idx if units[i] != translational]


def partition(mech: Mechanics, eqs: ConstraintEquations, y_ref: np.ndarray, p: np.ndarray,
              keep_speeds: list[int]) -> Partition:
    """Rank analysis at y_ref: independent equations, dependent coordinates and speeds.

    keep_speeds : joint speeds the user chose as generalized speeds (kept independent).
    """
    y, pp = mech.kin.y, mech.params.p
    C = np.array(ca.Function("C", [y, pp], [ca.jacobian(eqs.c, y)])(y_ref, p))
    A = np.array(ca.Function("A", [y, pp], [eqs.A])(y_ref, p))
    _check_finite(A, eqs, mech, y_ref)
    rows, vrows = independent_rows(C), independent_rows(A)
    moved = moved_coordinates(mech.kin)
    dep_m = _dependent_moves(mech, eqs, A[rows], rows, keep_speeds, moved)
    dep_w = _dependent_speeds(mech, eqs, A[vrows], vrows, keep_speeds)
    unit = A / np.maximum(np.linalg.norm(A, axis=1, keepdims=True), 1e-300)
    free = [j for j in range(A.shape[1]) if j not in keep_speeds]   # the user's stay
    dep_m = _conditioned(unit[rows], dep_m, [j for j in free if moved[j]])
    dep_w = _conditioned(unit[vrows], dep_w, free)
    dep_y = sorted({i for j in dep_m for i in moved[j]})
    indep = [j for j in range(A.shape[1]) if j not in dep_w]
    indep = [j for j in keep_speeds] + [j for j in indep if j not in keep_speeds]
    red = [i for i in range(C.shape[0]) if i not in rows]
    vred = [i for i in range(A.shape[0]) if i not in vrows]
    return Partition(y_ref, rows, red, vrows, vred, dep_m, dep_y, dep_w, indep)


def _conditioned(A: np.ndarray, chosen: list[int], candidates: list[int]) -> list[int]:
    """The preferred dependent columns while acceptable (their conditioning ν, rows of unit
    length, at most NU_SWITCH or NU_RATIO times the best choice's), else the best (e.g. a
    FreeJoint loop whose preferred dependent speeds gave ν = 410 against 3)."""
    best = best_columns(A, candidates, [])
    if best is None or nu_of(A, chosen) <= max(NU_SWITCH, NU_RATIO * nu_of(A, best)):
        return chosen
    return best


def _check_finite(A: np.ndarray, eqs, mech: Mechanics, y_ref: np.ndarray) -> None:
    """Constraint Jacobians must be defined at the reference configuration."""
    bad = [i for i in range(A.shape[0]) if not np.isfinite(A[i]).all()]
    if bad:
        owners = _owners(eqs.c_owner + eqs.b_owner, bad)
        raise ModelError(
            f"the constraints of {owners} are undefined at the reference configuration (" +
            ", ".join(f"{c.name} = {v:.6g}" for c, v in zip(mech.kin.coordinates, y_ref)) +
            "): e.g. a rolling disk lying flat (check that the contact axis is the disk's "
            "axle and that the default pose stands the disk up)")


def _dependent_moves(mech: Mechanics, eqs, CN: np.ndarray, rows: list,
                     keep_speeds: list[int], moved: list[list[int]]) -> list[int]:
    """One move (joint-speed direction, .moves) per independent closure equation with a
    non-singular ∂c/∂δ_dep = (C·N)_dep; a ball joint's rotation-vector directions qualify
    (``moved``: moves.moved_coordinates)."""
    kin = mech.kin
    candidates = [j for j in _followers_first(mech, _preference([r.unit for r in kin.rates],
                                                                 "m/s"))
                  if moved[j] and j not in keep_speeds]
    dep = pick_columns(CN, candidates, len(rows))
    if len(dep) < len(rows):
        raise ModelError("the closure equations of " + _owners(eqs.c_owner, rows) +
                         " cannot be solved for joint coordinates at the assembled "
                         "configuration (a singular position of the mechanism); assemble it "
                         "in a non-singular configuration")
    return dep


def _dependent_speeds(mech: Mechanics, eqs, A: np.ndarray, vrows: list,
                      keep_speeds: list[int]) -> list[int]:
    """One joint speed per independent velocity constraint, with a non-singular A_dep."""
    kin = mech.kin
    owners = _owners(eqs.c_owner + eqs.b_owner, vrows)
    # Speeds of driven joints (a motor or damper on the axis flange) are the last candidates:
    # the inputs then act on generalized speeds directly.
    driven = [j for j, r in enumerate(kin.rates) if drives_flange(mech.flat, r.joint)]
    order = [j for j in _preference([r.unit for r in kin.rates], "m/s") if j not in keep_speeds]
    order = [j for j in order if j not in driven] + [j for j in order if j in driven]
    dep_w = pick_columns(A, _followers_first(mech, order), len(vrows))
    if len(dep_w) < len(vrows):
        raise ModelError("the speeds chosen as generalized speeds (" +
                         ", ".join(kin.rates[j].name for j in keep_speeds) +
                         ") are not independent under the constraints of " + owners +
                         "; choose others")
    if len(dep_w) == A.shape[1]:
        raise _no_freedom(eqs)
    return dep_w


def _followers_first(mech: Mechanics, order: list[int]) -> list[int]:
    """``order`` with the speeds of joints that follow a coupling (mimic joints) first."""
    follower = [j for j in order if follows_coupling(mech.flat, mech.kin.rates[j].joint)]
    return follower + [j for j in order if j not in follower]


def _no_freedom(eqs) -> ModelError:
    """Every speed is determined: name all constraint owners and the likely remedy."""
    hints = []
    if any("closing the loop" in o for o in eqs.c_owner):
        hints.append("a closed loop without mobility is a rigid structure (e.g. a triangle of "
                     "links): remove a joint or a link")
    if eqs.b_owner:
        hints.append("a contact needs a body free to roll and turn, e.g. on a FreeJoint or on "
                     "joints for position, heading and spin")
    owners = ", ".join(dict.fromkeys(eqs.c_owner + eqs.b_owner))
    return ModelError("the constraints of " + owners + " leave the mechanism no freedom of "
                      "motion (every speed is determined); " + "; ".join(hints))


def _owners(owners: list[str], rows) -> str:
    return ", ".join(dict.fromkeys(owners[i] for i in rows))


def row_scale(A: ca.SX, mech: Mechanics, y_ref: np.ndarray, p: np.ndarray) -> np.ndarray:
    """1/‖A_i‖ of every constraint row at the reference configuration (1 for a row that
    vanishes there): the fixed row scaling of :func:`conditioning_function`."""
    rows = np.array(ca.Function("A", [mech.kin.y, mech.params.p], [A])(y_ref, p), dtype=float)
    norms = np.linalg.norm(rows, axis=1)
    return 1.0 / np.where(norms > 0, norms, 1.0)


def conditioning_function(A: ca.SX, y: ca.SX, p: ca.SX, part: Partition,
                          scale: np.ndarray, p0: np.ndarray | None = None) -> ca.Function:
    """conditioning(y, p) -> (nu, det): the conditioning of the dependent-coordinate
    Jacobians of ``part``,

        ν = ‖Â_dep⁻¹‖_F,   Â = D·A over the independent rows, D = diag(``scale``),

    for the velocity rows and dependent speeds (G's A_dep) and, when they differ, the
    holonomic rows and dependent moves (Newton's ∂c/∂δ_dep), the larger of the two; and the
    determinants of the diagonal blocks of Â_dep, whose signs change where the motion crosses
    the partition's singular set. A is the full constraint Jacobian (all rows, in the joint
    speeds) and D scales each row to unit length at the reference configuration
    (:func:`row_scale`), so ν does not depend on the units or the scaling of the equations,
    yet grows where a row vanishes. A dependent speed moves at most ν·‖Â_ind·z‖ for
    independent speeds z; ν → ∞ where the partition is singular (a crank at a dead point) or
    the constraints lose rank (a bifurcation).

    Â_dep is block diagonal over independent loops (:func:`.closure.relative_pose`), so
    ‖Â_dep⁻¹‖_F² is the sum over the blocks and each block is inverted on its own (SX:
    CasADi's sparse symbolic solve); det of a block is the product of the determinants of its
    block-triangular diagonal blocks (cofactors up to SX_BLOCK rows, elimination in a pivot
    order fixed at the reference beyond), so any number of loops costs a few small
    factorizations per loop. ``p0``: the parameter values at which the elimination's pivot
    order is chosen (partial pivoting at y_ref; default zeros)."""
    blocks = [(part.velocity_rows, part.dependent_speeds)]
    if (part.holonomic_rows, part.dependent_moves) != blocks[0]:
        blocks.append((part.holonomic_rows, part.dependent_moves))
    p0 = np.zeros(p.numel()) if p0 is None else p0
    nu, dets = ca.SX(1.0), []
    for rows, cols in blocks:
        if rows and cols:
            dep = ca.mtimes(ca.diag(ca.DM(scale[rows])), A[rows, cols])
            squares = []
            dep_ref = ca.Function("dep", [y, p], [dep])(part.y_ref, p0)
            for r, c in _diagonal_blocks(dep):
                B = dep[r, c]
                if len(r) > DENSE_MAX and len(r) == len(c):   # loops sharing links
                    square, det = inverse_norm_det(B)
                    squares.append(square)
                    dets.append(det)
                    continue
                squares.append(ca.sumsqr(ca.solve(B, ca.SX.eye(len(r)))))
                dets.append(_block_det(B, np.array(dep_ref[r, c], dtype=float)))
            nu = ca.fmax(nu, ca.sqrt(sum(squares, ca.SX(0))))
    det = ca.vertcat(*dets) if dets else ca.SX.ones(1)
    return ca.Function("conditioning", [y, p], [nu, det], ["y", "p"], ["nu", "det"])


def _diagonal_blocks(M: ca.SX) -> list[tuple[list[int], list[int]]]:
    """(rows, cols) of the connected parts of M's structure (a block diagonal matrix up to
    permutations: the independent loops of a partition)."""
    sp = M.sparsity()
    rows_of, cols_of = sp.row(), sp.get_col()
    parent = list(range(M.shape[0] + M.shape[1]))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    for r, c in zip(rows_of, cols_of):
        parent[find(r)] = find(M.shape[0] + c)
    groups: dict = {}
    for i in range(M.shape[0] + M.shape[1]):
        groups.setdefault(find(i), []).append(i)
    out = []
    for members in groups.values():
        r = [i for i in members if i < M.shape[0]]
        c = [i - M.shape[0] for i in members if i >= M.shape[0]]
        out.append((r, c))
    return out


def _block_det(B: ca.SX, B_ref: np.ndarray) -> ca.SX:
    """det B as the product of its block-triangular diagonal blocks' determinants (a
    structurally singular block: det 0); ``B_ref``: B at the reference configuration."""
    if B.shape[0] != B.shape[1]:
        return ca.SX(0)
    nb, rowperm, colperm, rowblock, colblock, _, _ = B.sparsity().btf()
    det = ca.SX(1)
    for k in range(nb):
        r = rowperm[rowblock[k]:rowblock[k + 1]]
        c = colperm[colblock[k]:colblock[k + 1]]
        if len(r) != len(c):
            return ca.SX(0)
        sub = B[r, c]
        det = det * (ca.det(sub) if len(r) <= SX_BLOCK else
                     _elimination_det(sub, B_ref[np.ix_(r, c)]))
    return det


def _elimination_det(B: ca.SX, B_ref: np.ndarray) -> ca.SX:
    """det of a larger dense block by Gaussian elimination in a row order fixed by partial
    pivoting at the reference (the product of the pivots times the order's sign; cofactor
    expansion would grow as m!)."""
    P, _, _ = scipy.linalg.lu(B_ref)
    order = [int(np.argmax(P[:, k])) for k in range(B_ref.shape[0])]
    sign = float(np.linalg.det(P)) if B_ref.size else 1.0
    U = ca.SX(B[order, :])
    n = U.shape[0]
    det = ca.SX(sign)
    for k in range(n):
        det = det * U[k, k]
        for i in range(k + 1, n):
            factor = U[i, k] / U[k, k]
            for j in range(k + 1, n):
                U[i, j] = U[i, j] - factor * U[k, j]
    return det


def explicit_form(A: ca.SX, dep: list[int], indep: list[int], n: int) -> ca.SX:
    """G(y) with A·G = 0 (nonholonomic constraints; Murray, Li and Sastry 1994): w_dep = −A_dep⁻¹·A_ind·z, w_ind = z."""
    A_dep, A_ind = A[:, dep], A[:, indep]
    W_dep = -sparse_solve(A_dep, A_ind) if dep else ca.SX(0, len(indep))
    G = ca.SX.zeros(n, len(indep))
    for k, j in enumerate(indep):
        G[j, k] = 1
    for k, j in enumerate(dep):
        G[j, :] = W_dep[k, :]
    return G


def nu_of(A_rows: np.ndarray, cols: list[int]) -> float:
    """ν = ‖Â_dep⁻¹‖_F of scaled constraint rows ``A_rows`` for the dependent columns
    ``cols`` (infinite when singular)."""
    if not cols:
        return 1.0
    try:
        return float(np.linalg.norm(np.linalg.inv(A_rows[:, cols])))
    except np.linalg.LinAlgError:
        return np.inf


def best_columns(A: np.ndarray, candidates: list[int], keep: list[int]) -> list[int] | None:
    """m = rows of A columns among ``candidates`` of least ν, the ``keep`` columns (the
    user's speeds) left independent unless that choice is worse than NU_SWITCH and
    HYSTERESIS times the best; [] without rows; None when no choice is regular."""
    m = A.shape[0]
    if m == 0:
        return []
    best = _least_nu(A, candidates, m)
    kept = _least_nu(A, [j for j in candidates if j not in keep], m) if keep else None
    if kept is not None and best is not None and \
            nu_of(A, kept) <= max(NU_SWITCH, HYSTERESIS * nu_of(A, best)):
        return kept
    return best


def _least_nu(A: np.ndarray, allowed: list[int], m: int) -> list[int] | None:
    if len(allowed) < m:
        return None
    choices = list(itertools.islice(itertools.combinations(allowed, m), EXHAUSTIVE + 1))
    if len(choices) > EXHAUSTIVE:   # too many to try: pivoted QR's greedy choice
        _, _, perm = scipy.linalg.qr(A[:, allowed], pivoting=True, mode="economic")
        choices = [pick_columns(A, [allowed[i] for i in perm], m)]
    nus = [nu_of(A, list(c)) if len(c) == m else np.inf for c in choices]
    best = int(np.argmin(nus))
    return sorted(choices[best]) if np.isfinite(nus[best]) else None
