"""The equations of motion of a hybrid model in its present modes (DESIGN.md §6): the smooth
ż of the back end plus the forces of the switching rows,

    M·ż = q − k + Jᵀ·λ,        J = ∂γ/∂z  (γ: the rows' relative velocities),

with λ from one linear system whose rows depend on the modes (entries of p):

    active row i:    J_i·ż + J̇_i·z + 2·ω·γ_i + ω²·g_i = 0       (a constraint; Baumgarte)
    inactive row i:  λ_i = b_i + Σ_j C_ij·λ_j                     (its force law)

i.e. (A·D + (I − A)·(I − C))·λ = −A·(J·ż_s + J̇·z + stab) + (I − A)·b, with
D = J·M⁻¹·Jᵀ (the Delassus matrix), A = diag(active), ż_s = M⁻¹·(q − k). The active rows'
diagonal is regularized by a small compliance ε·D_ii (rows may be redundant: four corners of
a box resting on a face) and one step of iterative refinement removes its bias to O(ε²). The linear algebra runs numerically inside the
CasADi graph (sparse LDLᵀ for M, sparse QR for λ): the expressions stay O(size of J) whatever
the number of rows, and CVODES never calls Python. Up to SX_ROWS rows on an SX f the same
algebra is symbolic instead, so f stays one SX function (faster, and compiled by codegen).

Named functions added to the System:
  f(t, x, u, p) -> xdot                 (replaces the smooth f)
  hybrid(t, x, u, p) -> gamma, lambda, gap, gamma_dot, guards, monitors
  impact(t, x, u, p) -> M, J, gamma, active   (impact maps and velocity projections)
  update:<path>(t, x, u, p) -> d        (each sampled block's new discrete values)
  dissipation(t, x, u, p) -> P          (adds the power −λ·γ of sliding rows, less what a
                                        compliant row stores: ``row_storage``)
  supplied(t, x, u, p) -> P             (adds the rows' share of the drivers' reactions)
  energy(x, p) -> T, V, W               (V with the energy compliant rows store)
  hybrid_parts, hybrid_others, f_smooth (the pieces of f, SX: :mod:`.islands` restricts
                                        them to groups of bodies no equation couples)
"""
from __future__ import annotations

import casadi as ca
import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from jourdain.blocks.errors import ModelError

from ..equations.driven import driven_speed_index
from ..equations.projection import solve_spd, to_speeds
from ..model.mechanics import Mechanics
from ..model.speeds import Speeds
from .collect import HybridModel
from .massless import check_regular, massless_dofs, smooth_f, through_rows
from .split import split_matrix

OMEGA = 20.0  # [rad/s] Baumgarte rate of the active rows (γ̇ + 2ωγ + ω²g = 0)
SX_ROWS = 8   # up to this many rows the linear algebra is symbolic (f stays SX)


