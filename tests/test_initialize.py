"""Initialization beyond joint coordinates (issue 12): System.initialize / state(fix=,
guess=) take initial values for any output, force element quantity or frame position and
velocity, solve them with the closure equations and report what happened."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (
    AbsoluteSensor,
    BodyBox,
    FixedTranslation,
    Prismatic,
    ResolveInFrame,
    Revolute,
    RigidBody,
    Spring,
    World,
)
from jourdain.library import FourBar


@pytest.fixture(scope="module")
def arm():
    m = jd.Model(world=World())
    m.j1, m.box1 = Revolute(), BodyBox(r=(0.5, 0, 0), width=0.06)
    m.j2, m.box2 = Revolute(), BodyBox(r=(0.5, 0, 0), width=0.06)
    m.spring = Spring(c=10, s_unstretched=0.2)
    m.anchor = FixedTranslation(r=(0, 0.5, 0))
    c = m.connect
    c(m.world.frame_b, m.j1.frame_a)
    c(m.j1.frame_b, m.box1.frame_a)
    c(m.box1.frame_b, m.j2.frame_a)
    c(m.j2.frame_b, m.box2.frame_a)
    c(m.world.frame_b, m.anchor.frame_a)
    c(m.anchor.frame_b, m.spring.frame_a)
    c(m.box2.frame_b, m.spring.frame_b)
    return jd.compile(m)


def test_tip_position_and_velocity_closed_form(arm):
    """Reference: closed-form two-link inverse kinematics (elbow from the law of cosines)
    and the tip's velocity v = J(φ)·φ̇ solved for φ̇ from a given tip velocity."""
    fix = {"box2.frame_b.r_0[0]": 0.6, "box2.frame_b.r_0[1]": -0.4,
           "box2.frame_b.v_0[0]": 0.3, "box2.frame_b.v_0[1]": 0.1}
    init = arm.initialize(fix=fix, guess={"j2.phi": -1.0})
    elbow = -np.arccos((0.6**2 + 0.4**2 - 0.5) / 0.5)
    phi1 = np.arctan2(-0.4, 0.6) - np.arctan2(0.5 * np.sin(elbow), 0.5 + 0.5 * np.cos(elbow))
    assert init.x0[:2] == pytest.approx([phi1, elbow], abs=1e-10)
    a, b = phi1, phi1 + elbow
    jac = 0.5 * np.array([[-np.sin(a) - np.sin(b), -np.sin(b)], [np.cos(a) + np.cos(b), np.cos(b)]])
    assert init.x0[2:] == pytest.approx(np.linalg.solve(jac, [0.3, 0.1]), abs=1e-10)
    assert set(init.solved) == {"j1.phi", "j2.phi", "j1.w", "j2.w"} and not init.held
    assert "fixed conditions: box2.frame_b.r_0[0] = 0.6" in init.report()


def test_element_quantity_and_held_coordinate(arm):
    """Reference: constraint residual: with j1 held at 0.3 rad (y0) the spring's length
    (s_rel, the distance of its frames) is met exactly, and the held value is kept."""
    init = arm.initialize(y0={"j1.phi": 0.3}, fix={"spring.s_rel": 0.9})
    q = dict(zip(arm.quantity_names, np.array(arm.quantities(0, init.x0, [], [])).ravel()))
    assert q["spring.s_rel"] == pytest.approx(0.9, abs=1e-10)
    assert init.x0[0] == pytest.approx(0.3, abs=1e-12) and init.held == {"j1.phi": 0.3}
    x0 = arm.state(y0={"j1.phi": 0.3}, fix={"spring.s_rel": 0.9})
    assert np.allclose(x0, init.x0)


def test_underdetermined_start_is_reported(arm):
    """Reference: one condition on two free coordinates leaves one direction undetermined;
    the report says so (least change from the start)."""
    init = arm.initialize(fix={"box2.frame_b.r_0[1]": -0.9})
    assert "1 direction(s) of motion are determined by no condition" in init.report()


@pytest.mark.parametrize("fix, message", [
    ({"box2.frame_b.r_0[0]": 5.0}, "cannot"),
    ({"box2.frame_b.r_9[0]": 0.1}, "unknown name"),
])
def test_impossible_or_unknown_conditions(arm, fix, message):
    """Reference: a tip 5 m away from a 1 m arm cannot be reached; an unknown name gets the
    closest known ones."""
    with pytest.raises(jd.ModelError, match=message):
        arm.initialize(fix=fix)


def test_acceleration_conditions_are_refused():
    """Reference: initial values are positions and velocities; an acceleration output depends
    on the dynamics and is refused by name."""
    m = jd.Model(world=World())
    m.slide, m.body = Prismatic(n=(1, 1, 0)), RigidBody(m=1.0)
    m.sensor = AbsoluteSensor(ResolveInFrame.WORLD, get_a=True)
    m.connect(m.world.frame_b, m.slide.frame_a)
    m.connect(m.slide.frame_b, m.body.frame_a)
    m.connect(m.slide.frame_b, m.sensor.frame_a)
    system = jd.compile(m)
    init = system.initialize(fix={"sensor.r[0]": 0.5, "sensor.v[1]": 2.0})
    assert init.x0 == pytest.approx([0.5 * np.sqrt(2), 2 * np.sqrt(2)], abs=1e-12)
    with pytest.raises(jd.ModelError, match="sensor.a\\[0\\] depends on accelerations"):
        system.initialize(fix={"sensor.a[0]": 1.0})


def test_closed_loop_with_a_coupler_point_condition():
    """Reference: constraint residual: a four-bar started with its rocker end at a given
    height: the closure equations and the condition hold together (and the speed condition
    through w = G(y)·z)."""
    system = jd.compile(jd.Model.on_world(World(), bar=FourBar()))
    name = "bar.rocker_end.frame_b.r_0[1]"
    later = system.simulate(0.2, z0={system.z_names[0]: 3.0}, n_out=3).x[:, -1]
    reachable = float(system.quantities(0, later, [], [])[system.quantity_names.index(name)])
    init = system.initialize(fix={name: reachable, "bar.rocker_end.frame_b.v_0[0]": -0.2})
    q = dict(zip(system.quantity_names,
                 np.array(system.quantities(0, init.x0, [], [])).ravel()))
    assert q[name] == pytest.approx(reachable, abs=1e-10)
    assert q["bar.rocker_end.frame_b.v_0[0]"] == pytest.approx(-0.2, abs=1e-10)
    assert np.abs(np.array(system.c(init.x0[:len(system.y_names)], []))).max() < 1e-10
    system.check_consistent(init.x0, system.p_default)
