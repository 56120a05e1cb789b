"""The integrator choice of :func:`.simulate.simulate`: Adams or BDF (``Method.AUTO`` decides
by stiffness), the linear solver of BDF's Newton iterations, the right-hand side CVODES runs
(with the Jacobian chosen by :mod:`.jacobian`) and the statistics reported in the Result.

Why a choice: on a non-stiff mechanism (a pendulum chain) BDF pays Newton iterations and
factorizations of I − h·γ·J that Adams–Moulton with functional iteration never needs
(CVODES on the 100-link chain: 52–85× the CPU time of Adams at the same tolerance); on a stiff
one (stiff springs with dampers, a compliant gear, electrical time constants) Adams' step is
bounded by the fastest decaying mode, BDF's only by accuracy (10–30× the other way).

The stiffness test (:func:`stiffness`) looks at the eigenvalues λ of ∂f/∂x at the initial
state (forward differences, nx + 1 evaluations of f). A mode *decays fast* when
Re λ < −max(ζ_min·|λ|, DECAYS / horizon): it is damped (damping ratio at least
``STIFF_DAMPING``) and dies out within the horizon, after which only the explicit method's
stability still feels it. The stiffness ratio is the largest |λ| among those over the largest
|λ| among the others (the motion that must be resolved; at least DECAYS / horizon, below which
a few dozen steps cover the horizon anyway). The system is stiff when the ratio exceeds
``STIFF_RATIO``·rtol^(−1/10) (7.6 at rtol = 1e-8, 3.8 at 1e-5): Adams' accuracy-limited steps
grow as the tolerance tightens, so a larger ratio is needed before stability, not accuracy,
limits its step. Calibrated on spring-damper chains, elastic-joint arms, damped pendulums and
random trees (benchmarks/integrators.py): BDF was 2–6× faster from a ratio of 14 up, Adams
1.6× faster at a ratio of 0.5.
"""
from __future__ import annotations

import time
from enum import Enum
from types import SimpleNamespace

import casadi as ca
import numpy as np

from .jacobian import forward, jacobian_function
from .numeric import NumericFunction

STIFF_DAMPING = 0.2   # ζ above which a mode counts as damped
DECAYS = 20.0         # e-foldings within the horizon for a damped mode to count as decaying
STIFF_RATIO = 1.2     # stiff when ratio > STIFF_RATIO · rtol^(−1/10) (7.6 at rtol = 1e-8)
EIGEN_STATES = 800    # above this many states the test is skipped (Adams unless declared)
INLINE_OPS = 3000     # an SX f up to this size is inlined into CVODES's ODE (module docs)
DENSE_FILL = 0.25     # fraction of nonzeros of ∂f/∂x from which BDF's LU is dense


class Method(Enum):
    """CVODES multistep method."""

    AUTO = "auto"    # default: ADAMS, or BDF when stiffness is declared or detected
    BDF = "bdf"      # backward differentiation + Newton: for stiff models
    ADAMS = "adams"  # Adams–Moulton + functional iteration: no Jacobian, fast when non-stiff


class LinearSolver(Enum):
    """The linear solver of BDF's Newton iterations (CVODES through CasADi)."""

    AUTO = "auto"          # DENSE for a dense ∂f/∂x (chains), SPARSE otherwise (trees)
    SPARSE = "csparse"     # sparse LU (CSparse)
    DENSE = "lapacklu"     # dense LU (LAPACK)
    QR = "qr"              # CasADi's sparse QR (its own default)
    ITERATIVE = "gmres"    # GMRES, matrix-free Krylov iterations on J·v products


def solver_options(linear_solver: LinearSolver, system=None) -> dict:
    """CVODES options selecting ``linear_solver`` (Newton iterations of BDF); AUTO takes
    dense LU when ∂f/∂x of ``system`` has at least DENSE_FILL of its entries (the 100-link
    chain: 24 s against 37 s for sparse LU and 33 s for CasADi's QR), else sparse LU."""
    if linear_solver is LinearSolver.ITERATIVE:
        return {"newton_scheme": "gmres"}
    if linear_solver is LinearSolver.AUTO:
        linear_solver = LinearSolver.SPARSE
        if system is not None and system.nx and \
                jacobian_fill(system) >= DENSE_FILL * system.nx ** 2:
            linear_solver = LinearSolver.DENSE
    return {"linear_solver": linear_solver.value}


