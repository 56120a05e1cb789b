"""Consumer: state-feedback design on a LinearSystem with python-control (LQR, pole placement).

The gain K (u = u_op − K·(x − x_op)) carries the names of its rows (inputs) and columns
(states), so it can be wired into a closed-loop model as a StateFeedback signal block whose
state vector is assembled in the same order.

Uncontrollable modes. Internal torques cannot change a conserved quantity (the cube on a
corner keeps its angular momentum about the vertical through the pivot), so A, B has an
uncontrollable mode at λ = 0 and the Riccati equation has no stabilizing solution. The design
is then done on the controllable subspace V (orthonormal Krylov basis of (A, B)):
A_c = Vᵀ·A·V, B_c = Vᵀ·B, Q_c = Vᵀ·Q·V, and K = K_c·Vᵀ. The uncontrollable modes keep their
eigenvalues; an unstable one makes the system not stabilizable, which is an error.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.checks import entry, flag, keywords
from ..visual.reprs import feedback_html
from .laws import feedback_law
from .linear import LinearSystem

RANK_TOL = 1e-9


@dataclass
class Feedback:
    """A state-feedback gain with names: u = u_op − K·(x − x_op).

    K : (inputs × states) gain; state_names / input_names : its column / row names;
    x_op, u_op : the operating point of the design in the same (local) state order;
    closed_loop : eigenvalues of A − B·K [1/s]; uncontrollable : eigenvalues A keeps.
    chart : the linearization's chart, which maps the full state x to the local states
    (quaternions to rotation vectors about the operating point); None: the state names must
    be states of the system and x − x_op is used directly.

    A Feedback drives a simulation (``system.simulate(..., controller=fb)``) or closes the
    loop inside the CasADi graph (``jd.close_loop(system, fb)``), see :meth:`law`.
    """

    K: np.ndarray
    state_names: list[str]
    input_names: list[str]
    x_op: np.ndarray
    u_op: np.ndarray
    closed_loop: np.ndarray
    uncontrollable: np.ndarray
    chart: object = field(default=None, repr=False)

    def law(self, system):
        """(u(t, x, p) as a CasADi Function, names of the inputs it drives) on ``system``;
        see :func:`jourdain.solver.control.laws.feedback_law`."""
        return feedback_law(system, self)

    def _repr_html_(self) -> str:
        return feedback_html(self)

    def __str__(self) -> str:
        width = max(len(n) for n in self.input_names)
        rows = [f"{n:>{width}}: " + " ".join(f"{k:+.4g}" for k in row)
                for n, row in zip(self.input_names, self.K)]
        return ("K (columns: " + ", ".join(self.state_names) + ")\n" + "\n".join(rows) +
                "\nclosed-loop eigenvalues: " +
                ", ".join(f"{lam:.4g}" for lam in self.closed_loop))


def controllable_subspace(A: np.ndarray, B: np.ndarray, tol: float = RANK_TOL) -> np.ndarray:
    """Orthonormal basis V of the controllable subspace span[B, AB, A²B, …], built by
    orthogonalizing each Krylov block against the previous ones (scale-safe, unlike the
    rank of the raw controllability matrix)."""
    n = A.shape[0]
    scale = max(1.0, np.abs(A).max(initial=0.0), np.abs(B).max(initial=0.0))
    V = np.zeros((n, 0))
    block = B.copy()
    while V.shape[1] < n:
        block = block - V @ (V.T @ block)
        U, s, _ = np.linalg.svd(block, full_matrices=False)
        new = U[:, s > tol * scale]
        if new.shape[1] == 0:
            break
        V = np.hstack([V, new])
        block = A @ new
    return V


def weights(spec, names: list[str], what: str, where: str = "lqr") -> np.ndarray:
    """A weight matrix from a matrix, a vector of diagonal entries, a scalar (times the
    identity) or {name: weight}; symmetric and positive semi-definite (R: definite)."""
    n = len(names)
    if isinstance(spec, dict):
        W = np.zeros((n, n))
        for name, value in spec.items():
            if name not in names:
                raise ModelError(f"{where}: {what} weight for unknown name '{name}'; known names: "
                                 + ", ".join(names))
            W[names.index(name), names.index(name)] = entry(value, f"{where}: {what} weight", name)
    else:
        try:
            W = np.asarray(spec, dtype=float)
        except (TypeError, ValueError) as exc:
            raise ModelError(f"{where}: {what} must be a matrix of numbers, got {spec!r}") from exc
        W = W * np.eye(n) if W.ndim == 0 else np.diag(W) if W.ndim == 1 else W
    if W.shape != (n, n):
        raise ModelError(f"{where}: {what} must be {n}×{n} (or {n} diagonal entries, a scalar, or "
                         f"a dict by name), got shape {W.shape}")
    _check_weight(W, names, what, where)
    return W


def _check_weight(W: np.ndarray, names: list[str], what: str, where: str) -> None:
    scale = max(1.0, float(np.abs(W).max(initial=0.0)))
    if not np.all(np.isfinite(W)) or np.abs(W - W.T).max(initial=0.0) > 1e-12 * scale:
        raise ModelError(f"{where}: {what} must be finite and symmetric")
    low = float(np.linalg.eigvalsh(W).min(initial=np.inf))
    definite = what == "R"
    if low < -1e-12 * scale or (definite and low <= 1e-12 * scale):
        need = "positive definite (every input must cost something)" if definite else \
            "positive semi-definite"
        raise ModelError(f"{where}: {what} (rows {', '.join(names)}) must be {need}; its smallest "
                         f"eigenvalue is {low:.3g}")


def require_linear(lin, design: str) -> None:
    """A ModelError unless ``lin`` is a LinearSystem."""
    if not isinstance(lin, LinearSystem):
        hint = " (linearize first: lin = jd.linearize(system, ...))" \
            if hasattr(lin, "functions") else ""
        raise ModelError(f"{design}: expected a jd.LinearSystem, got {type(lin).__name__} "
                         f"{lin!r:.60}{hint}")


def _require_inputs(lin: LinearSystem, design: str) -> None:
    """A stable linearization without inputs has nothing to design (an unstable one is
    reported as not stabilizable first, which says more)."""
    if not lin.input_names:
        raise ModelError(f"{design}: the linearization has no inputs (B has no columns), so "
                         "no feedback can act; add actuators (e.g. a Motor) whose inputs are "
                         "left unconnected, so that they are system inputs")


def _split(lin: LinearSystem):
    V = controllable_subspace(lin.A, lin.B)
    if V.shape[1] == lin.A.shape[0]:
        return V, np.zeros(0)
    N = np.linalg.svd(V, full_matrices=True)[0][:, V.shape[1]:]
    hidden = np.linalg.eigvals(N.T @ lin.A @ N)
    if np.any(hidden.real > RANK_TOL * max(1.0, np.abs(lin.A).max())):
        raise ModelError("the linearization is not stabilizable: uncontrollable eigenvalue(s) "
                         + ", ".join(f"{h:.4g}" for h in hidden if h.real > 0) +
                         " have positive real part; add actuators or change the operating point")
    return V, hidden


def _feedback(lin: LinearSystem, K: np.ndarray, hidden: np.ndarray) -> Feedback:
    closed = np.linalg.eigvals(lin.A - lin.B @ K)
    return Feedback(K, list(lin.state_names), list(lin.input_names),
                    lin.dx_op.copy(), lin.u_op.copy(), closed[np.argsort(-closed.real)], hidden,
                    lin.chart)


def _check_stationary(lin: LinearSystem, design: str, allow: bool) -> None:
    """A constant gain designed about a point the motion leaves has no stability meaning."""
    if allow or lin.kind in ("equilibrium", "steady motion"):
        return
    raise ModelError(f"{design}: the linearization is about a point that is '{lin.kind}' "
                     "(the state does not stay there), so a constant-gain design has no "
                     "stability guarantee; linearize about an equilibrium or a steady motion "
                     "(e.g. with the input u0 that holds it), or pass "
                     "allow_nonstationary=True to design anyway")


@keywords
def lqr(lin: LinearSystem, Q, R, allow_nonstationary: bool = False) -> Feedback:
    """Linear-quadratic regulator: K minimizing ∫ δxᵀQδx + δuᵀRδu dt (python-control
    ``control.lqr``) on the controllable subspace (module docstring).

    Q, R : matrices, diagonals, scalars (times the identity), or {state name: weight} /
    {input name: weight} dicts; Q symmetric positive semi-definite, R positive definite.
    allow_nonstationary : design even about a point that is no equilibrium or steady motion.
    """
    import control

    require_linear(lin, "lqr")
    _check_stationary(lin, "lqr", flag(allow_nonstationary, "lqr: allow_nonstationary"))
    Qm = weights(Q, lin.state_names, "Q")
    Rm = weights(R, lin.input_names, "R")
    V, hidden = _split(lin)
    _require_inputs(lin, "lqr")
    Qc = V.T @ Qm @ V
    Kc, _, _ = control.lqr(V.T @ lin.A @ V, V.T @ lin.B, 0.5 * (Qc + Qc.T), Rm)
    return _feedback(lin, np.asarray(Kc) @ V.T, hidden)


@keywords
def place(lin: LinearSystem, poles, allow_nonstationary: bool = False) -> Feedback:
    """Pole placement (python-control ``control.place``) of the controllable modes; give as
    many poles [1/s] as the controllable subspace has dimensions (``allow_nonstationary`` as
    in :func:`lqr`)."""
    import control

    require_linear(lin, "place")
    _check_stationary(lin, "place", flag(allow_nonstationary, "place: allow_nonstationary"))
    V, hidden = _split(lin)
    _require_inputs(lin, "place")
    poles = _poles(poles)
    if poles.size != V.shape[1]:
        raise ModelError(f"place: {poles.size} poles given, the controllable subspace has "
                         f"dimension {V.shape[1]} ({len(hidden)} uncontrollable mode(s))")
    try:
        Kc = control.place(V.T @ lin.A @ V, V.T @ lin.B, poles)
    except ValueError as exc:   # python-control's own check, e.g. a pole without conjugate
        raise ModelError(f"place: python-control cannot place the poles {poles.tolist()}: "
                         f"{exc}") from exc
    return _feedback(lin, np.asarray(Kc) @ V.T, hidden)


def _poles(poles) -> np.ndarray:
    """The desired poles as a finite complex vector [1/s]."""
    try:
        values = np.asarray(poles, dtype=complex).ravel()
    except (TypeError, ValueError):
        values = None
    if values is None or isinstance(poles, (str, bytes)) or not np.all(np.isfinite(values)):
        raise ModelError(f"place: poles must be finite numbers [1/s] (complex ones in "
                         f"conjugate pairs), got {poles!r:.60}")
    return values
