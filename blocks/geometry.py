"""Small rotation helpers on CasADi expressions (work on SX, MX and numbers alike)."""
from __future__ import annotations

import casadi as ca
import numpy as np


def skew(w) -> ca.SX:
    """Cross-product matrix: skew(w) @ x == cross(w, x)."""
    return ca.vertcat(ca.horzcat(0, -w[2], w[1]),
                      ca.horzcat(w[2], 0, -w[0]),
                      ca.horzcat(-w[1], w[0], 0))


def vex(M) -> ca.SX:
    """(M₃₂ − M₂₃, M₁₃ − M₃₁, M₂₁ − M₁₂), the axial vector of M − Mᵀ: 2·ω for M = skew(ω);
    2·sin θ·a for a rotation by θ about a."""
    return ca.vertcat(M[2, 1] - M[1, 2], M[0, 2] - M[2, 0], M[1, 0] - M[0, 1])


def axis_rotation(axis: np.ndarray, angle) -> ca.SX:
    """Rotation by ``angle`` [rad] about the unit vector ``axis`` (Rodrigues' formula).

    The axis is numeric, so CasADi's simplification drops the zero terms and a rotation about a
    coordinate axis is the familiar 3×3 matrix with one cos/sin pair.
    """
    a = ca.DM(axis)
    c, s = ca.cos(angle), ca.sin(angle)
    return c * ca.DM.eye(3) + s * skew(a) + (1 - c) * ca.mtimes(a, a.T)


def unit_axis(axis, owner: str, name: str = "axis") -> np.ndarray:
    """Normalize a joint axis; a zero or non-finite axis is a ModelError naming the component."""
    from .errors import ModelError  # local: keep geometry importable without the error module

    try:
        vec = np.asarray(axis, dtype=float).reshape(3)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{owner}: {name} must be a 3-vector, got {axis!r}") from exc
    norm = float(np.linalg.norm(vec))
    if not np.isfinite(norm) or norm < 1e-12:
        raise ModelError(f"{owner}: {name} must be a non-zero finite 3-vector, got {axis!r}")
    return vec / norm


def quaternion_rotation(q) -> ca.SX:
    """Rotation matrix of the unit quaternion q = (q0, q1, q2, q3), scalar first (Hamilton).

    q is normalized here, so the rotation stays orthogonal even when integration lets |q|
    drift slightly from 1.
    """
    n = q / ca.sqrt(ca.sumsqr(q))
    w, x, y, z = n[0], n[1], n[2], n[3]
    return ca.vertcat(
        ca.horzcat(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
        ca.horzcat(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
        ca.horzcat(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))


def quaternion_rates(q, w_body) -> ca.SX:
    """q̇ = ½·Q(q)·ω for the body-fixed angular velocity ω; qᵀ·q̇ = 0, so |q| is invariant."""
    Q = ca.vertcat(ca.horzcat(-q[1], -q[2], -q[3]),
                   ca.horzcat(q[0], -q[3], q[2]),
                   ca.horzcat(q[3], q[0], -q[1]),
                   ca.horzcat(-q[2], q[1], q[0]))
    return 0.5 * ca.mtimes(Q, w_body)


def from_nxy(n_x, n_y, owner: str, strict: bool = True) -> np.ndarray:
    """Rotation matrix whose columns are the unit axes e_x ∥ n_x, e_y in the plane of n_x and
    n_y, e_z = e_x × e_y, all in the parent frame (the MSL's ``Frames.from_nxy`` as the
    matrix from the new axes to the parent's). Parallel n_x and n_y are a ModelError, or with
    ``strict=False`` (shape axes, as the MSL does) n_y is replaced by y, z or x."""
    from .errors import ModelError

    e_x = unit_axis(n_x, owner, "n_x")
    n_y = unit_axis(n_y, owner, "n_y")
    if not strict and abs(float(np.dot(e_x, n_y))) > 1 - 1e-10:
        n_y = next(c for c in np.eye(3)[[1, 2, 0]] if abs(float(np.dot(e_x, c))) < 0.99)
    e_z = np.cross(e_x, n_y)
    norm = float(np.linalg.norm(e_z))
    if norm < 1e-10:
        raise ModelError(f"{owner}: n_x = {tuple(n_x)} and n_y = {tuple(n_y)} are parallel; "
                         "they must span a plane")
    e_z /= norm
    return np.column_stack([e_x, np.cross(e_z, e_x), e_z])


def normal_pair(axis) -> tuple[np.ndarray, np.ndarray]:
    """Two unit vectors (e1, e2) completing the unit ``axis`` n to a right-handed
    orthonormal basis: e1 = n × h / |n × h| with h the coordinate axis least aligned with n,
    e2 = n × e1 (so e1 × e2 = n)."""
    n = np.asarray(axis, dtype=float)
    helper = np.eye(3)[int(np.argmin(np.abs(n)))]
    e1 = np.cross(n, helper)
    e1 /= np.linalg.norm(e1)
    return e1, np.cross(n, e1)
