"""The peer of the spatial problems: the same mechanism written directly as Lagrange's
equations in plain CasADi (no jourdain), integrated by CVODES.

A problem gives its generalized coordinates q and, as CasADi expressions of q, each body's
rotation R (body axes → world) and center of mass c (world), its mass and central inertia
(body axes), the gravity vector, optional line springs-dampers between two points and
optional closure equations g(q) = 0. T = Σ ½·m·|ċ|² + ½·ωᵀ·I·ω with [ω]× = Rᵀ·Ṙ,
V = −Σ m·gravity·c + springs; M(q)·q̈ = ∂L/∂q − (∂²L/∂q̇∂q)·q̇ + Q_damping, and with closure
equations the index-1 form [M Gᵀ; G 0]·[q̈; λ] = [rhs; −(dG/dt)·q̇] (rows of g must be
independent: a problem with redundant closure equations passes an independent subset).
"""
from __future__ import annotations

import casadi as ca
import numpy as np


def vex(S):
    """The vector of a skew-symmetric 3×3 expression."""
    return ca.vertcat(S[2, 1] - S[1, 2], S[0, 2] - S[2, 0], S[1, 0] - S[0, 1]) / 2


def rot(axis, angle):
    """Rotation by ``angle`` about the unit ``axis`` (Rodrigues), as CasADi SX."""
    n = ca.DM(axis)
    K = ca.skew(n)
    return ca.DM.eye(3) + ca.sin(angle) * K + (1 - ca.cos(angle)) * ca.mtimes(K, K)


def equations(q, bodies, gravity, springs=(), g=None):
    """(ẋ as an SX expression of x = (q, q̇), the energy T + V and the dissipated power) for
    the bodies [(m, I (3×3), R, c)], springs [(k, d, s0, point_a, point_b)] and optional
    closure g(q)."""
    n = q.shape[0]
    v = ca.SX.sym("v", n)
    T, V = 0, 0
    for m, inertia, R, c in bodies:
        cdot = ca.jtimes(c, q, v)
        w = vex(ca.mtimes(R.T, ca.jtimes(ca.reshape(R, 9, 1), q, v).reshape((3, 3))))
        T += 0.5 * m * ca.dot(cdot, cdot) + 0.5 * ca.dot(w, ca.mtimes(ca.DM(inertia), w))
        V -= m * ca.dot(ca.DM(gravity), c)
    dissipated = 0
    Q = ca.SX.zeros(n)
    for k, d, s0, a, b in springs:
        s = ca.norm_2(b - a)
        V += 0.5 * k * (s - s0) ** 2
        sdot = ca.jtimes(s, q, v)
        Q -= d * sdot * ca.jacobian(s, q).T
        dissipated += d * sdot**2
    L = T - V
    dLdv = ca.gradient(L, v)
    M = ca.jacobian(dLdv, v)
    rhs = ca.gradient(L, q) - ca.mtimes(ca.jacobian(dLdv, q), v) + Q
    if g is None:
        acc = ca.solve(M, rhs)
    else:
        G = ca.jacobian(g, q)
        gamma = -ca.mtimes(ca.jacobian(ca.mtimes(G, v), q), v)
        m_c = g.shape[0]
        kkt = ca.blockcat([[M, G.T], [G, ca.SX.zeros(m_c, m_c)]])
        acc = ca.solve(kkt, ca.vertcat(rhs, gamma))[:n]
    x = ca.vertcat(q, v)
    return x, ca.vertcat(v, acc), T + V, dissipated


def integrate(x, xdot, x0, t, rtol=1e-12, atol=1e-12, bdf=True, quad=None):
    """x on the grid t (columns; the first is x0) by CVODES (BDF, or Adams); with ``quad``
    (an expression of x) also its integral from t[0] on the grid, as a second result."""
    opts = {"abstol": atol, "reltol": rtol, "max_num_steps": 10**7}
    if not bdf:
        opts.update(linear_multistep_method="adams", nonlinear_solver_iteration="functional")
    dae = {"x": x, "ode": xdot} if quad is None else {"x": x, "ode": xdot, "quad": quad}
    out = ca.integrator("peer", "cvodes", dae, float(t[0]), list(t[1:]), opts)(x0=x0)
    xs = np.hstack([np.asarray(x0, float).reshape(-1, 1), np.array(out["xf"])])
    if quad is None:
        return xs
    return xs, np.concatenate([[0.0], np.array(out["qf"]).ravel()])


def along(x, expr, xs: np.ndarray) -> np.ndarray:
    """The expression of x evaluated on every column of xs."""
    return np.array(ca.Function("along", [x], [expr]).map(xs.shape[1])(xs))
