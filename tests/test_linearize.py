"""Linearization in minimal coordinates (jourdain.solver.linearize).

References: seed 000's equations (1.15) of the cube on an edge linearized by hand; central
finite differences of the nonlinear model in the same chart (an independent numpy
implementation of the quaternion chart); the pendulum's small-oscillation frequency √(g/l).
"""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import (BalancedCubeOnCorner, BalancedCubeOnEdge, CartPole,
                              CubeOnCorner, CubeOnEdge, DoublePendulum, NLinkPendulum, Pendulum)

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
    """dx -> local dxdot using the module docstring's chart, written out in numpy."""
    quats = dict(system.quaternions)
    y_op, nz = lin.x_op[:len(system.y_names)], len(system.z_names)
    p = system.p_default

    def to_y(theta):
        y, i, k = [], 0, 0
        while i < len(y_op):
            if i in quats:
                q = _qmul(y_op[i:i + 4], np.concatenate([[1.0], 0.5 * theta[k:k + 3]]))
                y += list(q / np.linalg.norm(q))
                i, k = i + 4, k + 3
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
                out += list(2 * (ds[1:] * s[0] - s[1:] * ds[0]) / s[0]**2)
                i += 4
            else:
                out.append(ydot[i])
                i += 1
        return np.array(out)

    def F(dx, u):
        y = to_y(dx[:-nz] if nz else dx)
        xdot = np.array(system.f(0.0, np.concatenate([y, dx[-nz:]]), u, p)).ravel()
        return np.concatenate([theta_dot(y, xdot[:len(y)]), xdot[len(y):]])

    return F


def _random_point(system, rng):
    y0 = {n: rng.uniform(-1, 1) for n in system.y_names}
    for start, _ in system.quaternions:
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
}


@pytest.mark.parametrize("name", sorted(LIBRARY))
def test_linearization_matches_central_finite_differences(name):
    """A and B agree with central differences of the nonlinear model at a generic
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
    assert lin.kind == "not stationary"


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
