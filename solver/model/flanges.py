"""The 1-D network beside the frame tree (DESIGN.md §6, docs/domains.md): positions of all flange
nets, coordinates of free 1-D bodies, and the holonomic couplings between flange nets.

Each flange net is
* **given** by a tree joint's flange (axis: its coordinate, support: 0), by a ``Fixed`` or by a
  ``Mounting1D`` (a 1-D support at phi0 in a 3-D frame);
* **unknown** when it carries a 1-D body (Inertia, Mass) or a coupling's driven flange
  (IdealGear, IdealPlanetary, IdealGearR2T, IdealRollingWheel, a cut sensor);
* otherwise the **reference** 0 (a gear's or motor's housing left unconnected).

The couplings are linear relations Σ c_k·φ_k + b = 0 between nets (b: an offset, zero for
the gears). networkx groups nets and
couplings into connected parts (a bipartite graph); the rank analysis of each part's relations
in the unknown nets (numerically, at the default parameters) picks, as in the spanning tree of
the frames, the unknowns each relation solves (nets without inertia first) and leaves the
others as **coordinates** of their own (owned by the net's first Inertia or Mass). Relations that
solve no unknown (two joint axes coupled by a gear, two joint flanges in one net) become
**closure equations** c(y) = 0 for the constraint stage, like a cut joint's.

Cut sensors (TorqueSensor, ForceSensor) join two nets rigidly; their relation φ_b − φ_a = δ
carries an auxiliary coordinate δ ≡ 0 whose partial derivatives ∂φ/∂δ say which nets move when
the cut is opened: the sensor's reading is that side's equation of motion along δ (Kane's
auxiliary speeds; :mod:`jourdain.solver.equations.cuts`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import casadi as ca
import networkx as nx
import numpy as np

from jourdain.blocks.base import Component
from jourdain.blocks.drivetrain import CutSensor
from jourdain.blocks.drivetrain.base import Coupling
from jourdain.blocks.hybrid.base import Hybrid
from jourdain.blocks.errors import ModelError
from jourdain.blocks.joints import Coordinate, Speed
from jourdain.blocks.ports import Flange, Motion

from .flatten import FlatModel
from .rank import sparse_independent_rows, sparse_pick_columns

ZERO_TOL = 1e-12   # coefficients below ZERO_TOL·scale are structural zeros


@dataclass(eq=False)
class FlangeDOF:
    """The owner of a 1-D coordinate (duck-typed like a joint for the later stages): the net's
    Inertia or Mass (named after it) or, failing that, the net's first port."""

    path: str
    COORDINATES: tuple
    SPEEDS: tuple
    net: int
    # no inertia of its own nor through the couplings: its mass can come only through a
    # hybrid coupling's always-active row (a LossyGear's teeth), which the hybrid stage
    # checks (solver/hybrid/massless.py: the saddle-point system must be regular)
    massless: bool = False
    UNIT_QUATERNION: ClassVar = None
    RATES_ARE_DERIVATIVES: ClassVar[bool] = True

    def coordinate_rates(self, q, w):
        return w


@dataclass
class Relation:
    """One row Σ coefficient·φ_net + constant (− δ for a cut sensor) = 0 and its owner."""

    owner: Component
    terms: dict            # net -> coefficient (float or SX in p)
    sensor: CutSensor | None = None
    constant: object = 0.0  # the coupling's offset term (float or SX in p)


@dataclass
class FlangePlan:
    """The outcome of the 1-D network analysis (before the coordinate symbols exist)."""

    given: dict                     # net -> list of ("joint", port) / ("fixed", comp) sources
    unknown: list[int]
    relations: list[Relation]
    solved_rows: list[int]          # rows solving the dependent nets
    dependent: list[int]            # nets solved from them (same order)
    closure_rows: list[int]         # rows left for the constraint stage
    dofs: list[FlangeDOF]           # unknown nets with a coordinate of their own
    sensors: list[CutSensor] = field(default_factory=list)
    blocks: list = field(default_factory=list)   # (solved rows, dependent nets) per part


@dataclass
class FlangeNetwork:
    """Positions of every flange net in (y, p), the closure rows, and the cut sensors'
    auxiliary partial derivatives ∂φ_net/∂δ_sensor."""

    positions: dict                 # net -> SX position (reference nets absent: 0)
    closure: ca.SX                  # holonomic rows c(y, p)
    closure_owner: list[str]
    aux: dict                       # sensor -> {net: SX ∂φ/∂δ}


