"""The equations of one partition of a closed-loop mechanism by the recursive algorithms
(``Backend.RECURSIVE``, the default for closed loops): no symbolic elimination.

The partition gives w = G(y)·z with G = [−A_dep⁻¹·A_ind; 1] and, differentiating A·w = 0,

    ẇ = G·ż + γ,   A_dep·γ_dep = −(∂(A·w)/∂y)·ẏ,   γ_ind = 0,

where A_dep is block diagonal over independent loops (the closure equations are written
through each loop's own joints, :func:`.closure.relative_pose`), so G and γ cost one small
solve per loop. Then, in the tree's joint speeds w, substituted w = G·z only at the end:

* ż by the articulated-body algorithm over nodes (:mod:`..equations.loops`): the links of
  loops that share a joint form one node, eliminated at once; everything else is Featherstone's
  algorithm unchanged. Cost O(bodies) for any number of loops, coupled or riding on one
  another;
* M = Gᵀ·M_w·G, k = Gᵀ·(M_w·γ + k_w), q = Gᵀ·q_w (Kane's equations in z) with M_w by the
  composite-rigid-body algorithm and k_w, q_w by recursive Newton–Euler: the System's M, k, q
  functions and the equations with kinematic drivers (only there does ż go through M);
* ẇ = G·ż + γ for the outputs that read accelerations (sensors, cut readings).

Supported: masses on the links of the tree (no point masses riding on line forces, no
massless junctions) and 1-D bodies whose rate is a constant combination of joint speeds;
``None`` from :func:`loop_nodes` otherwise, and the projection back end takes over.
"""
from __future__ import annotations

import casadi as ca

from ..equations.loops import Node, loop_accelerations
from ..equations.projection import EquationsOfMotion
from ..equations.recursive import (
    build_links,
    composite_rigid_body,
    joint_forces,
    newton_euler,
    velocities,
)
from ..model.mechanics import Mechanics
from ..model.speeds import Speeds
from .closure import ConstraintEquations
from .partition import Partition
from .sparse_qr import solve as sparse_solve


def supported(mech: Mechanics) -> bool:
    """True when the recursive algorithms carry the model (module docstring)."""
    if not mech.tree_only or mech.junctions:
        return False
    w, y = mech.kin.w, mech.kin.y
    return not any(ca.depends_on(ca.jacobian(body.w, w), y) for body in mech.inertias)


def _structure(expr: ca.SX, w: ca.SX) -> list[int]:
    """Indices of the joint speeds an expression depends on (structurally)."""
    jac = ca.jacobian(expr, w)
    return sorted(set(jac.sparsity().get_col()))


class _Groups:
    """Union–find over keys ('L', link) and ('F', free 1-D row)."""

    def __init__(self):
        self.parent: dict = {}

    def find(self, key):
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def union(self, keys) -> None:
        keys = list(keys)
        for key in keys[1:]:
            self.parent[self.find(key)] = self.find(keys[0])

    def sets(self) -> list[set]:
        out: dict = {}
        for key in list(self.parent):
            out.setdefault(self.find(key), set()).add(key)
        return list(out.values())


def _chain(parents: list[int], i: int) -> list[int]:
    out = [i]
    while out[-1] >= 0:
        out.append(parents[out[-1]])
    return out


def _base(parents: list[int], group: set) -> int:
    """The link a group of links hangs from: the lowest common ancestor of their parents
    (−1, the world, when free 1-D rows belong to it)."""
    if any(kind == "F" for kind, _ in group):
        return -1
    chains = [_chain(parents, parents[i]) for kind, i in group]
    common = set(chains[0]).intersection(*chains[1:])
    return next(i for i in chains[0] if i in common)


def loop_nodes(mech: Mechanics, eqs: ConstraintEquations, links: list,
               part: Partition) -> list[Node]:
    """The nodes of :mod:`..equations.loops`: links coupled by a constraint row or a 1-D body,
    closed under the path to their common base link, parents first."""
    w = mech.kin.w
    owner = {r: i for i, link in enumerate(links) for r in link.rows}
    parents = [link.parent for link in links]
    groups = _Groups()

    def key(r):
        return ("L", owner[r]) if r in owner else ("F", r)
    for r in range(w.numel()):
        groups.find(key(r))
    for row in range(eqs.A.shape[0]):
        cols = sorted(set(eqs.A[row, :].sparsity().get_col()))
        if cols:
            groups.union(key(r) for r in cols)
    one_dim = []
    for body in mech.inertias:
        c = ca.jacobian(body.w, w)
        cols = sorted(set(c.sparsity().get_col()))
        if cols:
            groups.union(key(r) for r in cols)
            one_dim.append((body.J, c, cols))
    _close_paths(groups, parents)
    nodes = [_node(group, links, parents, part, one_dim) for group in groups.sets()]
    return sorted(nodes, key=lambda n: min(n.links) if n.links else -1)


