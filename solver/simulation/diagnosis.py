"""What went wrong in a simulation, said in the model's names: checks of the initial state
before CVODES starts (user speed definitions, mass matrix, a finite state derivative), the
diagnosis of an integrator failure, and the check that user-chosen speeds stay independent
along the motion (an integrator can step over a singular W(y) with a degraded answer).

Order of the diagnosis: non-finite values first (naming the derivative that is NaN or inf),
then singular speed definitions W(y) (naming the speeds), then a nearly singular mass matrix,
and only then "fast or stiff".
"""
from __future__ import annotations

import re

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError, SimulationError

SINGULAR = 1e10   # condition number beyond which a matrix counts as singular


def check_initial_state(system, t0: float, x0: np.ndarray, u0: np.ndarray,
                        p: np.ndarray) -> None:
    """A ModelError if the user speeds are dependent, the mass matrix is singular, or the
    state derivative is not finite at the initial state, naming the speeds or states."""
    ny = len(system.y_names)
    at = "at the initial state (" + _values(system.y_names, x0[:ny]) + ")"
    dependent = singular_speeds(system, x0[:ny])
    if dependent:
        raise ModelError(f"the speed definitions of {', '.join(dependent)} are singular {at}: "
                         "W(y) in z = W(y)·w loses rank there, so these speeds cannot describe "
                         "the motion; start elsewhere or choose speeds that stay independent")
    mass, names = free_mass(system, x0[:ny], p)
    if mass.size:
        idle = _null_speeds(mass, names)
        if idle:
            raise ModelError(f"the mass matrix is singular {at}: speed(s) {', '.join(idle)} "
                             "move no mass or inertia there; choose another configuration")
    try:
        xdot = np.array(system.f(t0, x0, u0, p), dtype=float).ravel()
    except RuntimeError:   # a Newton projection that fails: the integrator diagnoses it
        return
    bad = not_finite(system, xdot)
    if bad:
        raise ModelError(f"the state derivative is not finite {at}: {bad}; an expression of "
                         "the model fails there (a division by zero, a square root of a "
                         "negative number); choose another initial state")


