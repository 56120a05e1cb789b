"""The simulation Result: named time series of coordinates, speeds, inputs, outputs and
energies, with a plot method that writes a figure."""
from __future__ import annotations

import difflib
from pathlib import Path

import numpy as np

from jourdain.blocks.errors import ModelError


class Result:
    """Time series on the output grid ``t``; ``res[name]`` returns one series.

    Names: coordinates (``cube.edge.phi``), speeds (``cube.edge.w`` or user speeds),
    inputs, outputs, and ``energy.kinetic``, ``energy.potential``, ``energy.total`` [J],
    ``power.dissipated`` [W].

    ``method`` is the integration method that ran (a jd.Method, after Method.AUTO's choice)
    and ``stats`` what it cost: steps, rhs_evaluations, jacobian_evaluations, newton_setups,
    newton_iterations, error_test_failures, cpu_time and wall_time [s], method_reason (why
    this method) and, with BDF on a large or compiled f, the Jacobian form (``jacobian``).
    """

    method = None       # the jd.Method used by simulate
    stats: dict = {}    # integrator statistics (class docstring); replaced per Result

    def __init__(self, t: np.ndarray, series: dict[str, np.ndarray], x: np.ndarray):
        self.t = t
        self.series = series
        self.x = x

    @classmethod
    def from_states(cls, system, t: np.ndarray, xs: np.ndarray, us: np.ndarray,
                    p: np.ndarray) -> "Result":
        n = t.size
        P = np.repeat(np.asarray(p, dtype=float).reshape(-1, 1), n, axis=1)
        fns = system.functions
        if "project" in fns:  # closed loops: dependent coordinates from the Newton projection
            xs = np.array(fns["project"].map(n)(xs, P))
        energy = system.energy.map(n)(xs, P)
        series = {name: xs[i] for i, name in enumerate(system.x_names)}
        series.update({name: us[i] for i, name in enumerate(system.u_names)})
        outs = np.array(system.h.map(n)(t, xs, us, P))
        series.update({name: outs[i] for i, name in enumerate(system.output_names)})
        T, V = np.array(energy[0]).ravel(), np.array(energy[1]).ravel()
        series["energy.kinetic"], series["energy.potential"] = T, V
        series["energy.total"] = T + V
        series["power.dissipated"] = np.array(system.dissipation.map(n)(t, xs, us, P)).ravel()
        if "residuals" in fns:  # constraint residuals c(y) and A(y)·w
            for kind, vals in zip(("position", "velocity"), fns["residuals"].map(n)(xs, P)):
                series.update({f"residual.{kind}[{i}]": row
                               for i, row in enumerate(np.array(vals))})
        if "multipliers" in fns:  # constraint forces λ (Baumgarte, DAE)
            lam = np.array(fns["multipliers"].map(n)(t, xs, us, P))
            series.update({f"lambda[{i}]": row for i, row in enumerate(lam)})
        return cls(t, series, xs)

    @property
    def names(self) -> list[str]:
        return list(self.series)

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self.series:
            close = difflib.get_close_matches(name, self.names, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise ModelError(f"Result: no series named '{name}'{hint}")
        return self.series[name]

    def final(self) -> dict[str, float]:
        """The last value of every series."""
        return {name: float(v[-1]) for name, v in self.series.items()}

    def plot(self, *names: str, path: str | Path | None = None, title: str | None = None):
        """Plot the named series (default: coordinates and speeds) against time, one panel per
        name; save to ``path`` if given and return the matplotlib figure."""
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        names = names or tuple(n for n in self.names if not n.startswith(("energy", "power")))
        fig, axes = plt.subplots(len(names), 1, sharex=True, figsize=(7, 1.8 + 1.5 * len(names)),
                                 squeeze=False)
        for ax, name in zip(axes[:, 0], names):
            ax.plot(self.t, self[name])
            ax.set_ylabel(name, fontsize=8)
            ax.grid(True, alpha=0.3)
        axes[-1, 0].set_xlabel("t [s]")
        if title:
            fig.suptitle(title)
        fig.tight_layout()
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            fig.savefig(path, dpi=120)
        return fig
