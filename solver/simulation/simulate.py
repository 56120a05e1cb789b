"""Consumer: simulation with CVODES (SUNDIALS, through CasADi's integrator).

Inputs are given by name as constants, callables of time or time tables (t, values); tables
and callables become piecewise-linear interpolants of t (CasADi ``interpolant``, binary
search) inside the integrated ODE, so CVODES steps freely and nothing calls back into Python
during integration.
"""
from __future__ import annotations

from enum import Enum

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError, SimulationError

from ..model.names import unknown
from ..model.numerics import SUNDIALS
from .result import Result


class Method(Enum):
    """CVODES multistep method."""

    BDF = "bdf"      # backward differentiation + Newton: robust for stiff models (default)
    ADAMS = "adams"  # Adams–Moulton + functional iteration: no Jacobian, fast when non-stiff


INPUT_SAMPLES = 2001  # samples of a callable input over the horizon (piecewise-linear)


def simulate(system, t_end: float, y0: dict | None = None, z0: dict | None = None,
             inputs: dict | None = None, params: dict | None = None, t0: float = 0.0,
             n_out: int = 501, t_out=None, rtol: float = 1e-8, atol: float = 1e-8,
             max_steps: int = 100000, method: Method = Method.BDF,
             x0: np.ndarray | None = None) -> Result:
    """Integrate the system from t0 to t_end and return a Result on the output grid.

    y0, z0 : initial coordinates and speeds by name (missing ones are 0).
    inputs : {input name: constant | callable(t) | (t_samples, values)}; unset inputs are 0.
        A callable is sampled at INPUT_SAMPLES points and interpolated linearly.
    params : values of the symbolic parameters by name (others keep their defaults).
    n_out / t_out : number of equally spaced output times, or the output times themselves.
    method : Method.BDF (default, stiff-safe) or Method.ADAMS (non-stiff mechanisms: chains,
        pendulums; avoids forming the Jacobian).
    x0 : a complete initial state (instead of y0, z0), e.g. one assembled by a constrained
        system.
    """
    grid = _grid(t0, t_end, n_out, t_out)
    x0 = system.state(y0, z0) if x0 is None else np.asarray(x0, dtype=float)
    p = system.parameters(params)
    # SX when possible (the interpolants enter as call nodes): CVODES then runs the expanded
    # expression graph, about 3× faster than an MX graph wrapping the same function. MX only
    # when f embeds a rootfinder (closed loops), which SX cannot hold, or is compiled C code
    # (System.codegen), which is called, not expanded.
    sym = ca.SX if system.f.is_a("SXFunction") else ca.MX
    t, x, pp = sym.sym("t"), sym.sym("x", system.nx), sym.sym("p", len(p))
    u = _input_expressions(system, inputs or {}, grid, t)
    dae = {"t": t, "x": x, "p": pp, "ode": system.f(t, x, u, pp)}
    if not isinstance(method, Method):
        raise ModelError(f"simulate: method must be a jd.Method, got {method!r}")
    opts = {"reltol": rtol, "abstol": atol, "max_num_steps": max_steps, **SUNDIALS}
    if method is Method.ADAMS:
        opts.update(linear_multistep_method="adams", nonlinear_solver_iteration="functional")
    integ = ca.integrator("simulate", "cvodes", dae, grid[0], grid, opts)
    _check_initial_state(system, x0, p)
    try:
        xs = np.array(integ(x0=x0, p=p)["xf"])
    except RuntimeError as exc:
        raise _diagnose(system, dae, grid, x0, opts, p) from exc
    us = np.array(ca.Function("u_of_t", [t], [u]).map(len(grid))(grid))
    return Result.from_states(system, grid, xs, us.reshape(len(system.u_names), len(grid)), p)


def _grid(t0: float, t_end: float, n_out: int, t_out) -> np.ndarray:
    if t_out is not None:
        grid = np.asarray(t_out, dtype=float).ravel()
        if grid.size < 2 or np.any(np.diff(grid) <= 0):
            raise ModelError("simulate: t_out must hold at least two increasing times")
        return grid
    if not t_end > t0:
        raise ModelError(f"simulate: t_end ({t_end}) must be greater than t0 ({t0})")
    if int(n_out) < 2:
        raise ModelError("simulate: n_out must be at least 2")
    return np.linspace(t0, t_end, int(n_out))


