"""Linearization in minimal coordinates (jourdain.solver.control.linearize).

References: seed 000's equations (1.15) of the cube on an edge linearized by hand; central
finite differences of the nonlinear model in the same chart (an independent numpy
implementation of the quaternion chart); the pendulum's small-oscillation frequency √(g/l).
"""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import (RSSR, AngleRollingDisk, BalancedCubeOnCorner, BalancedCubeOnEdge,
                              CartPole, CrankSlider, CubeOnCorner, CubeOnEdge,
                              DifferentialDrive, DoublePendulum, FourBar, NLinkPendulum,
                              Pendulum, RandomTree, RollingDisk, Wheel)

G = 9.81


def _compile(mechanism, speeds=None):
    return jd.compile(jd.Model.on_world(World(), cube=mechanism), speeds=speeds)


def test_cube_on_edge_equals_seed_000_linearized_by_hand():
    """Seed 000 (1.15) with u1 = φ̇, u2 = φ̇ + ψ̇: I_K·u̇1 = m·g·l_C·sin φ − T_M + C_ψ(u2 − u1),
    I_R·u̇2 = T_M − C_ψ(u2 − u1), φ̇ = u1, ψ̇ = u2 − u1; linearized at φ = 0 by hand with
    I_K = Θ_housing about the edge + m_R·l², m·l_C = m_h·l_h + m_R·l (CubeOnEdge defaults)."""
    m_h, m_w, l_h, l_w, J_w, C = 0.419, 0.204, 0.075, 0.085, 0.57e-3, 0.05e-3
    I_K = 3.34e-3 + m_w * l_w**2
    mgl = G * (m_h * l_h + m_w * l_w)
    system = _compile(CubeOnEdge(), speeds={"u1": "cube.edge.phi.der",
                                            "u2": "cube.edge.phi.der + cube.bearing.phi.der"})
    lin = jd.linearize(system)
    A = np.array([[0, 0, 1, 0], [0, 0, -1, 1],
                  [mgl / I_K, 0, -C / I_K, C / I_K], [0, 0, C / J_w, -C / J_w]])
    B = np.array([[0], [0], [-1 / I_K], [1 / J_w]])
    assert lin.state_names == ["cube.edge.phi", "cube.bearing.phi", "u1", "u2"]
    assert lin.kind == "equilibrium"
    np.testing.assert_allclose(lin.A, A, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(lin.B, B, rtol=1e-12)


# ---- finite differences in the chart, implemented independently with numpy --------------
def _qmul(p, q):
    return np.array([p[0] * q[0] - p[1:] @ q[1:],
                     *(p[0] * q[1:] + q[0] * p[1:] + np.cross(p[1:], q[1:]))])


def _fd_model(system, lin):
    """dx -> local dxdot using the module docstring's chart, written out in numpy. Dependent
    coordinates of constrained systems are no chart coordinates: they keep their operating
    value as Newton's guess, and the nonlinear model's projection puts them onto c(y) = 0
    (as do the dependent rotation directions of a ball joint inside a loop)."""
    quats = dict(system.quaternions)
    dep = {system.y_names.index(n) for n in getattr(system, "dependent_coordinates", [])}
    y_op, nz = lin.x_op[:len(system.y_names)], len(system.z_names)
    p = system.p_default
    kept = {i: [k for k, c in enumerate("xyz") if f"{path}.theta_{c}" in lin.state_names]
            for i, path in quats.items()}
    project = system.functions.get("project")

    def to_y(theta):
        y, i, k = [], 0, 0
        while i < len(y_op):
            if i in quats:
                th = np.zeros(3)   # dependent rotation directions (a ball in a loop): 0
                th[kept[i]] = theta[k:k + len(kept[i])]
                q = _qmul(y_op[i:i + 4], np.concatenate([[1.0], 0.5 * th]))
                y += list(q / np.linalg.norm(q))
                i, k = i + 4, k + len(kept[i])
            elif i in dep:
                y.append(y_op[i])
                i += 1
            else:
                y.append(y_op[i] + theta[k])
                i, k = i + 1, k + 1
        return np.array(y)

    def theta_dot(y, ydot):
        out, i = [], 0
        while i < len(y):
            if i in quats:
                conj = y_op[i:i + 4] * np.array([1, -1, -1, -1])
                s, ds = _qmul(conj, y[i:i + 4]), _qmul(conj, ydot[i:i + 4])
                out += list((2 * (ds[1:] * s[0] - s[1:] * ds[0]) / s[0]**2)[kept[i]])
                i += 4
            elif i in dep:
                i += 1
            else:
                out.append(ydot[i])
                i += 1
        return np.array(out)

    def F(dx, u):
        y = to_y(dx[:-nz] if nz else dx)
        if project is not None:   # the chart of a ball joint in a loop reads the solved q
            y = np.array(project(np.concatenate([y, dx[-nz:]]), p)).ravel()[:len(y)]
        xdot = np.array(system.f(0.0, np.concatenate([y, dx[-nz:]]), u, p)).ravel()
        return np.concatenate([theta_dot(y, xdot[:len(y)]), xdot[len(y):]])

    def H(dx, u):
        y = to_y(dx[:-nz] if nz else dx)
        return np.array(system.h(0.0, np.concatenate([y, dx[-nz:]]), u, p)).ravel()

    F.outputs = H
    return F


def _random_point(system, rng):
    y0 = {n: rng.uniform(-1, 1) for n in system.y_names
          if n not in getattr(system, "dependent_coordinates", [])}
    for start, _ in system.quaternions:
        if system.y_names[start] in getattr(system, "dependent_coordinates", []):
            continue   # a ball joint inside a loop: assembled, not given
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        y0.update({system.y_names[start + k]: q[k] for k in range(4)})
    z0 = {n: rng.uniform(-2, 2) for n in system.z_names}
    u0 = {n: rng.uniform(-0.1, 0.1) for n in system.u_names}
    return y0, z0, u0


LIBRARY = {
    "pendulum": lambda: _compile(Pendulum(d=0.1)),
    "double": lambda: _compile(DoublePendulum()),
    "chain3": lambda: _compile(NLinkPendulum(3)),
    "cartpole": lambda: _compile(CartPole(d=0.2)),
    "cube_edge": lambda: _compile(CubeOnEdge(C_phi=1e-3)),
    "cube_corner": lambda: _compile(CubeOnCorner()),
    "cube_corner_absolute": lambda: _compile(CubeOnCorner(),
                                             CubeOnCorner.absolute_wheel_speeds()),
    # closed loops (one saturated, one not, at the random point)
    "balanced_edge": lambda: _compile(BalancedCubeOnEdge([[-1.2, -0.12, -0.001]], 0.05)),
    "balanced_corner": lambda: _compile(BalancedCubeOnCorner(
        np.random.default_rng(3).normal(scale=0.2, size=(3, 9)), 10.0)),
    "tree": lambda: _compile(RandomTree(5, seed=1)),
    # constrained (partitioning): dependent coordinates solved by Newton inside f
    "four_bar": lambda: _compile(FourBar()),
    "crank_slider": lambda: _compile(CrankSlider()),
    "wheel": lambda: _compile(Wheel()),
    "rolling_disk": lambda: _compile(RollingDisk()),
    "angle_rolling_disk": lambda: _compile(AngleRollingDisk()),
    "differential_drive": lambda: _compile(DifferentialDrive()),
    "rssr": lambda: _compile(RSSR()),      # Newton on a ball joint's rotation vector
}


@pytest.mark.parametrize("name", sorted(LIBRARY))
def test_linearization_matches_central_finite_differences(name):
    """A, B, C, D agree with central differences of the nonlinear model at a generic
    (non-equilibrium) point, to 1e-6 relative to the largest entry."""
    system = LIBRARY[name]()
    y0, z0, u0 = _random_point(system, np.random.default_rng(7))
    lin = jd.linearize(system, y0=y0, z0=z0, u0=u0)
    F = _fd_model(system, lin)
    dx0, u = lin.dx_op, lin.u_op
    np.testing.assert_allclose(F(dx0, u), lin.xdot_op, rtol=1e-12, atol=1e-12)
    h = 1e-5
    A_fd = np.column_stack([(F(dx0 + h * e, u) - F(dx0 - h * e, u)) / (2 * h)
                            for e in np.eye(len(dx0))])
    B_fd = np.column_stack([(F(dx0, u + h * e) - F(dx0, u - h * e)) / (2 * h)
                            for e in np.eye(len(u))]) if len(u) else np.zeros((len(dx0), 0))
    assert np.abs(lin.A - A_fd).max() <= 1e-6 * max(1.0, np.abs(lin.A).max())
    assert np.abs(lin.B - B_fd).max(initial=0) <= 1e-6 * max(1.0, np.abs(lin.B).max(initial=0))
    H = F.outputs  # outputs (sensors, controller signals): C and D the same way
    C_fd = np.column_stack([(H(dx0 + h * e, u) - H(dx0 - h * e, u)) / (2 * h)
                            for e in np.eye(len(dx0))])
    assert np.abs(lin.C - C_fd).max(initial=0) <= 1e-6 * max(1.0, np.abs(lin.C).max(initial=0))
    if len(u):
        D_fd = np.column_stack([(H(dx0, u + h * e) - H(dx0, u - h * e)) / (2 * h)
                                for e in np.eye(len(u))])
        assert np.abs(lin.D - D_fd).max(initial=0) <= 1e-6 * max(1.0, np.abs(lin.D).max(
            initial=0))
    # The free upright wheel keeps its speeds (ż = 0) but turns, so A (∂ẋ_s/∂γ = −R·sin γ·φ̇)
    # changes along the motion.
    assert lin.kind == ("time-varying motion" if name == "wheel" else "not stationary")


def test_hanging_pendulum_oscillates_at_sqrt_g_over_l():
    """Closed form: small oscillations of a point-mass pendulum, λ = ±j·√(g/l)."""
    lin = jd.linearize(_compile(Pendulum(l=0.5)))
    assert lin.is_equilibrium
    np.testing.assert_allclose(sorted(lin.eigenvalues.imag), [-np.sqrt(G / 0.5),
                                                              np.sqrt(G / 0.5)], rtol=1e-12)
    assert abs(lin.modes()[0].frequency - np.sqrt(G / 0.5) / (2 * np.pi)) < 1e-12


def test_operating_point_kinds():
    """A wheel spinning without friction on the upright cube is a steady motion (ż = 0,
    ψ̇ ≠ 0); with bearing friction the wheel decelerates (not stationary)."""
    spin = {"cube.bearing.w": 50.0}
    assert jd.linearize(_compile(CubeOnEdge(C_psi=0.0)), z0=spin).kind == "steady motion"
    assert jd.linearize(_compile(CubeOnEdge()), z0=spin).kind == "not stationary"


def test_pendulum_passing_its_lowest_point_is_no_steady_motion():
    """Closed form φ̈ = −(g/l)·sin φ: at φ = 0 with φ̇ = ω the acceleration is 0 (ż = 0), but
    d/dt φ̈ = −(g/l)·ω ≠ 0 and A's entry −(g/l)·cos φ changes only at second order: reported
    as not stationary, not as a steady motion."""
    lin = jd.linearize(_compile(Pendulum(l=0.5)), z0={"cube.joint.w": 1.0})
    assert np.abs(lin.xdot_op[1:]).max() < 1e-12 and lin.kind == "not stationary"


def test_quaternion_states_are_minimal_and_to_state_round_trips():
    """A spherical joint gives 3 + 3 states (2·dim z); to_state maps a rotation vector back
    to a unit quaternion rotating by |θ| about θ (q = (cos |θ|/2, sin |θ|/2·θ/|θ|) up to the
    Gibbs chart's scaling: tan(α/2) = |θ|/2)."""
    system = _compile(CubeOnCorner())
    lin = jd.linearize(system)
    assert len(lin.state_names) == 2 * len(system.z_names)
    theta = np.array([0.3, -0.2, 0.1])
    x = lin.to_state({f"cube.pivot.theta_{c}": v for c, v in zip("xyz", theta)})
    q = x[:4]
    assert abs(np.linalg.norm(q) - 1) < 1e-14
    alpha = 2 * np.arctan(np.linalg.norm(theta) / 2)
    np.testing.assert_allclose(q, [np.cos(alpha / 2), *(np.sin(alpha / 2) * theta
                                                        / np.linalg.norm(theta))], atol=1e-14)


def test_select_and_bad_names():
    """Cyclic wheel angles may be dropped; a coupled state may not; unknown names fail."""
    lin = jd.linearize(_compile(CubeOnEdge()))
    sub = lin.select(["cube.edge.phi", "cube.edge.w", "cube.bearing.w"])
    assert sub.A.shape == (3, 3)
    with pytest.raises(jd.ModelError, match="cube.edge.phi"):
        lin.select(["cube.edge.w", "cube.bearing.w"])
    with pytest.raises(jd.ModelError, match="did you mean"):
        lin.select(["cube.edge.ph"])
    with pytest.raises(jd.ModelError, match="u0"):
        jd.linearize(_compile(CubeOnEdge()), u0={"cube.motor.torque": 1.0})
    with pytest.raises(jd.ModelError, match="quaternion cube.pivot.q0..q3 is zero"):
        jd.linearize(_compile(CubeOnCorner()), y0={"cube.pivot.q0": 0.0})


def test_modes_and_python_control_export_agree():
    """The unstable mode of the upright cube on an edge is dominated by the tilt; the
    python-control StateSpace carries the same matrices (its poles are A's eigenvalues)."""
    lin = _compile(CubeOnEdge()).linearize()
    top = lin.modes()[0]
    assert top.eigenvalue.real > 0 and top.damping == pytest.approx(-1.0)
    assert set(top.dominant) >= {"cube.edge.phi", "cube.edge.w"}
    ss = lin.to_control()
    np.testing.assert_allclose(np.sort_complex(ss.poles()), np.sort_complex(lin.eigenvalues),
                               atol=1e-9)
    assert ss.input_labels == ["cube_motor_tau"]


# ---- constrained systems: minimal coordinates ---------------------------------------------
def test_four_bar_linearizes_to_its_one_dof_energy_form():
    """Closed loop, reference: the energy method of a one-DOF conservative system,
    m_gen(q*)·δq̈ + V''(q*)·δq = 0 at a rest position q* of the crank (seed 003's generalized
    mass; V of the assembled configuration, differentiated by central differences). The
    dependent coordinates are no states: 2 states, not 3 + 1."""
    from scipy.optimize import brentq

    system = _compile(FourBar())

    def state(q):
        return system.state({"cube.crank.phi": q})

    def zdot(q):
        return float(np.array(system.f(0, state(q), [], [])).ravel()[-1])

    grid = np.linspace(-np.pi, np.pi, 37)
    roots = [brentq(zdot, a, b, xtol=1e-13) for a, b in zip(grid, grid[1:])
             if zdot(a) * zdot(b) < 0]

    def V(q):
        return float(system.functions["energy"](state(q), [])[1])

    h = 1e-4
    q = min(roots, key=lambda r: -(V(r + h) - 2 * V(r) + V(r - h)))  # the stable rest
    stiffness = (V(q + h) - 2 * V(q) + V(q - h)) / h**2
    mass = float(system.functions["m_gen"](q, []))
    lin = jd.linearize(system, y0={"cube.crank.phi": q})
    assert lin.state_names == ["cube.crank.phi", "cube.crank.w"]
    assert lin.kind == "equilibrium"
    assert stiffness > 0
    np.testing.assert_allclose(lin.eigenvalues.imag.max(), np.sqrt(stiffness / mass), rtol=1e-6)


@pytest.mark.parametrize("spin", [0.0, 2.0, 5.0, 10.0])
def test_rolling_disk_about_steady_upright_rolling(spin):
    """Nonholonomic, steady motion; reference: the classical closed form for a thin disk
    (I_1 = mR²/4, I_3 = mR²/2) rolling upright at spin rate Ω: the lean obeys
    (I_1 + mR²)·α̈ + (I_3(I_3 + mR²)Ω²/I_1 − mgR)·α = 0, i.e. λ² = (g − 3RΩ²)/(1.25·R),
    stable above Ω² = g/(3R). States: 5 coordinates (height dependent) + 3 speeds."""
    R = 0.25
    system = _compile(AngleRollingDisk(R=R))
    lin = jd.linearize(system, z0={"cube.spin.w": spin})
    assert lin.kind == ("equilibrium" if spin == 0 else "steady motion")
    assert len(lin.state_names) == 8 and "cube.height.s" not in lin.state_names
    lam = np.sqrt(complex((G - 3 * R * spin**2) / (1.25 * R)))
    nonzero = lin.eigenvalues[np.abs(lin.eigenvalues) > 1e-6]
    np.testing.assert_allclose(np.sort_complex(nonzero), np.sort_complex([lam, -lam]),
                               rtol=1e-9)


def test_free_joint_disk_rolling_is_flagged_time_varying():
    """The FreeJoint disk's body-fixed orientation turns with the spin, so A changes along
    the rolling motion: reported as such (its frozen eigenvalues differ from the closed form
    above), not as a steady motion. At rest it is the same equilibrium as AngleRollingDisk."""
    system = _compile(RollingDisk(R=0.25))
    rest = jd.linearize(system)
    assert rest.kind == "equilibrium" and len(rest.state_names) == 8
    np.testing.assert_allclose(rest.eigenvalues[0].real, np.sqrt(G / (1.25 * 0.25)),
                               rtol=1e-9)
    assert jd.linearize(system, z0={"cube.joint.wz": 5.0}).kind == "time-varying motion"


def test_multiplier_methods_are_refused():
    system = jd.compile(jd.Model.on_world(World(), cube=FourBar()),
                        constraints=jd.ConstraintMethod.BAUMGARTE)
    with pytest.raises(jd.ModelError, match="PARTITIONING"):
        jd.linearize(system)