def hybrid_functions(mech: Mechanics, sp: Speeds, model: HybridModel, M: ca.SX,
                     zdot: ca.SX, functions: dict, rhs: ca.SX | None = None) -> dict:
    """The hybrid f, the event-time functions and the sampled updates (module docstring);
    ``rhs`` = q − k where coordinates get their mass only through always-active rows
    (:mod:`.massless`: M̃ replaces M)."""
    t, y, z, u, p, s = mech.t, mech.kin.y, sp.z, mech.ctx.u, mech.params.p, mech.ctx.s
    x = ca.vertcat(y, z, s)

    drive = functions.get("drive")
    x_driven = drive(t, x, u, p) if drive is not None else x

    def conv(expr):
        """In (t, y, z, u, p, s), exactly driven coordinates and speeds at their prescribed
        values (as f and h read them): a guard behind a driver sees the driver's motion."""
        expr = to_speeds(expr, mech, sp)
        return ca.substitute(expr, x, x_driven) if drive is not None else expr

    out = {f"update:{name}": ca.Function("update_" + name.replace(".", "_"), [t, x, u, p],
                                         [conv(expr)], ["t", "x", "u", "p"], ["d"])
           for name, expr in model.updates.items()}
    if not model.rows and not model.guards and not model.monitors:
        return out
    gamma, lam = conv(model.gamma), model.lam
    J = ca.jacobian(gamma, z)
    driven = driven_speeds(mech, sp)
    # a row that reads a driven speed pushes the free speeds only (the driver takes the rest
    # of its force: M_FF·Δż_F = J_Fᵀ·λ); the driven part of γ, J_D·z_D, is known in time
    J_raw = ca.jacobian(to_speeds(model.gamma, mech, sp), z)
    J_D = J_raw[:, driven]
    check_driven_rows(model, J_raw, driven)
    gamma_D = ca.substitute(ca.mtimes(J_D, z[driven]), x, x_driven) if driven else None
    M_full, M = M, decoupled(M, driven)
    J_driven = J[:, driven]   # filtered drivers' speeds are states: their ż_D is known
    if driven:
        J = ca.SX(J)
        J[:, driven] = 0
    inert = [i for i in range(J.size1()) if J[i, :].nnz() == 0]
    active, force = _inert_rows(model, inert, conv)
    C = ca.jacobian(force, lam)
    if ca.depends_on(C, lam):
        raise ModelError("hybrid rows: a row's force law must be linear in the other rows' "
                         "forces (ctx.multiplier)")
    b = ca.substitute(force, lam, ca.SX.zeros(lam.numel()))
    gap = conv(model.gap)
    ydot = sp.ydot if drive is None else ca.substitute(sp.ydot, x, x_driven)
    zdot = zdot if drive is None else ca.substitute(zdot, x, x_driven)
    bias = ca.jtimes(gamma, y, ydot) + ca.jacobian(gamma, t)
    if driven:
        bias += ca.mtimes(J_driven, zdot[driven])
    target = bias + 2 * OMEGA * gamma + OMEGA**2 * gap
    compliance = ca.DM([r.compliance for r in model.rows])
    groups = speed_groups(mech, sp)
    # rows that are constraints in every mode (a LossyGear's teeth): the solve works on the
    # saddle-point system through M + J_Pᵀ·R·J_P, never on M alone, so a shaft without
    # inertia behind them is regular and a light one well conditioned (:mod:`.massless`)
    permanent = [i for i in range(active.numel()) if active[i].is_one()] \
        if rhs is not None else []
    if permanent:
        M, zdot, groups = through_rows(permanent, M, conv(rhs), J, target, groups,
                                       _solve_blocks)
        functions = dict(functions, **smooth_f(functions, y.numel(), z.numel(), zdot, t, x,
                                                u, p))
        out["M_rows"] = ca.Function("M_rows", [y, p], [M], ["y", "p"], ["M"])
        check_regular(mech, sp, out["M_rows"], groups, mech.params.defaults)
    K, K_reg, r, MinvJT = _linear_system(M, J, J @ zdot + target, active, C, b, compliance,
                                         groups)
    S = split_matrix(J, C, active, conv(model.limit), model.has_limit)
    parts = ca.Function("hybrid_parts", [t, x, u, p], [K, K_reg, r, MinvJT, J, bias, zdot, S],
                        ["t", "x", "u", "p"], ["K", "K_reg", "r", "MinvJT", "J", "bias",
                                               "zdot", "S"])
    others = ca.Function("hybrid_others", [t, x, u, p, lam],
                         [gamma, gap, conv(model.guard_expr), conv(model.monitor_expr), active],
                         ["t", "x", "u", "p", "lambda"],
                         ["gamma", "gap", "guards", "monitors", "active"])
    if driven:   # the rows change the drivers' reactions by M_DF·Δż_F − J_Dᵀ·λ
        functions = dict(functions, driver_work=ca.Function(
            "driver_work", [t, x, u, p, lam], [ca.substitute(
                ca.mtimes(ca.transpose(M_full[driven, :]), z[driven]), x, x_driven),
                gamma_D], ["t", "x", "u", "p", "lambda"], ["w", "gamma_D"]))
    out.update(_row_storage(mech, sp, model, functions))
    functions = dict(functions, **out)
    pick = row_pick(mech, model, functions)
    out.update(_functions(functions, parts, others, y.numel(), z.numel(), pick))
    out.update(with_rows(functions, out["hybrid"], pick))
    # the pieces again, for the islands of independent bodies (:mod:`.islands`)
    out.update(hybrid_parts=parts, hybrid_others=others, f_smooth=functions["f"],
               dissipation_smooth=functions["dissipation"])
    impact = ca.Function("impact", [t, x, u, p], [M, J, gamma, active],
                         ["t", "x", "u", "p"], ["M", "J", "gamma", "active"])
    out["impact"] = _projected(impact, functions.get("project"))
    return out


