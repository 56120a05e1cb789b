"""The event loop (issue 13): zero crossings localized to the integration tolerance in both
directions, with the ODE methods and with the DAE method on IDAS; simultaneous events;
time events and resets; chattering; sampled callbacks. References: closed forms (harmonic
oscillator s = A·cos ωt; the pendulum's period 4·√(l/g)·K(sin(θ0/2)), K the complete
elliptic integral; free fall after a kick); determinism by repetition."""
import numpy as np
import pytest
from hybrid_models import ball, pendulum, slider
from scipy.special import ellipk

import jourdain as jd
from jourdain.blocks import (
    FixedTranslation,
    Prismatic,
    Revolute,
    RigidBody,
    TranslationalSpring,
    World,
)

G = 9.81


def _oscillator(m=2.0, k=50.0):
    model = jd.Model(world=World())
    joint = slider(model, "mass", m)
    model.spring = TranslationalSpring(c=k)
    model.connect(model.spring.flange_b, joint.axis)
    return jd.compile(model)


@pytest.mark.parametrize("direction", list(jd.Direction))
def test_crossings_in_each_direction_are_localized_to_the_tolerance(direction):
    """s = A·cos ωt crosses A/2 falling at (π/3 + 2πk)/ω and rising at (5π/3 + 2πk)/ω."""
    m, k, A = 2.0, 50.0, 0.1
    omega = np.sqrt(k / m)
    event = jd.Event(lambda v: v["mass.s"] - A / 2, direction, name="half")
    res = _oscillator(m, k).simulate(3.0, y0={"mass.s": A}, events=[event], rtol=1e-12,
                                     atol=1e-14)
    falling = (np.pi / 3 + 2 * np.pi * np.arange(5)) / omega
    rising = (5 * np.pi / 3 + 2 * np.pi * np.arange(5)) / omega
    expected = {jd.Direction.FALLING: falling, jd.Direction.RISING: rising,
                jd.Direction.BOTH: np.sort(np.concatenate([falling, rising]))}[direction]
    expected = expected[expected < 3.0]
    times = res.events.times("half")
    assert times.size == expected.size
    assert np.max(np.abs(times - expected)) < 1e-10


def _loop_pendulum(method, l=0.6):
    """A pendulum (tip mass 0.5 kg at l) whose tip is pinned to a 0.5 kg point on two
    prismatic joints (x, y): a closed loop that moves as one pendulum of 1 kg."""
    model = jd.Model(world=World())
    joint, _ = pendulum(model, "hinge", m=0.5, l=l)
    model.tip = FixedTranslation(r=(0.0, -l, 0.0))
    model.px, model.py = Prismatic(axis=(1, 0, 0)), Prismatic(axis=(0, 1, 0))
    model.point = RigidBody(m=0.5)
    model.pin = Revolute(axis=(0, 0, 1))
    for a, b in ((joint.frame_b, model.tip.frame_a), (model.world.frame_b, model.px.frame_a),
                 (model.px.frame_b, model.py.frame_a), (model.py.frame_b, model.point.frame_a),
                 (model.tip.frame_b, model.pin.frame_a), (model.py.frame_b, model.pin.frame_b)):
        model.connect(a, b)
    return jd.compile(model, constraints=method)


@pytest.mark.parametrize("method", [jd.ConstraintMethod.PARTITIONING,
                                    jd.ConstraintMethod.DAE])
def test_crossings_in_a_closed_loop_with_partitioning_and_dae(method):
    """θ crosses 0 falling at T/4 and rising at 3T/4, T = 4·√(l/g)·K(sin²(θ0/2))."""
    l, theta0 = 0.6, 0.8
    system = _loop_pendulum(method, l)
    event = jd.Event(lambda v: v["hinge.phi"], jd.Direction.BOTH, name="bottom")
    x0 = system.state({"hinge.phi": theta0})
    res = system.simulate(3.0, x0=x0, events=[event], rtol=1e-11, atol=1e-11)
    period = 4 * np.sqrt(l / G) * ellipk(np.sin(theta0 / 2) ** 2)
    expected = period * (0.25 + 0.5 * np.arange(6))
    expected = expected[expected < 3.0]
    times = res.events.times("bottom")
    assert times.size == expected.size
    assert np.max(np.abs(times - expected)) < 1e-8


def test_simultaneous_events_fire_together_and_deterministically():
    """Two identical balls dropped from the same height hit at the same instant: one event
    record names both floors, in declaration order; a second run gives the same numbers."""
    def two_balls():
        from jourdain.blocks.hybrid import Stop
        model = jd.Model(world=World())
        for name in ("a", "b"):
            joint = model.add(name, Prismatic(axis=(0, 1, 0)))
            body = model.add(f"{name}_ball", RigidBody(m=1.0))
            stop = model.add(f"{name}_floor", Stop(lower=0.0, e=0.5))
            model.connect(model.world.frame_b, joint.frame_a)
            model.connect(joint.frame_b, body.frame_a)
            model.connect(stop.flange_b, joint.axis)
        return jd.compile(model)
    runs = [two_balls().simulate(1.0, y0={"a.s": 0.4, "b.s": 0.4}, rtol=1e-12, atol=1e-12)
            for _ in range(2)]
    first = runs[0].events[1]
    assert first.element == "a_floor, b_floor"
    assert first.t == pytest.approx(np.sqrt(0.8 / G), abs=1e-9)
    assert [r.t for r in runs[0].events] == [r.t for r in runs[1].events]
    assert np.array_equal(runs[0].x, runs[1].x)


