"""The numbers at an event instant: the HybridState the elements' transitions read and change,
and the resolution of one instant (DESIGN.md §6): the fired guards' transitions, the impacts
they ask for (solved together), then Modelica's event iteration — every element's ``settle``
until none changes — and a projection of the speeds onto the rows that are constraints now.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError, SimulationError
from jourdain.blocks.hybrid.base import HybridState, RowValue

from .impact import ImpactRows, kinetic_energy, project_velocities, solve_impact
from .info import HybridInfo

MAX_SETTLE = 50   # passes of the event iteration before giving up
LOCAL_PASSES = 6  # element-by-element passes before the unilateral rows are decided together
GAP_TOL = 1e-9    # [m or rad] a gap this small counts as closed
SPEED_TOL = 1e-6  # [m/s or rad/s] a normal speed this small counts as resting
GAIN_TOL = 1e-12  # relative kinetic-energy gain of an impact that counts as a gain
RATE_STEP = 1e-6  # [s] step of the difference that gives a guard's rate (``rate``)


class ChatteringError(SimulationError):
    """Events pile up: too many in too little time (a Zeno bounce, a chattering mode)."""


@dataclass
class Change:
    """One recorded change at an event: a discrete value, or an impact."""

    element: str
    kind: str                  # "mode" (a discrete value changed), "impact" or "projection"
    detail: str
    energy_lost: float | None = None


@dataclass
class EventState(HybridState):
    """Numeric HybridState at (t, x, u, p) of a System with hybrid elements."""

    system: object
    t: float
    x: np.ndarray
    u: np.ndarray
    p: np.ndarray
    changes: list[Change] = field(default_factory=list)
    requests: list = field(default_factory=list)      # (element, normal, tangents, e, μ)
    plastic: set = field(default_factory=set)   # paths of elements in their Zeno limit

    def __post_init__(self):
        info: HybridInfo = self.system.hybrid
        self.info = info
        self.x, self.p = np.array(self.x, dtype=float), np.array(self.p, dtype=float)
        self._row_index = {(r.owner.path, r.name): i for i, r in enumerate(info.rows)}
        self._monitor_index = {(o.path, n): i for i, (o, n) in enumerate(info.monitors)}
        self._numbers = None

    # ---- the HybridState interface ---------------------------------------------------
    def discrete(self, element) -> dict:
        return self.info.discrete_values(element, self.p)

    def set(self, element, **values) -> None:
        index = self.info.discrete_index.get(element.path, {})
        for name, value in values.items():
            i = index[name]
            if float(value) != self.p[i]:
                self.changes.append(Change(element.path, "mode",
                                           f"{name} {_fmt(self.p[i])} → {_fmt(value)}"))
                self.p[i] = float(value)
                self._numbers = None

    def row(self, element, name: str) -> RowValue:
        i = self._row_index[(element.path, name)]
        n = self.numbers()
        gap = float(n["gap"][i]) if self.info.rows[i].unilateral else None
        return RowValue(float(n["gamma"][i]), float(n["lambda"][i]), gap,
                        float(n["gamma_dot"][i]))

    def monitor(self, element, name: str) -> float:
        return float(self.numbers()["monitors"][self._monitor_index[(element.path, name)]])

    def rate(self, element, guard: str) -> float:
        # a one-sided difference along ẋ = f in the present modes over RATE_STEP·(1 + |t|):
        # the guard's rate, up to O(step) and to its round-off over the step
        k = next(i for i, g in enumerate(self.info.guards)
                 if g.owner is element and g.name == guard)
        step = RATE_STEP * (1.0 + abs(self.t))
        xdot = np.array(self.system.f(self.t, self.x, self.u, self.p), dtype=float).ravel()
        later = self.system.functions["hybrid"](self.t + step, self.x + step * xdot, self.u,
                                                self.p)[4]
        return (float(np.array(later, dtype=float).ravel()[k]) -
                float(self.numbers()["guards"][k])) / step

    def impact(self, element, normal: str, tangents: tuple = (), restitution: float = 0.0,
               mu: float = 0.0) -> None:
        # in the Zeno limit (bounces accumulating faster than the loop resolves them, see
        # solver/simulation/zeno.py) the rest of the geometric series is one plastic impact
        self.requests.append((element, normal, tuple(tangents),
                              0.0 if element.path in self.plastic else float(restitution),
                              float(mu)))

    # ---- numbers -----------------------------------------------------------------------
    def numbers(self) -> dict:
        if self._numbers is None:
            out = self.system.functions["hybrid"](self.t, self.x, self.u, self.p)
            names = ("gamma", "lambda", "gap", "gamma_dot", "guards", "monitors")
            self._numbers = {k: np.array(v, dtype=float).ravel() for k, v in zip(names, out)}
        return self._numbers

    def set_x(self, x: np.ndarray) -> None:
        self.x = np.array(x, dtype=float)
        self._numbers = None

    def active_rows(self) -> list[int]:
        """Rows that are constraints in the present modes."""
        if not self.info.rows:
            return []
        act = np.array(self.system.functions["impact"](self.t, self.x, self.u, self.p)[3]
                       ).ravel()
        return [i for i, a in enumerate(act) if a > 0.5]


def resolve(state: EventState, fired: list, plastic=()) -> None:
    """Run one event instant: transitions of the fired guards (GuardInfo, in order), the
    impacts they ask for, the event iteration and the velocity projection; the impacts that
    the elements in ``plastic`` (paths) ask for take e = 0 (the Zeno limit of a bounce)."""
    state.plastic = set(plastic)
    for guard in fired:
        guard.owner.on_event(guard.name, state)
    if state.requests:
        _impacts(state)
    settle(state)
    _project(state)


def settle(state: EventState) -> None:
    """Modelica's event iteration: every element's ``settle`` until a pass changes nothing.

    Elements decide one at a time; where unilateral rows are coupled (the corners of a box on
    the ground) such single decisions can cycle — a corner that pushes only if another lifts.
    After LOCAL_PASSES passes without convergence the unilateral rows at zero gap and speed
    are decided together, by the complementarity problem of their accelerations (see
    :func:`_contact_lcp`), and the iteration continues from there."""
    for n in range(MAX_SETTLE):
        changed = False
        for element in state.info.elements:
            changed |= bool(element.settle(state))
        if state.requests:    # an element found itself approaching at zero gap: an impact
            _impacts(state)
        if not changed:
            return
        if n % LOCAL_PASSES == LOCAL_PASSES - 1:
            _contact_lcp(state)
    raise ChatteringError(f"the modes did not settle at t = {state.t:.9g} s after "
                          f"{MAX_SETTLE} passes of the event iteration; last changes: " +
                          "; ".join(f"{c.element}: {c.detail}" for c in state.changes[-6:]))


def _contact_lcp(state: EventState) -> None:
    """Decide the unilateral rows at zero gap and speed together: find forces λ ≥ 0 with
    accelerations γ̇ = γ̇_free + D·λ ≥ 0 and λ·γ̇ = 0 (D = J·M⁻¹·Jᵀ), the other rows' forces
    held at their present values; then close the rows that push and open the others through
    the elements' ``set_row``."""
    n = state.numbers()
    rows = [i for i, r in enumerate(state.info.rows) if r.unilateral and
            n["gap"][i] <= GAP_TOL and abs(n["gamma"][i]) <= SPEED_TOL]
    if not rows:
        return
    M, J, _ = _impact_data(state)
    active = set(state.active_rows())
    MinvJT = np.linalg.solve(M, J[rows].T)
    D = J[rows] @ MinvJT
    lam_now = np.array([n["lambda"][i] if i in active else 0.0 for i in rows])
    free = n["gamma_dot"][rows] - D @ lam_now
    sel = ImpactRows(unilateral={i: 0.0 for i in rows})
    lam, _ = solve_impact(D_as_mass(D), np.eye(len(rows)), free, _reindexed(sel, rows))
    for k, i in enumerate(rows):
        info = state.info.rows[i]
        info.owner.set_row(state, info.name, bool(lam[k] > 1e-12 * (1 + np.abs(lam).max())))