def free_mass(system, y: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """(M, names) over the speeds that keep an equation of motion: a kinematic driver's
    speed is prescribed, its row of M·ż = q − k is dropped (it gives the driver's reaction),
    so a driven joint that moves no mass (a pointer on a driven dial) is no singular M. Where
    a shaft's mass comes only through a LossyGear's teeth, M augmented by the always-active
    rows (``M_rows``, solver/hybrid/massless.py) is what the equations factorize."""
    rows = system.functions.get("M_rows")
    mass = np.array(rows(y, p) if rows is not None else system.M(y, p), dtype=float)
    driven = set(getattr(system, "prescribed_speeds", []))
    free = [k for k in range(len(system.z_names)) if k not in driven]
    return mass[np.ix_(free, free)], [system.z_names[k] for k in free]


def singular_speeds(system, y: np.ndarray, limit: float = SINGULAR) -> list[str]:
    """The user-chosen speeds whose definitions z = W(y)·w are dependent at y (none for
    joint speeds, which have no W)."""
    if "W" not in system.functions:
        return []
    W = np.array(system.functions["W"](y), dtype=float)
    if np.all(np.isfinite(W)) and np.linalg.cond(W) < limit:
        return []
    if not np.all(np.isfinite(W)):
        rows = np.flatnonzero(~np.isfinite(W).all(axis=1))
    else:
        left = np.linalg.svd(W)[0][:, -1]   # the dependent combination of the rows
        rows = np.flatnonzero(np.abs(left) > 1e-6)
    return [system.z_names[i] for i in rows]


def not_finite(system, xdot: np.ndarray) -> str:
    """"d(name)/dt = nan, ..." for the non-finite entries of ẋ, or ""."""
    bad = np.flatnonzero(~np.isfinite(xdot))
    return ", ".join(f"d({system.x_names[i]})/dt = {xdot[i]}" for i in bad[:4])


def _null_speeds(mass: np.ndarray, names: list[str]) -> list[str]:
    if not np.all(np.isfinite(mass)):
        return [names[i] for i in np.flatnonzero(~np.isfinite(mass).all(axis=1))]
    eig, vec = np.linalg.eigh(0.5 * (mass + mass.T))
    k = int(np.argmin(np.abs(eig)))   # regular is what the equations need (functions.py)
    if abs(eig[k]) > 1e-14 * max(1.0, float(np.abs(mass).max())):
        return []
    return [names[i] for i in np.flatnonzero(np.abs(vec[:, k]) > 1e-6)]


def _values(names: list[str], values: np.ndarray) -> str:
    return ", ".join(f"{n} = {v:.6g}" for n, v in zip(names, values))


def diagnose(system, dae: dict, grid: np.ndarray, x0: np.ndarray, opts: dict, p: np.ndarray,
             us: np.ndarray) -> SimulationError:
    """Re-run interval by interval to find where the integrator failed, and say why."""
    x, k, failure = np.asarray(x0, dtype=float), 0, ""
    for k, (ta, tb) in enumerate(zip(grid[:-1], grid[1:])):
        try:
            step = ca.integrator("probe", "cvodes", dae, ta, [tb], opts)
            x = np.array(step(x0=x, p=p)["xf"]).ravel()
        except RuntimeError as exc:
            failure = str(exc)
            break
    else:
        k = len(grid) - 1
    t_ok = grid[k]
    head = (f"integration failed after t = {t_ok:.6g} s (last good state: "
            + ", ".join(f"{n}={v:.6g}" for n, v in zip(system.x_names, x)) + ")")
    # With coordinate partitioning the only part of f that can fail (rather than return NaN)
    # is the Newton solve for the dependent coordinates (constraints/assembly.py).
    if "RHSFUNC_FAIL" in failure and "project" in system.functions:
        return SimulationError(
            head + ": Newton found no dependent coordinates " +
            ", ".join(system.dependent_coordinates) + " for the independent ones; likely "
            "cause: a singular position of the partition (e.g. a crank at a dead point); use "
            "ConstraintMethod.DAE or BAUMGARTE, or keep another joint speed independent with "
            "speeds=")
    if ("RHSFUNC_FAIL" in failure or "rootfinder" in failure) and _acausal_loops(system):
        return SimulationError(
            head + ": Newton's iteration inside f found no solution of the nonlinear acausal "
            f"equations of {_acausal_loops(system)} (dots written as _); likely cause: start "
            "values far from the solution or a law that is not monotone along the iteration; "
            "give the components' variables better start() values, or write the law in the "
            "direction that is monotone (docs/acausal.md, Limits)")
    return SimulationError(f"{head}; likely cause: {_cause(system, t_ok, x, us[:, k], p)}")


def _acausal_loops(system) -> str:
    """The components of the acausal loops solved by Newton inside f, from the names of its
    rootfinders (``acausal_loop_<n>_in_<a>_and_<b>``, solver/acausal/eliminate.py)."""
    try:
        names = [fn.name() for fn in system.functions["f"].find_functions()]
    except (AttributeError, RuntimeError, KeyError):
        return ""
    found = [re.match(r"acausal_loop_\d+(?:_in_(\w+))?$", n) for n in names]
    comps = [m.group(1).replace("_and_", ", ") for m in found if m and m.group(1)]
    return "; ".join(dict.fromkeys(comps))


def _cause(system, t: float, x: np.ndarray, u: np.ndarray, p: np.ndarray) -> str:
    """The likely cause of a failure at (t, x): non-finite derivative, singular speeds,
    nearly singular mass matrix, or fast/stiff motion."""
    ny = len(system.y_names)
    try:
        xdot = np.array(system.f(t, x, u, p), dtype=float).ravel()
    except RuntimeError:
        xdot = np.zeros(system.nx)
    bad = not_finite(system, xdot)
    dependent = singular_speeds(system, x[:ny], limit=1e8)
    if dependent:
        return (f"the speed definitions of {', '.join(dependent)} become singular there "
                "(W(y) in z = W(y)·w loses rank); choose speeds that stay independent over "
                "the motion, e.g. the joint speeds")
    if bad:
        return (f"the state derivative is not finite there ({bad}): an expression of the "
                "model fails (a division by zero, a square root of a negative number)")
    mass, _ = free_mass(system, x[:ny], p)
    cond = np.linalg.cond(mass) if mass.size and np.all(np.isfinite(mass)) else 1.0
    if cond > SINGULAR:
        return f"the mass matrix is nearly singular there (condition number {cond:.3g})"
    return ("the motion is very fast or stiff there (large speeds, stiff springs or a small "
            "Coulomb regularization w_eps); try a looser tolerance, more steps or smaller "
            "inputs")


def check_speed_definitions(system, result, p: np.ndarray) -> None:
    """A SimulationError (holding the result as ``.result``) when user-chosen speeds became
    dependent along the motion: det W(y) changes sign between two output times or W is
    singular at one; the integrator may have stepped over it with a degraded answer."""
    if "W" not in system.functions:
        return
    ny, n = len(system.y_names), result.t.size
    Ws = np.array(system.functions["W"].map(n)(result.x[:ny]), dtype=float)
    nz = len(system.z_names)
    Ws = Ws.reshape(nz, n, nz).transpose(1, 0, 2) if nz else Ws
    det = np.array([np.linalg.det(W) for W in Ws])
    crossed = np.flatnonzero((np.sign(det[:-1]) != np.sign(det[1:])) | ~np.isfinite(det[1:]))
    if not crossed.size:
        return
    k = int(crossed[0])
    near = k if abs(det[k]) < abs(det[k + 1]) else k + 1
    names = singular_speeds(system, result.x[:ny, near], limit=0.0) or system.z_names
    ends = [f"{result.t[i]:.6g} s (" + _values(system.y_names, result.x[:ny, i]) + ")"
            for i in (k, k + 1)]
    error = SimulationError(
        f"the speed definitions of {', '.join(names)} became singular between t = {ends[0]} "
        f"and {ends[1]}: det W(y) in z = W(y)·w changes sign there; the integrator stepped "
        "over it, so the result is not reliable from there on; choose speeds that stay "
        "independent over the motion, e.g. the joint speeds (the result is in this error's "
        ".result)")
    error.result = result
    raise error
