"""Transcriptions of a TrajectoryProblem into an NLP, as strategy objects solving the same
problem statement: direct collocation (Legendre or Radau points, any degree) and multiple
shooting (a CasADi integrator per interval).

Time: N intervals of length h = T/N on [t0, t0 + T]; with a free horizon the dynamics are
integrated in normalized time τ ∈ [0, 1] per interval, dx/dτ = h·f(t_k + τ·h, x, u, p).

Decision vector w, in this order (variable blocks of :class:`jourdain.solver.nlp.NLP`):
  1. free parameters (in the order they were declared), 2. the horizon T if free,
  3. for each interval k = 0 … N−1: node state x_k (nx), the inputs of interval k
     (nu values if piecewise constant, nu·d collocated values), and for collocation the d
     collocation states (nx·d), 4. the final node state x_N.
Constraints g: for a constrained System first its closure at t0 (the motion keeps it), then
per interval k: the bounds of collocated inputs at the interval ends that are not points,
the path constraints at node k (piecewise-constant inputs), the collocation
equations and path constraints at each collocation point (collocation only), and continuity
x_{k+1} = end of interval k; finally the path constraints at node N. Boundary conditions and
bounds are bounds on w (IPOPT treats fixed entries as parameters).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.checks import flag, number
from ..model.numerics import SUNDIALS
from .functions import FreeTime, Functions, dynamics, system_p
from .nlp import NLP

if TYPE_CHECKING:
    from .problem import TrajectoryProblem


class Scheme(Enum):
    """Collocation points: Gauss–Legendre (order 2d, interval end not a point) or Radau IIA
    (order 2d−1, stiffly accurate, interval end is the last point)."""

    LEGENDRE = "legendre"
    RADAU = "radau"


class Inputs(Enum):
    """How inputs are parametrized inside an interval."""

    PIECEWISE_CONSTANT = "piecewise constant"  # one value per interval
    COLLOCATED = "collocated"  # one value per collocation point: a degree d−1 polynomial


class Integrator(Enum):
    """CasADi integrator plugins for multiple shooting."""

    RK4 = "rk"                   # fixed-step explicit Runge–Kutta 4, inlined (SX, exact Hessian)
    COLLOCATION = "collocation"  # fixed-step implicit Legendre collocation, inlined
    CVODES = "cvodes"            # adaptive BDF/Adams (SUNDIALS) with sensitivities; quasi-Newton


@dataclass
class Plan:
    """Symbolic trajectories of a transcription, as expressions of the decision vector w.

    X : nx × (N+1) node states. U : nu × (N·m) inputs, m values per interval at the normalized
    times ``u_tau`` ∈ [0, 1] (input in interval k: Lagrange polynomial through them).
    T : horizon [s]. p : full parameter vector. cost : objective. exact_hessian : whether IPOPT
    can use exact second derivatives.
    """

    X: object
    U: object
    u_tau: np.ndarray
    T: object
    p: object
    cost: object
    exact_hessian: bool = True
    points: object = None   # mapped.Points of a structured transcription (codegen), else None
    residuals: object = None  # least-squares residuals R, the cost's ‖R‖² (Gauss–Newton)


# Inlining f everywhere (SX) gives IPOPT the fastest derivatives, but their generation grows
# with the inlined size: a 3000-instruction f of a constrained vehicle at 180 points takes 10 s
# to build as SX and 0.3 s as MX calls, which then solve about 2× slower per iteration.
INLINE_LIMIT = 200_000  # instructions of f times its evaluations per NLP


def _symbols(inline: bool | None, prob: TrajectoryProblem, evaluations: int):
    """ca.SX when ``inline`` is True, or is None and the inlined size stays within
    INLINE_LIMIT; ca.MX (f kept as a called function) otherwise."""
    if inline is None:
        inline = dynamics(prob.system).n_instructions() * evaluations <= INLINE_LIMIT
    return ca.SX if inline else ca.MX


def _check_inline(inline, where: str) -> None:
    if inline is not None:
        flag(inline, f"{where}: inline (True, False or None for automatic)")


# ---- pieces shared by the transcriptions ---------------------------------------------------
def _globals(prob: TrajectoryProblem, nlp: NLP, guess):
    """Free parameters and horizon as decision variables; returns (p, T) expressions, p the
    System's parameters followed by the problem parameters (NLP parameters)."""
    s = prob.system
    entries = list(prob.p_values)
    if prob.free_params:
        names = list(prob.free_params)
        lo, hi, g0 = (np.array([prob.free_params[n][i] for n in names]) for i in range(3))
        g0 = np.array([guess.p.get(n, v) for n, v in zip(names, g0)])
        v = nlp.variable("parameters", [f"parameter {n}" for n in names], lo, hi, g0)
        for i, n in enumerate(names):
            entries[s.p_names.index(n)] = v[i]
    n_q = sum(v.size for v in prob.parameters.values())
    if n_q:
        entries.append(nlp.parameters(n_q))
    p = ca.vertcat(*entries) if entries else nlp.sym(0, 1)
    if isinstance(prob.horizon, FreeTime):
        h = prob.horizon
        T = nlp.variable("horizon", ["horizon T"], h.lower, h.upper, guess.T)
    else:
        T = float(prob.horizon)
    return p, T


