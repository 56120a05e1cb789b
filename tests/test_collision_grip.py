"""A gripper holds a box by friction between bodies (issue 28). References: statics of the
grasp (each finger carries m·g/2 in friction and the squeeze F in normal force), the
friction-cone inequality |f_t| ≤ μ·f_n while stuck, the closed-form slip instant
μ·F(t) = m·g/2 for a squeeze falling linearly, and the ledger's exact split of an impact's
kinetic energy over its contacts (their sum equals the event log's energy lost)."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import FreeJoint, LinearMotor, Prismatic, RigidBody, Table, World
from jourdain.blocks.visual import Box, Plane, Sphere

M, A, R, MU, G = 0.2, 0.06, 0.01, 0.8, 9.81
F0, F1, T = 5.0, 1.0, 1.0


def _gripper():
    model = jd.Model(world=World(g=(0.0, -G, 0.0)))
    model.free, model.box = FreeJoint(), RigidBody(m=M, I=(M * A * A / 6,) * 3)
    model.connect(model.world.frame_b, model.free.frame_a)
    model.connect(model.free.frame_b, model.box.frame_a)
    model.box.collide(Box(size=(A, A, A)), mu=MU)
    model.squeeze = Table([0.0, T], [F0, F1])
    for side, axis in (("left", (1.0, 0.0, 0.0)), ("right", (-1.0, 0.0, 0.0))):
        slide = model.add(f"{side}_slide", Prismatic(axis=axis))
        finger = model.add(f"{side}_finger", RigidBody(m=0.05, I=(1e-5,) * 3))
        motor = model.add(f"{side}_motor", LinearMotor())
        model.connect(model.world.frame_b, slide.frame_a)
        model.connect(slide.frame_b, finger.frame_a)
        model.connect(motor.flange_b, slide.axis)
        model.connect(model.squeeze.y, motor.f)
        finger.collide(Sphere(radius=R), mu=MU)
    return jd.compile(model)


def test_gripper_holds_the_box_inside_the_friction_cone_then_slips_on_time():
    """Held: friction m·g/2 per finger, normal F(t), |f_t| ≤ μ·f_n at every sample, the box
    still (drift < 1e-9 m); slip when μ·F(t) = m·g/2 (closed form, to 1e-5 s)."""
    s0 = -(A / 2 + R)
    res = _gripper().simulate(1.1, y0={"left_slide.s": s0, "right_slide.s": s0}, n_out=111,
                              rtol=1e-9, atol=1e-11)
    held = res.t < 0.9
    for pair in ("contacts.pair0", "contacts.pair1"):
        f_n = res[f"{pair}.f_n"][held]
        f_t = np.hypot(res[f"{pair}.f_t[0]"], res[f"{pair}.f_t[1]"])[held]
        assert np.allclose(f_t, M * G / 2, rtol=1e-8)
        assert np.allclose(f_n, F0 + (F1 - F0) * res.t[held] / T, rtol=1e-8)
        assert np.all(f_t <= MU * f_n)
    assert np.max(np.abs(res["free.y"][held])) < 1e-9
    slip = res.events.times("contacts.pair0", "slip")
    assert slip[0] == pytest.approx((F0 - M * G / (2 * MU)) / (F0 - F1) * T, abs=1e-5)
    assert res["free.y"][-1] < -1e-3                 # sliding down afterwards
    ledger = res.ledger
    assert ledger.max_penetration < 1e-8 and ledger.cone < 1e-8
    assert ledger.contacts["contacts.pair0"].work < 0      # sliding friction dissipates


def test_ledger_splits_each_impact_over_its_contacts():
    """Two balls dropped on a floor from different heights (the lower one bounces twice):
    the ledger's per-contact impact energies add up to the event log's energy lost (exact split of
    ΔT = Σ Λ_i·(γ_i⁺ + γ_i⁻)/2), and each floor impact of a ball takes
    (1 − e²)·½·m·v² (Newton's law, v = √(2gh))."""
    m, r, e, h = 0.1, 0.05, 0.5, 0.3
    model = jd.Model(world=World(g=(0.0, -G, 0.0)))
    model.world.collide(Plane(normal=(0, 1, 0)), e=e, mu=0.0)
    for k in range(2):
        joint = model.add(f"j{k}", FreeJoint())
        body = model.add(f"b{k}", RigidBody(m=m, I=(0.4 * m * r * r,) * 3))
        model.connect(model.world.frame_b, joint.frame_a)
        model.connect(joint.frame_b, body.frame_a)
        body.collide(Sphere(radius=r), e=e, mu=0.0)
    res = jd.compile(model).simulate(0.3, y0={"j0.y": r + h, "j1.x": 0.5, "j1.y": r + h / 4},
                                     n_out=31, rtol=1e-10, atol=1e-12)
    ledger = res.ledger
    total = sum(c.impacts for c in ledger.contacts.values())
    assert -total == pytest.approx(res.events.energy_lost, rel=1e-9)
    assert abs(ledger.unattributed) < 1e-9
    floor0 = [p for p in model.contacts._collision_pairs if p.b.frame == "b0.frame_a"]
    first = ledger.contacts["contacts.pair0"].impacts     # floor–b0: one impact in 0.3 s
    assert floor0 and -first == pytest.approx((1 - e**2) * 0.5 * m * 2 * G * h, rel=1e-7)
    assert ledger.max_penetration < 1e-9 and ledger.energy_in < 1e-9
