"""The nonlinear program behind a trajectory problem: named blocks of decision variables and of
constraints, assembled for IPOPT, and the named diagnosis of a failed solve.

Decision vector w: the variable blocks in the order a transcription creates them (documented
in :mod:`jourdain.solver.transcription`). Constraint vector g: the constraint blocks in the
order they are added, lbg ≤ g(w) ≤ ubg. Every row of w and g carries a readable label, e.g.
``dynamics cartpole.hinge.phi, interval 12`` or ``final cartpole.slider.s``, so a failure can
be reported by name.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np


@dataclass
class Block:
    """One named block of rows: where it sits in w or g and a label for each row."""

    name: str
    start: int
    labels: list[str]


class NLP:
    """Accumulates decision variables (with bounds and guesses) and constraints.

    sym : ca.SX (everything inlined, fastest for IPOPT) or ca.MX (needed when the transcription
        calls functions that have no SX form, such as a CVODES integrator).
    """

    def __init__(self, sym=ca.SX):
        self.sym = sym
        self.w, self.lbw, self.ubw, self.w0 = [], [], [], []
        self.g, self.lbg, self.ubg = [], [], []
        self.par = sym(0, 1)    # the NLP's parameters (problem parameters, not decided)
        self.var_blocks: list[Block] = []
        self.con_blocks: list[Block] = []
        self._nw = self._ng = 0

    def variable(self, name: str, labels: list[str], lower, upper, guess):
        """A column of len(labels) decision variables with bounds and initial guess."""
        n = len(labels)
        v = self.sym.sym(name, n)
        self.w.append(v)
        self.lbw.append(np.broadcast_to(np.asarray(lower, float), (n,)))
        self.ubw.append(np.broadcast_to(np.asarray(upper, float), (n,)))
        self.w0.append(np.broadcast_to(np.asarray(guess, float), (n,)))
        self.var_blocks.append(Block(name, self._nw, list(labels)))
        self._nw += n
        return v

    def parameters(self, n: int):
        """The column of n NLP parameters (values given at each solve), created once."""
        if self.par.numel() != n:
            self.par = self.sym.sym("parameters", n)
        return self.par

    def constraint(self, name: str, expr, labels: list[str], lower=0.0, upper=0.0) -> None:
        """lower ≤ expr ≤ upper, one label per row of expr."""
        n = expr.numel()
        assert n == len(labels), f"{name}: {n} rows but {len(labels)} labels"
        self.g.append(ca.vec(expr))
        self.lbg.append(np.broadcast_to(np.asarray(lower, float), (n,)))
        self.ubg.append(np.broadcast_to(np.asarray(upper, float), (n,)))
        self.con_blocks.append(Block(name, self._ng, list(labels)))
        self._ng += n

    def reorder_constraints(self, order: list[int]) -> None:
        """The constraint blocks in ``order`` (indices of con_blocks), each with its rows,
        bounds and labels (a solver that takes the rows in its own order: fatrop's stages)."""
        self.g, self.lbg, self.ubg = ([part[i] for i in order]
                                      for part in (self.g, self.lbg, self.ubg))
        self.con_blocks = [self.con_blocks[i] for i in order]
        start = 0
        for block in self.con_blocks:
            block.start, start = start, start + len(block.labels)

    # ---- assembled -------------------------------------------------------------------------
    def vector(self):
        return ca.vertcat(*self.w)

    def arrays(self) -> dict:
        cat = lambda parts: np.concatenate(parts) if parts else np.zeros(0)  # noqa: E731
        return {"lbx": cat(self.lbw), "ubx": cat(self.ubw), "x0": cat(self.w0),
                "lbg": cat(self.lbg), "ubg": cat(self.ubg)}

    @property
    def sizes(self) -> tuple[int, int]:
        """(number of decision variables, number of constraints)."""
        return self._nw, self._ng

    def variable_label(self, row: int) -> str:
        """The label of row ``row`` of the decision vector w."""
        return _label(self.var_blocks, row)

    def degrees_of_freedom(self) -> tuple[int, int]:
        """(decision variables not fixed by their bounds, equality constraints)."""
        arr = self.arrays()
        return int(np.sum(arr["lbx"] < arr["ubx"])), int(np.sum(arr["lbg"] == arr["ubg"]))

    def check_bounds(self) -> list[str]:
        """Rows whose lower bound exceeds the upper bound: infeasible before any iteration."""
        arr = self.arrays()
        bad = []
        for blocks, lo, hi in ((self.var_blocks, arr["lbx"], arr["ubx"]),
                               (self.con_blocks, arr["lbg"], arr["ubg"])):
            rows = np.flatnonzero(lo > hi)
            bad += [f"{_label(blocks, r)}: lower {lo[r]:.6g} > upper {hi[r]:.6g}" for r in rows]
        return bad

    def violations(self, w: np.ndarray, g: np.ndarray, top: int = 6) -> list[str]:
        """The violated constraints and variable bounds at (w, g(w)), grouped by what they are
        (the label before its first comma, e.g. ``continuity cart.joint.s``), worst first."""
        arr = self.arrays()
        groups = {}
        for blocks, val, lo, hi in ((self.con_blocks, g, arr["lbg"], arr["ubg"]),
                                    (self.var_blocks, w, arr["lbx"], arr["ubx"])):
            viol = np.maximum(np.maximum(lo - val, val - hi), 0.0)
            for row, label in _rows(blocks):
                what, _, where = label.partition(", ")
                entry = groups.setdefault(what, [0.0, 0, 0, ""])
                entry[2] += 1
                if viol[row] > 1e-7 * (1.0 + abs(val[row])):  # beyond IPOPT's bound relaxation
                    entry[1] += 1
                    if viol[row] > entry[0]:
                        entry[0] = viol[row]
                        entry[3] = (f"{where or 'everywhere'}: value {val[row]:.6g}, allowed "
                                    f"[{lo[row]:.6g}, {hi[row]:.6g}]")
        worst = sorted((e for e in groups.items() if e[1][1]), key=lambda e: -e[1][0])[:top]
        return [f"{v:10.3e}  {what}: violated at {n} of {m}, worst at {detail}"
                for what, (v, n, m, detail) in worst]

    def active_bounds(self, w: np.ndarray, top: int = 6) -> list[str]:
        """Decision variables sitting on a (not fixed) bound at w, grouped by what they are:
        the limits that shape, or prevent, the solution."""
        arr = self.arrays()
        lo, hi = arr["lbx"], arr["ubx"]
        counts = {}
        for row, label in _rows(self.var_blocks):
            if lo[row] == hi[row]:
                continue
            what = label.partition(", ")[0]
            entry = counts.setdefault(what, [0, 0])
            entry[1] += 1
            scale = 1e-6 * (1.0 + abs(w[row]))
            entry[0] += bool(abs(w[row] - lo[row]) < scale or abs(w[row] - hi[row]) < scale)
        active = sorted((e for e in counts.items() if e[1][0]), key=lambda e: -e[1][0] / e[1][1])
        return [f"{what}: on its bound at {n} of {m}" for what, (n, m) in active[:top]]


    def invalid_numbers(self, cost, w: np.ndarray, top: int = 6,
                        par: np.ndarray | None = None) -> list[str]:
        """Where the cost, the constraints or their first derivatives are NaN or inf at w
        (IPOPT's Invalid_Number_Detected), by label: what to keep away from a singularity."""
        x, g = self.vector(), ca.vertcat(*self.g)
        try:
            fn = ca.Function("check", [x, self.par], [cost, ca.gradient(cost, x), g,
                                                      ca.jacobian(g, x)])
            par = np.zeros(self.par.numel()) if par is None else par
            f, df, gv, jac = (np.array(ca.DM(v), dtype=float) for v in fn(w, par))
        except RuntimeError:  # e.g. an integrator that fails at this point: nothing to name
            return []
        bad = []
        if not np.isfinite(f).all():
            bad.append(f"the cost is {float(f.ravel()[0])}")
        rows = np.flatnonzero(~np.isfinite(df.ravel()))
        bad += [f"the cost's derivative by {_label(self.var_blocks, r)}" for r in rows[:top]]
        rows = np.flatnonzero(~np.isfinite(gv.ravel()) | ~np.isfinite(jac).all(axis=1))
        bad += [f"constraint {_label(self.con_blocks, r)} (value {gv.ravel()[r]:.3g})"
                for r in rows[:top]]
        return bad[:top]


def _rows(blocks: list[Block]):
    for b in blocks:
        for i, label in enumerate(b.labels):
            yield b.start + i, label


def _label(blocks: list[Block], row: int) -> str:
    for b in blocks:
        if b.start <= row < b.start + len(b.labels):
            return b.labels[row - b.start]
    raise IndexError(row)
