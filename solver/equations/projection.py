"""Stage 6, dynamics by Jourdain's principle (Kane's equations; Kane and Levinson 1985):

    M(y)·ż + k(y, z) = q(t, y, z, u),
    M = Σ L_Tᵀ·m·L_T + L_Rᵀ·I·L_R,
    k = Σ L_Tᵀ·m·(ā + ω̃·v) + L_Rᵀ·(I·ᾱ + ω̃·I·ω),
    q = Σ L_Tᵀ·m·Rᵀ·g + Σ_elements F_e·∂w_e/∂z,
(1-D bodies: M += J·LᵀL, k += J·Lᵀ·ω̄ with L = ∂ω_net/∂z, ω̄ = ∂ω_net/∂y·ẏ),

with v and ω in body axes (so I is constant and no R·Rᵀ products appear), partial velocities
L_T = ∂v/∂z, L_R = ∂ω/∂z, and ā = ∂v/∂y·ẏ, ᾱ = ∂ω/∂y·ẏ at ẏ = v(y, z); the ω̃·v term is the
transport term of differentiating body-axes components. A wheel (axisymmetric about its
revolute joint) is written in the joint's non-spinning frame_a axes instead, where I is still
constant; its transport terms use those axes' angular velocity Ω: Ω̃·v and Ω̃·I·ω
(solver.mechanics._body_terms). Element forces are
F = −∂V/∂s − ∂D/∂w + f (1-D elements and 3-D line forces, s = distance), and loads (3-D force
elements, non-uniform gravity) add (∂v/∂z)ᵀ·f + (∂ω/∂z)ᵀ·t.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from ..model.mechanics import Mechanics
from ..model.speeds import Speeds


@dataclass
class EquationsOfMotion:
    """M, k, q and the resulting speed derivative ż, in (t, y, z, u, p); the recursive back
    end adds the inverse dynamics M·a + k − q by RNEA as an expression of the symbol ``a``
    (the analytic Jacobian of :mod:`jourdain.solver.simulation.jacobian`)."""

    M: ca.SX
    k: ca.SX
    q: ca.SX
    zdot: ca.SX
    inverse: tuple | None = None   # (a, M·a + k − q) for the joint speeds, or None


def to_speeds(expr, mech: Mechanics, speeds: Speeds):
    """Express a quantity given in (y, w) in (y, z) by w = W(y)⁻¹·z."""
    if speeds.identity:
        return expr
    return ca.substitute(expr, mech.kin.w, speeds.w_of_z)


def solve_spd(M: ca.SX, b: ca.SX) -> ca.SX:
    """M⁻¹·b by a symbolic LDLᵀ factorization: M is symmetric positive definite, and LDLᵀ is
    cheaper and more accurate than CasADi's default symbolic QR (PERFORMANCE_NOTES.md)."""
    if M.numel() == 0:
        return ca.SX(0, 1)
    D, LT, perm = ca.ldl(M)
    return ca.ldl_solve(b, D, LT, perm)


def jourdain(mech: Mechanics, speeds: Speeds) -> EquationsOfMotion:
    """Kane/Jourdain equations of motion for the chosen speeds."""
    z, y, ydot = speeds.z, mech.kin.y, speeds.ydot
    n = z.numel()
    M, k, q = ca.SX.zeros(n, n), ca.SX.zeros(n), ca.SX.zeros(n)
    for body in mech.bodies:
        v, w = to_speeds(body.v, mech, speeds), to_speeds(body.w, mech, speeds)
        w_axes = to_speeds(body.w_axes, mech, speeds)
        L_T, L_R = ca.jacobian(v, z), ca.jacobian(w, z)
        a_bar, alpha_bar = ca.jtimes(v, y, ydot), ca.jtimes(w, y, ydot)
        Iw = ca.mtimes(body.I, w)
        M += body.m * ca.mtimes(L_T.T, L_T) + ca.mtimes([L_R.T, body.I, L_R])
        k += ca.mtimes(L_T.T, body.m * (a_bar + ca.cross(w_axes, v))) + \
            ca.mtimes(L_R.T, ca.mtimes(body.I, alpha_bar) + ca.cross(w_axes, Iw))
        q += ca.mtimes(L_T.T, body.m * ca.mtimes(body.R.T, mech.gravity))
    for body in mech.inertias:   # 1-D bodies: ½·J·ω² with ω the rate of their flange net
        w = to_speeds(body.w, mech, speeds)
        L = ca.jacobian(w, z)
        M += body.J * ca.mtimes(L.T, L)
        k += body.J * L.T * ca.jtimes(w, y, ydot)
    for elem in mech.elements:
        force = to_speeds(elem.spring_force + elem.damping_force + elem.force, mech, speeds)
        q += force * ca.jacobian(to_speeds(elem.w, mech, speeds), z).T
    for load in mech.loads:  # 3-D force elements, non-uniform gravity: (∂v/∂z)ᵀ·f + (∂ω/∂z)ᵀ·t
        q += to_speeds(load.generalized(z, to_speeds(load.v, mech, speeds),
                                        to_speeds(load.w, mech, speeds)), mech, speeds)
    return EquationsOfMotion(M, k, q, solve_spd(M, q - k))