def _given_sources(flat: FlatModel, tree_joints, inst: dict) -> dict:
    """net -> its position sources: tree-joint flanges (the keys of the joints'
    ``flange_positions``), Fixed flanges and Mounting1D flanges, in order."""
    given: dict = {}
    for joint in tree_joints:
        q = ca.SX.sym("q", len(joint.COORDINATES))
        for port in inst[joint].flange_positions(q):
            given.setdefault(flat.net_of[port], []).append(("joint", port))
    for fixed in flat.fixed:
        given.setdefault(flat.net_of[fixed.flange], []).append(("fixed", fixed))
    for mount in flat.mounts:
        given.setdefault(flat.net_of[mount.flange_b], []).append(("mount", mount))
    return given


def _relations(flat: FlatModel, inst: dict) -> list[Relation]:
    """The couplings' rows over nets; cut sensors first (their rows should solve a net)."""
    rows = []
    for coupling in sorted(flat.couplings, key=lambda c: not isinstance(c, CutSensor)):
        relations = inst[coupling].relations()
        for relation, constant in zip(relations, inst[coupling].offsets()):
            terms: dict = {}
            for port, coeff in relation.items():
                net = flat.net_of[port]
                terms[net] = terms.get(net, 0) + coeff
            rows.append(Relation(coupling, terms, coupling if isinstance(coupling, CutSensor)
                                 else None, constant))
    return rows


def plan_flanges(flat: FlatModel, tree_joints, inst: dict, p: ca.SX,
                 p0: np.ndarray) -> FlangePlan:
    """Classify the flange nets and choose, part by part, which unknown nets the relations
    solve and which keep a coordinate of their own."""
    given = _given_sources(flat, tree_joints, inst)
    unknown = _unknown_nets(flat, given)
    relations = _relations(flat, inst)
    C = _numeric(relations, unknown, p, p0)
    masses = _mass_map(flat)
    preference = _preference(flat, unknown, masses)
    solved, dependent, blocks = [], [], []
    for rows, cols in _parts(relations, unknown):
        sub = C[rows][:, cols]
        scale = float(abs(sub).max()) if sub.nnz else 0.0
        keep = sparse_independent_rows(_sparse_rows(sub), scale)
        position = {j: k for k, j in enumerate(cols)}
        order = [position[j] for j in preference if j in position]
        pick = sparse_pick_columns(_sparse_rows(sub[keep].T.tocsr()), order, len(keep), scale)
        solved += [rows[i] for i in keep]
        dependent += [unknown[cols[j]] for j in pick]
        blocks.append(([rows[i] for i in keep], [unknown[cols[j]] for j in pick]))
    taken = set(dependent)
    dofs = [_dof(flat, net, masses) for net in unknown if net not in taken]
    kept = set(solved)
    closure = [i for i in range(len(relations)) if i not in kept]
    sensors = [r.sensor for r in relations if r.sensor is not None]
    plan = FlangePlan(given, unknown, relations, solved, dependent, closure, dofs, sensors,
                      blocks)
    _check_massless(flat, plan, C, masses)
    _check_locked(flat, plan, tree_joints)
    return plan


def _check_locked(flat: FlatModel, plan: FlangePlan, tree_joints) -> None:
    """A model whose every Inertia and Mass the couplings hold at fixed positions (a gear
    from an Inertia to a Fixed, or back onto its own net) and that has no joint to move and
    no state of its own (a motor's current against a locked rotor is a stall test) cannot
    change at all: refused, as the constraint stage refuses a joint locked the same way
    (a mechanism with no freedom of motion is a wiring mistake, and has nothing to
    simulate). A locked part beside parts that move is accepted in both cases: it stays at
    its position, and a friction on it carries nothing."""
    if plan.dofs or not flat.inertias or not plan.relations or \
            any(j.COORDINATES for j in tree_joints) or \
            any(getattr(c, "STATES", ()) for c in flat.components):
        return   # something moves, or a circuit runs against a locked rotor (a stall test)
    owners = list(dict.fromkeys(r.owner.path for r in plan.relations))
    bodies = ", ".join(m.path for m in flat.inertias)
    raise ModelError(f"{', '.join(owners)}: the couplings hold {bodies} at fixed positions "
                     "and nothing else can move: the mechanism has no freedom of motion (a "
                     "rigid structure, refused as a joint locked by a gear to a Fixed flange "
                     "is); check the gear's connections (a flange on the wrong net, or a Fixed "
                     "where a free shaft was meant); to hold a shaft on purpose, connect its "
                     "Inertia to a Fixed directly")


def _sparse_rows(matrix) -> list[dict]:
    """The rows of a scipy CSR matrix as {column: value}."""
    return [dict(zip(matrix.indices[a:b].tolist(), matrix.data[a:b].tolist()))
            for a, b in zip(matrix.indptr[:-1], matrix.indptr[1:])]


