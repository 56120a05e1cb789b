"""Shaped bodies, point mass, Fixed, Rotor1D (issue 12) and the joints Universal,
Cylindrical, Planar, Revolute(n=...), FixedRotation's MSL forms."""
import casadi as ca
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (
    BodyBox,
    BodyCylinder,
    BodyShape,
    Cylindrical,
    FixedRotation,
    FixedTranslation,
    Planar,
    PointMass,
    Prismatic,
    Revolute,
    RigidBody,
    Rotor1D,
    Spherical,
    Universal,
    World,
)
from jourdain.blocks.multibody import Fixed


def test_box_mass_properties_closed_form():
    """Reference: closed forms of a hollow box (outer minus inner box), about its center of
    mass in shape axes, rotated into frame_a for a box along y."""
    box = BodyBox(r=(0, 0.8, 0), width=0.1, height=0.2, innerWidth=0.04, innerHeight=0.1,
                  density=1000)
    L, w, h, wi, hi = 0.8, 0.1, 0.2, 0.04, 0.1
    mo, mi = 1000 * L * w * h, 1000 * L * wi * hi
    assert box.m == pytest.approx(mo - mi, rel=1e-14)
    assert np.allclose(box.r_CM, (0, 0.4, 0))
    along = (mo * (w**2 + h**2) - mi * (wi**2 + hi**2)) / 12          # about the length axis
    across_w = (mo * (L**2 + h**2) - mi * (L**2 + hi**2)) / 12
    across_h = (mo * (L**2 + w**2) - mi * (L**2 + wi**2)) / 12
    # lengthDirection y: the default widthDirection y is parallel, so (as in the MSL) the
    # width runs along z and the height along x
    assert np.allclose(np.diag(box.I), (across_h, along, across_w), rtol=1e-13)
    box = BodyBox(r=(0, 0.8, 0), widthDirection=(1, 0, 0), width=0.1, height=0.2,
                  innerWidth=0.04, innerHeight=0.1, density=1000)
    assert np.allclose(np.diag(box.I), (across_w, along, across_h), rtol=1e-13)


def test_cylinder_mass_properties_closed_form():
    """Reference: closed forms of a tube: m = ρ·π·L·(R² − Ri²), I_axis = m·(R² + Ri²)/2,
    I_across = m·(L² + 3·(R² + Ri²))/12; center of mass half way."""
    cyl = BodyCylinder(r=(0.3, 0, 0), r_shape=(0.1, 0, 0), diameter=0.1, innerDiameter=0.06,
                       density=2000)
    L, R2, Ri2 = 0.2, 0.05**2, 0.03**2
    m = 2000 * np.pi * L * (R2 - Ri2)
    assert cyl.m == pytest.approx(m, rel=1e-14)
    assert np.allclose(cyl.r_CM, (0.2, 0, 0))
    assert np.allclose(np.diag(cyl.I), (m * (R2 + Ri2) / 2, m * (L**2 + 3 * (R2 + Ri2)) / 12,
                                        m * (L**2 + 3 * (R2 + Ri2)) / 12), rtol=1e-13)
    assert cyl.shapeType == "pipecylinder" and cyl.length == pytest.approx(0.2)


@pytest.mark.parametrize("make, message", [
    (lambda: BodyBox(r=(0, 0, 0)), "r − r_shape is zero"),
    (lambda: BodyBox(r=(1, 0, 0), width=0.1, innerWidth=0.2), "innerWidth < width"),
    (lambda: BodyCylinder(r=(1, 0, 0), density=-1), "density must be positive"),
    (lambda: BodyShape(r=(1, 0, 0), width=-1), "width must be positive"),
])
def test_bad_shapes_are_refused(make, message):
    """Reference: bad input gets a ModelError naming the part and the parameter."""
    with pytest.raises(jd.ModelError, match=message):
        make()


def _pendulum(bob, on_fixed=False):
    m = jd.Model(world=World())
    m.joint = Revolute()
    m.bob = bob
    if on_fixed:
        m.fixed = Fixed(r=(0, 1.0, 0))
        m.connect(m.fixed.frame_b, m.joint.frame_a)
    else:
        m.connect(m.world.frame_b, m.joint.frame_a)
    m.connect(m.joint.frame_b, m.bob.frame_a)
    return jd.compile(m)


