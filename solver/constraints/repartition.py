"""Dynamic re-partitioning of closed loops (dynamic state selection, as Modelica tools do:
S. E. Mattsson, H. Olsson, H. Elmqvist, "Dynamic selection of states in Dymola", Modelica
Workshop 2000).

Coordinate partitioning solves the dependent coordinates from the independent ones; that
fails where the dependent-coordinate Jacobian is singular although the mechanism is not (the
crank of a non-Grashof four-bar at its dead point: the rocker still moves). The simulation
monitors the partition's conditioning ν(y) (:func:`.partition.conditioning_function`) and,
when it degrades past the partition's switch level, stops and asks this module for a better
partition at the current configuration: the dependent speeds and moves of least ν among all
choices (pivoted QR when there are too many to try). Each partition's named functions are
compiled once and kept (:class:`PartitionBank`), so switching back and forth is cheap.

Thresholds (docs/constraints.md):

* the switch level of a partition is max(NU_SWITCH, NU_RATIO·ν₀), ν₀ its conditioning where
  it took over (at the start, or at a switch);
* at a stop, the best partition is taken if its ν is below that switch level and HYSTERESIS
  times below the current one's; else every partition degrades together, the mechanism's own
  singularity is near (its constraints lose rank: a bifurcation, a four-bar folding flat), and
  the current partition goes on at a raised level (NU_RATIO·ν) until ν reaches NU_SINGULAR,
  where a SimulationError names the constraints and the configuration.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np

from jourdain.blocks.errors import SimulationError

from ..equations.functions import named_functions, names_of
from ..model.mechanics import Mechanics
from .methods import (
    ConstraintMethod,
    constraint_functions,
    method_functions,
    partition_equations,
    state_expr,
    watch_function,
)
from .moves import moved_coordinates
from .partition import (
    NU_RATIO,
    NU_SWITCH,
    Partition,
    best_columns,
    explicit_form,
    nu_of,
    row_scale,
)

NU_SINGULAR = 1e6      # ν at which, with no better partition, the constraints lost rank


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
        self.flange_names = names.get("flanges", [])   # 1-D bodies without a coordinate
        self.prescribed_speeds = names.get("prescribed", [])

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
                 user_names: list[str], functions: dict, names: dict,
                 recursive: bool = False):
        # the user's speeds (``keep``) stay independent where that costs little, the driven
        # ones (kinematic drivers) always
        self._fixed = self.fixed = [d.speed for d in mech.driven]
        self._mech, self._eqs, self._recursive = mech, eqs, recursive
        self._keep = list(keep) + [j for j in self._fixed if j not in keep]
        self._user = dict(zip(keep, user_names))
        self._A = ca.Function("A_full", [mech.kin.y, mech.params.p], [eqs.A])
        self.scale = row_scale(eqs.A, mech, part.y_ref, mech.params.defaults)
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
        sp, eom, zdot, drive, wdot = partition_equations(mech, eqs, part, G, names,
                                                         self._recursive)
        functions = named_functions(mech, sp, eom, zdot, drive, wdot)
        method_functions(functions, mech, sp, eom, eqs, part, A,
                         ConstraintMethod.PARTITIONING, (0.0, 0.0), zdot, drive, wdot)
        functions.update(constraint_functions(mech, eqs, A, G, state_expr(mech, sp), part,
                                              self.scale))
        functions["watch"] = watch_function(functions, mech.kin.y.numel())
        return PartitionModel(part, functions, names_of(mech, sp))

    def solved(self, part: Partition) -> list[int]:
        """The scalar coordinates Newton sets in ``part`` (one per dependent scalar move):
        their integrated values are only its first guess. A ball joint's quaternion is not
        among them: its independent directions keep their integrated values."""
        return sorted(self._moved[j][0] for j in part.dependent_moves
                      if len(self._moved[j]) == 1)

    def scaled(self, y: np.ndarray, p: np.ndarray) -> np.ndarray:
        """D·A(y): the constraint Jacobian, rows scaled as in ν."""
        return self.scale[:, None] * np.array(self._A(y, p), dtype=float)

    def nu(self, part: Partition, y: np.ndarray, p: np.ndarray) -> float:
        """ν of ``part`` at y (:func:`.partition.conditioning_function`, numerically)."""
        A = self.scaled(y, p)
        return max(nu_of(A[part.velocity_rows], part.dependent_speeds),
                   nu_of(A[part.holonomic_rows], part.dependent_moves))

    def candidate(self, y: np.ndarray, p: np.ndarray, current: Partition,
                  strict: bool = False, drivers: bool = True) -> Partition | None:
        """The best-conditioned partition at y (same independent rows as ``current``), the
        user's speeds kept independent where that costs little (always when ``strict``), the
        driven ones always (unless ``drivers`` is False: what a driver costs); None if the
        rows have lost rank."""
        A = self.scaled(y, p)
        n = A.shape[1]
        fixed = self._fixed if drivers else []
        free = [j for j in range(n) if j not in fixed and not (strict and j in self._keep)]
        movers = [j for j in free if self._moved[j]]
        dep_m = best_columns(A[current.holonomic_rows], movers, self._keep)
        dep_w = best_columns(A[current.velocity_rows], free, self._keep)
        if dep_m is None or dep_w is None:
            return None
        dep_y = sorted({i for j in dep_m for i in self._moved[j]})
        free = [j for j in range(n) if j not in dep_w]
        indep = [j for j in self._keep if j in free] + [j for j in free if j not in self._keep]
        return Partition(np.asarray(y, dtype=float).copy(), current.holonomic_rows,
                         current.redundant_rows, current.velocity_rows,
                         current.velocity_redundant, dep_m, dep_y, dep_w, indep)

    def singular_error(self, t: float, y: np.ndarray, p: np.ndarray, part: Partition,
                       nu: float, nu_best: float, y_names: list[str],
                       reached: str = "") -> SimulationError:
        """No partition is valid at y: name the constraints that became dependent (or, where
        the constraints keep their rank, the driven speeds that no partition may free).
        ``reached`` says how ν was judged singular when it is not ≥ NU_SINGULAR itself."""
        A = self.scaled(y, p)[part.velocity_rows]
        if self._fixed and np.linalg.svd(A, compute_uv=False)[-1] * nu > NU_RATIO:
            driven = ", ".join(self.speed_names[j] for j in self._fixed)
            return SimulationError(
                f"at t = {t:.6g} s the driven speeds {driven} reach a dead point of the loop "
                f"(partition conditioning ν = {nu:.3g}): every partition that keeps them "
                "independent is singular there, so the drivers cannot move the mechanism on "
                "(a crank driven into its dead point); configuration: " +
                ", ".join(f"{n} = {v:.6g}" for n, v in zip(y_names, y)) +
                ". Drive another joint, or prescribe a motion that stays clear of it")
        return singular_error(A, [self.owners[r] for r in part.velocity_rows],
                              self.speed_names, t, y, y_names,
                              f"partition conditioning ν = {nu:.3g} "
                              f"{reached or '≥ NU_SINGULAR = %g' % NU_SINGULAR}, "
                              f"{nu_best:.3g} for the best choice")


def singular_error(A: np.ndarray, owners: list[str], speed_names: list[str], t: float,
                   y: np.ndarray, y_names: list[str], measure: str) -> SimulationError:
    """The error at a singular configuration: the independent constraint rows A (one owner
    each, scaled as in ν) lose rank at y; the left and right singular vectors of the smallest
    singular value name the constraints and the joint speeds involved."""
    U, sv, Vt = np.linalg.svd(A)
    rows = _involved(U[:, -1])
    speeds = [speed_names[j] for j in _involved(Vt[len(sv) - 1])]
    config = ", ".join(f"{name} = {v:.6g}" for name, v in zip(y_names, y))
    return SimulationError(
        f"at t = {t:.6g} s the mechanism reaches a singular configuration: the constraints of "
        f"{', '.join(dict.fromkeys(owners[i] for i in rows))} lose rank (smallest singular "
        f"value of the row-scaled constraint Jacobian {sv[-1]:.2e}; {measure}), so no choice "
        "of independent coordinates parametrizes the motion there (speeds involved: "
        f"{', '.join(speeds)}); configuration: {config}. The mechanism locks or bifurcates "
        "there (links aligned, a loop folded flat): change the geometry or the initial state")


@dataclass(frozen=True)
class Assessment:
    """How well a fixed partition suits a configuration (linearization, trajectory
    optimization): its ν, the least ν of any partition there, and that partition's
    independent joint speeds."""

    nu: float
    nu_best: float
    speeds: tuple        # independent joint speeds of the fixed partition
    best_speeds: tuple   # … of the best-conditioned one

    @property
    def ok(self) -> bool:
        """ν below the level at which a simulation would switch away from it."""
        return self.nu <= max(NU_SWITCH, NU_RATIO * self.nu_best)

    @property
    def singular(self) -> bool:
        return not self.nu_best < NU_SINGULAR

    def advice(self, where: str) -> str:
        if self.singular:
            return (f"{where} is a singular configuration of the mechanism: its constraints "
                    f"lose rank (ν ≥ {NU_SINGULAR:g} for every choice of independent "
                    "coordinates); choose another configuration")
        spec = ", ".join(f"'z{k + 1}': '{n}'" for k, n in enumerate(self.best_speeds))
        return (f"the partition with independent speeds {', '.join(self.speeds)} is "
                f"ill-conditioned at {where} (ν = {self.nu:.3g}; independent speeds "
                f"{', '.join(self.best_speeds)} give ν = {self.nu_best:.3g}): near a singular "
                "position of the partition (a crank at a dead point) its results lose "
                f"accuracy; recompile keeping those independent, speeds={{{spec}}}")


def assess(system, y: np.ndarray, p: np.ndarray) -> Assessment:
    """The Assessment of ``system``'s own partition at the coordinates y."""
    bank, part = system.partitions, system.partition
    nu = float(system.conditioning(y, p)[0])
    best = bank.candidate(y, p, part) if nu > NU_SWITCH else part
    names = [tuple(bank.speed_names[j] for j in q.independent_speeds) if q else ()
             for q in (part, best)]
    nu_best = bank.nu(best, y, p) if best is not None else np.inf
    return Assessment(nu, min(nu, nu_best), names[0], names[1] if nu_best < nu else names[0])


def _key(part: Partition) -> tuple:
    return tuple(sorted(part.dependent_moves)), tuple(sorted(part.dependent_speeds))


def _involved(v: np.ndarray) -> np.ndarray:
    """Entries of a unit singular vector above 0.2, or, where it is spread over many
    entries (40 coupled loops: none reaches 0.2, and the error named no speed), above 0.2
    of its largest."""
    big = np.flatnonzero(np.abs(v) > 0.2)
    return big if big.size else np.flatnonzero(np.abs(v) > 0.2 * np.abs(v).max(initial=0.0))

