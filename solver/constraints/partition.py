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

NU_SWITCH = 10.0  # a partition's conditioning ν up to which it is always acceptable
NU_RATIO = 10.0   # … and beyond, while within NU_RATIO times the best partition's ν
HYSTERESIS = 4.0  # a switch during a simulation needs a ν this many times smaller
EXHAUSTIVE = 200  # choices of dependent columns tried one by one (else pivoted QR)
SX_BLOCK = 4      # dependent blocks up to this size are monitored in SX (cofactors)


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
                          scale: np.ndarray) -> ca.Function:
    """conditioning(y, p) -> (nu, det): the conditioning of the dependent-coordinate
    Jacobians of ``part``,

        ν = ‖Â_dep⁻¹‖_F,   Â = D·A over the independent rows, D = diag(``scale``),

    for the velocity rows and dependent speeds (G's A_dep) and, when they differ, the
    holonomic rows and dependent moves (Newton's ∂c/∂δ_dep), the larger of the two; and
    det(Â_dep) of each (1 or 2 entries), whose signs change where the motion crosses the
    partition's singular set. A is the full constraint Jacobian (all rows, in the joint
    speeds) and D scales each row to unit length at the reference configuration
    (:func:`row_scale`), so ν does not depend on the units or the scaling of the equations,
    yet grows where a row vanishes. A dependent speed moves at most ν·‖Â_ind·z‖ for
    independent speeds z; ν → ∞ where the partition is singular (a crank at a dead point) or
    the constraints lose rank (a bifurcation). Blocks up to SX_BLOCK rows are expanded (SX),
    larger ones use a numeric LU (MX), so any size of loop costs one small factorization."""
    blocks = [(part.velocity_rows, part.dependent_speeds)]
    if (part.holonomic_rows, part.dependent_moves) != blocks[0]:
        blocks.append((part.holonomic_rows, part.dependent_moves))
    # Small blocks in SX (cofactors: det and inverse stay short, and CVODES's Jacobian is
    # plain arithmetic), larger ones in MX with a numeric LU (cofactors grow as m!).
    small = all(len(rows) <= SX_BLOCK for rows, _ in blocks)
    sym = ca.SX if small else ca.MX
    Y, P = sym.sym("y", y.numel()), sym.sym("p", p.numel())
    A_num = ca.substitute(A, ca.vertcat(y, p), ca.vertcat(Y, P)) if small else \
        ca.Function("A_full", [y, p], [A])(Y, P)
    nu, dets = sym(1.0), []
    for rows, cols in blocks:
        if rows and cols:
            dep = ca.mtimes(ca.diag(ca.DM(scale[rows])), A_num[rows, cols])
            inverse = ca.inv(dep) if small else ca.solve(dep, ca.MX.eye(len(rows)))
            nu = ca.fmax(nu, ca.norm_fro(inverse))
            dets.append(ca.det(dep))
    det = ca.vertcat(*dets) if dets else sym.ones(1)
    return ca.Function("conditioning", [Y, P], [nu, det], ["y", "p"], ["nu", "det"])


def explicit_form(A: ca.SX, dep: list[int], indep: list[int], n: int) -> ca.SX:
    """G(y) with A·G = 0 (nonholonomic constraints; Murray, Li and Sastry 1994): w_dep = −A_dep⁻¹·A_ind·z, w_ind = z."""
    A_dep, A_ind = A[:, dep], A[:, indep]
    W_dep = -ca.solve(A_dep, A_ind) if dep else ca.SX(0, len(indep))
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
