"""Consumer: time-varying LQR (TVLQR) along a reference trajectory x_ref(t), u_ref(t).

Error coordinates. The tracking error lives in a chart that moves with the reference, in
minimal coordinates as in :mod:`.linearize`: e_y = y − y_ref for scalar coordinates, and for a
unit quaternion the rotation vector of q relative to q_ref in body axes (Gibbs vector,
δθ = 2·vec(p)/p_0 with p = q_ref* ⊗ q; inverse q = q_ref ⊗ (1, ½·δθ) normalized); the speeds
as e_z = z − z_ref. Because the chart moves, the error dynamics
ė_y = ∂e/∂y·ẏ + ∂e/∂y_ref·ẏ_ref carry the transport term of the reference's motion, so
A(t) = ∂(ė_y, ė_z)/∂(e_y, e_z) and B(t) = ∂(ė)/∂u at e = 0, u = u_ref(t) are exact (CasADi
AD) along the reference.

Riccati equation (B. D. O. Anderson, J. B. Moore, Optimal Control: Linear Quadratic
Methods, 1990, ch. 2): −Ṡ = AᵀS + S·A − S·B·R⁻¹·Bᵀ·S + Q, integrated backwards from
S(T) = Q_f step by step with the exact solution for the step's mean A, B (:func:`riccati`);
K(t) = R⁻¹·B(t)ᵀ·S(t) and u = u_ref(t) −
K(t)·e(x, x_ref(t)). By default Q_f is the algebraic Riccati solution at the final point
when that is an equilibrium (the infinite-horizon LQR that holds it afterwards; after T the
law keeps the final gain and reference), else Q.

Closed kinematic loops (dependent coordinates) are not handled yet: a ModelError says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..constraints.moves import quat_mult
from ..model.names import require_system
from .feedback import weights

EQUILIBRIUM_TOL = 1e-6   # |ẋ| at the final point below which it counts as an equilibrium


@dataclass
class ErrorChart:
    """e(y, y_ref) -> local error coordinates, y(e, y_ref) back, and the coordinates' names."""

    error: ca.Function
    back: ca.Function
    names: list[str]


def error_chart(system) -> ErrorChart:
    """The moving chart of the module docstring, symbolic in the reference y_ref."""
    if getattr(system, "dependent_coordinates", []):
        raise ModelError("tracking_controller: systems with closed kinematic loops (dependent "
                         f"coordinates {', '.join(system.dependent_coordinates)}) are not "
                         "supported yet; track a tree-structured model")
    ny = len(system.y_names)
    y, yr = ca.SX.sym("y", ny), ca.SX.sym("y_ref", ny)
    starts = dict(system.quaternions)
    errors, names, thetas, backs = [], [], [], []
    i = 0
    while i < ny:
        if i in starts:
            q, qr = y[i:i + 4], yr[i:i + 4]
            rel = quat_mult(qr * ca.DM([1, -1, -1, -1]), q)
            errors.append(2 * rel[1:4] / rel[0])
            th = ca.SX.sym(f"{starts[i]}.theta", 3)
            moved = quat_mult(qr, ca.vertcat(1, 0.5 * th))
            thetas.append(th)
            backs.append(moved / ca.norm_2(moved))
            names += [f"{starts[i]}.theta_{c}" for c in "xyz"]
            i += 4
            continue
        th = ca.SX.sym(system.y_names[i])
        errors.append(y[i] - yr[i])
        thetas.append(th)
        backs.append(yr[i] + th)
        names.append(system.y_names[i])
        i += 1
    theta = ca.vertcat(*thetas) if thetas else ca.SX(0, 1)
    return ErrorChart(
        ca.Function("error", [y, yr], [ca.vertcat(*errors) if errors else ca.SX(0, 1)],
                    ["y", "y_ref"], ["e"]),
        ca.Function("back", [theta, yr], [ca.vertcat(*backs) if backs else ca.SX(0, 1)],
                    ["e", "y_ref"], ["y"]), names)


def error_jacobians(system, chart: ErrorChart) -> ca.Function:
    """AB(t, x_ref, u_ref, p) -> (A, B) of the error dynamics (module docstring)."""
    f = system.functions.get("f", system.f)   # the symbolic f (also after codegen)
    ny, nth = len(system.y_names), len(chart.names)
    sym = ca.SX if f.is_a("SXFunction") else ca.MX
    t, xr = sym.sym("t"), sym.sym("x_ref", system.nx)
    ur, p = sym.sym("u_ref", len(system.u_names)), sym.sym("p", len(system.p_names))
    e, du = sym.sym("e", nth + system.nx - ny), sym.sym("du", len(system.u_names))
    yr = xr[:ny]
    y = chart.back(e[:nth], yr)
    x = ca.vertcat(y, xr[ny:] + e[nth:])
    xdot = f(t, x, ur + du, p)
    ydot_ref = f(t, xr, ur, p)[:ny]
    y_s, yr_s = ca.SX.sym("y", ny), ca.SX.sym("yr", ny)
    err = chart.error(y_s, yr_s)
    jacs = ca.Function("chart_jacobians", [y_s, yr_s],
                       [ca.jacobian(err, y_s), ca.jacobian(err, yr_s)])
    J_y, J_r = jacs(y, yr)
    edot = ca.vertcat(ca.mtimes(J_y, xdot[:ny]) + ca.mtimes(J_r, ydot_ref), xdot[ny:])
    zero = [ca.DM.zeros(e.numel()), ca.DM.zeros(du.numel())]
    A = ca.substitute(ca.jacobian(edot, e), ca.vertcat(e, du), ca.vertcat(*zero))
    B = ca.substitute(ca.jacobian(edot, du), ca.vertcat(e, du), ca.vertcat(*zero))
    return ca.Function("error_jacobians", [t, xr, ur, p], [A, B],
                       ["t", "x_ref", "u_ref", "p"], ["A", "B"])


