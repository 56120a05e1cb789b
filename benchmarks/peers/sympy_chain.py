"""Peer implementation of the planar n-link pendulum in sympy.physics.mechanics.

This module exists only so the benchmark can compare ``jourdain`` against an
established, independent tool (``sympy.physics.mechanics.KanesMethod``).  It is
not part of the framework and nothing in ``jourdain`` imports it.

The model (must match the benchmark's jourdain model exactly):

* ``n`` links in the vertical x-y plane (x right, y up), gravity
  ``g = 9.81 m/s^2`` along ``-y``.
* Link 1 hinges at the world origin; link ``i`` hinges at the end of link
  ``i-1``.  All hinges are revolute about ``z``.
* Coordinates ``q_i`` are joint-RELATIVE angles (frame ``A_i`` is frame
  ``A_{i-1}`` rotated by ``q_i`` about ``z``); speeds ``u_i = q_i'``
  (kinematic differential equations ``q_i' - u_i = 0``).
* At ``q = 0`` the chain hangs straight down: each link's body axis runs from
  its hinge along its local ``-y`` for length ``l``.
* Each link is a uniform slender rod, ``m = 1 kg``, ``l = 1 m``, mass center
  at ``l/2`` along local ``-y``, central inertia
  ``Ixx = Izz = m l^2 / 12``, ``Iyy = 0`` (rod along ``y``).

Mass, length and gravity stay sympy symbols during the derivation (the usual
way sympy.physics.mechanics is used); their numeric values are passed as extra
arguments to the lambdified functions.

Hand check of the mass matrix for n = 2 (relative angles, I = m l^2/12).
Absolute link angles are th1 = q1, th2 = q1 + q2, and the mass center of link 2
moves with v2 = l th1' e1 + (l/2) th2' e2, so
    T = 1/2 (I + m l^2/4) th1'^2 + 1/2 I th2'^2
        + 1/2 m (l^2 th1'^2 + l^2/4 th2'^2 + l^2 th1' th2' cos q2).
Substituting th1' = u1, th2' = u1 + u2 gives
    M11 = 2 I + m l^2/4 + m (l^2 + l^2/4 + l^2 cos q2) = 2I + m l^2 (3/2 + cos q2)
    M12 = I + m l^2/4 + m l^2/2 cos q2
    M22 = I + m l^2/4
which at q = 0, m = l = 1 is [[8/3, 5/6], [5/6, 1/3]]
(see :func:`check_mass_matrix_n2`).

Command line (from the repository root)::

    python -m benchmarks.peers.sympy_chain N

prints ``run_case(N)`` as a single JSON line on stdout and nothing else.
"""

from __future__ import annotations

import contextlib
import json
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
import sympy as sm
import sympy.physics.mechanics as me
from scipy.integrate import solve_ivp

G = 9.81  # gravity, m/s^2, along -y
MASS = 1.0  # kg, every link
LENGTH = 1.0  # m, every link
Q0 = 0.3  # rad, initial relative angle of every joint
PARAM_VALUES = (MASS, LENGTH, G)  # same order as ChainModel.params
# Probe state for an integrator-free check of the equations: q_i = Q0 and
# u_i = PROBE_SPEED, so velocity-dependent (Coriolis) terms count too.  Needed
# because for n >= 10 the 10 s final state is chaotic (RK45 at 1e-8 vs DOP853
# at 1e-12 differ by ~0.5 rad), so two correct codes cannot agree on it.
PROBE_SPEED = 0.5  # rad/s

# Enough calls for a stable median, yet well under a second even at n = 10.
_RHS_TIMING_CALLS = 2000

# Derived models by n, so rhs_function/run_case reuse derive()'s work.
_CACHE: dict[int, "ChainModel"] = {}


@dataclass
class ChainModel:
    """Symbolic result of one derivation (what the later steps need)."""

    n: int
    q: list  # generalized coordinates q_1..q_n (dynamicsymbols)
    u: list  # generalized speeds u_1..u_n (dynamicsymbols)
    params: tuple  # (m, l, g) symbols
    mass_matrix: sm.Matrix  # dynamic mass matrix, n x n
    forcing: sm.Matrix  # dynamic forcing vector, n x 1
    kinetic_energy: sm.Expr
    potential_energy: sm.Expr  # datum: y = 0 through the top hinge
    t_eom: float


