"""The three ways of integrating a constrained model (DESIGN.md §3.7), and the named functions
each adds to the System:

* ``ConstraintMethod.PARTITIONING`` (default): x = (y, z) with z the independent speeds; the
  dependent coordinates are recomputed by Newton on the closure equations wherever the
  equations are evaluated (their integrated values only serve as first guess), so the
  closure residual stays at the Newton tolerance; Jourdain's projection with L = ∂v/∂z.
  The simulation monitors the partition's conditioning and switches partitions on the way
  (:mod:`.repartition`).
* ``ConstraintMethod.BAUMGARTE``: x = (y, w) with all joint speeds, multipliers eliminated,
  constraint drift damped by Baumgarte's terms.
* ``ConstraintMethod.DAE``: x = (y, w) and the multipliers λ algebraic, integrated by IDAS.

Consistent initial states come from :mod:`.assembly` and :mod:`.initial`.
"""
from __future__ import annotations

from enum import Enum

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..equations.driven import driven_dynamics
from ..equations.projection import jourdain, to_speeds
from ..equations.readings import signal_terms
from ..model.mechanics import Mechanics
from ..model.speeds import Speeds, choose_speeds
from .analysis import constrained_speeds
from .assembly import projector
from .closure import ConstraintEquations
from .loop_dynamics import recursive_equations
from .moves import quat_mult, quaternion_blocks
from .multipliers import multiplier_equations
from .partition import Partition, conditioning_function, row_scale

M_GEN_STEPS = 16   # continuation steps of m_gen(q)
M_GEN_ROUNDS = 3   # rounds of the projection's Newton steps per continuation step


class ConstraintMethod(Enum):
    """How constrained equations of motion are integrated."""

    PARTITIONING = "partitioning"   # independent coordinates, dependent ones by Newton
    BAUMGARTE = "baumgarte"         # all speeds, stabilized ODE
    DAE = "dae"                     # all speeds, index-1 DAE with multipliers (IDAS)


def constraint_functions(mech: Mechanics, eqs: ConstraintEquations, A, G, w_expr,
                         part: Partition, scale: np.ndarray | None = None) -> dict:
    """Named functions: A(y, p), G(y, p), c(y, p), the residuals of all equations and the
    partition's conditioning(y, p) (:func:`.partition.conditioning_function`, rows scaled at
    ``part.y_ref`` unless ``scale`` is given)."""
    y, p, w = mech.kin.y, mech.params.p, mech.kin.w
    if scale is None:
        scale = row_scale(eqs.A, mech, part.y_ref, mech.params.defaults)
    v_res = ca.substitute(ca.mtimes(eqs.A, w), w, w_expr[1])
    return {
        "A": ca.Function("A", [y, p], [A], ["y", "p"], ["A"]),
        "G": ca.Function("G", [y, p], [G], ["y", "p"], ["G"]),
        "c": ca.Function("c", [y, p], [eqs.c], ["y", "p"], ["c"]),
        "residuals": ca.Function("residuals", [w_expr[0], p], [eqs.c, v_res],
                                 ["x", "p"], ["position", "velocity"]),
        "conditioning": conditioning_function(eqs.A, y, p, part, scale, mech.params.defaults),
    }


