"""Stage 4 for a constrained model (DESIGN.md §3.4): collect the constraint equations, assemble
the reference configuration, partition the coordinates and speeds (user-chosen speeds kept
independent), make sure the reference is a regular configuration (the constraint rank there
the generic one; a singular reference is replaced by a regular one nearby), and classify the
velocity constraints (integrability, Frobenius; computed on first use).
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.mechanics import Mechanics
from ..model.speeds import Speeds, _parse
from .assembly import assemble
from .closure import collect_constraints
from .integrability import classify, holonomic_bound
from .moves import Mover, mover
from .partition import Partition, explicit_form, numeric_rank, partition

GENERIC_TRIES = 4    # random re-assemblies near the reference that test its rank
GENERIC_MOVE = 0.3   # their move of every free direction, uniform in ± this [m, rad]
MOVED = 1e-3         # [m, rad] a re-assembly closer to y_ref found no other configuration
#                      (Gauss–Newton stalls ~1e-5 off a singular root: a locked linkage)


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
    """Speeds z = w_ind with w = G(y)·z and ẏ = N(y)·G(y)·z (the explicit form)."""
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
    defined = _defined(mech, eqs)
    junction_moves = [j for jn in mech.junctions
                      for j in range(mech.kin.w_slices[jn].start, mech.kin.w_slices[jn].stop)]
    y_ref = _reference(mv, y_default, p0, names, eqs.c_owner, defined, junction_moves) \
        if eqs.n_holonomic else y_default
    y_ref = regular_reference(mech, eqs, mv, y_ref, names, defined)
    keep, user_names = kept_speeds(mech, spec)
    keep += [d.speed for d in mech.driven if d.speed not in keep]   # driven: independent
    part = partition(mech, eqs, y_ref, p0, keep)
    A = eqs.A[part.velocity_rows, :]
    G = explicit_form(A, part.dependent_speeds, part.independent_speeds, mech.kin.w.numel())
    return eqs, part, A, G, mv, user_names


def _defined(mech: Mechanics, eqs):
    """y ↦ True when every constraint Jacobian is finite at y (a disk lying flat has no
    contact point: its no-slip directions are 0/0 there)."""
    A_fn = ca.Function("A_all", [mech.kin.y, mech.params.p], [eqs.A])
    return lambda y, p: bool(np.isfinite(np.array(A_fn(y, p))).all())


def _reference(mv: Mover, y_default, p, names, owners, defined, first_moves=()):
    """Reference assembly moving as few coordinates as possible: the massless junctions' own
    coordinates alone (``first_moves``), then the scalar coordinates (the defaults of the ball
    joints are kept where that closes the loops, e.g. a disk's upright pose), and only if that
    fails, or ends where the constraints are undefined (a disk lying flat in a z-up world),
    the quaternions too (a loop through a ball joint of the tree)."""
    everything = mv.free_directions(set())
    scalar = [j for j, m in enumerate(mv.moved) if len(m) == 1]
    tries = [list(first_moves)] if first_moves else []
    if len(scalar) < len(everything) and _may_close(mv, y_default, p, scalar, everything):
        tries += [scalar]
    for free in tries:
        try:
            return reference_assembly(mv, y_default, p, free, names, owners, defined=defined,
                                      first_moves=first_moves)
        except ModelError:
            continue
    return reference_assembly(mv, y_default, p, everything, names, owners, defined=defined,
                              first_moves=first_moves)


def _may_close(mv: Mover, y_default, p, scalar: list[int], everything: list[int]) -> bool:
    """False when the scalar moves span fewer closure directions than all moves at the
    defaults: they cannot close the loops (a FreeJoint's position cannot align a revolute's
    axis), and the doomed attempt's random restarts cost seconds."""
    J = np.array(mv.linear(y_default, p)[1], dtype=float)
    return not np.isfinite(J).all() or \
        numeric_rank(J[:, scalar]) == numeric_rank(J[:, everything])


def reference_assembly(mv: Mover, y_default, p, free, names, owners, restarts: int = 8,
                       defined=None, first_moves=()):
    """Assemble from the coordinate defaults; if that start is singular (e.g. every link of a
    loop stretched along one line, where Gauss–Newton cannot move) or the result is a
    configuration where the constraints are undefined (``defined``), retry from reproducible
    random moves of the free directions (±0.5 m or rad) before reporting the first error: first
    of the ball joints' turns (a flat disk stands up) and of ``first_moves`` (massless
    junctions leave a zero-length spring), keeping the other coordinates at their defaults."""
    def attempt(start):
        y = assemble(mv, start, p, free, names, owners)
        if defined is not None and not defined(y, p):
            raise ModelError("the constraints of " + ", ".join(dict.fromkeys(owners)) +
                             " are undefined at the assembled configuration (" +
                             ", ".join(f"{n} = {v:.6g}" for n, v in zip(names, y)) +
                             "), e.g. a rolling disk lying flat")
        return y
    try:
        return attempt(y_default)
    except ModelError as first:
        rng = np.random.default_rng(0)
        turns = [j for j in free if len(mv.moved[j]) == 4 or j in first_moves]
        for k in range(2 * restarts if turns else restarts):
            moving = turns if k < restarts and turns else free
            delta = np.zeros(len(mv.moved))
            delta[moving] = rng.uniform(-0.5, 0.5, len(moving))
            start = np.array(mv.retract(y_default, delta)).ravel()
            try:
                return attempt(start)
            except ModelError:
                continue
        raise first


def integrability_of(mech: Mechanics, eqs, part: Partition, A, G, mv: Mover) -> object:
    """Seed 002's classification of the distribution ẏ = N·G·z at y_ref and nearby assembled
    configurations (generic rank), its bracket search bounded by the holonomic constraints."""
    kin, p0 = mech.kin, mech.params.defaults

    def numeric(expr):
        return ca.substitute(expr, mech.params.p, ca.DM(p0)) if p0.size else expr
    N = ca.jacobian(kin.ydot, kin.w)
    fields = numeric(ca.mtimes(N, G))
    points = [part.y_ref] + _nearby(mech, eqs, part, mv, 2)
    bound = holonomic_bound(N, numeric(ca.jacobian(eqs.c, kin.y)), kin.y, points)
    rows = None
    if kin.rates_are_derivatives:
        A_num = numeric(A)
        owners = eqs.c_owner + eqs.b_owner
        rows = [(f"{owners[r].split(' (')[0]} (row {r})", A_num[i, :])
                for i, r in enumerate(part.velocity_rows)]
    return classify(fields, kin.y, points, kin.w.numel(), A.shape[0], rows,
                    [c.name for c in kin.coordinates], [r.name for r in kin.rates], bound=bound)


def regular_reference(mech: Mechanics, eqs, mv: Mover, y_ref: np.ndarray, names: list[str],
                      defined) -> np.ndarray:
    """y_ref when the rank of the constraint Jacobian A there is the generic one, else a
    regular configuration nearby. The generic rank is the largest at GENERIC_TRIES random
    re-assemblies: every free direction moved by up to ±GENERIC_MOVE from y_ref and the loops
    closed again with all directions free (minimum-norm Gauss–Newton, which lands on a
    generic point of the constraint manifold). A smaller rank at y_ref means y_ref is a
    singular position, where equations look redundant that are not (a four-bar whose links
    lie along one line: rank 1 instead of 2, so one freedom too many): the re-assembly of
    generic rank closest to y_ref becomes the reference. Refused by name when no re-assembly
    reaches a configuration other than y_ref although the rank there leaves the mechanism
    free to move (a mechanism locked at a singular position, links stretched to their full
    reach): the rank cannot be vouched for."""
    A_fn = ca.Function("A_all", [mech.kin.y, mech.params.p], [eqs.A])
    p = mech.params.defaults
    rank = numeric_rank(np.array(A_fn(y_ref, p), dtype=float))
    if rank == 0 or rank == mech.kin.w.numel():
        return y_ref   # nothing constrained, or nothing free: no rank can rise
    best, best_rank = y_ref, rank
    others = []
    for y in _reassembled(mech, eqs, mv, y_ref, names, defined):
        if np.linalg.norm(y - y_ref) <= MOVED:
            continue
        others.append(y)
        r = numeric_rank(np.array(A_fn(y, p), dtype=float))
        if r > best_rank or (r == best_rank > rank and
                             np.linalg.norm(y - y_ref) < np.linalg.norm(best - y_ref)):
            best, best_rank = y, r
    if not others:
        owners = ", ".join(dict.fromkeys(eqs.c_owner + eqs.b_owner))
        raise ModelError(
            f"the constraints of {owners} have rank {rank} at the reference assembly (" +
            ", ".join(f"{n} = {v:.6g}" for n, v in zip(names, y_ref)) + "), which leaves "
            f"{mech.kin.w.numel() - rank} joint speed(s) free, but no other configuration "
            f"could be assembled near it ({GENERIC_TRIES} random re-assemblies, moves of "
            f"±{GENERIC_MOVE}), so the degrees of freedom cannot be vouched for: the "
            "mechanism may be locked in a singular position (links stretched to their full "
            "reach or folded flat). Check the link lengths, or change the joints' default "
            "geometry (e.g. a FixedRotation offset) so the mechanism is assembled in a "
            "configuration where it can move")
    return best


def _reassembled(mech: Mechanics, eqs, mv: Mover, y_ref: np.ndarray, names: list[str],
                 defined) -> list:
    """The successful re-assemblies of :func:`regular_reference` (reproducible)."""
    rng = np.random.default_rng(11)
    free = mv.free_directions(set())
    p = mech.params.defaults
    out = []
    for _ in range(GENERIC_TRIES):
        delta = np.zeros(len(mv.moved))
        delta[free] = rng.uniform(-GENERIC_MOVE, GENERIC_MOVE, len(free))
        y = np.array(mv.retract(y_ref, delta)).ravel()
        if eqs.n_holonomic:
            try:
                y = assemble(mv, y, p, free, names, eqs.c_owner)
            except ModelError:
                continue
        if defined(y, p):
            out.append(y)
    return out


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
