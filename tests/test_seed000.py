"""Seed 000 (cube on an edge, Kane's method): the compiled equations equal eq. (1.15) for the
speeds u = (φ̇, φ̇ + ψ̇) and eq. (1.19) for ũ = (φ̇, ψ̇), with the seed's typos corrected as
shared/seeds/README.md says: (1.15) reads C_ψ·(u2 − u1), (1.19) reads C_ψ·ũ2.

Reference (seed 000): I_K·u̇1 = m·g·l_C·sin φ − T_M + C_ψ·(u2 − u1), I_R·u̇2 = T_M − C_ψ·(u2 − u1);
I_K·ũ̇1 + I_R·(ũ̇1 + ũ̇2) = m·g·l_C·sin φ, I_R·(ũ̇1 + ũ̇2) = T_M − C_ψ·ũ2;
I_K = I^{GH/O} + m_R·l_MO² (housing about the edge + wheel as a point mass), m·l_C the first
moment of both masses about the edge.
"""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import CubeOnEdge

from conftest import SEED_SPEEDS

SYMBOLIC = ["world.g", "cube.housing.m", "cube.housing.r_cm", "cube.housing.I", "cube.wheel.m",
            "cube.wheel.I", "cube.mount.r", "cube.friction.d"]


def _random_parameters(system, rng) -> tuple[np.ndarray, dict]:
    seed = dict(m_h=rng.uniform(0.2, 2), l_h=rng.uniform(0.02, 0.2), J_h=rng.uniform(1e-4, 1e-2),
                m_R=rng.uniform(0.1, 1), l_MO=rng.uniform(0.02, 0.2), I_R=rng.uniform(1e-4, 1e-2),
                C=rng.uniform(0, 1e-2), g=rng.uniform(1, 20))
    values = {"world.g[1]": -seed["g"], "cube.housing.m": seed["m_h"],
              "cube.housing.r_cm[1]": seed["l_h"], "cube.housing.I.zz": seed["J_h"],
              "cube.housing.I.xx": seed["J_h"], "cube.housing.I.yy": seed["J_h"],
              "cube.wheel.m": seed["m_R"], "cube.wheel.I.zz": seed["I_R"],
              "cube.wheel.I.xx": seed["I_R"] / 2, "cube.wheel.I.yy": seed["I_R"] / 2,
              "cube.mount.r[1]": seed["l_MO"], "cube.friction.d": seed["C"]}
    return system.parameters(values), seed


def _seed_terms(seed: dict):
    I_K = seed["J_h"] + seed["m_h"] * seed["l_h"] ** 2 + seed["m_R"] * seed["l_MO"] ** 2
    mgl = seed["g"] * (seed["m_h"] * seed["l_h"] + seed["m_R"] * seed["l_MO"])
    return I_K, seed["I_R"], mgl


def _check(system, rng, expected):
    for _ in range(20):
        p, seed = _random_parameters(system, rng)
        y, z, T_M = rng.uniform(-3, 3, 2), rng.uniform(-10, 10, 2), rng.uniform(-1, 1)
        M = np.array(system.M(y, p))
        rhs = np.array(system.q(0.0, y, z, T_M, p) - system.k(y, z, p)).ravel()
        M_ref, rhs_ref = expected(seed, y[0], z, T_M)
        assert np.allclose(M, M_ref, rtol=1e-12, atol=1e-12 * np.abs(M_ref).max())
        assert np.allclose(rhs, rhs_ref, rtol=1e-12, atol=1e-12 * np.abs(rhs_ref).max())


def test_equation_1_15_speeds_u(rng):
    model = jd.Model.on_world(World(), cube=CubeOnEdge())
    system = jd.compile(model, speeds=SEED_SPEEDS, parameters=SYMBOLIC)
    assert system.z_names == ["u1", "u2"]

    def expected(seed, phi, u, T_M):
        I_K, I_R, mgl = _seed_terms(seed)
        friction = seed["C"] * (u[1] - u[0])
        return np.diag([I_K, I_R]), np.array([mgl * np.sin(phi) - T_M + friction,
                                              T_M - friction])
    _check(system, rng, expected)


def test_equation_1_19_speeds_u_tilde(rng):
    model = jd.Model.on_world(World(), cube=CubeOnEdge())
    system = jd.compile(model, parameters=SYMBOLIC)  # default speeds: ũ1 = φ̇, ũ2 = ψ̇
    assert system.z_names == ["cube.edge.w", "cube.bearing.w"]

    def expected(seed, phi, ut, T_M):
        I_K, I_R, mgl = _seed_terms(seed)
        return (np.array([[I_K + I_R, I_R], [I_R, I_R]]),
                np.array([mgl * np.sin(phi), T_M - seed["C"] * ut[1]]))
    _check(system, rng, expected)


@pytest.mark.parametrize("speeds", [None, SEED_SPEEDS])
def test_both_speed_choices_give_the_same_motion(speeds):
    """Reference: the two speed choices describe the same mechanics (u2 = ũ1 + ũ2)."""
    model = jd.Model.on_world(World(), cube=CubeOnEdge())
    default = jd.compile(model)
    chosen = jd.compile(model, speeds=speeds)
    options = dict(y0={"cube.edge.phi": 0.2}, rtol=1e-11, atol=1e-11,
                   inputs={"cube.motor.tau": lambda t: 0.01 * np.sin(3 * t)})
    a, b = default.simulate(2.0, **options), chosen.simulate(2.0, **options)
    assert np.allclose(a["cube.edge.phi"], b["cube.edge.phi"], atol=1e-6)
    assert np.allclose(a["cube.bearing.phi"], b["cube.bearing.phi"], atol=1e-6)


def test_demo_example_prints_both_seed_forms(tmp_path, monkeypatch, capsys):
    """examples/cube_on_edge.py (what `make demo` runs) prints eq. (1.15) and (1.19) and a fall
    rate close to the linearized √(m·g·l_C / I_K) (reference: small-angle solution
    φ = φ0·cosh(λ·t)), and saves its two figures."""
    import re
    import runpy
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "examples" / "cube_on_edge.py"
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(script), run_name="__main__")
    out = capsys.readouterr().out
    assert "I_R*u2' = C_psi*(u1 - u2) + T_M" in out
    assert "I_R*ut1' + I_R*ut2' = -C_psi*ut2 + T_M" in out
    rate, lam = map(float, re.search(r"cosh\(lambda\*t\): (\S+) 1/s \(linearized .* = (\S+) 1/s",
                                     out).groups())
    assert abs(rate - lam) < 0.01 * lam
    for name in ("cube_on_edge_fall.png", "cube_on_edge_motor.png"):   # written by this run
        assert (tmp_path / "out" / name).stat().st_size > 1000
