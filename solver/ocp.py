"""The optimal-control problem statement on a compiled System, independent of transcription.

    minimize    E(t_f, x(t_f), p) + ∫_{t0}^{t_f} L(t, x, u, p) dt
    subject to  ẋ = f(t, x, u, p)                       (the System's dynamics)
                x_lo ≤ x ≤ x_hi, u_lo ≤ u ≤ u_hi        (bounds by name)
                c_lo ≤ c(t, x, u, p) ≤ c_hi              (path constraints)
                x_i(t0) = given, x_i(t_f) = given        (boundary conditions by name)
                p_free within bounds, t_f fixed or free

Costs and path constraints are Python callables of a :class:`Variables` view, in which
``v["cartpole.slider.s"]`` is a state, input, parameter or output by name, ``v.t`` the time and
``v.T`` the horizon length. They are traced once into named CasADi functions.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from .system import System, _unknown


@dataclass(frozen=True)
class FreeTime:
    """A free horizon length T [s]: guess, and bounds lower < T ≤ upper."""

    guess: float
    lower: float = 1e-3
    upper: float = np.inf

    def __post_init__(self):
        if not 0 < self.lower <= self.guess <= self.upper:
            raise ModelError(f"FreeTime: need 0 < lower ({self.lower}) ≤ guess ({self.guess}) "
                             f"≤ upper ({self.upper})")


class Variables:
    """Named view of (t, x, u, p) handed to cost and constraint callables."""

    def __init__(self, system: System, t, x, u, p, T, where: str):
        self.t, self.T, self._where = t, T, where
        self._values = dict(zip(system.x_names, ca.vertsplit(x)))
        self._values.update(zip(system.p_names, ca.vertsplit(p)))
        if u is not None:
            self._values.update(zip(system.u_names, ca.vertsplit(u)))
            out = system.h(t, x, u, p)
            self._values.update(zip(system.output_names, ca.vertsplit(out)))
        else:  # at t_f the input is not defined: offer the outputs that do not depend on it
            self._values.update(_input_free_outputs(system, t, x, p))
        self._known = list(system.x_names) + list(system.u_names) + list(system.p_names) + \
            list(system.output_names)

    def __getitem__(self, name: str):
        if name not in self._values:
            if name in self._known:
                raise ModelError(f"{self._where}: '{name}' (an input, or an output that depends "
                                 "on the inputs) is not defined here; terminal costs see states, "
                                 "parameters, outputs free of inputs, t and T")
            raise ModelError(_unknown(self._where, name, self._known))
        return self._values[name]


def _input_free_outputs(system: System, t, x, p) -> dict:
    """{output name: expression} for the outputs whose value does not depend on u (sensors),
    evaluated with u = 0 (which they ignore)."""
    if not system.output_names:
        return {}
    n_u = len(system.u_names)
    uses_u = set(system.h.sparsity_jac(2, 0).get_triplet()[0]) if n_u else set()
    out = ca.vertsplit(system.h(t, x, ca.DM.zeros(n_u), p))
    return {name: expr for i, (name, expr) in enumerate(zip(system.output_names, out))
            if i not in uses_u}


@dataclass
class Limits:
    """Lower and upper bounds by position in x or u."""

    lower: np.ndarray
    upper: np.ndarray

    @classmethod
    def free(cls, n: int) -> "Limits":
        return cls(np.full(n, -np.inf), np.full(n, np.inf))


@dataclass
class _Path:
    fn: object
    lower: float
    upper: float
    name: str


class TrajectoryProblem:
    """An optimal-control problem over a compiled System (see the module docstring).

    system : the plant, a jd.System (any formulation; constrained systems in minimal form).
    horizon : T [s], a number, or a :class:`FreeTime` for a free final time.
    intervals : number N of transcription intervals on [t0, t0 + T].
    params : values of the System's symbolic parameters (others keep their defaults).
    """

    def __init__(self, system: System, horizon, intervals: int = 50, t0: float = 0.0,
                 params: dict | None = None):
        if not isinstance(system, System):
            raise ModelError(f"TrajectoryProblem: expected a compiled jd.System, got {system!r}")
        if not isinstance(intervals, (int, np.integer, float)) or \
                not 1 <= intervals < np.inf or int(intervals) != intervals:
            raise ModelError(f"TrajectoryProblem: intervals must be a positive integer, "
                             f"got {intervals!r}")
        if not isinstance(horizon, FreeTime) and not _number(horizon, "horizon") > 0:
            raise ModelError(f"TrajectoryProblem: horizon must be a finite positive number "
                             f"[s] or a jd.FreeTime, got {horizon!r}")
        _refuse_dae(system)
        self.system, self.horizon = system, horizon
        self.intervals, self.t0 = int(intervals), _number(t0, "t0")
        self.p_values = system.parameters(params)
        self.x_limits = Limits.free(system.nx)
        self.u_limits = Limits.free(len(system.u_names))
        self.free_params: dict[str, tuple[float, float, float]] = {}
        self.x_initial: dict[str, float] = {}
        self.x_final: dict[str, float] = {}
        self.paths: list[_Path] = []
        self.integral_costs: list = []
        self.terminal_costs: list = []

    # ---- statement -------------------------------------------------------------------------
    def bound(self, name: str, lower: float = -np.inf, upper: float = np.inf) -> None:
        """lower ≤ name ≤ upper along the whole trajectory, for a state or an input by name
        (bounds of free parameters are given to :meth:`free_parameter`)."""
        lower, upper = _limits(lower, upper, name, f"bound '{name}'")
        for names, limits in ((self.system.x_names, self.x_limits),
                              (self.system.u_names, self.u_limits)):
            if name in names:
                i = names.index(name)
                limits.lower[i], limits.upper[i] = lower, upper
                return
        if name in self.system.output_names or name in self.system.p_names:
            raise ModelError(f"bound: '{name}' is an output or a parameter; bound states and "
                             "inputs here, outputs with path_constraint(lambda v: v[name], "
                             "lower, upper) and free parameters with free_parameter")
        raise ModelError(_unknown("bound", name, self.system.x_names + self.system.u_names))

    def initial(self, values: dict) -> None:
        """Boundary conditions x_i(t0) = value by state name; unnamed states are free."""
        self.x_initial.update(self._states(values, "initial"))

    def final(self, values: dict) -> None:
        """Boundary conditions x_i(t_f) = value by state name; unnamed states are free."""
        self.x_final.update(self._states(values, "final"))

    def free_parameter(self, name: str, lower: float = -np.inf, upper: float = np.inf,
                       guess: float | None = None) -> None:
        """Make a symbolic parameter of the System a decision variable (design optimization)."""
        if name not in self.system.p_names:
            raise ModelError(_unknown("free_parameter", name, self.system.p_names) +
                             " (compile with jd.compile(..., parameters=[...]) to make a "
                             "parameter symbolic)")
        lower, upper = _limits(lower, upper, name, f"free_parameter '{name}'")
        value = self.p_values[self.system.p_names.index(name)] if guess is None else \
            _number(guess, f"free_parameter '{name}' guess")
        if not lower <= value <= upper:
            raise ModelError(f"free_parameter '{name}': guess {value} outside [{lower}, {upper}]")
        self.free_params[name] = (float(lower), float(upper), float(value))

    def path_constraint(self, fn, lower: float = -np.inf, upper: float = np.inf,
                        name: str = "path") -> None:
        """lower ≤ fn(v) ≤ upper at every node (and collocation point); fn returns a scalar or
        a column of expressions of the :class:`Variables` view v."""
        lower, upper = _limits(lower, upper, name, f"path_constraint '{name}'")
        self.paths.append(_Path(_callable(fn, f"path_constraint '{name}'"), lower, upper, name))

    def integral_cost(self, fn) -> None:
        """Add ∫ fn(v) dt [cost units] to the objective; fn is a scalar of the view v."""
        self.integral_costs.append(_callable(fn, "integral_cost"))

    def terminal_cost(self, fn) -> None:
        """Add fn(v) at t_f (states, parameters, outputs that do not depend on the inputs,
        v.t and v.T) to the objective, e.g. ``lambda v: v.T`` for minimum time."""
        self.terminal_costs.append(_callable(fn, "terminal_cost"))

    def solve(self, transcription=None, guess=None, **options):
        """Transcribe, solve with IPOPT and return a Solution; see
        :func:`jourdain.solver.optimize.solve` for guess and options."""
        from .optimize import solve
        return solve(self, transcription, guess, **options)

    # ---- helpers -----------------------------------------------------------------------------
    def _states(self, values: dict, what: str) -> dict:
        if not isinstance(values, dict):
            raise ModelError(f"{what}: expected a dict {{state name: value}}, got {values!r}")
        out = {}
        for name, value in values.items():
            if name not in self.system.x_names:
                raise ModelError(_unknown(what, name, self.system.x_names) +
                                 " (boundary conditions are given on states)")
            out[name] = _number(value, f"{what} condition '{name}'")
        return out

    @property
    def horizon_guess(self) -> float:
        h = self.horizon
        return h.guess if isinstance(h, FreeTime) else float(h)

    def functions(self) -> "Functions":
        """Trace the user's callables into named CasADi functions."""
        return Functions.build(self)


