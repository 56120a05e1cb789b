"""Integrability of velocity constraints (seed 002, DESIGN.md §3.4).

Given the explicit form ẏ = G(y)·z = Σ g_i(y)·z_i of the admissible motions:

* a single constraint a(y)·ẏ = 0 is integrable when ∂a_i/∂y_j = ∂a_j/∂y_i (seed 002's
  integrability condition: a is a gradient); the general test, allowing an integrating factor,
  is Frobenius' a ∧ da = 0, i.e. a_i(∂_j a_k − ∂_k a_j) + a_j(∂_k a_i − ∂_i a_k)
  + a_k(∂_i a_j − ∂_j a_i) = 0 for all i, j, k;
* for several constraints, the Lie brackets [g_i, g_j] = Dg_j·g_i − Dg_i·g_j (the net motion of
  the switching sequence g_i, g_j, −g_i, −g_j over steps h is h²·[g_i, g_j]): the
  distribution span{g_i} is involutive iff all the constraints are integrable (holonomic,
  Frobenius); otherwise the iterated brackets reach further directions, and the rank of the
  bracket-generated distribution is the position DOF f (Chow–Rashevskii), while g = dim z is
  the velocity DOF.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import casadi as ca
import numpy as np

from ..model.numerics import SUNDIALS
from .partition import numeric_rank


def lie_bracket(g1: ca.SX, g2: ca.SX, y: ca.SX) -> ca.SX:
    """[g1, g2] = Dg2·g1 − Dg1·g2 (seed 002)."""
    return ca.mtimes(ca.jacobian(g2, y), g1) - ca.mtimes(ca.jacobian(g1, y), g2)


@dataclass
class SingleConstraint:
    """The integrability tests of one constraint row a(y)·ẏ = 0."""

    owner: str
    exact: bool          # ∂a_i/∂y_j = ∂a_j/∂y_i (seed 002's condition)
    frobenius: bool      # a ∧ da = 0 (integrable with an integrating factor)


@dataclass
class Integrability:
    """Classification of a model's constraints as data (print it for a readable summary)."""

    f_bar: int                    # speeds without constraints (velocity DOF of the tree)
    k: int                        # independent constraint equations (on the speeds)
    g: int                        # velocity DOF = f̄ − k = number of columns of G
    f: int                        # position DOF = rank of the bracket-generated distribution
    involutive: bool              # all brackets [g_i, g_j] lie in span G
    levels: list[int]             # rank after adding brackets of depth 1, 2, ...
    brackets: dict = field(default_factory=dict)   # (i, j) -> [g_i, g_j] at y_ref
    reachable: np.ndarray = None  # columns: g_i and the rank-raising brackets at y_ref
    singles: list[SingleConstraint] = field(default_factory=list)
    coordinates: list[str] = field(default_factory=list)
    speeds: list[str] = field(default_factory=list)

    @property
    def holonomic(self) -> bool:
        return self.involutive

    @property
    def n_holonomic(self) -> int:
        """Constraints that are integrable (reduce position and velocity DOF)."""
        return self.f_bar - self.f

    @property
    def n_nonholonomic(self) -> int:
        """Constraints that reduce only the velocity DOF."""
        return self.f - self.g

    def __str__(self) -> str:
        kind = "holonomic (integrable: span G is involutive)" if self.involutive else \
            "nonholonomic (span G is not involutive)"
        lines = [f"constraints: {self.k} independent on {self.f_bar} speeds -> {kind}",
                 f"  velocity DOF g = {self.g}, position DOF f = {self.f} "
                 f"({self.n_holonomic} integrable, {self.n_nonholonomic} non-integrable)",
                 "  rank of span{g_i} and iterated Lie brackets: " +
                 " -> ".join(str(r) for r in self.levels)]
        for (i, j), vec in self.brackets.items():
            lines.append(f"  [g{i + 1}, g{j + 1}] at y_ref = " +
                         np.array2string(vec, precision=4, suppress_small=True))
        if self.reachable is not None and self.reachable.shape[1] > self.g:
            lines.append("  reachable directions at y_ref beyond span G (from brackets):")
            for col in self.reachable[:, self.g:].T:
                lines.append("    " + ", ".join(f"{n}: {v:.4g}" for n, v in
                                              zip(self.coordinates, col) if abs(v) > 1e-12))
        for s in self.singles:
            lines.append(f"  single constraint of {s.owner}: ∂a_i/∂y_j symmetric: {s.exact}; "
                         f"a∧da = 0: {s.frobenius}")
        return "\n".join(lines)


def _numeric(exprs: list, y: ca.SX, points: list) -> list[np.ndarray]:
    fn = ca.Function("fields", [y], [ca.horzcat(*exprs)])
    return [np.array(fn(pt)) for pt in points]