def partitioned_functions(mech: Mechanics, sp: Speeds, zdot, sdot, proj_y: ca.Function,
                          part: Partition, drive=None) -> dict:
    """f(t, x, u, p) with the dependent coordinates projected by Newton (``proj_y``, from
    :func:`.assembly.projector`), project(x, p), and f_projected(t, x, u, p) -> (xdot,
    y_projected) for the simulation's drift monitor; x = (y, z, s). Driven coordinates are
    set to their prescribed values (``drive``) before the projection, so the loop closes
    around them.

    The rates of the integrated coordinates are those of the projected ones, except for a
    unit quaternion that Newton turns (a ball joint in the loop): it turns with the projected
    one's spatial angular velocity, q̇ = q̇*⊗q̄*⊗q (q* projected, q integrated), not with
    q̇* itself. Both agree on the constraint manifold (q = q*); off it, the body-fixed offset
    q̄*⊗q then stays constant, whereas with q̇ = q̇* the additive offset q − q* turns out of
    the directions Newton removes and into the ones it keeps (a coupler's spin), a feedback
    that grew exponentially with the spin rate (energy 130 J → 300 J within 0.5 s for a loop
    FreeJoint–Spherical–Revolute that the DAE integrates to 1e-5 J)."""
    y, p, s = mech.kin.y, mech.params.p, mech.ctx.s
    ny, nz, ns = y.numel(), sp.z.numel(), s.numel()
    apply = drive.apply if drive is not None else (lambda expr: expr)
    xdot = ca.Function("xdot_sx", [mech.t, y, sp.z, s, mech.ctx.u, p],
                       [apply(ca.vertcat(sp.ydot, zdot, sdot))])
    # Everything in SX: the Newton steps, the dynamics and the drivers are inlined into one
    # graph, which the virtual machine evaluates fast and CasADi writes as C.
    t, x = ca.SX.sym("t"), ca.SX.sym("x", ny + nz + ns)
    u, pp = ca.SX.sym("u", mech.ctx.u.numel()), ca.SX.sym("p", p.numel())
    xd = x
    if drive is not None:
        sx = ca.vertcat(y, sp.z, s)
        xd = ca.Function("drive_sx", [mech.t, sx, mech.ctx.u, p], [drive.apply(sx)])(t, x, u, pp)
    yc, residual = proj_y(xd[:ny], pp)
    rates = _transported(xdot(t, yc, xd[ny:ny + nz], xd[ny + nz:], u, pp), x, yc,
                         quaternion_blocks(mech.kin), set(part.dependent_moves))
    return {
        "f": ca.Function("f", [t, x, u, pp], [rates], ["t", "x", "u", "p"], ["xdot"]),
        "project": ca.Function("project", [x, pp], [ca.vertcat(proj_y(x[:ny], pp)[0], x[ny:])],
                               ["x", "p"], ["x_projected"]),
        "f_projected": ca.Function("f_projected", [t, x, u, pp], [rates, yc, residual],
                                   ["t", "x", "u", "p"], ["xdot", "y_projected", "residual"]),
        "newton": proj_y,
    }


def watch_function(functions: dict, ny: int) -> ca.Function:
    """watch(t, x, u, p) -> (ẋ; y projected; Newton's closure residual; ν; det(Â_dep)
    blocks), stacked in one vector: everything a partitioned simulation evaluates per step
    (simulation.partitioned), in one SX graph, so that code generation writes it as one C
    function with its Jacobian (ν, det at the integrated y)."""
    f = functions.get("f_projected", functions["f"])
    t, x = ca.SX.sym("t"), ca.SX.sym("x", f.nnz_in(1))
    u, p = ca.SX.sym("u", f.nnz_in(2)), ca.SX.sym("p", f.nnz_in(3))
    if "f_projected" in functions:
        xdot, yc, residual = f(t, x, u, p)
    else:   # velocity constraints only: nothing projected
        xdot, yc, residual = f(t, x, u, p), x[:ny], ca.SX(0)
    nu, det = functions["conditioning"](x[:ny], p)
    return ca.Function("watch", [t, x, u, p], [ca.vertcat(xdot, yc, residual, nu, det)],
                       ["t", "x", "u", "p"], ["watch"])


def _transported(rates, x, yc, blocks, dep_moves: set):
    """The rates with each Newton-turned quaternion's rows replaced by q̇*⊗q̄*⊗q."""
    entries = ca.vertsplit(rates)
    for q0, dirs in blocks:
        if not dep_moves.intersection(dirs):
            continue
        qs, qd = yc[q0:q0 + 4], rates[q0:q0 + 4]
        turned = quat_mult(quat_mult(qd, ca.vertcat(qs[0], -qs[1:4])), x[q0:q0 + 4])
        entries[q0:q0 + 4] = ca.vertsplit(turned)
    return ca.vertcat(*entries)


