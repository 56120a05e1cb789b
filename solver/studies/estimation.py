"""The result of a parameter estimation: fitted values, their covariance by the Gauss–Newton
approximation, confidence intervals, residuals, and the fitted trajectory.

Covariance. With the weighted residuals r(θ) (m rows) of the measured signals and their
sensitivity J = dr/dθ at the optimum (the states eliminated through the transcription's
equality constraints g(θ, s) = 0 by the implicit function theorem: ds/dθ = −g_s⁻¹·g_θ,
J = r_θ + r_s·ds/dθ), the covariance of θ̂ is σ²·(JᵀJ)⁻¹ with σ² = rᵀr/(m − n_θ), and the
two-sided interval at ``level`` is θ̂ ± t_{m−n_θ}·σ_θ (Student's t; Y. Bard, Nonlinear
Parameter Estimation, 1974, ch. 7; J. Nocedal, S. Wright, Numerical Optimization, §10.3).
The approximation is first order: it is accurate when the residuals are small and the model
is nearly linear in θ over the interval, and it means nothing for a parameter that sits on
one of its bounds (flagged in ``at_bound``).

Identifiability. The numerical rank of J (θ scaled by the guesses, so that its columns are
relative changes) counts the singular values above RANK_RTOL times the largest. Each singular
direction below it is a combination of θ that the data carry no information about (a
parameter that does not act on a measured signal, or a product that only enters as a ratio);
σ²·(JᵀJ)⁻¹ would be infinite along it, and a pseudo-inverse would report the false certainty
std = 0. Every name with a component in such a direction gets std = inf and a NaN interval
and is listed in ``unidentifiable``, with the directions in ``null_directions``; an
UnidentifiableWarning says so. The names outside the null space keep the covariance of the
identifiable part (the pseudo-inverse truncated at the rank, with m − rank degrees of
freedom), which equals the fit without the unidentifiable names held fixed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import warnings

import numpy as np

RANK_RTOL = 1e-8       # singular values of J below this × the largest: no information
NULL_COMPONENT = 1e-6  # a name whose share of a null direction exceeds this is unidentifiable


class UnidentifiableWarning(UserWarning):
    """The data carry no information about some fitted parameters or initial states (their
    standard errors are inf and their intervals NaN; ``Estimate.unidentifiable``)."""


@dataclass
class Estimate:
    """Fitted parameters (and initial states) with their uncertainty.

    values, std : {name: value} and standard errors; intervals : {name: (lower, upper)} at
    ``level``; covariance, correlation : matrices in the order of ``names``; sigma : the
    residual standard deviation (weighted residuals); dof : m − n_θ; residuals :
    {signal: weighted residuals at the samples}; fit : the fitted trajectory (a Result at
    the node times); data : the measured signals; success, status, iterations : IPOPT's;
    at_bound : names whose value sits on a bound (their interval is not meaningful);
    rank : the numerical rank of the sensitivity J (RANK_RTOL); unidentifiable : names the
    data do not determine (std inf, interval NaN); null_directions : the combinations the
    data do not determine, each {name: component} in the names' units, largest component 1.
    """

    names: list[str]
    values: dict
    std: dict
    intervals: dict
    covariance: np.ndarray
    level: float
    sigma: float
    dof: int
    residuals: dict
    fit: object
    data: dict
    success: bool
    status: str
    iterations: int
    at_bound: list = field(default_factory=list)
    rank: int = 0
    unidentifiable: list = field(default_factory=list)
    null_directions: list = field(default_factory=list)
    refitter: object = field(default=None, repr=False)

    def __getstate__(self) -> dict:
        """Pickled without the built problem (IPOPT does not pickle; refit needs the
        original)."""
        return {**self.__dict__, "refitter": None}

    def refit(self, data) -> "Estimate":
        """The same fit for other data sampled at the same times, with the same signals and
        missing samples (repeated experiments, coverage studies), without building the
        problem again."""
        if self.refitter is None:
            from jourdain.blocks.errors import ModelError
            raise ModelError("Estimate.refit: this estimate was unpickled without its "
                             "problem; call jd.estimate again")
        return self.refitter.refit(data)

    @property
    def correlation(self) -> np.ndarray:
        """The correlation matrix of the fitted values (covariance scaled to unit diagonal)."""
        d = np.sqrt(np.clip(np.diag(self.covariance), 1e-300, None))
        return self.covariance / np.outer(d, d)

    def table(self):
        """A pandas DataFrame: one row per fitted name with value, std, lower, upper."""
        import pandas

        return pandas.DataFrame({"value": self.values, "std": self.std,
                                 "lower": {n: v[0] for n, v in self.intervals.items()},
                                 "upper": {n: v[1] for n, v in self.intervals.items()}})

    def __str__(self) -> str:
        head = (f"estimate ({self.status}, {self.iterations} iterations): residual σ = "
                f"{self.sigma:.4g}, {self.dof} degrees of freedom, "
                f"{100 * self.level:g} % intervals")
        rows = [f"  {n:32s} {self.values[n]:+.6g} ± {self.std[n]:.3g}   "
                f"[{self.intervals[n][0]:.6g}, {self.intervals[n][1]:.6g}]"
                + ("   (on its bound)" if n in self.at_bound else "")
                + ("   (not identifiable)" if n in self.unidentifiable else "")
                for n in self.names]
        return "\n".join([head] + rows)

    def plot(self, path: str | Path | None = None, title: str | None = None):
        """Measured samples (dots) and the fitted trajectory (line) of each signal; saved to
        ``path`` if given; returns the figure."""
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        names = list(self.data)
        fig, axes = plt.subplots(len(names), 1, sharex=True, squeeze=False,
                                 figsize=(7, 1.6 + 1.6 * len(names)))
        for ax, name in zip(axes[:, 0], names):
            t, values = self.data[name]
            ax.plot(t, values, ".", ms=3, label="measured")
            ax.plot(self.fit.t, self.fit[name], "-", label="fitted")
            ax.set_ylabel(name, fontsize=8)
            ax.grid(True, alpha=0.3)
        axes[0, 0].legend(fontsize=7)
        axes[-1, 0].set_xlabel("t [s]")
        fig.suptitle(title or "parameter estimation: data and fit")
        fig.tight_layout()
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            fig.savefig(path, dpi=120)
        return fig


def sensitivity(J_r, J_g, theta: list[int], free: list[int]) -> np.ndarray:
    """J = dr/dθ with the other free variables s eliminated through g(θ, s) = 0 (module
    docstring); J_r, J_g are scipy sparse Jacobians of r and of the equality constraints."""
    from scipy.sparse.linalg import splu

    others = [i for i in free if i not in set(theta)]
    g_s, g_t = J_g[:, others].tocsc(), J_g[:, theta].toarray()
    if g_s.shape[0] != g_s.shape[1]:
        raise ValueError(f"{g_s.shape[0]} equality constraints for {g_s.shape[1]} states")
    ds = -splu(g_s).solve(g_t) if others else np.zeros((0, len(theta)))
    return J_r[:, theta].toarray() + (J_r[:, others] @ ds if others else 0.0)


def covariance(J: np.ndarray, r: np.ndarray, level: float) -> tuple:
    """(σ, dof, covariance σ²·(JᵀJ)⁻¹, t quantile, rank, null space) of the Gauss–Newton
    approximation (module docstring): the null space's columns are the directions of θ along
    which J is numerically zero; the covariance is NaN in the rows and columns of the names
    that take part in them."""
    from scipy.stats import t as student

    m, n = J.shape
    _, s, vt = np.linalg.svd(J, full_matrices=True)
    rank = int(np.sum(s > RANK_RTOL * s[0])) if s.size and s[0] > 0 else 0
    dof = m - rank
    sigma2 = float(r @ r) / dof
    kept = vt[:rank].T / s[:rank]
    cov = sigma2 * kept @ kept.T
    null = vt[rank:].T
    involved = np.linalg.norm(null, axis=1) > NULL_COMPONENT
    cov[involved, :] = np.nan
    cov[:, involved] = np.nan
    return np.sqrt(sigma2), dof, cov, float(student.ppf(0.5 + level / 2, dof)), rank, null


def null_report(names: list[str], null: np.ndarray, scale: np.ndarray) -> tuple[list, list]:
    """(names in a null direction, the directions as {name: component} in the names' own
    units, largest component +1) from the null space of the scaled J; warns by name."""
    directions = []
    for v in (null * scale[:, None]).T:
        v = v / v[np.argmax(np.abs(v))]
        directions.append({n: float(c) for n, c in zip(names, v)
                           if abs(c) > NULL_COMPONENT})
    involved = [n for k, n in enumerate(names)
                if np.linalg.norm(null[k]) > NULL_COMPONENT]
    if involved:
        shown = "; ".join(" + ".join(f"{c:.3g}·{n}" for n, c in d.items())
                          for d in directions)
        warnings.warn(
            f"estimate: the data carry no information about {', '.join(involved)}: the "
            f"sensitivity of the residuals has rank {len(names) - null.shape[1]} of "
            f"{len(names)} (singular values below {RANK_RTOL:g} × the largest), and the fit "
            f"does not change along {shown}. Their std is inf and their interval NaN "
            "(Estimate.unidentifiable); measure a signal they act on, excite them through "
            "the inputs, or fix all but one of each combination", UnidentifiableWarning,
            stacklevel=5)
    return involved, directions
