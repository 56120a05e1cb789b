"""Coulomb friction with true stiction (MSL's Rotational friction elements, issue 13).
References: the torque balance of a stuck pendulum (held while m·g·l·sin φ ≤ τ0_max); the
breakaway angle asin(τ0_max/(m·g·l)) of a pendulum on a slowly turning support; the work of
sliding friction (m·g·l·(cos φ1 − cos φ0) = τ_k·(φ0 − φ1) when a sliding pendulum sticks);
the closed form of the mass–spring–belt stick–slip cycle; conservation of angular momentum in
a clutch locking up."""
import numpy as np
import pytest
from hybrid_models import pendulum, shaft, slider
from scipy.optimize import brentq

import jourdain as jd
from jourdain.blocks import RigidBody, TranslationalSpring, World
from jourdain.blocks.hybrid import BearingFriction, Clutch, FrictionMode, SupportFriction

G = 9.81


def _friction_pendulum(m, l, tau_slide, peak, support=None):
    model = jd.Model(world=World())
    joint, _ = pendulum(model, m=m, l=l, parent=support)
    model.fric = BearingFriction(tau_pos=[[0.0, tau_slide]], peak=peak)
    model.connect(model.fric.flange_b, joint.axis)
    return model, joint


def test_stuck_pendulum_stays_put_to_machine_precision():
    """Gravity's torque at 0.3 rad is below the static limit: 100 s later the pendulum has
    not moved (a regularized friction law lets it creep to 0.22 rad)."""
    m, l = 1.0, 0.5
    limit = m * G * l * np.sin(0.35)
    model, _ = _friction_pendulum(m, l, limit / 1.2, 1.2)
    res = jd.compile(model).simulate(100.0, y0={"joint.phi": 0.3}, n_out=101)
    assert np.max(np.abs(res["joint.phi"] - 0.3)) < 1e-13
    assert np.max(np.abs(res["joint.w"])) < 1e-14
    assert np.all(res["fric.mode"] == FrictionMode.STUCK)
    # the friction torque (MSL sign: against w_rel) balances gravity's torque
    assert res["fric.tau"][-1] == pytest.approx(-m * G * l * np.sin(0.3), rel=1e-12)


def test_breakaway_at_the_closed_form_angle():
    """The pendulum hangs in a bearing with static friction on a support turning slowly at
    ω_s (a heavy turntable, 10⁹ kg·m²: its acceleration changes the friction torque by
    < 1e-9 N·m): stuck, the pendulum turns with the support until gravity's torque reaches
    the static limit at sin φ* = τ0_max/(m·g·l) (φ* absolute)."""
    m, l, omega = 1.0, 0.5, 0.05
    limit = 0.6 * m * G * l
    model = jd.Model(world=World())
    model.turn = jd.blocks.Revolute(axis=(0, 0, 1))
    model.table = RigidBody(m=1.0, I=(1e9, 1e9, 1e9))
    model.connect(model.world.frame_b, model.turn.frame_a)
    model.connect(model.turn.frame_b, model.table.frame_a)
    joint, _ = pendulum(model, m=m, l=l, parent=model.turn.frame_b)
    model.fric = BearingFriction(tau_pos=[[0.0, 0.5 * limit]], peak=2.0)
    model.connect(model.fric.flange_b, joint.axis)
    system = jd.compile(model)
    res = system.simulate(15.0, z0={"turn.w": omega}, rtol=1e-12, atol=1e-12)
    breaks = res.events.select("fric", "break_backward") + \
        res.events.select("fric", "break_forward")
    assert breaks, res.events.table()
    first = breaks[0]
    angle = first.x_before[0] + first.x_before[1]          # absolute angle of the pendulum
    assert angle == pytest.approx(np.arcsin(limit / (m * G * l)), abs=1e-9)
    assert first.t == pytest.approx(np.arcsin(limit / (m * G * l)) / omega, rel=1e-6)


def test_sliding_pendulum_sticks_where_friction_has_taken_the_energy():
    m, l, tau_k, peak = 1.0, 0.5, 1.2, 1.6
    model, _ = _friction_pendulum(m, l, tau_k, peak)
    res = jd.compile(model).simulate(3.0, y0={"joint.phi": 0.9}, rtol=1e-12, atol=1e-12)
    stop = res.events.select("fric", "stop_backward")[0]
    phi1 = brentq(lambda p: m * G * l * (np.cos(p) - np.cos(0.9)) - tau_k * (0.9 - p), -0.89,
                  0.0)
    assert stop.x_before[0] == pytest.approx(phi1, abs=1e-9)
    assert m * G * l * abs(np.sin(phi1)) <= peak * tau_k   # and then it stays stuck
    assert res["fric.mode"][-1] == FrictionMode.STUCK
    assert res["joint.phi"][-1] == pytest.approx(phi1, abs=1e-9)


