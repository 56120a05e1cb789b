"""Dynamic re-partitioning of closed loops (dynamic state selection, as Modelica tools do:
S. E. Mattsson, H. Olsson, H. Elmqvist, "Dynamic selection of states in Dymola", Modelica
Workshop 2000).

Coordinate partitioning solves the dependent coordinates from the independent ones; that
fails where the dependent-coordinate Jacobian is singular although the mechanism is not (the
crank of a non-Grashof four-bar at its dead point: the rocker still moves). The simulation
monitors the partition's conditioning ν(y) (:func:`.partition.conditioning_expr`) and, when it
degrades past the partition's switch level, stops and asks this module for a better partition
at the current configuration: the dependent speeds and moves of least ν among all choices
(pivoted QR when there are too many to try). Each partition's named functions are compiled
once and kept (:class:`PartitionBank`), so switching back and forth is cheap.

Thresholds (documented in docs/constraints.md):

* the switch level of a partition is max(NU_SWITCH, NU_RATIO·ν₀), ν₀ its conditioning where
  the simulation started using it;
* a new partition is taken when its ν is at least HYSTERESIS times smaller than the current
  one's; else the current one continues with a raised level, until ν reaches NU_SINGULAR,
  where no partition is valid: the constraints lose rank (a singular configuration of the
  mechanism, e.g. a four-bar folded flat) and a SimulationError says which constraints.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import casadi as ca
import numpy as np
import scipy.linalg

from jourdain.blocks.errors import SimulationError

from ..equations.functions import named_functions, names_of
from ..equations.projection import jourdain
from ..model.mechanics import Mechanics
from .analysis import constrained_speeds
from .methods import ConstraintMethod, constraint_functions, method_functions, state_expr
from .moves import moved_coordinates
from .partition import Partition, explicit_form, pick_columns

NU_SWITCH = 10.0       # lowest switch level of ν
NU_RATIO = 10.0        # switch level: NU_RATIO × ν where the partition took over
HYSTERESIS = 4.0       # a new partition must have a ν this many times smaller
NU_SINGULAR = 1e8      # ν beyond which, with no better partition, the constraints lost rank
EXHAUSTIVE = 200       # choices of dependent speeds tried one by one (else pivoted QR)


@dataclass(frozen=True)
class PartitionSwitch:
    """One switch of the partition during a simulation (``Result.switches``)."""

    t: float                          # [s]
    independent_before: tuple         # independent coordinates before the switch
    independent_after: tuple
    speeds_before: tuple              # independent joint speeds before the switch
    speeds_after: tuple
    conditioning_before: float        # ν of the old partition at the switch
    conditioning_after: float         # ν of the new one


class PartitionModel:
    """The named functions of one partition (f, project, f_projected, G, conditioning, energy,
    h, …) and its names; attribute access reaches the functions, as on a System, so the
    simulation's Result can be built from it."""

    def __init__(self, partition: Partition, functions: dict, names: dict):
        self.partition = partition
        self.functions = functions
        self.y_names, self.z_names = names["y"], names["z"]
        self.s_names, self.u_names = names.get("s", []), names["u"]
        self.output_names = names["out"]

    def __getattr__(self, key):
        try:
            return self.__dict__["functions"][key]
        except KeyError:
            raise AttributeError(key) from None

    @property
    def x_names(self) -> list[str]:
        return self.y_names + self.z_names + self.s_names

    def independent_coordinates(self) -> tuple:
        dep = set(self.partition.dependent_coordinates)
        return tuple(n for i, n in enumerate(self.y_names) if i not in dep)


