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

from dataclasses import dataclass

import numpy as np

from jourdain.blocks.errors import ModelError

from ..constraints.methods import ConstraintMethod
from ..hybrid.info import refuse_unstated_modes
from ..model.checks import flag, keywords, mapping
from ..model.checks import name as check_name
from ..model.names import require_system, unknown
from .built import BuiltProblem, solve
from .ddp_built import DDPProblem
from .functions import FreeTime, Functions, Limits, parameter_value


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

    @keywords
    def __init__(self, system, horizon, intervals: int = 50, t0: float = 0.0,
                 params: dict | None = None):
        require_system(system, "TrajectoryProblem")
        if not isinstance(intervals, (int, np.integer, float)) or \
                not 1 <= intervals < np.inf or int(intervals) != intervals:
            raise ModelError(f"TrajectoryProblem: intervals must be a positive integer, "
                             f"got {intervals!r}")
        if not isinstance(horizon, FreeTime) and not _number(horizon, "TrajectoryProblem: horizon") > 0:
            raise ModelError(f"TrajectoryProblem: horizon must be a finite positive number "
                             f"[s] or a jd.FreeTime, got {horizon!r}")
        _refuse_dae(system)
        refuse_unstated_modes(system, params, "TrajectoryProblem", "a plan")
        self.system, self.horizon = system, horizon
        self.intervals, self.t0 = int(intervals), _number(t0, "t0")
        self.p_values = system.parameters(params)
        self.x_limits = Limits.free(system.nx)
        self.u_limits = Limits.free(len(system.u_names))
        self.free_params: dict[str, tuple[float, float, float]] = {}
        self.parameters: dict[str, np.ndarray] = {}
        self.x_initial: dict[str, float] = {}
        self.x_final: dict[str, float] = {}
        self.paths: list[_Path] = []
        self.integral_costs: list = []
        self.terminal_costs: list = []
        self.residual_costs: list = []   # (fn, terminal) of least_squares terms

    # ---- statement -------------------------------------------------------------------------
    def bound(self, name: str, lower: float = -np.inf, upper: float = np.inf) -> None:
        """lower ≤ name ≤ upper along the whole trajectory, for a state or an input by name
        (bounds of free parameters are given to :meth:`free_parameter`)."""
        check_name(name, "bound")
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
        raise ModelError(unknown("bound", name, self.system.x_names + self.system.u_names))

    def initial(self, values: dict) -> None:
        """Boundary conditions x_i(t0) = value by state name; unnamed states are free."""
        self.x_initial.update(self._states(values, "initial"))

    def final(self, values: dict) -> None:
        """Boundary conditions x_i(t_f) = value by state name; unnamed states are free."""
        self.x_final.update(self._states(values, "final"))

    def free_parameter(self, name: str, lower: float = -np.inf, upper: float = np.inf,
                       guess: float | None = None) -> None:
        """Make a symbolic parameter of the System a decision variable (design optimization)."""
        check_name(name, "free_parameter")
        if name not in self.system.p_names:
            raise ModelError(unknown("free_parameter", name, self.system.p_names) +
                             " (compile with jd.compile(..., parameters=[...]) to make a "
                             "parameter symbolic)")
        lower, upper = _limits(lower, upper, name, f"free_parameter '{name}'")
        value = self.p_values[self.system.p_names.index(name)] if guess is None else \
            _number(guess, f"free_parameter '{name}' guess")
        if not lower <= value <= upper:
            raise ModelError(f"free_parameter '{name}': guess {value} outside [{lower}, {upper}]")
        self.free_params[name] = (float(lower), float(upper), float(value))

    def parameter(self, name: str, value) -> None:
        """A parameter of the problem (a target, a weight), seen by costs and path
        constraints as ``v[name]`` (a scalar, or a column for a vector value): an NLP
        parameter, so a built problem re-solves with a new value without rebuilding
        (``ocp.build(...).solve(params={name: value})``). ``value`` is its default."""
        check_name(name, "parameter")
        system = self.system
        if name in system.x_names + system.u_names + system.p_names + system.output_names:
            raise ModelError(f"parameter: '{name}' is already a state, input, parameter or "
                             "output of the system; give the problem parameter another name")
        self.parameters[name] = parameter_value(value, f"parameter '{name}'")

    def parameter_vector(self, params: dict | None = None) -> np.ndarray:
        """The problem parameters' values stacked in declaration order, with ``params``
        {name: value} replacing defaults (each of its declared shape)."""
        values = dict(self.parameters)
        for name, value in mapping(params, "params", "problem parameter name").items():
            if name not in self.parameters:
                raise ModelError(unknown("params", name, list(self.parameters)) +
                                 " (declare problem parameters with ocp.parameter(name, value))")
            new = parameter_value(value, f"params '{name}'")
            if new.shape != self.parameters[name].shape:
                raise ModelError(f"params '{name}': expected {self.parameters[name].size} "
                                 f"value(s) as declared, got shape {np.shape(value)}")
            values[name] = new
        return np.concatenate([values[n].ravel() for n in self.parameters]) if values else \
            np.zeros(0)

    def path_constraint(self, fn, lower: float = -np.inf, upper: float = np.inf,
                        name: str = "path") -> None:
        """lower ≤ fn(v) ≤ upper at every node (and collocation point); fn returns a scalar or
        a column of expressions of the :class:`Variables` view v."""
        check_name(name, "path_constraint: name")
        lower, upper = _limits(lower, upper, name, f"path_constraint '{name}'")
        self.paths.append(_Path(_callable(fn, f"path_constraint '{name}'"), lower, upper, name))

    def integral_cost(self, fn) -> None:
        """Add ∫ fn(v) dt [cost units] to the objective; fn is a scalar of the view v."""
        self.integral_costs.append(_callable(fn, "integral_cost"))

    def terminal_cost(self, fn) -> None:
        """Add fn(v) at t_f (states, parameters, outputs that do not depend on the inputs,
        v.t and v.T) to the objective, e.g. ``lambda v: v.T`` for minimum time."""
        self.terminal_costs.append(_callable(fn, "terminal_cost"))

    def least_squares(self, fn, terminal: bool = False) -> None:
        """Add ∫ ‖fn(v)‖² dt (or ‖fn(v)‖² at t_f with ``terminal=True``) to the objective;
        fn returns a residual, a scalar or a column of expressions of the view v (weights
        inside it, e.g. ``lambda v: 10 * (v["q"] - v["target"])``). Least-squares terms
        allow ``solve(hessian="gauss-newton")``."""
        flag(terminal, "least_squares: terminal")
        self.residual_costs.append((_callable(fn, "least_squares"), bool(terminal)))

    def solve(self, transcription=None, guess=None, **options):
        """Transcribe, solve with IPOPT and return a Solution; see
        :func:`jourdain.solver.optimal.solve.solve` for guess and options."""
        return solve(self, transcription, guess, **options)

    def build(self, transcription=None, **options):
        """Transcribe once and keep the NLP (and its solver, compiled with ``codegen=True``)
        for many solves: a :class:`~jourdain.solver.optimal.built.BuiltProblem` whose
        ``solve(x0=..., params=..., warm=True)`` changes the initial state and the problem
        parameters without rebuilding; options as for :meth:`solve`."""
        if options.get("solver") == "fddp":
            return DDPProblem(self, transcription, **options)
        for name, what in (("newton", "Newton steps in its warm re-solves; IPOPT and fatrop "
                                      "take hessian='exact' (the default)"),
                           ("budget", "a real-time budget per solve; IPOPT and fatrop take "
                                      "options={'max_cpu_time': ...}"),
                           ("clock", "what its budget= counts; IPOPT takes "
                                     "options={'max_wall_time': ...}")):
            if name in options:
                raise ModelError(f"build: {name}= is an option of solver='fddp' ({what})")
        return BuiltProblem(self, transcription, **options)

    # ---- helpers -----------------------------------------------------------------------------
    def _states(self, values: dict, what: str) -> dict:
        values = mapping(values, what, "state name")
        out = {}
        for name, value in values.items():
            if name not in self.system.x_names:
                raise ModelError(unknown(what, name, self.system.x_names) +
                                 " (boundary conditions are given on states)")
            out[name] = _number(value, f"{what} condition '{name}'")
        return out

    @property
    def horizon_guess(self) -> float:
        """The horizon [s] an initial guess spans (the fixed horizon or the free one's guess)."""
        h = self.horizon
        return h.guess if isinstance(h, FreeTime) else float(h)

    def functions(self) -> "Functions":
        """Trace the user's callables into named CasADi functions."""
        return Functions.build(self)


def _number(value, what: str) -> float:
    """A finite float, or a ModelError naming ``what`` (True is not 1 s, '5' not 5)."""
    try:
        number = np.nan if isinstance(value, (bool, np.bool_, str, bytes)) else float(value)
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


def _refuse_dae(system) -> None:
    if getattr(system, "method", None) is ConstraintMethod.DAE:
        raise ModelError("TrajectoryProblem: a System compiled with ConstraintMethod.DAE has "
                         "no explicit ẋ = f; compile with the default PARTITIONING (or "
                         "BAUMGARTE) for trajectory optimization")