def D_as_mass(D: np.ndarray) -> np.ndarray:
    """The Delassus matrix as the 'mass matrix' of the unit-Jacobian problem the impact solver
    takes: with J = I and M = D⁻¹ (regularized where D is singular), J·M⁻¹·Jᵀ = D."""
    scale = max(1.0, float(np.abs(D).max()))
    return np.linalg.inv(D + 1e-12 * scale * np.eye(D.shape[0]))


def _reindexed(rows: ImpactRows, order: list[int]) -> ImpactRows:
    pos = {r: k for k, r in enumerate(order)}
    return ImpactRows(unilateral={pos[r]: e for r, e in rows.unilateral.items()})


def _impacts(state: EventState) -> None:
    """Solve all impacts asked for at this instant together (with the rows that are
    constraints now) and let the elements choose their modes from the new speeds."""
    M, J, gamma = _impact_data(state)
    rows = ImpactRows()
    index = state._row_index
    active = set(state.active_rows())
    for i in active:   # constraints now: closed normals (e = 0) and sticking rows
        if state.info.rows[i].unilateral:
            rows.unilateral.setdefault(i, 0.0)
        else:
            rows.bilateral.append(i)
    for element, normal, tangents, e, mu in state.requests:
        i = index[(element.path, normal)]
        rows.unilateral[i] = e
        if tangents:
            tangent_rows = [index[(element.path, t)] for t in tangents]
            rows.bilateral = [r for r in rows.bilateral if r not in tangent_rows]
            rows.tangents[i] = (tangent_rows, mu)
    _bounded_friction(state, rows)
    _check_driven(state, [index[(r[0].path, r[1])] for r in state.requests], J)
    rows = _coupled(rows, [index[(r[0].path, r[1])] for r in state.requests], M, J)
    z_slice = _z_slice(state)
    z = state.x[z_slice]
    _, dz = solve_impact(M, J, gamma, rows)
    before = kinetic_energy(M, z)
    lost, law = before - kinetic_energy(M, z + dz), ""
    if lost < -GAIN_TOL * (1.0 + before):   # Newton's law with friction gained energy
        dz, lost, law = _dissipative(state, M, J, gamma, rows, z, before)
    x = state.x.copy()
    x[z_slice] = z + dz
    state.set_x(x)
    owners = ", ".join(dict.fromkeys(r[0].path for r in state.requests))
    state.changes.append(Change(owners, "impact", f"kinetic energy lost {lost:.6g} J{law}",
                                lost))
    involved = [r[0] for r in state.requests] + \
        [state.info.rows[i].owner for i in rows.unilateral]
    state.requests = []
    for element in dict.fromkeys(involved):    # requesters, and closed rows it moved
        element.after_impact(state)