def test_body_shapes_match_rigid_bodies(rng):
    """Reference: a BodyBox is a RigidBody with its derived mass properties (same f); a
    PointMass on a rod hung from a Fixed frame is a RigidBody with I = 0 hung from the world
    frame through the same offset."""
    box = BodyBox(r=(0.5, 0.1, 0), width=0.06)
    plain = RigidBody(m=box.m, r_cm=box.r_CM, I=box.I)
    x = rng.uniform(-1, 1, 2)
    f = [np.array(_pendulum(b).f(0, x, [], [])).ravel() for b in (box, plain)]
    assert np.allclose(*f, atol=1e-12)

    def hung(point: bool):
        m = jd.Model(world=World(g=(0.5, -9.81, 0)))
        m.joint, m.rod = Revolute(), FixedTranslation(r=(0, -0.5, 0))
        if point:
            m.fixed, m.bob = Fixed(r=(0, 1.0, 0)), PointMass(m=2.0)
            m.connect(m.fixed.frame_b, m.joint.frame_a)
        else:
            m.up, m.bob = FixedTranslation(r=(0, 1.0, 0)), RigidBody(m=2.0)
            m.connect(m.world.frame_b, m.up.frame_a)
            m.connect(m.up.frame_b, m.joint.frame_a)
        m.connect(m.joint.frame_b, m.rod.frame_a)
        m.connect(m.rod.frame_b, m.bob.frame_a)
        return jd.compile(m)
    assert np.allclose(np.array(hung(True).f(0, x, [], [])),
                       np.array(hung(False).f(0, x, [], [])), atol=1e-12)


def test_point_mass_pendulum_period():
    """Reference: closed form: a PointMass on a massless rod swings with small-angle period
    2π·√(l/g)."""
    m = jd.Model(world=World())
    m.joint, m.rod, m.bob = Revolute(), FixedTranslation(r=(0, -0.5, 0)), PointMass(m=0.3)
    m.connect(m.world.frame_b, m.joint.frame_a)
    m.connect(m.joint.frame_b, m.rod.frame_a)
    m.connect(m.rod.frame_b, m.bob.frame_a)
    res = jd.compile(m).simulate(2.0, y0={"joint.phi": 1e-4}, rtol=1e-12, atol=1e-14)
    omega = np.sqrt(9.81 / 0.5)
    assert np.allclose(res["joint.phi"], 1e-4 * np.cos(omega * res.t), atol=1e-10)


def test_rotor1d_is_a_spinning_symmetric_body(rng):
    """Reference: the MSL's GyroscopicEffects statement: a spinning axisymmetric body on a
    revolute equals the same body rigidly mounted plus a Rotor1D with J = its axial moment
    (same f at random states of a spherical-joint carrier)."""
    def half(rotor: bool):
        m = jd.Model(world=World())
        m.ball = Spherical()
        m.carrier = BodyCylinder(r=(0.25, 0, 0), diameter=0.05)
        m.tilt = FixedRotation(n=(0, 1, 0), angle_deg=30)
        m.spinner = BodyCylinder(r=(0.2, 0, 0), r_shape=(-0.1, 0, 0), diameter=0.1)
        c = m.connect
        c(m.world.frame_b, m.ball.frame_a)
        c(m.ball.frame_b, m.carrier.frame_a)
        c(m.carrier.frame_b, m.tilt.frame_a)
        m.spin = Rotor1D(J=m.spinner.I[0, 0]) if rotor else Revolute(n=(1, 0, 0))
        c(m.tilt.frame_b, m.spin.frame_a)
        c((m.tilt if rotor else m.spin).frame_b, m.spinner.frame_a)
        return jd.compile(m)
    a, b = half(False), half(True)
    assert b.y_names[-1] == "spin.phi" and b.z_names[-1] == "spin.w"
    for _ in range(3):
        x = rng.uniform(-1, 1, a.nx)
        x[:4] /= np.linalg.norm(x[:4])
        assert np.allclose(np.array(a.f(0, x, [], [])), np.array(b.f(0, x, [], [])),
                           atol=1e-10)