def riccati(t: np.ndarray, A: np.ndarray, B: np.ndarray, Q: np.ndarray, R: np.ndarray,
            Qf: np.ndarray) -> np.ndarray:
    """S(t_i) of −Ṡ = AᵀS + SA − SBR⁻¹BᵀS + Q, S(t_end) = Qf, with A, B given at the times
    t (len(t) × n × n, len(t) × n × m), taken as their mean over each step. On a step of
    length h with constant A, B the solution is exact: with the Hamiltonian
    H = [[A, −BR⁻¹Bᵀ], [−Q, −Aᵀ]], [X; Y] = exp(−H·h)·[I; S(t+h)] and S(t) = Y·X⁻¹
    (Radon's lemma; substeps keep h·|H| ≤ 1 so X stays well conditioned). Second order in
    the step for time-varying A, B; exact for constant ones."""
    from scipy.linalg import expm

    n = Q.shape[0]
    G = np.linalg.solve(R, np.eye(R.shape[0]))
    S = np.empty((len(t), n, n))
    S[-1] = Qf
    for i in range(len(t) - 2, -1, -1):
        Am, Bm = 0.5 * (A[i] + A[i + 1]), 0.5 * (B[i] + B[i + 1])
        H = np.block([[Am, -Bm @ G @ Bm.T], [-Q, -Am.T]])
        h = t[i + 1] - t[i]
        steps = max(1, int(np.ceil(h * np.abs(H).sum(axis=0).max())))
        step = expm(-H * (h / steps))
        Si = S[i + 1]
        for _ in range(steps):
            XY = step @ np.vstack([np.eye(n), Si])
            Si = np.linalg.solve(XY[:n].T, XY[n:].T).T
            Si = 0.5 * (Si + Si.T)
        if not np.all(np.isfinite(Si)):
            raise ModelError(f"tracking_controller: the Riccati solution is not finite at "
                             f"t = {t[i]:.6g} s; check Q, R and the reference")
        S[i] = Si
    return S


@dataclass
class TrackingController:
    """Time-varying LQR u = u_ref(t) − K(t)·e(x, x_ref(t)) (module docstring).

    t : times of the gains [s]; K : gains (len(t) × inputs × error states); S : the Riccati
    solution (cost-to-go matrices) at t; x_ref : reference states (nx × len(t)); t_u, u_ref :
    reference inputs sampled so that linear interpolation reproduces them (jumps included);
    state_names : the error coordinates (chart names, then speeds); input_names;
    final_cost : how Q_f was chosen. Use it as ``controller=`` of a simulation or with
    ``jd.close_loop``; after the last time the final gain and reference are held.
    """

    t: np.ndarray
    K: np.ndarray
    S: np.ndarray
    x_ref: np.ndarray
    t_u: np.ndarray
    u_ref: np.ndarray
    state_names: list[str]
    input_names: list[str]
    final_cost: str
    chart: ErrorChart = field(repr=False, default=None)
    x_names: list = field(repr=False, default_factory=list)   # the system's, for checks

    def gain(self, t: float) -> np.ndarray:
        """K(t) (inputs × error states), linear between the stored times, held outside."""
        t = float(np.clip(t, self.t[0], self.t[-1]))
        k = int(np.clip(np.searchsorted(self.t, t) - 1, 0, len(self.t) - 2))
        w = (t - self.t[k]) / (self.t[k + 1] - self.t[k])
        return (1 - w) * self.K[k] + w * self.K[k + 1]

    def law(self, system):
        """(u(t, x, p) with the gains and the reference as interpolants of t inside the
        CasADi graph, names of the driven inputs)."""
        require_system(system, "TrackingController.law")
        if list(system.x_names) != self.x_names or list(system.u_names) != self.input_names:
            raise ModelError("TrackingController: designed for another system (its states or "
                             "inputs differ); use it on the system of the plan")
        ny = len(system.y_names)
        t, x = ca.SX.sym("t"), ca.SX.sym("x", system.nx)
        p = ca.SX.sym("p", len(system.p_names))
        xr = _table("x_ref", self.t, self.x_ref.T, t)
        ur = _table("u_ref", self.t_u, self.u_ref.T, t)
        n = len(self.state_names)
        # column-major entries of each K(t_i), as ca.reshape reads them
        columns = self.K.transpose(0, 2, 1).reshape(len(self.t), -1)
        K = ca.reshape(_table("K", self.t, columns, t), len(self.input_names), n)
        e = ca.vertcat(self.chart.error(x[:ny], xr[:ny]), x[ny:] - xr[ny:])
        u = ur - ca.mtimes(K, e)
        return ca.Function("tracking", [t, x, p], [u], ["t", "x", "p"], ["u"]), \
            list(self.input_names)


