"""The solution of a TrajectoryProblem: named trajectories, cost, solver statistics, a plot, and
the check that re-simulates the optimal inputs with CVODES and reports the deviation from the
plan.

Inputs are represented exactly as the transcription defined them: in interval k the input is
the Lagrange polynomial through m values at normalized times τ_j ∈ [0, 1] (m = 1: piecewise
constant), so the re-simulation applies the very inputs the optimizer chose.
"""
from __future__ import annotations

import functools

from dataclasses import dataclass
from pathlib import Path

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.checks import count, number
from ..model.numerics import SUNDIALS
from ..simulation.result import Result
from ..visual import tables
from ..visual.animate import animate
from ..visual.plots import Line, draw, panels_by_unit, window
from .functions import dynamics
from .tracking import TrackingCheck, check_tracking, tracking_controller


def lagrange_basis(tau, points: np.ndarray):
    """ℓ_j(τ) for the interpolation points, as a list (works on numbers and CasADi symbols)."""
    basis = []
    for j, pj in enumerate(points):
        b = 1.0 + 0 * tau
        for r, pr in enumerate(points):
            if r != j:
                b = b * (tau - pr) / (pj - pr)
        basis.append(b)
    return basis


@dataclass
class Check:
    """Re-simulation of the optimal inputs: largest |x_sim − x_plan| over the nodes per state,
    ``open_loop`` from the initial state through the whole horizon (includes the growth of
    errors along unstable motions), ``local`` restarting every interval from the planned node
    (the transcription's own error), and the re-simulated trajectory."""

    open_loop: dict
    local: dict
    simulated: Result

    @property
    def max_open_loop(self) -> float:
        return max(self.open_loop.values(), default=0.0)

    @property
    def max_local(self) -> float:
        return max(self.local.values(), default=0.0)

    def __str__(self) -> str:
        rows = [f"  {n:32s} open loop {self.open_loop[n]:10.3e}   local {self.local[n]:10.3e}"
                for n in self.open_loop]
        return "re-simulation (CVODES) vs. plan, max |deviation| over nodes:\n" + "\n".join(rows)


