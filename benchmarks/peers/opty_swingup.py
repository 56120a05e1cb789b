"""Peer implementation of the pendulum and cart-pole swing-ups in opty (direct collocation with
sympy-generated, Cython-compiled constraints and cyipopt).

Only the benchmark imports this module; it is no part of jourdain. The models must match the
benchmark's jourdain models exactly:

* pendulum: point mass m = 1 kg at l = 1 m below a revolute pivot, angle φ from hanging down
  (counter-clockwise), torque τ [N·m] at the pivot: m·l²·φ̈ = −m·g·l·sin φ + τ.
* cart-pole (jourdain.library.CartPole defaults): cart m_c = 1 kg on x, uniform pole
  m_p = 0.1 kg, l = 1 m, central inertia J = m_p·l²/12, angle φ from upright
  (counter-clockwise), force f [N] on the cart. Pole center of mass at
  (s − (l/2)·sin φ, (l/2)·cos φ); the equations follow from Lagrange's equations below.

Transcription: opty's backward Euler on num_nodes = N + 1 nodes, h = T/N, one input value per
node; the objective h·Σ_{k≥1} u_k² is the same sum jourdain's Radau collocation of degree 1
(backward Euler with piecewise-constant inputs) forms.
"""
from __future__ import annotations

import time

import numpy as np
import sympy as sm

G = 9.81


def _lagrange(T, V, q, qd, forces):
    """Rows of d/dt ∂L/∂q̇ − ∂L/∂q − Q = 0 with L = T − V, as sympy expressions of time."""
    t = sm.symbols("t")
    L = T - V
    return [sm.diff(sm.diff(L, qdi), t) - sm.diff(L, qi) - Q
            for qi, qdi, Q in zip(q, qd, forces)]


def pendulum_eom():
    """(states, input, eom) of the torque-driven pendulum, eom = 0 in opty's implicit form."""
    t = sm.symbols("t")
    phi, w, tau = (sm.Function(n)(t) for n in ("phi", "w", "tau"))
    m, l = 1.0, 1.0
    eom = sm.Matrix([phi.diff(t) - w, m * l**2 * w.diff(t) + m * G * l * sm.sin(phi) - tau])
    return (phi, w), tau, eom


def cartpole_eom(m_c: float = 1.0, m_p: float = 0.1, l: float = 1.0):
    """(states, input, eom) of the cart-pole derived by Lagrange's equations."""
    t = sm.symbols("t")
    s, phi, v, w, f = (sm.Function(n)(t) for n in ("s", "phi", "v", "w", "f"))
    J = m_p * l**2 / 12
    x_cm, y_cm = s - l / 2 * sm.sin(phi), l / 2 * sm.cos(phi)
    T = (m_c * s.diff(t)**2 + m_p * (x_cm.diff(t)**2 + y_cm.diff(t)**2)
         + J * phi.diff(t)**2) / 2
    V = m_p * G * y_cm
    rows = _lagrange(T, V, (s, phi), (s.diff(t), phi.diff(t)), (f, 0))
    subs = {s.diff(t, 2): v.diff(t), phi.diff(t, 2): w.diff(t), s.diff(t): v,
            phi.diff(t): w}
    eom = sm.Matrix([s.diff(t) - v, phi.diff(t) - w] +
                    [sm.simplify(r.subs(subs)) for r in rows])
    return (s, phi, v, w), f, eom


def build(states, u, eom, N: int, T: float, initial, final, bounds: dict, tol: float):
    """The opty Problem (min h·Σ u_k², rest-to-rest boundary conditions), the initial guess
    (states interpolated linearly, input 0) and the setup time [s] (code generation and
    compilation)."""
    from opty import Problem
    num_nodes, h = N + 1, T / N
    n = len(states)

    def objective(free):
        return h * np.sum(free[n * num_nodes + 1:] ** 2)

    def gradient(free):
        grad = np.zeros_like(free)
        grad[n * num_nodes + 1:] = 2.0 * h * free[n * num_nodes + 1:]
        return grad

    constraints = tuple(x.func(0.0) - a for x, a in zip(states, initial)) + \
        tuple(x.func(T) - b for x, b in zip(states, final))
    start = time.perf_counter()
    prob = Problem(objective, gradient, eom, states, num_nodes, h,
                   instance_constraints=constraints, bounds=bounds,
                   integration_method="backward euler", time_symbol=sm.symbols("t"))
    for key, value in (("tol", tol), ("print_level", 0), ("mu_strategy", "adaptive")):
        prob.add_option(key, value)
    setup = time.perf_counter() - start
    guess = np.concatenate([np.linspace(a, b, num_nodes) for a, b in zip(initial, final)] +
                           [np.zeros(num_nodes)])
    return prob, guess, setup


def solve(prob, guess) -> dict:
    """One IPOPT solve: wall time [s], iterations, cost, status."""
    prob.obj_value = []
    start = time.perf_counter()
    _, info = prob.solve(guess)
    elapsed = time.perf_counter() - start
    status = info["status_msg"]
    return {"solve_time": elapsed, "cost": float(info["obj_val"]),
            "status": status.decode() if isinstance(status, bytes) else str(status),
            "iterations": _iterations(prob)}


def _iterations(prob):
    """opty appends the objective of every iteration to ``obj_value``; the first entry is
    the starting point."""
    values = getattr(prob, "obj_value", None)
    return len(values) - 1 if isinstance(values, (list, tuple)) and values else None
