"""Stage 6, recursive back end: O(n) equations of motion for tree-structured systems.

R. Featherstone, *Rigid Body Dynamics Algorithms*, Springer 2008 (RBDA):
  ẇ  by the articulated-body algorithm (ABA, RBDA Table 7.1),
  M  by the composite-rigid-body algorithm (CRBA, RBDA Table 6.2),
  k  by the recursive Newton–Euler algorithm (RNEA, RBDA Table 5.1) with ẇ = 0 and no gravity,
  q  = −RNEA(ẇ = 0, w = 0, gravity) + Σ_elements F_e·(∂w_e/∂w)ᵀ,
for the joint speeds w (the default speeds z = w; w = ẏ for scalar joints, the body-axes
angular velocity for quaternion joints), so that M·ẇ + k = q as in
:mod:`jourdain.solver.dynamics`.

Each joint with coordinates starts a *link* whose frame is the joint's child frame; rigid offsets
(joints without coordinates) and the bodies on them are merged into the link they hang from.
The joint model comes from the Joint contract: the relative pose (R, p)(q), the relative twist
v_J = (ω_rel, Rᵀ·ṗ) in child coordinates as a function of the joint's coordinates q and speeds
w, its motion subspace S = ∂v_J/∂w and the bias c_J = (∂v_J/∂q)·q̇ (RBDA §4.4). Gravity enters
as the base acceleration a₀ = (0, −g) and the flange force elements as joint-space forces
τ = Σ F_e·(∂w_e/∂w)ᵀ.

User-chosen speeds z = W(y)·w are mapped afterwards: ż = W·ẇ + (∂(W·w)/∂y)·ẏ, and with
V = ∂w/∂z, M_z = Vᵀ·M·V, k_z = Vᵀ·(M·(∂w(y, z)/∂y)·ẏ + k), q_z = Vᵀ·q (Kane's equations in z).
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from ..model.mechanics import Mechanics
from ..model.speeds import Speeds
from . import spatial as sp6
from .armature import one_dim_terms
from .projection import EquationsOfMotion, solve_spd, to_speeds


@dataclass
class Link:
    """A moving link: its parent link (−1 = world), pose in the parent link frame, joint model
    and the spatial inertia of everything rigidly attached (link coordinates)."""

    parent: int
    R: ca.SX           # link axes -> parent link axes
    p: ca.SX           # link origin in parent link coordinates [m]
    S: ca.SX           # 6×n_w motion subspace (link coordinates)
    v_J: tuple         # relative twist S·w
    c_J: tuple         # (∂v_J/∂q)·q̇
    rows: list[int]    # indices of the joint speeds in w
    inertia: ca.SX     # 6×6 spatial inertia about the link origin [kg, kg·m, kg·m²]
    armature: object = 0   # joint-space inertia of 1-D bodies on this link (.armature)


def build_links(mech: Mechanics) -> list[Link]:
    """Links in breadth-first order (parents first), from the spanning tree of ``mech``."""
    inst, flat, kin = mech.ctx.inst, mech.flat, mech.kin
    placement = {mech.topo.root: (-1, ca.SX.eye(3), ca.SX.zeros(3))}
    links: list[Link] = []
    for edge in mech.topo.edges:
        y_of, w_of = kin.y_slices.get(edge.joint), kin.w_slices.get(edge.joint)
        idx = list(range(w_of.start, w_of.stop)) if w_of else []
        q = kin.y[y_of] if y_of else ca.SX(0, 1)
        qw = kin.w[w_of] if w_of else ca.SX(0, 1)
        R_pc, p_pc, w_c = _child_pose(kin.relative[edge.joint], edge.forward)
        parent, R_lp, p_lp = placement[edge.parent]
        R, p = ca.mtimes(R_lp, R_pc), p_lp + ca.mtimes(R_lp, p_pc)
        if not idx:
            placement[edge.child] = (parent, R, p)
            continue
        qd = kin.ydot[y_of]  # q̇ = N(q)·w, as kinematics composed it
        twist = ca.vertcat(w_c, ca.mtimes(R_pc.T, ca.jtimes(p_pc, q, qd)))
        S = ca.jacobian(twist, qw)
        c_J = sp6.split(ca.jtimes(twist, q, qd))
        links.append(Link(parent, R, p, S, sp6.split(twist), c_J, idx, ca.SX.zeros(6, 6)))
        placement[edge.child] = (len(links) - 1, ca.SX.eye(3), ca.SX.zeros(3))
    for body in flat.bodies:
        index, R, p = placement[flat.net_of[body.frame_a]]
        if index >= 0:
            b = inst[body]
            c = p + ca.mtimes(R, ca.vertcat(*[b.r_cm[i] for i in range(3)]))
            links[index].inertia += sp6.body_inertia(b.m, c, ca.mtimes([R, ca.SX(b.I), R.T]))
    return links


def _select(vec: ca.SX, idx: list[int]) -> ca.SX:
    return ca.vertcat(*[vec[i] for i in idx]) if idx else ca.SX(0, 1)


def _child_pose(rel, forward: bool):
    """(R, p, ω): pose of the tree child frame in the tree parent frame and the child's angular
    velocity relative to the parent in child coordinates, from the joint's RelativeMotion."""
    R_rel, p_rel, w_rel = ca.SX(rel.R), rel.p, rel.w
    if forward:  # child = frame_b; w_rel is given in frame_b (child) axes
        return R_rel, p_rel, w_rel
    return R_rel.T, -ca.mtimes(R_rel.T, p_rel), -ca.mtimes(R_rel, w_rel)


