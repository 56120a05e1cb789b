"""Integrability of velocity constraints (DESIGN.md §3.4; Murray, Li and Sastry 1994, ch. 7).

Given the explicit form ẏ = G(y)·z = Σ g_i(y)·z_i of the admissible motions:

* a single constraint a(y)·ẏ = 0 is integrable when ∂a_i/∂y_j = ∂a_j/∂y_i (the
  integrability condition: a is a gradient); the general test, allowing an integrating factor,
  is Frobenius' a ∧ da = 0, i.e. a_i(∂_j a_k − ∂_k a_j) + a_j(∂_k a_i − ∂_i a_k)
  + a_k(∂_i a_j − ∂_j a_i) = 0 for all i, j, k;
* for several constraints, the Lie brackets [g_i, g_j] = Dg_j·g_i − Dg_i·g_j (the net motion of
  the switching sequence g_i, g_j, −g_i, −g_j over steps h is h²·[g_i, g_j]): the
  distribution span{g_i} is involutive iff all the constraints are integrable (holonomic,
  Frobenius); otherwise the iterated brackets reach further directions, and the rank of the
  bracket-generated distribution is the position DOF f (Chow–Rashevskii), while g = dim z is
  the velocity DOF.

How it is computed (fast enough to run on first use, e.g. by ``report()``): brackets are
built by directional derivatives (``ca.jtimes``: [g_k, W] = DW·g_k − Dg_k·W, one forward sweep
per term, never a full Jacobian) and evaluated numerically at a few assembled configurations;
rank tests work on those numbers. Only brackets that raise the rank are bracketed again, and
the search stops as soon as the rank reaches its upper bound: the fields are tangent to the
level sets of the holonomic constraints c(y) (C·N·G = 0 identically) and to the
configuration manifold (image N), so f ≤ rank N − rank C·N (:func:`holonomic_bound`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import casadi as ca
import numpy as np

from ..model.numerics import SUNDIALS
from .partition import numeric_rank

ZERO_TOL = 1e-9   # absolute tolerance of the single-constraint tests (curl, a ∧ da)


def lie_bracket(g1: ca.SX, g2: ca.SX, y: ca.SX) -> ca.SX:
    """[g1, g2] = Dg2·g1 − Dg1·g2 (Murray, Li and Sastry 1994), by directional
    derivatives."""
    return ca.jtimes(g2, y, g1) - ca.jtimes(g1, y, g2)


@dataclass
class SingleConstraint:
    """The integrability tests of one constraint row a(y)·ẏ = 0."""

    owner: str
    exact: bool          # ∂a_i/∂y_j = ∂a_j/∂y_i (the integrability condition)
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
    labels: list[str] = field(default_factory=list)  # names of the columns of ``reachable``
    bound: int | None = None      # upper bound of f set by the holonomic constraints

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
        at_bound = self.bound is not None and self.f == self.bound and self.f > self.g
        lines = [f"constraints: {self.k} independent on {self.f_bar} speeds -> {kind}",
                 f"  velocity DOF g = {self.g}, position DOF f = {self.f} "
                 f"({self.n_holonomic} integrable, {self.n_nonholonomic} non-integrable)",
                 "  rank of span{g_i} and iterated Lie brackets: " +
                 " -> ".join(str(r) for r in self.levels) +
                 (" (the most the holonomic constraints allow: search stopped)"
                  if at_bound else "")]
        for (i, j), vec in self.brackets.items():
            lines.append(f"  [g{i + 1}, g{j + 1}] at y_ref = " +
                         np.array2string(vec, precision=4, suppress_small=True))
        if self.reachable is not None and self.reachable.shape[1] > self.g:
            lines.append("  reachable directions at y_ref beyond span G (from brackets):")
            labels = self.labels or [""] * self.reachable.shape[1]
            for label, col in zip(labels[self.g:], self.reachable[:, self.g:].T):
                entries = ", ".join(f"{n}: {v:.4g}" for n, v in zip(self.coordinates, col)
                                    if abs(v) > 1e-12)
                lines.append(f"    {label}: " + (entries or "0 at y_ref (raises the rank at "
                                                  "nearby configurations)"))
        for s in self.singles:
            lines.append(f"  single constraint of {s.owner}: ∂a_i/∂y_j symmetric: {s.exact}; "
                         f"a∧da = 0: {s.frobenius}")
        return "\n".join(lines)


def _values(exprs: list, y: ca.SX, points: list) -> list[list[np.ndarray]]:
    """Each expression of ``exprs`` evaluated at each point: [point][expression] arrays; one
    CasADi Function for them all."""
    fn = ca.Function("fields", [y], exprs)
    return [[np.array(v) for v in fn(pt)] if len(exprs) > 1 else [np.array(fn(pt))]
            for pt in points]


def _columns(vectors: list, n: int) -> ca.SX:
    return ca.horzcat(*vectors) if vectors else ca.SX(n, 0)


@dataclass
class BracketSearch:
    """Outcome of :func:`bracket_ranks`."""

    ranks: list[int]               # rank of span{g_i}, then after each depth of brackets
    labels: list[str]              # g1.., then the rank-raising brackets, e.g. "[g3, [g1, g2]]"
    values: list[np.ndarray]       # per point: the basis (columns as in ``labels``)
    pairs: dict                    # (i, j) -> [g_i, g_j] at the first point


def _raise_rank(basis: list, candidates: list, current: int, bound: int) -> list[int]:
    """Candidates (columns, in order) kept greedily while each raises the rank (the largest
    over the points) and the rank is below ``bound``."""
    added: list[int] = []
    for c in range(candidates[0].shape[1]):
        if current >= bound:
            break
        trial = max(numeric_rank(np.hstack([b, v[:, added + [c]]]))
                    for b, v in zip(basis, candidates))
        if trial > current:
            added.append(c)
            current = trial
    return added


def _next_frontier(F: ca.SX, y: ca.SX, added: list, names: list) -> tuple[list, list]:
    """[g_k, W] = DW·g_k − Dg_k·W for every field g_k and every added bracket W: two
    multi-direction forward sweeps per W give them for all k."""
    sweeps = [(ca.jtimes(W, y, F), ca.jtimes(F, y, W)) for W in added]
    front, labels = [], []
    for k in range(F.shape[1]):
        for (DW, FW), name in zip(sweeps, names):
            front.append(DW[:, k] - FW[:, k])
            labels.append(f"[g{k + 1}, {name}]")
    return front, labels


def bracket_ranks(F: ca.SX, y: ca.SX, points: list, depth: int,
                  bound: int | None = None) -> BracketSearch:
    """Ranks of span{g_i} (the columns of F) enlarged by brackets of depth 1..depth (max over
    ``points``), stopped once the rank reaches ``bound`` (default: the dimension of y).

    Only brackets that raise the rank are kept and bracketed again with the g_i: the Lie
    algebra rank is reached the same way, and the expressions stay small.
    """
    n, m = F.shape
    bound = n if bound is None else min(bound, n)
    DF = [ca.jtimes(F, y, F[:, i]) for i in range(m)]       # column j: Dg_j·g_i
    pairs = list(combinations(range(m), 2))
    front = [DF[i][:, j] - DF[j][:, i] for i, j in pairs]
    names = [f"[g{i + 1}, g{j + 1}]" for i, j in pairs]
    evaluated = _values([F, _columns(front, n)], y, points)
    basis, front_vals = [e[0] for e in evaluated], [e[1] for e in evaluated]
    ranks, labels = [max(map(numeric_rank, basis))], [f"g{k + 1}" for k in range(m)]
    pair_vals = {pair: front_vals[0][:, c] for c, pair in enumerate(pairs)}
    for _ in range(depth if ranks[0] < bound else 0):
        added = _raise_rank(basis, front_vals, ranks[-1], bound)
        basis = [np.hstack([b, v[:, added]]) for b, v in zip(basis, front_vals)]
        labels += [names[a] for a in added]
        ranks.append(max(map(numeric_rank, basis)))
        if not added or ranks[-1] >= bound:
            break
        front, names = _next_frontier(F, y, [front[a] for a in added], [names[a] for a in added])
        front_vals = [e[0] for e in _values([_columns(front, n)], y, points)]
    return BracketSearch(ranks, labels, basis, pair_vals)


def holonomic_bound(N: ca.SX, C: ca.SX, y: ca.SX, points: list) -> int:
    """Upper bound of the rank of the bracket-generated distribution of ẏ = N·G·z.

    The fields lie in ker C (C = ∂c/∂y; C·N·G = 0 for every y), so they and their brackets
    are tangent to the level sets of c; when span N is involutive (the joints' coordinates
    move on a manifold, e.g. unit quaternions; checked at ``points``) they also lie in
    span N: the rank is at most rank N − rank C·N, else n − rank C (largest over points).
    """
    n, cols = y.numel(), N.shape[1]
    check = cols > 1 and ca.depends_on(N, y)
    outs = [N, C]
    if check:
        DN = [ca.jtimes(N, y, N[:, i]) for i in range(cols)]
        outs.append(_columns([DN[i][:, j] - DN[j][:, i]
                              for i, j in combinations(range(cols), 2)], n))
    best = 0
    for Nv, Cv, *brackets in _values(outs, y, points):
        rank_N = numeric_rank(Nv)
        tangent = not check or numeric_rank(np.hstack([Nv, brackets[0]])) == rank_N
        best = max(best, rank_N - numeric_rank(Cv @ Nv) if tangent else n - numeric_rank(Cv))
    return best


def _wedge_vanishes(a: np.ndarray, curl: np.ndarray) -> bool:
    """a ∧ da = 0: a_i·curl_jk + a_j·curl_ki + a_k·curl_ij = 0 for all i, j, k."""
    terms = (np.einsum("i,jk->ijk", a, curl) + np.einsum("j,ki->ijk", a, curl)
             + np.einsum("k,ij->ijk", a, curl))
    return bool(np.all(np.abs(terms) < ZERO_TOL))


def single_tests(A: ca.SX, y: ca.SX, points: list) -> list[tuple[bool, bool]]:
    """Seed 002's condition (symmetric ∂a/∂y) and Frobenius' a ∧ da = 0 for each row a(y)
    of A (k × n), at every point; the derivatives are evaluated numerically."""
    k, n = A.shape
    D = ca.vertcat(*[ca.jacobian(A[r, :].T, y) for r in range(k)])   # D[i, j] = ∂a_i/∂y_j
    flags = [[True, True] for _ in range(k)]
    for a_all, d_all in _values([A, D], y, points):
        for r in range(k):
            d = d_all[r * n:(r + 1) * n]
            curl = d - d.T
            flags[r][0] &= bool(np.all(np.abs(curl) < ZERO_TOL))
            flags[r][1] &= _wedge_vanishes(a_all[r], curl)
    return [tuple(f) for f in flags]


def classify(G: ca.SX, y: ca.SX, points: list, f_bar: int, k: int,
             rows: list | None = None, coordinates=(), speeds=(),
             bound: int | None = None) -> Integrability:
    """Classify the distribution ẏ = G(y)·z (G in y only: numeric parameters substituted).

    points : configurations where ranks are evaluated (the first one is y_ref); the generic
        rank is the largest found.
    rows : optional (owner, a(y)) constraint rows in ẏ form for the single-constraint tests.
    bound : upper bound of the rank (:func:`holonomic_bound`); the bracket search stops there.
    """
    search = bracket_ranks(G, y, points, depth=y.numel(), bound=bound)
    singles = []
    if rows:
        flags = single_tests(ca.vertcat(*[a for _, a in rows]), y, points)
        singles = [SingleConstraint(owner, *flag) for (owner, _), flag in zip(rows, flags)]
    ranks = search.ranks
    return Integrability(f_bar, k, G.shape[1], ranks[-1], ranks[-1] == ranks[0], ranks,
                         search.pairs, search.values[0], singles, list(coordinates),
                         list(speeds), search.labels, bound)


def switching_displacement(flow, y0: np.ndarray, h: float) -> np.ndarray:
    """Net displacement y4 − y0 of the sequence g1, g2, −g1, −g2, each for time h (nonholonomic constraints; Murray, Li and Sastry 1994);
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
    integrated by CVODES (the flows φ_h^{g} of the parallel-parking switching sequence)."""
    ny, nz = len(system.y_names), len(system.z_names)
    y, z, p = ca.SX.sym("y", ny), ca.SX.sym("z", nz), ca.SX.sym("p", len(system.p_names))
    tau = ca.SX.sym("tau")   # time scaled to [0, 1]; h enters as a parameter
    h = ca.SX.sym("h")
    dae = {"t": tau, "x": y, "p": ca.vertcat(z, p, h), "ode": h * system.ydot(y, z, p)}
    integ = ca.integrator("flow", "cvodes", dae, 0.0, 1.0,
                          {"reltol": rtol, "abstol": atol, **SUNDIALS})

    def flow(y0, zv, step, pv=None):
        pv = system.p_default if pv is None else pv
        par = np.concatenate([np.ravel(zv), np.ravel(pv), [step]])
        return np.array(integ(x0=y0, p=par)["xf"]).ravel()
    return flow