def _node_state(prob: TrajectoryProblem, nlp: NLP, k: int, x0: np.ndarray):
    """State at node k, with its bounds; initial and final conditions fix rows at k = 0, N."""
    s, N = prob.system, prob.intervals
    lo, hi = prob.x_limits.lower.copy(), prob.x_limits.upper.copy()
    fixed, where = {0: (prob.x_initial, "initial"), N: (prob.x_final, "final")}.get(k, ({}, ""))
    for name, value in fixed.items():
        i = s.x_names.index(name)
        if not lo[i] <= value <= hi[i]:
            raise ModelError(f"{where} condition {name} = {value} lies outside its bound "
                             f"[{lo[i]}, {hi[i]}]; the problem is infeasible as stated")
        lo[i] = hi[i] = value
    labels = [f"{where + ' ' if where else ''}state {n}, node {k}" for n in s.x_names]
    return nlp.variable(f"x_{k}", labels, lo, hi, np.clip(x0, lo, hi))


def _inputs(prob: TrajectoryProblem, nlp: NLP, k: int, m: int, u0: np.ndarray):
    """nu × m input values of interval k within their bounds."""
    s = prob.system
    lo, hi = prob.u_limits.lower, prob.u_limits.upper
    labels = [f"input {n}, interval {k}" + (f", point {j}" if m > 1 else "")
              for j in range(m) for n in s.u_names]
    g0 = np.clip(u0, lo[:, None], hi[:, None]).T.ravel()
    v = nlp.variable(f"u_{k}", labels, np.tile(lo, m), np.tile(hi, m), g0)
    return ca.reshape(v, len(s.u_names), m)


def _input_ends(prob: TrajectoryProblem, nlp: NLP, k: int, u_k, u_tau: np.ndarray) -> None:
    """Bounds of collocated inputs also at the interval ends τ = 0, 1 (when not a point): the
    input polynomial through the points extrapolates there, and bounding the points alone
    let it exceed the bounds (73 % over a ±1 N limit in a minimum-time problem, T below the
    true minimum). A degree-1 polynomial then stays within bounds everywhere."""
    lo, hi = prob.u_limits.lower, prob.u_limits.upper
    rows = [i for i in range(len(lo)) if np.isfinite(lo[i]) or np.isfinite(hi[i])]
    for end in (0.0, 1.0):
        if not rows or np.any(np.isclose(u_tau, end)):
            continue
        weights = np.array([_lagrange_polynomial(u_tau, j)(end) for j in range(u_tau.size)])
        value = ca.mtimes(u_k, weights)[rows]
        labels = [f"input {prob.system.u_names[i]} at τ = {end:g}, interval {k}" for i in rows]
        nlp.constraint("input bounds", value, labels, lo[rows], hi[rows])