def velocities(links: list[Link]) -> tuple[list, list]:
    """Link velocities v_i = ⁱX_λ·v_λ + v_J and velocity-product accelerations
    c_i = c_J + v_i ×ₘ v_J (RBDA eq. 5.7, 7.34), shared by ABA and RNEA."""
    v: list[tuple] = []
    for link in links:
        v_parent = v[link.parent] if link.parent >= 0 else (ca.SX.zeros(3), ca.SX.zeros(3))
        v.append(sp6.add(sp6.motion_to_child(link.R, link.p, v_parent), link.v_J))
    c = [sp6.add(link.c_J, sp6.cross_motion(v[i], link.v_J)) for i, link in enumerate(links)]
    return v, c


def articulated_body(links: list[Link], motion: tuple, gravity, tau: ca.SX) -> ca.SX:
    """ẇ by the articulated-body algorithm (RBDA Table 7.1), joint forces τ, base acceleration
    a₀ = (0, −g) [m/s²]; ``motion`` = velocities(links)."""
    v, c = motion
    IA = [link.inertia for link in links]
    pA = [sp6.cross_force(v[i], sp6.inertia_times(link.inertia, v[i]))
          for i, link in enumerate(links)]
    U, D_inv, u = [None] * len(links), [None] * len(links), [None] * len(links)
    for i in reversed(range(len(links))):
        link = links[i]
        U[i] = ca.mtimes(IA[i], link.S)
        D_inv[i] = _inverse(ca.mtimes(link.S.T, U[i]) + link.armature)
        u[i] = _select(tau, link.rows) - ca.mtimes(link.S.T, sp6.stack(pA[i]))
        if link.parent < 0:
            continue
        UD = ca.mtimes(U[i], D_inv[i])
        Ia = sp6.symmetric(lambda r, c: IA[i][r, c] - ca.dot(UD[r, :].T, U[i][c, :].T), 6)
        pa = sp6.add(pA[i], sp6.split(ca.mtimes(Ia, sp6.stack(c[i])) + ca.mtimes(UD, u[i])))
        IA[link.parent] = IA[link.parent] + sp6.inertia_to_parent(link.R, link.p, Ia)
        pA[link.parent] = sp6.add(pA[link.parent], sp6.force_to_parent(link.R, link.p, pa))
    return _forward_accelerations(links, gravity, c, U, D_inv, u, tau.numel())


def _forward_accelerations(links, gravity, c, U, D_inv, u, n: int) -> ca.SX:
    """Third ABA pass: a'_i = ⁱX_λ·a_λ + c_i, q̈_i = D⁻¹·(u_i − Uᵀ·a'_i), a_i = a'_i + S·q̈_i."""
    base = (ca.SX.zeros(3), -ca.SX(gravity))
    a: list[tuple] = []
    wdot = [ca.SX(0)] * n
    for i, link in enumerate(links):
        a_parent = a[link.parent] if link.parent >= 0 else base
        a_i = sp6.add(sp6.motion_to_child(link.R, link.p, a_parent), c[i])
        qdd = ca.mtimes(D_inv[i], u[i] - ca.mtimes(U[i].T, sp6.stack(a_i)))
        a.append(sp6.add(a_i, sp6.split(ca.mtimes(link.S, qdd))))
        for k, row in enumerate(link.rows):
            wdot[row] = qdd[k]
    return ca.vertcat(*wdot) if n else ca.SX(0, 1)


