"""Derivatives of the forward dynamics from the recursive algorithms (issue 27, "Cheaper
derivatives"): what Pinocchio's ``computeABADerivatives`` does, as CasADi SX.

At a = FD(y, z, u) (the articulated-body algorithm, the System's f) the inverse dynamics
ID(y, z, a, u) = M·a + k − q vanishes, so (J. Carpentier, N. Mansard, "Analytical derivatives
of rigid body dynamics algorithms", RSS 2018)

    ∂a/∂ξ = −M⁻¹·∂ID/∂ξ   for ξ = (y, z, u),   (∂a/∂τ = M⁻¹ for joint torques τ = u)

with ∂ID/∂ξ by CasADi's AD of one RNEA pass (:func:`..equations.recursive.newton_euler`,
about half the ABA's size, and its derivative far smaller than the ABA's), M by the CRBA with
its branch-induced zeros and M⁻¹ applied by the tree's LTDL factorization
(:mod:`..equations.ltdl`, O(n·d) per column, no dense inverse). The kinematic rows ẏ = N(y)·z
are differentiated directly.

``stage_jacobian`` builds fj(t, x, u, p) → (f, ∂f/∂x, ∂f/∂u), the function the DDP knot
(:mod:`.ddp_model`) calls at every RK4 stage, either way: ``"recursive"`` as above, or
``"forward"``, CasADi's forward mode on the expanded ABA (the former and the reference). The
recursive form needs the System's ``inverse_dynamics`` (recursive back end, joint speeds,
no component states, no kinematic drivers) and a tree-ordered M; otherwise
:func:`recursive_available` says so and ``"auto"`` takes the forward form.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..equations.ltdl import ltdl, ltdl_solve, tree_parents
from .functions import dynamics

FORMS = ("auto", "recursive", "forward")


def recursive_parts(system) -> dict | None:
    """{"inverse_dynamics", "M"} by the recursive algorithms, whatever back end evaluates the
    System's f (:func:`..equations.backends.recursive_inverse`), or None."""
    try:
        return system.recursive_inverse
    except AttributeError:   # a System not made by compile() (a ConstrainedSystem)
        return None


def recursive_available(system) -> str | None:
    """None when the recursive derivatives can be built for ``system``, else why not."""
    parts = recursive_parts(system)
    if parts is None:
        return ("the recursive algorithms do not fit its equations (they need a tree of "
                "links, the joint speeds as states, no component states, no kinematic "
                "drivers, no stops or contacts)")
    M = parts["M"](ca.SX.sym("y", len(system.y_names)), ca.SX.sym("p", parts["M"].nnz_in(1)))
    if tree_parents(ca.SX(M)) is None:
        return "its mass matrix is not in the tree's order (parents before children)"
    return None


def stage_jacobian(system, form: str = "auto") -> ca.Function:
    """fj(t, x, u, p) → (f, ∂f/∂x, ∂f/∂u) (module docstring); ``form`` one of FORMS.
    "recursive" on a System that cannot have it is a ModelError saying why."""
    _check(system, form)
    if form == "forward" or recursive_available(system) is not None:
        return forward_jacobian(system)
    return recursive_jacobian(system)


def _check(system, form: str) -> None:
    """ModelError for an unknown form, or "recursive" where the model does not allow it."""
    if form not in FORMS:
        raise ModelError(f"derivatives must be one of {', '.join(map(repr, FORMS))}, got "
                         f"{form!r}")
    why = recursive_available(system) if form == "recursive" else None
    if why is not None:
        raise ModelError(f"derivatives='recursive': the System cannot have them: {why}; use "
                         "derivatives='forward' (CasADi's forward mode on the dynamics)")


def _symbols(system) -> tuple:
    f = dynamics(system)
    return (f, ca.SX.sym("t"), ca.SX.sym("x", system.nx), ca.SX.sym("u", f.nnz_in(2)),
            ca.SX.sym("p", f.nnz_in(3)))


