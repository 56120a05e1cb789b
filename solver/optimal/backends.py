"""The NLP solvers a trajectory problem can use, and their options: IPOPT (general sparse
interior point, any transcription) and fatrop (an interior point that factorizes the KKT
system stage by stage with a Riccati recursion: its cost grows linearly with the horizon N;
it needs the NLP's stage structure), both through CasADi's ``nlpsol``; and the Hessian of the
Lagrangian: exact, or Gauss–Newton for least-squares costs.

Gauss–Newton. With the cost φ(w) = ‖R(w)‖² of the residuals R the problem declares
(:meth:`TrajectoryProblem.least_squares`, weighted by the quadrature of the transcription),
the Hessian of the Lagrangian σ·∇²φ + Σ λ_i·∇²g_i is replaced by σ·2·J_Rᵀ·J_R: no second
derivatives of the dynamics (most of an exact Hessian's cost for a robot) and positive
semi-definite by construction. The optimum is the same (it is fixed by the gradients, which
stay exact); the convergence becomes linear, fast when the residuals at the optimum are
small (Bock's constrained Gauss–Newton, as DDP solvers use).
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from .functions import FreeTime
from .nlp import NLP
from .transcription import Plan

SOLVERS = ("ipopt", "fatrop", "fddp")   # fddp: its own path (.ddp_built), not nlpsol
HESSIANS = ("exact", "gauss-newton")


def options(solver: str, plan: Plan, nlp: NLP, progress, tol: float, max_iter: int,
            extra: dict | None, warm: bool, hessian: str, stages: dict | None = None) -> dict:
    """nlpsol options of ``solver`` (IPOPT's or fatrop's own under their plugin's name);
    ``stages``: fatrop's stage structure (:func:`stage_structure`)."""
    opts = {"tol": tol, "max_iter": int(max_iter), "print_level": 0}
    if solver == "ipopt":
        opts.update({"sb": "yes", "mu_strategy": "adaptive"})
    if progress:
        opts["print_level"] = 5
        if solver == "ipopt" and not isinstance(progress, bool):
            opts["print_frequency_iter"] = int(progress)
    if not plan.exact_hessian and solver == "ipopt":
        opts["hessian_approximation"] = "limited-memory"
    if warm:
        # the previous primal-dual point is already near the optimum: do not push it inward
        opts["mu_init"] = 1e-6
        if solver == "ipopt":
            opts.update({"warm_start_init_point": "yes", "warm_start_bound_push": 1e-9,
                         "warm_start_mult_bound_push": 1e-9})
    opts.update(extra or {})
    out = {solver: opts, "print_time": False, "error_on_fail": False}
    if solver == "fatrop":
        out.update({"structure_detection": "manual", **stages})
    if hessian == "gauss-newton":
        out["hess_lag"] = gauss_newton(nlp, plan)
    return out


def make(solver: str, source, opts: dict, where: str = "solve") -> ca.Function:
    """nlpsol of ``solver`` on ``source`` (an NLP dict or a compiled library's path); an
    option the solver does not know is a ModelError."""
    try:
        return ca.nlpsol("trajectory", solver, source, opts)
    except RuntimeError as exc:
        reason = str(exc).strip().splitlines()[-1].split(": ", 1)[-1]
        raise ModelError(f"{where}: {solver} refused the problem or its options ({reason}); "
                         f"check tol, max_iter and the {solver}={{...}} options") from None


def nlp_dict(nlp: NLP, plan: Plan) -> dict:
    return {"x": nlp.vector(), "p": nlp.par, "f": plan.cost, "g": ca.vertcat(*nlp.g)}


def gauss_newton(nlp: NLP, plan: Plan) -> ca.Function:
    """hess_lag(x, p, lam_f, lam_g) = lam_f·2·J_Rᵀ·J_R (upper triangle; module docstring)."""
    w, R = nlp.vector(), plan.residuals
    sym = type(w)
    lam_f, lam_g = sym.sym("lam_f"), sym.sym("lam_g", ca.vertcat(*nlp.g).numel())
    J = ca.jacobian(R, w)
    H = ca.triu(lam_f * 2 * ca.mtimes(J.T, J))
    return ca.Function("nlp_hess_l", [w, nlp.par, lam_f, lam_g], [H],
                       ["x", "p", "lam_f", "lam_g"], ["triu_hess_gamma_x_x"])


def check_choice(solver, hessian, transcription, prob, codegen: bool) -> None:
    """The solver and Hessian by name; fatrop needs the stage structure, Gauss–Newton a cost
    made of least-squares terms only."""
    from .transcription import Integrator, MultipleShooting
    if solver not in SOLVERS:
        raise ModelError(f"solve: solver must be one of {SOLVERS}, got {solver!r}")
    if hessian not in HESSIANS:
        raise ModelError(f"solve: hessian must be one of {HESSIANS}, got {hessian!r}")
    if solver == "fatrop":
        shooting = isinstance(transcription, MultipleShooting) and \
            transcription.integrator is not Integrator.CVODES
        stageless = [what for what, bad in (
            ("a free horizon (jd.FreeTime)", isinstance(prob.horizon, FreeTime)),
            ("free parameters", bool(prob.free_params)),
            ("a transcription other than fixed-step multiple shooting", not shooting))
            if bad]
        if stageless:
            raise ModelError(f"solve: solver='fatrop' needs the NLP's stage structure (stage "
                             f"k: x_k, u_k; x_(k+1) = F(x_k, u_k)), which "
                             f"{' and '.join(stageless)} break(s); use "
                             "jd.MultipleShooting(jd.Integrator.RK4) with a fixed horizon and "
                             "no free parameters, or solver='ipopt'")
    if hessian == "gauss-newton":
        if prob.integral_costs or prob.terminal_costs or not prob.residual_costs:
            raise ModelError("solve: hessian='gauss-newton' needs a cost made only of "
                             "least-squares terms (ocp.least_squares(...)); integral_cost and "
                             "terminal_cost terms have no residual form: state them with "
                             "least_squares, or use hessian='exact'")
        if solver == "fatrop":
            raise ModelError("solve: hessian='gauss-newton' is given to IPOPT as its "
                             "Hessian of the Lagrangian; CasADi's fatrop interface takes no "
                             "such function: use solver='ipopt' with it, or hessian='exact' "
                             "with fatrop")
        if codegen is True:
            raise ModelError("solve: hessian='gauss-newton' is assembled from the NLP's "
                             "expressions, which codegen=True compiles away; use "
                             "codegen='knot' (RK4 multiple shooting) or codegen=False with "
                             "it, or hessian='exact' with codegen=True")


def stage_structure(nlp: NLP) -> dict:
    """fatrop's stage structure of a fixed-step multiple-shooting NLP (its "manual" structure
    detection: N and per stage nx, nu, ng), the NLP's constraint blocks put in fatrop's order.

    The decision vector is already x_0, u_0, x_1, …, u_(N−1), x_N (check_choice refuses free
    parameters and a free horizon). fatrop takes the rows stage by stage: the continuity
    x_(k+1) = F(x_k, u_k) first, then the other rows of stage k (the closure at k = 0, the
    path constraints at node k). The transcriptions put node k's path rows before its
    continuity, which fatrop's automatic detection refused ("must start with gap-closing
    constraint"): any path constraint failed. The last stage N has no input: a path block at
    node N that depends on u_(N−1) (the input held over the last interval) but not on x_N
    belongs to stage N − 1; one that depends on both fits no stage (a ModelError)."""
    names = [b.name for b in nlp.var_blocks]
    N = sum(name.startswith("u_") for name in names)
    assert names == [f"{v}_{k}" for k in range(N) for v in "xu"] + [f"x_{N}"], names
    assert len(nlp.g) == len(nlp.con_blocks)
    continuity, others = [], [[]]
    for i, block in enumerate(nlp.con_blocks):
        if block.name == "continuity":
            continuity.append(i)
            others.append([])
        else:
            others[-1].append(i)
    assert len(continuity) == N
    u_last, x_last = nlp.w[2 * N - 1], nlp.w[2 * N]
    for i in list(others[N]):
        if ca.depends_on(nlp.g[i], u_last):
            if ca.depends_on(nlp.g[i], x_last):
                label = nlp.con_blocks[i].labels[0]
                raise ModelError(f"solve: solver='fatrop' takes the path constraints at the last "
                                 f"node on the state alone (its last stage has no input), and "
                                 f"'{label}' depends on both the state and the input held over "
                                 "the last interval; put input limits in ocp.bound or in a "
                                 "path constraint on the inputs alone, or use solver='ipopt'")
            others[N].remove(i)
            others[N - 1].append(i)
    rows = [sum(len(nlp.con_blocks[i].labels) for i in stage) for stage in others]
    nlp.reorder_constraints([i for k in range(N) for i in [continuity[k], *others[k]]] +
                            others[N])
    size = {b.name: len(b.labels) for b in nlp.var_blocks}
    return {"N": N, "nx": [size[f"x_{k}"] for k in range(N + 1)],
            "nu": [size[f"u_{k}"] for k in range(N)] + [0], "ng": rows}


def node_rows(nlp: NLP, k: int) -> np.ndarray:
    """The rows of the decision vector holding the node state x_k."""
    block = next(b for b in nlp.var_blocks if b.name == f"x_{k}")
    return block.start + np.arange(len(block.labels))
