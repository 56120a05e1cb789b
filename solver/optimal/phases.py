"""Trajectory optimization through a fixed sequence of contact modes (a multi-phase problem):
a jump is a stance phase (the foot on the ground: its contact a constraint), a flight phase
(the contact open) and a landing (an impact, then stance again).

Each phase is an ordinary :class:`~jourdain.solver.optimal.problem.TrajectoryProblem` on the
System with the phase's modes set through ``params`` (the hybrid elements' discrete variables,
e.g. ``{"foot.floor.mode": -1}`` for a closed stop), with its own horizon (usually free), grid,
bounds, path constraints (a contact force ≥ 0 while in stance, a gap ≥ 0 in flight), costs
and boundary conditions. Consecutive phases are linked at their junction by

    x_{i+1}(0) = Δ_i(x_i(T_i)),

the identity (a lift-off: the state is continuous) or an impact map on the rows of the
System's hybrid elements (``Impact("foot.floor.lower", e)``: Newton's restitution on those
rows, M·Δz = Jᵀ·Λ with J·z⁺ = −e·J·z⁻; positions unchanged) — the same map the simulation's
event loop applies. All phases are transcribed into one NLP and solved by IPOPT; the costs
add up. Reference for the scheme: M. Posa, S. Kuindersma, R. Tedrake, "Optimization and
stabilization of trajectories for constrained dynamical systems", ICRA 2016 (fixed mode
sequence with impact maps at the phase boundaries).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.checks import number
from ..model.names import unknown
from .guess import make_guess
from .nlp import NLP
from .problem import TrajectoryProblem
from . import backends
from .solve import (
    OptimizationError,
    check_start,
    checked_transcription,
    failure_report,
    make_solution,
)
from .transcription import Collocation, Plan


@dataclass(frozen=True)
class Impact:
    """An impact at a junction on the named rows of the System's hybrid elements (labels as
    ``<element>.<row>``, e.g. ``"hopper.floor.lower"`` or a contact's ``"….f_n"``) with
    Newton's coefficient of restitution ``e`` (0: plastic, the rows' velocities become 0)."""

    rows: tuple[str, ...]
    e: float = 0.0

    def __init__(self, *rows: str, e: float = 0.0):
        if not rows or not all(isinstance(r, str) for r in rows):
            raise ModelError("Impact: name one or more rows, e.g. Impact('foot.floor.lower')")
        e = number(e, "Impact: the coefficient of restitution e", 0.0, 1.0)
        object.__setattr__(self, "rows", tuple(rows))
        object.__setattr__(self, "e", e)


@dataclass
class PhaseSolution:
    """The solved phases: ``phases[i]`` is the Solution of phase i (its own time from 0),
    ``t0[i]`` the start of phase i on the common clock, ``cost`` the total, ``stats`` IPOPT's."""

    phases: list
    t0: list[float]
    cost: float
    stats: dict = field(default_factory=dict)

    @property
    def success(self) -> bool:
        return bool(self.stats.get("success"))

    def series(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """(t, values) of a state, input or output over all phases on the common clock."""
        ts, vs = [], []
        for start, sol in zip(self.t0, self.phases):
            ts.append(start + sol.t - sol.t[0])
            vs.append(sol[name])
        return np.concatenate(ts), np.concatenate(vs)


class MultiPhaseProblem:
    """Phases (TrajectoryProblems on one System) linked by junctions: ``junctions[i]`` links
    phase i to phase i+1, None for continuity or an :class:`Impact`."""

    def __init__(self, phases: list, junctions: list | None = None):
        phases = list(phases)
        if len(phases) < 2 or not all(isinstance(p, TrajectoryProblem) for p in phases):
            raise ModelError("MultiPhaseProblem: give two or more jd.TrajectoryProblem phases")
        system = phases[0].system
        if any(p.system is not system for p in phases):
            raise ModelError("MultiPhaseProblem: every phase must be a TrajectoryProblem on "
                             "the same System (set each phase's modes with params=)")
        junctions = [None] * (len(phases) - 1) if junctions is None else list(junctions)
        if len(junctions) != len(phases) - 1 or \
                not all(j is None or isinstance(j, Impact) for j in junctions):
            raise ModelError(f"MultiPhaseProblem: {len(phases) - 1} junctions expected, each "
                             "None (continuous) or a jd.Impact")
        self.phases, self.junctions, self.system = phases, junctions, system
        self._maps = [None if j is None else impact_map(system, j) for j in junctions]

    def solve(self, transcription=None, guesses=None, progress: bool | int = False,
              tol: float = 1e-8, max_iter: int = 3000, ipopt: dict | None = None,
              raise_on_failure: bool = True) -> PhaseSolution:
        """Transcribe every phase into one NLP, link the junctions, solve with IPOPT.
        ``guesses``: one guess per phase (None, a Result, a Solution or a dict; see
        :func:`jourdain.solver.optimal.solve.solve`)."""
        transcription = checked_transcription(transcription or Collocation(), progress)
        if any(p.parameters for p in self.phases):
            raise ModelError("MultiPhaseProblem.solve: problem parameters (ocp.parameter) are "
                             "not supported across phases; give their values as numbers in "
                             "the phases' costs")
        guesses = list(guesses) if guesses is not None else [None] * len(self.phases)
        if len(guesses) != len(self.phases):
            raise ModelError(f"MultiPhaseProblem.solve: {len(self.phases)} guesses expected")
        start = time.perf_counter()
        nlp = NLP(ca.MX if any(transcription.symbols(p) is ca.MX for p in self.phases)
                  else ca.SX)
        plans = [transcription.transcribe(p, p.functions(), nlp, make_guess(p, g))
                 for p, g in zip(self.phases, guesses)]
        for i, (plan, nxt, delta) in enumerate(zip(plans, plans[1:], self._maps)):
            end = plan.X[:, -1] if delta is None else delta(plan.X[:, -1], plan.p)
            nlp.constraint("junction", nxt.X[:, 0] - end,
                           [f"junction {i}→{i + 1}: {n}" for n in self.system.x_names])
        check_start(nlp)
        total = Plan(None, None, np.zeros(0), None, None, sum(p.cost for p in plans),
                     all(p.exact_hessian for p in plans))
        solver = backends.make("ipopt", backends.nlp_dict(nlp, total), backends.options(
            "ipopt", total, nlp, progress, tol, max_iter, ipopt, False, "exact"))
        build = time.perf_counter() - start
        result = solver(**nlp.arrays())
        stats = dict(solver.stats())
        sols = [make_solution(p, plan, nlp, result, stats, transcription, build)
                for p, plan in zip(self.phases, plans)]
        starts = list(np.concatenate([[0.0], np.cumsum([s.T for s in sols])[:-1]]))
        out = PhaseSolution(sols, starts, float(result["f"]), stats)
        if not out.success and raise_on_failure:
            raise OptimizationError(failure_report(nlp, total, result, stats), sols[0])
        return out


def impact_map(system, impact: Impact) -> ca.Function:
    """Δ(x, p): the speeds after an impact on ``impact.rows`` (positions unchanged):
    z⁺ = z − (1 + e)·M⁻¹·Jᵀ·(J·M⁻¹·Jᵀ)⁻¹·J·z with J the rows' Jacobian."""
    info = getattr(system, "hybrid", None)
    labels = [r.label for r in info.rows] if info is not None else []
    missing = [r for r in impact.rows if r not in labels]
    if missing:
        raise ModelError(unknown("Impact", missing[0], labels) +
                         " (rows of the System's hybrid elements)")
    idx = [labels.index(r) for r in impact.rows]
    fn = system.functions["impact"]
    sym = ca.SX if fn.is_a("SXFunction") else ca.MX   # SX: symbolic solves, NLP-inlinable
    x = sym.sym("x", system.nx)
    p = sym.sym("p", len(system.p_names))
    u = sym.zeros(len(system.u_names))
    M, J, _, _ = fn(0.0, x, u, p)
    J = J[idx, :]
    ny, nz = len(system.y_names), len(system.z_names)
    z = x[ny:ny + nz]
    MinvJT = ca.solve(M, J.T)
    dz = -(1 + impact.e) * MinvJT @ ca.solve(J @ MinvJT, J @ z)
    after = ca.vertcat(x[:ny], z + dz, x[ny + nz:])
    return ca.Function("impact_map", [x, p], [after], ["x", "p"], ["x_plus"])
