"""The cube balancing on its corner (library CubeOnCorner, BalancedCubeOnCorner).

References: the inverted-pendulum closed form of the falling rate; conservation laws (energy; angular momentum about the vertical through the pivot,
computed here from the geometry, since gravity and the pivot force have no moment about that
axis and motor and bearing torques are internal); the other speed choice (same motion); the
linearization's spectrum (an inverted pendulum has a positive real eigenvalue); seed 000's
decoupling: with absolute wheel speeds the mass matrix has no housing–wheel coupling.
"""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import BalancedCubeOnCorner, CubeOnCorner

from conftest import ROUNDOFF

STATES = [f"cube.{s}" for s in BalancedCubeOnCorner.STATES]
TAU_MAX = 0.1  # [N·m] per motor


def _open_loop(speeds=None, **options):
    return jd.compile(jd.Model.on_world(World(), cube=CubeOnCorner(**options)), speeds=speeds)


@pytest.fixture(scope="module")
def design():
    """LQR on the upright linearization (wheel angles are cyclic and dropped)."""
    lin = jd.linearize(_open_loop())
    Q = {n: (100.0 if "theta" in n else 1.0 if "pivot.w" in n else 1e-3) for n in STATES}
    return lin, jd.lqr(lin.select(STATES), Q, 1e3 * np.eye(3))


Y_NAMES = ["cube.pivot.q0", "cube.pivot.q1", "cube.pivot.q2", "cube.pivot.q3",
           "cube.bearing1.phi", "cube.bearing2.phi", "cube.bearing3.phi"]


def test_upright_is_an_unstable_equilibrium(design):
    lin, _ = design
    assert lin.kind == "equilibrium"
    real = lin.eigenvalues[np.abs(lin.eigenvalues.imag) < 1e-9].real
    assert real.max() > 1.0  # falls with a time constant well below a second


def _steiner(m, r):
    return m * (r @ r * np.eye(3) - np.outer(r, r))


def test_falling_rate_matches_the_inverted_pendulum_closed_form():
    """Motors off, frictionless bearings: the wheels keep zero absolute spin, so the cube tilts
    about a horizontal axis n ⊥ diagonal as a rigid inverted pendulum with the wheels'
    transverse inertia only: λ = √(g·|Σ m·c| / nᵀ·I_pivot·n), a double eigenvalue (the
    cube's symmetry about its diagonal makes every horizontal n alike)."""
    cube = CubeOnCorner(C_w=0.0)
    lin = jd.linearize(jd.compile(jd.Model.on_world(World(), cube=cube)))
    center = np.full(3, cube.a / 2)
    inertia = cube.J_housing * np.eye(3) + _steiner(cube.m_housing, center)
    first_moment = cube.m_housing * center
    for e in np.eye(3):
        c = center + cube.wheel_offset * e
        inertia += cube.J_wheel / 2 * (np.eye(3) - np.outer(e, e)) + _steiner(cube.m_wheel, c)
        first_moment = first_moment + cube.m_wheel * c
    n = np.array([1.0, -1.0, 0.0]) / np.sqrt(2)
    lam = np.sqrt(9.81 * np.linalg.norm(first_moment) / (n @ inertia @ n))
    np.testing.assert_allclose(lin.eigenvalues[:2].real, [lam, lam], rtol=1e-9)


def test_closed_loop_is_stable_up_to_the_conserved_momentum(design):
    """A − B·K: every eigenvalue has a negative real part except one at 0, the angular
    momentum about the vertical, which internal torques cannot change (uncontrollable)."""
    _, fb = design
    assert len(fb.uncontrollable) == 1 and abs(fb.uncontrollable[0]) < 1e-9
    marginal = fb.closed_loop[fb.closed_loop.real > -1e-6]
    assert len(marginal) == 1 and abs(marginal[0]) < 1e-9
    closed = jd.compile(jd.Model.on_world(World(), bal=BalancedCubeOnCorner(fb.K, TAU_MAX)))
    cl = jd.linearize(closed).select([f"bal.{s}" for s in STATES])
    np.testing.assert_allclose(np.sort_complex(cl.eigenvalues), np.sort_complex(fb.closed_loop),
                               atol=1e-8)