@dataclass
class _Chain:
    """Frames, bodies and loads of the chain, before the equations."""

    frame: me.ReferenceFrame
    origin: me.Point
    q: list
    u: list
    params: tuple
    bodies: list
    loads: list


def _build_chain(n: int) -> _Chain:
    """Frames, points, bodies and gravity loads of the n-link chain."""
    q = me.dynamicsymbols(f"q1:{n + 1}")
    u = me.dynamicsymbols(f"u1:{n + 1}")
    m, l, g = sm.symbols("m l g", positive=True)
    N = me.ReferenceFrame("N")
    origin = me.Point("O")
    origin.set_vel(N, 0)
    hinge, parent = origin, N
    bodies, loads = [], []
    for i in range(n):
        A = me.ReferenceFrame(f"A{i + 1}")
        A.orient_axis(parent, parent.z, q[i])
        # Set omega with u directly rather than q': standard idiom with
        # kd_eqs q' - u = 0 and keeps q' out of the velocities.
        A.set_ang_vel(parent, u[i] * parent.z)
        cm = hinge.locatenew(f"C{i + 1}", -l / 2 * A.y)
        cm.v2pt_theory(hinge, N, A)
        inertia = me.inertia(A, m * l**2 / 12, 0, m * l**2 / 12)
        bodies.append(me.RigidBody(f"B{i + 1}", cm, A, m, (inertia, cm)))
        loads.append((cm, -m * g * N.y))
        tip = hinge.locatenew(f"P{i + 1}", -l * A.y)
        tip.v2pt_theory(hinge, N, A)
        hinge, parent = tip, A
    return _Chain(N, origin, q, u, (m, l, g), bodies, loads)


def derive(n: int) -> dict:
    """Build the model and form Kane's equations; time both together.

    Always derives afresh (so ``t_eom`` is an honest timing) and stores the
    result in the module cache for :func:`rhs_function`.  Returns
    ``{"n": n, "t_eom": seconds, "model": ChainModel}``.
    """
    start = time.perf_counter()
    chain = _build_chain(n)
    t = me.dynamicsymbols._t
    kd = [qi.diff(t) - ui for qi, ui in zip(chain.q, chain.u)]
    kane = me.KanesMethod(chain.frame, q_ind=chain.q, u_ind=chain.u, kd_eqs=kd)
    kane.kanes_equations(chain.bodies, chain.loads)
    mass_matrix, forcing = kane.mass_matrix, kane.forcing
    t_eom = time.perf_counter() - start

    # Energies serve only the drift check, so they are left out of t_eom.
    m, _, g = chain.params
    N = chain.frame
    kinetic = sum(b.kinetic_energy(N) for b in chain.bodies)
    potential = sum(m * g * b.masscenter.pos_from(chain.origin).dot(N.y)
                    for b in chain.bodies)
    model = ChainModel(n, chain.q, chain.u, chain.params, mass_matrix,
                       forcing, kinetic, potential, t_eom)
    _CACHE[n] = model
    return {"n": n, "t_eom": t_eom, "model": model}


def _model(n: int) -> ChainModel:
    """Cached model for n, deriving it if this process has not yet."""
    if n not in _CACHE:
        derive(n)
    return _CACHE[n]


def rhs_function(n: int) -> tuple[Callable, float]:
    """Lambdify the first-order ODE; return ``(rhs, t_lambdify)``.

    ``rhs(t, x)`` takes ``x = [q_1..q_n, u_1..u_n]`` and returns
    ``[u, M(q)^-1 f(q, u)]``.  ``t_lambdify`` (seconds) covers only the
    ``sympy.lambdify`` call; M and f are lambdified together so that
    ``cse=True`` can share subexpressions between them.
    """
    model = _model(n)
    args = [*model.q, *model.u, *model.params]
    start = time.perf_counter()
    mass_and_forcing = sm.lambdify(
        args, [model.mass_matrix, model.forcing], modules="numpy", cse=True)
    t_lambdify = time.perf_counter() - start

    def rhs(t: float, x: np.ndarray) -> np.ndarray:
        mass, forcing = mass_and_forcing(*x, *PARAM_VALUES)
        udot = np.linalg.solve(mass, np.ravel(forcing))
        return np.concatenate((x[n:], udot))

    return rhs, t_lambdify


