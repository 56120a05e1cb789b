"""Stick–slip where friction elements meet (issues 23 and 30), against MSL's friction
semantics (Modelica.Mechanics.Rotational.Interfaces.PartialFriction: an element engages when
its normal force becomes positive; the stuck elements on one motion hold it up to their
combined static limit). References: closed forms of a shaft braked by a normal force that
rises linearly from 0 (ω(t) = ω0 − k·t²/(2J)); of a shaft under a ramp torque held by
frictions whose limits add (directly and through a gear ratio); Newton's law at rest for a
mass resting on its stop; conservation of angular momentum in a freewheel locking at the
start (energy lost ½·J1·J2/(J1 + J2)·w_rel²)."""
import numpy as np
import pytest
from hybrid_models import shaft

import jourdain as jd
from jourdain.blocks import IdealGear, Inertia, LinearMotor, Motor, Step, Table, World
from jourdain.blocks.hybrid import (BearingFriction, Brake, Clutch, FrictionMode, OneWayClutch,
                                    StopMode, SupportFriction)


@pytest.mark.parametrize("element", ["brake", "clutch"])
def test_engaging_from_exactly_zero_normal_force_sticks_at_the_closed_form_time(element):
    """f_normalized = t/10 from exactly 0 at t = 0: FREE at the start (fn = 0), engaged right
    after (fn > 0, MSL's `free = fn <= 0`), then the friction torque k·t (k = μ·cgeo·fn_max/10)
    brings the relative speed to rest at t* = √(2·w0/(k·(1/J1 + 1/J2))) = 1.5 s (a brake:
    1/J2 = 0). It used to stay FREE for ever."""
    model = jd.Model(world=World())
    a = shaft(model, "a", 1.0)
    mu, fn_max, w0 = 0.5, 20.0, 1.125
    model.fn = Table([0.0, 10.0], [0.0, 1.0])
    if element == "brake":
        model.el = Brake(mu_pos=[[0.0, mu]], fn_max=fn_max)
        model.connect(model.el.flange_b, a.axis)
        inv_J = 1.0
    else:
        b = shaft(model, "b", 1.0)
        model.el = Clutch(mu_pos=[[0.0, mu]], fn_max=fn_max)
        model.connect(model.el.flange_a, b.axis)
        model.connect(model.el.flange_b, a.axis)
        inv_J = 2.0
        w0 = 2.25     # w_rel(t) = w0 − k·t²·(1/J1 + 1/J2)/2 reaches 0 at 1.5 s as well
    model.connect(model.fn.y, model.el.f_normalized)
    res = jd.compile(model).simulate(3.0, z0={"a.w": w0}, rtol=1e-11, atol=1e-11)
    k = mu * fn_max / 10.0
    stick = res.events.times("el", "stop_forward")
    assert stick.size == 1, res.events.table()
    assert stick[0] == pytest.approx(np.sqrt(2 * w0 / (k * inv_J)), rel=1e-8)
    assert res.events.times("el", "engage")[0] < 1e-9
    assert res["el.mode"][-1] == FrictionMode.STUCK


def _ramp_shaft(limits, ratio=None, peaks=(1.0, 1.0)):
    """A shaft driven by τ = 4·t [N·m] held by two BearingFrictions (static limits
    peak·limit), both on it or (ratio) the second on a shaft behind an IdealGear."""
    model = jd.Model(world=World())
    model.a = Inertia(J=1.0)
    model.f1 = BearingFriction(tau_pos=[[0.0, limits[0]]], peak=peaks[0])
    model.f2 = BearingFriction(tau_pos=[[0.0, limits[1]]], peak=peaks[1])
    model.connect(model.f1.flange_b, model.a.flange_a)
    if ratio is None:
        model.connect(model.f2.flange_b, model.a.flange_a)
    else:
        model.b, model.gear = Inertia(J=2.0), IdealGear(ratio=ratio)
        model.connect(model.a.flange_b, model.gear.flange_a)
        model.connect(model.gear.flange_b, model.b.flange_a)
        model.connect(model.f2.flange_b, model.b.flange_a)
    model.drive, model.tau = Motor(), Table([0.0, 10.0], [0.0, 40.0])
    model.connect(model.drive.flange_b, model.a.flange_a)
    model.connect(model.tau.y, model.drive.tau)
    return jd.compile(model)