def test_balancing_converges_within_torque_limits(design):
    lin, fb = design
    closed = jd.compile(jd.Model.on_world(World(), bal=BalancedCubeOnCorner(fb.K, TAU_MAX)))
    x0 = lin.to_state({"cube.pivot.theta_x": 0.05, "cube.pivot.theta_y": -0.03})
    res = closed.simulate(6.0, y0={f"bal.{n}": v for n, v in zip(Y_NAMES, x0[:7])}, n_out=601)
    tilt = np.linalg.norm([res[f"bal.attitude.theta[{i}]"] for i in range(3)], axis=0)
    torques = np.array([res[f"bal.limit.y[{i}]"] for i in range(3)])
    assert np.abs(torques).max() <= TAU_MAX + 1e-12
    assert np.abs(torques).max() == pytest.approx(TAU_MAX)  # the limit was active
    assert tilt.max() <= tilt[0] * (1 + 1e-9)  # it never tilts further (no fall-over)
    assert tilt[-1] < 1e-3 * tilt[0]


def _rotation(q):
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _vertical_momentum(cube: CubeOnCorner, q, w, psi_dot) -> float:
    """H·ŷ with H = Σ I_b·ω_b + m_b·c_b × (ω × c_b) about the pivot, in housing axes; the
    upright rotation maps the diagonal (1, 1, 1)/√3 to the vertical ŷ, so H·ŷ =
    (1, 1, 1)/√3 · R(q)·H."""
    center = np.full(3, cube.a / 2)
    H = cube.J_housing * w + cube.m_housing * np.cross(center, np.cross(w, center))
    for i, e in enumerate(np.eye(3)):
        c = center + cube.wheel_offset * e
        inertia = cube.J_wheel / 2 * (np.eye(3) + np.outer(e, e))
        H += inertia @ (w + psi_dot[i] * e) + cube.m_wheel * np.cross(c, np.cross(w, c))
    return float(np.ones(3) / np.sqrt(3) @ _rotation(q) @ H)


def test_energy_and_vertical_angular_momentum_are_conserved():
    cube = CubeOnCorner(C_w=0.0)
    system = jd.compile(jd.Model.on_world(World(), cube=cube))
    lin = jd.linearize(system)
    x0 = lin.to_state({"cube.pivot.theta_x": 0.3, "cube.pivot.theta_y": -0.1,
                       "cube.pivot.wx": 0.5, "cube.pivot.wz": 1.0, "cube.bearing1.w": 20.0,
                       "cube.bearing2.w": -10.0, "cube.bearing3.w": 30.0})
    res = system.simulate(1.5, y0=dict(zip(system.y_names, x0[:7])),
                          z0=dict(zip(system.z_names, x0[7:])), rtol=1e-10, atol=1e-10)
    E = res["energy.total"]
    scale = np.abs(res["energy.kinetic"]).max() + np.abs(res["energy.potential"]).max()
    assert np.abs(E - E[0]).max() < 1e-7 * scale
    H = [_vertical_momentum(cube, x[:4], x[7:10], x[10:13]) for x in res.x.T]
    assert np.abs(np.array(H) - H[0]).max() < 1e-7 * max(1.0, abs(H[0]))
    assert abs(res["cube.pivot.q0"][-1] - x0[0]) > 0.01  # the cube did move


def test_two_speed_choices_give_the_same_motion():
    """Default speeds (ω, ψ̇_i) and seed 000's choice (ω, ω·e_i + ψ̇_i), from the same physical
    state near the hanging position with constant motor torques: coordinates agree to 1e-8 over
    2 s."""
    alpha, axis = 2.8, np.array([1.0, -1.0, 0.0]) / np.sqrt(2)
    q = np.concatenate([[np.cos(alpha / 2)], np.sin(alpha / 2) * axis])
    w, psi_dot = np.array([0.4, -0.3, 0.8]), np.array([15.0, -5.0, 8.0])
    inputs = {"cube.motor1.tau": 0.02, "cube.motor2.tau": -0.01, "cube.motor3.tau": 0.015}
    y0 = dict(zip(Y_NAMES, [*q, 0.0, 0.0, 0.0]))
    results = []
    for speeds, z in ((None, np.concatenate([w, psi_dot])),
                      (CubeOnCorner.absolute_wheel_speeds(), np.concatenate([w, w + psi_dot]))):
        system = _open_loop(speeds)
        results.append(system.simulate(2.0, y0=y0, z0=dict(zip(system.z_names, z)),
                                       inputs=inputs, rtol=1e-12, atol=1e-12, n_out=201))
    for name in Y_NAMES:
        assert np.abs(results[0][name] - results[1][name]).max() < 1e-8, name
    for i, c in enumerate("xyz", start=1):  # the speeds too: W_i = ω_i + ψ̇_i
        w = results[1][f"w{c}"]
        assert np.abs(results[0][f"cube.pivot.w{c}"] - w).max() < 1e-8
        assert np.abs(results[0][f"cube.bearing{i}.w"] - (results[1][f"W{i}"] - w)).max() < 1e-7


