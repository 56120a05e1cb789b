"""The time-stepping contact mode (solver/stepping, docs/hybrid.md "Two contact modes"):
rest without sinking, no energy gained at impacts, Coulomb's cone on an incline, momentum
across a ball–ball collision, agreement with the event-driven mode, the narrow phase."""
from __future__ import annotations

import casadi as ca
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks.visual import Box, Capsule, Plane, Sphere
from jourdain.solver.collision import Collider, CollisionPair, ContactMaterial
from jourdain.solver.stepping.narrow import pair_contacts, primitive
from stepping_models import ball_on_ground, block_on_incline, box_on_ground, two_balls

G = 9.81


def _balls():
    return jd.compile(two_balls())


def test_ball_rests_at_radius_height():
    """A ball (r = 0.1 m) dropped from 0.5 m with e = 0 comes to rest with its centre at
    the radius height (the rest pose of a rigid sphere on a plane), penetration ≤ 1e-6 m
    (the ledger's maximum penetration and the final height), complementarity residual small
    against the impact speed (3.1 m/s)."""
    system = jd.compile(ball_on_ground(radius=0.1, e=0.0))
    res = system.simulate(1.0, contact="stepping", dt=1e-3, y0={"ball_j.y": 0.5}, n_out=101)
    assert res["ball_j.y"][-1] == pytest.approx(0.1, abs=1e-9)
    assert res["ball_j.y"].min() >= 0.1 - 1e-6
    assert res.ledger.max_penetration <= 1e-6
    assert res.ledger.complementarity <= 1e-6 * 3.1
    assert res.method == "stepping" and res.stats["steps"] == 1000


def test_bouncing_never_gains_energy():
    """A ball bouncing with e = 0.8: the total energy never increases from one output to
    the next (semi-implicit Euler loses ½·m·g²·h² per free-flight step, an impact keeps
    e² of the normal kinetic energy), and the first rebound rises to e²·(h0 − r) above the
    ground (Newton's restitution law), within the step's discretization (2 %)."""
    system = jd.compile(ball_on_ground(radius=0.1, e=0.8))
    res = system.simulate(3.0, contact="stepping", dt=1e-4, y0={"ball_j.y": 1.1}, n_out=3001)
    energy = res["energy.total"]
    assert np.max(np.diff(energy)) <= 1e-12 * energy[0]
    y = res["ball_j.y"]
    first = int(np.argmax(np.diff(y) > 0))            # the first impact
    second = first + int(np.argmax(np.diff(y[first:]) < 0))
    assert y[second] - 0.1 == pytest.approx(0.8**2 * 1.0, rel=0.02)
    assert energy[-1] < energy[0]


@pytest.mark.parametrize("theta, mu, slides", [(0.3, 0.5, False), (0.5, 0.3, True)])
def test_block_on_incline(theta, mu, slides):
    """A block on a plane tilted by θ: it sticks when tan θ < μ (0.31 < 0.5: no motion,
    Coulomb's static limit) and slides when tan θ > μ (0.55 > 0.3) with the acceleration
    g·(sin θ − μ·cos θ) down the slope (Coulomb's sliding law), its speed a·t at t = 1 s to
    1e-6 relative."""
    system = jd.compile(block_on_incline(theta, mu))
    res = system.simulate(1.0, contact="stepping", dt=1e-3, n_out=11)
    uphill = np.array([np.cos(theta), np.sin(theta), 0.0])
    v = np.array([res[f"block_j.v{c}"][-1] for c in "xyz"])
    r = np.array([res[f"block_j.{c}"][-1] for c in "xyz"])
    normal = np.array([-np.sin(theta), np.cos(theta), 0.0])
    assert abs(normal @ r) <= 1e-9                      # on the plane: no sinking
    if slides:
        a = G * (np.sin(theta) - mu * np.cos(theta))
        assert -uphill @ v == pytest.approx(a * 1.0, rel=1e-6)
    else:
        assert np.linalg.norm(v) <= 1e-9 and np.linalg.norm(r) <= 1e-9
    assert res.ledger.cone <= 1e-9