def _path(fns: Functions, nlp: NLP, where: str, t, x, u, p, T) -> None:
    if fns.c_lower.size:
        nlp.constraint("path", fns.c(t, x, u, p, T), [f"{lab}, {where}" for lab in fns.c_labels],
                       fns.c_lower, fns.c_upper)


def _consistent_start(fns: Functions, nlp: NLP, x0, p) -> None:
    """A constrained System's initial state satisfies its constraints (see ocp._closure)."""
    if fns.closure is not None:
        nlp.constraint("closure", fns.closure(x0, p[:fns.n_system_p]), fns.closure_labels)


def _dynamics_labels(prob: TrajectoryProblem, what: str, k: int) -> list[str]:
    return [f"{what} {n}, interval {k}" for n in prob.system.x_names]


def _lagrange_polynomial(points: np.ndarray, r: int) -> np.poly1d:
    """ℓ_r: 1 at points[r], 0 at the other points."""
    basis = np.poly1d([1.0])
    for j, pj in enumerate(points):
        if j != r:
            basis *= np.poly1d([1.0, -pj]) / (points[r] - pj)
    return basis


def _march(prob: TrajectoryProblem, fns: Functions, nlp: NLP, guess, u_tau: np.ndarray,
           node_paths: bool, continuity: str, interval) -> Plan:
    """The part both transcriptions share: free parameters and horizon, for each interval k
    the node state x_k, the inputs (len(u_tau) values), the path constraints at the node (if
    ``node_paths``), what ``interval(k, t_k, x_k, u_k, p, T, h) -> (x_end, cost terms)`` adds,
    and continuity x_{k+1} = x_end; then the last node and the terminal cost. The
    least-squares residuals of the cost (for a Gauss–Newton Hessian) are those at the points
    ``interval`` returns as a third item, weighted by their quadrature, and the terminal ones."""
    N, t0, Tg = prob.intervals, prob.t0, guess.T
    p, T = _globals(prob, nlp, guess)
    h = T / N
    xs, us, cost, residuals = [], [], 0, []
    x_k = _node_state(prob, nlp, 0, guess.x(t0)[:, 0])
    _consistent_start(fns, nlp, x_k, p)
    for k in range(N):
        xs.append(x_k)
        u_k = _inputs(prob, nlp, k, len(u_tau), guess.u(t0 + (k + u_tau) * Tg / N))
        us.append(u_k)
        if node_paths:
            _path(fns, nlp, f"node {k}", t0 + k * h, x_k, u_k, p, T)
        x_end, costs, res = interval(k, t0 + k * h, x_k, u_k, p, T, h)
        residuals += res
        for term in costs:
            cost += term
        x_k = _node_state(prob, nlp, k + 1, guess.x(t0 + (k + 1) * Tg / N)[:, 0])
        nlp.constraint("continuity", x_k - x_end, _dynamics_labels(prob, continuity, k))
    xs.append(x_k)
    if node_paths:
        _path(fns, nlp, f"node {N}", t0 + T, x_k, us[-1], p, T)
    cost += fns.E(t0 + T, x_k, p, T)
    residuals.append(fns.Rf(t0 + T, x_k, p, T))
    return Plan(ca.horzcat(*xs), ca.horzcat(*us), u_tau, T, system_p(p, prob.system), cost,
                residuals=ca.vertcat(*residuals))