def test_two_stuck_frictions_on_one_shaft_break_away_at_their_combined_limit():
    """Static limits 1 and 2 N·m on one shaft under τ = 4·t: stuck, they share the holding
    torque in proportion to their limits (2/3 and 4/3 N·m at 0.5 s) and break away together
    when τ reaches 3 N·m, at 0.75 s (half-and-half, the weaker one broke at 0.5 s and then
    chattered). Sliding, the shaft accelerates by τ − 3: w(t) = 2·(t − 0.75)²."""
    res = _ramp_shaft((1.0, 2.0)).simulate(1.5, n_out=7, rtol=1e-10, atol=1e-12)
    assert res.events.times("f1", "break_forward") == pytest.approx([0.75], abs=1e-9)
    assert res.events.times("f2", "break_forward") == pytest.approx([0.75], abs=1e-9)
    k = int(np.argmin(np.abs(res.t - 0.5)))
    assert res["f1.tau"][k] == pytest.approx(2 / 3, rel=1e-9)
    assert res["f2.tau"][k] == pytest.approx(4 / 3, rel=1e-9)
    assert res["a.w"][-1] == pytest.approx(2 * 0.75 ** 2, rel=1e-7)


def test_stuck_frictions_across_a_gear_use_the_combined_limit():
    """A shaft (limit 1.5 N·m) geared 2:1 to a shaft with a 4 N·m bearing friction: the
    second holds 4/2 = 2 N·m on the first shaft, the stuck set 3.5 N·m; τ = 4·t breaks both
    away at 0.875 s, together (the first broke alone at 0.75 s before)."""
    system = _ramp_shaft((1.0, 4.0), ratio=2.0, peaks=(1.5, 1.0))
    res = system.simulate(1.2, rtol=1e-10, atol=1e-12)
    for name in ("f1", "f2"):
        assert res.events.times(name, "break_forward") == pytest.approx([0.875], abs=1e-9)
    assert [e.cause for e in res.events][1:] == ["break_forward, break_forward"]


def test_friction_on_a_locked_gear_beside_a_moving_shaft():
    """An Inertia geared to a Fixed flange is locked; a bearing friction on it carries
    nothing and never switches, while a shaft beside it slides to rest under its own friction
    (ω0 = 2 rad/s, τ = 0.5 N·m, J = 1: sticks at t = J·ω0/τ = 4 s). Before, the locked
    net's zero speed crashed compilation inside CasADi."""
    model = jd.Model(world=World())
    model.a, model.gear, model.fix = Inertia(J=1.0), IdealGear(ratio=2.0), jd.blocks.Fixed()
    model.connect(model.a.flange_b, model.gear.flange_a)
    model.connect(model.gear.flange_b, model.fix.flange)
    model.fa = BearingFriction(tau_pos=[[0.0, 1.0]])
    model.connect(model.fa.flange_b, model.a.flange_a)
    model.b, model.fb = Inertia(J=1.0), BearingFriction(tau_pos=[[0.0, 0.5]])
    model.connect(model.fb.flange_b, model.b.flange_a)
    res = jd.compile(model).simulate(5.0, z0={"b.w": 2.0}, rtol=1e-10, atol=1e-12)
    assert res.events.times("fb", "stop_forward") == pytest.approx([4.0], rel=1e-8)
    assert not res.events.select("fa")
    assert np.all(res["fa.mode"] == FrictionMode.STUCK)
    assert np.max(np.abs(res["fa.tau"])) < 1e-12


