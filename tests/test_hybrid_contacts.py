"""Unilateral contact with the ground (issue 13). References: symmetry and statics of a box
landing flat (four corners at one instant, each carrying m·g/4 at rest); Coulomb sliding
(deceleration μ·g, stopping distance v0²/(2·μ·g)); the billiard-ball result (a sliding
solid sphere rolls after t = 2·v0/(7·μ·g) at 5/7 of its speed); conservation of energy
while sliding is the only loss (work μ·m·g·d)."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import FreeJoint, RigidBody, World
from jourdain.blocks.hybrid import BoxContact, ContactMode, GroundContact

G = 9.81


def _body(contact, m=1.0, inertia=(0.01, 0.01, 0.01)):
    model = jd.Model(world=World())
    model.free, model.body = FreeJoint(), RigidBody(m=m, I=inertia)
    model.contact = contact
    model.connect(model.world.frame_b, model.free.frame_a)
    model.connect(model.free.frame_b, model.body.frame_a)
    model.connect(model.contact.frame_a, model.body.frame_a)
    return jd.compile(model)


def test_box_landing_flat_hits_with_four_corners_and_rests():
    a, m = 0.2, 2.0
    system = _body(BoxContact((a, a, a), mu=0.5, e=0.0), m=m, inertia=(m * a * a / 6,) * 3)
    res = system.simulate(1.0, y0={"free.y": 0.5}, n_out=101, rtol=1e-10, atol=1e-10)
    first = res.events[1]
    assert first.t == pytest.approx(np.sqrt(2 * (0.5 - a / 2) / G), abs=1e-8)
    corners = first.element.split(", ")
    assert len(corners) == 4 and all(c.startswith("contact.corner") for c in corners)
    assert res["free.y"][-1] == pytest.approx(a / 2, abs=1e-9)
    normal = [res[f"contact.corner{k}.f_n"][-1] for k in range(8)]
    assert sum(normal) == pytest.approx(m * G, rel=1e-9)
    loaded = [f for f in normal if f > 1e-9]
    assert len(loaded) == 4 and np.allclose(loaded, m * G / 4, rtol=1e-6)


def test_sliding_block_stops_where_friction_took_its_energy():
    """A point-contact block (no rotation: inertia large) slides with v0 on the floor."""
    mu, v0 = 0.4, 2.0
    system = _body(GroundContact(mu=mu), inertia=(1e3, 1e3, 1e3))
    res = system.simulate(1.0, y0={"free.y": 0.0}, z0={"free.vx": v0}, rtol=1e-11,
                          atol=1e-11)
    stop = res.events.select("contact", "stop")[0]
    v_eps = 1e-4                       # the contact's stick speed: |v_t| = v_eps at the event
    assert stop.t == pytest.approx((v0 - v_eps) / (mu * G), rel=1e-8)
    assert res["free.x"][-1] == pytest.approx(v0**2 / (2 * mu * G), abs=1e-6)
    assert res["contact.mode"][-1] == ContactMode.STICK
    assert res["contact.f_n"][-1] == pytest.approx(G, rel=1e-9)


def test_sliding_sphere_starts_rolling_at_five_sevenths():
    """A solid sphere (I = 2/5·m·r²) launched sliding without spin: friction slows it and
    spins it up until v = r·ω after t = 2·v0/(7·μ·g), v = 5/7·v0; then it rolls (sticks)."""
    m, r, mu, v0 = 1.0, 0.1, 0.3, 1.0
    I = 0.4 * m * r**2
    system = _body(GroundContact(radius=r, mu=mu), m=m, inertia=(I, I, I))
    res = system.simulate(1.0, y0={"free.y": r}, z0={"free.vx": v0}, rtol=1e-11, atol=1e-12)
    stop = res.events.select("contact", "stop")[0]
    assert stop.t == pytest.approx(2 * v0 / (7 * mu * G), rel=1e-3)
    assert res["free.vx"][-1] == pytest.approx(5 / 7 * v0, rel=1e-4)
    assert res["free.vx"][-1] == pytest.approx(-r * res["free.wz"][-1], rel=1e-9)
    assert res["contact.mode"][-1] == ContactMode.STICK


def test_contact_bad_input_is_named():
    with pytest.raises(jd.ModelError, match="restitution"):
        GroundContact(e=1.5)
    with pytest.raises(jd.ModelError, match="mu_static"):
        _body(GroundContact(mu=0.5, mu_static=0.2))


def test_contact_starting_at_zero_gap_while_approaching_impacts():
    """A ball starting on the floor (gap 0) moving down at 1 m/s, and one touching a wall
    while moving into it: both impact at t = 0 instead of passing through. References:
    Newton's law (v⁺ = −e·v⁻, kinetic energy lost (1 − e²)·½·m·v²) and the wall's
    non-penetration (centre at most 0.5 − r)."""
    import jourdain as jd
    from jourdain.blocks import FreeJoint, RigidBody, World
    from jourdain.blocks.hybrid import GroundContact
    r, m, e = 0.05, 0.1, 0.5
    model = jd.Model(world=World())
    model.j, model.b = FreeJoint(), RigidBody(m=m, I=(0.4 * m * r**2,) * 3)
    model.connect(model.world.frame_b, model.j.frame_a)
    model.connect(model.j.frame_b, model.b.frame_a)
    for k, (normal, offset) in enumerate([((0, 1, 0), 0.0), ((-1, 0, 0), -0.5)]):
        contact = model.add(f"c{k}", GroundContact(radius=r, normal=normal, offset=offset,
                                                   mu=0.5, e=e, v_rest=0.05))
        model.connect(contact.frame_a, model.b.frame_a)
    system = jd.compile(model)
    down = system.simulate(0.05, y0={"j.x": 0.0, "j.y": r}, z0={"j.vy": -1.0}, n_out=6)
    first = down.events[0]
    assert first.t == pytest.approx(0.0, abs=1e-15)
    assert down.events.energy_lost == pytest.approx((1 - e**2) * 0.5 * m * 1.0**2, rel=1e-9)
    assert down["j.vy"][0] == pytest.approx(e * 1.0, rel=1e-9)
    wall = system.simulate(0.5, y0={"j.x": 0.5 - r, "j.y": r}, z0={"j.vx": 0.2}, n_out=11)
    assert wall["j.x"].max() <= 0.5 - r + 1e-9
    assert wall["j.vx"][-1] < 0.0


@pytest.mark.slow
def test_box_rest_pose_does_not_depend_on_the_output_grid():
    """Reference: the run on the finest output grid (n_out = 1001). A 0.2 m box (e = 0.5,
    μ = 0.5) dropped tilted by 0.3 rad about z tumbles over its corners and rests on a face;
    with n_out = 3 the guards used to be sampled 0.25 s apart only, corner dips between two
    samples were missed and the box rested at x = 0.2788 m against 0.3197 m (rtol 1e-10).
    Now the rest x agrees with the finest grid's within 5 mm (measured 0.32167 against
    0.31974 m: the finest grid's guard spacing, ten times finer than the 1/400 floor, still
    finds two more corner dips), and the height is the half size."""
    from stepping_models import box_on_ground

    system = jd.compile(box_on_ground())
    angle = 0.3
    y0 = {"box_j.y": 0.3, "box_j.q0": np.cos(angle / 2), "box_j.q3": np.sin(angle / 2)}
    rests = [system.simulate(2.0, y0=y0, n_out=n, rtol=1e-10, atol=1e-10) for n in (3, 1001)]
    for res in rests:
        assert res["box_j.y"][-1] == pytest.approx(0.1, abs=1e-6)
    assert abs(rests[0]["box_j.x"][-1] - rests[1]["box_j.x"][-1]) < 0.005