def _input_expressions(system, inputs: dict, grid: np.ndarray, t):
    """u(t): constants as numbers, tables and callables as clamped linear interpolants."""
    for name in inputs:
        if name not in system.u_names:
            raise ModelError(unknown("inputs", name, system.u_names) +
                             (" (the model has no free inputs)" if not system.u_names else ""))
    entries = []
    for name in system.u_names:
        ts, vs = _samples(name, inputs.get(name, 0.0), grid)
        if ts is None:
            entries.append(vs + 0 * t)
            continue
        table = ca.interpolant(f"input_{len(entries)}", "linear", [ts], vs)
        entries.append(table(ca.fmin(ca.fmax(t, ts[0]), ts[-1])))
    return ca.vertcat(*entries) if entries else type(t)(0, 1)


def _samples(name: str, spec, grid: np.ndarray):
    if callable(spec):
        ts = np.linspace(grid[0], grid[-1], max(INPUT_SAMPLES, 2 * grid.size))
        try:
            vs = np.array([float(spec(t)) for t in ts])
        except Exception as exc:  # the user's callable failed: say which input
            raise ModelError(f"inputs: calling the function given for '{name}' failed: {exc}") \
                from exc
        return ts, vs
    if isinstance(spec, (tuple, list)) and len(spec) == 2:
        ts, vs = (np.asarray(a, dtype=float).ravel() for a in spec)
        if ts.size < 2 or ts.size != vs.size or np.any(np.diff(ts) <= 0):
            raise ModelError(f"inputs: the table for '{name}' needs increasing times and as many "
                             "values as times")
        return ts, vs
    try:
        return None, float(spec)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"inputs: '{name}' must be a number, a callable of t or a (t, values) "
                         f"table, got {spec!r}") from exc


def _check_initial_state(system, x0: np.ndarray, p: np.ndarray) -> None:
    ny = len(system.y_names)
    mass = np.array(system.M(x0[:ny], p))
    if mass.size and np.linalg.eigvalsh(0.5 * (mass + mass.T))[0] <= 1e-14 * max(1, np.abs(mass).max()):
        raise ModelError("the mass matrix is singular at the initial state "
                         f"{dict(zip(system.y_names, x0[:ny]))}; choose another configuration")


def _diagnose(system, dae, grid, x0, opts, p) -> SimulationError:
    """Re-run interval by interval to find where the integrator failed, and say why."""
    x, t_ok, failure = np.asarray(x0, dtype=float), grid[0], ""
    for ta, tb in zip(grid[:-1], grid[1:]):
        try:
            step = ca.integrator("probe", "cvodes", dae, ta, [tb], opts)
            x = np.array(step(x0=x, p=p)["xf"]).ravel()
            t_ok = tb
        except RuntimeError as exc:
            failure = str(exc)
            break
    state = ", ".join(f"{n}={v:.6g}" for n, v in zip(system.x_names, x))
    mass = np.array(system.M(x[:len(system.y_names)], p))
    cond = np.linalg.cond(mass) if mass.size else 1.0
    # With coordinate partitioning the only part of f that can fail (rather than return NaN)
    # is the Newton solve for the dependent coordinates (solver/assembly.py).
    if "RHSFUNC_FAIL" in failure and "project" in system.functions:
        return SimulationError(
            f"integration failed after t = {t_ok:.6g} s (last good state: {state}): Newton "
            "found no dependent coordinates " + ", ".join(system.dependent_coordinates) +
            " for the independent ones; likely cause: a singular position of the partition "
            "(e.g. a crank at a dead point); use ConstraintMethod.DAE or BAUMGARTE, or keep "
            "another joint speed independent with speeds=")
    cause = ("the mass matrix is nearly singular there (condition number "
             f"{cond:.3g})") if cond > 1e10 else (
        "the motion is very fast or stiff there (large speeds, stiff springs or a small "
        "Coulomb regularization w_eps); try a looser tolerance, more steps or smaller inputs")
    return SimulationError(f"integration failed after t = {t_ok:.6g} s (last good state: "
                           f"{state}); likely cause: {cause}")