def _inverse(D: ca.SX) -> ca.SX:
    """D⁻¹ of the small joint-space articulated inertia (n_q × n_q, symmetric positive
    definite)."""
    if D.shape == (1, 1):
        return 1 / D
    return ca.inv(D)


def newton_euler(links: list[Link], gravity, wdot: ca.SX, motion: tuple | None) -> ca.SX:
    """Inverse dynamics τ = M·ẇ + k − q_gravity by RNEA (RBDA Table 5.1), base acceleration
    a₀ = (0, −g); ``motion`` = velocities(links), or None for w = 0."""
    zero = (ca.SX.zeros(3), ca.SX.zeros(3))
    v = motion[0] if motion else [zero] * len(links)
    a: list[tuple] = []
    f: list[tuple] = []
    for i, link in enumerate(links):
        a_parent = a[link.parent] if link.parent >= 0 else (ca.SX.zeros(3), -ca.SX(gravity))
        a_i = sp6.add(sp6.motion_to_child(link.R, link.p, a_parent),
                      sp6.split(ca.mtimes(link.S, _select(wdot, link.rows))))
        if motion:
            a_i = sp6.add(a_i, motion[1][i])
        a.append(a_i)
        f.append(sp6.add(sp6.inertia_times(link.inertia, a_i),
                         sp6.cross_force(v[i], sp6.inertia_times(link.inertia, v[i]))))
    tau = [ca.SX(0)] * wdot.numel()
    for i in reversed(range(len(links))):
        link = links[i]
        t_i = ca.mtimes(link.S.T, sp6.stack(f[i]))
        for k, row in enumerate(link.rows):
            tau[row] = t_i[k]
        if link.parent >= 0:
            f[link.parent] = sp6.add(f[link.parent], sp6.force_to_parent(link.R, link.p, f[i]))
    return ca.vertcat(*tau) if tau else ca.SX(0, 1)


def composite_rigid_body(links: list[Link], n: int) -> ca.SX:
    """Joint-space mass matrix M(y) by the composite-rigid-body algorithm (RBDA Table 6.2).

    Each link passes the force columns F = I_c·S of all joints in its subtree to its parent as
    one 6×k matrix, so the O(n·depth) entries of M cost O(n) matrix operations here."""
    Ic = [link.inertia for link in links]
    for i in reversed(range(len(links))):
        if links[i].parent >= 0:
            Ic[links[i].parent] = Ic[links[i].parent] + \
                sp6.inertia_to_parent(links[i].R, links[i].p, Ic[i])
    below: list[list] = [[] for _ in links]  # (rows, F) of the subtree, in this link's frame
    rows, cols, values = [], [], []
    for i in reversed(range(len(links))):
        link = links[i]
        sub_rows = list(link.rows) + [r for r_block, _ in below[i] for r in r_block]
        F = ca.horzcat(ca.mtimes(Ic[i], link.S), *[F_j for _, F_j in below[i]])
        block = ca.mtimes(F.T, link.S)  # M[sub_rows, link.rows]
        for a, r in enumerate(sub_rows):
            for b, c in enumerate(link.rows):
                rows += [r, c] if r != c else [r]
                cols += [c, r] if r != c else [c]
                values += [block[a, b]] * (2 if r != c else 1)
        if link.parent >= 0:
            below[link.parent].append((sub_rows, sp6.forces_to_parent(link.R, link.p, F)))
    if not values:
        return ca.SX(n, n)
    # sparse: the speeds of independent bodies do not couple (1,000 free balls: a dense M
    # was 36·10⁶ entries, and every product with it as many)
    return ca.SX.triplet(rows, cols, ca.vertcat(*values), n, n)


