"""Consumer: linearization ẋ ≈ A·δx + B·δu, δout ≈ C·δx + D·δu about an operating point, in
minimal coordinates (DESIGN.md §3.9).

Minimal coordinates. The state x = (y, z) of a System is not minimal when y holds unit
quaternions (dim y ≠ dim z). The linearization therefore works in a local chart
δx = (δθ, δz): scalar coordinates are perturbed directly (y_i = y0_i + δθ_i) and each unit
quaternion by a body-fixed rotation vector δθ (3 entries, no singularity at any attitude),

    q(δθ) = (q0 ⊗ (1, ½·δθ)) / |q0 ⊗ (1, ½·δθ)|,   i.e. δq = ½·q0 ⊗ (0, δθ) to first order,

whose inverse is δθ = 2·vec(p)/p_0 with p = q0* ⊗ q (the Gibbs vector, valid below 180°).
A spherical joint thus contributes 3 + 3 = 2·dim z states. The chart's local dynamics are
δθ̇ = ∂θ/∂y·ẏ(y(δθ), z) and ż, and A, B, C, D are their exact Jacobians (CasADi AD) at δθ = 0.

Operating points. At an equilibrium (ẋ = 0) A is the usual Jacobian. At a steady motion
(ż = 0 but ẏ ≠ 0, e.g. wheels spinning at constant rate, a disk rolling upright) the same A
describes perturbations about the motion when the moving coordinates are cyclic (the
equations do not depend on them). That is checked, not assumed: ż must stay 0 along the
motion, z̈ = (A·ẋ)_z = 0 (else "not stationary": a pendulum passing its lowest point), and
the rate of change of A and B along the motion (a central difference over a short time
step) must vanish; otherwise the point is reported as a "time-varying motion" (a FreeJoint
disk rolling upright: its body-fixed orientation turns with the disk, so A is periodic and
its eigenvalues are meaningless; joint angles heading, lean, spin make the same motion
steady: library AngleRollingDisk).

Constraints (ConstrainedSystem, ConstraintMethod.PARTITIONING). The dependent coordinates
are no states: the chart perturbs the independent coordinates and solves the dependent ones
from c(y) = 0 with the system's Newton projection (differentiable by the implicit function
theorem), and the speeds are the independent speeds z. A four-bar linearizes to 2 states, a
rolling disk on a FreeJoint to 5 + 3 (x, z, θ; ω: the height is dependent). A ball joint
inside a loop keeps only its independent rotation directions as chart coordinates (the RSSR:
crank angle and the coupler's spin, 2 + 2 states). The partition is the compiled one; where
it is ill-conditioned at the operating point (near a crank's dead point) the linearization is
a ModelError naming the independent speeds to compile with instead
(constraints/repartition.py). Velocity
constraints that are not integrable keep all their coordinates (f > g). The
multiplier methods (Baumgarte, DAE) carry all joint speeds and are refused with a ModelError.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..constraints.initial_equations import solve_initial_states
from ..constraints.methods import ConstraintMethod
from ..constraints.moves import quat_mult
from ..constraints.repartition import assess
from ..hybrid.info import refuse_unstated_modes
from ..model.checks import keywords, number, vector
from ..model.names import by_name, require_system
from .linear import LinearSystem

EQUILIBRIUM_TOL = 1e-9  # |ẋ| below which (relative to the state's scale) a point is stationary


@dataclass
class Chart:
    """Local coordinates δθ of the coordinates y about y0: y = to_y(δθ), δθ = to_theta(y)."""

    names: list[str]
    to_y: ca.Function      # (theta) -> y
    to_theta: ca.Function  # (y) -> theta
    y0: np.ndarray


def local_chart(system, y0: np.ndarray, p=None) -> Chart:
    """The chart about y0: identity offsets for scalar coordinates, the Gibbs-vector chart
    (module docstring) for every unit quaternion, whose entries are named
    ``<joint>.theta_x``, ``theta_y``, ``theta_z`` (rotation vector in frame_b axes [rad]).
    Dependent coordinates of closed loops and contacts (ConstrainedSystem, partitioning) are
    no chart coordinates: ``to_y`` solves them from c(y) = 0 by the system's own Newton
    projection at the parameter values ``p``."""
    y0 = np.asarray(y0, dtype=float).copy()
    starts = {start: path for start, path in system.quaternions}
    dependent = {system.y_names.index(n) for n in getattr(system, "dependent_coordinates", [])}
    dep_moves = _dependent_move_names(system)
    theta_parts, names, y_parts, back = [], [], [], []
    y = ca.SX.sym("y", len(y0))
    i = 0
    while i < len(y0):
        if i in starts:
            y0[i:i + 4] = _unit(y0[i:i + 4], starts[i])
            th, q, th_of_y, kept = _reduced_quaternion_chart(y0[i:i + 4], y[i:i + 4],
                                                             starts[i], dep_moves)
            theta_parts.append(th)
            y_parts.append(q)
            back.append(th_of_y)
            names += kept
            i += 4
            continue
        if i in dependent:
            y_parts.append(ca.SX(y0[i]))   # a first guess for Newton
            i += 1
            continue
        th = ca.SX.sym(system.y_names[i])
        theta_parts.append(th)
        y_parts.append(y0[i] + th)
        back.append(y[i] - y0[i])
        names.append(system.y_names[i])
        i += 1
    theta = ca.vertcat(*theta_parts) if theta_parts else ca.SX(0, 1)
    to_y = ca.Function("to_y", [theta], [ca.vertcat(*y_parts) if y_parts else ca.SX(0, 1)],
                       ["theta"], ["y"])
    if dependent:
        to_y = _projected(system, to_y, theta.numel(), p)
    to_theta = ca.Function("to_theta", [y], [ca.vertcat(*back) if back else ca.SX(0, 1)],
                           ["y"], ["theta"])
    return Chart(names, to_y, to_theta, y0)


def _reduced_quaternion_chart(q0: np.ndarray, q_sym: ca.SX, path: str, dep_moves: set):
    """The Gibbs chart of one quaternion without the rotation directions that Newton solves
    (a ball joint inside a loop: those are no states, held at 0 before the projection);
    returns (δθ_kept, q(δθ_kept), δθ_kept(q), names of the kept chart coordinates)."""
    th, q, th_of_y = _quaternion_chart(q0, q_sym, path)
    keep = [k for k, c in enumerate("xyz") if f"{path}.w{c}" not in dep_moves]
    drop = [k for k in range(3) if k not in keep]
    if drop:
        q = ca.substitute(q, th[drop], ca.DM.zeros(len(drop)))
    return th[keep], q, th_of_y[keep], [f"{path}.theta_{'xyz'[k]}" for k in keep]


def _dependent_move_names(system) -> set:
    """Names of the joint speeds whose moves Newton solves (ConstrainedSystem), e.g. the
    rotation directions of a ball joint inside a loop (solver/moves.py)."""
    part = getattr(system, "partition", None)
    if part is None:
        return set()
    return {system.speed_names[j] for j in part.dependent_moves}


def _unit(q: np.ndarray, path: str) -> np.ndarray:
    """The operating point's quaternion, normalized; a zero quaternion is a ModelError."""
    norm = np.linalg.norm(q)
    if not norm > 1e-12:
        raise ModelError(f"linearize: the quaternion {path}.q0..q3 of the operating point is "
                         "zero; give a unit quaternion (or leave it out for the identity)")
    return q / norm


