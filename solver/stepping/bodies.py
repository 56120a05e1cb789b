"""The smooth part of the stepping mode's step for a scene of free bodies that do not couple
(docs/hybrid.md, "Many balls in the stepping mode"): one body's update mapped over the
bodies (:mod:`.uniform`) instead of the model's f expanded for all of them.

Used by the broad phase's step (:mod:`.slot_step`) when every contact runs in a slot (no
contact compiled pair by pair), the state has no component states, and ẋ = f(x) splits into
equal parts (:func:`.uniform.independent_groups`: each body's rates read its own states
only — its block of the mass matrix, no joint or force to another body — and every part is
the same function); otherwise None, and the step expands f as before (:mod:`.step`).

``mapped_parts(system)`` → (kinematics, None, finish, sizes) with the interface of
:func:`.step.build_step` for no compiled contact (iterations=None): kinematics(t, x, u, p, h)
→ (J, B, w_n, w_t, b, z_free, gap) with z_free = z + h·ż(t, x) and no rows; finish(t, x, u,
p, h, zl, J, w_n, b, gap, z_free) → (x⁺, ledger residuals) with y⁺ = y + h·ẏ(y, z⁺), unit
quaternions renormalized, as :func:`.step._finish` computes them (the same SX expressions,
split by body).
"""
from __future__ import annotations

import casadi as ca

from .step import _normalized
from .uniform import independent_groups, uniform

RESIDUALS = 5      # the ledger entries of .step._finish for no compiled contact


def mapped_parts(system):
    """(kinematics, None, finish, (nx, nz, 0, nu, np)) or None (module docstring)."""
    ny, nz, nx = len(system.y_names), len(system.z_names), system.nx
    if nx != ny + nz or nz == 0:
        return None
    t, h = ca.SX.sym("t"), ca.SX.sym("h")
    x, u = ca.SX.sym("x", nx), ca.SX.sym("u", len(system.u_names))
    p = ca.SX.sym("p", system.p_default.size)
    f = system.functions.get("f_smooth", system.functions["f"])
    try:
        xdot = f(t, x, u, p)
    except RuntimeError:     # f holds a step SX cannot expand (a linear solve): as before
        return None
    groups = independent_groups(xdot, x)
    if groups is None:
        return None
    z_rows = [g[g >= ny] - ny for g in groups]
    free = uniform(x[ny:] + h * xdot[ny:], [t, x, u, p, h], z_rows, "body_free")
    zl = ca.SX.sym("zl", nz)
    moved = ca.vertcat(x[:ny], zl)
    y_new = _normalized(system, x[:ny] + h * f(t, moved, u, p)[:ny])
    after = uniform(ca.vertcat(y_new, zl), [t, x, u, p, h, zl], groups, "body_after")
    if free is None or after is None:
        return None
    return _kinematics(free, nx, nz, u.numel(), p.numel()), None, \
        _finish(after, nx, nz, u.numel(), p.numel()), (nx, nz, 0, u.numel(), p.numel())


def _kinematics(free, nx: int, nz: int, nu: int, n_p: int) -> ca.Function:
    t, h = ca.MX.sym("t"), ca.MX.sym("h")
    x, u, p = ca.MX.sym("x", nx), ca.MX.sym("u", nu), ca.MX.sym("p", n_p)
    none = ca.MX(0, 1)
    return ca.Function("kinematics", [t, x, u, p, h],
                       [ca.MX(0, nz), ca.MX(nz, 0), none, none, none,
                        free(t, x, u, p, h), none],
                       ["t", "x", "u", "p", "h"],
                       ["J", "B", "w_n", "w_t", "b", "z_free", "gap"])


def _finish(after, nx: int, nz: int, nu: int, n_p: int) -> ca.Function:
    t, h = ca.MX.sym("t"), ca.MX.sym("h")
    x, u, p = ca.MX.sym("x", nx), ca.MX.sym("u", nu), ca.MX.sym("p", n_p)
    zl, J = ca.MX.sym("zl", nz), ca.MX.sym("J", 0, nz)
    w_n, b, gap = (ca.MX.sym(name, 0, 1) for name in ("w_n", "b", "gap"))
    z_free = ca.MX.sym("z_free", nz)
    return ca.Function("finish", [t, x, u, p, h, zl, J, w_n, b, gap, z_free],
                       [after(t, x, u, p, h, zl), ca.MX.zeros(RESIDUALS)],
                       ["t", "x", "u", "p", "h", "zl", "J", "w_n", "b", "gap", "z_free"],
                       ["x_next", "ledger"])