def _dissipative(state: EventState, M, J, gamma, rows: ImpactRows, z, before):
    """(Δz, energy lost, note) of an impact solved again because Newton's law with friction
    gained energy: with the tangential restitution (energetically consistent, Glocker 2013),
    else without friction in this impact (the sliding-direction refinement of a frictional
    multi-contact impact can stop on a direction that does not oppose the slip); a
    SimulationError naming the elements if that gains energy too."""
    frictionless = ImpactRows(list(rows.bilateral), dict(rows.unilateral), {})
    tries = ((rows, dict(tangential=True), "tangential restitution"),
             (frictionless, {}, "friction left out of this impact"))
    for law, options, how in tries:
        _, dz = solve_impact(M, J, gamma, law, **options)
        lost = before - kinetic_energy(M, z + dz)
        if lost >= -GAIN_TOL * (1.0 + before):
            return dz, lost, f" ({how}: Newton's law with friction would gain energy)"
    owners = ", ".join(dict.fromkeys(r[0].path for r in state.requests))
    raise SimulationError(f"{owners}: the impact at t = {state.t:.9g} s gains kinetic energy "
                          f"({-lost:.3g} J) under every impact law tried (Newton's with "
                          "friction, with tangential restitution, without friction); the "
                          "contact configuration may be inconsistent. Try a smaller "
                          "restitution e, or a compliant contact law")


def _bounded_friction(state: EventState, rows: ImpactRows) -> None:
    """Closed normals in the impact whose owner gives a μ (``impact_friction``): their
    tangential rows obey Coulomb's law in the impulses instead of staying stuck — a ball
    resting on the floor and hit sideways slides if the floor's impulse cannot hold it."""
    tangents_of: dict = {}
    for i, info in enumerate(state.info.rows):
        if info.friction_of is not None:
            tangents_of.setdefault(info.friction_of, []).append(i)
    for normal in list(rows.unilateral):
        if normal in rows.tangents or normal not in tangents_of:
            continue
        info = state.info.rows[normal]
        mu = info.owner.impact_friction(state, info.name)
        if mu is not None:
            rows.tangents[normal] = (tangents_of[normal], float(mu))
            rows.bilateral = [r for r in rows.bilateral if r not in tangents_of[normal]]


def _coupled(rows: ImpactRows, seeds: list[int], M: np.ndarray, J: np.ndarray) -> ImpactRows:
    """Only the rows that the impacting ones move, directly or through others (nonzero
    entries of J·M⁻¹·Jᵀ): a ball resting in one corner of a box takes no part in another
    ball's bounce."""
    P = rows.rows
    D = J[P] @ np.linalg.solve(M, J[P].T)
    linked = np.abs(D) > 1e-12 * max(1.0, float(np.abs(D).max()))
    pos = {r: k for k, r in enumerate(P)}
    keep, todo = set(), [pos[s] for s in seeds if s in pos]
    while todo:
        k = todo.pop()
        if k not in keep:
            keep.add(k)
            todo += [j for j in np.flatnonzero(linked[k]) if j not in keep]
    kept = {P[k] for k in keep}
    return ImpactRows([r for r in rows.bilateral if r in kept],
                      {r: e for r, e in rows.unilateral.items() if r in kept},
                      {n: t for n, t in rows.tangents.items() if n in kept})