def jacobian_fill(system) -> int:
    """Structural nonzeros of ∂f/∂x (from the symbolic f; 0 when it cannot be had)."""
    f = system.functions.get("f")
    try:
        return f.sparsity_jac(f.index_in("x"), 0).nnz()
    except (AttributeError, RuntimeError):
        return 0


def stiffness(system, t0: float, x0: np.ndarray, u0: np.ndarray, p: np.ndarray,
              horizon: float) -> tuple[float, str]:
    """(stiffness ratio, what it is made of) at the initial state (module docstring)."""
    J = state_jacobian(system, t0, x0, u0, p)
    if J is None:
        return np.nan, "the state derivative fails near the initial state"
    lam = np.linalg.eigvals(J)
    size = np.abs(lam)
    decaying = lam.real < -np.maximum(STIFF_DAMPING * size, DECAYS / horizon)
    fast = float(size[decaying].max(initial=0.0))
    slow = max(float(size[~decaying].max(initial=0.0)), DECAYS / horizon)
    return fast / slow, (f"fastest decaying mode |λ| = {fast:.3g} 1/s, fastest other mode "
                         f"{slow:.3g} 1/s")


def state_jacobian(system, t0, x0, u0, p) -> np.ndarray | None:
    """∂f/∂x at (t0, x0) by forward differences (an estimate for the eigenvalues; f may be
    compiled code or hold a Newton projection, so no derivative of it is assumed)."""
    f = NumericFunction(system.f)
    try:
        f0 = f(t0, x0, u0, p)
        J = np.empty((x0.size, x0.size))
        for j in range(x0.size):
            step = 1.5e-8 * max(1.0, abs(x0[j]))
            x = x0.copy()
            x[j] += step
            J[:, j] = (f(t0, x, u0, p) - f0) / step
    except RuntimeError:   # an embedded Newton projection failed
        return None
    return J if np.all(np.isfinite(J)) else None


def choose_method(system, method, stiff: bool | None, grid: np.ndarray, x0: np.ndarray,
                  u0: np.ndarray, p: np.ndarray, rtol: float, watched: bool = False):
    """(ADAMS or BDF, the reason) for ``method``: given ones are kept; AUTO follows ``stiff``
    if given, then stiffness declared by components, then :func:`stiffness`. A
    ConstrainedSystem keeps BDF unless ``watched``: its loops solved by partitioning under the
    partition watch (:mod:`.partitioned`), which then takes the stiffness test too."""
    if method is not Method.AUTO:
        return method, "chosen by the caller"
    if stiff is not None:
        return (Method.BDF if stiff else Method.ADAMS), f"stiff={stiff} given"
    loops = ""
    if getattr(system, "method", None) is not None:   # a ConstrainedSystem
        if not watched:
            # Baumgarte's stabilization terms and the event loop's fixed partition (no
            # watch) were calibrated on BDF, which stops at a singular position of the
            # partition with a failed Newton projection that diagnose() explains
            return Method.BDF, ("closed loops or contacts without the partition watch: BDF, "
                                "which stops at a singular position of the partition")
        # under the watch, Adams stops by name where BDF does (the watch's time warp, not
        # the integrator, halts the motion before a singular partition) and is 2× faster on
        # the non-stiff IFToMM N-four-bar (n = 40, 20 s: 0.9–1.1 s against 2.1–2.3 s)
        loops = "closed loops by partitioning, "
    rows = getattr(getattr(system, "hybrid", None), "rows", None)
    if rows:
        # measured: a block sliding to rest on a GroundContact (rtol 1e-11) took 139 s CPU
        # with Adams and 0.06 s with BDF; a closed mode (stick, contact, stop) is invisible
        # to the stiffness test at x0, so the rows decide before it
        return Method.BDF, ("stops, stick-slip friction or contacts: BDF, whose closed modes "
                            "the stiffness test at the start cannot see")
    declared = getattr(system.structure, "stiff", None) or []
    if declared:
        return Method.BDF, loops + "declared stiff by " + ", ".join(declared[:3]) + \
            (", …" if len(declared) > 3 else "")
    if system.nx > EIGEN_STATES:
        return Method.ADAMS, (f"{loops}{system.nx} states: stiffness test skipped (declare "
                              "stiff=True)")
    ratio, detail = stiffness(system, grid[0], x0, u0, p, grid[-1] - grid[0])
    if not np.isfinite(ratio):
        return Method.BDF, f"{loops}stiffness unknown ({detail}): BDF, the robust choice"
    limit = STIFF_RATIO * rtol ** -0.1
    chosen = Method.BDF if ratio > limit else Method.ADAMS
    relation = ">" if ratio > limit else "≤"
    return chosen, f"{loops}stiffness ratio {ratio:.3g} {relation} {limit:.3g} ({detail})"


