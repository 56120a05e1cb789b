"""Consumer: parameter estimation. Fit symbolic parameters (and optionally initial states) of a
System to measured time series by weighted least squares on the trajectory-optimization
transcriptions (direct collocation or multiple shooting, :mod:`jourdain.solver.optimal`):

    minimize over θ (and the transcription's states)   ½·Σ_j Σ_i (w_j·(y_j(t_i) − d_ij))²
    subject to the dynamics (collocation or shooting equations), bounds on θ,

where y_j is a state or an output of the system, d_ij the samples and w_j the signal's weight
(e.g. 1/σ_j of its noise). The known inputs (constants, functions of time, tables) are folded
into the equations as functions of time, so the decision variables are θ and the states
only. Nodes of the transcription sit on the sampling times (equally spaced samples; several
intervals per sample with ``intervals_per_sample``). The simultaneous approach keeps the fit
well posed where single shooting of an unstable or lightly damped model is not (H. G. Bock,
in Numerical Treatment of Inverse Problems, 1987; J. Albersmeyer, M. Diehl, 2010).
Uncertainty: :mod:`.estimation`.
"""
from __future__ import annotations

import copy

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.checks import count, flag, keywords, mapping, number, unknown
from ..model.names import require_system
from ..optimal.guess import make_guess
from ..optimal.nlp import NLP
from ..optimal.problem import TrajectoryProblem
from ..optimal.solve import OptimizationError
from ..optimal.transcription import Collocation, MultipleShooting
from ..simulation.loop import fold
from ..simulation.result import Result
from ..simulation.simulate import _input_expressions
from .estimation import Estimate, covariance, null_report, sensitivity

SPACING_RTOL = 1e-6   # sampling times equally spaced to this relative tolerance
# IPOPT outcomes after which the fit is tried again with IPOPT's default MUMPS scaling
RETRY = ("Restoration_Failed", "Error_In_Step_Computation")


def measured(system, data) -> tuple[np.ndarray, dict]:
    """(times, {signal: samples}) from a DataFrame (a 't' column or the index) or a dict with
    't'; signals are states or outputs; NaN marks a missing sample."""
    if hasattr(data, "columns"):
        frame = data
        t = frame["t"].to_numpy(float) if "t" in frame.columns else frame.index.to_numpy(float)
        data = {c: frame[c].to_numpy(float) for c in frame.columns if c != "t"}
    else:
        data = mapping(data, "estimate: data", "signal name")
        if "t" not in data:
            raise ModelError("estimate: data needs the sampling times under 't' (or a "
                             "DataFrame with a 't' column or a time index)")
        t = data.pop("t")
    try:
        t = np.asarray(t, dtype=float).ravel()
    except (TypeError, ValueError):
        raise ModelError("estimate: data 't' must hold numbers (times [s])") from None
    if t.size < 3 or not np.all(np.isfinite(t)) or np.any(np.diff(t) <= 0):
        raise ModelError("estimate: data 't' must hold at least 3 finite, increasing times [s]")
    step = np.diff(t)
    if np.abs(step - step.mean()).max() > SPACING_RTOL * step.mean():
        raise ModelError("estimate: the samples must be equally spaced in time (resample "
                         "the data onto a uniform grid first)")
    known = list(system.x_names) + list(system.output_names)
    signals = {}
    for name, values in data.items():
        if name not in known:
            raise ModelError(unknown("estimate: data", name, known) +
                             " (signals are states or outputs)")
        values = np.asarray(values, dtype=float).ravel()
        if values.size != t.size:
            raise ModelError(f"estimate: data '{name}' has {values.size} samples for "
                             f"{t.size} times")
        if np.any(np.isinf(values)) or np.all(np.isnan(values)):
            raise ModelError(f"estimate: data '{name}' must be finite (NaN marks a missing "
                             "sample, and some must be present)")
        signals[name] = values
    if not signals:
        raise ModelError("estimate: data holds no signal besides 't'")
    return t, signals


def _known_inputs(system, inputs, t: np.ndarray):
    """The system with every input replaced by its known function of time."""
    if not system.u_names:
        mapping(inputs, "inputs", "input name")
        return system
    ts, x, p = ca.SX.sym("t"), ca.SX.sym("x", system.nx), ca.SX.sym("p", len(system.p_names))
    u = _input_expressions(system, inputs or {}, t, ts)
    law = ca.Function("known_inputs", [ts, x, p], [u], ["t", "x", "p"], ["u"])
    return fold(system, law, list(system.u_names))