def test_mass_resting_on_its_stop_beside_another_friction_then_pulled_away():
    """MSL's MassWithStopAndFriction with a second SupportFriction on the same mass, pushed
    into its upper stop by 40 N, then pulled by −40 N from t = 1 s. At rest on the stop, the
    stop holds the push (reaction 40 N, Newton's law at rest) and both frictions stay stuck
    with no load; pulled, the stop lets go and both slide backward, together; at the lower
    stop the mass rests again, the reaction 40 N. Before, the split of the holding force
    between the three rows was rounding noise (−1960 N and −2000 N): the frictions ended
    sliding at rest, and the next event in a ChatteringError."""
    from jourdain.library import MassWithStopAndFriction
    model = jd.Model(world=World())
    model.body = MassWithStopAndFriction(L=1.0, smax=1.5, smin=-1.5, m=1.0)
    model.push, model.drive = Step(offset=40.0, height=-80.0, t_step=1.0), LinearMotor()
    model.connect(model.push.y, model.drive.f)
    model.connect(model.drive.flange_b, model.body.flange_a)
    model.other = SupportFriction(f_pos=[[0.0, 1.0]])
    model.connect(model.other.flange_b, model.body.flange_a)
    model.shaft, model.bearing = Inertia(J=1.0), BearingFriction(tau_pos=[[0.0, 1.0]])
    model.connect(model.bearing.flange_b, model.shaft.flange_a)
    res = jd.compile(model).simulate(2.0, n_out=21)
    assert [e.cause for e in res.events][1:] == ["hit_upper", "leave_upper", "hit_lower"]
    at = {t: int(np.argmin(np.abs(res.t - t))) for t in (0.9, 1.9)}
    assert res["body.stop.mode"][at[0.9]] == StopMode.UPPER
    assert res["body.stop.upper"][at[0.9]] == pytest.approx(40.0, rel=1e-9)
    assert res["body.stop.mode"][at[1.9]] == StopMode.LOWER
    assert res["body.stop.lower"][at[1.9]] == pytest.approx(40.0, rel=1e-9)
    for name in ("body.friction", "other"):
        assert res[f"{name}.mode"][at[0.9]] == FrictionMode.STUCK
        assert res[f"{name}.mode"][at[1.9]] == FrictionMode.STUCK
        assert abs(res[f"{name}.tau"][at[0.9]]) < 1e-9
    leave = res.events.select("body.stop", "leave_upper")[0]
    assert leave.discrete_after["body.friction.mode"] == FrictionMode.BACKWARD
    assert leave.discrete_after["other.mode"] == FrictionMode.BACKWARD


def test_one_way_clutch_started_turning_backward_locks_by_a_logged_impact():
    """Engine J1 = 1 at 10 rad/s, load J2 = 2 at rest behind a OneWayClutch (w_rel = −10):
    the freewheel locks at t = 0 by a plastic impact — both at J1·10/(J1 + J2) = 10/3 rad/s
    (angular momentum) — and the initial record of the event log holds the energy it took,
    ½·J1·J2/(J1 + J2)·w_rel² = 33.3 J, with the state before (engine at 10 rad/s)."""
    model = jd.Model(world=World())
    model.engine, model.load = Inertia(J=1.0), Inertia(J=2.0)
    model.clutch = OneWayClutch(mu_pos=[[0.0, 0.5]], fn_max=10.0)
    model.connect(model.clutch.flange_a, model.engine.flange_b)
    model.connect(model.clutch.flange_b, model.load.flange_a)
    system = jd.compile(model)
    res = system.simulate(1.0, z0={"engine.w": 10.0}, rtol=1e-10, atol=1e-12)
    start = res.events[0]
    assert start.energy_lost == pytest.approx(0.5 * 2 / 3 * 100.0, rel=1e-12)
    assert start.x_before[system.x_names.index("engine.w")] == pytest.approx(10.0)
    assert res["engine.w"][-1] == pytest.approx(10 / 3, rel=1e-10)
    assert res["load.w"][-1] == pytest.approx(10 / 3, rel=1e-10)
    assert "kinetic energy lost 33.3333 J" in "; ".join(start.changes)
    assert res["clutch.mode"][-1] == FrictionMode.STUCK
