"""Recursive dynamics of a tree with closed loops: the articulated-body algorithm over *nodes*.

A node is a set of tree links whose joint speeds are coupled by constraints (the links of one
closed loop, or of several loops that share a joint; a single tree joint outside every loop is
a node of its own). The constraints are solved for the node's joint speeds beforehand,

    w_node = G_node·z_node,   ẇ_node = G_node·ż_node + γ_node,

z_node its independent speeds, γ = Ġ·z the accelerations of the dependent speeds at ż = 0.
Every body i of the node then moves with its node's base (the link the node hangs from) as

    a_i = ⁱX_b·a_b + J_i·ż_node + ζ_i,   J_i = Σ_path ⁱX_j·S_j·G_j,   ζ_i = Σ_path ⁱX_j·(c_j + S_j·γ_j),

and the node is eliminated like one joint of the articulated-body algorithm (R. Featherstone,
*Rigid Body Dynamics Algorithms*, Springer 2008, Table 7.1; the multi-body joint is the
spatial-operator view of A. Jain, *Robot and Multibody Dynamics*, Springer 2011, ch. 9): with
the articulated inertias I_i^A and bias forces p_i^A of the node's bodies (child nodes
already folded in),

    D = Σ J_iᵀ·I_i^A·J_i,   U = Σ ᵇX_iᵀ·I_i^A·J_i,   u = G_nodeᵀ·τ − Σ J_iᵀ·(I_i^A·ζ_i + p_i^A),
    ż_node = D⁻¹·(u − Uᵀ·a_b),
    I_b^A += Σ ᵇX_iᵀ·I_i^A·ⁱX_b − U·D⁻¹·Uᵀ,   p_b^A += Σ ᵇX_iᵀ·(I_i^A·ζ_i + p_i^A) + U·D⁻¹·u.

For a node of one tree joint (G = 1, γ = 0) these are the articulated-body algorithm's own
formulas. The cost is O(bodies · speeds of their node) and never couples one node's loops
with another's, so loops that ride on loops (a stack of four-bars) cost what they would cost
side by side. 1-D bodies whose rate is a constant combination cᵀ·w of their node's joint
speeds add J·(Gᵀc)(cᵀG) to D and −J·(Gᵀc)·(cᵀγ) to u (a rotor's armature).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca

from . import spatial as sp6


@dataclass
class Node:
    """Links (indices into the link list, parents first) whose joint speeds one set of
    constraints couples, the joint-speed rows they own (and free 1-D rows), the link they hang
    from (−1: the world), their independent speeds (indices into z) and the 1-D bodies they
    move: (J, c) with ω = cᵀ·w[rows], c constant."""

    links: list[int]
    rows: list[int]
    base: int
    cols: list[int]
    one_dim: list = field(default_factory=list)


def _block(G: ca.SX, rows: list[int], cols: list[int]) -> ca.SX:
    if not rows or not cols:
        return ca.SX(len(rows), len(cols))
    return G[rows, cols]


def _entries(vec: ca.SX, rows: list[int]) -> ca.SX:
    return ca.vertcat(*[vec[r] for r in rows]) if rows else ca.SX(0, 1)


def _node_motion(links, node: Node, c, G, gamma) -> tuple[dict, dict]:
    """J_i (6 × speeds of the node) and ζ_i (6) of every link of the node, top down."""
    J, Z = {}, {}
    nz = len(node.cols)
    for i in node.links:
        link = links[i]
        Si = link.S
        Gi, gi = _block(G, link.rows, node.cols), _entries(gamma, link.rows)
        J_i = ca.mtimes(Si, Gi) if link.rows else ca.SX(6, nz)
        Z_i = sp6.add(c[i], sp6.split(ca.mtimes(Si, gi))) if link.rows else c[i]
        if link.parent != node.base:
            J_i = J_i + sp6.motions_to_child(link.R, link.p, J[link.parent])
            Z_i = sp6.add(Z_i, sp6.motion_to_child(link.R, link.p, Z[link.parent]))
        J[i], Z[i] = J_i, Z_i
    return J, Z


def _eliminate(links, node: Node, J, Z, IA, pA, G, gamma, tau) -> tuple:
    """The node's D⁻¹, U and u (module docstring); its articulated inertia and bias force are
    added to its base link's."""
    nz = len(node.cols)
    Gn, gn = _block(G, node.rows, node.cols), _entries(gamma, node.rows)
    D, u = ca.SX.zeros(nz, nz), ca.mtimes(Gn.T, _entries(tau, node.rows))
    Ic, F, P = {}, {}, {}
    I_sum, U, Pb = ca.SX.zeros(6, 6), ca.SX.zeros(6, nz), (ca.SX.zeros(3), ca.SX.zeros(3))
    for i in reversed(node.links):
        f_i = sp6.add(sp6.inertia_times(IA[i], Z[i]), pA[i])
        IJ = ca.mtimes(IA[i], J[i])
        D += ca.mtimes(J[i].T, IJ)
        u -= ca.mtimes(J[i].T, sp6.stack(f_i))
        Ic[i] = Ic.get(i, 0) + IA[i]
        F[i] = F.get(i, 0) + IJ
        P[i] = sp6.add(P.get(i, (0, 0)), f_i)
        link = links[i]
        moved = (sp6.inertia_to_parent(link.R, link.p, Ic[i]),
                 sp6.forces_to_parent(link.R, link.p, F[i]),
                 sp6.force_to_parent(link.R, link.p, P[i]))
        if link.parent != node.base:
            parent = link.parent
            Ic[parent] = Ic.get(parent, 0) + moved[0]
            F[parent] = F.get(parent, 0) + moved[1]
            P[parent] = sp6.add(P.get(parent, (0, 0)), moved[2])
        else:
            I_sum, U, Pb = I_sum + moved[0], U + moved[1], sp6.add(Pb, moved[2])
    for J_m, c in node.one_dim:   # 1-D bodies: ω = cᵀ·w, ω̇ = cᵀ·(G·ż + γ)
        g = ca.mtimes(Gn.T, c)
        D += J_m * ca.mtimes(g, g.T)
        u -= J_m * g * ca.dot(c, gn)
    D_inv = _inverse(D)
    if node.base >= 0:
        UD = ca.mtimes(U, D_inv)
        IA[node.base] = IA[node.base] + sp6.symmetric(
            lambda r, q: I_sum[r, q] - ca.dot(UD[r, :].T, U[q, :].T), 6)
        pA[node.base] = sp6.add(pA[node.base], sp6.add(Pb, sp6.split(ca.mtimes(UD, u))))
    return D_inv, U, u