def _parts(relations: list[Relation], unknown: list[int]) -> list[tuple[list, list]]:
    """(rows, columns of unknown nets) of each connected part of the bipartite graph of
    relations and unknown nets (networkx): parts are analysed independently, so a hundred
    geared motors are a hundred 1×2 problems."""
    graph = nx.Graph()
    graph.add_nodes_from(("net", j) for j in range(len(unknown)))
    graph.add_nodes_from(("row", i) for i in range(len(relations)))
    index = {net: j for j, net in enumerate(unknown)}
    for i, rel in enumerate(relations):
        graph.add_edges_from((("row", i), ("net", index[n])) for n in rel.terms if n in index)
    parts = []
    for part in nx.connected_components(graph):
        rows = sorted(i for kind, i in part if kind == "row")
        cols = sorted(j for kind, j in part if kind == "net")
        if rows and cols:
            parts.append((rows, cols))
    return parts


def _check_massless(flat: FlatModel, plan: FlangePlan, C, masses: dict) -> None:
    """A coordinate of a net without inertia must move some body through the relations,
    or it is a degree of freedom without mass (a gear's free end coupled to nothing) —
    unless a hybrid coupling's row reaches the net (a LossyGear's teeth, a constraint in
    every mode): then the mass may come through that row, which the hybrid stage decides on
    the saddle-point system (solver/hybrid/massless.py), and the coordinate is marked."""
    cols = {net: j for j, net in enumerate(plan.unknown)}
    D = [cols[n] for n in plan.dependent]
    lu = None
    for dof in plan.dofs:
        if masses.get(dof.net):
            continue
        moved = []
        if D:
            from scipy.sparse.linalg import splu
            rows = C[plan.solved_rows]
            lu = splu(rows[:, D].tocsc()) if lu is None else lu
            sens = lu.solve(rows[:, [cols[dof.net]]].toarray().ravel())
            moved = [n for n, s in zip(plan.dependent, sens)
                     if abs(s) > ZERO_TOL and masses.get(n)]
        if moved:
            continue
        if _row_couplings(flat, dof.net):
            dof.massless = True
            continue
        raise ModelError(
            f"flange net {_describe(flat, dof.net)} can move but carries no inertia and "
            "moves none through its couplings (a degree of freedom without mass): attach "
            "an Inertia or Mass, connect it to a joint axis, or hold it with Fixed")


def _unknown_nets(flat: FlatModel, given: dict) -> list[int]:
    """Nets that carry a 1-D body or a coupling's driven flange and are not given, and
    housings (a coupling's support) connected to a force element or sensor: as in the MSL,
    such a housing floats (a gear mounted on a spring, Translational.Examples.GearGrounded);
    a housing on nothing but other housings stays at the reference 0 (useSupport = false)."""
    found = set()
    for comp in flat.inertias + flat.couplings:
        supports = set(getattr(comp, "SUPPORTS", ()))
        for port in comp.ports():
            if not isinstance(port, Flange):
                continue
            net = flat.net_of[port]
            if net not in given and (port.name not in supports or _mounted(flat, net)):
                found.add(net)
    return sorted(found)


def _mounted(flat: FlatModel, net: int) -> bool:
    """Whether a housing's net holds a port other than couplings' supports."""
    return any(port.name not in getattr(port.owner, "SUPPORTS", ())
               for port in flat.net_ports_of(net))


def _numeric(relations: list[Relation], unknown: list[int], p: ca.SX, p0: np.ndarray):
    """The relations' coefficients of the unknown nets at the default parameters, a scipy
    CSR matrix (built from the terms: a dense matrix of a 1,000-gear train is 10⁶ entries)."""
    from scipy.sparse import csr_matrix

    index = {net: j for j, net in enumerate(unknown)}
    entries = [(i, index[net], coeff) for i, rel in enumerate(relations)
               for net, coeff in rel.terms.items() if net in index]
    symbolic = [k for k, (*_, c) in enumerate(entries) if isinstance(c, ca.SX)]
    values = np.array([0.0 if isinstance(c, ca.SX) else float(c) for *_, c in entries])
    if symbolic:
        column = ca.vertcat(*[entries[k][2] for k in symbolic])
        value = ca.Function("coupling_coefficients", [p], [column])(p0) if p.numel() else \
            ca.evalf(column)
        values[symbolic] = np.array(value, dtype=float).ravel()
    return csr_matrix((values, ([e[0] for e in entries], [e[1] for e in entries])),
                      shape=(len(relations), len(unknown)))