# ---- direct collocation --------------------------------------------------------------------
@dataclass(frozen=True)
class Collocation:
    """Direct collocation with ``degree`` d points of ``scheme`` per interval (polynomial
    states of degree d); inputs piecewise constant or collocated. ``inline``: True builds the
    NLP in SX (f inlined), False in MX (f called), None decides by size. Reference:
    L. T. Biegler, Nonlinear Programming, SIAM 2010, ch. 10."""

    degree: int = 3
    scheme: Scheme = Scheme.RADAU
    inputs: Inputs = Inputs.PIECEWISE_CONSTANT
    inline: bool | None = None

    def __post_init__(self):
        if int(self.degree) != self.degree or not 1 <= self.degree <= 9:
            raise ModelError(f"Collocation: degree must be an integer in 1…9, got {self.degree}")
        if not isinstance(self.scheme, Scheme) or not isinstance(self.inputs, Inputs):
            raise ModelError("Collocation: scheme must be a jd Scheme and inputs an Inputs")
        _check_inline(self.inline, "Collocation")

    def symbols(self, prob: TrajectoryProblem):
        """ca.SX (f inlined at every point) or ca.MX (f called), see :func:`_symbols`."""
        return _symbols(self.inline, prob, prob.intervals * self.degree)

    def __str__(self) -> str:
        return (f"collocation, {self.scheme.name.capitalize()} degree {self.degree}, "
                f"{self.inputs.value} inputs")

    def coefficients(self):
        """τ (0 and the d points); for the state polynomial through all d+1 points
        C[r, j] = ℓ_r'(τ_j) and D[r] = ℓ_r(1); quadrature weights B[j] = ∫₀¹ of the Lagrange
        basis through the d collocation points alone (B[0] = 0), exact for polynomials of
        degree 2d−1 (Legendre) or 2d−2 (Radau; d = 1 is the rectangle rule at τ = 1)."""
        tau = np.array([0.0] + ca.collocation_points(self.degree, self.scheme.value))
        d = self.degree
        C, D, B = np.zeros((d + 1, d + 1)), np.zeros(d + 1), np.zeros(d + 1)
        for r in range(d + 1):
            basis = _lagrange_polynomial(tau, r)
            D[r] = basis(1.0)
            C[r] = np.polyder(basis)(tau)
            if r > 0:
                B[r] = np.polyint(_lagrange_polynomial(tau[1:], r - 1))(1.0)
        return tau, C, D, B

    def transcribe(self, prob: TrajectoryProblem, fns: Functions, nlp: NLP, guess) -> Plan:
        """The NLP of the problem on this transcription (variables, constraints, cost)."""
        tau, C, D, B = self.coefficients()
        d, N, f, s = self.degree, prob.intervals, dynamics(prob.system), prob.system
        collocated = self.inputs is Inputs.COLLOCATED
        u_tau = tau[1:] if collocated else np.zeros(1)

        def interval(k, t_k, x_k, u_k, p, T, h):
            if collocated:
                _input_ends(prob, nlp, k, u_k, u_tau)
            tc = prob.t0 + (k + tau[1:]) * guess.T / N
            xc = nlp.variable(f"xc_{k}", [f"collocation state {n}, interval {k}, point {j}"
                                          for j in range(1, d + 1) for n in s.x_names],
                              np.tile(prob.x_limits.lower, d), np.tile(prob.x_limits.upper, d),
                              guess.x(tc).T.ravel())
            X = ca.horzcat(x_k, ca.reshape(xc, s.nx, d))
            costs, residuals = [], []
            for j in range(1, d + 1):
                t_j = prob.t0 + (k + tau[j]) * h
                u_j = u_k[:, j - 1] if collocated else u_k
                xp = ca.mtimes(X, C[:, j])
                nlp.constraint("collocation", h * f(t_j, X[:, j], u_j, system_p(p, s)) - xp,
                               _dynamics_labels(prob, f"collocation point {j}:", k))
                _path(fns, nlp, f"interval {k}, point {j}", t_j, X[:, j], u_j, p, T)
                costs.append(B[j] * h * fns.L(t_j, X[:, j], u_j, p, T))
                residuals.append(np.sqrt(B[j]) * ca.sqrt(h) * fns.R(t_j, X[:, j], u_j, p, T))
            return ca.mtimes(X, D), costs, residuals

        return _march(prob, fns, nlp, guess, u_tau, not collocated, "continuity", interval)