def test_stick_slip_on_a_moving_belt():
    """A block on a belt moving at v_b, tied to the wall by a spring k (static force F_s,
    sliding force F_k). Stuck, it rides with the belt until k·x = F_s; slipping, it
    oscillates about x_k = F_k/k with ω = √(k/m) until its speed is v_b again:
    T_slip = (2π − 2·atan(a·ω/v_b))/ω with a = (F_s − F_k)/k, after which it rides on from
    x_e = x_k + a·cos θ + (v_b/ω)·sin θ (θ = ω·T_slip) to F_s/k: T_stick = (F_s/k − x_e)/v_b.
    The belt is a 10¹¹ kg slider: its speed stays v_b to 2e-9."""
    m, k, F_k, F_s, v_b = 1.0, 100.0, 2.0, 3.0, 0.1
    model = jd.Model(world=World())
    belt = slider(model, "belt", 1e11)
    block = slider(model, "block", m)
    model.spring = TranslationalSpring(c=k)
    model.connect(model.spring.flange_b, block.axis)
    model.fric = SupportFriction(f_pos=[[0.0, F_k]], peak=F_s / F_k)
    model.connect(model.fric.support, belt.axis)
    model.connect(model.fric.flange_b, block.axis)
    system = jd.compile(model)
    res = system.simulate(6.0, z0={"belt.v": v_b, "block.v": v_b}, rtol=1e-11, atol=1e-12)
    omega, a = np.sqrt(k / m), (F_s - F_k) / k
    t_slip = (2 * np.pi - 2 * np.arctan(a * omega / v_b)) / omega
    theta = omega * t_slip
    x_end = F_k / k + a * np.cos(theta) + v_b / omega * np.sin(theta)
    t_stick = (F_s / k - x_end) / v_b
    breaks = res.events.times("fric", "break_backward")
    sticks = res.events.times("fric", "stop_backward")
    assert breaks.size >= 3 and sticks.size >= 3
    assert breaks[0] == pytest.approx(F_s / k / v_b, rel=1e-9)   # first stick from x = 0
    assert np.allclose(sticks[:3] - breaks[:3], t_slip, rtol=1e-8)
    assert np.allclose(breaks[1:3] - sticks[:2], t_stick, rtol=1e-8)


def test_clutch_engages_and_locks_two_shafts():
    """Two free shafts (J1 = 1, J2 = 2 kg·m², ω1 = 10, ω2 = 0 rad/s) and a clutch engaged
    by a step of its normal force at t = 0.2 s: it slips with the sliding torque
    τ = cgeo·μ·fn until the speeds meet at ω = (J1·ω1 + J2·ω2)/(J1 + J2) (angular momentum),
    after Δt = (ω1 − ω2)/(τ·(1/J1 + 1/J2)); then it stays locked (no torque to break it)."""
    J1, J2, mu, fn = 1.0, 2.0, 0.4, 20.0
    model = jd.Model(world=World())
    a, b = shaft(model, "a", J1), shaft(model, "b", J2)
    model.clutch = Clutch(mu_pos=[[0.0, mu]], peak=1.2, fn_max=fn)
    model.engage = jd.blocks.Step(height=1.0, t_step=0.2)
    model.connect(model.clutch.flange_a, a.axis)
    model.connect(model.clutch.flange_b, b.axis)
    model.connect(model.engage.y, model.clutch.f_normalized)
    res = jd.compile(model).simulate(2.0, z0={"a.w": 10.0}, rtol=1e-11, atol=1e-11)
    lock = res.events.select("clutch", "stop_backward")
    assert len(lock) == 1
    assert lock[0].t - 0.2 == pytest.approx(10.0 / (mu * fn * (1 / J1 + 1 / J2)), rel=1e-9)
    common = J1 * 10.0 / (J1 + J2)
    assert res["a.w"][-1] == pytest.approx(common, rel=1e-10)
    assert res["b.w"][-1] == pytest.approx(common, rel=1e-10)
    assert res["clutch.mode"][-1] == FrictionMode.STUCK
    assert res.events.select("clutch", "engage")[0].t == pytest.approx(0.2, abs=1e-12)


def test_mass_pushed_into_its_stop_rests_there_without_chattering():
    """MSL's MassWithStopAndFriction (a Stop and a StribeckFriction on one mass) pushed into
    its upper stop by 40 N, more than twice the static limit 1.001·(F_Coulomb + F_Stribeck)
    = 15.015 N: the stop and the stuck friction both hold the mass, their split is
    indeterminate and the stop takes the load. Reference: Newton's law at rest — the stop's
    reaction is the push (40 N) and the friction force stays within its limit."""
    from jourdain.blocks import Constant, LinearMotor
    from jourdain.library import MassWithStopAndFriction
    model = jd.Model(world=World())
    model.body = MassWithStopAndFriction(L=1.0, smax=1.5, smin=-1.5, m=1.0)
    model.push, model.drive = Constant(k=40.0), LinearMotor()
    model.connect(model.push.y, model.drive.f)
    model.connect(model.drive.flange_b, model.body.flange_a)
    res = jd.compile(model).simulate(2.0, n_out=21)
    assert [e.cause for e in res.events][1:] == ["hit_upper"], res.events.table()
    assert res["body.mass.s"][-1] == pytest.approx(1.0, abs=1e-12)
    assert res["body.stop.upper"][-1] == pytest.approx(40.0, rel=1e-5)
    assert abs(res["body.friction.tau"][-1]) < 1e-4 * 15.015