class Solution:
    """Optimal trajectories on the node grid ``t`` (N+1 times [s]); ``sol[name]`` returns a
    state, input, output or energy series (a :class:`Result` in ``trajectory``).

    Attributes: cost, T [s], p (full parameter vector), free_parameters {name: value},
    stats {status, success, iterations, solve_time [s], build_time [s], variables,
    constraints, transcription}, U (nu × N × m input values at ``u_tau``).
    """

    def __init__(self, problem, t, X, U, u_tau, T, p, cost, stats, multipliers):
        self.problem, self.system = problem, problem.system
        self.t, self.X, self.U, self.u_tau = t, X, U, np.asarray(u_tau, float)
        self.T, self.p, self.cost = float(T), np.asarray(p, float).ravel(), float(cost)
        self.stats, self.multipliers = stats, multipliers
        s = self.system
        self.free_parameters = {n: float(self.p[s.p_names.index(n)])
                                for n in problem.free_params}
        self.check_result: Check | TrackingCheck | None = None

    @functools.cached_property
    def trajectory(self) -> Result:
        """Every series on the node grid (outputs and energies evaluated from the states):
        computed on first use, not per solve (an MPC step reads only X and U; evaluating them
        took 4 ms per Talos arm step)."""
        return Result.from_states(self.system, self.t, self.X, self.inputs_at(self.t), self.p)

    @property
    def success(self) -> bool:
        """True when IPOPT reports success."""
        return bool(self.stats["success"])

    def __getitem__(self, name: str) -> np.ndarray:
        return self.trajectory[name]

    def inputs_at(self, times) -> np.ndarray:
        """nu × n inputs at the times [s], as parametrized by the transcription."""
        times = np.atleast_1d(np.asarray(times, float))
        N, h = self.U.shape[1], self.T / self.U.shape[1]
        s = (times - self.t[0]) / h
        # a node time must fall in the interval it starts: t_k = t0 + k·h computed in floating
        # point may land a few ulps below k, which would pick interval k−1's input
        s = np.where(np.abs(s - np.round(s)) < 1e-9 * np.maximum(1.0, np.abs(s)), np.round(s), s)
        k = np.clip(np.floor(s).astype(int), 0, N - 1)
        tau = s - k
        basis = np.array(lagrange_basis(tau, self.u_tau)).reshape(self.u_tau.size, -1)
        return np.einsum("ikj,jk->ik", self.U[:, k, :], basis) if self.U.size else \
            np.zeros((0, times.size))

    def tracking_controller(self, Q, R, Qf=None, samples: int = 10):
        """A time-varying LQR that tracks this plan: the Riccati equation integrated
        backwards on the linearization along the plan, in minimal coordinates; Q weights the
        tracking error states (coordinates, quaternions as rotation vectors, speeds), R the
        inputs, Qf the final error (default: the LQR cost-to-go when the plan ends at an
        equilibrium); ``samples`` gains per interval. Use it as ``check(controller=...)``,
        ``system.simulate(..., controller=...)`` or ``jd.close_loop``. See
        :mod:`jourdain.solver.control.tracking`."""
        return tracking_controller(self, Q, R, Qf, samples)

    def check(self, rtol: float = 1e-10, atol: float = 1e-10, samples: int = 8,
              controller=None, t_end: float | None = None,
              initial: dict | None = None) -> Check | TrackingCheck:
        """Re-simulate the optimal inputs with CVODES (``samples`` outputs per interval) and
        compare with the plan at the nodes; stored in ``check_result`` and returned.

        With a ``controller`` (e.g. :meth:`tracking_controller`) the plan is re-simulated
        closed loop instead, until ``t_end`` (default: the plan's end), from the plan's
        initial state with the entries of ``initial`` replaced (a perturbed start); a
        :class:`~jourdain.solver.optimal.tracking.TrackingCheck` is returned."""
        s, N = self.system, self.U.shape[1]
        rtol = number(rtol, "Solution.check: rtol", 0.0, 1.0, open_low=True, open_high=True)
        atol = number(atol, "Solution.check: atol", 0.0, open_low=True)
        samples = count(samples, "Solution.check: samples")
        if controller is not None or t_end is not None or initial is not None:
            if controller is None:
                raise ModelError("Solution.check: t_end and initial apply to a closed-loop "
                                 "check; give controller=solution.tracking_controller(Q, R)")
            self.check_result = check_tracking(self, controller, rtol, atol, samples, t_end,
                                               initial)
            return self.check_result
        F = _interval_integrator(s, self.u_tau, samples, rtol, atol)
        h = self.T / N
        pars = [ca.vertcat(ca.vec(ca.DM(self.U[:, k, :].T)), self.p, self.t[0] + k * h, h)
                for k in range(N)]
        local = F.map(N)(ca.DM(self.X[:, :-1]), ca.horzcat(*pars))
        local_end = np.array(local)[:, samples - 1::samples]
        x, dense = self.X[:, 0], [self.X[:, :1]]
        for k in range(N):
            xs = np.array(F(x, pars[k]))
            dense.append(xs)
            x = xs[:, -1]
        dense = np.hstack(dense)
        t_dense = self.t[0] + np.linspace(0.0, self.T, N * samples + 1)
        sim = Result.from_states(s, t_dense, dense, self.inputs_at(t_dense), self.p)
        nodes = dense[:, ::samples]
        open_loop = np.abs(nodes - self.X).max(axis=1)
        loc = np.abs(local_end - self.X[:, 1:]).max(axis=1)
        self.check_result = Check(dict(zip(s.x_names, open_loop)), dict(zip(s.x_names, loc)),
                                  sim)
        return self.check_result

    def report(self) -> str:
        """Status, cost, iterations, times, horizon, free parameters and the check."""
        st = self.stats
        lines = [f"trajectory optimization ({st['transcription']}): {st['status']}",
                 f"  cost {self.cost:.8g}, horizon T = {self.T:.6g} s, "
                 f"{st['iterations']} iterations, solve {st['solve_time']:.3f} s, "
                 f"build {st['build_time']:.3f} s",
                 f"  NLP: {st['variables']} variables, {st['constraints']} constraints"]
        lines += [f"  parameter {n} = {v:.6g}" for n, v in self.free_parameters.items()]
        if self.check_result is not None:
            lines.append(str(self.check_result))
        return "\n".join(lines)

    def plot(self, *names: str, t_range=None, title: str | None = None,
             path: str | Path | None = None):
        """Planned trajectories (markers at the nodes) and, after :meth:`check`, the
        re-simulated ones (dashed); default names: states and inputs; y labels with units,
        ``t_range`` = (t0, t1) [s]; saved to ``path`` if given (``~`` expanded). Returns the
        figure; the matplotlib backend is left alone."""
        names = list(names or self.system.x_names + self.system.u_names)
        for n in names:
            if n not in self.trajectory.series:
                self.trajectory[n]                       # raises with close matches
        t_fine = self.t[0] + np.linspace(0.0, self.T, 20 * (len(self.t) - 1) + 1)
        u_fine = self.inputs_at(t_fine)
        sim = self.check_result.simulated if self.check_result is not None else None
        units = self.trajectory.units
        groups = panels_by_unit(names, units)
        panels = []
        for group in groups:
            lines = []
            for name in group:
                if name in self.system.u_names:
                    x, y, fmt = t_fine, u_fine[self.system.u_names.index(name)], "-"
                else:
                    x, y, fmt = self.t, self[name], ".-"
                mask = window(x, t_range)
                lines.append(Line(f"{name} (plan)", x[mask], y[mask], fmt, {"ms": 3}))
                if sim is not None and name in sim.series:
                    mask = window(sim.t, t_range)
                    lines.append(Line(f"{name} (re-simulated)", sim.t[mask], sim[name][mask],
                                      "--"))
            panels.append(lines)
        return draw(panels, [units.get(g[0], "") for g in groups], "t [s]",
                    title or f"optimal trajectory, cost {self.cost:.5g}", path)

    def animate(self, path=None, **options):
        """The planned motion in 3-D (.html), as GIF or MP4; see
        :func:`jourdain.solver.visual.animate.animate`."""
        return animate(self, path, **options)

    def __repr__(self) -> str:
        st = self.stats
        return (f"<Solution ({st['transcription']}): {st['status']}, cost {self.cost:.6g}, "
                f"T = {self.T:.6g} s, {st['iterations']} iterations>")

    def _repr_html_(self) -> str:
        units = self.trajectory.units
        rows = [[n, tables.unit(units.get(n, "")), self[n][0], self[n][-1]]
                for n in self.system.x_names + self.system.u_names]
        text = self.report().splitlines()
        return tables.section(text[0], text[1:], [tables.table(
            "trajectories", ["name", "unit", "initial", "final"], rows, (2, 3))])


