"""Spatial (6-D) algebra on CasADi expressions for the recursive back end.

Conventions of R. Featherstone, *Rigid Body Dynamics Algorithms*, Springer 2008 (RBDA), ch. 2:
a motion vector is m = (ω, v) (angular part first, v the velocity of the point at the frame
origin), a force vector is f = (n, f) (moment about the origin first). Vectors are stored as a
pair of 3-vectors and a Plücker transform as the pose (R, p) of the child frame in the parent
frame (R: child axes → parent axes, p: child origin in parent coordinates [m]), so that the
products below cost O(1) 3-vector operations and CasADi drops the structural zeros of planar
motion. A spatial inertia is kept as the 6×6 matrix [[A, B], [Bᵀ, C]] (RBDA eq. 2.63).
"""
from __future__ import annotations

import casadi as ca

from jourdain.blocks.geometry import skew


def motion_to_child(R, p, m: tuple) -> tuple:
    """ᶜX_ₚ·m: a motion vector of the parent frame in child coordinates (RBDA eq. 2.24):
    ω_c = Rᵀ·ω, v_c = Rᵀ·(v + ω × p)."""
    w, v = m
    return ca.mtimes(R.T, w), ca.mtimes(R.T, v + ca.cross(w, p))


def motions_to_child(R, p, M: ca.SX) -> ca.SX:
    """ᶜX_ₚ·M for a 6×k matrix of motion vectors (all columns at once): ω × p = −p̃·ω."""
    W = M[:3, :]
    return ca.vertcat(ca.mtimes(R.T, W), ca.mtimes(R.T, M[3:, :] - ca.mtimes(skew(p), W)))


def force_to_parent(R, p, f: tuple) -> tuple:
    """ᶜX_ₚᵀ·f: a force vector of the child frame in parent coordinates (RBDA eq. 2.25):
    f_p = R·f, n_p = R·n + p × f_p."""
    n, f_lin = f
    f_p = ca.mtimes(R, f_lin)
    return ca.mtimes(R, n) + ca.cross(p, f_p), f_p


def forces_to_parent(R, p, F: ca.SX) -> ca.SX:
    """ᶜX_ₚᵀ·F for a 6×k matrix of force vectors (all columns at once)."""
    f_p = ca.mtimes(R, F[3:, :])
    return ca.vertcat(ca.mtimes(R, F[:3, :]) + ca.mtimes(skew(p), f_p), f_p)


def cross_motion(a: tuple, m: tuple) -> tuple:
    """a ×ₘ m = (ω_a × ω_m, v_a × ω_m + ω_a × v_m) (RBDA eq. 2.31)."""
    wa, va = a
    wm, vm = m
    return ca.cross(wa, wm), ca.cross(va, wm) + ca.cross(wa, vm)


def cross_force(a: tuple, f: tuple) -> tuple:
    """a ×* f = (ω_a × n + v_a × f, ω_a × f) (RBDA eq. 2.32)."""
    wa, va = a
    n, f_lin = f
    return ca.cross(wa, n) + ca.cross(va, f_lin), ca.cross(wa, f_lin)


def add(a: tuple, b: tuple) -> tuple:
    return a[0] + b[0], a[1] + b[1]


def stack(m: tuple) -> ca.SX:
    """The 6-vector (angular; linear)."""
    return ca.vertcat(m[0], m[1])


def split(v: ca.SX) -> tuple:
    """A 6-vector, or a 6×k matrix of k motion or force vectors, as (top, bottom)."""
    return v[:3, :], v[3:, :]


def body_inertia(m, c, I_c) -> ca.SX:
    """Spatial inertia about the frame origin of a body with mass m [kg], center of mass c [m]
    and central inertia I_c [kg·m²] (frame axes): [[I_c − m·c̃c̃, m·c̃], [−m·c̃, m·1]]
    (RBDA eq. 2.63)."""
    C = skew(c)
    return ca.blockcat([[ca.SX(I_c) - m * ca.mtimes(C, C), m * C],
                        [-m * C, m * ca.SX.eye(3)]])


def inertia_to_parent(R, p, inertia: ca.SX) -> ca.SX:
    """ᶜX_ₚᵀ·I·ᶜX_ₚ: a spatial inertia (or articulated inertia) of the child frame expressed in
    the parent frame (RBDA eq. 2.66), by a rotation followed by a shift of origin:
    with P = p̃, A' = A − B·P − (B·P)ᵀ − P·C·P, B' = B + P·C, C' = C (P skew, so
    P·Bᵀ = −(B·P)ᵀ). Symmetric blocks are computed on and above the diagonal only."""
    A, B, C = inertia[:3, :3], inertia[:3, 3:], inertia[3:, 3:]
    R = ca.SX(R)
    A = symmetric(lambda i, j: ca.dot(ca.mtimes(R[i, :], A).T, R[j, :].T))
    C = symmetric(lambda i, j: ca.dot(ca.mtimes(R[i, :], C).T, R[j, :].T))
    B = ca.mtimes([R, B, R.T])
    P = skew(p)
    PC, BP = ca.mtimes(P, C), ca.mtimes(B, P)
    A2 = symmetric(lambda i, j: A[i, j] - BP[i, j] - BP[j, i] - ca.dot(PC[i, :].T, P[:, j]))
    B2 = B + PC
    return ca.blockcat([[A2, B2], [B2.T, C]])


def symmetric(entry, n: int = 3) -> ca.SX:
    """The symmetric n×n matrix with entries entry(i, j) evaluated for i ≤ j only."""
    M = ca.SX.zeros(n, n)
    for i in range(n):
        for j in range(i, n):
            M[i, j] = entry(i, j)
            M[j, i] = M[i, j]
    return M


def inertia_times(inertia: ca.SX, m: tuple) -> tuple:
    """I·m for a motion vector m, as a force vector."""
    return split(ca.mtimes(inertia, stack(m)))
