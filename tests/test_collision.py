"""Collision geometry between bodies (issue 28). References: MuJoCo's own distance
(mj_geomDistance) for the closed-form narrow phase; conservation of momentum and Newton's
restitution for two balls meeting (closed form); the filtering rules of MuJoCo (same body,
parent and child, contype/conaffinity)."""
import casadi as ca
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import jourdain as jd
from jourdain.blocks import FreeJoint, Revolute, RigidBody, World
from jourdain.blocks.base import FrameState
from jourdain.blocks.hybrid.narrow import contact, point_count
from jourdain.blocks.visual import Box, Capsule, Plane, Sphere
from jourdain.solver.collision import collision_pairs
from jourdain.solver.collision.narrow import Narrow, bounding_radius, broad_phase

pytest.importorskip("mujoco")

SHAPES = {"sphere": Sphere(radius=0.05, center=(0.01, 0.0, 0.02)),
          "capsule": Capsule(radius=0.03, length=0.2, axis=(1.0, 0.2, 0.1)),
          "box": Box(size=(0.1, 0.2, 0.3), center=(0.0, 0.01, 0.0)),
          "plane": Plane(normal=(0.1, 1.0, 0.0), center=(0.0, -0.1, 0.0)),
          "ball": Sphere(radius=0.04)}


def _frame(R, r):
    return FrameState(ca.DM(R), ca.DM(r), ca.DM.zeros(3), ca.DM.zeros(3))


@pytest.mark.parametrize("a, b", [("sphere", "ball"), ("capsule", "ball"), ("box", "ball"),
                                  ("ball", "box"), ("plane", "ball"), ("plane", "capsule"),
                                  ("plane", "box"), ("capsule", "plane"),
                                  ("capsule", "capsule")])
def test_closed_form_gap_agrees_with_mujoco_distance(a, b):
    """The closed-form gap (the least over a pair's contact points) and witness points equal
    MuJoCo's mj_geomDistance (to 1e-9 m) in 20 random poses, apart and penetrating."""
    rng = np.random.default_rng(7)
    narrow = Narrow(SHAPES[a], SHAPES[b])
    count = point_count(SHAPES[a], SHAPES[b])
    for trial in range(20):
        Ra, Rb = (Rotation.random(random_state=rng).as_matrix() for _ in range(2))
        ra, rb = rng.normal(0, 0.1, 3), rng.normal(0, 0.1, 3) + (0, 0.05, 0)
        gaps = []
        for k in range(count):
            gap, n, pa, pb = contact(SHAPES[a], _frame(Ra, ra), SHAPES[b], _frame(Rb, rb), k)
            gaps.append((float(gap), np.array(n).ravel(), np.array(pa).ravel(),
                         np.array(pb).ravel()))
        gap, n, pa, pb = min(gaps, key=lambda g: g[0])
        dist, qa, qb, m = narrow.distance((Ra, ra), (Rb, rb))
        assert gap == pytest.approx(dist, abs=1e-9), (a, b, trial)
        assert np.linalg.norm(n) == pytest.approx(1.0, abs=1e-12)
        if dist > 1e-6 and count == 1:   # unique closest points apart: the same witnesses
            assert np.allclose(pa, qa, atol=1e-8) and np.allclose(pb, qb, atol=1e-8)
            assert np.allclose(n, m, atol=1e-8)


def test_unsupported_pair_is_refused_by_name():
    """Box against box has no closed form in the event-driven mode: a ModelError that names
    the shapes and says what to do (not a wrong gap)."""
    with pytest.raises(jd.ModelError, match="Box and a Box.*Spheres"):
        point_count(Box(size=(1, 1, 1)), Box(size=(1, 1, 1)), "gripper")


def test_broad_phase_keeps_exactly_the_pairs_whose_bounding_spheres_meet():
    """Reference: the brute-force test |c_i − c_j| ≤ r_i + r_j on every pair (planes always
    kept)."""
    rng = np.random.default_rng(3)
    centres, radii = rng.uniform(0, 1, (30, 3)), rng.uniform(0.01, 0.1, 30)
    radii[0] = bounding_radius(Plane())
    pairs = [(i, j) for i in range(30) for j in range(i + 1, 30)]
    kept = broad_phase(centres, radii, pairs)
    brute = [k for k, (i, j) in enumerate(pairs) if i == 0 or
             np.linalg.norm(centres[i] - centres[j]) <= radii[i] + radii[j]]
    assert kept == brute and 0 < len(kept) < len(pairs)