def bracket_ranks(fields: list, y: ca.SX, points: list, depth: int) -> tuple[list, list]:
    """Ranks of span{g_i} enlarged by brackets of depth 1..depth (max over ``points``).

    Only brackets that raise the rank are kept and bracketed again with the g_i: the Lie
    algebra rank is reached the same way, and the expressions stay small.
    """
    def rank(exprs):
        return max(numeric_rank(m) for m in _numeric(exprs, y, points))

    basis = list(fields)
    ranks = [rank(basis)]
    frontier = [(i, j) for i in range(len(fields)) for j in range(i + 1, len(fields))]
    frontier = [lie_bracket(fields[i], fields[j], y) for i, j in frontier]
    for _ in range(depth):
        added, current = [], ranks[-1]
        for vec in frontier:
            if rank(basis + [vec]) > current:
                basis.append(vec)
                added.append(vec)
                current += 1
        ranks.append(rank(basis))
        if not added or ranks[-1] == y.numel():
            break
        frontier = [lie_bracket(g, vec, y) for g in fields for vec in added]
    return ranks, basis


def single_tests(a: ca.SX, y: ca.SX, point: np.ndarray, points: list) -> tuple[bool, bool]:
    """Seed 002's condition (symmetric ∂a/∂y) and Frobenius' a ∧ da = 0 for one row a(y)."""
    D = ca.jacobian(a.T, y)                 # D[i, j] = ∂a_i/∂y_j
    curl = D - D.T
    n = y.numel()
    terms = [a[i] * curl[j, k] + a[j] * curl[k, i] + a[k] * curl[i, j]
             for i, j, k in combinations(range(n), 3)]
    fn = ca.Function("single", [y], [curl, ca.vertcat(*terms) if terms else ca.SX(0, 1)])
    exact = frob = True
    for pt in points:
        cu, tr = (np.array(v) for v in fn(pt))
        exact &= bool(np.all(np.abs(cu) < 1e-9))
        frob &= bool(np.all(np.abs(tr) < 1e-9)) if tr.size else True
    return exact, frob


def classify(G: ca.SX, y: ca.SX, points: list, f_bar: int, k: int,
             rows: list | None = None, coordinates=(), speeds=()) -> Integrability:
    """Classify the distribution ẏ = G(y)·z (G in y only: numeric parameters substituted).

    points : configurations where ranks are evaluated (the first one is y_ref); the generic
        rank is the largest found.
    rows : optional (owner, a(y)) constraint rows in ẏ form for the single-constraint tests.
    """
    fields = [G[:, i] for i in range(G.shape[1])]
    ranks, basis = bracket_ranks(fields, y, points, depth=y.numel())
    reachable = _numeric(basis, y, points[:1])[0]
    pairs = list(combinations(range(len(fields)), 2))
    brackets = {}
    if pairs:
        vals = _numeric([lie_bracket(fields[i], fields[j], y) for i, j in pairs], y, points[:1])
        brackets = {pair: vals[0][:, n] for n, pair in enumerate(pairs)}
    singles = [SingleConstraint(owner, *single_tests(a, y, points[0], points))
               for owner, a in (rows or [])]
    return Integrability(f_bar, k, len(fields), ranks[-1], len(ranks) == 1 or
                         ranks[1] == ranks[0], ranks, brackets, reachable, singles,
                         list(coordinates), list(speeds))


def switching_displacement(flow, y0: np.ndarray, h: float) -> np.ndarray:
    """Net displacement y4 − y0 of the sequence g1, g2, −g1, −g2, each for time h (seed 002);
    ``flow(y, z, h)`` integrates ẏ = G(y)·z for time h. Approximates h²·[g1, g2] + O(h³)."""
    y = np.asarray(y0, dtype=float)
    for z in ([1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]):
        y = flow(y, np.array(z), h)
    return y - np.asarray(y0, dtype=float)


def field_bracket(system, i: int = 0, j: int = 1) -> ca.Function:
    """bracket(y, p) -> [g_i, g_j] for a compiled system, with g_k(y) = v(y, e_k) the
    coordinate velocity of the unit speed z = e_k (the k-th column of N·G)."""
    ny, nz = len(system.y_names), len(system.z_names)
    y, p = ca.SX.sym("y", ny), ca.SX.sym("p", len(system.p_names))
    unit = ca.DM.eye(nz)
    gi, gj = system.ydot(y, unit[:, i], p), system.ydot(y, unit[:, j], p)
    return ca.Function("bracket", [y, p], [lie_bracket(gi, gj, y)], ["y", "p"], ["bracket"])


def kinematic_flow(system, rtol: float = 1e-12, atol: float = 1e-12):
    """flow(y, z, h, p): y(h) of the kinematics ODE ẏ = v(y, z) with constant speeds z,
    integrated by CVODES (the flows φ_h^{g} of seed 002's switching sequence)."""
    ny, nz = len(system.y_names), len(system.z_names)
    y, z, p = ca.SX.sym("y", ny), ca.SX.sym("z", nz), ca.SX.sym("p", len(system.p_names))
    tau = ca.SX.sym("tau")   # time scaled to [0, 1]; h enters as a parameter
    h = ca.SX.sym("h")
    dae = {"t": tau, "x": y, "p": ca.vertcat(z, p, h), "ode": h * system.ydot(y, z, p)}
    integ = ca.integrator("flow", "cvodes", dae, 0.0, 1.0, {"reltol": rtol, "abstol": atol, **SUNDIALS})

    def flow(y0, zv, step, pv=None):
        pv = system.p_default if pv is None else pv
        par = np.concatenate([np.ravel(zv), np.ravel(pv), [step]])
        return np.array(integ(x0=y0, p=par)["xf"]).ravel()
    return flow