def _chain(joints, rng_state):
    m = jd.Model(world=World(g=(0.3, -9.81, 0.5)))
    previous = m.world.frame_b
    for i, joint in enumerate(joints):
        m.add(f"j{i}", joint)
        m.connect(previous, joint.frame_a)
        previous = joint.frame_b
    m.body = RigidBody(m=1.2, r_cm=(0.3, 0.2, -0.1), I=(0.05, 0.04, 0.03))
    m.connect(previous, m.body.frame_a)
    system = jd.compile(m, backend=jd.Backend.PROJECTION)
    return np.array(system.f(0, rng_state[:system.nx], [], [])).ravel()


@pytest.mark.parametrize("joint, chain", [
    (lambda: Universal(n_a=(1, 0, 0), n_b=(0, 1, 0)),
     lambda: [Revolute(n=(1, 0, 0)), Revolute(n=(0, 1, 0))]),
    (lambda: Cylindrical(n=(0, 1, 1)), lambda: [Prismatic(n=(0, 1, 1)), Revolute(n=(0, 1, 1))]),
    (lambda: Planar(n=(0, 0, 1), n_x=(1, 1, 0)),
     lambda: [Prismatic(n=(1, 1, 0)), Prismatic(n=(-1, 1, 0)), Revolute(n=(0, 0, 1))]),
])
def test_msl_joints_equal_their_chains(joint, chain, rng):
    """Reference: the MSL defines Universal, Cylindrical and Planar as revolute/prismatic
    chains; the same f at a random state (coordinates in the chain's order)."""
    state = rng.uniform(-1, 1, 6)
    assert np.allclose(_chain([joint()], state), _chain(chain(), state), atol=1e-12)


@pytest.mark.parametrize("joint", [Universal, lambda: Cylindrical(n=(0, 1, 1)),
                                   lambda: Planar(n_x=(1, 1, 0))])
def test_closure_residual_vanishes_on_the_joints_motion(joint, rng):
    """Reference: constraint residual: the closure equations of a cut joint vanish for every
    relative pose the joint itself produces, and not for a pose it cannot reach."""
    j = joint()
    R, p = j.relative_pose(rng.uniform(-1, 1, len(j.COORDINATES)))
    assert np.abs(np.array(ca.evalf(j.closure_residual(ca.DM(R), ca.DM(p))))).max() < 1e-14
    twist = np.array(ca.DM(ca.mtimes(R, ca.DM(np.array([[1, 0, 0], [0, 0.8, -0.6],
                                                         [0, 0.6, 0.8]])))))
    off = np.array(ca.evalf(j.closure_residual(ca.DM(twist), ca.DM(p) + 0.1)))
    assert np.abs(off).max() > 1e-3


def test_fixed_rotation_forms_agree():
    """Reference: one rotation in the MSL's three forms: 90° about z (angle_deg), the two
    vectors n_x = y, n_y = −x, and the sequence (3, 1, 2) with angles (90°, 0, 0)."""
    R = [np.array(ca.DM(f.relative_pose([])[0])) for f in (
        FixedRotation(n=(0, 0, 1), angle_deg=90), FixedRotation(n_x=(0, 1, 0), n_y=(-1, 0, 0)),
        FixedRotation(sequence=(3, 1, 2), angles_deg=(90, 0, 0)))]
    assert np.allclose(R[0], [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-15)
    assert np.allclose(R[0], R[1], atol=1e-15) and np.allclose(R[0], R[2], atol=1e-15)
    assert Revolute(n=(2, 0, 0)).axis_direction == (1.0, 0.0, 0.0)


@pytest.mark.parametrize("make, message", [
    (lambda: Revolute(axis=(1, 0, 0), n=(0, 1, 0)), "not both"),
    (lambda: FixedRotation(angle=0.3, n_x=(1, 0, 0), n_y=(0, 1, 0)), "one form"),
    (lambda: FixedRotation(n_x=(1, 0, 0)), "needs both n_x and n_y"),
    (lambda: FixedRotation(sequence=(1, 1, 2), angles=(0, 0, 0)), "no two neighbours"),
    (lambda: Universal(n_a=(1, 0, 0), n_b=(2, 0, 0)), "must not be parallel"),
    (lambda: Planar(n=(0, 0, 1), n_x=(0, 0, 1)), "must not be parallel"),
])
def test_bad_joint_parameters_are_refused(make, message):
    """Reference: bad input gets a ModelError naming the joint and the parameter."""
    with pytest.raises(jd.ModelError, match=message):
        make()