def forward_jacobian(system) -> ca.Function:
    """fj by CasADi's forward mode on the expanded f (it exploits f's sparsity: on the Talos
    arm 6.1× f's instructions against 10.8× in reverse mode)."""
    f, t, x, u, p = _symbols(system)
    nx = system.nx
    z = ca.vertcat(x, u)
    fz = ca.Function("ddp_f", [z, t, p], [f(t, x, u, p)], {"ad_weight": 0, "ad_weight_sp": 0})
    J = fz.jacobian()(z, t, p, 0)[0]
    return ca.Function("ddp_fj", [t, x, u, p], [fz(z, t, p), J[:, :nx], J[:, nx:]])


def recursive_jacobian(system) -> ca.Function:
    """fj by the recursive algorithms (module docstring). The accelerations themselves come
    from the same factorization, a = −M⁻¹·ID(y, z, 0, u) (one more RNEA pass, which shares
    its kinematics with the differentiated one), not from f: on the Talos arm f's projection
    cost 2757 operations, this 900 (they agree to round-off; tested)."""
    t, x, u, p, xdot, J = _recursive(system)
    nx = system.nx
    # cse: the two RNEA passes share the links' poses and velocities (7.8k operations on the
    # Talos arm instead of 8.4k)
    return ca.Function("ddp_fj", [t, x, u, p], [xdot, J[:, 1:1 + nx], J[:, 1 + nx:-p.numel()
                                                                           or None]],
                       {"cse": True})


def knot_dynamics(system, form: str = "auto") -> ca.Function:
    """f for a knot function that CasADi differentiates: with the recursive algorithms'
    derivatives (:func:`with_recursive_jacobian`) for "recursive", and for "auto" where the
    model allows; the System's own f (AD of its expression) for "forward"."""
    _check(system, form)
    if form == "forward" or recursive_available(system) is not None:
        return dynamics(system)
    return with_recursive_jacobian(system)


def with_recursive_jacobian(system) -> ca.Function:
    """The System's f(t, x, u, p) whose derivatives (Jacobian, forward and reverse mode:
    CasADi's ``custom_jacobian``) are the recursive algorithms', for MX graphs that
    differentiate f (the knot function of :mod:`.knots`); its values are f's own."""
    f = dynamics(system)
    t, x, u, p, _, J = _recursive(system)
    out = ca.SX.sym("out_xdot", f.sparsity_out(0))
    names = list(f.name_in())
    ends = np.cumsum([1, system.nx, u.numel(), p.numel()])
    blocks = [J[:, end - f.nnz_in(i):end] for i, end in enumerate(ends)]
    jac = ca.Function("jac_" + f.name(), [t, x, u, p, out], blocks,
                      [*names, "out_" + f.name_out(0)],
                      [f"jac_{f.name_out(0)}_{n}" for n in names], {"cse": True})
    sym = ca.SX.sym if f.is_a("SXFunction") else ca.MX.sym
    xs = [sym(n, f.sparsity_in(i)) for i, n in enumerate(names)]
    return ca.Function(f.name(), xs, f.call(xs), names, list(f.name_out()),
                       {"custom_jacobian": jac, "jac_penalty": 0})


def _recursive(system) -> tuple:
    """(t, x, u, p, ẋ, ∂ẋ/∂(t, x, u, p)) by the recursive algorithms (module docstring)."""
    _, t, x, u, p = _symbols(system)
    parts, nx, ny = recursive_parts(system), system.nx, len(system.y_names)
    ID = parts["inverse_dynamics"]
    y, z = x[:ny], x[ny:]
    a = ca.SX.sym("a", nx - ny)
    xi = ca.vertcat(t, x, u, p)
    M = ca.SX(parts["M"](y, p))
    parents = tree_parents(M)
    factors = ltdl(M, parents)
    acc = -ltdl_solve(factors, parents, ID(t, y, z, ca.SX.zeros(nx - ny), u, p))
    ydot = system.functions["ydot"](y, z, p)
    dID = ca.jacobian(ID(t, y, z, a, u, p), xi)
    # ∂ID/∂ξ at the accelerations (ID vanishes there)
    J = ca.substitute(ca.vertcat(ca.jacobian(ydot, xi), -ltdl_solve(factors, parents, dID)),
                      a, acc)
    return t, x, u, p, ca.vertcat(ydot, acc), J