def joint_forces(mech: Mechanics) -> ca.SX:
    """τ = Σ_elements F_e·(∂w_e/∂w)ᵀ + Σ_loads (∂v/∂w)ᵀ·f + (∂ω/∂w)ᵀ·t [N, N·m]: the force
    elements and loads as joint forces, in (t, y, w, u, p); F_e = −∂V/∂s − ∂D/∂w_e + f
    (Rayleigh's dissipation function)."""
    w = mech.kin.w
    tau = ca.SX.zeros(w.numel())
    for elem in mech.elements:
        force = elem.spring_force + elem.damping_force + elem.force
        tau += force * ca.jacobian(elem.w, w).T
    for load in mech.loads:   # 3-D force elements, non-uniform gravity (mech.gravity is 0 then)
        tau += load.generalized(w)
    return tau


def recursive(mech: Mechanics, speeds: Speeds) -> EquationsOfMotion:
    """M, k, q and ż for the chosen speeds by the recursive algorithms (module docstring);
    1-D bodies as armatures or a free block (:mod:`.armature`)."""
    links = build_links(mech)
    n = mech.kin.w.numel()
    extra = one_dim_terms(mech, [link.rows for link in links])
    for index, block in extra.armature.items():
        links[index].armature = block
    tau = joint_forces(mech)
    motion = velocities(links)
    wdot = articulated_body(links, motion, mech.gravity, tau)
    M = composite_rigid_body(links, n) + _armature_matrix(links, extra, n)
    k = newton_euler(links, ca.SX.zeros(3), ca.SX.zeros(n), motion)
    q = tau - newton_euler(links, mech.gravity, ca.SX.zeros(n), None)
    if extra.free_rows:
        rows = extra.free_rows
        wdot[rows] = solve_spd(extra.M_free, _select(tau, rows))
    if speeds.identity:
        # one RNEA pass, far cheaper to differentiate than M·a + k − q
        a = ca.SX.sym("a", n)
        return EquationsOfMotion(M, k, q, wdot, (a, _inverse_dynamics(links, extra, mech,
                                                                      motion, a, tau)))
    return _to_speeds(mech, speeds, M, k, q, wdot)


def _inverse_dynamics(links: list[Link], extra, mech: Mechanics, motion, a, tau) -> ca.SX:
    """M·a + k − q by one RNEA pass plus the 1-D bodies' part of M times a (armatures on
    their links' rows, the free block on its own: neither has bias forces)."""
    tau_id = newton_euler(links, mech.gravity, a, motion) - tau
    for index, block in extra.armature.items():
        rows = links[index].rows
        tau_id[rows] = tau_id[rows] + ca.mtimes(block, a[rows])
    if extra.free_rows:
        rows = extra.free_rows
        tau_id[rows] = tau_id[rows] + ca.mtimes(extra.M_free, a[rows])
    return tau_id


def _armature_matrix(links: list[Link], extra, n: int) -> ca.SX:
    """The 1-D bodies' part of M: armatures on their links' rows and the free block."""
    M = ca.SX(n, n)   # structural zeros (sparse), as composite_rigid_body's
    for index, block in extra.armature.items():
        rows = links[index].rows
        M[rows, rows] = M[rows, rows] + block
    if extra.free_rows:
        M[extra.free_rows, extra.free_rows] = extra.M_free
    return M


def _to_speeds(mech: Mechanics, speeds: Speeds, M, k, q, wdot) -> EquationsOfMotion:
    """Map (M, k, q, ẇ) of the joint speeds to the speeds z = W(y)·w."""
    y, w = mech.kin.y, mech.kin.w
    W = ca.jacobian(speeds.z_of_w, w)
    zdot = ca.mtimes(W, wdot) + ca.jtimes(speeds.z_of_w, y, mech.kin.ydot)
    V = ca.jacobian(speeds.w_of_z, speeds.z)
    vdot_z = ca.jtimes(speeds.w_of_z, y, speeds.ydot)
    M_z = ca.mtimes([V.T, M, V])
    k_z = ca.mtimes(V.T, ca.mtimes(M, vdot_z) + to_speeds(k, mech, speeds))
    q_z = ca.mtimes(V.T, to_speeds(q, mech, speeds))
    return EquationsOfMotion(to_speeds(M_z, mech, speeds), k_z, q_z,
                             to_speeds(zdot, mech, speeds))