def test_time_event_reset_kicks_a_ball_in_flight():
    """A ball falls from rest; at t = 0.3 s a TimeEvent sets its speed to +2 m/s:
    s(1) = s(0.3) + 2·0.7 − g·0.7²/2."""
    system = _free_ball()
    kick = jd.TimeEvent([0.3], reset=lambda v: {"slide.v": 2.0}, name="kick")
    res = system.simulate(1.0, y0={"slide.s": 5.0}, events=[kick], rtol=1e-12, atol=1e-12)
    s_kick = 5.0 - G * 0.3**2 / 2
    assert res["slide.s"][-1] == pytest.approx(s_kick + 2.0 * 0.7 - G * 0.7**2 / 2, abs=1e-9)
    record = res.events.select("simulation", "time event")[0]
    assert record.t == pytest.approx(0.3) and "kick" in record.changes[0]


def _free_ball():
    model = jd.Model(world=World())
    model.slide, model.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=1.0)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.ball.frame_a)
    return jd.compile(model)


def test_terminal_event_ends_the_simulation_at_the_crossing():
    system = _free_ball()
    stop = jd.Event(lambda v: v["slide.s"] - 1.0, jd.Direction.FALLING, terminal=True,
                    name="stop")
    res = system.simulate(5.0, y0={"slide.s": 2.0}, events=[stop], rtol=1e-12, atol=1e-12)
    assert res.t[-1] == pytest.approx(np.sqrt(2.0 / G), abs=1e-10)
    assert res["slide.s"][-1] == pytest.approx(1.0, abs=1e-9)


def test_chatter_limit_ends_a_run_in_a_chattering_error():
    """e = 0.8 and no rest speed: the bounces accumulate at t∞ = t1·(1 + 2e/(1 − e)). Left
    alone the ball rests there (tests/test_hybrid_zeno.py); a chatter window of 1e-3 s is
    reached first, 8 impacts before t∞ (intervals 2·e^k·v0/g shrink below 1e-3 s), and the
    loop stops with a ChatteringError naming the time, the state and the element."""
    system = jd.compile(ball(e=0.8, v_rest=0.0))
    with pytest.raises(jd.ChatteringError) as info:
        system.simulate(6.0, y0={"slide.s": 1.0}, chatter=(8, 1e-3), rtol=1e-12,
                        atol=1e-12)
    message = str(info.value)
    t_zeno = np.sqrt(2 / G) * (1 + 2 * 0.8 / 0.2)
    assert "floor" in message and "slide.s=" in message
    t_reported = float(message.split("at t = ")[1].split(" s")[0])
    # the 8 intervals left before t∞ sum to less than 1e-3/(1 − e) = 5e-3 s
    assert t_zeno - 5e-3 < t_reported < t_zeno


def test_sampled_python_callback_holds_an_input():
    """A Python controller sampled every 0.1 s sets the force on a free mass to −k·s(t_k),
    held between samples (the general sampled-callback machinery of the event loop)."""
    model = jd.Model(world=World())
    joint = slider(model, "mass", 1.0)
    model.motor = jd.blocks.LinearMotor()
    model.connect(model.motor.flange_b, joint.axis)
    system = jd.compile(model)
    index = system.x_names.index("mass.s")
    control = jd.SampledCallback(0.1, lambda t, x, u, p: [-4.0 * x[index]], ["motor.f"])
    res = system.simulate(1.0, y0={"mass.s": 1.0}, samplers=[control], n_out=101, rtol=1e-12,
                          atol=1e-12)
    # piecewise constant input: equal within each sample interval, jumps only at samples
    u = res["motor.f"]
    steps = np.flatnonzero(np.abs(np.diff(u)) > 1e-12) + 1   # outputs show right limits
    assert np.allclose(res.t[steps], 0.1 * np.arange(1, 11), atol=1e-12)   # t_end samples
    # exact sampled dynamics: s_{k+1} = s_k + T·v_k + T²/2·f_k, v_{k+1} = v_k + T·f_k
    s, v = 1.0, 0.0
    for _ in range(10):
        f = -4.0 * s
        s, v = s + 0.1 * v + 0.005 * f, v + 0.1 * f
    assert res["mass.s"][-1] == pytest.approx(s, abs=1e-9)


def test_smooth_run_has_an_empty_event_log():
    """A model without hybrid elements, events or samplers has no events: Result.events is an
    empty EventLog (was None), so len(), loops and its filters work on every Result."""
    res = _free_ball().simulate(0.5, y0={"slide.s": 1.0}, n_out=11)
    assert isinstance(res.events, jd.solver.simulation.eventlog.EventLog)
    assert len(res.events) == 0 and res.events.times().size == 0
    assert res.events.energy_lost == 0.0 and res.events.table() == "(no events)"