def _two_balls(m1, m2, r, e, mu=0.0, gravity=(0.0, 0.0, 0.0)):
    model = jd.Model(world=World(g=gravity))
    for k, m in ((1, m1), (2, m2)):
        joint = model.add(f"j{k}", FreeJoint())
        body = model.add(f"b{k}", RigidBody(m=m, I=(0.4 * m * r * r,) * 3))
        model.connect(model.world.frame_b, joint.frame_a)
        model.connect(joint.frame_b, body.frame_a)
        body.collide(Sphere(radius=r), mu=mu, e=e)
    return model


@pytest.mark.parametrize("e", [1.0, 0.6, 0.0])
def test_two_balls_meet_and_exchange_momentum_as_the_closed_form_says(e):
    """Head-on impact of two free spheres (m1 = 0.1 kg at 1 m/s on m2 = 0.3 kg at rest):
    v1' = (m1 − e·m2)·u/(m1 + m2), v2' = (1 + e)·m1·u/(m1 + m2), at t = (d − 2r)/u; the
    momentum kept and the energy lost (1 − e²)·½·μ_red·u² (closed forms of Newton's law)."""
    m1, m2, r, u, d = 0.1, 0.3, 0.05, 1.0, 0.3
    system = jd.compile(_two_balls(m1, m2, r, e))
    res = system.simulate(0.5, y0={"j2.x": d}, z0={"j1.vx": u}, n_out=6, rtol=1e-10,
                          atol=1e-12)
    hit = res.events.times("contacts.pair0", "touch")
    assert len(hit) == 1 and hit[0] == pytest.approx((d - 2 * r) / u, abs=1e-8)
    assert res["j1.vx"][-1] == pytest.approx((m1 - e * m2) * u / (m1 + m2), abs=1e-9)
    assert res["j2.vx"][-1] == pytest.approx((1 + e) * m1 * u / (m1 + m2), abs=1e-9)
    reduced = m1 * m2 / (m1 + m2)
    assert res.events.energy_lost == pytest.approx((1 - e**2) * 0.5 * reduced * u**2,
                                                   abs=1e-9)
    if e == 0.0:       # plastic: they stay in touch, at 2r apart (no penetration)
        gap = res["j2.x"][-1] - res["j1.x"][-1] - 2 * r
        assert gap == pytest.approx(0.0, abs=1e-8)


def test_oblique_impact_of_frictionless_balls_turns_the_struck_ball_along_the_line():
    """An off-centre hit (impact parameter b): without friction the impulse lies along the
    line of centres, so the struck ball leaves at angle asin(b/2r) below the first ball's
    path and the total momentum is kept (closed form of the frictionless oblique impact)."""
    m, r, u, b = 0.2, 0.05, 1.0, 0.04
    system = jd.compile(_two_balls(m, m, r, 1.0))
    res = system.simulate(0.6, y0={"j2.x": 0.3, "j2.y": -b}, z0={"j1.vx": u}, n_out=4,
                          rtol=1e-10, atol=1e-12)
    v2 = np.array([res["j2.vx"][-1], res["j2.vy"][-1]])
    angle = np.arctan2(-v2[1], v2[0])
    assert angle == pytest.approx(np.arcsin(b / (2 * r)), abs=1e-7)
    assert res["j1.vx"][-1] + res["j2.vx"][-1] == pytest.approx(u, abs=1e-9)
    assert res["j1.vy"][-1] + res["j2.vy"][-1] == pytest.approx(0.0, abs=1e-9)


