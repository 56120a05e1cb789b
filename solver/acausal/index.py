"""Index reduction of the acausal equations: Pantelides' algorithm (1988) and the dummy
derivatives of Mattsson and Söderlind (1993), as a Modelica tool does.

A constraint between states (two capacitors in parallel, a capacitor across a voltage
source, two inertias joined by an ideal gear) leaves an equation that the matching cannot
assign: it reads no unknown, only states. Pantelides' algorithm looks for an augmenting path
from each such equation through the unknowns that are highest derivatives (variables that
have a der() are no longer candidates, their der() is); when none exists, the equations and
unknowns it visited form a minimally structurally singular set, and each of them is
differentiated (d/dt by the chain rule, each variable getting a der() symbol, time 1, a
flange's position its speed, any other outside quantity a "rate" the signal context fills),
until every equation is assigned. A visited set that reads no state is over-determined
algebraically: it is left to the structural analysis, which names it (redundant or
conflicting equations), since differentiating cannot help.

The dummy derivatives keep all equations, the original and the differentiated ones, and
turn as many derivatives into plain algebraic unknowns as equations were added: on the
highest differentiated equations g₁ the columns of ∂g₁/∂z₁ (z₁ their highest derivatives)
that form a regular square matrix are chosen (greedily, preferring to keep as states the
variables given a start value and the ones declared first), then on the equations they were
differentiated from with the selected variables' lower derivatives, and so on. A variable
whose der() is a dummy is no longer a state: the undifferentiated constraint determines it
(one capacitor of a parallel pair keeps its state, the other's voltage follows). The
selection is made once, at the start values (static); the constant-coefficient constraints
of circuits, heat networks and gears keep it valid everywhere.

The work is local: a model without constraints between states costs nothing more (the
matching is the one the BLT uses), and each augmenting path search visits the equations
around one constraint, so compile time stays linear in the number of components
(benchmarks/acausal.py, the row of parallel capacitor pairs).
"""
from __future__ import annotations

import casadi as ca
import numpy as np
from scipy.sparse import bmat, csr_matrix
from scipy.sparse.csgraph import connected_components

from jourdain.blocks.errors import ModelError

from .structure import Equation

MAX_ORDER = 6        # an equation differentiated more often means the reduction diverges
RANK_TOL = 1e-10     # relative size of a column's part independent of the chosen ones


def reduce_index(table, equations: list, match: dict) -> list | None:
    """The equations with the differentiated ones appended, and table.der / table.unknowns
    extended, or None when the matching leaves no equation that differentiation helps;
    ``match``: the structural matching of the index-1 attempt (("e", i) -> ("u", h))."""
    free = [i for i in range(len(equations)) if ("e", i) not in match]
    if not free:
        return None
    known = set(table.unknowns)
    inc = [[h for h in _reads(eq.expr) if h in known] for eq in equations]
    assign = {u[1]: e[1] for e, u in match.items() if e[0] == "e"}
    state = _Pantelides(table, list(equations), inc, assign)
    for i in free:
        state.process(i)
    if not state.prev:
        return None
    state.select_dummies()
    return state.equations


def states_after(table) -> dict:
    """{hash: Unknown} of the variables integrated: those with a der() that is no dummy."""
    return {h: table.unknowns[h] for h, d in table.der.items()
            if d.element_hash() not in table.dummies}


