"""The Zeno limit of bouncing (issue 30): accumulating impacts end in rest or a named error,
never in a body below a rigid surface. References: the bouncing ball's closed form (impact
times t_1 = √(2h/g), t_{k+1} = t_k + 2·e^k·v_0/g; accumulation at
t∞ = t_1·(1 + 2e/(1 − e))); the resting contact's constraint (height 0, reaction m·g); the
rest of the geometric series after the last resolved bounce, which bounds how far before t∞
rest is reached: the flight rises at most 1e-9·scale, so the bounces left take at most
2·√(2·g·h_z)/g/(1 − e) ≈ 4e-4 s for h_z = 2e-9 m, e = 0.9."""
import numpy as np
import pytest
from hybrid_models import ball, pendulum

import jourdain as jd
from jourdain.blocks import FreeJoint, RigidBody, World
from jourdain.blocks.hybrid import ContactMode, GroundContact, Stop, StopMode

G = 9.81


def _zeno_record(res):
    found = [r for r in res.events if any("Zeno limit" in c for c in r.changes)]
    assert len(found) == 1
    return found[0]


def test_ball_without_rest_speed_comes_to_rest_at_the_zeno_time():
    """e = 0.9, v_rest = 0, 20 s (was: −639 m after 9869 micro-impacts)."""
    h, e, m = 1.0, 0.9, 0.5
    system = jd.compile(ball(m=m, e=e, v_rest=0.0))
    res = system.simulate(20.0, y0={"slide.s": h}, rtol=1e-10, atol=1e-10)
    t1, v0 = np.sqrt(2 * h / G), np.sqrt(2 * G * h)
    hits = res.events.times("floor", "hit_lower")
    expected = t1 + np.concatenate([[0.0], np.cumsum(2 * e ** np.arange(1, 6) * v0 / G)])
    assert np.max(np.abs(hits[:6] - expected)) < 1e-8
    t_inf = t1 * (1 + 2 * e / (1 - e))
    rest = _zeno_record(res)
    assert t_inf - 1e-3 < rest.t < t_inf + 1e-8              # rest just before t∞
    predicted = float(rest.changes[0].split("t∞ ≈ ")[1].split(" s")[0])
    assert predicted == pytest.approx(t_inf, abs=1e-4)         # the series' own estimate
    assert rest.discrete_after["floor.mode"] == StopMode.LOWER
    assert np.all(res["slide.s"] > -1e-6)                      # never below the floor
    assert abs(res["slide.s"][-1]) < 1e-6 and abs(res["slide.v"][-1]) < 1e-9
    assert res["floor.lower"][-1] == pytest.approx(m * G, rel=1e-6)
    # the plastic impact takes the last rebound's energy: ½·m·v⁻² (Newton's law, e = 0)
    assert rest.energy_lost == pytest.approx(0.5 * m * rest.x_before[1] ** 2, rel=1e-9)


def test_pendulum_on_a_stop_without_rest_speed_rests_on_the_limit():
    """A rotational Stop at φ = 0.5 rad that gravity pushes the pendulum into (e = 0.5,
    v_rest = 0): the bounces accumulate and the pendulum rests on the limit, held there."""
    model = jd.Model(world=World())
    joint, _ = pendulum(model)
    model.stop = Stop(lower=0.5, e=0.5, v_rest=0.0)
    model.connect(model.stop.flange_b, joint.axis)
    res = jd.compile(model).simulate(3.0, y0={"joint.phi": 1.0}, rtol=1e-10, atol=1e-10)
    _zeno_record(res)
    assert np.all(res["joint.phi"] > 0.5 - 1e-6)
    assert res["joint.phi"][-1] == pytest.approx(0.5, abs=1e-6)
    assert res["stop.mode"][-1] == StopMode.LOWER


def test_ground_contact_without_rest_speed_rests_on_the_plane():
    """A sphere (r = 0.1 m) on a GroundContact with e = 0.7, v_rest = 0: at rest its centre
    is at y = r and the normal force carries the weight."""
    model = jd.Model(world=World())
    model.free, model.body = FreeJoint(), RigidBody(m=1.0, I=(4e-3,) * 3)
    model.contact = GroundContact(radius=0.1, e=0.7, v_rest=0.0)
    model.connect(model.world.frame_b, model.free.frame_a)
    model.connect(model.free.frame_b, model.body.frame_a)
    model.connect(model.contact.frame_a, model.body.frame_a)
    res = jd.compile(model).simulate(4.0, y0={"free.y": 0.6}, rtol=1e-10, atol=1e-10)
    _zeno_record(res)
    t_inf = np.sqrt(2 * 0.5 / G) * (1 + 2 * 0.7 / 0.3)
    assert res.events.times("contact")[-1] < t_inf + 1e-8
    assert res["free.y"][-1] == pytest.approx(0.1, abs=1e-6)
    assert np.all(res["free.y"] > 0.1 - 1e-6)
    assert res["contact.mode"][-1] != ContactMode.OPEN
    assert res["contact.f_n"][-1] == pytest.approx(G, rel=1e-6)


def test_zeno_user_event_gets_a_named_chattering_error():
    """A bounce written as a user Event with a reset v → −0.9·v on a free ball cannot come
    to rest: a ChatteringError names the event and the accumulation time (closed form t∞)."""
    system = jd.compile(_free_ball())
    bounce = jd.Event(lambda v: v["slide.s"], jd.Direction.FALLING,
                      reset=lambda v: {"slide.v": -0.9 * v["slide.v"]}, name="bounce")
    with pytest.raises(jd.ChatteringError) as info:
        system.simulate(20.0, y0={"slide.s": 1.0}, events=[bounce], rtol=1e-10, atol=1e-10)
    message = str(info.value)
    assert "Event 'bounce'" in message and "Zeno" in message and "Stop" in message
    t_inf = np.sqrt(2 / G) * (1 + 2 * 0.9 / 0.1)
    predicted = float(message.split("t∞ ≈ ")[1].split(" s")[0])
    assert predicted == pytest.approx(t_inf, abs=1e-4)


def _free_ball():
    model = jd.Model(world=World())
    model.slide, model.ball = jd.blocks.Prismatic(axis=(0, 1, 0)), RigidBody(m=0.5)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.ball.frame_a)
    return model