def test_pairs_are_filtered_by_body_parent_child_and_collision_bits():
    """MuJoCo's rules: shapes on one body never touch, nor parent and child joined by one
    joint (the world excepted), and two shapes touch only when a.group & b.mask or
    b.group & a.mask."""
    model = jd.Model(world=World())
    model.hinge, model.link = Revolute(), RigidBody(m=1.0)
    model.hinge2, model.link2 = Revolute(), RigidBody(m=1.0)
    model.connect(model.world.frame_b, model.hinge.frame_a)
    model.connect(model.hinge.frame_b, model.link.frame_a)
    model.connect(model.link.frame_a, model.hinge2.frame_a)
    model.connect(model.hinge2.frame_b, model.link2.frame_a)
    model.world.collide(Plane(name="floor"))
    model.link.collide(Sphere(radius=0.1, name="s1"), Sphere(radius=0.1, name="s1b"))
    model.link2.collide(Sphere(radius=0.1, name="s2"))
    model.link2.collide(Sphere(radius=0.1, name="ghost"), group=2, mask=2)
    names = {(p.a.name, p.b.name) for p in collision_pairs(model)}
    # link–world: the world is exempt; link–link2: parent and child; s1–s1b: one body;
    # ghost (group 2) meets nothing of group 1
    assert names == {("floor", "s1"), ("floor", "s1b"), ("floor", "s2")}


def test_compliant_balls_bounce_elastically_without_damping():
    """Compliant law (Hunt–Crossley, d = 0): the contact force is conservative, so the
    head-on impact ends with the elastic closed form (e = 1: the balls of equal mass swap
    speeds) to the integration tolerance, with momentum kept, and no event takes energy; the
    deepest penetration the ledger reads on the output grid approaches Hertz's closed form
    c·δ_max^(n+1)/(n+1) = ½·μ_red·u² from below, with the pair's stiffness the two balls'
    in series (c/2)."""
    from jourdain.blocks.hybrid import ContactLaw
    m, r, u = 0.1, 0.05, 1.0
    model = jd.Model(world=World(g=(0.0, 0.0, 0.0)))
    for k in (1, 2):
        joint = model.add(f"j{k}", FreeJoint())
        body = model.add(f"b{k}", RigidBody(m=m, I=(0.4 * m * r * r,) * 3))
        model.connect(model.world.frame_b, joint.frame_a)
        model.connect(joint.frame_b, body.frame_a)
        body.collide(Sphere(radius=r), law=ContactLaw.COMPLIANT, c=1e5, d=0.0, mu=0.0)
    res = jd.compile(model).simulate(0.5, y0={"j2.x": 0.3}, z0={"j1.vx": u}, n_out=2001,
                                     rtol=1e-10, atol=1e-12)
    assert res["j1.vx"][-1] == pytest.approx(0.0, abs=1e-6)
    assert res["j2.vx"][-1] == pytest.approx(u, abs=1e-6)
    assert res["j1.vx"][-1] + res["j2.vx"][-1] == pytest.approx(u, abs=1e-9)
    assert not res.events.energy_lost
    depth = (2.5 * 0.5 * (m / 2) * u**2 / 0.5e5) ** (1 / 2.5)
    assert 0.99 * depth < res.ledger.max_penetration <= depth * (1 + 1e-6)


def test_convex_mesh_on_a_plane_agrees_with_mujoco(tmp_path):
    """A convex mesh (an irregular tetrahedron written as STL) over a tilted plane: the
    closed form's least gap over the hull's vertices equals MuJoCo's mj_geomDistance in 10
    random poses, to 1e-7 m: MuJoCo keeps mesh vertices in single precision (float32's
    relative 6e-8 on 0.1 m)."""
    trimesh = pytest.importorskip("trimesh")
    from jourdain.blocks.hybrid.narrow import mesh_vertices
    from jourdain.blocks.visual import Mesh
    vertices = np.array([[0, 0, 0], [0.1, 0, 0], [0, 0.08, 0], [0.02, 0.03, 0.12]])
    path = tmp_path / "tet.stl"
    trimesh.Trimesh(vertices, [[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]]).export(path)
    mesh, plane = Mesh(path=str(path)), SHAPES["plane"]
    verts = mesh_vertices(mesh)
    narrow = Narrow(plane, mesh)
    rng = np.random.default_rng(11)
    for _ in range(10):
        Rb, rb = Rotation.random(random_state=rng).as_matrix(), rng.normal(0, 0.1, 3)
        gaps = [float(contact(plane, _frame(np.eye(3), np.zeros(3)), mesh, _frame(Rb, rb), k,
                              verts)[0]) for k in range(point_count(plane, mesh))]
        dist = narrow.distance((np.eye(3), np.zeros(3)), (Rb, rb))[0]
        assert min(gaps) == pytest.approx(dist, abs=1e-7)