def energy_function(n: int) -> Callable:
    """Lambdified total energy ``E(x) = T + V`` (V = 0 at the top hinge)."""
    model = _model(n)
    args = [*model.q, *model.u, *model.params]
    total = model.kinetic_energy + model.potential_energy
    energy = sm.lambdify(args, total, modules="numpy", cse=True)
    return lambda x: float(energy(*x, *PARAM_VALUES))


def initial_state(n: int) -> np.ndarray:
    """Benchmark start: every relative angle 0.3 rad, all speeds zero."""
    return np.concatenate((np.full(n, Q0), np.zeros(n)))


def probe_state(n: int) -> np.ndarray:
    """State where ``xdot_probe`` is evaluated: q_i = 0.3, u_i = 0.5."""
    return np.concatenate((np.full(n, Q0), np.full(n, PROBE_SPEED)))


def _median_call_us(rhs: Callable, x: np.ndarray) -> float:
    """Median wall time of one ``rhs`` call, in microseconds."""
    rhs(0.0, x)  # warm-up: first call pays one-off costs
    samples = []
    for _ in range(_RHS_TIMING_CALLS):
        start = time.perf_counter()
        rhs(0.0, x)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def run_case(n: int, t_end: float = 10.0, rtol: float = 1e-8,
             atol: float = 1e-8) -> dict:
    """Derive, lambdify, time one rhs call, simulate and check energy.

    Simulation: ``solve_ivp`` with RK45 from :func:`initial_state` over
    ``[0, t_end]``.  All times are seconds except ``t_rhs`` (µs).
    ``xdot_probe`` is ``rhs`` at :func:`probe_state`, for comparing the
    equations without the integrator.  The returned dict is JSON-serialisable.
    """
    t_eom = derive(n)["t_eom"]
    rhs, t_lambdify = rhs_function(n)
    x0 = initial_state(n)
    t_rhs = _median_call_us(rhs, x0)

    start = time.perf_counter()
    sol = solve_ivp(rhs, (0.0, t_end), x0, method="RK45", rtol=rtol, atol=atol)
    t_sim = time.perf_counter() - start

    energy = energy_function(n)
    x_end = sol.y[:, -1]
    e0, e1 = energy(x0), energy(x_end)
    return {
        "n": n, "peer": "sympy.physics.mechanics.KanesMethod",
        "sympy_version": sm.__version__,
        "t_eom": t_eom, "t_lambdify": t_lambdify, "t_rhs": t_rhs,
        "t_sim": t_sim, "method": "RK45", "rtol": rtol, "atol": atol,
        "t_end": float(sol.t[-1]), "success": bool(sol.success),
        "nfev": int(sol.nfev), "final_state": [float(v) for v in x_end],
        "xdot_probe": [float(v) for v in rhs(0.0, probe_state(n))],
        "energy_start": e0, "energy_end": e1,
        "energy_drift": abs(e1 - e0),
        # Relative to |E0| with the datum at the top hinge (E0 < 0 here).
        "energy_drift_rel": abs(e1 - e0) / abs(e0),
    }


def check_mass_matrix_n2() -> float:
    """Max abs deviation of M(q=0), n=2, from the hand value in the docstring."""
    model = _model(2)
    zero = {qi: 0 for qi in model.q}
    values = dict(zip(model.params, PARAM_VALUES))
    mass = np.array(model.mass_matrix.subs(zero).subs(values), dtype=float)
    expected = np.array([[8 / 3, 5 / 6], [5 / 6, 1 / 3]])
    return float(np.max(np.abs(mass - expected)))


def main(argv: list[str]) -> int:
    """CLI: ``python -m benchmarks.peers.sympy_chain N`` -> one JSON line."""
    if len(argv) != 1:
        print("usage: python -m benchmarks.peers.sympy_chain N", file=sys.stderr)
        return 2
    # Anything a library prints goes to stderr: stdout carries only the JSON.
    with contextlib.redirect_stdout(sys.stderr):
        result = run_case(int(argv[0]))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