def _scales(system, names: list[str], params, guess: dict) -> np.ndarray:
    """Scale of each parameter: |guess| or |value| of a fitted one (1 if zero), 1 otherwise."""
    values = system.parameters(params)
    scales = np.ones(len(system.p_names))
    for name in names:
        i = system.p_names.index(name)
        scale = abs(float(guess.get(name, values[i])))
        scales[i] = scale if scale > 0 else 1.0
    return scales


def _scaled(system, scales: np.ndarray):
    """A copy of ``system`` whose parameter vector is p' = p / scales (every function that
    takes p rebuilt): the fitted parameters are decision variables of order one, which IPOPT
    needs (a friction of 5e-5 N·m·s beside states of 100 rad/s fails otherwise)."""
    if np.all(scales == 1.0):
        return system
    functions = {}
    for key, fn in system.functions.items():
        if "p" not in fn.name_in():
            functions[key] = fn
            continue
        sym = ca.SX if fn.is_a("SXFunction") else ca.MX
        args = [sym.sym(n, fn.sparsity_in(i)) for i, n in enumerate(fn.name_in())]
        call = list(args)
        k = fn.name_in().index("p")
        call[k] = args[k] * ca.DM(scales)
        functions[key] = ca.Function(fn.name(), args, fn.call(call), fn.name_in(),
                                     fn.name_out())
    new = copy.copy(system)
    new.functions = functions
    for key, fn in functions.items():
        setattr(new, key, fn)
    new.library = None
    new.p_default = np.asarray(system.p_default, dtype=float) / scales
    check = system.check_parameters
    new.check_parameters = None if check is None else (lambda p: check(np.asarray(p) * scales))
    return new


def _problem(system, t, names, states, params, y0, z0, bounds, guess, m) -> TrajectoryProblem:
    prob = TrajectoryProblem(system, float(t[-1] - t[0]), intervals=(t.size - 1) * m,
                             t0=float(t[0]), params=params)
    bounds = mapping(bounds, "estimate: bounds", "parameter name")
    for name in bounds:
        if name not in names:
            raise ModelError(unknown("estimate: bounds", name, names) + " (bounds apply to the "
                             "estimated parameters)")
    guess = mapping(guess, "estimate: guess", "parameter name")
    for name in guess:
        if name not in names + states:
            raise ModelError(unknown("estimate: guess", name, names + states))
    scales = system.scales
    for name in names:
        lo, hi = _bound_pair(bounds.get(name, (-np.inf, np.inf)), name)
        scale = scales[system.p_names.index(name)]
        start = guess.get(name)
        prob.free_parameter(name, lo / scale, hi / scale,
                            None if start is None else number(start, f"estimate: guess "
                                                                     f"'{name}'") / scale)
    x0 = system.state(y0, z0)
    prob.initial({n: v for n, v in zip(system.x_names, x0) if n not in states})
    return prob


def _bound_pair(value, name: str) -> tuple[float, float]:
    try:
        lo, hi = (float(v) for v in value)
    except (TypeError, ValueError):
        raise ModelError(f"estimate: bounds '{name}' must be (lower, upper), got "
                         f"{value!r:.60}") from None
    if np.isnan(lo) or np.isnan(hi) or not lo < hi:
        raise ModelError(f"estimate: bounds '{name}': need lower < upper, got ({lo}, {hi})")
    return lo, hi


def _initial_guess(prob, system, t, signals, names, states, guess) -> dict:
    """Measured states from the data, the others from a simulation at the guessed values."""
    spec = {}
    x0 = {n: prob.x_initial.get(n, 0.0) for n in system.x_names}
    for name in states:
        first = signals.get(name, [np.nan])[0]
        x0[name] = guess.get(name, first if np.isfinite(first) else 0.0)
    params = dict(zip(system.p_names, prob.p_values))
    params.update({n: prob.free_params[n][2] for n in names})   # scaled, as the system
    try:
        sim = system.simulate(t[-1], t0=t[0], x0=np.array(list(x0.values())), params=params,
                              t_out=t, max_steps=20000)
        spec.update({n: (sim.t, sim[n]) for n in system.x_names})
    except Exception:   # an unstable model at the guess: the data and zeros must do
        pass
    for name, values in signals.items():
        ok = np.isfinite(values)
        if name in system.x_names and ok.sum() >= 2:
            spec[name] = (t[ok], values[ok])
    return spec