def multiplier_functions(mech: Mechanics, eom, A, c_ind, alpha: float, beta: float,
                         sp: Speeds) -> dict:
    """Baumgarte ODE f, the DAE (ode, alg) and the explicit multipliers, in x = (y, w, s);
    the states s and outputs with the accelerations of the explicit multipliers (cut and
    acceleration sensors read them, equations.readings)."""
    kin, p = mech.kin, mech.params.p
    t, u, x = mech.t, mech.ctx.u, ca.vertcat(kin.y, kin.w, mech.ctx.s)
    me = multiplier_equations(eom.M, eom.k, eom.q, A, c_ind, kin.y, kin.w, kin.ydot,
                              alpha, beta)
    sdot, out, residuals = signal_terms(mech, sp, me.wdot)   # no drivers here (refused)
    return {
        "f": ca.Function("f", [t, x, u, p], [ca.vertcat(kin.ydot, me.wdot, sdot)],
                         ["t", "x", "u", "p"], ["xdot"]),
        "dae": ca.Function("dae", [t, x, me.lam, u, p],
                           [ca.vertcat(kin.ydot, me.wdot_of_lam, sdot), me.alg],
                           ["t", "x", "lambda", "u", "p"], ["ode", "alg"]),
        "multipliers": ca.Function("multipliers", [t, x, u, p], [me.lam_explicit],
                                   ["t", "x", "u", "p"], ["lambda"]),
        # outputs, states and initial equations that read ẇ take the constrained accelerations
        "h": ca.Function("h", [t, x, u, p], [out], ["t", "x", "u", "p"], ["out"]),
        "init": ca.Function("init", [t, x, u, p], [residuals], ["t", "x", "u", "p"],
                            ["residual"]),
    }


def one_dof_mass(mech: Mechanics, sp: Speeds, eom, proj_y: ca.Function | None,
                 part: Partition) -> dict:
    """m_gen(q, p) for one-DOF mechanisms whose speed is a coordinate rate (Lagrange's equations, generalized mass):
    the 1×1 mass matrix with the other coordinates assembled from q."""
    kin = mech.kin
    if sp.z.numel() != 1 or not kin.rates_are_derivatives:
        return {}
    j = part.independent_speeds[0]
    i = [c.name for c in kin.coordinates].index(kin.rates[j].derivative_of)
    q, pp = ca.MX.sym("q"), ca.MX.sym("p", mech.params.p.numel())
    y_ref = ca.DM(part.y_ref)
    y = ca.MX(y_ref)
    # Newton continuation from the reference assembly in M_GEN_STEPS steps keeps the
    # reference's assembly branch for any q within ±π of it.
    for k in range(1, M_GEN_STEPS + 1):
        qk = y_ref[i] + k / M_GEN_STEPS * (q - y_ref[i])
        entries = ca.vertsplit(y)  # (MX slices of empty ranges are 1×0, not 0×1)
        entries[i] = qk
        y = ca.vertcat(*entries)
        for _ in range(M_GEN_ROUNDS if proj_y is not None else 0):
            y = proj_y(y, pp)[0]
    M = ca.Function("M_sx", [kin.y, mech.params.p], [eom.M])
    return {"m_gen": ca.Function("m_gen", [q, pp], [M(y, pp)], ["q", "p"], ["m_gen"])}


def speeds_for(mech: Mechanics, method: ConstraintMethod, G, part, names) -> Speeds:
    """Independent speeds z (partitioning) or all joint speeds w (multiplier methods)."""
    if method is ConstraintMethod.PARTITIONING:
        return constrained_speeds(mech, G, part, names)
    return choose_speeds(mech.kin, None)


def state_expr(mech: Mechanics, sp: Speeds):
    """(x, w(x)): the state symbol x = (y, z, s) and the joint speeds it implies."""
    x = ca.vertcat(mech.kin.y, sp.z, mech.ctx.s)
    return x, to_speeds(mech.kin.w, mech, sp)


