"""Closed-form references: small-angle pendulum period, the hand-derived cart-pole mass
matrix, T = ½·zᵀ·M·z for arbitrary speed choices, and a frame sensor's position."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import FixedTranslation, FrameSensor, World
from jourdain.library import CartPole, CubeOnEdge, NLinkPendulum, Pendulum

from conftest import SEED_SPEEDS


def _zero_crossings(t, x):
    idx = np.flatnonzero(np.sign(x[:-1]) != np.sign(x[1:]))
    return t[idx] - x[idx] * (t[idx + 1] - t[idx]) / (x[idx + 1] - x[idx])


@pytest.mark.parametrize("l", [0.5, 1.0, 2.0])
def test_small_angle_period(l):
    """T = 2π·√(l/g) for a point mass (amplitude 1e-3 rad: the finite-amplitude correction
    θ0²/16 ≈ 6e-8 is below the tolerance)."""
    system = jd.compile(jd.Model.on_world(World(), p=Pendulum(l=l)), parameters=["p.bob.r_cm"])
    res = system.simulate(10.0, y0={"p.joint.phi": 1e-3}, n_out=20001, rtol=1e-11, atol=1e-14)
    crossings = _zero_crossings(res.t, res["p.joint.phi"])
    period = 2 * np.mean(np.diff(crossings))
    assert period == pytest.approx(2 * np.pi * np.sqrt(l / 9.81), rel=1e-6)


def test_one_compiled_system_serves_many_parameter_values():
    """The pendulum length is symbolic: the same System gives the period for each l."""
    system = jd.compile(jd.Model.on_world(World(), p=Pendulum()), parameters=["p.bob.r_cm"])
    for l in (0.25, 4.0):
        res = system.simulate(10.0, y0={"p.joint.phi": 1e-3}, n_out=20001, rtol=1e-11,
                              atol=1e-14, params={"p.bob.r_cm[1]": -l})
        period = 2 * np.mean(np.diff(_zero_crossings(res.t, res["p.joint.phi"])))
        assert period == pytest.approx(2 * np.pi * np.sqrt(l / 9.81), rel=1e-6)


def test_cartpole_mass_matrix_by_hand(rng):
    """Pole COM at (x − h·sin θ, h·cos θ), h = l/2, J = m_p·l²/12:
    M = [[m_c + m_p, −m_p·h·cos θ], [−m_p·h·cos θ, m_p·h² + J]]."""
    m_c, m_p, l = 1.3, 0.4, 0.8
    system = jd.compile(jd.Model.on_world(World(), cp=CartPole(m_cart=m_c, m_pole=m_p, l=l)))
    h, J = l / 2, m_p * l**2 / 12
    for theta in rng.uniform(-np.pi, np.pi, 5):
        y = [rng.uniform(-1, 1), theta]
        expected = [[m_c + m_p, -m_p * h * np.cos(theta)],
                    [-m_p * h * np.cos(theta), m_p * h**2 + J]]
        assert np.allclose(np.array(system.M(y, [])), expected, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("speeds", [None, SEED_SPEEDS,
                                    {"a": "2*cube.edge.phi.der - cube.bearing.phi.der",
                                     "b": "cube.bearing.phi.der + sin(cube.edge.phi)*cube.edge.phi.der"}])
def test_kinetic_energy_is_half_zT_M_z(speeds, rng):
    system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()), speeds=speeds)
    for _ in range(5):
        x = rng.uniform(-2, 2, system.nx)
        y, z = x[:2], x[2:]
        T = float(system.energy(x, [])[0])
        M = np.array(system.M(y, []))
        assert T == pytest.approx(0.5 * z @ M @ z, rel=1e-13)


def test_chain_kinetic_energy_and_symmetry(rng):
    system = jd.compile(jd.Model.on_world(World(), c=NLinkPendulum(6)))
    x = rng.uniform(-1, 1, system.nx)
    M = np.array(system.M(x[:6], []))
    assert np.allclose(M, M.T, atol=1e-14)
    assert np.linalg.eigvalsh(M).min() > 0
    assert float(system.energy(x, [])[0]) == pytest.approx(0.5 * x[6:] @ M @ x[6:], rel=1e-13)


def test_frame_sensor_reads_the_pendulum_bob_position():
    """r = l·(sin φ, −cos φ, 0) and |v| = l·|φ̇| for a bob on a rod of length l."""
    model = jd.Model.on_world(World(), p=Pendulum(l=0.7))
    model.sensor = FrameSensor()
    model.tip = FixedTranslation(r=(0, -0.7, 0))
    model.connect(model.p.joint.frame_b, model.tip.frame_a)
    model.connect(model.tip.frame_b, model.sensor.frame_a)
    system = jd.compile(model)
    assert system.output_names[:3] == ["sensor.r[0]", "sensor.r[1]", "sensor.r[2]"]
    phi, w = 0.4, -1.3
    out = np.array(system.h(0, [phi, w], [], [])).ravel()
    assert np.allclose(out[:3], [0.7 * np.sin(phi), -0.7 * np.cos(phi), 0], atol=1e-15)
    assert np.linalg.norm(out[3:6]) == pytest.approx(0.7 * abs(w), rel=1e-14)
    assert np.allclose(out[6:15].reshape(3, 3) @ out[6:15].reshape(3, 3).T, np.eye(3))
    assert np.allclose(out[15:18], [0, 0, w])
