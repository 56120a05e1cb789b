"""Flange coordinates whose mass comes only through a row that is a constraint in every mode
(docs/hybrid.md, "Shafts without inertia"): a LossyGear's flange_b straight into a Clutch,
as in the MSL's Rotational.Examples.HeatLosses. The teeth are the row γ_P = J_P·z (the mesh,
a constraint in every mode), and the net behind them carries no inertia, so M is singular
while the saddle-point (KKT) system

    [ M    J_Pᵀ ] [ ż  ]   [ q − k + Jᵀ·λ ]
    [ J_P  0    ] [ −λ_P ] = [ −target_P    ]

is regular. The hybrid stage never inverts M alone: on every solution J_P·ż = −target_P,
so adding J_Pᵀ·R·(J_P·ż + target_P) = 0 to the equations of motion changes nothing and gives

    M̃·ż = q − k − J_Pᵀ·R·target_P + Jᵀ·λ,      M̃ = M + J_Pᵀ·R·J_P,

with the same ż and the same λ (R > 0 diagonal, the rows' scale of inertia). M̃ is positive
definite exactly when M is positive definite on the motions the always-active rows allow —
when the KKT matrix is regular — and is what the hybrid solve factorizes (the smooth ż_s, the
Delassus matrix, the impact maps and velocity projections: on the constraint manifold
J_P·Δz = 0 and the two metrics agree). Every model with always-active rows is solved so
(where q − k is at hand: not with kinematic drivers or closed loops), which also keeps a light
shaft behind the gear as accurate as a heavy one. A net that stays without mass even so (a
LossyGear with no inertia on either side) is refused by name.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.flanges import describe_net
from ..model.mechanics import Mechanics
from ..model.speeds import Speeds

SINGULAR = 1e-10   # relative eigenvalue of M̃'s block below which it counts as singular


def massless_dofs(mech: Mechanics) -> list:
    """The 1-D coordinates' owners marked massless by the flange network (their mass can
    come only through a hybrid coupling's row), in coordinate order."""
    return list(dict.fromkeys(c.joint for c in mech.kin.coordinates
                              if getattr(c.joint, "massless", False)))


def refuse_massless(mech: Mechanics, why: str) -> None:
    """A ModelError naming the nets when the model has massless coordinates and ``why``
    (a closed loop, a kinematic driver, …) rules out the saddle-point solve."""
    dofs = massless_dofs(mech)
    if dofs:
        nets = "; ".join(describe_net(mech.flat, d.net) for d in dofs)
        raise ModelError(f"flange net {nets} carries no inertia: its mass comes only through "
                         f"a LossyGear's teeth, which is supported on its own but not {why} "
                         "yet; attach an Inertia to the net")


def through_rows(permanent: list[int], M: ca.SX, rhs: ca.SX, J: ca.SX, target: ca.SX,
                 groups: np.ndarray, solve_blocks):
    """(M̃, ż_s, groups) of the module docstring: M augmented by the always-active rows
    ``permanent`` (indices into J), the smooth ż_s = M̃⁻¹·(q − k − J_Pᵀ·R·target_P) and the
    groups of speeds merged where those rows couple them. R_i = (Σ_k |J_ik|·M_kk + tr M/n)
    / |J_i|²: the inertia the row's speeds carry, so M̃ keeps M's scale (any R > 0 gives
    the same ż and λ). ``solve_blocks(M, B, groups)``: M⁻¹·B group by group (the
    hybrid dynamics' sparse symbolic LDLᵀ)."""
    n = M.size1()
    diag = ca.diag(M)
    mean = ca.sum1(diag) / max(n, 1)
    M_aug, shift = ca.SX(M), ca.SX.zeros(n)
    for i in permanent:
        row = J[i, :]
        norm = ca.sumsqr(row)   # 0 only where the row moves nothing (then it adds nothing)
        weight = ca.if_else(norm > 0, (ca.mtimes(ca.fabs(row), diag) + mean) / norm, 0)
        M_aug = M_aug + weight * ca.mtimes(row.T, row)
        shift = shift + weight * target[i] * row.T
    groups = _merged(groups, J, permanent)
    zdot = solve_blocks(M_aug, rhs - shift, groups)
    return M_aug, zdot, groups


def _merged(groups: np.ndarray, J: ca.SX, permanent: list[int]) -> np.ndarray:
    """The speed groups joined wherever an always-active row couples speeds of two groups
    (M̃ couples them)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    n = groups.size
    rows, cols = list(range(n)), list(range(n))
    for i in permanent:
        deps = sorted(set(ca.sparsify(J[i, :]).sparsity().get_col()))
        rows += [deps[0]] * len(deps)
        cols += deps
    for k in range(int(groups.max()) + 1 if n else 0):
        members = np.flatnonzero(groups == k)
        rows += [int(members[0])] * len(members)
        cols += [int(m) for m in members]
    graph = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
    return connected_components(graph, directed=False)[1]


def smooth_f(functions: dict, ny: int, nz: int, zdot: ca.SX, t, x, u, p) -> dict:
    """``f`` (and its ``f:rows`` twin) with the speeds' block replaced by ż_s of M̃: the
    back end's M⁻¹·(q − k) has no value where M is singular."""
    out = {}
    for key in ("f", "f:rows"):
        fn = functions.get(key)
        if fn is None:
            continue
        args = [t, x, u, p]
        if key == "f:rows":
            args.append(ca.SX.sym("lambda", fn.sparsity_in(4)))
        xdot = fn(*args)
        xdot = ca.vertcat(xdot[:ny], zdot, xdot[ny + nz:])
        out[key] = ca.Function(fn.name(), args, [xdot], fn.name_in(), fn.name_out())
    return out


def check_regular(mech: Mechanics, sp: Speeds, M_rows: ca.Function, groups: np.ndarray,
                  p0: np.ndarray) -> None:
    """M̃ must be regular on every group holding a massless coordinate (the KKT matrix is
    then regular), at a generic configuration; else the net has no mass even through the
    rows: a ModelError naming it."""
    dofs = massless_dofs(mech)
    y = np.random.default_rng(2).uniform(-1.0, 1.0, mech.kin.y.numel())
    mass = np.array(M_rows(y, p0), dtype=float)
    names = list(sp.names)
    for dof in dofs:
        name = f"{dof.path}.{dof.SPEEDS[0].name}"   # user-chosen speeds: every group
        block = np.flatnonzero(groups == groups[names.index(name)]) if name in names else \
            np.arange(len(names))
        eig = np.linalg.eigvalsh(0.5 * (mass[np.ix_(block, block)] +
                                        mass[np.ix_(block, block)].T))
        scale = max(float(np.abs(eig).max()), 1e-300)
        if np.abs(eig).min() <= SINGULAR * scale:
            gears = ", ".join(dict.fromkeys(
                port.owner.path for port in mech.flat.net_ports_of(dof.net)
                if type(port.owner).__name__ == "LossyGear"))
            raise ModelError(
                f"flange net {describe_net(mech.flat, dof.net)} carries no inertia and gets "
                f"none through the teeth of {gears or 'its gear'}: the motion it allows moves "
                "no mass (the saddle-point system [M Jᵀ; J 0] of the equations of motion and "
                "the gear's mesh is singular, e.g. no inertia on either side of the gear); "
                "attach an Inertia to this net or to the gear's other flange")
