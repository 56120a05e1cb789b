"""The functions of a trajectory problem, traced once from the user's callables into named CasADi
functions (integral cost L, terminal cost E, path constraints c, closure of a constrained
plant's initial state), the named view v the callables receive, and the free final time.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..constraints.methods import ConstraintMethod
from ..model.checks import number
from ..model.names import unknown

if TYPE_CHECKING:
    from .problem import TrajectoryProblem


@dataclass(frozen=True)
class FreeTime:
    """A free horizon length T [s]: guess, and bounds lower < T ≤ upper."""

    guess: float
    lower: float = 1e-3
    upper: float = np.inf

    def __post_init__(self):
        for field_name in ("guess", "lower"):
            number(getattr(self, field_name), f"FreeTime: {field_name}", unit="s")
        if not (isinstance(self.upper, float) and self.upper == np.inf):  # np.inf: no bound
            number(self.upper, "FreeTime: upper (np.inf for none)", unit="s")
        if not 0 < self.lower <= self.guess <= self.upper:
            raise ModelError(f"FreeTime: need 0 < lower ({self.lower}) ≤ guess ({self.guess}) "
                             f"≤ upper ({self.upper})")


def dynamics(system) -> ca.Function:
    """The System's symbolic f (SX or MX): after ``System.codegen`` ``system.f`` is compiled
    code, which NLP graphs can neither inline nor differentiate twice, so the transcriptions
    use the symbolic original kept in ``system.functions``."""
    return system.functions.get("f", system.f)


class Variables:
    """Named view of (t, x, u, p) handed to cost and constraint callables."""

    def __init__(self, system, t, x, u, p, T, where: str, extra: dict | None = None):
        self.t, self.T, self._where = t, T, where
        self._system, self._x, self._u, self._p = system, x, u, p
        self._values = dict(zip(system.x_names, ca.vertsplit(x)))
        self._values.update(zip(system.p_names, ca.vertsplit(p)))
        self._values.update(extra or {})
        if u is not None:
            self._values.update(zip(system.u_names, ca.vertsplit(u)))
            out = system.h(t, x, u, p)
            self._values.update(zip(system.output_names, ca.vertsplit(out)))
            self._values.update(_hybrid_forces(system, t, x, u, p))
        else:  # at t_f the input is not defined: offer the outputs that do not depend on it
            self._values.update(_input_free_outputs(system, t, x, p))
        self._known = list(system.x_names) + list(system.u_names) + list(system.p_names) + \
            list(system.output_names) + [r.label for r in getattr(getattr(
                system, "hybrid", None), "rows", [])] + list(extra or {})

    def frame(self, name: str):
        """The origin r_0 [m] (a 3-column, world coordinates) of the frame port ``name``
        (e.g. ``"arm.tool.frame_b"``): for end-effector targets, ``v.frame(name) -
        v["target"]`` as a least-squares residual."""
        rows = frame_rows(self._system, name, self._where)
        u = self._u if self._u is not None else ca.DM.zeros(len(self._system.u_names))
        values = self._system.quantities(self.t, self._x, u, self._p)
        return ca.vertcat(*[values[i] for i in rows])

    def __getitem__(self, name: str):
        if name not in self._values:
            if name in self._known:
                raise ModelError(f"{self._where}: '{name}' (an input, or an output that depends "
                                 "on the inputs) is not defined here; terminal costs see states, "
                                 "parameters, outputs free of inputs, t and T")
            raise ModelError(unknown(self._where, name, self._known))
        return self._values[name]


def frame_rows(system, name: str, where: str) -> list[int]:
    """Rows of r_0[0..2] of the frame port ``name`` in the System's quantities, or a
    ModelError naming it with the closest frame names."""
    names = list(getattr(system, "quantity_names", []) or [])
    frames = sorted({n[:-len(".r_0[0]")] for n in names if n.endswith(".r_0[0]")})
    frame = name[:-len(".r_0")] if isinstance(name, str) and name.endswith(".r_0") else name
    if frame not in frames:
        close = difflib.get_close_matches(str(frame), frames, n=3, cutoff=0.5)
        hint = f"did you mean {', '.join(close)}?" if close else \
            f"frames: {', '.join(frames[:8])}{', ...' if len(frames) > 8 else ''}"
        raise ModelError(f"{where}: v.frame({name!r}) names no frame port of this system "
                         f"({hint}); give a frame port such as 'arm.link.frame_a'")
    return [names.index(f"{frame}.r_0[{i}]") for i in range(3)]


def _hybrid_forces(system, t, x, u, p) -> dict:
    """{``<element>.<row>``: force} of the hybrid rows (a stop's or contact's reaction in the
    phase's modes), for path constraints such as "the ground pushes" in a stance phase."""
    info = getattr(system, "hybrid", None)
    if info is None or not info.rows or "hybrid" not in system.functions:
        return {}
    lam = ca.vertsplit(system.functions["hybrid"](t, x, u, p)[1])
    return {row.label: row.sign * value for row, value in zip(info.rows, lam)}


def _input_free_outputs(system, t, x, p) -> dict:
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
    n_system_p: int = 0     # the System's parameters at the head of p (problem ones follow)
    R: ca.Function | None = None    # least-squares residuals along the path (t, x, u, p, T)
    Rf: ca.Function | None = None   # terminal least-squares residuals (t, x, p, T)

    @classmethod
    def build(cls, prob: TrajectoryProblem) -> "Functions":
        """The functions of (t, x, u, p, T) where p is the System's parameter vector followed
        by the problem parameters (:meth:`TrajectoryProblem.parameter`), see :func:`full_p`."""
        s = prob.system
        n_sys = len(s.p_names)
        t, T = ca.SX.sym("t"), ca.SX.sym("T")
        x, u = ca.SX.sym("x", s.nx), ca.SX.sym("u", len(s.u_names))
        p = ca.SX.sym("p", n_sys + sum(v.size for v in prob.parameters.values()))
        extra, start = {}, n_sys
        for name, value in prob.parameters.items():
            extra[name] = p[start] if value.ndim == 0 else p[start:start + value.size]
            start += value.size
        run = Variables(s, t, x, u, p[:n_sys], T, "cost or path constraint", extra)
        end = Variables(s, t, x, None, p[:n_sys], T, "terminal cost", extra)
        L = _total(prob.integral_costs, run, "integral_cost")
        E = _total(prob.terminal_costs, end, "terminal_cost")
        R = _residuals([fn for fn, terminal in prob.residual_costs if not terminal], run)
        Rf = _residuals([fn for fn, terminal in prob.residual_costs if terminal], end)
        L, E = L + ca.sumsqr(R), E + ca.sumsqr(Rf)
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
        closure, closure_labels = _closure(s, x, p[:n_sys])
        return cls(ca.Function("L", args, [L], names, ["L"]),
                   ca.Function("E", [t, x, p, T], [E], ["t", "x", "p", "T"], ["E"]),
                   ca.Function("c", args, [c], names, ["c"]),
                   np.array(lo, float), np.array(hi, float), labels, closure, closure_labels,
                   n_sys, ca.Function("R", args, [R], names, ["R"]),
                   ca.Function("Rf", [t, x, p, T], [Rf], ["t", "x", "p", "T"], ["Rf"]))


def parameter_value(value, where: str) -> np.ndarray:
    """A problem parameter's value: a finite number or a 1-D array of finite numbers."""
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        array = np.array(np.nan)
    if array.ndim > 1 or array.size == 0 or not np.isfinite(array).all() or \
            isinstance(value, (bool, str, bytes)):
        raise ModelError(f"{where}: expected a finite number or a 1-D sequence of finite "
                         f"numbers, got {value!r:.60}")
    return array.copy()


def system_p(p, system):
    """The System's own parameters at the head of a transcription's parameter vector (the
    problem parameters follow them, see :meth:`Functions.build`)."""
    return p[:len(system.p_names)]


def _closure(system, x, p):
    """Consistency of the initial state of a constrained System: the independent closure
    equations c(y) = 0 (partitioning keeps them along the motion, ẏ = G(y)·z, once they hold
    at t0) and, for Baumgarte's method whose speeds are all joint speeds w, also A(y)·w = 0.
    None for an unconstrained System."""
    method = getattr(system, "method", None)
    if method is None:
        return None, []
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


def _residuals(fns: list, view: Variables):
    """The least-squares residuals stacked in one column."""
    parts = [ca.vec(_traced(fn, view, "least_squares")) for fn in fns]
    return ca.vertcat(*parts) if parts else ca.SX(0, 1)


def _total(fns: list, view: Variables, where: str):
    total = ca.SX(0)
    for fn in fns:
        term = _traced(fn, view, where)
        if term.numel() != 1:
            raise ModelError(f"{where}: the callable must return a scalar, got shape "
                             f"{term.shape}")
        total += term
    return total
