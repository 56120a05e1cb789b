"""How the equations of motion are derived (Formulation) and evaluated (Backend), and the choice
between the projection and the recursive back end (DESIGN.md §3.6)."""
from __future__ import annotations

from enum import Enum

import casadi as ca

from jourdain.blocks.errors import ModelError

from ..model.mechanics import Mechanics
from ..model.speeds import Speeds, choose_speeds
from .armature import supported
from .projection import jourdain
from .recursive import build_links, recursive


class Backend(Enum):
    """How the Jourdain equations are evaluated: by projection (closed-form M, k, q; expression
    size O(n³)), by the recursive O(n) algorithms (trees only), or chosen by size."""

    PROJECTION = "projection"  # dynamics.jourdain
    RECURSIVE = "recursive"    # recursive: ABA for ż, CRBA for M, RNEA for k and q
    AUTO = "auto"              # recursive above AUTO_RECURSIVE_SPEEDS speeds


AUTO_RECURSIVE_SPEEDS = 12


class Formulation(Enum):
    """How the equations of motion are derived."""

    JOURDAIN = "jourdain"   # projection: Jourdain's principle / Kane's equations (Kane and Levinson 1985)
    LAGRANGE = "lagrange"   # Lagrange's equations of the 2nd kind + dissipation (Lagrange; Rayleigh's dissipation function)


def equations(mech: Mechanics, sp: Speeds, formulation: Formulation, backend: Backend):
    """M, k, q, ż by the chosen back end (Backend docstring)."""
    if not isinstance(backend, Backend):
        raise ModelError(f"backend must be a jd.Backend, got {backend!r}")
    if backend is Backend.RECURSIVE and formulation is not Formulation.JOURDAIN:
        raise ModelError("Backend.RECURSIVE evaluates the Jourdain/Kane equations; use "
                         "formulation=Formulation.JOURDAIN or backend=Backend.PROJECTION")
    if backend is Backend.RECURSIVE and mech.topo.cut_joints:
        raise ModelError("Backend.RECURSIVE needs a tree-structured system; this model has closed "
                         "loops: use backend=Backend.PROJECTION")
    if backend is Backend.RECURSIVE and not mech.tree_only:
        free = ", ".join(b.path for b in mech.bodies if not b.on_tree)
        raise ModelError(f"Backend.RECURSIVE handles masses on the links of the tree only; {free} "
                         "ride on line forces: use backend=Backend.PROJECTION")
    # user-chosen speeds included: the recursive back end maps them (M_z = VᵀMV) in O(n·nnz W)
    # where the projection is O(n³) (chain n = 40 with two user speeds: 3.9k vs 119k SX ops)
    auto = backend is Backend.AUTO and formulation is Formulation.JOURDAIN \
        and not mech.topo.cut_joints and mech.tree_only and sp.z.numel() > AUTO_RECURSIVE_SPEEDS \
        and supported(mech, [link.rows for link in build_links(mech)])
    if backend is Backend.RECURSIVE or auto:
        return recursive(mech, sp), Backend.RECURSIVE
    return jourdain(mech, sp), Backend.PROJECTION


def default_speed_ops(mech: Mechanics, backend: Backend) -> dict:
    """Operation counts of M, k and f had the joint speeds been the generalized speeds."""
    sp = choose_speeds(mech.kin, None)
    eom, _ = equations(mech, sp, Formulation.JOURDAIN, backend)
    y, z, p, t, u = mech.kin.y, sp.z, mech.params.p, mech.t, mech.ctx.u
    terms = {"M": ([y, p], eom.M), "k": ([y, z, p], eom.k),
             "f": ([t, y, z, u, p, mech.ctx.s], ca.vertcat(sp.ydot, eom.zdot))}
    return {name: ca.Function(name, args, [expr]).n_instructions()
            for name, (args, expr) in terms.items()}


def recursive_inverse(mech: Mechanics, sp: Speeds, drive, functions: dict) -> dict | None:
    """{"inverse_dynamics": ID(t, y, z, a, u, p) = M·a + k − q by one RNEA pass, "M": M(y, p)
    by the CRBA} whatever back end evaluates f, when the recursive algorithms fit the model
    (a tree of links, joint speeds, no component states, no kinematic drivers, no hybrid
    rows, 1-D bodies as armatures or a free block); else None. The recursive derivatives of
    the forward dynamics (:mod:`jourdain.solver.optimal.dynamics_derivatives`) read them."""
    if "inverse_dynamics" in functions:
        return {"inverse_dynamics": functions["inverse_dynamics"], "M": functions["M"]}
    if mech.topo.cut_joints or not mech.tree_only or not sp.identity or drive is not None \
            or mech.ctx.s.numel() or "M_rows" in functions or \
            not supported(mech, [link.rows for link in build_links(mech)]):
        return None
    eom = recursive(mech, sp)
    a, tau = eom.inverse
    y, z, t, u, p = mech.kin.y, sp.z, mech.t, mech.ctx.u, mech.params.p
    return {"inverse_dynamics": ca.Function("inverse_dynamics", [t, y, z, a, u, p], [tau],
                                            ["t", "y", "z", "a", "u", "p"], ["tau"]),
            "M": ca.Function("M", [y, p], [eom.M], ["y", "p"], ["M"])}