class _Pantelides:
    def __init__(self, table, equations, inc, assign):
        self.table, self.equations, self.inc, self.assign = table, equations, inc, assign
        self.prev: dict = {}      # index of a differentiated equation -> its predecessor
        self.next: dict = {}      # equation -> its derivative
        self.order: dict = {}     # equation -> how often it was differentiated

    def candidate(self, h) -> bool:
        return h not in self.table.der

    def process(self, i: int) -> None:
        while True:
            found, eqs, vars_ = self._augment(i)
            if found:
                return
            if not any(not self.candidate(h) for e in eqs for h in self.inc[e]):
                return    # algebraically over-determined: the structural analysis names it
            for h in vars_:
                self.table.rate_of(h)
            for e in sorted(eqs):
                self._differentiate(e)
            for h in vars_:   # the variable's assignment moves to its derivative
                e = self.assign.pop(h)
                self.assign[self.table.der[h].element_hash()] = self.next[e]
            i = self.next[i]

    def _free(self, e):
        for h in self.inc[e]:
            if self.candidate(h) and h not in self.assign:
                return h
        return None

    def _augment(self, root: int):
        """An augmenting path from equation ``root`` (applied when found), or the
        equations and candidate unknowns it visited (iterative depth-first search)."""
        eqs, vars_ = {root}, {}    # vars_ a dict: its order (not hashes') sets the der()s
        free = self._free(root)
        if free is not None:
            self.assign[free] = root
            return True, eqs, vars_
        stack = [(root, None, iter(self.inc[root]))]
        while stack:
            eq, _, it = stack[-1]
            nxt = next((h for h in it if self.candidate(h) and h not in vars_), None)
            if nxt is None:
                stack.pop()
                continue
            vars_[nxt] = None
            e2 = self.assign[nxt]
            eqs.add(e2)
            free = self._free(e2)
            if free is not None:
                self.assign[free] = e2
                self.assign[nxt] = eq
                for k in range(len(stack) - 1, 0, -1):
                    self.assign[stack[k][1]] = stack[k - 1][0]
                return True, eqs, vars_
            stack.append((e2, nxt, iter(self.inc[e2])))
        return False, eqs, vars_

    def _differentiate(self, e: int) -> None:
        eq = self.equations[e]
        order = self.order.get(e, 0) + 1
        if order > MAX_ORDER:
            raise ModelError(f"index reduction differentiated the equation {eq.where()} "
                             f"{MAX_ORDER} times without making the acausal equations "
                             "solvable; check its components and their connections")
        expr = differentiate(self.table, eq.expr)
        text = eq.text if eq.text.startswith("d/dt") else f"({eq.text})"
        new = Equation(expr, eq.owner, f"d/dt {text}")
        k = len(self.equations)
        self.equations.append(new)
        known = self.table.unknowns
        self.inc.append([h for h in _reads(expr) if h in known])
        self.prev[k], self.next[e], self.order[k] = e, k, order

    # ---- dummy derivatives (module docstring) --------------------------------------------
    def select_dummies(self) -> None:
        table = self.table
        lower = {d.element_hash(): h for h, d in table.der.items()}   # der -> its variable
        rows = [k for k in self.prev if k not in self.next]
        cols = sorted({h for k in rows for h in self.inc[k] if self.candidate(h)
                       and h in lower}, key=self._preference(lower))
        while rows:
            chosen = self._select(rows, cols)
            table.dummies.update(chosen)
            rows = [self.prev[k] for k in rows if self.prev[k] in self.prev]
            cols = sorted({lower[h] for h in chosen if lower[h] in lower},
                          key=self._preference(lower))

    def _preference(self, lower):
        """Dummies first among variables without a start value, the last declared first,
        so the states kept are the ones the user started and declared first."""
        created = {h: k for k, h in enumerate(self.table.unknowns)}

        def key(h):
            base = h
            while base in lower:
                base = lower[base]
            return (base in self.table.started, -created[base])
        return key

    def _select(self, rows: list, cols: list) -> list:
        """Columns of ∂g/∂z (rows g, columns z in preference order) forming a regular square
        matrix; a ModelError naming the equations when there is none. A row with a single
        column left forces that column (it is in every such matrix: the ground's der(v) = 0
        that every capacitor's row reads); the rest splits into connected parts, each
        selected greedily, so the work stays local."""
        if not rows:
            return []
        H = self._jacobian(rows, cols)
        live = np.abs(H) > 0
        row_cols = [set(np.flatnonzero(live[r])) for r in range(len(rows))]
        original, forced_by = [set(c) for c in row_cols], {}
        col_rows = [set(np.flatnonzero(live[:, j])) for j in range(len(cols))]
        left_r, left_c, chosen = set(range(len(rows))), set(range(len(cols))), []
        todo = [r for r in left_r if len(row_cols[r]) == 1]
        while todo:
            r = todo.pop()
            if r not in left_r or len(row_cols[r]) != 1:
                continue
            j = row_cols[r].pop()
            chosen.append(cols[j])
            forced_by[j] = r
            left_r.discard(r)
            left_c.discard(j)
            for r2 in col_rows[j]:
                row_cols[r2].discard(j)
                if r2 in left_r and len(row_cols[r2]) == 1:
                    todo.append(r2)
        r_idx, c_idx = sorted(left_r), sorted(left_c)
        if not r_idx:
            return chosen
        sub = csr_matrix(live[np.ix_(r_idx, c_idx)].astype(float))
        n, labels = connected_components(bmat([[None, sub], [sub.T, None]]).tocsr(),
                                         directed=False)
        parts: dict = {}
        for k, r in enumerate(r_idx):
            parts.setdefault(labels[k], ([], []))[0].append(r)
        for k, j in enumerate(c_idx):
            parts.setdefault(labels[len(r_idx) + k], ([], []))[1].append(j)
        for r, c in parts.values():
            if not r:
                continue
            picked = _independent_columns(H[np.ix_(r, c)], len(r)) if c else None
            if picked is None:   # with the rows that took this part's columns, transitively
                named, k = list(r), 0
                while k < len(named):
                    named += [forced_by[j] for j in sorted(original[named[k]])
                              if j in forced_by and forced_by[j] not in named]
                    k += 1
                r = sorted(named)
                raise ModelError(
                    "index reduction found no derivatives that the differentiated equations "
                    + "; ".join(self.equations[rows[k]].where() for k in r[:6]) +
                    " determine (their matrix is singular): the constraints they come from "
                    "are redundant or contradict each other; check these components")
            chosen += [cols[c[j]] for j in picked]
        return chosen

    def _jacobian(self, rows: list, cols: list) -> np.ndarray:
        """∂g/∂z at the start values (outside quantities at 0); entries that stay symbolic
        (symbolic parameters) count by their structure."""
        table = self.table
        g = ca.vertcat(*[self.equations[k].expr for k in rows])
        z = ca.vertcat(*[table.unknowns[h].sym for h in cols])
        J = ca.jacobian(g, z)
        point = [(u.sym, u.start) for u in table.unknowns.values()] + \
            [(e.sym, 0.0) for e in table.externals.values()] + \
            [(p, 0.0) for p in table.placeholders.values()]
        J = ca.substitute(J, ca.vertcat(*[s for s, _ in point]),
                          ca.DM([v for _, v in point]))
        out = np.zeros((len(rows), len(cols)))
        for i, j in zip(*J.sparsity().get_triplet()):
            entry = J[i, j]    # symbolic only through symbolic parameters: its structure
            out[i, j] = float(entry) if entry.is_constant() else 1.0 + 0.1 * j
        return out