def check_baumgarte(baumgarte) -> None:
    """(α, β): two finite rates ≥ 0 [1/s] (negative ones would amplify the drift)."""
    try:
        ok = len(baumgarte) == 2 and all(np.isfinite(float(v)) and float(v) >= 0
                                         for v in baumgarte)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ModelError(f"baumgarte must be a pair (alpha, beta) of rates >= 0 [1/s], got "
                         f"{baumgarte!r}")


def partition_equations(mech: Mechanics, eqs, part: Partition, G, user_names: list[str],
                        recursive: bool) -> tuple:
    """(speeds, M k q ż, ż with drivers, Drive or None, ẇ or None) of a partition: by the
    recursive algorithms over loop nodes (:mod:`.loop_dynamics`), or by Jourdain's
    projection with G(y) substituted symbolically (``recursive`` False)."""
    sp = constrained_speeds(mech, G, part, user_names)
    eom, wdot_of = recursive_equations(mech, eqs, part, G, sp) if recursive else \
        (jourdain(mech, sp), None)
    zdot, drive = eom.zdot, None
    if mech.driven:
        zdot, drive = driven_dynamics(mech, sp, eom.M, eom.q - eom.k)
    return sp, eom, zdot, drive, (wdot_of(zdot) if wdot_of is not None else None)


def method_functions(functions: dict, mech: Mechanics, sp, eom, eqs, part, A,
                     method: ConstraintMethod, baumgarte: tuple, zdot=None, drive=None,
                     wdot=None):
    """Add the method's f (and project, dae, multipliers); return the Newton projection of the
    coordinates, or None when nothing is projected. ``zdot``, ``drive``, ``wdot``: the
    equations with drivers (partitioning only), default eom.zdot."""
    c_ind = eqs.c[part.holonomic_rows] if part.holonomic_rows else ca.SX(0, 1)
    if method is ConstraintMethod.PARTITIONING:
        if not part.dependent_moves:
            return None   # velocity constraints only: the plain SX f needs no projection
        proj_y = projector(c_ind, mech.kin, mech.params.p, part.dependent_moves)
        zdot = eom.zdot if zdot is None else zdot
        sdot, _, _ = signal_terms(mech, sp, zdot, drive, wdot)
        functions.update(partitioned_functions(mech, sp, zdot, sdot, proj_y, part, drive))
        return proj_y
    alpha, beta = baumgarte
    functions.update(multiplier_functions(mech, eom, A, c_ind, alpha, beta, sp))
    return None


def check_explicit_form(functions: dict, y: np.ndarray, p: np.ndarray) -> None:
    """A·G = 0 (nonholonomic constraints; Murray, Li and Sastry 1994), checked numerically at the assembled configuration."""
    A, G = np.array(functions["A"](y, p)), np.array(functions["G"](y, p))
    if A.size and np.abs(A @ G).max() > 1e-9 * max(1.0, np.abs(A).max() * np.abs(G).max()):
        raise ModelError("internal error: the explicit form G violates A·G = 0 at the assembled "
                         f"configuration (max |A·G| = {np.abs(A @ G).max():.3g}); please report")


def check_mass(M: ca.Function, y_ref: np.ndarray, mech: Mechanics, sp,
               free: list[int] | None = None) -> None:
    """M of the speeds with an equation of motion (``free``: all but the driven ones) must be
    regular at the assembled configuration; indefinite is accepted, as in
    ``check_mass_matrix`` (the MSL's Rotor1D or BevelGear1D on a light housing)."""
    free = list(range(sp.z.numel())) if free is None else free
    mass = np.array(M(y_ref, mech.params.defaults))[np.ix_(free, free)]
    if mass.size and np.abs(np.linalg.eigvalsh(0.5 * (mass + mass.T))).min() <= \
            1e-12 * max(1.0, np.abs(mass).max()):
        raise ModelError("the mass matrix of the speeds " + ", ".join(sp.names) + " is singular "
                         "at the assembled configuration: a speed moves no mass; attach bodies")
