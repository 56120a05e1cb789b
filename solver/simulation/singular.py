"""Consumer: the singular-configuration watch of the multiplier methods (Baumgarte, DAE).

Partitioning sees a singular configuration on the way (its conditioning monitor,
:mod:`.partitioned`). Baumgarte and the DAE integrate all joint speeds with the multipliers,
and where the motion passes a configuration at which the constraints lose rank (a
parallelogram four-bar folding flat: there its parallelogram and anti-parallelogram branches
cross) nothing in their equations keeps the branch: measured, after the first flat crossing
one rocker of a parallelogram stayed flat while the other turned, 3 rad apart, with
residuals below 1e-6. The rank check at the outputs alone misses the crossing, which lasts
a few microseconds between two outputs. So after the run:

* σ(y), the smallest singular value of D·A (the independent constraint rows, scaled to unit
  length at the reference configuration, as ν is: :mod:`jourdain.solver.constraints.repartition`),
  is evaluated at every output;
* between two outputs σ can fall by at most L·S, with L a Lipschitz bound of D·A in y
  (the largest change of D·A per change of y between outputs, times LIPSCHITZ_SAFETY) and
  S the path length (the output interval times the largest ‖ẏ‖ ≈ ‖w‖ at its ends, times
  PATH_SAFETY); an interval whose lower bound (σ_a + σ_b − L·S)/2 is above the crossing
  level cannot reach a singular configuration;
* every other interval beside a local minimum of σ (a crossing between two samples leaves
  one at either of them) is integrated again from its first sample on REFINE sub-intervals
  (both intervals beside the minimum in one go; the same tolerances, by the
  explicit-multiplier ODE that both methods carry, on CVODES), recursively, down to
  MAX_DEPTH levels and MAX_RERUNS re-integrations in all; a re-integration that fails from
  a sample with σ below RESTART_NEAR times the crossing level counts as a crossing;
* σ below the crossing level at any sample is a crossing: a SimulationError names the
  constraints that lose rank, the joint speeds involved, the time and the configuration,
  and suggests the partitioned method.

The crossing level is √r, r = min(DRIFT_CAP, DRIFT_FACTOR·max(rtol, atol)) the closure
residual the drift guard lets pass (:mod:`.guard`; 1e-2 at the default tolerances 1e-8).
Near a singular configuration the closure residual grows only with the square of the
distance across the branches (the constraints' first derivatives vanish there in that
direction), so a motion within its residual limit can cut across from one branch to the
other at a distance √r: measured on the parallelogram at rtol 1e-8, the DAE (closure
residual 4e-8) passes at σ = 9e-4, Baumgarte (1e-13) at 2e-6, and either may leave on the
other branch. Partitioning solves the closure by Newton at 1e-10 and stops at
σ ≈ 1/NU_SINGULAR = 1e-6.
"""
from __future__ import annotations

import numpy as np

from jourdain.blocks.errors import SimulationError

from ..constraints.repartition import singular_error
from .guard import DRIFT_CAP, DRIFT_FACTOR

REFINE = 16             # sub-intervals of a refined interval
MAX_DEPTH = 6           # levels of refinement (an interval / 16⁶ = 6e-8 of it)
LIPSCHITZ_SAFETY = 2.0  # on the largest change of D·A per change of y between samples
PATH_SAFETY = 1.5       # on the output interval times the largest speed at its ends
MAX_RERUNS = 200        # re-integrations per run at most (then the rest is not refined)
RESTART_NEAR = 10.0     # a failed re-integration from σ below this × level is a crossing
FAILURE_CHUNK = 20      # outputs per re-integration after a failed run


def crossing_level(rtol: float, atol: float) -> float:
    """σ(D·A) below which a multiplier method's motion passes a singular configuration."""
    return float(np.sqrt(min(DRIFT_CAP, DRIFT_FACTOR * max(rtol, atol))))


