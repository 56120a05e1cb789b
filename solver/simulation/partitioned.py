"""Consumer: simulation of a partitioned ConstrainedSystem, with its conditioning and the Newton
projection's drift watched, and the partition switched where it degrades (dynamic state
selection, :mod:`jourdain.solver.constraints.repartition`).

The event. CVODES integrates, in one call over the output grid, the state x with one extra
state b, the lag of the mechanism's own time τ = t − b behind the integrator's t:

    ẋ = H·f(τ, x, u(τ)),   ḃ = 1 − H,   H = h(ν/ν_s)·h(d/D) ∈ [0, 1],

with ν the partition's conditioning at the integrated coordinates, ν_s its switch level, d the
largest move of the Newton projection away from the integrated dependent coordinates,
D = DRIFT_STALL, and h a smooth step from 1 (ratio ≤ 1) to 0 (ratio ≥ 2). In τ this is exactly
the mechanism's ODE (a change of time scale), so every output is a point of the true
trajectory at time τ; while H = 1 the lag stays exactly 0 and the outputs are at their grid
times. Where the partition degrades, H falls, the motion in t slows down and stops before
ν reaches 2·ν_s (f is not even evaluated beyond: Newton near a singular partition could
fail). The first output with a lag is where the mechanism stopped: there the simulation
picks a better partition (or raises), maps the state and continues from τ. A drift stop
(Newton moving the dependent coordinates by more than D from their integrated values, which
differ by the integration error only) restarts from the projected coordinates; a Newton
jump to another assembly branch in a trial step becomes a discontinuity that CVODES rejects.

Results. Every output is reported in the user's names: the full y (projected), every joint
speed w = G(y)·z, and the compiled System's speeds z (single joint speeds, so always defined);
``Result.x`` holds (y, z, s) of the compiled System, and ``Result.switches`` each switch.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import SimulationError

from ..constraints.assembly import NEWTON_CHECK
from ..constraints.partition import HYSTERESIS, NU_RATIO, NU_SWITCH
from ..constraints.repartition import NU_SINGULAR, PartitionSwitch
from .diagnosis import _values, check_initial_state
from .progress import Watch
from .result import Result
from .inputs import InputSignals
from .integrators import INLINE_OPS, with_jacobian
from .passage import (PASS_CLOSER, PASS_FLOOR, PASS_RELEVEL, PASS_SIGMA, distance,
                      pass_singular)
from .simulate import Method, integrator_options

NEAR_SINGULAR = 10.0   # ν within this factor of NU_SINGULAR at a failed step: the singularity

DRIFT_STALL = 1e-3     # [m, rad]: Newton's move from the integrated dependent coordinates
LAG_TOL = 1e-12        # [s per s of t]: lag of τ behind t still counted as none
LAG_FREEZE = 1e-3      # lag, in output intervals, beyond which a stopped segment freezes
MAX_SEGMENTS = 1000    # restarts before the switching is declared chattering
PROJECT_ROUNDS = 10    # rounds of Newton's fixed steps when re-projecting at a stop


def simulate_partitioned(system, grid: np.ndarray, x0: np.ndarray, inputs: dict,
                         p: np.ndarray, rtol: float, atol: float, max_steps: int,
                         method: Method, progress: bool | None = None,
                         max_step: float | None = None) -> Result:
    """Integrate a partitioned ConstrainedSystem over ``grid`` from x0 (module docstring);
    ``progress`` other than False shows an elapsed-time bar on long segments (no pieces:
    the segments are the watch's own)."""
    bank = system.partitions
    # kept for the whole run: a callable input's Callback lives in it (CasADi holds only a
    # reference that dies with the Python object)
    signals = InputSignals(system, inputs)
    u_fn = signals.function()   # SX call nodes unless a callable

    opts = integrator_options(rtol, atol, max_steps, method, max_step=max_step)
    t_a = float(grid[0])
    model, x_a, switches = _start(system, t_a, _projected(bank.initial, x0, p), p)
    check_initial_state(model, t_a, x_a, np.array(u_fn(t_a), dtype=float).ravel(), p)
    level = base = _level(model, x_a, p)
    segments, odes, counts = [(model, [t_a], [x_a])], {}, {}
    for _ in range(MAX_SEGMENTS):
        outs = grid[grid > t_a]
        if outs.size == 0:
            break
        watch = _watch(model, x_a, p, level, np.diff(np.append(t_a, outs)).min())
        with Watch(progress is not False, "simulate"):
            xs, lag = _integrate(system, model, u_fn, t_a, x_a, outs, p, watch, opts, odes,
                                 counts)
        k = _first_lagging(outs, lag)
        segments[-1][1].extend(outs[:k])
        segments[-1][2].extend(xs[:, :k].T)
        if k == outs.size:
            break
        t_a, x_a = float(outs[k] - lag[k]), _projected(model, xs[:, k], p)
        _check_converged(model, t_a, x_a, p)
        _check_side(model, t_a, x_a, p, watch)
        decided = _decide(system, model, t_a, x_a, p, level, base)
        if decided is None:   # the mechanism's singular configuration: pass it, or stop
            t_stop, x_stop, nu = t_a, x_a, _nu(model, x_a, p)
            passed = pass_singular(
                system, model, t_a, x_a, p, u_fn, rtol, atol,
                lambda: _singular(system, model, t_stop, x_stop, p),
                nu >= NU_SINGULAR or distance(system.partitions, model.partition,
                                              x_a[:len(model.y_names)], p) <= PASS_FLOOR)
            if passed is None:   # not accurate there: come closer, try again
                counts["passage_retries"] = counts.get("passage_retries", 0) + 1
                level = PASS_CLOSER * nu
                continue
            new, t_a, x_a, passage, taylor = passed
            counts.setdefault("singular_passages", []).append(passage)
            switch = _switch(model, new, t_stop, passage.nu, passage.nu_after,
                             system.partitions) if new is not model else None
            # the watch level just above the landing's ν (NU_RATIO times it would let the next
            # crossing come closer than PASS_SIGMA, where the rates lose accuracy)
            level = base = max(NU_SWITCH, PASS_RELEVEL * passage.nu_after)
            if switch is not None:
                segments.append((new, [], []))
            for t in grid[(grid > t_stop) & (grid <= t_a)]:   # outputs stepped over
                segments[-1][1].append(float(t))
                segments[-1][2].append(taylor(float(t) - t_stop))
        else:
            new, x_a, level, base, switch = decided
        if switch is not None:
            switches.append(switch)
            if segments[-1][0] is not new:
                segments.append((new, [], []))
        model = new
    else:
        raise SimulationError(f"the partition switched {MAX_SEGMENTS} times before t = "
                              f"{t_a:.6g} s (chattering between partitions); use "
                              "ConstraintMethod.DAE")
    res = _result(system, segments, u_fn, p, switches)
    res.stats = counts
    return res


def _start(system, t: float, x: np.ndarray, p: np.ndarray):
    """(partition, state, switches) to begin with: the compiled partition while acceptable at
    x0 (ν at most NU_SWITCH or NU_RATIO times the best one's that keeps the user's speeds
    independent), else that best (a start near a dead point of the compiled partition)."""
    model, ny = system.partitions.initial, len(system.y_names)
    nu = float(model.conditioning(x[:ny], p)[0])
    if nu <= NU_SWITCH:
        return model, x, []
    bank = system.partitions
    if nu >= NU_SINGULAR and np.any(x[ny:ny + len(model.z_names)] != 0.0):
        raise _incomplete_start(bank, model, x[:ny], nu)
    part = bank.candidate(x[:ny], p, model.partition, strict=True)
    nu_new = bank.nu(part, x[:ny], p) if part is not None else np.inf
    if nu <= max(NU_SWITCH, NU_RATIO * nu_new):
        return model, x, []
    new = bank.model(part)
    return new, _mapped(model, new, x, p), [_switch(model, new, t, nu, nu_new, bank)]


def _incomplete_start(bank, model, y: np.ndarray, nu: float) -> SimulationError:
    """The compiled partition is singular at y: the given speeds do not determine the
    dependent ones (completing them would give ~1/ν-sized garbage, which used to be mapped to
    a new partition and fail after a long stiff run)."""
    names = [bank.speed_names[j] for j in model.partition.dependent_speeds]
    return SimulationError(
        f"the initial speeds {', '.join(model.z_names)} do not determine the dependent speeds "
        f"{', '.join(names)} at the initial configuration ({_values(model.y_names, y)}): the "
        f"closure constraints lose rank in those speeds there (partition conditioning ν = "
        f"{nu:.3g}); start at rest there, start at another configuration, or compile with "
        "speeds={...} naming joint speeds that stay independent there (or use "
        "ConstraintMethod.DAE with all joint speeds given)")


def _projected(model, x: np.ndarray, p: np.ndarray) -> np.ndarray:
    """x with the dependent coordinates projected: Newton's fixed steps repeated until the
    closure residual is below NEWTON_CHECK (a restart after a Newton stop), else as far as
    they get (the monitor then stops at once and the failure is reported there)."""
    x = np.asarray(x, dtype=float).copy()
    if "project" not in model.functions:
        return x
    ny = len(model.y_names)
    # already closed: keep x. Newton's fixed steps always step, and where the partition is
    # singular (a start at a dead point, which _start must see as such) a step from a closed
    # configuration solves with a singular matrix
    c = model.functions.get("c")
    if c is not None and np.abs(np.array(c(x[:ny], p), dtype=float)).max(initial=0.0) \
            <= NEWTON_CHECK:
        return x
    for _ in range(PROJECT_ROUNDS):
        y, residual = (np.array(v, dtype=float).ravel() for v in model.newton(x[:ny], p))
        x[:ny] = y
        if residual[0] <= NEWTON_CHECK:
            break
    return x


def _check_converged(model, t: float, x: np.ndarray, p: np.ndarray) -> None:
    """After re-projecting at a stop the closure residual must be below NEWTON_CHECK."""
    if "newton" not in model.functions:
        return
    ny = len(model.y_names)
    residual = float(np.array(model.newton(x[:ny], p)[1]).ravel()[0])
    if not residual <= NEWTON_CHECK:
        nu = float(model.conditioning(x[:ny], p)[0])
        raise SimulationError(
            f"at t = {t:.6g} s Newton found no dependent coordinates " +
            ", ".join(model.y_names[i] for i in model.partition.dependent_coordinates) +
            f" for the independent ones (closure residual {residual:.3g} after "
            f"{PROJECT_ROUNDS} rounds; partition conditioning ν = {nu:.3g}); likely cause: "
            "the motion is too fast for the tolerances (tighten rtol/atol) or the mechanism "
            "leaves its assembly; ConstraintMethod.DAE integrates without Newton")


def _level(model, x: np.ndarray, p: np.ndarray) -> float:
    """The switch level of a partition taking over at x."""
    ny = len(model.y_names)
    return max(NU_SWITCH, NU_RATIO * float(model.conditioning(x[:ny], p)[0]))


def _watch(model, x: np.ndarray, p: np.ndarray, level: float, spacing: float) -> np.ndarray:
    """The segment's watch parameters: the switch level, the lag at which everything freezes
    (LAG_FREEZE of the smallest output interval) and the signs of det(Â_dep) where it starts
    (the side of the partition's singular set the motion must stay on)."""
    ny = len(model.y_names)
    signs = np.sign(np.array(model.conditioning(x[:ny], p)[1]).ravel())
    return np.concatenate([[level, LAG_FREEZE * spacing], signs])


def _first_lagging(outs: np.ndarray, lag: np.ndarray) -> int:
    late = np.flatnonzero(lag > LAG_TOL * np.maximum(1.0, np.abs(outs)))
    return int(late[0]) if late.size else outs.size


def _step(r):
    """Smooth step: 1 for r ≤ 1, 0 for r ≥ 2, C¹ in between."""
    s = ca.fmin(ca.fmax(2 - r, 0), 1)
    return s * s * (3 - 2 * s)


def _watch_function(system, model) -> ca.Function:
    """The partition's watch(t, x, u, p) (constraints.methods.watch_function): the compiled C
    of the System's own partition after System.codegen, else the SX graph."""
    return system.watch if model is system.partitions.initial else model.watch


def _monitored_ode(system, model, u_fn, n_p: int) -> dict:
    """The time-warped ODE of the module docstring, with p_aug = (p, ν_s, freezing lag, signs
    of det(Â_dep) at the start): beyond the partition's singular set (a sign changed) H = 0
    as well, so a step that would jump over the thin band around it lands where nothing
    moves, and CVODES's error test rejects it."""
    ny, nx = len(model.y_names), len(model.x_names)
    n_det = model.conditioning.size1_out(1)
    watch = _watch_function(system, model)
    # SX (about 3× faster for CVODES, simulate.py) unless compiled C or a callable input
    # (a Callback, :mod:`.inputs`) is called
    sym = ca.SX if watch.is_a("SXFunction") and u_fn.is_a("SXFunction") else ca.MX
    t, xa = sym.sym("t"), sym.sym("x", nx + 1)
    pa = sym.sym("p", n_p + 2 + n_det)
    x, tau, p, level, signs = xa[:nx], t - xa[nx], pa[:n_p], pa[n_p], pa[n_p + 2:]
    out = watch(tau, x, u_fn(tau), p)
    xdot, yc = out[:nx], out[nx:nx + ny]
    residual, nu, det = out[nx + ny], out[nx + ny + 1], out[nx + ny + 2:]
    h_nu = ca.if_else(ca.mmin(signs * det) > 0, _step(nu / level), 0)
    dep = model.partition.dependent_coordinates
    drift = ca.mmax(ca.fabs(yc[dep] - x[dep])) if dep else sym(0)
    # Newton's fixed steps must have converged (else stop, re-project and go on)
    speed = h_nu * _step(drift / DRIFT_STALL) * _step(residual / NEWTON_CHECK)
    moving = ca.vertcat(speed * xdot, 1 - speed)
    # Once stopped (the lag beyond a small fraction of an output interval) nothing moves at
    # all: the rest of the grid then costs CVODES a few steps, not the slow approach to H = 0.
    go = ca.logic_and(h_nu > 0, xa[nx] < pa[n_p + 1])
    # dense branches: a structurally zero rate (a driven speed) would make the two branches'
    # sparsities differ, which CasADi's Switch cannot differentiate
    ode = ca.if_else(go, ca.densify(moving), ca.densify(ca.vertcat(sym.zeros(nx), 1)), True)
    return {"t": t, "x": xa, "p": pa, "ode": ode}


def _integrate(system, model, u_fn, t_a, x_a, outs, p, watch, opts, odes: dict,
               counts: dict):
    """(states, lags) at the output times ``outs`` > t_a; ``odes`` caches each partition's
    monitored ODE over the run (:func:`_cheap_jacobian`), ``counts`` sums CVODES's steps,
    right-hand side and Jacobian evaluations over the run (``Result.stats``)."""
    if id(model) not in odes:
        odes[id(model)] = _cheap_jacobian(_monitored_ode(system, model, u_fn, len(p)),
                                          system.partitions.solved(model.partition))
    dae = odes[id(model)]
    integ = ca.integrator("simulate", "cvodes", dae, t_a, list(outs), opts)
    try:
        xs = np.array(integ(x0=np.append(x_a, 0.0), p=np.append(p, watch))["xf"])
        raw = integ.stats()
        for key, name in (("nsteps", "steps"), ("nfevals", "rhs_evaluations"),
                          ("n_call_jacF", "jacobian_evaluations")):
            counts[name] = counts.get(name, 0) + int(raw.get(key, 0))
        counts["segments"] = counts.get("segments", 0) + 1
    except RuntimeError as exc:
        raise _failure(system, model, dae, t_a, x_a, outs, p, watch, opts, str(exc)) from exc
    return xs[:-1], xs[-1]


def _cheap_jacobian(dae: dict, solved: list[int]) -> dict:
    """``dae`` as it is when small; when large, its ODE called through a wrapper whose
    Jacobian is given (:func:`_reduced_jacobian`). CasADi forms the integrator's Jacobian
    function whenever it creates one, even for Adams, which never evaluates it; its own
    expansion of the monitored ODE grows with the square of the loops' size (N-four-bar,
    n = 20: 2.0 s per integrator, n = 40: ~10 s) and used to be paid at every stop."""
    ode = ca.Function("monitored", [dae["t"], dae["x"], dae["p"]], [dae["ode"]],
                      ["t", "x", "p"], ["ode"])
    if ode.is_a("SXFunction") and ode.n_instructions() <= INLINE_OPS:
        return dae
    rhs = with_jacobian(ode, _reduced_jacobian(ode, solved))
    t, x, pa = (ca.MX.sym(n, ode.sparsity_in(i)) for i, n in enumerate(("t", "x", "p")))
    return {"t": t, "x": x, "p": pa, "ode": rhs(t, x, pa)}


def _reduced_jacobian(ode: ca.Function, solved: list[int]) -> ca.Function:
    """∂ode/∂x by forward derivatives along every state except the coordinates Newton solves
    (``solved``), whose columns are zero: their integrated values are only Newton's first
    guess, which the projected coordinates, and so the rates, do not depend on to first
    order once Newton has converged (two steps from a guess off by the integration error ε
    leave O(ε⁴)); the monitor's factors are flat (H = 1) until the partition degrades. The
    result is BDF's modified-Newton matrix at the cost of a few evaluations of the ODE per
    Jacobian (the independent coordinates, speeds, component states and the lag) instead
    of one per state."""
    nx, n_p = ode.nnz_in(1), ode.nnz_in(2)
    cols = [j for j in range(nx) if j not in set(solved)]
    t, x, pa = (ca.MX.sym(n, ode.sparsity_in(i)) for i, n in enumerate(("t", "x", "p")))
    out = ca.MX.sym("out_ode", ca.Sparsity(nx, 1))
    seeds = ca.DM.eye(nx)[:, cols]
    fwd = ode.forward(1).map(len(cols), "serial")(t, x, pa, ca.MX(nx, 1),
                                                  ca.DM(1, len(cols)), seeds,
                                                  ca.DM(n_p, len(cols)))
    place = ca.DM(ca.Sparsity.triplet(len(cols), nx, list(range(len(cols))), cols),
                  [1.0] * len(cols))
    return ca.Function("jac_monitored", [t, x, pa, out],
                       [ca.MX(nx, 1), ca.mtimes(fwd, place), ca.MX(nx, n_p)],
                       ["t", "x", "p", "out_ode"], ["jac_ode_t", "jac_ode_x", "jac_ode_p"])


def _decide(system, model, t, x, p, level, base):
    """At a stop: (partition, state, switch level, base level, switch or None) to continue
    with. ``base`` is the level the partition took over with: a new partition must be better
    than that (and HYSTERESIS times better than the current one), else the stop is the
    mechanism's own singularity coming near (every partition degrades: a bifurcation), where
    the current partition goes on, at a raised level, until σ (:func:`.passage.distance`)
    falls to PASS_SIGMA; None there (the singular configuration, which :mod:`.passage`
    passes or refuses)."""
    ny = len(model.y_names)
    nu = float(model.conditioning(x[:ny], p)[0])
    if nu < level:   # a drift stop, or ν came back down: continue, projected
        return model, x, level, base, None
    bank = system.partitions
    part = bank.candidate(x[:ny], p, model.partition)
    nu_new = bank.nu(part, x[:ny], p) if part is not None else np.inf
    if nu_new < base and HYSTERESIS * nu_new <= nu:
        new = bank.model(part)
        x_new = _mapped(model, new, x, p)
        level = _level(new, x_new, p)
        return new, x_new, level, level, _switch(model, new, t, nu, nu_new, bank)
    if _blocked_by_drivers(bank, model, x[:ny], p, nu, base):
        raise bank.singular_error(t, x[:ny], p, model.partition, nu, nu_new, model.y_names)
    sigma = distance(bank, model.partition, x[:ny], p)
    if sigma <= PASS_SIGMA:
        return None   # the mechanism's own singular configuration (.passage)
    # raised so that the next stop comes at about σ = PASS_SIGMA (ν grows as 1/σ there)
    return model, x, max(2.0, min(NU_RATIO, sigma / PASS_SIGMA)) * nu, base, None


def _nu(model, x: np.ndarray, p: np.ndarray) -> float:
    return float(model.conditioning(x[:len(model.y_names)], p)[0])


def _singular(system, model, t: float, x: np.ndarray, p: np.ndarray) -> SimulationError:
    """The singular-configuration error at a stop where every partition degrades together
    and σ fell to PASS_SIGMA (the passage's start, :mod:`.passage`)."""
    ny = len(model.y_names)
    nu = _nu(model, x, p)
    return system.partitions.singular_error(
        t, x[:ny], p, model.partition, nu, nu, model.y_names,
        reached=f"with no better partition, σ at most PASS_SIGMA = {PASS_SIGMA:g}")


def _blocked_by_drivers(bank, model, y: np.ndarray, p: np.ndarray, nu: float, base: float):
    """True when only the kinematic drivers' speeds, which must stay independent, keep the
    simulation from switching: a driven crank at its dead point, no way on."""
    if not bank.fixed:
        return False
    part = bank.candidate(y, p, model.partition, drivers=False)
    nu_free = bank.nu(part, y, p) if part is not None else np.inf
    return nu_free < base and HYSTERESIS * nu_free <= nu


def _check_side(model, t: float, x: np.ndarray, p: np.ndarray, watch: np.ndarray) -> None:
    """A stop must lie on the side of the partition's singular set where the segment began
    (H = 0 beyond it, so CVODES cannot settle there); else a step jumped across it."""
    det = np.array(model.conditioning(x[:len(model.y_names)], p)[1]).ravel()
    if np.any(watch[2:] * det <= 0):
        raise SimulationError(
            f"at t = {t:.6g} s the integration crossed a singular position of the partition "
            "(independent coordinates " + ", ".join(model.independent_coordinates()) + ") "
            "without stopping before it; tighten rtol/atol, or use ConstraintMethod.DAE")


def _mapped(old, new, x: np.ndarray, p: np.ndarray) -> np.ndarray:
    """y stays; w = G_old(y)·z_old, the new z = w at the new independent speeds; s stays."""
    ny, nz = len(old.y_names), len(old.z_names)
    w = np.array(old.G(x[:ny], p)).dot(x[ny:ny + nz]).ravel()
    return np.concatenate([x[:ny], w[new.partition.independent_speeds], x[ny + nz:]])


def _switch(old, new, t, nu, nu_new, bank) -> PartitionSwitch:
    speeds = [tuple(bank.speed_names[j] for j in m.partition.independent_speeds)
              for m in (old, new)]
    return PartitionSwitch(t, old.independent_coordinates(), new.independent_coordinates(),
                           speeds[0], speeds[1], nu, nu_new)


def _result(system, segments, u_fn, p, switches) -> Result:
    """One Result over all segments, in the compiled System's names plus every joint speed."""
    parts = [_segment_series(system, model, np.array(ts), np.array(xs).T, u_fn, p)
             for model, ts, xs in segments if ts]
    t = np.concatenate([np.array(ts) for _, ts, _ in segments if ts])
    series = {name: np.concatenate([s[name] for s, _ in parts]) for name in parts[0][0]}
    res = Result(t, series, np.concatenate([x for _, x in parts], axis=1), system,
                 np.asarray(p, dtype=float).ravel())
    res.switches = switches
    return res


def _segment_series(system, model, t, xs, u_fn, p):
    """(series, x in the System's names) of one segment."""
    us = np.array(u_fn.map(t.size)(t)).reshape(len(system.u_names), t.size)
    own = Result.from_states(model, t, xs, us, p)
    ny, nz = len(model.y_names), len(model.z_names)
    P = np.repeat(np.asarray(p, dtype=float).reshape(-1, 1), t.size, axis=1)
    G = np.array(model.G.map(t.size)(own.x[:ny], P)).reshape(-1, nz, t.size, order="F")
    w = np.einsum("ikt,kt->it", G, own.x[ny:ny + nz])
    ind = system.partition.independent_speeds
    x = np.vstack([own.x[:ny], w[ind], own.x[ny + nz:]])
    series = {name: x[i] for i, name in enumerate(system.x_names)}
    series.update({n: w[j] for j, n in enumerate(system.speed_names) if n not in series})
    series.update({n: v for n, v in own.series.items() if n not in model.x_names})
    return series, x


def _failure(system, model, dae, t_a, x_a, outs, p, watch, opts, message) -> SimulationError:
    """Re-run interval by interval to find where CVODES failed, and say why."""
    x, t_ok, ny = np.append(x_a, 0.0), t_a, len(model.y_names)
    pa, level = np.append(p, watch), watch[0]
    for tb in outs:
        try:
            step = ca.integrator("probe", "cvodes", dae, t_ok, [tb], opts)
            x = np.array(step(x0=x, p=pa)["xf"]).ravel()
            t_ok = float(tb)
        except RuntimeError as exc:
            message = str(exc)
            break
    state = ", ".join(f"{n}={v:.6g}" for n, v in zip(model.x_names, x))
    nu = float(model.conditioning(x[:ny], p)[0])
    where = f"integration failed after t = {t_ok - x[-1]:.6g} s (last good state: {state})"
    singular = _near_singular(system, model, t_ok - x[-1], x[:ny], p, nu)
    if singular is not None:
        return singular
    if "rootfinder" in message or "closure_newton" in message:
        return SimulationError(
            f"{where}: Newton found no dependent coordinates "
            + ", ".join(model.y_names[i] for i in model.partition.dependent_coordinates)
            + f" for the independent ones although the partition is well conditioned there "
            f"(ν = {nu:.3g}, switch level {level:.3g}); likely cause: the motion is too fast "
            "for the tolerances (tighten rtol/atol) or the mechanism leaves its assembly; "
            "ConstraintMethod.DAE integrates without Newton")
    return SimulationError(
        f"{where}; likely cause: the motion is very fast or stiff there (large speeds, stiff "
        "springs or a small Coulomb regularization w_eps); try a looser tolerance, more steps "
        f"or smaller inputs (partition conditioning there ν = {nu:.3g})")


def _near_singular(system, model, t: float, y: np.ndarray, p, nu: float):
    """The singular-configuration error when the integrator failed where the partition is
    within NEAR_SINGULAR of NU_SINGULAR and no other partition is better: the steps shrank
    on the ill-conditioned coordinates before ν reached the watch's level (Adams at tight
    tolerances does, on a loop folding flat), and that is the mechanism's singularity, not a
    stiff motion. None otherwise."""
    if nu < NU_SINGULAR / NEAR_SINGULAR:
        return None
    bank = system.partitions
    part = bank.candidate(y, p, model.partition)
    nu_best = bank.nu(part, y, p) if part is not None else np.inf
    if HYSTERESIS * nu_best <= nu:
        return None
    return bank.singular_error(t, y, p, model.partition, nu, nu_best, model.y_names,
                               reached=f"where the integrator failed, within {NEAR_SINGULAR:g}× "
                                       f"of NU_SINGULAR = {NU_SINGULAR:g}")