def _row_storage(mech: Mechanics, sp: Speeds, model: HybridModel, functions: dict) -> dict:
    """Where rows' force laws store energy (compliant contacts): ``energy`` with it in V, and
    ``row_storage`` (t, x, u, p) -> dV_rows/dt, which the row power λ·γ less it leaves as
    dissipated (:func:`_functions`)."""
    V_rows = to_speeds(model.potential, mech, sp)
    if not ca.depends_on(V_rows, mech.kin.y):
        return {}
    t, y, z, u, p = mech.t, mech.kin.y, sp.z, mech.ctx.u, mech.params.p
    x = ca.vertcat(y, z, mech.ctx.s)
    energy = functions["energy"]
    T, V, W = energy(x, p)
    return {"energy": ca.Function("energy", [x, p], [T, V + V_rows, W], ["x", "p"],
                                  ["T", "V", "W"]),
            "row_storage": ca.Function("row_storage", [t, x, u, p],
                                       [ca.jtimes(V_rows, y, sp.ydot)], ["t", "x", "u", "p"],
                                       ["dV"])}


def _projected(fn: ca.Function, project: ca.Function | None) -> ca.Function:
    """fn(t, project(x, p), u, p) where the coordinates are partitioned, else fn."""
    if project is None:
        return fn
    t, u = ca.MX.sym("t"), ca.MX.sym("u", fn.size1_in(2))
    x, p = ca.MX.sym("x", fn.size1_in(1)), ca.MX.sym("p", fn.size1_in(3))
    return ca.Function(fn.name(), [t, x, u, p], fn(t, project(x, p), u, p), fn.name_in(),
                       fn.name_out())


def _inert_rows(model: HybridModel, inert: list[int], conv):
    """Rows whose velocity does not depend on any speed (a tangential row across the plane
    of a planar mechanism) carry no force and are never constraints."""
    active, force = conv(model.active), conv(model.force)
    for i in inert:
        active[i] = 0
        force[i] = 0
    return active, force


def row_pick(mech: Mechanics, model: HybridModel, functions: dict) -> list[int]:
    """Indices into the rows' λ of the entries of ``ctx.multipliers``: a ``<name>:rows``
    twin reads the first n of them, n its λ input's size (solver.equations.functions)."""
    if not any(key.endswith(":rows") for key in functions):
        return []
    index = {(r.owner.path, r.name): i for i, r in enumerate(model.rows)}
    return [index[key] for key in mech.ctx.multipliers]


def with_rows(functions: dict, hybrid: ca.Function, pick: list[int]) -> dict:
    """h, init and flanges of the twins that read rows' forces, called with the solved λ
    of ``hybrid`` (a lossy hybrid element's heat in a sensor's reading)."""
    out = {}
    for key in ("h", "init", "flanges"):
        twin = functions.get(f"{key}:rows")
        if twin is None:
            continue
        sym = ca.SX if hybrid.is_a("SXFunction") else ca.MX
        args = [sym.sym(n, hybrid.sparsity_in(i)) for i, n in enumerate(hybrid.name_in())]
        lam = hybrid(*args)[1]
        out[key] = ca.Function(twin.name(), args, [twin(*args, lam[pick[:twin.size1_in(4)]])],
                               hybrid.name_in(), twin.name_out())
    return out