def _independent_columns(H: np.ndarray, m: int) -> list | None:
    """The first m columns (in order) each independent of the ones before it (greedy
    Gram–Schmidt), or None when fewer than m are."""
    basis, picked = [], []
    for j in range(H.shape[1]):
        v = H[:, j].astype(float).copy()
        norm = np.linalg.norm(v)
        if norm == 0.0:
            continue
        for q in basis:
            v -= (q @ v) * q
        if np.linalg.norm(v) > RANK_TOL * norm:
            basis.append(v / np.linalg.norm(v))
            picked.append(j)
            if len(picked) == m:
                return picked
    return None


def differentiate(table, expr: ca.SX) -> ca.SX:
    """d/dt of a residual: the chain rule over its unknowns (der symbols, made on demand) and
    outside quantities (time 1, a flange position its speed, else a rate external)."""
    syms, rates = [], []
    for s in ca.symvar(expr):
        h = s.element_hash()
        if h in table.unknowns:
            syms.append(s)
            rates.append(table.rate_of(h))
        elif h in table.externals or h in table.placeholders:
            syms.append(s)
            rates.append(table.rate_of_external(s))
    if not syms:
        return ca.SX(0)
    return ca.jtimes(expr, ca.vertcat(*syms), ca.vertcat(*rates))


def _reads(expr) -> list:
    return [s.element_hash() for s in ca.symvar(expr)]
