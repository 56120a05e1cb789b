"""Event localization (solver/simulation/localize.py): the root found on a Hermite
interpolant of two samples and polished by Newton's method on fresh integrations. References:
the bouncing ball's closed form (impact times t_1 = √(2h/g), t_{k+1} = t_k + 2·e^k·v_0/g,
rest once the rebound speed e·v falls below v_rest); the harmonic oscillator s = A·cos ωt
(falling through A/2 at (1/6 + k)·T); for the localizer alone, trajectories known in closed
form (free fall), with the probes counted."""
import numpy as np
import pytest
from hybrid_models import ball, slider

import jourdain as jd
from jourdain.blocks import TranslationalSpring, World
from jourdain.solver.simulation.localize import Trajectory, localize

G = 9.81


def _impact_times(h, e, n):
    v0 = np.sqrt(2 * G * h)
    return np.sqrt(2 * h / G) + np.concatenate([[0.0], np.cumsum(2 * e ** np.arange(1, n)
                                                                 * v0 / G)])


def test_impact_times_to_1e_11_with_a_few_integrations_per_event():
    """Twelve bounces (e = 0.8, h = 1 m) at rtol = 1e-12: the first three impact times agree
    with the closed form to 1e-11 s, all twelve to 5e-10 s (the integration error carried
    from impact to impact; measured 1.5e-10, the previous localization — Illinois'
    regula falsi on ~25 integrations per event — 2.6e-10), and the whole run costs at most
    5 integrations per event (measured 3.1)."""
    system = jd.compile(ball(e=0.8))
    res = system.simulate(4.0, y0={"slide.s": 1.0}, rtol=1e-12, atol=1e-12)
    hits = res.events.times("floor", "hit_lower")[:12]
    assert hits.size == 12
    error = np.abs(hits - _impact_times(1.0, 0.8, 12))
    assert np.max(error[:3]) < 1e-11 and np.max(error) < 5e-10
    assert res.segments <= 5 * (len(res.events) - 1)


def test_flights_shorter_than_the_sample_spacing_all_land():
    """e = 0.3 from 1 m: flights of 0.271, 0.081 and 0.024 s, all shorter than
    event_step = 0.3 s, each landing inside one sample interval; the ball rests at the fourth
    impact (rebound 0.036 m/s < v_rest = 0.05 m/s)."""
    e = 0.3
    system = jd.compile(ball(e=e, v_rest=0.05))
    res = system.simulate(1.5, y0={"slide.s": 1.0}, event_step=0.3, rtol=1e-12, atol=1e-12)
    hits = res.events.times("floor")
    assert hits.size == 4
    assert np.max(np.abs(hits - _impact_times(1.0, e, 4))) < 1e-10
    assert abs(res["slide.s"][-1]) < 1e-12 and res["floor.mode"][-1] == -1


def test_a_guard_crossing_three_times_between_two_samples_fires_at_the_first():
    """s = A·cos(2πt) sampled at 0 and 1.2 s only: in between it falls through A/2 at 1/6 s,
    rises at 5/6 s and falls again at 7/6 s; the cubic interpolant of the two samples sees
    only the last crossing, the polishing probe's dense outputs the first. Expected: one
    event, at 1/6 s (after it the guard stays below until 7/6 s, then both samples are)."""
    m, A = 1.0, 0.1
    model = jd.Model(world=World())
    joint = slider(model, "mass", m)
    model.spring = TranslationalSpring(c=m * (2 * np.pi) ** 2)
    model.connect(model.spring.flange_b, joint.axis)
    event = jd.Event(lambda v: v["mass.s"] - A / 2, jd.Direction.FALLING, name="half")
    res = jd.compile(model).simulate(1.2, y0={"mass.s": A}, events=[event], event_step=1.2,
                                     n_out=2, rtol=1e-12, atol=1e-14)
    times = res.events.times("half")
    assert times.size == 1 and abs(times[0] - 1 / 6) < 1e-10


def _free_fall(count):
    """A point falling from 1 m (x = (height, speed)) in closed form; the guard crosses
    when the height falls below 0 (root √(2/g)); ``count`` counts the probes."""
    def state(t):
        return np.array([1.0 - G * t**2 / 2, -G * t])

    def probe(t_a, x_a, times):
        count.append(times[-1])
        return np.column_stack([state(t) for t in times])
    return Trajectory(probe, lambda times, X: -np.asarray(X)[0],
                      lambda t, x: np.array([x[1], -G]))


@pytest.mark.parametrize("t_a", [0.42, 0.45])
def test_localize_alone_polishes_with_two_probes_on_the_crossed_side(t_a):
    """On an exact trajectory the interpolant of a parabola is exact, so the first probe
    lands at the root and at most one Newton step follows; the time returned is on the
    crossed side (φ > 0) within tol of √(2/g)."""
    count, tol = [], 1e-13
    root = np.sqrt(2 / G)
    traj = _free_fall(count)
    x_a = traj.probe(0.0, None, np.array([t_a]))[:, 0]
    x_b = traj.probe(0.0, None, np.array([t_a + 0.05]))[:, 0]
    count.clear()
    t, x, path = localize(traj, t_a, x_a, t_a + 0.05, x_b, tol)
    assert 0.0 <= t - root <= tol and x[0] < 0.0
    assert len(count) <= 2 and path is not None


def test_localize_alone_falls_back_on_a_guard_that_jumps():
    """A guard that jumps from −1 to +1 at t = 0.3 s (an input step inside the bracket):
    Newton's slope is zero, Illinois' regula falsi on the bracket returns a time on the
    crossed side within tol of the jump."""
    count, tol = [], 1e-13
    traj = Trajectory(lambda t_a, x_a, times: (count.append(1), np.zeros((1, len(times))))[1],
                      lambda times, X: np.where(np.asarray(times) > 0.3, 1.0, -1.0),
                      lambda t, x: np.zeros(1))
    t, _, _ = localize(traj, 0.25, np.zeros(1), 0.35, np.zeros(1), tol)
    assert 0.0 < t - 0.3 <= tol
    assert len(count) < 60
