"""Feedback laws as named CasADi functions u = law(t, x, p) of a System's full state, so that a
simulation folds them into the model's equations (:mod:`jourdain.solver.simulation.loop`)
and no Python runs while CVODES integrates.

A gain designed on a linearization acts on its *local* states: the chart coordinates of the
linearization (scalar coordinates as offsets, unit quaternions as rotation vectors about the
operating point, dependent coordinates of closed loops left out) followed by the speeds. The
law therefore maps x through the same chart before applying the gain:

    u = u_op − K·(local(x) − local(x_op)),   local(x) = (δθ(y), z, s).
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.checks import mapping, unknown
from ..model.names import require_system


def local_states(system, chart) -> tuple[ca.SX, ca.SX, list[str]]:
    """(x, local(x), names): the full-state symbol, the chart's local states of it and their
    names (the chart's coordinates, then the speeds and signal-block states). Without a chart
    the local states are x itself."""
    x = ca.SX.sym("x", system.nx)
    if chart is None:
        return x, x, list(system.x_names)
    ny = len(system.y_names)
    if chart.to_theta.nnz_in(0) != ny:
        raise ModelError(f"the feedback's chart maps {chart.to_theta.nnz_in(0)} coordinates, "
                         f"this system has {ny}; design the gain on jd.linearize(system) of "
                         "the system it drives")
    return x, ca.vertcat(chart.to_theta(x[:ny]), x[ny:]), list(chart.names) + \
        list(system.x_names[ny:])


def indices(names: list[str], known: list[str], where: str) -> list[int]:
    """Positions of ``names`` in ``known``; an unknown one is a ModelError from ``where``."""
    missing = [n for n in names if n not in known]
    if missing:
        raise ModelError(unknown(where, missing[0], known) + " (design the gain on "
                         "jd.linearize(system) of the system it drives)")
    return [known.index(n) for n in names]


def check_driven(system, names: list[str], where: str) -> None:
    """The inputs a law drives are inputs of the system, each once."""
    for name in names:
        if name not in system.u_names:
            raise ModelError(unknown(f"{where}: input", name, system.u_names) +
                             (" (the system has no free inputs)" if not system.u_names else "")
                             + "; design the gain on jd.linearize(system) of the system it "
                             "drives")
    if len(set(names)) != len(names):
        raise ModelError(f"{where}: an input is driven twice: {names}")


def feedback_law(system, fb) -> tuple[ca.Function, list[str]]:
    """u(t, x, p) = u_op − K·(local(x) − x_op) of a :class:`~.feedback.Feedback` on
    ``system`` (module docstring), and the names of the inputs it drives."""
    require_system(system, "Feedback.law")
    check_driven(system, list(fb.input_names), "Feedback")
    x, local, names = local_states(system, fb.chart)
    rows = indices(list(fb.state_names), names, "Feedback: state")
    K = np.asarray(fb.K, dtype=float).reshape(len(fb.input_names), len(rows))
    u = ca.DM(fb.u_op) - ca.mtimes(ca.DM(K), local[rows] - ca.DM(fb.x_op))
    t, p = ca.SX.sym("t"), ca.SX.sym("p", len(system.p_names))
    return ca.Function("feedback", [t, x, p], [u], ["t", "x", "p"], ["u"]), \
        list(fb.input_names)


def saturated(law: ca.Function, names: list[str], limits) -> ca.Function:
    """The law with the named outputs clipped to [lower, upper] (actuator limits):
    ``limits`` = {input name: (lower, upper)} or {input name: bound} for ±bound."""
    limits = mapping(limits, "close_loop: limits", "input name")
    if not limits:
        return law
    lower, upper = np.full(len(names), -np.inf), np.full(len(names), np.inf)
    for name, value in limits.items():
        if name not in names:
            raise ModelError(unknown("close_loop: limits", name, names) +
                             " (limits apply to the inputs the controller drives)")
        lo, hi = _limit_pair(value, name)
        i = names.index(name)
        lower[i], upper[i] = lo, hi
    args = [ca.SX.sym(n, law.sparsity_in(i)) for i, n in enumerate(law.name_in())] \
        if law.is_a("SXFunction") else \
        [ca.MX.sym(n, law.sparsity_in(i)) for i, n in enumerate(law.name_in())]
    u = law(*args)
    clipped = ca.fmin(ca.fmax(u, ca.DM(np.maximum(lower, -1e300))), ca.DM(np.minimum(upper,
                                                                                     1e300)))
    return ca.Function(law.name(), args, [clipped], law.name_in(), law.name_out())


def _limit_pair(value, name: str) -> tuple[float, float]:
    """(lower, upper) from a pair or a symmetric bound; NaN and lower ≥ upper are refused."""
    where = f"close_loop: limits '{name}'"
    try:
        pair = np.asarray(value, dtype=float).ravel()
    except (TypeError, ValueError):
        pair = np.array([np.nan])
    if isinstance(value, (str, bytes, bool)) or pair.size not in (1, 2) or \
            np.any(np.isnan(pair)):
        raise ModelError(f"{where}: expected (lower, upper) or a bound b for ±b, got {value!r}")
    lo, hi = (-abs(pair[0]), abs(pair[0])) if pair.size == 1 else (pair[0], pair[1])
    if not lo < hi:
        raise ModelError(f"{where}: lower ({lo}) must be below upper ({hi})")
    return float(lo), float(hi)