@dataclass
class Functions:
    """The problem's functions of (t, x, u, p, T), traced once from the user's callables:
    L (integral cost integrand), E(t, x, p, T) (terminal cost), c (path constraints, stacked)
    with bounds and row labels."""

    L: ca.Function
    E: ca.Function
    c: ca.Function
    c_lower: np.ndarray
    c_upper: np.ndarray
    c_labels: list[str] = field(default_factory=list)
    closure: ca.Function | None = None
    closure_labels: list[str] = field(default_factory=list)

    @classmethod
    def build(cls, prob: TrajectoryProblem) -> "Functions":
        s = prob.system
        t, T = ca.SX.sym("t"), ca.SX.sym("T")
        x, u, p = ca.SX.sym("x", s.nx), ca.SX.sym("u", len(s.u_names)), ca.SX.sym("p",
                                                                                   len(s.p_names))
        run = Variables(s, t, x, u, p, T, "cost or path constraint")
        end = Variables(s, t, x, None, p, T, "terminal cost")
        L = _total(prob.integral_costs, run, "integral_cost")
        E = _total(prob.terminal_costs, end, "terminal_cost")
        rows, lo, hi, labels = [], [], [], []
        for path in prob.paths:
            expr = ca.vec(_traced(path.fn, run, f"path_constraint '{path.name}'"))
            rows.append(expr)
            lo += [path.lower] * expr.numel()
            hi += [path.upper] * expr.numel()
            labels += [path.name if expr.numel() == 1 else f"{path.name}[{i}]"
                       for i in range(expr.numel())]
        c = ca.vertcat(*rows) if rows else ca.SX(0, 1)
        args, names = [t, x, u, p, T], ["t", "x", "u", "p", "T"]
        closure, closure_labels = _closure(s, x, p)
        return cls(ca.Function("L", args, [L], names, ["L"]),
                   ca.Function("E", [t, x, p, T], [E], ["t", "x", "p", "T"], ["E"]),
                   ca.Function("c", args, [c], names, ["c"]),
                   np.array(lo, float), np.array(hi, float), labels, closure, closure_labels)


