"""Sensors in any frame (issue 12): AbsoluteSensor and RelativeSensor with the MSL's
resolution rules; acceleration outputs computed from the dynamics."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (
    AbsoluteSensor,
    FixedTranslation,
    Motor,
    RelativeSensor,
    ResolveInFrame,
    Revolute,
    RigidBody,
    Spherical,
    World,
)
from jourdain.library import FourBar


def _pendulum(*sensors):
    m = jd.Model(world=World())
    m.j, m.rod = Revolute(), FixedTranslation(r=(0, -1.0, 0))
    m.b = RigidBody(m=1.0, r_cm=(0, -1.0, 0))
    m.connect(m.world.frame_b, m.j.frame_a)
    m.connect(m.j.frame_b, m.b.frame_a)
    m.connect(m.j.frame_b, m.rod.frame_a)
    for name, sensor, a, b in sensors:
        m.add(name, sensor)
        m.connect(a(m), sensor.frame_a)
        if b is not None:
            m.connect(b(m), sensor.frame_b)
    return m


def test_accelerations_closed_form():
    """Reference: closed form of the point mass pendulum (l = 1 m): tip acceleration
    (cos φ·φ̈ − sin φ·φ̇², sin φ·φ̈ + cos φ·φ̇²) with φ̈ = −g·sin φ, angular acceleration φ̈; the
    relative sensor between world and tip in world axes measures the same."""
    m = _pendulum(("abs", AbsoluteSensor(ResolveInFrame.WORLD, get_a=True, get_z=True),
                   lambda m: m.rod.frame_b, None),
                  ("rel", RelativeSensor(ResolveInFrame.WORLD, get_a_rel=True, get_z_rel=True),
                   lambda m: m.world.frame_b, lambda m: m.rod.frame_b))
    res = jd.compile(m).simulate(2.0, y0={"j.phi": 1.0}, rtol=1e-10, atol=1e-10, n_out=101)
    phi, w = res["j.phi"], res["j.w"]
    wd = -9.81 * np.sin(phi)
    a = (np.cos(phi) * wd - np.sin(phi) * w**2, np.sin(phi) * wd + np.cos(phi) * w**2)
    for name in ("abs.a", "rel.a_rel"):
        assert np.allclose(res[f"{name}[0]"], a[0], atol=1e-12)
        assert np.allclose(res[f"{name}[1]"], a[1], atol=1e-12)
    assert np.allclose(res["abs.z[2]"], wd, atol=1e-12)
    assert np.allclose(res["rel.z_rel[2]"], wd, atol=1e-12)


def test_relative_sensor_differentiates_in_its_frame():
    """Reference: the MSL's rule: v_rel = d/dt of r_rel's coordinates in resolveInFrame. For
    the tip of the pendulum seen from the rotating link frame (frame_a = the link), r_rel is
    constant (0, −1, 0), so v_rel = a_rel = 0, while resolved in the world v_rel = ω × r."""
    m = _pendulum(("link", RelativeSensor(ResolveInFrame.FRAME_A, get_a_rel=True),
                   lambda m: m.j.frame_b, lambda m: m.rod.frame_b),
                  ("after", RelativeSensor(ResolveInFrame.FRAME_A, ResolveInFrame.WORLD),
                   lambda m: m.world.frame_b, lambda m: m.rod.frame_b))
    res = jd.compile(m).simulate(1.0, y0={"j.phi": 0.5}, rtol=1e-10, atol=1e-10, n_out=21)
    assert np.allclose(res["link.r_rel[1]"], -1.0) and np.abs(res["link.v_rel[0]"]).max() == 0
    assert np.abs(res["link.a_rel[0]"]).max() < 1e-14
    # world frame_a: r_rel's world coordinates differentiated, shown in world axes
    assert np.allclose(res["after.v_rel[0]"], np.cos(res["j.phi"]) * res["j.w"], atol=1e-12)


def test_body_angular_velocity_in_its_own_axes(rng):
    """Reference: a ball joint's speeds are the body-fixed angular velocity: an
    AbsoluteSensor with resolveInFrame = FRAME_A on the body reads them back."""
    m = jd.Model(world=World())
    m.ball, m.top = Spherical(), RigidBody(m=1.0, r_cm=(0, 0.2, 0), I=(0.01, 0.02, 0.01))
    m.sensor = AbsoluteSensor(ResolveInFrame.FRAME_A, get_r=False, get_v=False)
    m.connect(m.world.frame_b, m.ball.frame_a)
    m.connect(m.ball.frame_b, m.top.frame_a)
    m.connect(m.top.frame_a, m.sensor.frame_a)
    system = jd.compile(m)
    assert system.output_names == ["sensor.w[0]", "sensor.w[1]", "sensor.w[2]"]
    x = rng.uniform(-1, 1, system.nx)
    x[:4] /= np.linalg.norm(x[:4])
    assert np.allclose(np.array(system.h(0, x, [], [])).ravel(), x[4:], atol=1e-14)


def test_accelerations_in_closed_loops_agree_across_methods():
    """Reference: agreement of two methods: a four-bar's coupler-point acceleration from
    coordinate partitioning (ż of the independent speed) equals the DAE/Baumgarte one (ẇ of
    all joint speeds with the multipliers) at the same consistent state."""
    def model():
        m = jd.Model.on_world(World(), bar=FourBar())
        m.sensor = AbsoluteSensor(ResolveInFrame.WORLD, get_a=True, get_z=True)
        m.connect(m.bar.crank_end.frame_b, m.sensor.frame_a)
        return m
    part = jd.compile(model())
    base = jd.compile(model(), constraints=jd.ConstraintMethod.BAUMGARTE)
    a = part.simulate(0.3, z0={part.z_names[0]: 2.0}, rtol=1e-11, atol=1e-11, n_out=4)
    b = base.simulate(0.3, z0={base.independent_speeds[0]: 2.0}, rtol=1e-11, atol=1e-11,
                      n_out=4)
    for i in range(3):
        assert np.allclose(a[f"sensor.a[{i}]"], b[f"sensor.a[{i}]"], atol=1e-6)
    assert np.abs(a["sensor.a[0]"]).max() > 0.1


def test_acceleration_feedback_is_an_algebraic_loop():
    """Reference: a torque that depends on an acceleration output makes the equations
    implicit (an algebraic loop); compile says so instead of using a stale value."""
    m = _pendulum(("abs", AbsoluteSensor(ResolveInFrame.WORLD, get_a=True, get_r=False,
                                         get_v=False, get_w=False),
                   lambda m: m.rod.frame_b, None))
    m.motor = Motor()
    m.connect(m.motor.flange_b, m.j.axis)
    from jourdain.blocks import Demux
    m.split = Demux(1, 2)
    m.connect(m.abs.a, m.split.u)
    m.connect(m.split.y1, m.motor.tau)
    with pytest.raises(jd.ModelError, match="algebraic loop"):
        jd.compile(m)
