"""Force elements against closed forms on a wheel of inertia J about a vertical axle (gravity
does no work): Coulomb friction decelerates at μ·N/J, quadratic drag gives
w(t) = w0/(1 + c·w0·t/J), a torsion spring oscillates about its rest angle with period
2π·√(J/c); a FixedRotation turns the joint axis."""
import numpy as np

import jourdain as jd
from jourdain.blocks import (CoulombFriction, FixedRotation, QuadraticDrag, Revolute,
                             RigidBody, RotationalSpring, TranslationalSpring, Prismatic, World)

J = 0.2


def _wheel_with(element):
    model = jd.Model(world=World())
    model.axle, model.wheel = Revolute(axis=(0, 1, 0)), RigidBody(m=1.0, I=(J / 2, J, J / 2))
    model.element = element
    model.connect(model.world.frame_b, model.axle.frame_a)
    model.connect(model.axle.frame_b, model.wheel.frame_a)
    model.connect(model.element.flange_b, model.axle.axis)
    return jd.compile(model)


def test_coulomb_friction_decelerates_at_mu_N_over_J():
    mu, N, w0 = 0.5, 2.0, 10.0
    system = _wheel_with(CoulombFriction(mu=mu, N=N, w_eps=1e-4))
    res = system.simulate(2.5, z0={"axle.w": w0}, rtol=1e-10, atol=1e-10, n_out=251)
    moving = res.t < 0.9 * w0 * J / (mu * N)  # stay clear of the regularized zone near w = 0
    assert np.allclose(res["axle.w"][moving], w0 - mu * N * res.t[moving] / J, rtol=1e-6)
    assert np.all(res["power.dissipated"] >= 0)
    assert abs(res["axle.w"][-1]) < 1e-2  # stopped (regularization: creeps below w_eps)


def test_quadratic_drag_closed_form():
    c, w0 = 0.05, 20.0
    system = _wheel_with(QuadraticDrag(c=c))
    res = system.simulate(2.0, z0={"axle.w": w0}, rtol=1e-11, atol=1e-11)
    assert np.allclose(res["axle.w"], w0 / (1 + c * w0 * res.t / J), rtol=1e-7)
    assert np.allclose(res["power.dissipated"], c * np.abs(res["axle.w"]) ** 3, rtol=1e-10)


def test_torsion_spring_period_and_rest_angle():
    c, rest = 3.0, 0.4
    system = _wheel_with(RotationalSpring(c=c, phi_rel0=rest))
    res = system.simulate(5.0, y0={"axle.phi": rest + 0.1}, rtol=1e-11, atol=1e-12, n_out=5001)
    omega = np.sqrt(c / J)
    assert np.allclose(res["axle.phi"], rest + 0.1 * np.cos(omega * res.t), atol=1e-8)
    assert np.ptp(res["energy.total"]) < 1e-8 * res["energy.total"][0]


def test_translational_spring_on_a_prismatic_joint():
    """Vertical mass on a spring: equilibrium at s = s0 − m·g/c, period 2π·√(m/c)."""
    m, c, s0 = 0.5, 20.0, 0.3
    model = jd.Model(world=World())
    model.slider, model.mass = Prismatic(axis=(0, 1, 0)), RigidBody(m=m)
    model.spring = TranslationalSpring(c=c, s_rel0=s0)
    model.connect(model.world.frame_b, model.slider.frame_a)
    model.connect(model.slider.frame_b, model.mass.frame_a)
    model.connect(model.spring.flange_b, model.slider.axis)
    system = jd.compile(model)
    s_eq = s0 - m * 9.81 / c
    res = system.simulate(3.0, y0={"slider.s": s_eq + 0.05}, rtol=1e-11, atol=1e-12, n_out=3001)
    assert np.allclose(res["slider.s"], s_eq + 0.05 * np.cos(np.sqrt(c / m) * res.t), atol=1e-8)


def test_fixed_rotation_turns_the_joint_axis(rng):
    """FixedRotation(π/2 about x) maps the revolute's z axis onto world −y... so a pendulum
    hung from it, swinging about the rotated axis, equals one built with axis (0, −1, 0)."""
    def pendulum(rotated: bool):
        model = jd.Model(world=World(g=(0, 0, -9.81)))
        model.joint = Revolute(axis=(0, 0, 1) if rotated else (0, -1, 0))
        model.bob = RigidBody(m=1.0, r_cm=(0.8, 0, 0) if not rotated else (0.8, 0, 0),
                              I=(0.01, 0.02, 0.03))
        if rotated:
            model.turn = FixedRotation(angle=np.pi / 2, axis=(1, 0, 0))
            model.back = FixedRotation(angle=-np.pi / 2, axis=(1, 0, 0))
            model.connect(model.world.frame_b, model.turn.frame_a)
            model.connect(model.turn.frame_b, model.joint.frame_a)
            model.connect(model.joint.frame_b, model.back.frame_a)
            model.connect(model.back.frame_b, model.bob.frame_a)
        else:
            model.connect(model.world.frame_b, model.joint.frame_a)
            model.connect(model.joint.frame_b, model.bob.frame_a)
        return jd.compile(model)
    a, b = pendulum(True), pendulum(False)
    for _ in range(5):
        x = rng.uniform(-2, 2, 2)
        assert np.allclose(np.array(a.f(0, x, [], [])), np.array(b.f(0, x, [], [])), atol=1e-12)
