"""Tracking a planned trajectory: the reference a Solution defines between its nodes, the
time-varying LQR along it (:mod:`jourdain.solver.control.tracking`), and the closed-loop
re-simulation that checks the tracking.

Reference. Between nodes k and k+1 (length h) the state is the cubic Hermite interpolant of
x_k, x_{k+1} and their derivatives f(t, x, u) under the interval's own input (fourth-order
accurate, consistent with the dynamics at the nodes); the inputs are exactly the
transcription's (piecewise constant or Lagrange polynomials), sampled so that linear
interpolation reproduces them, with each jump at a node as a ramp of ``JUMP`` × h.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from jourdain.blocks.errors import ModelError

from ..control.tracking import TrackingController, tvlqr
from ..model.checks import count, mapping, number, unknown
from ..simulation.result import Result
from .functions import dynamics

JUMP = 1e-9   # an input jump at a node becomes a ramp of this fraction of the interval


def _lagrange(tau: np.ndarray, points: np.ndarray) -> np.ndarray:
    """ℓ_j(τ) for the interpolation points (len(points) × len(τ))."""
    basis = np.ones((points.size, np.size(tau)))
    for j, pj in enumerate(points):
        for r, pr in enumerate(points):
            if r != j:
                basis[j] *= (np.asarray(tau) - pr) / (pj - pr)
    return basis


def reference(solution, samples: int) -> tuple:
    """(t, x_ref, t_u, u_ref): ``samples`` states per interval by Hermite interpolation, and
    the inputs sampled with their jumps (module docstring)."""
    s, N = solution.system, solution.U.shape[1]
    f = dynamics(s)
    h = solution.T / N
    tau = np.linspace(0.0, 1.0, samples + 1)[:-1]
    h00, h10 = 2 * tau**3 - 3 * tau**2 + 1, tau**3 - 2 * tau**2 + tau
    h01, h11 = -2 * tau**3 + 3 * tau**2, tau**3 - tau**2
    ts, xs, tus, us = [], [], [], []
    u_tau = np.linspace(0.0, 1.0 - JUMP, max(2, samples + 1)) if solution.u_tau.size > 1 \
        else np.array([0.0, 1.0 - JUMP])
    for k in range(N):
        t_k = solution.t[0] + k * h
        U = solution.U[:, k, :]
        u0, u1 = (U @ _lagrange(np.array([0.0, 1.0]), solution.u_tau)).T
        x0, x1 = solution.X[:, k], solution.X[:, k + 1]
        d0 = np.array(f(t_k, x0, u0, solution.p)).ravel()
        d1 = np.array(f(t_k + h, x1, u1, solution.p)).ravel()
        xs.append(np.outer(x0, h00) + np.outer(h * d0, h10) + np.outer(x1, h01) +
                  np.outer(h * d1, h11))
        ts.append(t_k + tau * h)
        tus.append(t_k + u_tau * h)
        us.append(U @ _lagrange(u_tau, solution.u_tau))
    ts.append([solution.t[-1]])
    xs.append(solution.X[:, -1:])
    return (np.concatenate(ts), np.hstack(xs), np.concatenate(tus),
            np.hstack(us) if us else np.zeros((0, 0)))


def tracking_controller(solution, Q, R, Qf=None, samples: int = 10) -> TrackingController:
    """TVLQR along the solution (see :meth:`Solution.tracking_controller`)."""
    samples = count(samples, "tracking_controller: samples")
    t, x_ref, t_u, u_ref = reference(solution, samples)
    return tvlqr(solution.system, t, x_ref, t_u, u_ref, solution.p, Q, R, Qf)


@dataclass
class TrackingCheck:
    """Closed-loop re-simulation of a plan under a tracking controller: the largest
    |x_sim − x_plan| over the nodes per state (``deviation``), the state at the end of the
    simulation minus the plan's final state (``final``), and the simulated Result."""

    deviation: dict
    final: dict
    simulated: Result

    @property
    def max_deviation(self) -> float:
        return max(self.deviation.values(), default=0.0)

    def __str__(self) -> str:
        rows = [f"  {n:32s} max |deviation| {self.deviation[n]:10.3e}   at the end "
                f"{self.final[n]:+10.3e}" for n in self.deviation]
        return "closed-loop re-simulation (tracking controller) vs. plan:\n" + "\n".join(rows)


def check_tracking(solution, controller, rtol: float, atol: float, samples: int,
                   t_end=None, initial: dict | None = None) -> TrackingCheck:
    """Re-simulate the plan's system from its initial state (entries of ``initial`` by name
    replaced: a perturbed start) with ``controller`` in the loop until ``t_end`` (default:
    the plan's end; later times hold the final reference)."""
    s = solution.system
    t0, t_plan = solution.t[0], solution.t[-1]
    t_end = t_plan if t_end is None else number(t_end, "Solution.check: t_end", unit="s")
    if not t_end > t0:
        raise ModelError(f"Solution.check: t_end ({t_end}) must be after the plan's start "
                         f"({t0})")
    x0 = solution.X[:, 0].copy()
    for name, value in mapping(initial, "Solution.check: initial", "state name").items():
        if name not in s.x_names:
            raise ModelError(unknown("Solution.check: initial", name, s.x_names))
        x0[s.x_names.index(name)] = number(value, f"Solution.check: initial '{name}'")
    n_nodes = len(solution.t) - 1
    grid = t0 + np.linspace(0.0, t_plan - t0, n_nodes * samples + 1)
    if t_end > t_plan:
        extra = int(np.ceil((t_end - t_plan) / (grid[1] - grid[0])))
        grid = np.concatenate([grid, np.linspace(t_plan, t_end, extra + 1)[1:]])
    else:
        grid = grid[grid <= t_end + 1e-12 * max(1.0, abs(t_end))]
    params = dict(zip(s.p_names, solution.p.tolist()))
    sim = s.simulate(grid[-1], x0=x0, t_out=grid, controller=controller, params=params,
                     rtol=rtol, atol=atol)
    nodes = sim.x[:, :n_nodes * samples + 1:samples]
    plan = solution.X[:, :nodes.shape[1]]
    deviation = np.abs(nodes - plan).max(axis=1)
    final = sim.x[:, -1] - solution.X[:, -1]
    return TrackingCheck(dict(zip(s.x_names, deviation)), dict(zip(s.x_names, final)), sim)