def _interval_integrator(system, u_tau: np.ndarray, samples: int, rtol: float,
                         atol: float) -> ca.Function:
    """x(τ_i), i = 1 … samples on [0, 1] of dx/dτ = h·f(t_k + τ·h, x, u(τ), p) with
    u(τ) = Σ_j ℓ_j(τ)·U_j; parameters (U (m·nu, interval-major), p, t_k, h)."""
    nu, m = len(system.u_names), u_tau.size
    tau, x = ca.SX.sym("tau"), ca.SX.sym("x", system.nx)
    U, p = ca.SX.sym("U", nu * m), ca.SX.sym("p", len(system.p_names))
    tk, h = ca.SX.sym("t_k"), ca.SX.sym("h")
    values = ca.reshape(U, m, nu).T if nu else ca.SX(0, m)
    u = sum((values[:, j] * b for j, b in enumerate(lagrange_basis(tau, u_tau))),
            ca.SX.zeros(nu))
    dae = {"t": tau, "x": x, "p": ca.vertcat(U, p, tk, h), "ode": h * dynamics(system)(tk + tau * h, x,
                                                                              u, p)}
    grid = np.linspace(0.0, 1.0, samples + 1)[1:]
    integ = ca.integrator("recheck", "cvodes", dae, 0.0, grid,
                          {"reltol": rtol, "abstol": atol, "max_num_steps": 100000, **SUNDIALS})
    x0, par = ca.MX.sym("x0", system.nx), ca.MX.sym("par", dae["p"].numel())
    return ca.Function("interval", [x0, par], [integ(x0=x0, p=par)["xf"]], ["x0", "par"], ["x"])