def _table(name: str, times: np.ndarray, values: np.ndarray, t) -> ca.SX:
    """Linear interpolant (len(times) × m values) evaluated at t clamped into the table."""
    values = np.atleast_2d(values)
    if values.shape[1] == 0:
        return ca.SX(0, 1)
    fn = ca.interpolant(name, "linear", [times], values.ravel())
    return fn(ca.fmin(ca.fmax(t, times[0]), times[-1]))


def tvlqr(system, t: np.ndarray, x_ref: np.ndarray, t_u: np.ndarray, u_ref: np.ndarray,
          p: np.ndarray, Q, R, Qf=None) -> TrackingController:
    """TVLQR along the reference: x_ref (nx × len(t)) at the increasing times t, u_ref
    (nu × len(t_u)) at t_u (linear interpolation); p the parameter vector. Q (error states),
    R (inputs) and Qf as for jd.lqr: matrices, diagonals, scalars or dicts by name. When the
    reference ends at a point that an input u_eq holds (an equilibrium), the reference input
    ends with u_eq, which the law keeps after the last time."""
    require_system(system, "tracking_controller")
    if not system.u_names:
        raise ModelError("tracking_controller: the system has no inputs to track with")
    chart = error_chart(system)
    names = chart.names + list(system.x_names[len(system.y_names):])
    Qm = weights(Q, names, "Q", "tracking_controller")
    Rm = weights(R, list(system.u_names), "R", "tracking_controller")
    u_eq = holding_input(system, t[-1], x_ref[:, -1], u_ref[:, -1], p)
    if u_eq is not None:
        t_u = np.append(t_u[t_u < t[-1]], t[-1])
        u_ref = np.hstack([u_ref[:, :t_u.size - 1], u_eq[:, None]])
    u_at = np.array([np.interp(t, t_u, row) for row in u_ref]).reshape(len(system.u_names), -1)
    n_t = len(t)
    AB = error_jacobians(system, chart)
    A, B = (np.array(m) for m in AB.map(n_t)(t, x_ref, u_at, np.repeat(p[:, None], n_t, 1)))
    A = A.reshape(A.shape[0], n_t, -1).transpose(1, 0, 2)
    B = B.reshape(B.shape[0], n_t, -1).transpose(1, 0, 2)
    Qf_m, final = _final_cost(Qf, u_eq is not None, A[-1], B[-1], Qm, Rm, names)
    S = riccati(t, A, B, Qm, Rm, Qf_m)
    K = np.linalg.solve(Rm, np.transpose(B, (0, 2, 1)) @ S)
    return TrackingController(t, K, S, x_ref, t_u, u_ref, names, list(system.u_names), final,
                              chart, list(system.x_names))


def holding_input(system, t: float, x: np.ndarray, u: np.ndarray, p: np.ndarray):
    """The input near u that holds x at rest (ẋ = 0; Gauss–Newton on ẋ(u)), or None when no
    input does (the point is no equilibrium)."""
    f = system.functions.get("f", system.f)
    us = ca.MX.sym("u", len(system.u_names))
    xdot = f(t, ca.DM(x), us, ca.DM(p))
    fn = ca.Function("holding", [us], [xdot, ca.jacobian(xdot, us)])
    scale = max(1.0, float(np.abs(x).max(initial=0.0)))
    u = np.asarray(u, dtype=float).copy()
    for _ in range(3):
        value, J = (np.array(v, dtype=float) for v in fn(u))
        u = u - np.linalg.lstsq(J, value.ravel(), rcond=None)[0]
    residual = np.abs(np.array(fn(u)[0], dtype=float)).max(initial=0.0)
    return u if residual <= EQUILIBRIUM_TOL * scale else None


def _final_cost(Qf, equilibrium: bool, A, B, Q, R, names):
    """(Q_f, description): the given one, or the algebraic Riccati solution at an
    equilibrium end point (else Q)."""
    if Qf is not None:
        return weights(Qf, names, "Qf", "tracking_controller"), "Qf as given"
    if not equilibrium:
        return Q, "Q (the final point is no equilibrium)"
    from scipy.linalg import solve_continuous_are
    try:
        S = solve_continuous_are(A, B, Q, R)
    except (ValueError, np.linalg.LinAlgError):
        return Q, "Q (no stabilizing LQR at the final equilibrium)"
    return 0.5 * (S + S.T), "the LQR cost-to-go at the final equilibrium"
