"""Rolling contact: the thin disk on the plane (holonomic contact height, two no-slip
velocity constraints), several contacts in one model (differential drive)."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import DifferentialDrive, RollingDisk
from jourdain.library.wheel import disk_lean, upright_quaternion

R, G = 0.25, 9.81


def _max_residual(res) -> float:
    return max(np.abs(v).max() for k, v in res.series.items() if k.startswith("residual"))


def _lean(res):
    return disk_lean(*(res[f"disk.joint.q{i}"] for i in range(4)))


@pytest.fixture(scope="module")
def disk():
    return jd.compile(jd.Model.on_world(World(), disk=RollingDisk(R=R, m=1.0)))


def test_disk_structure(disk):
    """Reference: a disk on a FreeJoint has f̄ = 6 speeds; the contact height is holonomic and
    the two no-slip conditions are not: g = 3 (body-fixed ω), f = 5 (x, z, heading, lean,
    spin), the center height is the dependent coordinate."""
    assert disk.z_names == ["disk.joint.wx", "disk.joint.wy", "disk.joint.wz"]
    assert disk.dependent_coordinates == ["disk.joint.y"]
    info = disk.integrability
    assert (info.f_bar, info.k, info.g, info.f) == (6, 3, 3, 5)
    assert (info.n_holonomic, info.n_nonholonomic) == (1, 2)


def test_orientation_helpers_agree():
    """Reference: a rotation by the heading about y, then by the lean about the body x axis
    tilts the axle by the lean angle (0 upright)."""
    q = upright_quaternion(heading=0.7, lean=0.3)
    assert disk_lean(q["q0"], q["q1"], q["q2"], q["q3"]) == pytest.approx(0.3, abs=1e-14)


def test_disk_energy_and_residuals_over_10s(disk):
    """Reference: rolling without slip does no work, so T + V is conserved (to the integrator
    tolerance); contact height and slip velocities stay at round-off."""
    y0 = upright_quaternion(heading=0.5, lean=0.3, prefix="disk.joint.")
    res = disk.simulate(10.0, y0=y0, z0={"disk.joint.wz": -12.0, "disk.joint.wy": 1.0},
                        rtol=1e-10, atol=1e-10)
    assert _max_residual(res) < 1e-9
    energy = res["energy.total"]
    assert np.ptp(energy) < 1e-7 * energy[0]
    assert np.ptp(res["disk.joint.x"]) > 1.0          # it really rolls


def _growth(Omega, rate, t):
    """Linearized lean θ about upright rolling with spin Ω from θ(0) = 0, θ̇(0) = rate.

    Derivation (thin uniform disk, I_a = ½mR² about the axle, I_d = ¼mR² about a diameter;
    lean θ, heading ψ): the heading obeys I_d·ψ̈ = I_a·Ω·θ̇ (the contact force has no moment
    about the vertical through the center), so ψ̇ = (I_a/I_d)·Ω·θ = 2Ωθ; the lean about the
    contact point obeys (I_d + mR²)·θ̈ = mgR·θ − (I_a + mR²)·Ω·ψ̇. Hence
    θ̈ = (4/5)·(g/R − 3Ω²)·θ: unstable for Ω² < g/(3R), oscillating for Ω² > g/(3R), the
    classical critical speed v_c = √(gR/3) (Neimark & Fufaev, Dynamics of Nonholonomic
    Systems, 1972, ch. III)."""
    s2 = 0.8 * (G / R - 3 * Omega**2)
    s = np.sqrt(abs(s2))
    return rate / s * (np.sinh(s * t) if s2 > 0 else np.sin(s * t))


@pytest.mark.parametrize("ratio", [0.6, 1.5])
def test_upright_rolling_critical_speed(disk, ratio):
    """Reference: closed-form critical spin Ω_c = √(g/(3R)) of a uniform thin disk: below it
    a small lean grows like sinh(σt), above it oscillates like sin(νt), with σ², −ν² =
    (4/5)(g/R − 3Ω²) (derivation in _growth). The simulated lean follows the linear
    prediction to 2 % of its amplitude."""
    Omega = ratio * np.sqrt(G / (3 * R))
    rate, t_end = 0.01, (0.8 if ratio < 1 else 5.0)
    res = disk.simulate(t_end, z0={"disk.joint.wz": -Omega, "disk.joint.wx": rate},
                        rtol=1e-10, atol=1e-10, n_out=201)
    lean, predicted = np.abs(_lean(res)), np.abs(_growth(Omega, rate, res.t))
    assert np.abs(lean - predicted).max() < 0.02 * predicted.max()
    if ratio < 1:
        assert lean[-1] > 4 * rate * t_end    # faster than the initial lean rate alone
    else:
        assert lean.max() < 1.01 * rate / np.sqrt(0.8 * (3 * Omega**2 - G / R))


def test_differential_drive_residuals_over_10s():
    """Reference: two rolling contacts on one chassis (R = 0.1 m, half-track b = 0.2 m); the
    no-slip residuals stay at round-off, the integrable combination θ = R/(2b)·(φ_R − φ_L)
    (difference of the two rolling conditions) holds to round-off, and the lateral
    constraints of the two wheels on one axle are found redundant (rank 3 of 4 velocity rows;
    both contact heights hold identically)."""
    system = jd.compile(jd.Model.on_world(World(), car=DifferentialDrive()))
    assert sorted(system.z_names) == ["car.left.w", "car.right.w"]
    part = system.partition
    assert len(part.velocity_rows) == 3 and len(part.redundant_rows) == 2
    res = system.simulate(10.0, inputs={"car.motor_left.tau": 0.05,
                                        "car.motor_right.tau": lambda t: 0.08 * np.cos(t)},
                          rtol=1e-10, atol=1e-10)
    assert _max_residual(res) < 1e-9
    info = system.integrability
    # θ − R/(2b)·(φ_R − φ_L) = const is integrable; the other two constraints are not.
    assert (info.g, info.f, info.n_holonomic) == (2, 4, 1)
    relation = res["car.heading.phi"] - 0.1 / 0.4 * (res["car.right.phi"] - res["car.left.phi"])
    assert np.ptp(relation) < 1e-9 and np.ptp(res["car.heading.phi"]) > 0.1


def test_dae_contact_force_of_upright_rolling():
    """Reference: in steady upright rolling the contact carries the weight, λ_height = m·g,
    with no tangential force; the DAE (IDAS) and partitioned solutions coincide."""
    model = jd.Model.on_world(World(), disk=RollingDisk(R=R, m=2.0))
    dae = jd.compile(model, constraints=jd.ConstraintMethod.DAE)
    part = jd.compile(model)
    runs = [s.simulate(1.0, z0={"disk.joint.wz": -8.0}, rtol=1e-10, atol=1e-10)
            for s in (dae, part)]
    assert "lambda[0]: disk.contact row 0" in dae.report()     # row 0: the contact height
    assert np.allclose(runs[0]["lambda[0]"], 2.0 * G, rtol=1e-8)
    assert np.abs(runs[0]["lambda[1]"]).max() < 1e-8 and np.abs(runs[0]["lambda[2]"]).max() < 1e-8
    assert np.allclose(runs[0]["disk.joint.x"], runs[1]["disk.joint.x"], atol=1e-8)
    assert runs[1]["disk.joint.x"][-1] == pytest.approx(8.0 * R, rel=1e-8)


def test_seed_002_wheel_dynamics_conserve_energy():
    """Reference: conservation law: the upright wheel rolling and turning without slip keeps
    T = ½(mR² + I_a)·φ̇² + ½·I_d·γ̇² constant, and each speed stays constant (the no-slip forces
    do no work and, for the upright disk, exert no moment about the axle or the vertical)."""
    from jourdain.library import Wheel
    system = jd.compile(jd.Model.on_world(World(), wheel=Wheel(R=0.3, m=2.0)))
    res = system.simulate(10.0, z0={"wheel.spin.w": 4.0, "wheel.steer.w": 0.7},
                          rtol=1e-10, atol=1e-10)
    assert _max_residual(res) < 1e-9
    m, Rw = 2.0, 0.3
    T = 0.5 * (m * Rw**2 + 0.5 * m * Rw**2) * 4.0**2 + 0.5 * (0.25 * m * Rw**2) * 0.7**2
    assert np.allclose(res["energy.kinetic"], T, rtol=1e-9)
    assert np.ptp(res["wheel.spin.w"]) < 1e-8 and np.ptp(res["wheel.steer.w"]) < 1e-8


def test_leaning_disk_methods_agree():
    """Reference: the other formulations. On the quaternion disk (dim y = 7 ≠ dim w = 6, so
    Ȧ·w involves ẏ = N(y)·w) a leaning, turning disk integrated by partitioning, the Baumgarte
    ODE and the index-1 DAE follows the same path to 1e-7 m over 3 s, conserving energy."""
    y0 = upright_quaternion(heading=0.5, lean=0.3, prefix="disk.joint.")
    runs = []
    for method in jd.ConstraintMethod:
        system = jd.compile(jd.Model.on_world(World(), disk=RollingDisk(R=R)), constraints=method)
        runs.append(system.simulate(3.0, y0=y0, z0={"disk.joint.wz": -12.0, "disk.joint.wy": 1.0},
                                    rtol=1e-11, atol=1e-11, n_out=61))
    for res in runs[1:]:
        for name in ("disk.joint.x", "disk.joint.z", "disk.joint.q1", "disk.joint.q2"):
            assert np.abs(res[name] - runs[0][name]).max() < 1e-7, name
        assert _max_residual(res) < 1e-8
        assert np.ptp(res["energy.total"]) < 1e-8 * res["energy.total"][0]
    assert np.ptp(runs[0]["disk.joint.x"]) > 0.5