@keywords
def estimate(system, data, parameters: list, initial_states: list | None = None,
             inputs: dict | None = None, y0: dict | None = None, z0: dict | None = None,
             params: dict | None = None, bounds: dict | None = None, weights: dict | None = None,
             guess: dict | None = None, transcription=None, intervals_per_sample: int = 1,
             level: float = 0.95, tol: float = 1e-10, max_iter: int = 500,
             progress: bool = False, ipopt: dict | None = None) -> Estimate:
    """Fit ``parameters`` (symbolic parameters of ``system``, by name) and ``initial_states``
    to ``data`` (module docstring).

    data : a DataFrame with a 't' column (or a time index) or a dict {'t': times, signal:
        samples}; signals are states or outputs by name, equally spaced in time, NaN for a
        missing sample. inputs : the known inputs, as in simulate. y0, z0 : the initial
        coordinates and speeds that are not estimated (default 0, as in simulate); params :
        values of the other symbolic parameters. bounds : {parameter: (lower, upper)};
        weights : {signal: weight} (default 1); guess : {parameter or initial state: value}.
    transcription : jd.Collocation() (default) or jd.MultipleShooting(); with
        ``intervals_per_sample`` intervals between samples. level : confidence level of the
        intervals. tol, max_iter, progress : IPOPT's tolerance, iteration limit and log;
        ``ipopt`` adds IPOPT options.

    The returned Estimate's ``refit(data)`` solves the same problem for other samples on
    the same times (repeated experiments, coverage studies) without building it again.
    """
    require_system(system, "estimate")
    names = _names(parameters, system.p_names, "parameters", required=True)
    states = _names(initial_states, system.x_names, "initial_states")
    t, signals = measured(system, data)
    settings = {"level": number(level, "estimate: level", 0.0, 1.0, open_low=True,
                                open_high=True),
                "tol": number(tol, "estimate: tol", 0.0, open_low=True),
                "max_iter": count(max_iter, "estimate: max_iter"),
                "progress": flag(progress, "estimate: progress"),
                "ipopt": mapping(ipopt, "estimate: ipopt", "IPOPT option")}
    m = count(intervals_per_sample, "estimate: intervals_per_sample")
    weights = _weights(weights, signals)
    guesses = mapping(guess, "estimate: guess", "name")
    folded = _scaled(_known_inputs(system, inputs, t), _scales(system, names, params, guesses))
    folded.scales = _scales(system, names, params, guesses)
    prob = _problem(folded, t, names, states, params, y0, z0, bounds, guess, m)
    transcription = transcription or Collocation()
    if not isinstance(transcription, (Collocation, MultipleShooting)):
        raise ModelError(f"estimate: transcription must be a jd.Collocation or "
                         f"jd.MultipleShooting, got {transcription!r:.60}")
    spec = _initial_guess(prob, folded, t, signals, names, states, guesses)
    fitter = Estimator(prob, folded, transcription, make_guess(prob, spec), t, signals,
                       weights, names, states, m, settings)
    return fitter.fit(signals)


def _names(values, known: list[str], what: str, required: bool = False) -> list[str]:
    if values is None and not required:
        return []
    if isinstance(values, str) or values is None or not all(isinstance(v, str)
                                                            for v in values):
        raise ModelError(f"estimate: {what} must be a list of names, e.g. "
                         f"[{known[0]!r}]" if known else f"estimate: {what}: the system "
                         "has none")
    for value in values:
        if value not in known:
            hint = " (compile with jd.compile(..., parameters=[...]) to make it symbolic)" \
                if what == "parameters" else ""
            raise ModelError(unknown(f"estimate: {what}", value, known) + hint)
    if required and not values:
        raise ModelError(f"estimate: give at least one of the {what} to fit")
    return list(values)