def test_two_balls_conserve_momentum():
    """Two balls (1 kg and 2 kg, r = 0.1 m, no gravity) meet head-on, the first at 1 m/s,
    through a sphere–sphere collision pair with e = 1: the momentum is conserved and the
    speeds after are the elastic collision's, (m1 − m2)/(m1 + m2) and 2·m1/(m1 + m2) m/s."""
    pair = CollisionPair(Collider("ball0.frame_a", Sphere(radius=0.1), name="a"),
                         Collider("ball1.frame_a", Sphere(radius=0.1), name="b"),
                         ContactMaterial(mu=0.0, e=1.0))
    res = _balls().simulate(1.0, contact="stepping", dt=1e-3, n_out=11, pairs=[pair],
                            y0={"ball1_j.x": 0.5}, z0={"ball0_j.vx": 1.0})
    v0, v1 = res["ball0_j.vx"], res["ball1_j.vx"]
    assert np.abs(1.0 * v0 + 2.0 * v1 - 1.0).max() <= 1e-12
    assert (v0[-1], v1[-1]) == pytest.approx((-1 / 3, 2 / 3), abs=1e-9)
    assert res["ball1_j.x"][-1] - res["ball0_j.x"][-1] >= 0.2 - 1e-9


def test_box_rest_pose_agrees_with_events():
    """A box (0.2 m cube) dropped tilted about z onto the ground settles on its face in both
    modes: the rest height 0.1 m to 1e-6 m, the face down the same (its axis y within
    1e-6 rad of the vertical), the rest position x within 5 mm (measured 2 mm apart: the
    impulses of a step against the exact impact map of the event loop) and z, zero by the
    scene's symmetry, within 1 cm in both (the event loop's slip directions break the
    symmetry by 5 mm, the Gauss–Seidel order by 0.1 mm)."""
    system = jd.compile(box_on_ground(e=0.0))
    angle = 0.3
    y0 = {"box_j.y": 0.3, "box_j.q0": np.cos(angle / 2), "box_j.q3": np.sin(angle / 2)}
    runs = [system.simulate(1.0, y0=y0, n_out=41),
            system.simulate(1.0, contact="stepping", dt=1e-3, y0=y0, n_out=41)]
    poses = []
    for res in runs:
        q = np.array([res[f"box_j.q{k}"][-1] for k in range(4)])
        up = 2 * np.array([q[1] * q[2] - q[0] * q[3], 0.5 - q[1]**2 - q[3]**2,
                           q[2] * q[3] + q[0] * q[1]])
        poses.append((res["box_j.y"][-1], up, res["box_j.x"][-1], res["box_j.z"][-1]))
    (y_e, up_e, x_e, z_e), (y_s, up_s, x_s, z_s) = poses
    assert y_s == pytest.approx(0.1, abs=1e-6) and y_e == pytest.approx(0.1, abs=1e-6)
    assert up_s == pytest.approx(up_e, abs=1e-6) and abs(up_s[1]) == pytest.approx(1, abs=1e-6)
    assert abs(up_s[1]) == pytest.approx(1.0, abs=1e-6) and np.sign(up_s[1]) == np.sign(up_e[1])
    assert abs(x_s - x_e) <= 0.005
    assert abs(z_s) <= 0.01 and abs(z_e) <= 0.01     # zero by the scene's symmetry


def _contact(shape_a, shape_b, pose_a, pose_b):
    a, b = primitive(Collider("a", shape_a)), primitive(Collider("b", shape_b))
    out = pair_contacts(a, (ca.DM(pose_a[0]), ca.DM(pose_a[1])), b,
                        (ca.DM(pose_b[0]), ca.DM(pose_b[1])))
    return [(float(g), np.array(n).ravel(), np.array(pa).ravel(), np.array(pb).ravel())
            for g, n, pa, pb in out]