def _inverse(D: ca.SX) -> ca.SX:
    """D⁻¹ of the node's articulated joint-space inertia (small, symmetric positive definite):
    1/D for one speed, else the inverse by a symbolic LDLᵀ (cheaper and better conditioned
    than CasADi's default symbolic QR)."""
    n = D.shape[0]
    if n == 0:
        return ca.SX(0, 0)
    if n == 1:
        return 1 / D
    L_D, LT, perm = ca.ldl(D)
    return ca.ldl_solve(ca.SX.eye(n), L_D, LT, perm)


def loop_accelerations(links: list, nodes: list[Node], motion: tuple, G: ca.SX,
                       gamma: ca.SX, tau: ca.SX, gravity, n_z: int) -> ca.SX:
    """ż by the articulated-body algorithm over ``nodes`` (ordered parents first; module
    docstring). ``motion`` = recursive.velocities(links) (v_i, c_i), G (n_w × n_z) and γ
    (n_w) the constrained speeds' map and bias, τ (n_w) the joint forces, gravity the
    uniform field (base acceleration −g)."""
    v, c = motion
    IA = [link.inertia for link in links]
    pA = [sp6.cross_force(v[i], sp6.inertia_times(link.inertia, v[i]))
          for i, link in enumerate(links)]
    solved = [None] * len(nodes)
    for k in reversed(range(len(nodes))):
        J, Z = _node_motion(links, nodes[k], c, G, gamma)
        solved[k] = _eliminate(links, nodes[k], J, Z, IA, pA, G, gamma, tau)
    world = (ca.SX.zeros(3), -ca.SX(gravity))
    a: list = [None] * len(links)
    zdot = [ca.SX(0)] * n_z
    for node, (D_inv, U, u) in zip(nodes, solved):
        a_b = a[node.base] if node.base >= 0 else world
        zd = ca.mtimes(D_inv, u - ca.mtimes(U.T, sp6.stack(a_b)))
        wd = ca.mtimes(_block(G, node.rows, node.cols), zd) + _entries(gamma, node.rows)
        for i in node.links:
            link = links[i]
            a_p = a[link.parent] if link.parent >= 0 else world
            acc = sp6.add(sp6.motion_to_child(link.R, link.p, a_p), c[i])
            wd_i = ca.vertcat(*[wd[node.rows.index(r)] for r in link.rows]) \
                if link.rows else ca.SX(0, 1)
            a[i] = sp6.add(acc, sp6.split(ca.mtimes(link.S, wd_i))) if link.rows else acc
        for k, col in enumerate(node.cols):
            zdot[col] = zd[k]
    return ca.vertcat(*zdot) if n_z else ca.SX(0, 1)
