"""Moves of the coordinates along the joint-speed directions (DESIGN.md §3.7): the retraction
y ← y ⊕ δ that assembly and the Newton projection of closed loops use.

One move δ_j per joint speed w_j, so a Newton step on c(y ⊕ δ) = 0 has the Jacobian

    ∂c(y ⊕ δ)/∂δ |_(δ=0) = ∂c/∂y · N(y) = C·N,

the holonomic rows of A (ẏ = N(y)·w). Scalar coordinates move additively (y_i ← y_i + δ_j).
A unit quaternion (Spherical, FreeJoint) moves on the unit sphere by the body-fixed rotation
vector δθ of its angular speeds:

    q ← (q ⊗ (1, ½·δθ)) / |q ⊗ (1, ½·δθ)|,

which agrees with q ⊗ exp(½·δθ) to first order (so the Jacobian is the same C·N and Newton
converges quadratically) and, unlike exp, is smooth at δθ = 0 for automatic differentiation
(exp's |δθ| has no derivative there). Reference: the retraction-based Newton method on
manifolds, Absil, Mahony & Sepulchre, *Optimization Algorithms on Matrix Manifolds* (2008), §4.1
and §6.1; the quaternion kinematics q̇ = ½·q ⊗ (0, ω) (Kane and Levinson 1985).
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from ..model.kinematics import Kinematics


def quat_mult(p, q) -> ca.SX:
    """Hamilton product p ⊗ q (scalar first)."""
    return ca.vertcat(p[0] * q[0] - p[1] * q[1] - p[2] * q[2] - p[3] * q[3],
                      p[0] * q[1] + p[1] * q[0] + p[2] * q[3] - p[3] * q[2],
                      p[0] * q[2] - p[1] * q[3] + p[2] * q[0] + p[3] * q[1],
                      p[0] * q[3] + p[1] * q[2] - p[2] * q[1] + p[3] * q[0])


def newton_guess(kin: Kinematics, y, directions: list[int]):
    """First guess of the unknowns of ``retraction(..., absolute=True)``: the current scalar
    coordinates and zero rotation vectors."""
    moved = moved_coordinates(kin)
    return ca.vertcat(*[y[moved[j][0]] if len(moved[j]) == 1 else 0 for j in directions])


def quaternion_blocks(kin: Kinematics) -> list[tuple[int, list[int]]]:
    """(index of q0 in y, indices of the three angular speeds in w) per unit quaternion."""
    blocks, y_start, w_start = [], 0, 0
    for joint in dict.fromkeys(info.joint for info in kin.coordinates):
        offset = joint.UNIT_QUATERNION
        if offset is not None:
            w0 = w_start + len(joint.SPEEDS) - 3   # angular part last (Spherical, FreeJoint)
            blocks.append((y_start + offset, [w0, w0 + 1, w0 + 2]))
        y_start += len(joint.COORDINATES)
        w_start += len(joint.SPEEDS)
    return blocks


def moved_coordinates(kin: Kinematics) -> list[list[int]]:
    """Per joint speed w_j, the coordinates its move changes: a scalar coordinate with
    ẏ_i = w_j (found from N = ∂ẏ/∂w, which also covers a FreeJoint's position), or the four
    entries of a unit quaternion; [] for a speed that moves no coordinate."""
    N = ca.jacobian(kin.ydot, kin.w)
    out: list[list[int]] = [[] for _ in range(kin.w.numel())]
    for i in range(kin.y.numel()):
        row = N[i, :]
        if row.nnz() == 1 and row.nz[0].is_constant() and float(row.nz[0]) == 1.0:
            out[row.sparsity().get_col()[0]] = [i]
    for q0, dirs in quaternion_blocks(kin):
        for j in dirs:
            out[j] = list(range(q0, q0 + 4))
    return out


def retraction(kin: Kinematics, delta: ca.SX, directions: list[int],
               absolute: bool = False) -> ca.SX:
    """y ⊕ δ for the moves ``directions`` (indices into w), δ one entry per direction; the
    other coordinates are returned unchanged (quaternions without a moved direction are not
    even renormalized, so unconstrained joints see exactly their integrated values).
    ``absolute``: the entries of scalar moves are the new coordinate values themselves, not
    increments (Newton's unknowns are then the coordinates, as for a loop of revolutes)."""
    y = kin.y
    entries = ca.vertsplit(y) if y.numel() else []
    moved = moved_coordinates(kin)
    for k, j in enumerate(directions):
        if len(moved[j]) == 1:
            entries[moved[j][0]] = delta[k] if absolute else entries[moved[j][0]] + delta[k]
    for q0, dirs in quaternion_blocks(kin):
        if not any(d in directions for d in dirs):
            continue
        half = [0.5 * delta[directions.index(d)] if d in directions else 0 for d in dirs]
        q = quat_mult(y[q0:q0 + 4], ca.vertcat(1, *half))
        q = q / ca.sqrt(ca.sumsqr(q))
        for m in range(4):
            entries[q0 + m] = q[m]
    return ca.vertcat(*entries) if entries else ca.SX(0, 1)


@dataclass(frozen=True)
class Mover:
    """The closure equations with their moves: ``c(y, p)``, ``retract(y, δ)`` (all joint
    speeds), ``linear(y, p) -> (c, ∂c/∂δ at δ = 0)`` and, per joint speed, the coordinates
    its move changes (``moved``). For assembly, c is followed by one row 1 − b per cut
    joint's ``closure_branch`` b (owners in ``branch_owners``): zero with a zero gradient
    on the joint's own poses, 2 on the mirror roots of its closure equations (a revolute's
    axis reversed, a prismatic's frame turned by π), so assembly cannot stop there."""

    c: ca.Function
    retract: ca.Function
    linear: ca.Function
    moved: list
    branch_owners: tuple = ()

    def free_directions(self, held: set[int], among: list[int] | None = None) -> list[int]:
        """Moves (joint speeds) that change none of the coordinates ``held``."""
        dirs = range(len(self.moved)) if among is None else among
        return [j for j in dirs if self.moved[j] and not held.intersection(self.moved[j])]


def mover(kin: Kinematics, c: ca.SX, p: ca.SX, branch: ca.SX | None = None,
          branch_owners: list | None = None) -> Mover:
    """The Mover of the closure equations c(y, p) and branch rows (module docstring)."""
    if branch is not None and branch.numel():
        c = ca.vertcat(c, 1 - branch)
    n = kin.w.numel()
    delta = ca.SX.sym("delta", n)
    moved = retraction(kin, delta, list(range(n)))
    retract = ca.Function("retract", [kin.y, delta], [moved], ["y", "delta"], ["y_moved"])
    c_moved = ca.substitute(c, kin.y, moved)
    J = ca.substitute(ca.jacobian(c_moved, delta), delta, ca.DM.zeros(n))
    linear = ca.Function("c_linear", [kin.y, p], [c, J], ["y", "p"], ["c", "dc_ddelta"])
    c_fn = ca.Function("c", [kin.y, p], [c], ["y", "p"], ["c"])
    return Mover(c_fn, retract, linear, moved_coordinates(kin), tuple(branch_owners or ()))