def _functions(functions: dict, parts: ca.Function, others: ca.Function,
               ny: int, nz: int, pick: list[int] = ()) -> dict:
    """f, hybrid and dissipation: in SX (the solve symbolic: small, fast, codegen'd like any
    f) for at most SX_ROWS rows on an SX f, else in MX (a numeric sparse QR of K). With
    ``f:rows`` (the component states read rows' forces: a lossy gear's heat) ẋ_s takes the
    solved λ (its entries ``pick``)."""
    f_smooth = functions["f"]
    rows = parts.size1_out(0)
    sym = ca.SX if f_smooth.is_a("SXFunction") and rows <= SX_ROWS else ca.MX
    t, u = sym.sym("t"), sym.sym("u", f_smooth.size1_in(2))
    x, p = sym.sym("x", f_smooth.size1_in(1)), sym.sym("p", f_smooth.size1_in(3))
    x0 = x
    if "project" in functions:   # partitioning: the terms at the projected coordinates
        x = functions["project"](x, p)
    K, K_reg, r, MinvJT, J, bias, zdot_s, S = parts(t, x, u, p)
    lam = S @ multipliers(K, K_reg, r)

    def read(key, x_at):   # the smooth function, or its twin at the solved λ
        if f"{key}:rows" in functions:
            twin = functions[f"{key}:rows"]
            return twin(t, x_at, u, p, lam[list(pick[:twin.size1_in(4)])])
        return functions[key](t, x_at, u, p)
    xdot_s = read("f", x0)
    dz = MinvJT @ lam
    nx = x0.numel()
    xdot = xdot_s + ca.vertcat(sym(ny, 1), dz, sym(nx - ny - nz, 1))
    gamma, gap, guards, monitors, active = others(t, x, u, p, lam)
    gamma_dot = J @ (zdot_s + dz) + bias
    sliding = (1 - active) * lam * gamma
    x_in = x0
    stored = functions["row_storage"](t, x, u, p) if "row_storage" in functions else 0
    extra = {}
    if "supplied" in functions:
        supplied = read("supplied", x_in)
        if "driver_work" in functions:
            work, gamma_D = functions["driver_work"](t, x, u, p, lam)
            supplied += ca.dot(work, dz) - ca.dot(lam, gamma_D)
        extra["supplied"] = ca.Function("supplied", [t, x_in, u, p], [supplied],
                                        ["t", "x", "u", "p"], ["P"])
    return {
        **extra,
        "f": ca.Function("f", [t, x_in, u, p], [xdot], ["t", "x", "u", "p"], ["xdot"]),
        "hybrid": ca.Function("hybrid", [t, x_in, u, p], [gamma, lam, gap, gamma_dot,
                                                           guards, monitors],
                              ["t", "x", "u", "p"], ["gamma", "lambda", "gap", "gamma_dot",
                                                     "guards", "monitors"]),
        "dissipation": ca.Function("dissipation", [t, x_in, u, p],
                                   [read("dissipation", x_in) - ca.sum1(sliding) - stored],
                                   ["t", "x", "u", "p"], ["P"]),
    }


def driven_speeds(mech: Mechanics, sp: Speeds) -> list[int]:
    """Indices in z of the speeds kinematic drivers prescribe."""
    return sorted(driven_speed_index(mech, sp, d.speed) for d in mech.driven)


def check_driven_rows(model: HybridModel, J: ca.SX, driven: list[int]) -> None:
    """A row that moves only speeds kinematic drivers prescribe (a stop or a friction on a
    driven joint alone) would put its force into the driver's reaction only — a stop the
    driver pushes through, a friction the driver overrides: refused by name."""
    if not driven:
        return
    free = [k for k in range(J.size2()) if k not in driven]
    for i, row in enumerate(model.rows):
        on_driven = ca.sparsify(J[i, driven]).nnz() > 0
        if on_driven and (not free or ca.sparsify(J[i, free]).nnz() == 0):
            raise ModelError(f"{row.owner.path}: its row {row.name} acts only on motion that a "
                             "kinematic driver prescribes, so its force would go into the "
                             "driver's reaction alone (a stop the driver pushes through, a "
                             "friction it overrides), which is not supported; put it where the "
                             "motion is free, or drive the joint with a torque or force")