def open_mode_adams(system, method, stiff, grid: np.ndarray, x0: np.ndarray, u0: np.ndarray,
                    p: np.ndarray, rtol: float) -> tuple[bool, str]:
    """(True, why) when AUTO may run a hybrid model's segments without an active row on
    Adams (:mod:`.segments`): the rows made AUTO choose BDF, no component declares stiffness,
    the model is a tree (closed loops keep BDF, see :func:`choose_method`) and the smooth
    equations — the dynamics with every row open — pass the stiffness test at x0."""
    if method is not Method.AUTO or stiff is not None or \
            getattr(system, "method", None) is not None or \
            not getattr(getattr(system, "hybrid", None), "rows", None) or \
            getattr(system.structure, "stiff", None) or "f_smooth" not in system.functions:
        return False, ""
    if system.nx <= EIGEN_STATES:
        smooth = SimpleNamespace(f=system.functions["f_smooth"])
        ratio, _ = stiffness(smooth, grid[0], x0, u0, p, grid[-1] - grid[0])
        if not np.isfinite(ratio) or ratio > STIFF_RATIO * rtol ** -0.1:
            return False, ""
    return True, "; Adams in segments where every row is open (non-stiff smooth equations)"


def right_hand_side(system, method) -> tuple[type, ca.Function]:
    """(symbol type, function) of the ODE CVODES integrates. A small SX f is inlined (SX),
    so CasADi expands it with the inputs' interpolants. A large or compiled f is called
    through a wrapper (MX) whose Jacobian is given: with BDF the one chosen by
    :func:`.jacobian.jacobian_function`; with Adams, which never evaluates it, the cheapest
    to build (forward derivatives) — CasADi forms the integrator's Jacobian function when
    it creates the integrator, and its own expansion of f's takes 0.6 s on the 100-link
    chain."""
    f = system.f
    if f.is_a("SXFunction") and f.n_instructions() <= INLINE_OPS:
        return ca.SX, f
    jac = jacobian_function(system) if method is Method.BDF else _forward(system)
    return ca.MX, with_jacobian(f, jac)


def _forward(system) -> ca.Function:
    """The forward-derivative Jacobian of the symbolic f, built once per System (building it
    took most of a short Adams run on a compiled 10-link chain: 6 of 8 ms)."""
    jac = system.__dict__.get("adams_jacobian")
    if jac is None:
        jac = system.adams_jacobian = forward(system.functions.get("f", system.f))
    return jac


def with_jacobian(f: ca.Function, jac: ca.Function) -> ca.Function:
    """rhs calling ``f`` (never inlined) whose Jacobian is ``jac`` (CasADi's signature): an
    integrator created on it takes ``jac`` instead of expanding one of its own."""
    return _wrapper(f, {"custom_jacobian": _renamed(jac, "jac_rhs"), "jac_penalty": 0})


def _wrapper(f: ca.Function, options: dict) -> ca.Function:
    """rhs(t, x, u, p) calling ``f`` (never inlined), with ``options``."""
    args = [ca.MX.sym(f.name_in(i), f.sparsity_in(i)) for i in range(f.n_in())]
    return ca.Function("rhs", args, f.call(args), f.name_in(), f.name_out(),
                       {"never_inline": True, **options})


def _renamed(jac: ca.Function, name: str) -> ca.Function:
    """``jac`` under another name (CasADi pairs a custom Jacobian with 'jac_' + name)."""
    args = [ca.MX.sym(jac.name_in(i), jac.sparsity_in(i)) for i in range(jac.n_in())]
    return ca.Function(name, args, jac.call(args), jac.name_in(), jac.name_out())


def run(integrator: ca.Function, **args) -> tuple[dict, dict]:
    """Call ``integrator`` and return (its outputs, statistics: steps, evaluations, time)."""
    cpu, wall = time.process_time(), time.perf_counter()
    out = integrator(**args)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    raw = integrator.stats()
    stats = {"steps": int(raw.get("nsteps", 0)), "rhs_evaluations": int(raw.get("nfevals", 0)),
             "jacobian_evaluations": int(raw.get("n_call_jacF", 0)),
             "newton_setups": int(raw.get("nlinsetups", 0)),
             "newton_iterations": int(raw.get("nniters", 0)),
             "error_test_failures": int(raw.get("netfails", 0)),
             "cpu_time": cpu, "wall_time": wall}
    return out, stats