def _mass_map(flat: FlatModel) -> dict:
    """net -> the 1-D bodies on it, in declaration order (one pass, not one per net)."""
    masses: dict = {}
    for m in flat.inertias:
        masses.setdefault(flat.net_of[m.body_flange()], []).append(m)
    return masses


def _preference(flat: FlatModel, unknown: list[int], masses: dict) -> list[int]:
    """Columns to solve for, best first: nets without inertia (they must be solved), then
    nets with inertia, the last-declared first (the first-declared body keeps its
    coordinate, as the first-declared joint of a loop stays independent)."""
    bare = [j for j, n in enumerate(unknown) if not masses.get(n)]
    massive = [j for j, n in enumerate(unknown) if masses.get(n)]
    declared = {id(m): k for k, m in enumerate(flat.inertias)}
    first = {j: declared[id(masses[unknown[j]][0])] for j in massive}
    return bare + sorted(massive, key=lambda j: -first[j])


def _dof(flat: FlatModel, net: int, masses: dict) -> FlangeDOF:
    masses = masses.get(net)
    if masses:
        body = masses[0]
        return FlangeDOF(body.path, body.COORDINATES, body.SPEEDS, net)
    port = next(p for p in flat.net_ports_of(net))
    rotational = getattr(port, "motion", Motion.ROTATIONAL) is not Motion.TRANSLATIONAL
    coord = (Coordinate("phi", "rad"),) if rotational else (Coordinate("s", "m"),)
    speed = (Speed("w", "rad/s"),) if rotational else (Speed("v", "m/s"),)
    return FlangeDOF(port.path, coord, speed, net)


def _row_couplings(flat: FlatModel, net: int) -> list[str]:
    """The hybrid couplings (a LossyGear) with a flange on the net: they reach it through
    rows of constraint force, not through the relations."""
    return list(dict.fromkeys(p.owner.path for p in flat.net_ports_of(net)
                              if isinstance(p.owner, Coupling) and isinstance(p.owner, Hybrid)))


def describe_net(flat: FlatModel, net: int) -> str:
    """The ports of a net, for messages: {lossyGear.flange_b, clutch.flange_a}."""
    return _describe(flat, net)


def _describe(flat: FlatModel, net: int) -> str:
    return "{" + ", ".join(p.path for p in flat.net_ports_of(net)) + "}"


def resolve_flanges(flat: FlatModel, plan: FlangePlan, inst: dict, given_ports: dict,
                    dof_symbols: ca.SX) -> FlangeNetwork:
    """Positions of all nets from the joints' flange positions ``given_ports`` (port -> SX)
    and the 1-D coordinates ``dof_symbols`` (in the order of plan.dofs)."""
    values, closure, owners = _given_values(flat, plan, inst, given_ports)
    for k, dof in enumerate(plan.dofs):
        values[dof.net] = dof_symbols[k]
    delta = {s: ca.SX.sym(f"delta_{s.path}") for s in plan.sensors}
    values.update(_solve_dependent(plan, values, delta))
    for i in plan.closure_rows:
        rel = plan.relations[i]
        row = _row(rel, values, delta)
        closure.append(row)
        owners.append(f"{rel.owner.path} (coupling {_nets_text(flat, rel)})")
    closure_sx = ca.vertcat(*closure) if closure else ca.SX(0, 1)
    _check_sensors_open(flat, plan, closure_sx, owners, delta)
    d = ca.vertcat(*delta.values()) if delta else ca.SX(0, 1)
    zero = ca.DM.zeros(d.numel())
    aux = {s: {net: _clean(ca.substitute(ca.jacobian(v, delta[s]), d, zero))
               for net, v in values.items() if ca.depends_on(ca.SX(v), delta[s])}
           for s in plan.sensors}
    if not delta:   # nothing to substitute (a substitution per net is a pass over f)
        return FlangeNetwork({net: ca.SX(v) for net, v in values.items()}, closure_sx,
                             owners, aux)
    positions = {net: ca.substitute(ca.SX(v), d, zero) for net, v in values.items()}
    return FlangeNetwork(positions, ca.substitute(closure_sx, d, zero), owners, aux)


def _given_values(flat: FlatModel, plan: FlangePlan, inst: dict, given_ports: dict):
    """Each given net's position from its first source; further sources of the same net
    (two joint flanges rigidly coupled, a Fixed on a joint axis) become closure rows."""
    values, closure, owners = {}, [], []
    for net, sources in plan.given.items():
        exprs = [(given_ports[src], src.path) if kind == "joint" else
                 (ca.SX(inst[src].support_position() if kind == "mount" else inst[src].s0),
                  src.path) for kind, src in sources]
        values[net] = exprs[0][0]
        for expr, path in exprs[1:]:
            closure.append(ca.SX(expr) - exprs[0][0])
            owners.append(f"{path} (rigidly joined to {exprs[0][1]} in "
                          f"{_describe(flat, net)})")
    return values, closure, owners