def _project(state: EventState) -> None:
    """Make γ = 0 hold exactly on the rows that are constraints now."""
    rows = [i for i in state.active_rows()]
    if not rows:
        return
    M, J, gamma = _impact_data(state)
    if np.abs(gamma[rows]).max() == 0.0:
        return
    z_slice = _z_slice(state)
    x = state.x.copy()
    z = x[z_slice].copy()
    x[z_slice] += project_velocities(M, J, gamma, rows)
    state.set_x(x)
    # the projection takes kinetic energy (the M-orthogonal part of z across the rows): in
    # the log with the impacts', so the energy balance of the Result closes (res.check)
    before = kinetic_energy(M, z)
    lost = before - kinetic_energy(M, x[z_slice])
    if abs(lost) > GAIN_TOL * (1.0 + before):
        owners = ", ".join(dict.fromkeys(state.info.rows[i].owner.path for i in rows))
        state.changes.append(Change(owners, "projection", f"kinetic energy lost {lost:.3g} J "
                                    "(speeds projected onto the closed rows)", lost))


def _impact_data(state: EventState, full: bool = False):
    """M and J on the free speeds (a kinematic driver's speed is rigid motion: no impulse
    changes it), γ on all rows; ``full``: J on every speed."""
    M, J, gamma, _ = state.system.functions["impact"](state.t, state.x, state.u, state.p)
    free = _free(state)
    J = np.array(ca.densify(J), dtype=float)
    return (np.array(M, dtype=float)[np.ix_(free, free)], J if full else J[:, free],
            np.array(gamma, dtype=float).ravel())


def _free(state: EventState) -> np.ndarray:
    """Indices into z of the speeds no driver prescribes."""
    driven = getattr(state.system, "driven_by", {})
    return np.array([k for k, name in enumerate(state.system.z_names) if name not in driven],
                    dtype=int)


def _z_slice(state: EventState) -> np.ndarray:
    """Indices into x of the free speeds."""
    return len(state.system.y_names) + _free(state)


def _check_driven(state: EventState, rows: list[int], J: np.ndarray) -> None:
    """A SimulationError when an impacting row moves by drivers only: a driver is rigid
    motion, and no impulse on the free speeds can stop it."""
    full = _impact_data(state, full=True)[1]
    driven = getattr(state.system, "driven_by", {})
    for i in rows:
        if np.any(J[i] != 0.0):
            continue
        names = [n for k, n in enumerate(state.system.z_names)
                 if n in driven and full[i, k] != 0.0]
        row, gamma = state.info.rows[i], state.numbers()["gamma"][i]
        drivers = ", ".join(dict.fromkeys(driven[n] for n in names)) or "nothing"
        raise SimulationError(
            f"{row.owner.path}: the kinematic driver {drivers} moves its limit's row {row.name} "
            f"into the stop at t = {state.t:.9g} s (approaching at {-gamma:.3g} m/s or rad/s, "
            f"driven speed {', '.join(names)}); a driver is rigid motion and cannot be "
            "stopped. Keep the driver's reference within the stop's limits, or drive through "
            "a compliant element (a spring) instead")


def _fmt(value) -> str:
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:.6g}"


START_PENETRATION = 1e-8   # [m or rad] how far a rigid row may start beyond its surface


def _penetrated(state: EventState) -> list:
    """(row, gap) of the rigid unilateral rows beyond their limit by more than
    START_PENETRATION."""
    if not any(row.unilateral for row in state.info.rows):
        return []
    gaps = state.numbers()["gap"]
    return [(row, float(gaps[i])) for i, row in enumerate(state.info.rows)
            if row.unilateral and float(gaps[i]) < -START_PENETRATION]


def check_start_gaps(state: EventState) -> None:
    """A ModelError when a rigid stop or contact starts penetrated (gap below
    −START_PENETRATION): no impact law applies there, and the motion would silently pass
    through the limit."""
    for row, gap in _penetrated(state):
        raise ModelError(
            f"{row.owner.path}: the start is {-gap:.3g} m or rad beyond its limit (row "
            f"{row.name}, gap {gap:.3g}); a rigid stop or contact cannot start penetrated: "
            "give initial coordinates within its limits, or use a compliant law")


def check_reset_gaps(before: EventState, after: EventState, where: str) -> None:
    """A ModelError when a reset (``where``: the event) puts a rigid stop or contact beyond
    its limit: as at the start, no impact law applies there and the body would fall through."""
    was = {(row.owner.path, row.name) for row, _ in _penetrated(before)}
    for row, gap in _penetrated(after):
        if (row.owner.path, row.name) not in was:
            raise ModelError(
                f"{where}: its reset at t = {after.t:.9g} s puts {row.owner.path} {-gap:.3g} m "
                f"or rad beyond its limit (row {row.name}, gap {gap:.3g}); a rigid stop or "
                "contact cannot be penetrated: reset the states to values within its limits, "
                "or use a compliant law")