def _weights(weights, signals: dict) -> dict:
    weights = mapping(weights, "estimate: weights", "signal name")
    for name in weights:
        if name not in signals:
            raise ModelError(unknown("estimate: weights", name, list(signals)) +
                             " (weights apply to the measured signals)")
    return {n: number(weights.get(n, 1.0), f"estimate: weights '{n}'", 0.0, open_low=True)
            for n in signals}


class Estimator:
    """The least-squares problem of :func:`estimate`, built once: the samples enter as
    parameters of the NLP, so :meth:`fit` solves it for other data on the same times with
    the same missing samples."""

    def __init__(self, prob, folded, transcription, g0, t, signals, weights, names, states, m,
                 settings):
        self.prob, self.folded, self.t, self.m = prob, folded, t, m
        self.names, self.states, self.settings = names, states, settings
        self.mask = {n: np.isfinite(v) for n, v in signals.items()}
        self.nlp = nlp = NLP(transcription.symbols(prob))
        self.plan = transcription.transcribe(prob, prob.functions(), nlp, g0)
        d = nlp.sym.sym("data", sum(int(v.sum()) for v in self.mask.values()))
        r, self.labels = self._residuals(d, weights)
        w, g = nlp.vector(), ca.vertcat(*nlp.g)
        self.problem = {"x": w, "p": d, "f": 0.5 * ca.sumsqr(r), "g": g}
        self.solvers = {}
        self.arrays = nlp.arrays()
        equal = [i for i in range(self.arrays["lbg"].size)
                 if self.arrays["lbg"][i] == self.arrays["ubg"][i]]
        self.jacobians = ca.Function("residual_jacobians", [w, d],
                                     [r, ca.jacobian(r, w), ca.jacobian(g, w)[equal, :]])
        self.theta = _theta_rows(nlp, prob, names, states)
        self.free = [i for i in range(w.numel())
                     if self.arrays["lbx"][i] < self.arrays["ubx"][i]]
        self.trajectory = ca.Function("fit", [w], [self.plan.X, self.plan.p])

    def _residuals(self, d, weights) -> tuple:
        """Weighted residuals w_j·(y_j(t_i) − d) at the present samples (nodes i·m)."""
        parts, labels, k = [], [], 0
        folded = self.folded
        for i, ti in enumerate(self.t):
            x = self.plan.X[:, i * self.m]
            out = None
            for name, present in self.mask.items():
                if not present[i]:
                    continue
                if name in folded.x_names:
                    y = x[folded.x_names.index(name)]
                else:
                    if out is None:
                        out = folded.h(ti, x, ca.DM.zeros(len(folded.u_names)), self.plan.p)
                    y = out[folded.output_names.index(name)]
                parts.append(weights[name] * (y - d[k]))
                labels.append(name)
                k += 1
        return ca.vertcat(*parts), labels

    def _data_vector(self, signals: dict) -> np.ndarray:
        if set(signals) != set(self.mask) or any(
                not np.array_equal(np.isfinite(signals[n]), self.mask[n]) for n in self.mask):
            raise ModelError("Estimate.refit: the data must hold the same signals with the "
                             "same missing samples as the first fit")
        values = []
        for i in range(self.t.size):
            values += [signals[n][i] for n in self.mask if self.mask[n][i]]
        return np.array(values)

    def _solver(self, unscaled: bool):
        """IPOPT on the problem, first with MUMPS's scaling off (with it on, MUMPS reported
        a singular step at the first iteration of the hanging-cube fit, benchmarks and
        tests/test_studies.py), then with IPOPT's defaults if that fails."""
        if unscaled not in self.solvers:
            ipopt = {"tol": self.settings["tol"], "max_iter": self.settings["max_iter"],
                     "print_level": 5 if self.settings["progress"] else 0, "sb": "yes"}
            if unscaled:
                ipopt.update(mumps_scaling=0, mumps_permuting_scaling=0)
            ipopt.update(self.settings["ipopt"])
            self.solvers[unscaled] = ca.nlpsol(
                "estimate", "ipopt", self.problem,
                {"ipopt": ipopt, "print_time": False, "error_on_fail": False})
        return self.solvers[unscaled]

    def fit(self, signals: dict) -> Estimate:
        d = self._data_vector(signals)
        for unscaled in (True, False):
            solver = self._solver(unscaled)
            result = solver(**self.arrays, p=d)
            stats = solver.stats()
            if stats["success"] or stats["return_status"] not in RETRY:
                break
        w_opt = np.array(result["x"]).ravel()
        r_val, J_r, J_g = self.jacobians(w_opt, d)
        J = sensitivity(_sparse(J_r), _sparse(J_g), self.theta, self.free)
        r_val = np.array(r_val).ravel()
        if r_val.size <= len(self.theta):
            raise ModelError(f"estimate: {r_val.size} samples cannot determine "
                             f"{len(self.theta)} unknowns; measure more")
        sigma, dof, cov, quantile, rank, null = covariance(J, r_val, self.settings["level"])
        est = self._estimate(w_opt, cov, sigma, dof, quantile, r_val, signals, stats)
        est.rank = rank
        est.unidentifiable, est.null_directions = null_report(est.names, null, self._scale())
        est.refitter = self
        if not est.success:
            raise OptimizationError(
                f"estimate: IPOPT returned {est.status} after {est.iterations} iterations; "
                "the last iterate is in the error's .solution. Likely causes: a guess far "
                "from the data (give guess={...} or initial_states), bounds that exclude the "
                "fit, signals in other units than the model's, or too few samples for "
                "the dynamics (intervals_per_sample)", est)
        return est

    def refit(self, data) -> Estimate:
        t, signals = measured(self.folded, data)
        if t.size != self.t.size or np.abs(t - self.t).max() > 1e-9 * max(1.0, abs(t[-1])):
            raise ModelError("Estimate.refit: the data must be sampled at the same times as "
                             "the first fit")
        return self.fit(signals)

    def _scale(self) -> np.ndarray:
        """Decision variables → parameters and initial states."""
        return np.array([self.folded.scales[self.folded.p_names.index(n)] for n in self.names]
                        + [1.0] * len(self.states))

    def _estimate(self, w_opt, cov, sigma, dof, quantile, r_val, signals, stats) -> Estimate:
        fitted, lbx, ubx = self.names + self.states, self.arrays["lbx"], self.arrays["ubx"]
        scale = self._scale()
        cov = cov * np.outer(scale, scale)
        values = {n: float(w_opt[i]) * s for n, i, s in zip(fitted, self.theta, scale)}
        std = {n: float(np.sqrt(max(cov[k, k], 0.0))) if np.isfinite(cov[k, k]) else np.inf
               for k, n in enumerate(fitted)}   # inf: not identifiable (NaN interval)
        intervals = {n: (values[n] - quantile * std[n], values[n] + quantile * std[n])
                     if np.isfinite(std[n]) else (np.nan, np.nan) for n in fitted}
        at_bound = [n for n, i in zip(fitted, self.theta)
                    if min(abs(w_opt[i] - lbx[i]), abs(w_opt[i] - ubx[i]))
                    < 1e-6 * max(1.0, abs(w_opt[i]))]
        X, p = (np.array(v, dtype=float) for v in self.trajectory(w_opt))
        t_nodes = np.linspace(self.t[0], self.t[-1], X.shape[1])
        fit = Result.from_states(self.folded, t_nodes, X,
                                 np.zeros((len(self.folded.u_names), t_nodes.size)), p.ravel())
        labels = np.array(self.labels)
        residuals = {n: r_val[labels == n] for n in signals}
        data = {n: (self.t, v) for n, v in signals.items()}
        return Estimate(fitted, values, std, intervals, cov, self.settings["level"], sigma,
                        dof, residuals, fit, data, bool(stats["success"]),
                        stats["return_status"], int(stats.get("iter_count", -1)), at_bound)


def _theta_rows(nlp, prob, names, states) -> list[int]:
    """Rows of w of the fitted parameters and initial states, in that order."""
    blocks = {b.name: b for b in nlp.var_blocks}
    rows = [blocks["parameters"].start + list(prob.free_params).index(n) for n in names]
    return rows + [blocks["x_0"].start + prob.system.x_names.index(n) for n in states]


def _sparse(dm):
    from scipy.sparse import csc_matrix
    return csc_matrix(dm.sparse()) if hasattr(dm, "sparse") else csc_matrix(np.array(dm))
