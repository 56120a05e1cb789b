"""Stage 4, rank analysis (DESIGN.md §3.4; Murray, Li and Sastry 1994): the independent rows of the constraint
equations at an assembled configuration, the partition into dependent and independent
coordinates and speeds, and the explicit form w = G(y)·z with A·G = 0.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.mechanics import Mechanics
from ..model.rank import RANK_TOL, independent_rows, numeric_rank, pick_columns  # noqa: F401
from ..model.topology import drives_flange
from .closure import ConstraintEquations
from .moves import moved_coordinates


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
    dep_y = sorted({i for j in dep_m for i in moved[j]})
    dep_w = _dependent_speeds(mech, eqs, A[vrows], vrows, keep_speeds)
    indep = [j for j in range(A.shape[1]) if j not in dep_w]
    indep = [j for j in keep_speeds] + [j for j in indep if j not in keep_speeds]
    red = [i for i in range(C.shape[0]) if i not in rows]
    vred = [i for i in range(A.shape[0]) if i not in vrows]
    return Partition(y_ref, rows, red, vrows, vred, dep_m, dep_y, dep_w, indep)


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
    candidates = [j for j in _preference([r.unit for r in kin.rates], "m/s")
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
    dep_w = pick_columns(A, order, len(vrows))
    if len(dep_w) < len(vrows):
        raise ModelError("the speeds chosen as generalized speeds (" +
                         ", ".join(kin.rates[j].name for j in keep_speeds) +
                         ") are not independent under the constraints of " + owners +
                         "; choose others")
    if len(dep_w) == A.shape[1]:
        raise _no_freedom(eqs)
    return dep_w


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
