"""Collect the hybrid elements of a model (DESIGN.md §6): their switching rows, guards,
monitors and sampled updates as CasADi expressions in (t, y, w, u, p, s), the rows' forces λ
standing in as symbols where guards and force laws use them.

Ordering: rows, guards and monitors follow the elements in declaration order, each element's
in the order its hooks return them; sampled blocks likewise.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca

from jourdain.blocks.errors import ModelError
from jourdain.blocks.hybrid.base import Direction, Guard, Row, Sampled

from ..model.mechanics import Mechanics


@dataclass(frozen=True)
class RowInfo:
    """A row of the model: its owner (the original component), name and impact data."""

    owner: object
    name: str
    unilateral: bool
    friction_of: int | None     # index of the normal row bounding a tangential row
    compliance: float
    sign: float = 1.0           # sign of the force as the Result shows it

    @property
    def label(self) -> str:
        return f"{self.owner.path}.{self.name}"


@dataclass(frozen=True)
class GuardInfo:
    owner: object
    name: str
    direction: Direction
    guard: Guard            # the declaration (its ``watched`` says in which modes)

    @property
    def label(self) -> str:
        return f"{self.owner.path}.{self.name}"


@dataclass
class HybridModel:
    """Everything the hybrid stage found, in (t, y, w, u, p, s) with λ as symbols."""

    elements: list                      # hybrid components (originals), declaration order
    rows: list[RowInfo] = field(default_factory=list)
    guards: list[GuardInfo] = field(default_factory=list)
    monitors: list[tuple] = field(default_factory=list)   # (owner, name)
    lam: ca.SX = field(default_factory=lambda: ca.SX(0, 1))
    gamma: ca.SX = field(default_factory=lambda: ca.SX(0, 1))
    active: ca.SX = field(default_factory=lambda: ca.SX(0, 1))
    force: ca.SX = field(default_factory=lambda: ca.SX(0, 1))
    gap: ca.SX = field(default_factory=lambda: ca.SX(0, 1))
    limit: ca.SX = field(default_factory=lambda: ca.SX(0, 1))   # static limits (0: none)
    has_limit: list[bool] = field(default_factory=list)
    potential: ca.SX = field(default_factory=lambda: ca.SX(0))   # stored by rows' force laws
    has_gap: list[bool] = field(default_factory=list)
    guard_expr: ca.SX = field(default_factory=lambda: ca.SX(0, 1))
    monitor_expr: ca.SX = field(default_factory=lambda: ca.SX(0, 1))
    samplers: list = field(default_factory=list)           # Sampled components
    updates: dict = field(default_factory=dict)            # path -> SX of new discrete values

    @property
    def empty(self) -> bool:
        return not self.elements


class HybridContext:
    """The block Context for hybrid hooks: the model's context plus ``multiplier``, a symbol
    for the force of one of the element's rows."""

    def __init__(self, ctx):
        self._ctx = ctx
        self.t = ctx.t
        self._lam: dict = {}

    def __getattr__(self, name):
        return getattr(self._ctx, name)

    def multiplier(self, component, row: str):
        # the model context's symbol: what the acausal equations read of λ (a lossy
        # element's heat) is the same symbol, substituted by the solved λ (.dynamics)
        key = (component.path, row)
        if key not in self._lam:
            self._lam[key] = self._ctx.multiplier(component, row)
        return self._lam[key]


def collect_hybrid(mech: Mechanics) -> HybridModel:
    """Rows, guards, monitors and sampled updates of the model's hybrid elements."""
    elements = list(mech.flat.hybrid)
    model = HybridModel(elements)
    if not elements:
        return model
    hctx = HybridContext(mech.ctx)
    rows, owners = [], []
    for comp in elements:
        for row in _checked(mech.inst[comp].rows(hctx), Row, comp, "rows"):
            rows.append(row)
            owners.append(comp)
    _rows(model, rows, owners, hctx)
    _guards(model, elements, mech, hctx)
    model.samplers = [c for c in elements if isinstance(c, Sampled)]
    for comp in model.samplers:
        model.updates[comp.path] = _updates(comp, mech, hctx)
    return model