def test_absolute_wheel_speeds_decouple_the_mass_matrix():
    """Seed 000's point carried to 3-D: with z = (ω, absolute wheel rates) M is block
    diagonal (I_K, I_R); with relative rates the wheels couple into the housing rows. The
    report lists both speed definitions and the operation counts of M and k."""
    default, chosen = _open_loop(), _open_loop(CubeOnCorner.absolute_wheel_speeds())
    y = default.y_default
    M_default, M_chosen = np.array(default.M(y, [])), np.array(chosen.M(y, []))
    assert np.abs(M_chosen[:3, 3:]).max() <= ROUNDOFF * np.abs(M_chosen).max()  # zero block
    assert np.abs(M_default[:3, 3:]).max() > 1e-4
    assert "W1 = (cube.pivot.wx+cube.bearing1.w)" in chosen.report()
    assert "operation counts: M:" in default.report()


def test_cube_balance_example_runs(tmp_path, monkeypatch, capsys):
    """examples/cube_balance.py runs top to bottom; reference: the numbers it prints (both
    cubes settle from their tilts, the torques reach but never exceed the 0.1 N·m limit) and
    the figure it writes."""
    import re
    import runpy
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "cube_balance.py"
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(path), run_name="__main__")
    out = capsys.readouterr().out
    edge = re.search(r"phi\(4 s\) = (\S+) rad, max \|tau\| = (\S+) N", out)
    corner = re.search(r"\|theta\|\(6 s\) = (\S+) rad, max \|tau\| = (\S+) N", out)
    assert abs(float(edge.group(1))) < 1e-3 and float(corner.group(1)) < 1e-4
    for match in (edge, corner):
        assert float(match.group(2)) == pytest.approx(TAU_MAX, abs=5e-4)
    assert (tmp_path / "out" / "cube_balance.png").stat().st_size > 1000


class BodyAxesWheels(CubeOnCorner):
    """The same cube with each wheel behind a zero FixedRotation, so the compiler cannot see
    that the wheel sits on its bearing and writes its velocities in the spinning wheel axes."""

    def _add_wheel(self, i, axis, position, C_w):
        from jourdain.blocks import (FixedRotation, FixedTranslation, Motor, Revolute,
                                     RigidBody, ViscousFriction)

        mount = self.add(f"mount{i}", FixedTranslation(r=tuple(position)))
        bearing = self.add(f"bearing{i}", Revolute(axis=tuple(axis)))
        offset = self.add(f"offset{i}", FixedRotation(angle=0.0, axis=tuple(axis)))
        inertia = self.J_wheel / 2 * (np.eye(3) + np.outer(axis, axis))
        wheel = self.add(f"wheel{i}", RigidBody(m=self.m_wheel, I=inertia))
        motor = self.add(f"motor{i}", Motor())
        friction = self.add(f"friction{i}", ViscousFriction(d=C_w))
        for a, b in ((self.pivot.frame_b, mount.frame_a), (mount.frame_b, bearing.frame_a),
                     (bearing.frame_b, offset.frame_a), (offset.frame_b, wheel.frame_a),
                     (motor.flange_b, bearing.axis), (friction.flange_b, bearing.axis)):
            self.connect(a, b)


@pytest.mark.parametrize("speeds", [None, CubeOnCorner.absolute_wheel_speeds()],
                         ids=["default", "absolute"])
def test_wheels_in_non_spinning_axes_give_the_same_equations(speeds):
    """Reference: the other formulation (every body in its own axes). M, k, q are generalized
    quantities, independent of the axes the body velocities are written in, so both agree to
    round-off at random states, while the wheels' non-spinning axes (solver.mechanics) make M
    and k several times shorter (measured: M 297 → 42, k 393 → 203 operations)."""
    axial = _open_loop(speeds)
    body = jd.compile(jd.Model.on_world(World(), cube=BodyAxesWheels()), speeds=speeds)
    assert axial.z_names == body.z_names
    rng = np.random.default_rng(0)
    for _ in range(5):
        q = rng.normal(size=4)
        x = np.concatenate([q / np.linalg.norm(q), rng.uniform(-3, 3, 3),
                            rng.uniform(-20, 20, 6)])
        u = rng.uniform(-0.1, 0.1, 3)
        for name, args in (("M", (x[:7], [])), ("f", (0, x, u, []))):
            a = np.array(axial.functions[name](*args))
            b = np.array(body.functions[name](*args))
            assert np.abs(a - b).max() <= 1e-12 * max(1.0, np.abs(b).max()), name
    counts = {k: (axial.functions[k].n_instructions(), body.functions[k].n_instructions())
              for k in ("M", "k")}
    assert counts["M"][0] * 5 < counts["M"][1] and counts["k"][0] * 1.5 < counts["k"][1]
