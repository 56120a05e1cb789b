"""Modes of friction elements at events in the MSL's semantics (issue 26): the mode logic of
Modelica.Mechanics.Rotational.Interfaces.PartialFriction (start: sliding by the sign of
w_rel, stuck at w_rel = 0; stop: stuck, then break away only past tau0_max; sliding torque
tau_pos(0) right after breakaway) and the value an output takes at an event instant: the
values after the event (right limits), as at time events and as the last of the two rows a
Modelica result holds at an event."""
import numpy as np
import pytest
from hybrid_models import shaft

import jourdain as jd
from jourdain.blocks import World
from jourdain.blocks.hybrid import BearingFriction, FrictionMode


def _braked_shaft(tau0=2.0, peak=1.0):
    model = jd.Model(world=World())
    joint = shaft(model, "shaft", 1.0)
    model.friction = BearingFriction(tau_pos=[[0.0, tau0]], peak=peak)
    model.connect(model.friction.flange_b, joint.axis)
    return jd.compile(model)


def test_output_at_a_stop_event_shows_the_values_after_it():
    """Reference: closed form of J·ẇ = −tau0 from w0 = 1 rad/s (J = 1 kg·m², tau0 = 2 N·m):
    the shaft stops at t* = J·w0/tau0 = 0.5 s, a point of the output grid. Before it the
    mode is FORWARD with the friction torque tau0; at t* the output holds the right limit,
    as Modelica's last row there: STUCK with zero torque (nothing loads the shaft) and w = 0."""
    system = _braked_shaft()
    res = system.simulate(1.0, z0={"shaft.w": 1.0}, n_out=11, rtol=1e-11, atol=1e-12,
                          progress=False)
    k = int(np.argmin(np.abs(res.t - 0.5)))
    assert res.t[k] == pytest.approx(0.5, abs=1e-15)
    stop = res.events.times("friction", "stop_forward")
    assert stop.size == 1 and stop[0] == pytest.approx(0.5, abs=1e-9)
    assert res["friction.mode"][k - 1] == FrictionMode.FORWARD
    assert res["friction.tau"][k - 1] == pytest.approx(2.0, rel=1e-12)
    assert res["friction.mode"][k] == FrictionMode.STUCK
    assert abs(res["friction.tau"][k]) < 1e-9 and abs(res["shaft.w"][k]) < 1e-8
    assert res["shaft.w"][k - 1] == pytest.approx(1.0 - 2.0 * 0.4, abs=1e-9)


@pytest.mark.parametrize("w0, mode", [(1.0, FrictionMode.FORWARD),
                                      (-1.0, FrictionMode.BACKWARD),
                                      (0.0, FrictionMode.STUCK)])
def test_initial_mode_follows_the_sign_of_the_relative_speed(w0, mode):
    """Reference: the MSL's initial() branch of PartialFriction: startForward = w_rel > 0,
    startBackward = w_rel < 0, otherwise stuck (no load here, below tau0_max)."""
    res = _braked_shaft().simulate(0.2, z0={"shaft.w": w0}, n_out=3, progress=False)
    assert res["friction.mode"][0] == mode


@pytest.mark.parametrize("tau, mode", [(3.0, FrictionMode.FORWARD), (1.5, FrictionMode.STUCK)])
def test_start_at_rest_breaks_away_only_past_the_static_limit(tau, mode):
    """Reference: the MSL's event iteration after initial(): stuck at w_rel = 0, then
    startForward when the holding torque exceeds tau0_max = peak·tau0 = 2.4 N·m (tau0 = 2,
    peak = 1.2); sliding, J·ẇ = tau − tau0 (closed form w = (tau − tau0)·t)."""
    from jourdain.blocks import Motor
    model = jd.Model(world=World())
    joint = shaft(model, "shaft", 1.0)
    model.friction = BearingFriction(tau_pos=[[0.0, 2.0]], peak=1.2)
    model.motor = Motor()
    model.connect(model.friction.flange_b, joint.axis)
    model.connect(model.motor.flange_b, joint.axis)
    res = jd.compile(model).simulate(0.5, inputs={"motor.tau": tau}, n_out=6, rtol=1e-10,
                                     atol=1e-12, progress=False)
    assert res["friction.mode"][0] == mode
    expected = (tau - 2.0) * res.t if mode == FrictionMode.FORWARD else 0 * res.t
    assert np.abs(res["shaft.w"] - expected).max() < 1e-8