def _checked(items, kind, comp, hook: str) -> list:
    items = list(items or [])
    for item in items:
        if not isinstance(item, kind):
            raise ModelError(f"{comp.path}: {hook}() must return {kind.__name__} objects, got "
                             f"{item!r:.60}")
    return items


def _rows(model: HybridModel, rows: list[Row], owners: list, hctx: HybridContext) -> None:
    index = {(o.path, r.name): i for i, (r, o) in enumerate(zip(rows, owners))}
    if len(index) != len(rows):
        raise ModelError("hybrid rows: two rows of one element share a name")
    infos = []
    for row, owner in zip(rows, owners):
        friction = None
        if row.friction_of is not None:
            if (owner.path, row.friction_of) not in index:
                raise ModelError(f"{owner.path}: row '{row.name}' names friction_of="
                                 f"'{row.friction_of}', which is not one of its rows")
            friction = index[(owner.path, row.friction_of)]
        infos.append(RowInfo(owner, row.name, bool(row.unilateral), friction,
                             float(row.compliance), float(row.sign)))
    model.rows = infos
    lam = [hctx.multiplier(o, r.name) for r, o in zip(rows, owners)]
    model.lam = ca.vertcat(*lam) if lam else ca.SX(0, 1)
    model.gamma = _stack([r.velocity for r in rows])
    model.active = _stack([r.active for r in rows])
    model.force = _stack([r.force for r in rows])
    model.gap = _stack([0 if r.gap is None else r.gap for r in rows])
    model.has_gap = [r.gap is not None for r in rows]
    model.limit = _stack([0 if r.limit is None else r.limit for r in rows])
    model.has_limit = [r.limit is not None for r in rows]
    model.potential = sum((ca.SX(r.potential) for r in rows), ca.SX(0))


def _guards(model: HybridModel, elements: list, mech: Mechanics, hctx) -> None:
    guards, monitors = [], []
    for comp in elements:
        inst = mech.inst[comp]
        for guard in _checked(inst.guards(hctx), Guard, comp, "guards"):
            if not isinstance(guard.direction, Direction):
                raise ModelError(f"{comp.path}: guard '{guard.name}' needs a Direction, got "
                                 f"{guard.direction!r}")
            model.guards.append(GuardInfo(comp, guard.name, guard.direction,
                                          Guard(guard.name, None, guard.direction, guard.modes)))
            guards.append(guard.expr)
        for name, expr in (inst.monitors(hctx) or {}).items():
            model.monitors.append((comp, name))
            monitors.append(expr)
    model.guard_expr = _stack(guards)
    model.monitor_expr = _stack(monitors)
    declared = {(r.owner.path, r.name) for r in model.rows}
    unknown = [k for k in hctx._lam if k not in declared]
    if unknown:
        raise ModelError(f"{unknown[0][0]}: ctx.multiplier names row '{unknown[0][1]}', which "
                         "the element does not declare in rows()")


def _updates(comp, mech: Mechanics, hctx) -> ca.SX:
    """The sampled block's new discrete values, in the order of its DISCRETE."""
    new = mech.inst[comp].update(hctx) or {}
    names = [d.name for d in comp.DISCRETE]
    extra = [n for n in new if n not in names]
    if extra:
        raise ModelError(f"{comp.path}: update() returned '{extra[0]}', which is not one of its "
                         f"DISCRETE variables ({', '.join(names)})")
    current = mech.ctx.discrete(comp)
    return _stack([new.get(n, current[n]) for n in names])


def _stack(exprs: list) -> ca.SX:
    parts = [ca.reshape(ca.SX(e), -1, 1) for e in exprs]
    for part in parts:
        if part.numel() != 1:
            raise ModelError(f"hybrid hooks must give scalar expressions, got {part.numel()} "
                             "entries")
    return ca.vertcat(*parts) if parts else ca.SX(0, 1)
