"""Resets and kinematic drivers against rigid unilateral constraints (issue 30). References:
Newton's impact law relative to a driven platform (γ⁺ = −e·γ⁻, the driven speed unchanged,
energy lost (1 − e²)·½·m·γ⁻² with m the ball's mass: the platform is rigid motion); the
closed form of the driver's reference; the refusal of a penetrated start, applied to resets."""
import numpy as np
import pytest
from hybrid_models import ball

import jourdain as jd
from jourdain.blocks import Prismatic, RigidBody, Sine, World
from jourdain.blocks.drivers import translational
from jourdain.blocks.hybrid import Stop


def _platform(stop_on_lift: bool = False):
    """A vertical lift driven by Position (0.1·sin(4πt)) carrying a ball on a slide with a
    floor (Stop lower = 0 on the slide, relative to the lift); or the Stop on the lift."""
    m = jd.Model(world=World())
    m.lift, m.plate = Prismatic(axis=(0, 1, 0)), RigidBody(m=2.0)
    m.slide, m.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=0.5)
    m.connect(m.world.frame_b, m.lift.frame_a)
    m.connect(m.lift.frame_b, m.plate.frame_a)
    m.connect(m.lift.frame_b, m.slide.frame_a)
    m.connect(m.slide.frame_b, m.ball.frame_a)
    m.drive, m.ref = translational.Position(exact=True), Sine(amplitude=0.1, f=2.0)
    m.connect(m.drive.flange, m.lift.axis)
    m.connect(m.ref.y, m.drive.s_ref)
    m.floor = Stop(lower=-0.05 if stop_on_lift else 0.0, e=0.5)
    m.connect(m.floor.flange_b, m.lift.axis if stop_on_lift else m.slide.axis)
    return jd.compile(m)


def test_impact_on_a_driven_platform_leaves_the_driver_alone():
    """Before: the impact changed the driven speed lift.v from 0.834 to −0.313 m/s (and the
    log booked 2.19 J); now the driver's speed stays its reference 0.4π·cos(4πt)."""
    res = _platform().simulate(1.0, y0={"slide.s": 0.3}, rtol=1e-10, atol=1e-10)
    hits = res.events.select("floor", "hit_lower")
    assert len(hits) >= 2
    iv, iw = 2, 3      # lift.v, slide.v in x
    for rec in hits:
        # the driven speed is integrated from its prescribed acceleration (to ~1e-9 here)
        assert rec.x_after[iv] == pytest.approx(0.4 * np.pi * np.cos(4 * np.pi * rec.t),
                                                abs=1e-7)
        assert rec.x_after[iv] == pytest.approx(rec.x_before[iv], abs=1e-12)
        assert rec.x_after[iw] == pytest.approx(-0.5 * rec.x_before[iw], rel=1e-9)
        assert rec.energy_lost == pytest.approx(0.75 * 0.5 * 0.5 * rec.x_before[iw] ** 2,
                                                rel=1e-9)
    assert np.allclose(res["lift.s"], 0.1 * np.sin(4 * np.pi * res.t), atol=1e-7)


def test_driver_into_a_rigid_stop_is_refused_by_name():
    """A Position driver moving its coordinate into a rigid Stop (the reference reaches
    −0.1 m, the stop is at −0.05 m): before, the lift passed through and the log booked a
    fictitious impact; now a SimulationError names the stop, the driver and the speed."""
    with pytest.raises(jd.SimulationError) as info:
        _platform(stop_on_lift=True).simulate(1.0, rtol=1e-10, atol=1e-10)
    message = str(info.value)
    assert "floor" in message and "drive" in message and "lift.v" in message
    t_hit = (np.pi + np.arcsin(0.5)) / (4 * np.pi)       # 0.1·sin(4πt) = −0.05
    assert float(message.split("at t = ")[1].split(" s")[0]) == pytest.approx(t_hit, abs=1e-8)


@pytest.mark.parametrize("kind", ["event", "time"])
def test_reset_into_a_rigid_stop_is_refused_by_name(kind):
    """A reset that puts the ball 0.2 m below its floor (the start there is refused; before,
    the ball then fell forever): a ModelError names the event, the stop and the depth."""
    system = jd.compile(ball(e=0.5))
    reset = lambda v: {"slide.s": -0.2}   # noqa: E731
    event = jd.Event(lambda v: v["slide.s"] - 0.5, jd.Direction.FALLING, reset=reset,
                     name="drop") if kind == "event" else \
        jd.TimeEvent([0.1], reset=reset, name="drop")
    with pytest.raises(jd.ModelError) as info:
        system.simulate(2.0, y0={"slide.s": 1.0}, events=[event])
    message = str(info.value)
    assert "'drop'" in message and "floor" in message and "0.2 m" in message


def test_reset_onto_the_floor_is_accepted():
    """A reset to s = 0 with a downward speed is an impact at the limit, not a penetration:
    the stop takes it (v⁺ = −e·v⁻, e = 0.5)."""
    system = jd.compile(ball(e=0.5))
    kick = jd.TimeEvent([0.1], reset=lambda v: {"slide.s": 0.0, "slide.v": -2.0})
    res = system.simulate(0.2, y0={"slide.s": 1.0}, events=[kick], rtol=1e-10, atol=1e-10)
    rec = res.events.select("simulation")[-1]
    assert rec.t == pytest.approx(0.1) and rec.x_after[1] == pytest.approx(1.0, rel=1e-9)
