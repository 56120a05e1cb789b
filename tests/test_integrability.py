"""Seed 002: constraint matrices, integrability classification and the Lie-bracket motion of
the vertical wheel (y = (x_s, y_s, φ, γ), ẋ_s = R·cos γ·φ̇, ẏ_s = R·sin γ·φ̇); the
classification of a Whipple bicycle (9 coordinates, 6 velocity constraints)."""
import casadi as ca
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import Wheel, WhippleBicycle
from jourdain.solver.constraints.integrability import (
    field_bracket,
    kinematic_flow,
    switching_displacement,
)

R = 0.3


@pytest.fixture(scope="module")
def wheel():
    return jd.compile(jd.Model.on_world(World(), wheel=Wheel(R=R)))


def test_wheel_coordinates_are_seed_002(wheel):
    """Reference: seed 002, y = (x_s, y_s, φ, γ), f̄ = 4; z = (φ̇, γ̇)."""
    assert wheel.y_names == ["wheel.x_s.s", "wheel.y_s.s", "wheel.spin.phi", "wheel.steer.phi"]
    assert wheel.z_names == ["wheel.spin.w", "wheel.steer.w"]


def test_explicit_form_is_seed_002_and_annihilates_A(wheel):
    """Reference: seed 002, G = [g1 g2] with g1 = (R cos γ, R sin γ, 1, 0), g2 = (0, 0, 0, 1)
    and A·G = 0 (checked numerically at random configurations)."""
    rng = np.random.default_rng(3)
    for y in rng.uniform(-3, 3, (5, 4)):
        A, G = np.array(wheel.A(y, wheel.p_default)), np.array(wheel.G(y, wheel.p_default))
        assert np.abs(A @ G).max() < 1e-14
        gamma = y[3]
        expected = np.array([[R * np.cos(gamma), 0], [R * np.sin(gamma), 0], [1, 0], [0, 1]])
        assert np.allclose(G, expected, atol=1e-14)
        assert np.linalg.matrix_rank(A) == 2


def test_wheel_is_nonholonomic_with_f4_g2(wheel):
    """Reference: seed 002: not integrable, f = f̄ = 4, g = f̄ − k = 2; the brackets span R⁴."""
    info = wheel.integrability
    assert (info.f_bar, info.k, info.g, info.f) == (4, 2, 2, 4)
    assert not info.involutive and not info.holonomic
    assert info.levels[0] == 2 and info.levels[-1] == 4
    assert all(not s.exact and not s.frobenius for s in info.singles)
    assert np.linalg.matrix_rank(info.reachable) == 4
    assert "nonholonomic" in str(info)


def test_bracket_closed_form(wheel):
    """Reference: [g1, g2] = Dg2·g1 − Dg1·g2 = −∂g1/∂γ = (R sin γ, −R cos γ, 0, 0)."""
    bracket = field_bracket(wheel)
    for gamma in (0.0, 0.4, 2.0):
        y = np.array([0.1, -0.2, 0.7, gamma])
        got = np.array(bracket(y, wheel.p_default)).ravel()
        assert np.allclose(got, [R * np.sin(gamma), -R * np.cos(gamma), 0, 0], atol=1e-14)


def test_wheel_on_a_line_is_holonomic():
    """Reference: without steering, ẋ_s = R·φ̇ and ẏ_s = 0 integrate to x_s − R·φ = const and
    y_s = const (seed 002's condition ∂a_i/∂y_j = ∂a_j/∂y_i holds): f = g = f̄ − 2 = 1."""
    system = jd.compile(jd.Model.on_world(World(), wheel=Wheel(R=R, steerable=False)))
    info = system.integrability
    assert info.involutive and (info.f_bar, info.g, info.f) == (3, 1, 1)
    assert info.singles and all(s.exact and s.frobenius for s in info.singles)
    assert info.n_holonomic == 2 and info.n_nonholonomic == 0