def decoupled(M: ca.SX, driven: list[int]) -> ca.SX:
    """M with the entries coupling driven and free speeds removed: the rows' forces move the
    free speeds by M_FF⁻¹·J_Fᵀ·λ (the driven ones follow their prescription)."""
    if not driven:
        return M
    free = [k for k in range(M.size1()) if k not in driven]
    M = ca.SX(M)
    for k in driven:
        M[k, free] = 0
        M[free, k] = 0
    return M


def speed_groups(mech: Mechanics, sp: Speeds) -> np.ndarray:
    """A group label per speed: speeds that move a common body (or 1-D inertia) share a
    group, so M couples only speeds of one group — free bodies that share no joint are
    groups of their own (found from the kinematics: the recursive back end's M does not keep
    these zeros structurally)."""
    z, n = sp.z, sp.z.numel()
    edges = []
    velocities = [ca.vertcat(b.v, b.w) for b in mech.bodies] + \
        [ca.SX(i.w) for i in (getattr(mech, "inertias", None) or [])]
    for vel in velocities:
        deps = sorted(set(ca.jacobian(to_speeds(vel, mech, sp), z).sparsity().get_col()))
        edges += [(deps[0], d) for d in deps[1:]]
    rows = [a for a, _ in edges] + list(range(n))
    cols = [b for _, b in edges] + list(range(n))
    graph = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
    return connected_components(graph, directed=False)[1]


def _linear_system(M, J, rhs, active, C, b, compliance, groups):
    """The mode-dependent system K·λ = r of the module docstring in SX (sparse: the rows of
    independent bodies stay uncoupled), its regularized K_reg and M⁻¹·Jᵀ (symbolic LDLᵀ),
    with rhs = J·ż_s + J̇·z + stab."""
    n = J.size1()
    MinvJT = _solve_blocks(M, J.T, groups) if n else ca.SX(M.size1(), 0)
    D = J @ MinvJT
    # an active row that moves no speed here (J_i = 0: the sideways tangent of a contact on
    # a planar linkage) constrains nothing; it gets λ_i = r_i = 0 instead of a zero pivot.
    # Per row (an absolute bound: physical rows have D_ii ≫ 1e-20), so islands stay apart.
    diag = ca.diag(D)
    idle = active * (diag <= 1e-20)
    K = ca.diag(active) @ D + ca.diag(1 - active) @ (ca.SX.eye(n) - C) + ca.diag(idle)
    K_reg = K + ca.diag(active * compliance * diag)
    r = -active * rhs + (1 - active) * b
    return K, K_reg, r, MinvJT


def _solve_blocks(M: ca.SX, B: ca.SX, groups: np.ndarray) -> ca.SX:
    """M⁻¹·B for the SPD mass matrix, one symbolic LDLᵀ per group of coupled speeds
    (:func:`speed_groups`: a hundred free balls are a hundred 6×6 blocks, not one 600×600
    factorization) and only on the columns of B a group moves, so the result — and the
    Delassus matrix J·M⁻¹·Jᵀ — keeps the bodies' block sparsity."""
    out = ca.SX(M.size1(), B.size2())
    for k in range(int(groups.max()) + 1 if groups.size else 0):
        idx = [int(i) for i in np.flatnonzero(groups == k)]
        block = B[idx, :]
        cols = sorted(set(block.sparsity().get_col()))   # the rows of J this group moves
        if cols:
            out[idx, cols] = solve_spd(M[idx, idx], block[:, cols])
    return out


def multipliers(K, K_reg, r):
    """λ from K·λ = r: a symbolic QR in SX, a numeric sparse QR in MX; one step of iterative
    refinement removes the regularization's bias to O(ε²) where the rows are independent
    (where they are redundant it keeps the least-squares split)."""
    if K.size1() == 0:
        return type(K)(0, 1)
    solve = ca.solve if isinstance(K, ca.SX) else (lambda A, v: ca.solve(A, v, "qr"))
    lam = solve(K_reg, r)
    return lam + solve(K_reg, r - K @ lam)