def watch_singular(system, res, p: np.ndarray, rerun, level: float) -> None:
    """Raise the singular-configuration SimulationError where the motion of ``res`` passes
    within σ(D·A) < ``level`` (:func:`crossing_level`) of a configuration at which the
    constraints lose rank (module docstring). ``rerun(t_a, x_a, times)`` integrates again
    from (t_a, x_a) and returns the states at ``times`` (columns)."""
    rows = system.partition.velocity_rows
    if not rows or res.t.size < 2:
        return
    ny = len(system.y_names)
    nw = len(system.z_names)   # x = (y, w, s): every joint speed
    ref = np.array(system.A(system.y_ref, system.p_default), dtype=float)
    norms = np.linalg.norm(ref, axis=1)
    scale = 1.0 / np.where(norms > 0, norms, 1.0)

    def scaled(X):
        P = np.repeat(np.asarray(p, dtype=float).reshape(-1, 1), X.shape[1], axis=1)
        A = np.array(system.A.map(X.shape[1])(X[:ny], P), dtype=float)
        return scale[:, None, None] * A.reshape(len(rows), -1, X.shape[1], order="F")

    def sigmas(DA):
        return np.array([np.linalg.svd(DA[:, :, k], compute_uv=False)[-1]
                         for k in range(DA.shape[2])])

    def raise_at(t, x, DA, sigma):   # noqa: ARG001 (σ is in the message's own SVD)
        raise _crossing_error(system, t, x[:ny], DA, f"below the crossing level {level:.3g}, "
                              "the square root of the drift guard's closure limit")

    def lipschitz(X, DA):   # the largest change of D·A per change of y between samples
        dy = np.linalg.norm(np.diff(X[:ny], axis=1), axis=0)
        dA = np.array([np.linalg.norm(DA[:, :, k + 1] - DA[:, :, k], 2)
                       for k in range(X.shape[1] - 1)])
        moved = dy > 1e-12
        return LIPSCHITZ_SAFETY * float((dA[moved] / dy[moved]).max(initial=0.0))

    DA = scaled(res.x)
    sig = sigmas(DA)
    L = [max(1e-3, lipschitz(res.x, DA))]   # raised by the refined samples
    budget = [MAX_RERUNS]

    def check(t, X, DA, sig, depth):   # in time order: the first crossing is reported
        n = t.size
        loose = [depth < MAX_DEPTH and (sig[k] + sig[k + 1] - L[0] * PATH_SAFETY *
                                        (t[k + 1] - t[k]) *
                                        max(speed_of(X[:, k]), speed_of(X[:, k + 1]))) / 2
                 <= level for k in range(n - 1)]
        # a crossing between two samples leaves a local minimum of σ at one of them: the
        # loose intervals beside local minima are refined (one re-integration per pair)
        minima = [k for k in range(n) if (k == 0 or sig[k] <= sig[k - 1]) and
                  (k == n - 1 or sig[k] <= sig[k + 1])]
        runs = []
        for k in minima:
            cut = [i for i in (k - 1, k) if 0 <= i < n - 1 and loose[i]]
            if cut and runs and cut[0] <= runs[-1][1]:
                runs[-1][1] = max(runs[-1][1], cut[-1])
            elif cut:
                runs.append([cut[0], cut[-1]])
        done = 0
        for first, last in runs:
            low = np.flatnonzero(sig[done:first + 1] < level)
            if low.size:
                j = done + int(low[0])
                raise_at(t[j], X[:, j], DA[:, :, j], sig[j])
            done = last + 1
            if budget[0] <= 0:
                continue
            budget[0] -= 1
            times = np.concatenate([np.linspace(t[i], t[i + 1], REFINE + 1)[1:]
                                    for i in range(first, last + 1)])
            try:
                Xs = np.column_stack([X[:, first], rerun(t[first], X[:, first], times)])
            except SimulationError as exc:   # the integrator cannot go on from there:
                j = int(np.argmin(sig[first:last + 2])) + first   # near a crossing, that is one
                if sig[j] < RESTART_NEAR * level:
                    raise _crossing_error(system, t[j], X[:ny, j],
                                          scaled(X[:, j:j + 1])[:, :, 0],
                                          f"{sig[j]:.3g} at the closest output, the "
                                          f"integration from there failing: {exc}") from exc
                continue
            DAs = scaled(Xs)
            s = sigmas(DAs)
            L[0] = max(L[0], lipschitz(Xs, DAs))
            check(np.append(t[first], times), Xs, DAs, s, depth + 1)
        low = np.flatnonzero(sig[done:] < level)
        if low.size:
            j = done + int(low[0])
            raise_at(t[j], X[:, j], DA[:, :, j], sig[j])

    def speed_of(x):
        return float(np.linalg.norm(x[ny:ny + nw]))

    check(res.t, res.x, DA, sig, 0)


def crossing_before_failure(system, grid: np.ndarray, x0: np.ndarray, p: np.ndarray, rerun,
                            level: float, chunk: int = FAILURE_CHUNK):
    """The named singular-configuration error of a multiplier method's run that failed
    (Baumgarte's CVODES, the DAE's IDAS) when its motion passed a singular configuration
    before the failure, else None. Such a run can go on past the crossing on another branch
    for seconds before it fails (measured: Baumgarte on the N-four-bar, n = 4, failed at
    11.1 s with one rod 3 rad from the others, having crossed at 0.71 s), and the watch
    after the run (:func:`watch_singular`) never saw it. So the motion is integrated again
    by ``rerun`` (the explicit-multiplier ODE on CVODES), ``chunk`` outputs at a time, each
    chunk watched as it comes: the first crossing is named without integrating up to the
    failure again."""
    from types import SimpleNamespace

    from .guard import check_rank
    t, x = float(grid[0]), np.asarray(x0, dtype=float)
    for a in range(0, len(grid) - 1, chunk):
        times = np.asarray(grid[a + 1:a + 1 + chunk], dtype=float)
        try:
            block = np.asarray(rerun(t, x, times))
        except SimulationError:
            return None
        res = SimpleNamespace(t=np.append(t, times), x=np.column_stack([x, block]))
        try:   # the watch first: it names a crossing between outputs before a later one
            watch_singular(system, res, p, rerun, level)
            check_rank(system, res, p)
        except SimulationError as named:
            return named if "singular configuration" in str(named) else None
        t, x = float(times[-1]), block[:, -1]
    return None


def _crossing_error(system, t: float, y: np.ndarray, DA: np.ndarray, measure: str):
    rows = system.partition.velocity_rows
    error = singular_error(
        DA, [system.constraint_owners[r] for r in rows], system.speed_names, float(t), y,
        system.y_names, measure + f"; {system.method.name}'s multipliers cannot tell the "
        "assembly branches apart there")
    error.args = (error.args[0] + ". The motion passes through it, and "
                  f"ConstraintMethod.{system.method.name} would go on on either branch "
                  "(e.g. a parallelogram turning into an anti-parallelogram) without a word; "
                  "ConstraintMethod.PARTITIONING (the default) follows a loop by its "
                  "independent coordinates and switches them on the way, so it stops at "
                  "1e-6 only",)
    return error