def test_parallel_parking_matches_bracket_to_order_h3(wheel):
    """Reference: seed 002's expansion, y4 − y0 = h²·[g1, g2] + O(h³): the error shrinks 8× when
    h halves (observed order 3 ± 0.2), and the leading displacement is sideways."""
    flow, bracket = kinematic_flow(wheel), field_bracket(wheel)
    y0 = np.array([0.0, 0.0, 0.0, 0.4])
    g12 = np.array(bracket(y0, wheel.p_default)).ravel()
    errors = []
    for h in (0.2, 0.1, 0.05):
        d = switching_displacement(flow, y0, h)
        errors.append(np.linalg.norm(d - h**2 * g12))
        assert abs(d[2]) < 1e-10 and abs(d[3]) < 1e-10   # φ and γ return
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert np.all(np.abs(orders - 3.0) < 0.2), orders
    heading = np.array([np.cos(0.4), np.sin(0.4)])
    assert abs(np.dot(g12[:2], heading)) < 1e-14          # perpendicular to the heading


@pytest.fixture(scope="module")
def bicycle():
    return jd.compile(jd.Model.on_world(World(), bike=WhippleBicycle()))


def test_bicycle_classification_by_counting(bicycle):
    """Reference: counting for the Whipple bicycle (Meijaard et al. 2007): 9 coordinates, the
    two contact heights are independent holonomic constraints (they fix the rear hub height
    and the pitch), the four no-slip conditions are not: f = 9 − 2 = 7, g = f − 4 = 3 (the
    three speeds of the benchmark: forward, roll and steer motion). The bracket search stops
    at the bound 7 the holonomic constraints allow."""
    assert bicycle.dependent_coordinates == ["bike.height.s", "bike.pitch.phi"]
    info = bicycle.integrability
    assert (info.f_bar, info.k, info.g, info.f) == (9, 6, 3, 7)
    assert (info.n_holonomic, info.n_nonholonomic) == (2, 4)
    assert info.bound == 7 and not info.involutive
    assert info.levels == [3, 5, 7]
    assert [(s.exact, s.frobenius) for s in info.singles] == [(True, True)] * 2 + \
        [(False, False)] * 4
    assert np.linalg.matrix_rank(info.reachable) == 6     # [g1, g2] vanishes at y_ref
    assert "position DOF f = 7" in bicycle.report()


def _symbolic_brackets(system, point):
    """Reference brackets built the textbook way from full symbolic Jacobians,
    [a, b] = Db·a − Da·b (seed 002), of the fields g_k(y) = ẏ(y, e_k) of the System."""
    nz = len(system.z_names)
    y = ca.SX.sym("y", len(system.y_names))
    g = [system.ydot(y, ca.DM.eye(nz)[:, k], system.p_default) for k in range(nz)]

    def bracket(a, b):
        return ca.mtimes(ca.jacobian(b, y), a) - ca.mtimes(ca.jacobian(a, y), b)
    first = [bracket(g[i], g[j]) for i in range(nz) for j in range(i + 1, nz)]
    second = [bracket(gk, b) for gk in g for b in first]
    fn = ca.Function("reference", [y], [ca.horzcat(*g), ca.horzcat(*first),
                                        ca.horzcat(*second)])
    return [np.array(v) for v in fn(point)]


def test_bicycle_brackets_agree_with_symbolic_jacobians(bicycle):
    """Reference: the brackets from full symbolic Jacobians (independent of the directional
    derivatives the classification uses): at y_ref they equal the reported [g_i, g_j] to
    round-off, and at a generic assembled configuration (roll 0.1, steer 0.3, yaw 0.2 rad)
    the ranks of span G, + depth-1, + depth-2 brackets are the classification's levels."""
    G, first, _ = _symbolic_brackets(bicycle, bicycle.y_ref)
    reported = np.column_stack([bicycle.integrability.brackets[p]
                                for p in ((0, 1), (0, 2), (1, 2))])
    assert np.abs(reported - first).max() <= 1e-12 * max(1.0, np.abs(first).max())
    y = bicycle.assemble({"bike.roll.phi": 0.1, "bike.steer.phi": 0.3, "bike.yaw.phi": 0.2})
    G, first, second = _symbolic_brackets(bicycle, y)
    ranks = [np.linalg.matrix_rank(m) for m in (G, np.hstack([G, first]),
                                                 np.hstack([G, first, second]))]
    assert ranks == bicycle.integrability.levels
