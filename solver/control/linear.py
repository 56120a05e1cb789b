"""The result of linearization: a named linear state-space model δẋ = A·δx + B·δu,
δout = C·δx + D·δu, with its eigenvalues and modes (see :mod:`jourdain.solver.linearize`)."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace

import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.checks import count, entry, finite
from ..visual.reprs import linear_html


@dataclass(frozen=True)
class Mode:
    """One eigenvalue λ [1/s] of A with its eigenvector by state name.

    frequency [Hz] = |Im λ|/2π; damping ratio ζ = −Re λ/|λ| (1 for a real stable λ, −1 for a
    real unstable one); ``dominant``: the states with the largest share of the eigenvector.
    """

    eigenvalue: complex
    shape: dict
    frequency: float
    damping: float
    dominant: list[str]

    def __str__(self) -> str:
        lam = self.eigenvalue
        kind = "unstable" if lam.real > 1e-9 else ("stable" if lam.real < -1e-9 else "marginal")
        return (f"λ = {lam.real:+.4g}{lam.imag:+.4g}j 1/s ({kind}, f = {self.frequency:.4g} Hz, "
                f"ζ = {self.damping:.3g}): " + ", ".join(self.dominant))


@dataclass
class LinearSystem:
    """A, B, C, D with named states (δθ for coordinates, z for speeds), inputs and outputs.

    ``x_op``, ``u_op`` are the operating point (full state x = (y, z) and inputs); ``xdot_op``
    the local state derivative there; ``kind`` is "equilibrium", "steady motion" (ż = 0,
    ẏ ≠ 0, ż stays 0 and A, B constant along the motion: the moving coordinates are cyclic),
    "time-varying motion" (ż = 0 but A, B change along the motion, e.g. a body-fixed
    orientation that turns with a spinning body: the eigenvalues say nothing about stability;
    model the motion with coordinates that are cyclic in it, e.g. joint angles) or "not
    stationary" (ż ≠ 0: the model is valid only instantaneously); ``dx_op``
    the operating point in local states (0 for coordinates, the speeds z). ``chart``
    maps local states back to full states (:meth:`to_state`).
    """

    A: np.ndarray
    B: np.ndarray
    C: np.ndarray
    D: np.ndarray
    state_names: list[str]
    input_names: list[str]
    output_names: list[str]
    x_op: np.ndarray
    u_op: np.ndarray
    xdot_op: np.ndarray
    dx_op: np.ndarray
    kind: str
    chart: object = field(repr=False, default=None)
    # False after select(): the chart still maps the kept local states (feedback laws need
    # it), but not every full state
    full: bool = field(repr=False, default=True)

    @property
    def is_equilibrium(self) -> bool:
        """True when the operating point is an equilibrium (ẋ = 0)."""
        return self.kind == "equilibrium"

    @property
    def eigenvalues(self) -> np.ndarray:
        """Eigenvalues of A [1/s], sorted by decreasing real part."""
        eig = np.linalg.eigvals(self.A)
        return eig[np.argsort(-eig.real, kind="stable")]

    def modes(self, n_dominant: int = 3) -> list[Mode]:
        """Eigenvalues with eigenvectors by state name (normalized to unit length, the largest
        entry real), sorted by decreasing real part."""
        n_dominant = count(n_dominant, "LinearSystem.modes: n_dominant")
        eig, vec = np.linalg.eig(self.A)
        order = np.argsort(-eig.real, kind="stable")
        modes = []
        for k in order:
            v = vec[:, k]
            v = v / v[np.argmax(np.abs(v))] * np.max(np.abs(v)) / np.linalg.norm(v)
            lam = complex(eig[k])
            top = np.argsort(-np.abs(v))[:n_dominant]
            modes.append(Mode(lam, dict(zip(self.state_names, v)), abs(lam.imag) / (2 * np.pi),
                              -lam.real / abs(lam) if abs(lam) > 0 else 0.0,
                              [self.state_names[i] for i in top if abs(v[i]) > 1e-12]))
        return modes

    def index(self, names, kind: str = "state") -> list[int]:
        """Positions of ``names`` among the state (or "input", "output") names."""
        known = {"state": self.state_names, "input": self.input_names,
                 "output": self.output_names}[kind]
        if isinstance(names, str):
            raise ModelError(f"LinearSystem: give a list of {kind} names, e.g. ['{names}'], "
                             f"not the bare string '{names}'")
        out = []
        for name in names:
            if name not in known:
                close = difflib.get_close_matches(name, known, n=3)
                hint = f"did you mean {', '.join(close)}?" if close else \
                    f"known names: {', '.join(known)}"
                raise ModelError(f"LinearSystem: unknown {kind} '{name}'; {hint}")
            out.append(known.index(name))
        return out

    def select(self, states) -> "LinearSystem":
        """The subsystem of the named states (in the given order), allowed when the dropped
        states do not act on the kept ones (A[kept, dropped] = 0), e.g. cyclic wheel angles;
        C keeps the columns of the kept states."""
        keep = self.index(states)
        drop = [i for i in range(len(self.state_names)) if i not in keep]
        scale = max(1.0, float(np.abs(self.A).max()))
        coupling = np.abs(self.A[np.ix_(keep, drop)]).max(axis=0) if drop and keep else []
        acting = [self.state_names[drop[j]] for j, c in enumerate(coupling) if c > 1e-9 * scale]
        if acting:
            raise ModelError("LinearSystem.select: the dropped state(s) " + ", ".join(acting) +
                             " act on the kept states (non-zero entries of A); keep them too")
        C = self.C[:, keep]
        return replace(self, A=self.A[np.ix_(keep, keep)], B=self.B[keep], C=C,
                       state_names=[self.state_names[i] for i in keep],
                       xdot_op=self.xdot_op[keep], dx_op=self.dx_op[keep], full=False)

    def to_state(self, dx: dict | np.ndarray) -> np.ndarray:
        """Full state x = (y, z) of the local perturbation dx (a vector over all local states
        or a {state name: value} dict; missing entries 0), e.g. a perturbed initial state."""
        if self.chart is None or not self.full:
            raise ModelError("LinearSystem.to_state needs the full linearization (not a "
                             "select()ed subsystem)")
        vec = np.zeros(len(self.state_names))
        if isinstance(dx, dict):
            for name, value in dx.items():
                vec[self.index([name])[0]] = entry(value, "LinearSystem.to_state", name)
        else:
            try:
                vec = np.asarray(dx, dtype=float).ravel()
            except (TypeError, ValueError):
                vec = np.zeros(0)
            if vec.size != len(self.state_names):
                raise ModelError(f"LinearSystem.to_state: {vec.size} entries given for the "
                                 f"{len(self.state_names)} states "
                                 f"({', '.join(self.state_names)}); or pass a dict by name")
            finite(vec, self.state_names, "LinearSystem.to_state")
        nth = len(self.chart.names)
        y = np.array(self.chart.to_y(vec[:nth])).ravel()
        z = self.x_op[len(y):] + vec[nth:]
        return np.concatenate([y, z])

    def controllability_rank(self) -> int:
        """Rank of [B, AB, …, A^(n−1)B] (Kalman's criterion), by SVD."""
        n = self.A.shape[0]
        blocks, M = [], self.B
        for _ in range(n):
            blocks.append(M)
            M = self.A @ M
        return int(np.linalg.matrix_rank(np.hstack(blocks)))

    def to_control(self):
        """A python-control StateSpace with the same names, dots written as underscores
        (python-control reserves '.' in signal names): ``cube.motor.tau`` → ``cube_motor_tau``."""
        import control

        def labels(names):
            return [n.replace(".", "_") for n in names]

        return control.ss(self.A, self.B, self.C, self.D, states=labels(self.state_names),
                          inputs=labels(self.input_names), outputs=labels(self.output_names))

    def _repr_html_(self) -> str:
        return linear_html(self)

    def __str__(self) -> str:
        residual = "" if self.is_equilibrium else \
            f", max |ẋ| = {np.abs(self.xdot_op).max():.3g} at the operating point"
        point = {"equilibrium": "an equilibrium", "steady motion": "a steady motion",
                 "time-varying motion": "a motion along which A and B change (eigenvalues do "
                 "not decide stability; use coordinates that are cyclic in the motion)"}.get(
            self.kind, "a non-stationary point (valid only instantaneously)")
        lines = [f"LinearSystem about {point} ({len(self.state_names)} states, "
                 f"{len(self.input_names)} inputs, {len(self.output_names)} outputs{residual})"]
        lines += [f"  {m}" for m in self.modes()]
        return "\n".join(lines)