def _number(value, what: str) -> float:
    """A finite float, or a ModelError naming ``what``."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = np.nan
    if not np.isfinite(number):
        raise ModelError(f"{what}: expected a finite number, got {value!r}")
    return number


def _bound(value, name: str, default: float) -> float:
    """A bound: a number, ±inf for none (None means none too)."""
    if value is None:
        return default
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ModelError(f"bound of '{name}': expected a number (or ±np.inf for none), "
                         f"got {value!r}") from None
    if np.isnan(number):
        raise ModelError(f"bound of '{name}' is NaN; use ±np.inf for no bound")
    return number


def _limits(lower, upper, name: str, where: str) -> tuple[float, float]:
    """(lower, upper) as bounds (see :func:`_bound`), or a ModelError from ``where`` if
    lower > upper."""
    lower, upper = _bound(lower, name, -np.inf), _bound(upper, name, np.inf)
    if not lower <= upper:
        raise ModelError(f"{where}: lower ({lower}) must not exceed upper ({upper})")
    return lower, upper


def _callable(fn, where: str):
    if not callable(fn):
        raise ModelError(f"{where}: expected a function of the view v (e.g. "
                         f"lambda v: v['name'] ** 2), got {fn!r}")
    return fn


def _refuse_dae(system: System) -> None:
    from .constrained import ConstraintMethod
    if getattr(system, "method", None) is ConstraintMethod.DAE:
        raise ModelError("TrajectoryProblem: a System compiled with ConstraintMethod.DAE has "
                         "no explicit ẋ = f; compile with the default PARTITIONING (or "
                         "BAUMGARTE) for trajectory optimization")


def _closure(system: System, x, p):
    """Consistency of the initial state of a constrained System: the independent closure
    equations c(y) = 0 (partitioning keeps them along the motion, ẏ = G(y)·z, once they hold
    at t0) and, for Baumgarte's method whose speeds are all joint speeds w, also A(y)·w = 0.
    None for an unconstrained System."""
    method = getattr(system, "method", None)
    if method is None:
        return None, []
    from .constrained import ConstraintMethod
    ny = len(system.y_names)
    y = x[:ny]
    rows = list(system.partition.holonomic_rows)
    parts = [system.c(y, p)[rows]] if rows else []
    labels = [f"closure c[{r}] at t0" for r in rows]
    if method is ConstraintMethod.BAUMGARTE:
        velocity = ca.mtimes(system.A(y, p), x[ny:])
        parts.append(velocity)
        labels += [f"velocity constraint A·w[{i}] at t0" for i in range(velocity.numel())]
    if not parts:
        return None, []
    return ca.Function("closure", [x, p], [ca.vertcat(*parts)], ["x", "p"], ["r"]), labels


def _traced(fn, view: Variables, where: str):
    """fn(view) as an SX column; a ModelError if it fails, returns no expression, or returns
    a constant NaN (what float() or numpy make of a symbolic value)."""
    try:
        value = fn(view)
    except ModelError:
        raise
    except Exception as exc:  # the user's callable failed while tracing: say which one
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ModelError(f"{where}: evaluating the callable failed: {first}") from exc
    try:
        expr = ca.SX(ca.vertcat(*value) if isinstance(value, (list, tuple)) else value)
    except Exception:
        raise ModelError(f"{where}: the callable returned {type(value).__name__} {value!r:.40}, "
                         "not an expression of v (a CasADi expression or a number)") from None
    for i in range(expr.numel()):
        if expr[i].is_constant() and not np.isfinite(float(expr[i])):
            raise ModelError(f"{where}: the callable returned {float(expr[i])}, not an "
                             "expression: float(), math.* and numpy cannot take a symbolic "
                             "v[...]; use CasADi operations (ca.sin, ca.sqrt, ...)")
    return expr


def _total(fns: list, view: Variables, where: str):
    total = ca.SX(0)
    for fn in fns:
        term = _traced(fn, view, where)
        if term.numel() != 1:
            raise ModelError(f"{where}: the callable must return a scalar, got shape "
                             f"{term.shape}")
        total += term
    return total