@pytest.mark.parametrize("shape_a, at_a, shape_b, at_b, gap, normal", [
    (Sphere(radius=0.1), (0, 0.3, 0), Plane(normal=(0, 1, 0)), (0, 0, 0), 0.2, (0, 1, 0)),
    (Sphere(radius=0.1), (0.5, 0, 0), Sphere(radius=0.2), (0, 0, 0), 0.2, (1, 0, 0)),
    (Capsule(radius=0.1, length=0.4, axis=(1, 0, 0)), (0, 0.15, 0), Plane(normal=(0, 1, 0)),
     (0, 0, 0),
     0.05, (0, 1, 0)),
    (Sphere(radius=0.1), (0, 0.5, 0.1), Capsule(radius=0.1, length=0.4), (0, 0, 0), 0.3,
     (0, 1, 0)),
    (Capsule(radius=0.05, length=1.0, axis=(1, 0, 0)), (0, 0.3, 0),
     Capsule(radius=0.05, length=1.0), (0, 0, 0), 0.2, (0, 1, 0)),
    (Box(size=(0.2, 0.2, 0.2)), (0, 0.25, 0), Plane(normal=(0, 1, 0)), (0, 0, 0), 0.15,
     (0, 1, 0)),
    (Sphere(radius=0.1), (0, 0, 0.4), Box(size=(0.2, 0.4, 0.2)), (0, 0, 0), 0.2, (0, 0, 1)),
    (Plane(normal=(0, 1, 0)), (0, 0, 0), Sphere(radius=0.1), (0, 0.3, 0), 0.2, (0, -1, 0)),
])
def test_narrow_phase_distances(shape_a, at_a, shape_b, at_b, gap, normal):
    """Each primitive pair's smallest gap and its normal (from b to a) against the distance
    worked out by hand for shapes placed along the axes (centre distances less radii, a
    capsule's end cap, a box's lowest corners or nearest face)."""
    contacts = _contact(shape_a, shape_b, (np.eye(3), at_a), (np.eye(3), at_b))
    g, n, pa, pb = min(contacts, key=lambda c: c[0])
    assert g == pytest.approx(gap, abs=1e-9)
    assert n == pytest.approx(np.array(normal, dtype=float), abs=1e-9)
    assert np.linalg.norm(pa - pb) == pytest.approx(gap, abs=1e-9)


def test_box_box_is_refused_by_name():
    """A box–box pair has no narrow phase in this mode: a ModelError names the pair."""
    with pytest.raises(jd.ModelError, match="box–box"):
        _contact(Box(size=(1, 1, 1)), Box(size=(1, 1, 1)), (np.eye(3), (0, 2, 0)),
                 (np.eye(3), (0, 0, 0)))


def test_shapes_declared_with_collide_run_in_either_mode():
    """One scene, declared once with ``collide`` (two free balls, m1 = 0.1 kg at 1 m/s on
    m2 = 0.3 kg at rest, e = 1, and a ball resting on the world's Plane): the stepping mode
    gives Newton's closed form of the elastic impact, v1' = (m1 − m2)·u/(m1 + m2),
    v2' = 2·m1·u/(m1 + m2), as the event-driven mode does, and the resting ball stays at its
    radius above the plane (no sinking)."""
    from jourdain.blocks import FreeJoint, RigidBody, World
    m1, m2, r, u = 0.1, 0.3, 0.05, 1.0
    model = jd.Model(world=World(g=(0.0, 0.0, 0.0)))
    for k, m in ((1, m1), (2, m2)):
        model.add(f"j{k}", FreeJoint())
        body = model.add(f"b{k}", jd.blocks.RigidBody(m=m, I=(0.4 * m * r * r,) * 3))
        model.connect(model.world.frame_b, model.children[f"j{k}"].frame_a)
        model.connect(model.children[f"j{k}"].frame_b, body.frame_a)
        body.collide(Sphere(radius=r), mu=0.0, e=1.0)
    system = jd.compile(model)
    start = {"y0": {"j2.x": 0.3}, "z0": {"j1.vx": u}}
    fast = system.simulate(0.5, contact="stepping", dt=1e-3, n_out=51, **start)
    exact = system.simulate(0.5, n_out=51, rtol=1e-10, atol=1e-12, **start)
    for res, tol in ((fast, 1e-6), (exact, 1e-9)):
        assert res["j1.vx"][-1] == pytest.approx((m1 - m2) * u / (m1 + m2), abs=tol)
        assert res["j2.vx"][-1] == pytest.approx(2 * m1 * u / (m1 + m2), abs=tol)

    resting = jd.Model(world=World())
    resting.add("j", FreeJoint())
    resting.add("ball", RigidBody(m=1.0, I=(0.4 * r * r,) * 3))
    resting.connect(resting.world.frame_b, resting.j.frame_a)
    resting.connect(resting.j.frame_b, resting.ball.frame_a)
    resting.ball.collide(Sphere(radius=r), mu=0.5)
    resting.world.collide(Plane(normal=(0, 1, 0)))
    res = jd.compile(resting).simulate(1.0, contact="stepping", dt=1e-3, n_out=11,
                                       y0={"j.y": r})
    assert res["j.y"][-1] == pytest.approx(r, abs=1e-6)
    assert res.ledger.max_penetration <= 1e-6