def _row(rel: Relation, values: dict, delta: dict) -> ca.SX:
    """Σ c·φ + constant (nets not in ``values`` are the reference 0) − δ for a cut sensor."""
    row = ca.SX(rel.constant)
    for net, coeff in rel.terms.items():
        row += coeff * ca.SX(values.get(net, 0))
    return row - delta[rel.sensor] if rel.sensor is not None else row


def _solve_dependent(plan: FlangePlan, values: dict, delta: dict) -> dict:
    """φ_D = C_D⁻¹·(−rest) over the solved rows, part by part (C_D is block diagonal):
    numerically by a sparse LU for the right-hand sides that are not zero (one or two per
    part: a gear train's first net), so a chain of n gears gives n products, not the n²
    entries of a dense inverse; symbolically where the coefficients hold parameters."""
    solved: dict = {}
    dependent = set(plan.dependent)
    for rows, nets in plan.blocks:
        if not nets:
            continue
        column = {net: b for b, net in enumerate(nets)}
        entries, rest = [], []
        for a, i in enumerate(rows):
            rel = plan.relations[i]
            entries += [(a, column[n], c) for n, c in rel.terms.items() if n in column]
            others = Relation(rel.owner, {n: c for n, c in rel.terms.items()
                                          if n not in dependent}, rel.sensor, rel.constant)
            rest.append(-_row(others, values, delta))
        if all(not isinstance(c, ca.SX) or c.is_constant() for *_, c in entries):
            result = _sparse_solve(entries, len(nets), rest)
        else:
            C = ca.SX.zeros(len(rows), len(nets))
            for a, b, c in entries:
                C[a, b] = c
            result = ca.solve(C, ca.vertcat(*rest))
        solved.update(zip(nets, ca.vertsplit(result)))
    return solved


def _sparse_solve(entries: list, n: int, rhs: list) -> ca.SX:
    """C⁻¹·rhs for a numeric sparse C (entries (row, column, value)) and an SX rhs: the
    columns of C⁻¹ that meet a non-zero rhs entry, with round-off zeros set to 0 (keeps
    structurally absent couplings absent)."""
    from scipy.sparse import csc_matrix
    from scipy.sparse.linalg import splu

    C = csc_matrix(([float(ca.DM(c)) if isinstance(c, ca.SX) else float(c)
                     for *_, c in entries], ([e[0] for e in entries], [e[1] for e in entries])),
                   shape=(n, n))
    live = [a for a, r in enumerate(rhs) if not (ca.SX(r).is_constant()
                                                 and float(ca.DM(ca.SX(r))) == 0.0)]
    if not live:
        return ca.SX.zeros(n)
    unit = np.zeros((n, len(live)))
    unit[live, range(len(live))] = 1.0
    X = splu(C).solve(unit) if n > 1 else unit / C.toarray()[0, 0]
    X[np.abs(X) < ZERO_TOL * max(1.0, np.abs(X).max())] = 0.0
    return ca.mtimes(ca.DM(csc_matrix(X)), ca.vertcat(*[rhs[a] for a in live]))


def _clean(expr: ca.SX) -> ca.SX:
    return ca.simplify(expr) if not expr.is_constant() else expr


def _check_sensors_open(flat: FlatModel, plan: FlangePlan, closure: ca.SX, owners: list,
                        delta: dict) -> None:
    """A cut sensor must cut a tree branch of the 1-D network: opening it must move nets, not
    violate a closure equation (then its reading would be a loop's constraint force)."""
    for sensor, d in delta.items():
        if closure.numel() and ca.depends_on(closure, d):
            loop = [o for o, row in zip(owners, ca.vertsplit(closure))
                    if ca.depends_on(row, d)]
            raise ModelError(
                f"{sensor.path} joins flanges whose positions are fixed independently of the "
                f"sensor ({'; '.join(loop)}): its reading would be the constraint force of a "
                "closed loop. Place the sensor where one side is moved only through it (e.g. "
                "between a joint axis and an Inertia)")


def _nets_text(flat: FlatModel, rel: Relation) -> str:
    """The flanges a coupling joins, named by what else sits on their nets."""
    names = []
    for net in rel.terms:
        ports = flat.net_ports_of(net)
        others = [p.path for p in ports if p.owner is not rel.owner]
        if others:
            names.append(others[0])
    return ", ".join(names) or _describe(flat, next(iter(rel.terms)))
