"""Gravity fields (issue 12): uniform, none, point gravity (MSL World.mue) and a user field
g(r) with or without a potential; and rolling contact on a plane of any orientation."""
import casadi as ca
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (
    FreeJoint,
    GravityTypes,
    Prismatic,
    Revolute,
    RigidBody,
    RollingContact,
    World,
)
from jourdain.library.wheel import disk_inertia


def _planar_body(world):
    m = jd.Model(world=world)
    m.px, m.py, m.turn = Prismatic(n=(1, 0, 0)), Prismatic(n=(0, 1, 0)), Revolute()
    m.body = RigidBody(m=1.0, r_cm=(0.1, 0, 0), I=(0.1, 0.1, 0.1))
    chain = [m.world.frame_b, m.px, m.py, m.turn]
    for a, b in zip(chain, chain[1:]):
        m.connect(a if a is m.world.frame_b else a.frame_b, b.frame_a)
    m.connect(m.turn.frame_b, m.body.frame_a)
    return m


FIELDS = {
    "point": lambda: World(gravityType=GravityTypes.PointGravity, mue=1.0),
    "user_with_potential": lambda: World(gravity=lambda r: -4 * r,
                                         potential=lambda r: 2 * ca.dot(r, r)),
    "user_without_potential": lambda: World(gravity=lambda r: ca.vertcat(r[1], -r[0], 0)),
    "none": lambda: World(gravityType=GravityTypes.NoGravity),
}


@pytest.mark.parametrize("field", sorted(FIELDS))
def test_formulations_agree_in_every_field(field, rng):
    """Reference: Lagrange (the field's potential m·U(r_cm) in V, or the virtual work of
    m·g(r_cm) when there is none) agrees with the projection of m·g(r_cm) and with the
    recursive back end (gravity as joint forces) at random states."""
    model = _planar_body(FIELDS[field]())
    systems = [jd.compile(model, backend=jd.Backend.PROJECTION),
               jd.compile(model, formulation=jd.Formulation.LAGRANGE),
               jd.compile(model, backend=jd.Backend.RECURSIVE)]
    for _ in range(3):
        x = rng.uniform(0.3, 1.0, 6)
        f = [np.array(s.f(0, x, [], [])).ravel() for s in systems]
        assert np.allclose(f[0], f[1], atol=1e-12) and np.allclose(f[0], f[2], atol=1e-12)


def test_point_gravity_energy_and_closed_form_acceleration():
    """Reference: closed form g(r) = −mue·r/|r|³ at the center of mass, and conservation of
    T + V with V = −m·mue/|r| over an orbit."""
    system = jd.compile(_planar_body(FIELDS["point"]()))
    x = np.array([0.5, 0.2, 0.0, 0.0, 0.0, 0.0])
    r = np.array([0.6, 0.2, 0.0])                      # center of mass at phi = 0
    g = -r / np.linalg.norm(r) ** 3
    assert np.allclose(np.array(system.f(0, x, [], [])).ravel()[3:5], g[:2], atol=1e-12)
    res = system.simulate(3.0, y0={"px.s": 0.5, "py.s": 0.2}, z0={"py.v": 1.2},
                          rtol=1e-11, atol=1e-11)
    assert np.ptp(res["energy.total"]) < 1e-8
    assert float(system.energy(x, [])[1]) == pytest.approx(-1 / np.linalg.norm(r), rel=1e-13)


def test_inconsistent_potential_is_refused():
    """Reference: g must be −∇U; a potential off by a factor 2 is named at compile time."""
    with pytest.raises(jd.ModelError, match="not −∇potential"):
        jd.compile(_planar_body(World(gravity=lambda r: -4 * r,
                                      potential=lambda r: ca.dot(r, r))))


@pytest.mark.parametrize("bad, message", [
    (dict(gravityType="PointGravity"), "GravityTypes member"),
    (dict(potential=lambda r: 0), "without the field gravity"),
    (dict(gravity=3.0), "must be a callable"),
])
def test_bad_gravity_arguments(bad, message):
    """Reference: bad input gets a ModelError naming the argument."""
    with pytest.raises(jd.ModelError, match=message):
        World(**bad)


def _disk(world, n, r_plane=(0, 0, 0)):
    m = jd.Model(world=world)
    m.joint, m.disk = FreeJoint(), RigidBody(m=1.0, I=disk_inertia(1.0, 0.25))
    m.contact = RollingContact(R=0.25, axis=(0, 0, 1), n=n, r_plane=r_plane)
    m.connect(m.world.frame_b, m.joint.frame_a)
    m.connect(m.joint.frame_b, m.disk.frame_a)
    m.connect(m.joint.frame_b, m.contact.frame_a)
    return jd.compile(m)


def test_disk_rolls_down_an_incline_at_two_thirds_g_sin():
    """Reference: closed form: a uniform disk rolling without slip down a plane inclined by θ
    accelerates at a = g·sin θ/(1 + I/(m·R²)) = (2/3)·g·sin θ; the plane is given by its
    normal and a point (0.1 m below the origin along the normal), the world stays y-up."""
    theta = 0.3
    n = (np.sin(theta), np.cos(theta), 0.0)
    system = _disk(World(), n, r_plane=tuple(-0.1 * np.array(n)))
    res = system.simulate(1.0, y0={"joint.x": 0.0}, rtol=1e-11, atol=1e-11, n_out=101)
    down = np.array([np.cos(theta), -np.sin(theta), 0.0])
    travel = down @ np.array([res["joint.x"] - res["joint.x"][0],
                              res["joint.y"] - res["joint.y"][0],
                              res["joint.z"] - res["joint.z"][0]])
    a = 2 / 3 * 9.81 * np.sin(theta)
    assert np.allclose(travel, 0.5 * a * res.t**2, atol=1e-8)
    height = np.array(n) @ np.array([res["joint.x"], res["joint.y"], res["joint.z"]])
    assert np.allclose(height, 0.25 - 0.1, atol=1e-10)


def test_z_up_world_needs_no_rotated_world():
    """Reference: the same disk in a y-up and a z-up world (plane normal (0, 0, 1), gravity
    −z), started in the corresponding poses, moves the same, rotated; the z-up default pose
    lies flat, so compile assembles a defined reference instead of checking the identity."""
    y_up = _disk(World(), (0, 1, 0))
    z_up = _disk(World(g=(0, 0, -9.81)), (0, 0, 1))
    assert np.isfinite(np.array(z_up.A(z_up.y_ref, []))).all()
    lean = 0.3
    q_y = np.array([np.cos(lean / 2), np.sin(lean / 2), 0, 0])        # lean about x
    rx = np.array([np.cos(np.pi / 4), np.sin(np.pi / 4), 0, 0])       # y-up -> z-up
    q_z = np.array([rx[0] * q_y[0] - rx[1] * q_y[1], rx[0] * q_y[1] + rx[1] * q_y[0], 0, 0])
    z0 = {"joint.wz": -12.0, "joint.wy": 1.0}
    a = y_up.simulate(2.0, y0={f"joint.q{i}": q_y[i] for i in range(4)}, z0=z0, rtol=1e-10,
                      atol=1e-10, n_out=21)
    b = z_up.simulate(2.0, y0={f"joint.q{i}": q_z[i] for i in range(4)}, z0=z0, rtol=1e-10,
                      atol=1e-10, n_out=21)
    assert np.allclose(a["joint.x"], b["joint.x"], atol=1e-8)
    assert np.allclose(a["joint.y"], b["joint.z"], atol=1e-8)
    assert np.allclose(a["joint.z"], -b["joint.y"], atol=1e-8)