class PartitionBank:
    """The partitions of one compiled mechanism, built on demand and cached by their choice of
    dependent moves and speeds; ``initial`` is the compiled System's own."""

    def __init__(self, mech: Mechanics, eqs, part: Partition, keep: list[int],
                 user_names: list[str], functions: dict, names: dict):
        self._mech, self._eqs, self._keep = mech, eqs, list(keep)
        self._user = dict(zip(keep, user_names))
        self._A = ca.Function("A_full", [mech.kin.y, mech.params.p], [eqs.A])
        self._moved = moved_coordinates(mech.kin)
        self.speed_names = [r.name for r in mech.kin.rates]
        self.owners = eqs.c_owner + eqs.b_owner
        self.initial = PartitionModel(part, functions, names)
        self._models = {_key(part): self.initial}

    def model(self, part: Partition) -> PartitionModel:
        """The partition's functions (compiled on first use)."""
        key = _key(part)
        if key not in self._models:
            self._models[key] = self._build(part)
        return self._models[key]

    def _build(self, part: Partition) -> PartitionModel:
        mech, eqs = self._mech, self._eqs
        A = eqs.A[part.velocity_rows, :]
        G = explicit_form(A, part.dependent_speeds, part.independent_speeds, mech.kin.w.numel())
        names = [self._user[j] for j in part.independent_speeds if j in self._user]
        sp = constrained_speeds(mech, G, part, names)
        eom = jourdain(mech, sp)
        functions = named_functions(mech, sp, eom, eom.zdot)
        method_functions(functions, mech, sp, eom, eqs, part, A,
                         ConstraintMethod.PARTITIONING, (0.0, 0.0))
        functions.update(constraint_functions(mech, eqs, A, G, state_expr(mech, sp), part))
        return PartitionModel(part, functions, names_of(mech, sp))

    def candidate(self, y: np.ndarray, p: np.ndarray, current: Partition) -> Partition | None:
        """The best-conditioned partition at y (same independent rows as ``current``), the
        user's speeds kept independent where the constraints allow; None if the rows have
        lost rank."""
        A = _unit_rows(np.array(self._A(y, p), dtype=float))
        n = A.shape[1]
        movers = [j for j in range(n) if self._moved[j]]
        dep_m = _best_columns(A[current.holonomic_rows], movers, self._keep)
        dep_w = _best_columns(A[current.velocity_rows], list(range(n)), self._keep)
        if dep_m is None or dep_w is None:
            return None
        dep_y = sorted({i for j in dep_m for i in self._moved[j]})
        free = [j for j in range(n) if j not in dep_w]
        indep = [j for j in self._keep if j in free] + [j for j in free if j not in self._keep]
        return Partition(np.asarray(y, dtype=float).copy(), current.holonomic_rows,
                         current.redundant_rows, current.velocity_rows,
                         current.velocity_redundant, dep_m, dep_y, dep_w, indep)

    def singular_error(self, t: float, y: np.ndarray, p: np.ndarray, part: Partition,
                       nu: float, y_names: list[str]) -> SimulationError:
        """No partition is valid at y: name the constraints that became dependent."""
        A = _unit_rows(np.array(self._A(y, p), dtype=float))[part.velocity_rows]
        U, sv, Vt = np.linalg.svd(A)
        rows = [part.velocity_rows[i] for i in np.flatnonzero(np.abs(U[:, -1]) > 0.2)]
        speeds = [self.speed_names[j] for j in np.flatnonzero(np.abs(Vt[len(sv) - 1]) > 0.2)]
        owners = ", ".join(dict.fromkeys(self.owners[r] for r in rows))
        config = ", ".join(f"{name} = {v:.6g}" for name, v in zip(y_names, y))
        return SimulationError(
            f"at t = {t:.6g} s the mechanism reaches a singular configuration: the constraints "
            f"of {owners} lose rank (smallest singular value of the row-scaled constraint "
            f"Jacobian {sv[-1]:.2e}, conditioning of the best partition ν = {nu:.3g} > "
            f"{NU_SINGULAR:g}), so no choice of independent coordinates parametrizes the motion "
            f"there (speeds involved: {', '.join(speeds)}); configuration: {config}. The "
            "mechanism locks or bifurcates there (links aligned, a loop folded flat): change "
            "the geometry or the initial state; ConstraintMethod.DAE meets the same singularity")


def _key(part: Partition) -> tuple:
    return tuple(sorted(part.dependent_moves)), tuple(sorted(part.dependent_speeds))


def _unit_rows(A: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(A, axis=1, keepdims=True)
    return A / np.where(norms > 0, norms, 1.0)


def nu_of(A_rows: np.ndarray, cols: list[int]) -> float:
    """ν = ‖Â_dep⁻¹‖_F of unit-row constraints ``A_rows`` for the dependent columns ``cols``
    (infinite when singular)."""
    if not cols:
        return 1.0
    try:
        return float(np.linalg.norm(np.linalg.inv(A_rows[:, cols])))
    except np.linalg.LinAlgError:
        return np.inf


def _best_columns(A: np.ndarray, candidates: list[int], keep: list[int]) -> list[int] | None:
    """m = rows of A columns among ``candidates`` of least ν, the ``keep`` columns avoided
    when possible; [] without rows; None when no choice is regular."""
    m = A.shape[0]
    if m == 0:
        return []
    for allowed in ([j for j in candidates if j not in keep], candidates):
        best = _least_nu(A, allowed, m)
        if best is not None:
            return best
    return None


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