def _close_paths(groups: _Groups, parents: list[int]) -> None:
    """Add to every group the links between its links and its base, merging groups, until
    each group is a subtree hanging from one link."""
    changed = True
    while changed:
        changed = False
        for group in groups.sets():
            base = _base(parents, group)
            for kind, i in list(group):
                if kind != "L":
                    continue
                for j in _chain(parents, parents[i])[:-1]:
                    if j == base:
                        break
                    if groups.find(("L", j)) != groups.find(("L", i)):
                        groups.union([("L", i), ("L", j)])
                        changed = True


def _node(group: set, links, parents, part: Partition, one_dim) -> Node:
    members = sorted(i for kind, i in group if kind == "L")
    rows = sorted([r for i in members for r in links[i].rows] +
                  [r for kind, r in group if kind == "F"])
    cols = [k for k, j in enumerate(part.independent_speeds) if j in rows]
    bodies = [(J, ca.vertcat(*[c[r] for r in rows])) for J, c, used in one_dim
              if set(used) <= set(rows)]
    return Node(members, rows, _base(parents, group), cols, bodies)


def check_blocks(G: ca.SX, nodes: list[Node]) -> None:
    """G must not couple nodes (each node's speeds move its own rows only)."""
    node_of_col = {col: k for k, node in enumerate(nodes) for col in node.cols}
    for k, node in enumerate(nodes):
        for r in node.rows:
            for col in range(G.shape[1]):
                if node_of_col.get(col) != k and not G[r, col].is_zero():
                    raise RuntimeError(f"internal error: the speed z{col + 1} moves row {r} "
                                       "of another node; please report")


def speed_bias(mech: Mechanics, eqs: ConstraintEquations, part: Partition) -> ca.SX:
    """γ = Ġ·z in (y, w): −A_dep⁻¹·(∂(A·w)/∂y)·ẏ on the dependent speeds, 0 elsewhere."""
    kin = mech.kin
    n = kin.w.numel()
    A = eqs.A[part.velocity_rows, :]
    gamma = ca.SX.zeros(n)
    if not part.dependent_speeds:
        return gamma
    bias = ca.jtimes(ca.mtimes(A, kin.w), kin.y, kin.ydot)
    dep = sparse_solve(A[:, part.dependent_speeds], -bias)
    for k, j in enumerate(part.dependent_speeds):
        gamma[j] = dep[k]
    return gamma


def _one_dim_terms(mech: Mechanics) -> tuple:
    """The 1-D bodies' joint-space inertia Σ J·c·cᵀ and bias Σ J·c·(∂ω/∂y·ẏ) (c = ∂ω/∂w)."""
    kin = mech.kin
    n = kin.w.numel()
    M, k = ca.SX.zeros(n, n), ca.SX.zeros(n)
    for body in mech.inertias:
        c = ca.jacobian(body.w, kin.w).T
        M += body.J * ca.mtimes(c, c.T)
        k += body.J * c * ca.jtimes(body.w, kin.y, kin.ydot)
    return M, k


def recursive_equations(mech: Mechanics, eqs: ConstraintEquations, part: Partition,
                        G: ca.SX, sp: Speeds) -> tuple:
    """(M, k, q, ż) in the partition's speeds z, and the map ż ↦ ẇ = G·ż + γ (module
    docstring), all in (t, y, z, u, s, p)."""
    kin = mech.kin
    links = build_links(mech)
    nodes = loop_nodes(mech, eqs, links, part)
    check_blocks(G, nodes)
    gamma = speed_bias(mech, eqs, part)
    tau = joint_forces(mech)
    motion = velocities(links)
    zdot = loop_accelerations(links, nodes, motion, G, gamma, tau, mech.gravity,
                              sp.z.numel())
    n = kin.w.numel()
    M1, k1 = _one_dim_terms(mech)
    M_w = composite_rigid_body(links, n) + M1
    k_w = newton_euler(links, ca.SX.zeros(3), ca.SX.zeros(n), motion) + k1
    q_w = tau - newton_euler(links, mech.gravity, ca.SX.zeros(n), None)
    M = ca.mtimes([G.T, M_w, G])
    k = ca.mtimes(G.T, ca.mtimes(M_w, gamma) + k_w)
    q = ca.mtimes(G.T, q_w)

    def in_z(expr):
        return ca.substitute(expr, kin.w, sp.w_of_z)
    gamma_z = in_z(gamma)
    return EquationsOfMotion(M, in_z(k), in_z(q), in_z(zdot)), \
        lambda zd: ca.mtimes(G, zd) + gamma_z