def _quaternion_chart(q0: np.ndarray, q_sym: ca.SX, path: str) -> tuple:
    """(δθ, q(δθ), δθ(q)) of the Gibbs chart about the unit quaternion q0 (module docstring)."""
    th = ca.SX.sym(f"{path}.theta", 3)
    q = quat_mult(ca.DM(q0), ca.vertcat(1, 0.5 * th))
    conj = ca.DM(q0 * np.array([1.0, -1.0, -1.0, -1.0]))
    p_rel = quat_mult(conj, q_sym)
    return th, q / ca.norm_2(q), 2 * p_rel[1:4] / p_rel[0]


def _projected(system, to_y: ca.Function, nth: int, p) -> ca.Function:
    """to_y followed by the Newton projection of the dependent coordinates (MX, rootfinder;
    differentiable by the implicit function theorem)."""
    theta = ca.MX.sym("theta", nth)
    nz = system.nx - len(system.y_names)
    p = system.p_default if p is None else p
    x = system.functions["project"](ca.vertcat(to_y(theta), ca.DM.zeros(nz)), ca.DM(p))
    return ca.Function("to_y", [theta], [x[:len(system.y_names)]], ["theta"], ["y"])


def _check_minimal(system) -> None:
    """Only the partitioning method has minimal states; the multiplier methods carry all joint
    speeds (and Baumgarte's artificial poles), which a linearization must not report."""
    method = getattr(system, "method", None)
    if method is not None and method is not ConstraintMethod.PARTITIONING:
        raise ModelError(
            f"linearize: this system was compiled with ConstraintMethod.{method.name}, whose "
            "state (y, w) holds all joint speeds, not minimal coordinates (its A would carry "
            "the dependent speeds and the stabilization's artificial eigenvalues); compile "
            "with the default constraints=jd.ConstraintMethod.PARTITIONING to linearize")
    if "drive" in system.functions:
        raise ModelError("linearize: this system has kinematic drivers (prescribed motion of "
                         "time), so it has no fixed operating point; the driven coordinates' "
                         "states would appear without dynamics of their own. Replace the "
                         "drivers by motors and inputs to linearize")


