"""What a compiled System knows of its hybrid elements: the elements, their rows, guards and
monitors (labels and owners), the discrete variables' positions in p, the sampled blocks and
their periods, and the time events of signal sources. No CasADi expressions: the System stays
picklable; the numbers come from its named functions (:mod:`.dynamics`)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from jourdain.blocks.base import Component
from jourdain.blocks.errors import ModelError

from ..model.mechanics import Mechanics
from ..model.speeds import Speeds
from .collect import GuardInfo, RowInfo, collect_hybrid
from .dynamics import hybrid_functions
from .massless import refuse_massless


@dataclass
class HybridInfo:
    """The hybrid part of a System (see the module docstring)."""

    elements: list
    rows: list[RowInfo] = field(default_factory=list)
    guards: list[GuardInfo] = field(default_factory=list)
    monitors: list[tuple] = field(default_factory=list)
    discrete_names: list[str] = field(default_factory=list)
    discrete_index: dict = field(default_factory=dict)   # component path -> {name: index in p}
    samplers: list = field(default_factory=list)          # Sampled components
    sources: list = field(default_factory=list)   # components with time_events(t0, t_end)
    # rows that are constraints in every mode (a LossyGear's mesh): initialize() solves the
    # speeds through them, as through a closure
    always_active: list[int] = field(default_factory=list)
    always_gap: list[int] = field(default_factory=list)   # those of them with a gap g(y) = 0
    # the component states or outputs read rows' forces (a LossyGear's heat port): the
    # islands, split on f_smooth (λ = 0 there), would not see that coupling
    reads_rows: bool = False

    def time_events(self, t0: float, t_end: float) -> list[float]:
        """Times of known jumps of signal sources (a Step's step time) in (t0, t_end)."""
        return sorted(t for c in self.sources for t in c.time_events(t0, t_end))

    @property
    def has_dynamics(self) -> bool:
        """True when the equations of motion depend on the modes (rows exist)."""
        return bool(self.rows)

    def check_discrete(self, p: np.ndarray, given) -> None:
        """A ModelError for a discrete value in ``given`` (names set by ``params``) that is
        not one its element declares valid (``Discrete.values``: a Stop's mode 7)."""
        for element in self.elements:
            index = self.discrete_index.get(element.path, {})
            for d in element.DISCRETE:
                if f"{element.path}.{d.name}" in given:
                    d.check(float(p[index[d.name]]), element.path)

    def discrete_values(self, element, p: np.ndarray) -> dict:
        return {name: float(p[i]) for name, i in self.discrete_index.get(element.path,
                                                                          {}).items()}


def refuse_unstated_modes(system, params, where: str, what: str) -> None:
    """A ModelError unless ``params`` states the discrete values (modes, held outputs of
    sampled blocks: entries of p) of every hybrid element that has them. A consumer that
    holds them fixed (a plan, a linearization) and does not see the guards would otherwise
    run on their defaults silently: a plan through a stop, a slipping clutch linearized as
    stuck, a plant without its sampled controller (docs/composition.md)."""
    info = getattr(system, "hybrid", None)
    if info is None:
        return
    given = set(params or {})
    unstated = {}
    for element in info.elements:
        names = [n for n in info.discrete_names if n.startswith(element.path + ".")]
        if names and not given.intersection(names):
            unstated[f"{element.path} ({type(element).__name__}: {', '.join(names)})"] = names
    if unstated:
        example = next(iter(unstated.values()))[0]
        raise ModelError(
            f"{where}: the hybrid elements {'; '.join(unstated)} have discrete values (modes, "
            f"held outputs) that {what} holds fixed without seeing their guards (a stop's "
            "limit, a clutch's lock, a contact's lift-off, a sample instant); state the "
            f"values of this mode in params=, e.g. params={{'{example}': ...}}, or simulate "
            "the model (the event loop decides the modes; a plan through a sequence of modes "
            "is a jd.MultiPhaseProblem, docs/hybrid.md)")


def refuse_row_reads(mech: Mechanics, functions: dict) -> None:
    """A ModelError where a closed loop's equations would read hybrid rows' forces (a
    LossyGear's heat port): the constraint methods build their own f from the smooth
    equations and do not pass the solved λ to them yet."""
    if any(k.endswith(":rows") for k in functions):
        owners = ", ".join(dict.fromkeys(path for path, _ in mech.ctx.multipliers))
        raise ModelError(f"{owners}: a heat port (useHeatPort=True) whose loss reads the rows' "
                         "forces (a LossyGear's) is not supported in a model with closed loops "
                         "yet; set useHeatPort=False (the loss still counts as dissipated in "
                         "res.check(); its power is <path>.tauLoss times the speed of "
                         "flange_a)")


def build_hybrid(mech: Mechanics, sp: Speeds, M, zdot, functions: dict,
                 rows_allowed: bool = True, rhs=None) -> HybridInfo | None:
    """Collect the hybrid elements and add their functions to ``functions`` (None when the
    model has none); M and zdot = M⁻¹·(q − k) are the smooth equations' (SX). ``rows_allowed`` is False for the Baumgarte and DAE constraint methods,
    whose multipliers do not yet include the hybrid rows. ``rhs`` = q − k lets coordinates
    without inertia of their own take it through always-active rows (:mod:`.massless`);
    without it (closed loops, drivers) such coordinates are refused by name."""
    if rhs is None:
        refuse_massless(mech, "in a model with closed loops or kinematic drivers")
    model = collect_hybrid(mech)
    if model.empty:
        return None
    if model.rows and not rows_allowed:
        owners = ", ".join(dict.fromkeys(r.owner.path for r in model.rows))
        raise ModelError(f"{owners}: stops, stick-slip friction and contacts in a closed loop "
                         "need ConstraintMethod.PARTITIONING (the Baumgarte and DAE methods "
                         "do not combine their multipliers with the hybrid rows yet)")
    twins = [k for k in functions if k.endswith(":rows")]
    functions.update(hybrid_functions(mech, sp, model, M, zdot, functions, rhs))
    for key in twins:
        functions.pop(key)
    if "M_rows" in functions:   # the smooth inverse dynamics' M⁻¹ (the ANALYTIC Jacobian)
        functions.pop("inverse_dynamics", None)   # is not the solve's M̃⁻¹
    names = list(mech.params.names)
    index: dict = {}
    for comp in model.elements:
        own = {d.name: names.index(f"{comp.path}.{d.name}") for d in comp.DISCRETE}
        if own:
            index[comp.path] = own
    # the components overriding the time_events hook (every component has the default)
    sources = [c for c in mech.flat.components
               if type(c).time_events is not Component.time_events]
    always = [i for i in range(model.active.numel()) if model.active[i].is_one()]
    return HybridInfo(model.elements, model.rows, model.guards, model.monitors,
                      list(mech.discrete.names), index, model.samplers, sources, always,
                      [i for i in always if model.has_gap[i]], bool(twins))
