"""Consumer: the drift guard of constrained simulations. Energy is no invariant in general
(inputs, dissipation), but the constraints are: along every Result of a ConstrainedSystem the
residuals of the closure equations c(y) and of the velocity constraints A(y)·w must stay
within the integration's accuracy, and the constraints must keep their rank. Else the run
ends in a SimulationError that names the constraint, the time and the value, instead of
returning a drifted answer.

Limits: |c| ≤ DRIFT_FACTOR·max(rtol, atol), at most DRIFT_CAP [m, rad]; |A·w| the same times
max(1, the largest joint speed) [m/s, rad/s]. Measured on the library's loops over 5 s,
Baumgarte and the DAE stay within 2–100 × the tolerance, partitioning at the Newton tolerance.
Rank (Baumgarte, DAE; partitioning watches it on the way): the smallest singular value of the
constraint Jacobian, rows scaled to unit length at the reference configuration, must stay
above 1/NU_SINGULAR (:mod:`jourdain.solver.constraints.repartition`) at the outputs; between
them the multiplier methods are watched by :mod:`.singular`.
"""
from __future__ import annotations

import numpy as np

from jourdain.blocks.errors import SimulationError

from ..constraints.repartition import NU_SINGULAR, singular_error

DRIFT_FACTOR = 1e4   # residual limit per unit of max(rtol, atol)
DRIFT_CAP = 1e-2     # [m, rad]: no residual beyond this passes, whatever the tolerances


def check_drift(system, res, rtol: float, atol: float) -> None:
    """Raise a SimulationError where the constraint residuals of ``res`` exceed the limits."""
    limit = min(DRIFT_CAP, DRIFT_FACTOR * max(rtol, atol))
    speeds = [res[n] for n in system.speed_names if n in res.series]
    scale = max(1.0, max((float(np.abs(v).max()) for v in speeds), default=0.0))
    for kind, unit, bound in (("position", "m or rad", limit),
                              ("velocity", "m/s or rad/s", limit * scale)):
        rows = [res.series[n] for n in res.names if n.startswith(f"residual.{kind}[")]
        if not rows:
            continue
        values = np.abs(np.array(rows))
        values[~np.isfinite(values)] = np.inf
        late = np.flatnonzero((values > bound).any(axis=0))
        if late.size:   # the first output beyond the limit, its worst row
            k = int(late[0])
            i = int(np.argmax(values[:, k]))
            raise SimulationError(
                f"the {kind} constraints of {system.constraint_owners[i]} drift: residual "
                f"{values[i, k]:.3g} {unit} at t = {res.t[k]:.6g} s exceeds {bound:.3g} "
                f"(DRIFT_FACTOR·max(rtol, atol) = {DRIFT_FACTOR:g}·{max(rtol, atol):g}, at most "
                f"{DRIFT_CAP:g}" + (", times the speed scale" if kind == "velocity" else "") +
                "), so the result would be silently wrong; " + _REMEDY[system.method.name])


_REMEDY = {
    "PARTITIONING": "tighten rtol/atol (the constraints are solved by Newton; a drift means "
                    "the integrated state left them)",
    "BAUMGARTE": "tighten rtol/atol, raise the stabilization rates baumgarte=(alpha, beta), or "
                 "use ConstraintMethod.PARTITIONING (constraints solved by Newton)",
    "DAE": "tighten rtol/atol, or use ConstraintMethod.PARTITIONING (constraints solved by "
           "Newton)",
}


def check_rank(system, res, p: np.ndarray) -> None:
    """Raise a SimulationError at the first output where the constraints lose rank: the
    smallest singular value of D·A (rows scaled to unit length at the reference
    configuration, as ν is) below 1/NU_SINGULAR."""
    ny, rows = len(system.y_names), system.partition.velocity_rows
    if not rows:
        return
    ref = np.array(system.A(system.y_ref, system.p_default), dtype=float)
    norms = np.linalg.norm(ref, axis=1)
    scale = 1.0 / np.where(norms > 0, norms, 1.0)
    P = np.repeat(np.asarray(p, dtype=float).reshape(-1, 1), res.t.size, axis=1)
    A = np.array(system.A.map(res.t.size)(res.x[:ny], P), dtype=float)
    A = scale[:, None, None] * A.reshape(len(rows), -1, res.t.size, order="F")
    for k in range(res.t.size):
        if not np.linalg.svd(A[:, :, k], compute_uv=False)[-1] * NU_SINGULAR > 1.0:
            raise singular_error(A[:, :, k], [system.constraint_owners[r] for r in rows],
                                 system.speed_names, float(res.t[k]), res.x[:ny, k],
                                 system.y_names, f"below 1/NU_SINGULAR = {1 / NU_SINGULAR:g}")