def _check_partition(system, y: np.ndarray, p: np.ndarray) -> None:
    """A closed loop linearizes in its fixed partition's chart (the dependent coordinates
    solved by Newton), which must be well conditioned at the operating point: a ModelError
    where ν exceeds the level at which a simulation would switch away from it, naming the
    independent speeds to compile with instead (constraints.repartition)."""
    if getattr(system, "partitions", None) is None:
        return
    verdict = assess(system, y, p)
    if verdict.singular or not verdict.ok:
        raise ModelError("linearize: " + verdict.advice("the operating point"))


def local_dynamics(system, chart: Chart) -> ca.Function:
    """F(t, dx, u, p) -> (dxdot, out): the system in the chart's coordinates dx = (δθ, z, s)
    (s: signal-block states, usually none)."""
    nth = len(chart.names)
    ny = len(system.y_names)
    t, dx = ca.MX.sym("t"), ca.MX.sym("dx", nth + system.nx - ny)
    u, p = ca.MX.sym("u", len(system.u_names)), ca.MX.sym("p", len(system.p_names))
    y_sym = ca.SX.sym("y", len(system.y_names))
    J_back = ca.Function("J_back", [y_sym], [ca.jacobian(chart.to_theta(y_sym), y_sym)])
    y = chart.to_y(dx[:nth])
    x = ca.vertcat(y, dx[nth:])
    # the virtual machine's f: compiled code may carry no derivatives (codegen builds the
    # Jacobian only for BDF), and a linearization is evaluated once
    xdot = system.functions.get("f", system.f)(t, x, u, p)
    # (a model without coordinates, a circuit: CasADi's empty slice is 1×0, not 0×1)
    theta_dot = ca.mtimes(J_back(y), xdot[:ny]) if ny else ca.MX(0, 1)
    return ca.Function("local_dynamics", [t, dx, u, p],
                       [ca.vertcat(theta_dot, xdot[ny:]), system.h(t, x, u, p)],
                       ["t", "dx", "u", "p"], ["dxdot", "out"])


@keywords
def linearize(system, x0=None, y0: dict | None = None, z0: dict | None = None,
              u0: dict | None = None, t: float = 0.0,
              params: dict | None = None) -> LinearSystem:
    """Linearize ``system`` about the operating point (x0 or y0/z0 by name, inputs u0 by
    name, time t [s], parameters by name) and return a
    :class:`~jourdain.solver.linear.LinearSystem`.

    States are the chart coordinates (module docstring): coordinate names for scalar joints,
    ``<joint>.theta_x/y/z`` for unit quaternions, then the speeds z. Quaternions of the
    operating point are normalized (``x_op`` of the result holds the normalized state).
    A, B, C, D are exact (automatic differentiation), so they agree with finite differences
    of the nonlinear model to round-off and truncation error.
    """
    require_system(system, "linearize")
    _check_minimal(system)
    refuse_unstated_modes(system, params, "linearize", "a linearization")
    t = number(t, "linearize: t", unit="s")
    p = system.parameters(params)
    x_full = _operating_state(system, x0, y0, z0, params)
    u = _operating_inputs(system, u0)
    if x0 is None:   # component states with initial equations (steady-state filters)
        x_full = solve_initial_states(system, x_full, t, u, p, z0 or {})
    ny = len(system.y_names)
    _check_partition(system, x_full[:ny], p)
    chart = local_chart(system, x_full[:ny], p)
    x_full[:ny] = np.array(chart.to_y(np.zeros(len(chart.names)))).ravel()
    F = local_dynamics(system, chart)
    t_s, dx, u_s, p_s = (ca.MX.sym(n, k) for n, k in
                         (("t", 1), ("dx", len(chart.names) + system.nx - ny),
                          ("u", len(u)), ("p", len(p))))
    jac = _jacobians(F, t_s, dx, u_s, p_s)
    dx0 = np.concatenate([np.zeros(len(chart.names)), x_full[ny:]])
    vals = [np.array(v, dtype=float) for v in jac(t, dx0, u, p)]
    xdot = vals[0].ravel()
    shape = [(len(dx0), len(dx0)), (len(dx0), len(u)), (len(system.output_names), len(dx0)),
             (len(system.output_names), len(u))]
    A, B, C, D = (v.reshape(s) for v, s in zip(vals[1:5], shape))
    kind = _kind(xdot, len(chart.names), dx0)
    if kind == "steady motion":
        kind = _steady_kind(_rate_along(jac, t, dx0, u, p, xdot), A, B, xdot, len(chart.names))
    return LinearSystem(A, B, C, D, chart.names + system.x_names[ny:], list(system.u_names),
                        list(system.output_names), x_full, u, xdot, dx0, kind, chart)