# ---- multiple shooting ---------------------------------------------------------------------
@dataclass(frozen=True)
class MultipleShooting:
    """Multiple shooting: a CasADi integrator over each interval from the node state x_k with
    piecewise-constant inputs, continuity x_{k+1} = Φ(x_k, u_k) as constraints. ``steps`` is the
    number of fixed steps per interval (RK4, COLLOCATION); CVODES uses ``rtol``/``atol``;
    ``inline`` as for :class:`Collocation`. Reference: H. G. Bock, K. J. Plitt, IFAC 1984."""

    integrator: Integrator = Integrator.RK4
    steps: int = 4
    rtol: float = 1e-8
    atol: float = 1e-8
    inline: bool | None = None

    def __post_init__(self):
        if not isinstance(self.integrator, Integrator):
            raise ModelError(f"MultipleShooting: integrator must be a jd Integrator, "
                             f"got {self.integrator!r}")
        if int(self.steps) != self.steps or self.steps < 1:
            raise ModelError(f"MultipleShooting: steps must be a positive integer, "
                             f"got {self.steps!r}")
        number(self.rtol, "MultipleShooting: rtol", 0.0, 1.0, open_low=True, open_high=True)
        number(self.atol, "MultipleShooting: atol", 0.0, open_low=True)
        _check_inline(self.inline, "MultipleShooting")

    def __str__(self) -> str:
        steps = "adaptive" if self.integrator is Integrator.CVODES else f"{self.steps} steps"
        return f"multiple shooting, {self.integrator.name} ({steps} per interval)"

    def symbols(self, prob: TrajectoryProblem):
        """ca.MX for CVODES (no SX form); otherwise as :func:`_symbols` decides."""
        if self.integrator is Integrator.CVODES:
            return ca.MX
        return _symbols(self.inline, prob, prob.intervals * self.steps * 4)

    def shooting_function(self, prob: TrajectoryProblem, fns: Functions) -> ca.Function:
        """Φ(x0, u, p, t_k, h, T) -> (xf, qf): state and cost integral over one interval,
        integrated in τ ∈ [0, 1] with dx/dτ = h·f, dq/dτ = h·L."""
        s = prob.system
        tau, x = ca.SX.sym("tau"), ca.SX.sym("x", s.nx)
        u, p = ca.SX.sym("u", len(s.u_names)), ca.SX.sym("p", fns.L.nnz_in(3))
        tk, h, T = ca.SX.sym("t_k"), ca.SX.sym("h"), ca.SX.sym("T")
        t = tk + tau * h
        dae = {"t": tau, "x": x, "p": ca.vertcat(u, p, tk, h, T),
               "ode": h * dynamics(s)(t, x, u, system_p(p, s)), "quad": h * fns.L(t, x, u, p, T)}
        if self.integrator is Integrator.CVODES:
            opts = {"reltol": self.rtol, "abstol": self.atol, **SUNDIALS}
        else:
            opts = {"simplify": True, "number_of_finite_elements": int(self.steps)}
        return ca.integrator("shoot", self.integrator.value, dae, 0.0, 1.0, opts)

    def transcribe(self, prob: TrajectoryProblem, fns: Functions, nlp: NLP, guess) -> Plan:
        """The NLP of the problem on this transcription (variables, constraints, cost)."""
        F = self.shooting_function(prob, fns)

        def interval(k, t_k, x_k, u_k, p, T, h):
            step = F(x0=x_k, p=ca.vertcat(u_k, p, t_k, h, T))
            # the quadrature inside F is exact; the Gauss–Newton residual is the node's
            return step["xf"], [step["qf"]], [ca.sqrt(h) * fns.R(t_k, x_k, u_k, p, T)]

        plan = _march(prob, fns, nlp, guess, np.zeros(1), True, "shooting continuity", interval)
        plan.exact_hessian = self.integrator is not Integrator.CVODES
        return plan
