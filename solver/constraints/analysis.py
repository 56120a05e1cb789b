"""Stage 4 for a constrained model (DESIGN.md §3.4): collect the constraint equations, assemble
the reference configuration, partition the coordinates and speeds (user-chosen speeds kept
independent), check that the reference is not a singular position, and classify the velocity
constraints (seed 002, computed on first use).
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.mechanics import Mechanics
from ..model.speeds import Speeds, _parse
from .assembly import assemble
from .closure import collect_constraints
from .integrability import classify
from .moves import Mover, mover
from .partition import Partition, explicit_form, numeric_rank, partition


def kept_speeds(mech: Mechanics, spec: dict | None) -> tuple[list[int], list[str]]:
    """With constraints, user speeds must each be one joint speed: they are kept independent."""
    kin = mech.kin
    keep, names = [], []
    for name, text in (spec or {}).items():
        expr = _parse(name, text, kin)
        hits = [j for j in range(kin.w.numel()) if ca.is_equal(ca.SX(expr), kin.w[j])]
        if not hits:
            raise ModelError(f"speeds: '{name}' = {text!r}: with closed loops or contacts each "
                             "generalized speed must be a single joint speed (e.g. "
                             f"'{kin.rates[0].name}'), which is then kept independent")
        keep.append(hits[0])
        names.append(name)
    return keep, names


def constrained_speeds(mech: Mechanics, G: ca.SX, part: Partition, names: list[str]) -> Speeds:
    """Speeds z = w_ind with w = G(y)·z and ẏ = N(y)·G(y)·z (seed 002's explicit form)."""
    kin = mech.kin
    rate_names = names + [kin.rates[j].name for j in part.independent_speeds[len(names):]]
    units = [kin.rates[j].unit for j in part.independent_speeds]
    z = ca.vertcat(*[ca.SX.sym(n) for n in rate_names])
    w_of_z = ca.densify(ca.mtimes(G, z))
    ydot = ca.substitute(kin.ydot, kin.w, w_of_z)
    return Speeds(rate_names, units, z, w_of_z, ydot, kin.w[part.independent_speeds], False)


def analyze(mech: Mechanics, spec: dict | None):
    """Constraint equations, the assembled reference configuration and the partition."""
    eqs = collect_constraints(mech)
    p0 = mech.params.defaults
    mv = mover(mech.kin, eqs.c, mech.params.p, eqs.branch, eqs.branch_owner)
    y_default = np.array([c.default for c in mech.kin.coordinates], dtype=float)
    names = [c.name for c in mech.kin.coordinates]
    y_ref = _reference(mv, y_default, p0, names, eqs.c_owner) if eqs.n_holonomic \
        else y_default
    keep, user_names = kept_speeds(mech, spec)
    part = partition(mech, eqs, y_ref, p0, keep)
    A = eqs.A[part.velocity_rows, :]
    G = explicit_form(A, part.dependent_speeds, part.independent_speeds, mech.kin.w.numel())
    return eqs, part, A, G, mv, user_names


def _reference(mv: Mover, y_default, p, names, owners):
    """Reference assembly moving the scalar coordinates first (the defaults of the ball joints
    are kept where that closes the loops, e.g. a disk's upright pose); only if that fails are
    the quaternions moved too (a loop through a ball joint of the tree)."""
    scalar = [j for j, m in enumerate(mv.moved) if len(m) == 1]
    try:
        return reference_assembly(mv, y_default, p, scalar, names, owners)
    except ModelError:
        if len(scalar) == len(mv.free_directions(set())):
            raise
    return reference_assembly(mv, y_default, p, mv.free_directions(set()), names, owners)


def reference_assembly(mv: Mover, y_default, p, free, names, owners, restarts: int = 8):
    """Assemble from the coordinate defaults; if that start is singular (e.g. every link of a
    loop stretched along one line, where Gauss–Newton cannot move), retry from reproducible
    random moves of the free directions (±0.5 m or rad) before reporting the first error."""
    try:
        return assemble(mv, y_default, p, free, names, owners)
    except ModelError as first:
        rng = np.random.default_rng(0)
        for _ in range(restarts):
            delta = np.zeros(len(mv.moved))
            delta[free] = rng.uniform(-0.5, 0.5, len(free))
            start = np.array(mv.retract(y_default, delta)).ravel()
            try:
                return assemble(mv, start, p, free, names, owners)
            except ModelError:
                continue
        raise first


def integrability_of(mech: Mechanics, eqs, part: Partition, A, G, mv: Mover) -> object:
    """Seed 002's classification of the distribution ẏ = N·G·z at y_ref and nearby assembled
    configurations (generic rank)."""
    kin, p0 = mech.kin, mech.params.defaults
    fields = ca.mtimes(ca.jacobian(kin.ydot, kin.w), G)
    fields = ca.substitute(fields, mech.params.p, ca.DM(p0)) if p0.size else fields
    points = [part.y_ref] + _nearby(mech, eqs, part, mv, 2)
    rows = None
    if kin.rates_are_derivatives:
        A_num = ca.substitute(A, mech.params.p, ca.DM(p0)) if p0.size else A
        owners = eqs.c_owner + eqs.b_owner
        rows = [(f"{owners[r].split(' (')[0]} (row {r})", A_num[i, :])
                for i, r in enumerate(part.velocity_rows)]
    return classify(fields, kin.y, points, kin.w.numel(), A.shape[0], rows,
                    [c.name for c in kin.coordinates], [r.name for r in kin.rates])


def check_generic_rank(mech: Mechanics, eqs, part: Partition, mv: Mover) -> None:
    """The rank found at y_ref must be the generic one: a larger rank at nearby assembled
    configurations means y_ref is a singular position, where equations look redundant that
    are not (a four-bar assembled flat, a disk lying on its face)."""
    A_fn = ca.Function("A_all", [mech.kin.y, mech.params.p], [eqs.A])
    for y in _nearby(mech, eqs, part, mv, 2):
        rank = numeric_rank(np.array(A_fn(y, mech.params.defaults)))
        if rank > len(part.velocity_rows):
            owners = ", ".join(dict.fromkeys(eqs.c_owner + eqs.b_owner))
            raise ModelError(
                f"the constraints of {owners} have rank {len(part.velocity_rows)} at the "
                f"reference assembly but {rank} nearby: the reference is a singular position. "
                "Change the joints' default geometry (e.g. a FixedRotation offset) so the "
                "mechanism is not assembled in a dead-centre or flat position")


def _nearby(mech: Mechanics, eqs, part: Partition, mv: Mover, count: int) -> list:
    """Assembled configurations near y_ref: random moves (±0.3) of the independent
    directions, the dependent ones re-assembled."""
    rng = np.random.default_rng(7)
    dep = part.dependent_moves
    free = [j for j in mv.free_directions(set()) if j not in dep]
    out = []
    for _ in range(count):
        delta = np.zeros(len(mv.moved))
        delta[free] = rng.uniform(-0.3, 0.3, len(free))
        y = np.array(mv.retract(part.y_ref, delta)).ravel()
        if eqs.n_holonomic:
            try:
                y = assemble(mv, y, mech.params.defaults, dep,
                             [c.name for c in mech.kin.coordinates], eqs.c_owner)
            except ModelError:
                continue
        out.append(y)
    return out
