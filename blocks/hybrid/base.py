"""The hybrid contract: components with discrete variables (modes, held values), switching
constraint rows, guards and the transitions at their zero crossings (DESIGN.md §6).

A hybrid element declares

* ``DISCRETE``: its discrete variables (a friction mode, a contact state, a held controller
  output). They are constant between events; the solver makes them entries of the parameter
  vector p named ``<path>.<name>`` and the hooks read them as CasADi symbols through
  ``ctx.discrete(self)``;
* ``rows(ctx)``: directions of constraint force (:class:`Row`): the relative velocity γ along
  the row, whether the row is a constraint in the present mode (γ̇ = 0, its force λ unknown,
  e.g. a stuck clutch, a closed contact) and otherwise the force it carries (a sliding clutch's
  torque, 0 for an open contact), which may be linear in other rows' forces
  (``ctx.multiplier(self, name)``: Coulomb's F_t = −μ·F_n of a sliding contact);
* ``guards(ctx)``: zero-crossing functions g(t, y, w, u, p, λ) with a direction and the modes
  in which they are watched;
* ``on_event(name, state)``, ``after_impact(state)`` and ``settle(state)``: what happens at a
  crossing, after an impact and during the event iteration (Python on numbers, through the
  :class:`HybridState` the solver hands over).

The solver (``jourdain.solver.hybrid``) turns the rows into multipliers of the equations of
motion, M·ż = q − k + Jᵀ·λ; the simulation's event loop localizes crossings, runs the
transitions, applies impacts M·Δz = Jᵀ·Λ and restarts the integrator.

Sampled (discrete-time) blocks are hybrid elements too (:class:`Sampled`): at
t = start_time + k·sample_period their ``update(ctx)`` gives the new discrete values.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

from ..base import as_scalar
from ..errors import ModelError


class Direction(Enum):
    """Which zero crossings of a guard g count (as in Modelica's ``when g > 0`` / ``< 0``)."""

    RISING = "rising"     # g goes from negative to positive
    FALLING = "falling"   # g goes from positive to negative
    BOTH = "both"


@dataclass(frozen=True)
class Discrete:
    """A discrete variable of a hybrid element: its name, initial value and meaning, and the
    values it may take (``values``: an IntEnum of modes or a tuple of numbers; None: any
    finite number, a held controller output). A value outside them given in ``params``
    (simulate, linearize, TrajectoryProblem) is a ModelError naming the element and the valid
    values: a mode no transition knows would silently switch the element off."""

    name: str
    initial: float = 0.0
    doc: str = ""
    values: Any = None

    def check(self, value: float, owner: str) -> None:
        """A ModelError unless ``value`` is one of ``values``."""
        if self.values is None:
            return
        valid = [int(v) for v in self.values]
        if not any(value == v for v in valid):
            names = [f"{int(v)} ({v.name})" if hasattr(v, "name") else f"{v:g}"
                     for v in self.values]
            raise ModelError(f"params: {owner}.{self.name} = {value:g} is not a valid value "
                             f"of {owner}'s {self.name}; valid: {', '.join(names)}")


@dataclass(frozen=True)
class Row:
    """A direction of constraint force of a hybrid element.

    name : the force's name (``tau``, ``f_n``, ``f_t[0]``); the Result shows it as
        ``<path>.<name>``.
    velocity : γ, the relative velocity along the row (CasADi, linear in the speeds); the
        force λ along the row does the power λ·γ.
    active : 1 in the modes where the row is a constraint (γ̇ = 0, λ unknown), else 0
        (an expression of the element's discrete variables).
    force : λ where the row is not active; may be linear in other rows' forces
        (``ctx.multiplier``).
    gap : position-level gap g ≥ 0 of a unilateral row (a stop, a contact normal); while the
        row is active the solver holds γ̇ + 2·ω·γ + ω²·g = 0 (Baumgarte, against drift).
    unilateral : the force may only push (λ ≥ 0): the row takes part in impacts with
        restitution and its lift-off is a guard of the element.
    friction_of : for a tangential row, the name of the normal row whose force bounds it
        (impacts use Coulomb's cone |Λ_t| ≤ μ·Λ_n on it).
    compliance : regularization of the row relative to its diagonal of J·M⁻¹·Jᵀ (default
        1e-8): where several rows hold the same motion (four corners of a box resting on a
        face, a stop and a stuck friction on one joint) it resolves the indeterminate split
        of their forces, in inverse proportion to the rows' compliances (the least-squares
        split when they are equal; a rigid Stop's rows use 1e-14, so a stop takes the load
        before a stuck friction); elsewhere iterative refinement makes its effect O(ε²).
    sign : the force's sign in the Result (``<path>.<name>`` shows sign·λ; MSL's friction
        torque, positive against w_rel, is −λ).
    limit : the static limit of a friction row (|λ| it can hold while a constraint; an
        expression ≥ 0), or None. Where several stuck friction rows hold one motion, the
        solver splits the holding force among them in proportion to their limits, so every
        one of them reaches its limit at once — when the load reaches their combined limit
        (MSL's friction elements on one shaft; :mod:`jourdain.solver.hybrid.dynamics`).
    potential : the energy [J] an inactive row's force law stores (a compliant contact's
        spring, c·δⁿ⁺¹/(n + 1)), in the coordinates: it is reported in ``energy.potential``
        and the rest of the row's power λ·γ as dissipated.
    """

    name: str
    velocity: Any
    active: Any = 0
    force: Any = 0
    gap: Any = None
    unilateral: bool = False
    friction_of: str | None = None
    compliance: float = 1e-8
    sign: float = 1.0
    limit: Any = None
    potential: Any = 0


@dataclass(frozen=True)
class Guard:
    """A zero-crossing function of a hybrid element.

    expr : g(t, y, w, u, p, λ) (CasADi; forces through ``ctx.multiplier``).
    direction : the crossings that count.
    modes : in which modes the guard is watched, as {discrete name: allowed values}, e.g.
        ``{"mode": (FrictionMode.FORWARD,)}``; None: always.
    """

    name: str
    expr: Any
    direction: Direction = Direction.BOTH
    modes: dict | None = None

    def watched(self, values: dict) -> bool:
        """True when the discrete values (by name) are in one of the guard's modes."""
        return self.modes is None or all(round(values[k]) in tuple(int(v) for v in allowed)
                                         for k, allowed in self.modes.items())


@dataclass(frozen=True)
class RowValue:
    """Numbers of a row at an event: velocity γ, force λ, gap g (or None), and the
    acceleration γ̇ in the present modes."""

    velocity: float
    force: float
    gap: float | None
    acceleration: float


class HybridState:
    """What transitions may read and change at an event (implemented by the solver).

    ``t`` is the event time; all values are those of the present modes.
    """

    t: float

    def discrete(self, element) -> dict:  # pragma: no cover - interface
        """The element's discrete values by name."""
        raise NotImplementedError

    def set(self, element, **values) -> None:  # pragma: no cover - interface
        """Change discrete values of the element (the event log records the change)."""
        raise NotImplementedError

    def row(self, element, name: str) -> RowValue:  # pragma: no cover - interface
        raise NotImplementedError

    def monitor(self, element, name: str) -> float:  # pragma: no cover - interface
        """The value of one of the element's ``monitors``."""
        raise NotImplementedError

    def rate(self, element, guard: str) -> float:  # pragma: no cover - interface
        """The rate of change of one of the element's guards along the motion of the present
        modes (the side a guard at zero is leaving to: Modelica decides a relation at an
        event by its value just after the instant, t⁺)."""
        raise NotImplementedError

    def impact(self, element, normal: str, tangents: tuple = (), restitution: float = 0.0,
               mu: float = 0.0) -> None:  # pragma: no cover - interface
        """Ask for an impact on the unilateral row ``normal`` (Newton's restitution e, Coulomb
        friction μ on the ``tangents`` rows); the solver resolves all impacts of one instant
        together and then calls ``after_impact`` of each element that asked."""
        raise NotImplementedError


class Hybrid:
    """Mixin of a component with discrete variables, switching rows and guards (see the module
    docstring). Every hook is optional."""

    DISCRETE: ClassVar[tuple[Discrete, ...]] = ()

    def rows(self, ctx) -> list[Row]:
        return []

    def guards(self, ctx) -> list[Guard]:
        return []

    def monitors(self, ctx) -> dict:
        """Named expressions the transitions read at events (e.g. a clutch's normal force)."""
        return {}

    def initialize(self, state: HybridState) -> None:
        """Choose discrete values consistent with the initial state (Modelica's ``initial()``);
        by default the declared initial values are kept and ``settle`` corrects them."""

    def on_event(self, guard: str, state: HybridState) -> None:
        """React to the crossing of one of this element's guards."""

    def after_impact(self, state: HybridState) -> None:
        """After an impact this element asked for: choose the modes from the new velocities."""

    def impact_friction(self, state: HybridState, row: str) -> float | None:
        """Coulomb's μ for the tangential rows of this element's unilateral ``row`` (those
        naming it in ``friction_of``) when the row, closed now, takes part in an impact that
        another element asked for: the impulses then obey |Λ_t| ≤ μ·Λ_n. None (the default):
        sticking tangential rows stay constraints through the impact."""
        return None

    def set_row(self, state: HybridState, row: str, closed: bool) -> None:
        """Close (a constraint) or open one of this element's unilateral rows, as decided for
        several coupled rows at once (``settle`` of the solver); by default nothing."""

    def settle(self, state: HybridState) -> bool:
        """Correct a mode that the present numbers contradict (a stuck clutch whose torque
        exceeds the static limit, a closed contact that would pull); return True if anything
        changed. Called repeatedly after every event until no element changes (the event
        iteration of Modelica)."""
        return False


class Sampled(Hybrid):
    """A discrete-time block: at t = start_time + k·sample_period (k = 0, 1, …) ``update(ctx)``
    returns the new values of its DISCRETE variables from the inputs at that instant and the
    present discrete values; between samples they are held (zero-order hold), and
    ``outputs(ctx)`` reads them with ``ctx.discrete(self)``.

    Blocks sampled at the same instant update in the order of their signal dependencies, so
    a chain of sampled blocks sees its inputs' new values (no hidden delay).
    """

    sample_period: float = 1.0
    start_time: float = 0.0

    def _set_sampling(self, sample_period, start_time, owner: str) -> None:
        """Store the sampling; a ModelError for a period that is not a positive number."""
        period = as_scalar(sample_period, owner, "sample_period")
        if not period > 0:
            raise ModelError(f"{owner}: sample_period must be positive, got {period} s")
        self.sample_period = period
        self.start_time = as_scalar(start_time, owner, "start_time")

    def update(self, ctx) -> dict:  # pragma: no cover - interface
        raise NotImplementedError