def _jacobians(F: ca.Function, t, dx, u, p) -> ca.Function:
    """ẋ, A, B, C, D in the chart (first derivatives only, so compiled systems work too)."""
    dxdot, out = F(t, dx, u, p)
    return ca.Function("linearization", [t, dx, u, p],
                       [dxdot, ca.jacobian(dxdot, dx), ca.jacobian(dxdot, u),
                        ca.jacobian(out, dx), ca.jacobian(out, u)],
                       ["t", "dx", "u", "p"], ["dxdot", "A", "B", "C", "D"])


def _rate_along(jac: ca.Function, t, dx0, u, p, xdot) -> np.ndarray:
    """d(A, B)/dt along the motion by a central difference over a time step h; exactly 0 up to
    round-off when the moving coordinates are cyclic (A is then the same at both ends)."""
    h = 1e-3 / max(1.0, float(np.abs(xdot).max()))

    def AB(sign):
        out = jac(t + sign * h, dx0 + sign * h * xdot, u, p)
        return np.concatenate([np.array(out[1]).ravel(), np.array(out[2]).ravel()])

    return (AB(1) - AB(-1)) / (2 * h)


def _steady_kind(rate: np.ndarray, A: np.ndarray, B: np.ndarray, xdot: np.ndarray,
                 nth: int) -> str:
    """For ż = 0 with moving coordinates: "not stationary" if ż leaves 0 along the motion
    (z̈ = (A·ẋ)_z ≠ 0, e.g. a pendulum passing its lowest point), "time-varying motion" if
    A or B change along it, else "steady motion" (relative tolerance 1e-8)."""
    scale = max(1.0, np.abs(A).max(initial=0.0), np.abs(B).max(initial=0.0)) * \
        max(1.0, np.abs(xdot).max(initial=0.0))
    if np.abs((A @ xdot)[nth:]).max(initial=0.0) > 1e-8 * scale:
        return "not stationary"
    if float(np.abs(rate).max(initial=0.0)) > 1e-8 * scale:
        return "time-varying motion"
    return "steady motion"


def _operating_state(system, x0, y0, z0, params) -> np.ndarray:
    if x0 is None:
        if getattr(system, "method", None) is not None:   # constrained: assembled here
            return system.state(y0, z0, params)
        return system.state(y0, z0)
    if y0 is not None or z0 is not None:
        raise ModelError("linearize: give either x0 or y0/z0, not both")
    return vector(x0, system.x_names, "linearize: x0").copy()


def _operating_inputs(system, u0) -> np.ndarray:
    return by_name(u0, system.u_names, "u0", "input")


def _kind(xdot: np.ndarray, nth: int, dx0: np.ndarray) -> str:
    """Equilibrium if ẋ = 0, steady motion if only the coordinates move (ż = 0)."""
    scale = max(1.0, float(np.abs(dx0).max(initial=0.0)))
    if np.abs(xdot).max(initial=0.0) <= EQUILIBRIUM_TOL * scale:
        return "equilibrium"
    if np.abs(xdot[nth:]).max(initial=0.0) <= EQUILIBRIUM_TOL * scale:
        return "steady motion"
    return "not stationary"
