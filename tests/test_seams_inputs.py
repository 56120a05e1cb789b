"""Inputs, time events, compiled code and progress where they meet other features (issue 23).

References: closed forms of the driven systems — a free wheel of inertia J under a torque
sin(ωt) turns at ψ̇ = (1 − cos ωt)/(J·ω); an undamped mass–spring (m, c) at rest hit by a
force F during [t1, t1 + d] moves as x = F/c·(1 − cos ω(t − t1)) during the pulse and
x = F/c·(cos ω(t − t1 − d) − cos ω(t − t1)) after it (ω² = c/m) — and the agreement of the
compiled code with CasADi's virtual machine on the same run."""
import time
import warnings

import casadi as ca
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (KinematicPTP, LinearMotor, Motor, Prismatic, Pulse, Revolute,
                             RigidBody, Step, Table, TranslationalSpring, World)
from jourdain.blocks.hybrid import DiscretePID, Stop
from jourdain.blocks.ports import RealOutput
from jourdain.blocks.signals import SignalBlock
from jourdain.solver.simulation import progress

J, OMEGA = 0.1, 2 * np.pi * 50.0   # the wheel's inertia [kg·m²], the 50 Hz torque [rad/s]


def _wheel(stop: bool = False):
    """A wheel on a vertical axle driven by Motor ``motor`` (no gravity torque); with
    ``stop``, a cart on a slider beside it against a Stop it never reaches (a hybrid
    element: the event loop, and two islands)."""
    model = jd.Model(world=World())
    model.axle, model.motor = Revolute(axis=(0, 1, 0)), Motor()
    model.wheel = RigidBody(m=1, I=(J / 2, J, J / 2))
    model.connect(model.world.frame_b, model.axle.frame_a)
    model.connect(model.axle.frame_b, model.wheel.frame_a)
    model.connect(model.motor.flange_b, model.axle.axis)
    if stop:
        model.slider, model.cart = Prismatic(axis=(1, 0, 0)), RigidBody(m=1.0)
        model.stop = Stop(lower=-1.0)
        model.connect(model.world.frame_b, model.slider.frame_a)
        model.connect(model.slider.frame_b, model.cart.frame_a)
        model.connect(model.stop.flange_b, model.slider.axis)
    return model


def _spin(t):
    """The wheel's speed under the torque sin(ωt) from rest (closed form)."""
    return (1 - np.cos(OMEGA * t)) / (J * OMEGA)


def _sine(t):
    return np.sin(OMEGA * t)


# ---- 1. callable inputs are called where CVODES asks -------------------------------------
def test_fast_sine_over_a_long_horizon_arrives_whole():
    """A 50 Hz torque over 40 s (2000 periods; sampled at 2001 points it arrived with 6 % of
    its amplitude): the wheel's speed over the last 5 periods and the input series match the
    closed form to 1e-3 of the amplitude 1/(J·ω)."""
    system = jd.compile(_wheel())
    t_out = np.concatenate([np.linspace(0, 39.9, 400), np.linspace(39.9, 40, 201)[1:]])
    res = system.simulate(40.0, t_out=t_out, inputs={"motor.tau": _sine}, rtol=1e-8,
                          atol=1e-10)
    last = res.t > 39.9
    assert np.abs(res["axle.w"][last] - _spin(res.t[last])).max() < 1e-3 / (J * OMEGA)
    assert np.allclose(res["motor.tau"], _sine(res.t), atol=1e-12)


@pytest.mark.parametrize("islands", [True, False])
def test_callable_inputs_in_the_event_loop_and_islands(islands):
    """The same torque on a model with a hybrid element (the event loop; islands: the wheel
    and the cart in loops of their own) for 1 s: the closed form to 1e-3 of the amplitude."""
    system = jd.compile(_wheel(stop=True))
    res = system.simulate(1.0, n_out=2001, inputs={"motor.tau": _sine}, rtol=1e-8,
                          atol=1e-10, islands=islands)
    assert np.abs(res["axle.w"] - _spin(res.t)).max() < 1e-3 / (J * OMEGA)


@pytest.mark.parametrize("period", [None, 0.01])
def test_callable_inputs_with_a_controller_on_another_input(period):
    """A Python controller, continuous or sampled, holds the cart (f = −400·s − 40·v from
    s = 0: it stays at 0) while the callable drives the wheel: the closed form to 1e-3 of
    the amplitude."""
    model = _wheel(stop=True)
    model.push = LinearMotor()
    model.connect(model.push.flange_b, model.slider.axis)
    system = jd.compile(model)
    i, k = system.x_names.index("slider.s"), system.x_names.index("slider.v")
    res = system.simulate(0.5, n_out=1001, inputs={"motor.tau": _sine}, rtol=1e-8, atol=1e-10,
                          controller=lambda t, x: {"push.f": -400 * x[i] - 40 * x[k]},
                          period=period)
    assert np.abs(res["axle.w"] - _spin(res.t)).max() < 1e-3 / (J * OMEGA)
    assert res.controller_calls > 0


@pytest.mark.skipif(not __import__("shutil").which("gcc"), reason="no C compiler")
def test_callable_inputs_with_compiled_code(tmp_path):
    """The compiled f with a callable input: the closed form, and the VM's run to 1e-9."""
    system = jd.compile(_wheel())
    vm = system.simulate(1.0, n_out=501, inputs={"motor.tau": _sine}, rtol=1e-10, atol=1e-12)
    system.codegen(cache_dir=tmp_path)
    assert system.library is not None
    res = system.simulate(1.0, n_out=501, inputs={"motor.tau": _sine}, rtol=1e-10,
                          atol=1e-12)
    assert np.abs(res["axle.w"] - _spin(res.t)).max() < 1e-6 / (J * OMEGA)
    assert np.abs(res["axle.w"] - vm["axle.w"]).max() < 1e-9


def test_a_callable_that_fails_inside_the_integrator_is_named():
    """A callable that raises at t ≥ 0.5 s: a ModelError naming the input and the time."""
    system = jd.compile(_wheel())

    def torque(t):
        if t >= 0.5:
            raise ValueError("table ended")
        return 1.0
    with pytest.raises(jd.ModelError, match=r"motor\.tau.*t = 0\.5"):
        system.simulate(1.0, inputs={"motor.tau": torque})


def test_a_zigzag_table_warns_with_numbers():
    """A table sampled at 2 points per period of its signal (a local extremum at every
    sample): a warning with the fraction; a smooth table (20 per period) gives none."""
    system = jd.compile(_wheel())
    ts = np.linspace(0, 1, 101)
    with pytest.warns(UserWarning, match=r"motor\.tau.*local extremum at 100 %"):
        system.simulate(1.0, inputs={"motor.tau": (ts, np.cos(np.pi * 100 * ts))}, n_out=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        system.simulate(1.0, inputs={"motor.tau": (ts, np.sin(2 * np.pi * 5 * ts))}, n_out=3)


# ---- 2. time events ----------------------------------------------------------------------
class Bump(SignalBlock):
    """A force pulse of ``height`` [N] during [t1, t1 + width) written with ca.if_else on
    ctx.t; ``declare``: it declares its edges through the public time_events hook."""

    def __init__(self, t1=1.0, width=0.05, height=100.0, declare=False):
        self.t1, self.width, self.height, self.declare = t1, width, height, declare
        self.y = RealOutput(self, "y")

    def outputs(self, ctx):
        on = ca.logic_and(ctx.t >= self.t1, ctx.t < self.t1 + self.width)
        return {self.y: ca.if_else(on, self.height, 0.0)}

    def time_events(self, t0, t_end):
        edges = (self.t1, self.t1 + self.width) if self.declare else ()
        return [t for t in edges if t0 < t < t_end]


C = (2 * np.pi) ** 2   # [N/m] the spring: 1 Hz with the 1 kg cart


def _bumped(bump, stop=False):
    """A 1 kg cart on a spring (1 Hz) pushed by ``bump`` (the force on LinearMotor)."""
    model = jd.Model(world=World())
    model.slider, model.cart = Prismatic(axis=(1, 0, 0)), RigidBody(m=1.0)
    model.motor, model.spring, model.bump = LinearMotor(), TranslationalSpring(c=C), bump
    model.connect(model.world.frame_b, model.slider.frame_a)
    model.connect(model.slider.frame_b, model.cart.frame_a)
    model.connect(model.motor.flange_b, model.slider.axis)
    model.connect(model.spring.flange_b, model.slider.axis)
    model.connect(model.bump.y, model.motor.f)
    if stop:   # a hybrid element never reached: the event loop
        model.stop = Stop(lower=-5.0)
        model.connect(model.stop.flange_b, model.slider.axis)
    return jd.compile(model)


def _pulse_response(t, F=100.0, t1=1.0, d=0.05):
    w = np.sqrt(C)
    return np.where(t < t1, 0.0, np.where(t < t1 + d, F / C * (1 - np.cos(w * (t - t1))),
                                          F / C * (np.cos(w * (t - t1 - d))
                                                   - np.cos(w * (t - t1)))))


@pytest.mark.parametrize("declare, stop", [(True, False), (False, False), (True, True),
                                           (False, True)])
def test_a_short_bump_is_never_stepped_over(declare, stop):
    """A 50 ms, 100 N bump on the 1 Hz mass–spring (peak 0.79 m), declared by its block or
    not (then found by the scan of time-only signals), in a smooth run and in the event
    loop: the closed form to 1e-5 m."""
    system = _bumped(Bump(declare=declare), stop)
    res = system.simulate(3.0, n_out=301)
    assert np.abs(res["slider.s"] - _pulse_response(res.t)).max() < 1e-5
    if not stop:
        assert res.stats["restarts"] == 2
        assert ("jumps_found" in res.stats) is not declare
    if not declare and not stop:
        assert res.stats["jumps_found"] == pytest.approx([1.0, 1.05], abs=1e-9)


@pytest.mark.parametrize("stop", [False, True])
def test_max_step_resolves_a_pulse_too_short_for_the_scan(stop):
    """A 2 ms pulse with 11 outputs over 3 s (the scan's spacing, 19 ms, misses it; so does
    CVODES: the mass stays at rest): max_step = 0.5 ms makes CVODES see it, in a smooth run
    and in the event loop's segments — the closed form to 1e-3 of its peak."""
    system = _bumped(Bump(width=2e-3, height=1000.0), stop)
    peak = np.abs(_pulse_response(np.linspace(1, 3, 2001), 1000.0, 1.0, 2e-3)).max()
    res = system.simulate(3.0, n_out=11, max_step=5e-4)
    assert "jumps_found" not in res.stats or stop
    ref = _pulse_response(res.t, 1000.0, 1.0, 2e-3)
    assert np.abs(res["slider.s"] - ref).max() < 1e-3 * peak


def test_library_sources_declare_their_time_events():
    """Step, Pulse, Table and KinematicPTP return the instants where they jump or kink
    (their definitions), those in the open horizon only."""
    assert Step(t_step=0.5).time_events(0.0, 1.0) == [0.5]
    assert Step(t_step=0.5).time_events(0.5, 1.0) == []
    assert Pulse(width=25.0, period=0.4, start_time=0.1).time_events(0.0, 1.0) == \
        pytest.approx([0.1, 0.2, 0.5, 0.6, 0.9])
    assert Table([0.0, 0.3, 0.7, 2.0], [0, 1, 1, 0]).time_events(0.0, 1.0) == [0.3, 0.7]
    ptp = KinematicPTP(0.0, 1.0, qd_max=1.0, qdd_max=2.0, start_time=0.2)
    assert ptp.time_events(0.0, 5.0) == pytest.approx([0.2, 0.7, 1.2, 1.7])


def test_a_step_restarts_the_smooth_integration():
    """A Step of 0.5 N·m at 1 s on the wheel: one restart; ψ̇ = 0.5·(t − 1)/J after it."""
    model = _wheel()
    model.source = Step(height=0.5, t_step=1.0)
    model.connect(model.source.y, model.motor.tau)
    res = jd.compile(model).simulate(2.0, n_out=21, rtol=1e-10, atol=1e-12)
    assert res.stats["restarts"] == 1
    assert np.allclose(res["axle.w"], 0.5 * np.maximum(res.t - 1, 0) / J, atol=1e-8)


# ---- 3. compiled code with sampled blocks ------------------------------------------------
@pytest.mark.skipif(not __import__("shutil").which("gcc"), reason="no C compiler")
def test_codegen_with_a_sampled_pid(tmp_path, monkeypatch):
    """A DiscretePID holding the cart at 1 m (a spring pulls it back), compiled without
    jac_f in its library (as a large model's is: EAGER_JACOBIAN_OPS = 0) and run on BDF:
    it used to fail at t = 0 ("Derivatives cannot be calculated for f"). Reference: the VM's
    run with the same method and tolerances, to 1e-8 m."""
    from jourdain.blocks import Add, Constant, PositionSensor
    from jourdain.solver.simulation import codegen
    model = jd.Model(world=World())
    model.slider, model.cart = Prismatic(axis=(1, 0, 0)), RigidBody(m=1.0)
    model.motor, model.sensor = LinearMotor(), PositionSensor()
    model.pid = DiscretePID(k_p=20.0, k_i=5.0, k_d=4.0, T_f=0.01, sample_period=0.01)
    model.ref, model.error = Constant(k=1.0), Add(1.0, -1.0)
    model.connect(model.world.frame_b, model.slider.frame_a)
    model.connect(model.slider.frame_b, model.cart.frame_a)
    model.connect(model.motor.flange_b, model.slider.axis)
    model.connect(model.sensor.flange, model.slider.axis)
    for a, b in ((model.ref.y, model.error.u1), (model.sensor.s, model.error.u2),
                 (model.error.y, model.pid.e), (model.pid.y, model.motor.f)):
        model.connect(a, b)
    system = jd.compile(model)
    options = dict(n_out=201, method=jd.Method.BDF, rtol=1e-10, atol=1e-12)
    vm = system.simulate(2.0, **options)
    monkeypatch.setattr(codegen, "EAGER_JACOBIAN_OPS", 0)
    system.codegen(cache_dir=tmp_path)
    assert system.library is not None and codegen.compiled_jacobian(system.f) is None
    res = system.simulate(2.0, **options)
    assert np.abs(res["slider.s"] - vm["slider.s"]).max() < 1e-8
    assert abs(res["slider.s"][-1] - 1.0) < 0.05   # the PID holds it near the set point


# ---- 4. progress -------------------------------------------------------------------------
def test_progress_off_a_terminal_is_whole_lines(monkeypatch, capsys):
    """Where stderr is not a terminal (pytest's capture), the elapsed-time display writes
    whole lines "simulate: N s elapsed …" (no carriage returns, no repeated prefix)."""
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "LINE_PERIOD", 0.05)
    with progress.Watch(True, "simulate"):
        time.sleep(0.3)
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) >= 3 and "\r" not in err
    assert all(line.startswith("simulate: ") and "s elapsed" in line and
               "simulate: simulate" not in line for line in lines)
    assert lines[-1].endswith(", done")


def test_progress_true_off_a_terminal_writes_the_fraction(capsys):
    """progress=True on a short run: lines with the fraction of the horizon, ending at 100 %
    (and the run equals the plain one: ψ̇ = t/J under 1 N·m, closed form)."""
    system = jd.compile(_wheel())
    res = system.simulate(1.0, inputs={"motor.tau": 1.0}, progress=True, n_out=41)
    assert np.allclose(res["axle.w"], res.t / J, atol=1e-8)
    lines = capsys.readouterr().err.splitlines()
    assert lines and lines[-1].startswith("simulate: 100 % (1 of 1 s (model))")


def test_global_progress_switch(monkeypatch, capsys):
    """jd.options.progress = False silences progress=True; JOURDAIN_PROGRESS=0 does when
    the option is unset; bad values are named errors."""
    system = jd.compile(_wheel())
    monkeypatch.setattr(jd.options, "_progress", None)
    jd.options.progress = False
    system.simulate(1.0, inputs={"motor.tau": 1.0}, progress=True, n_out=5)
    assert capsys.readouterr().err == ""
    from jourdain.solver.studies.sweep import _progress
    assert type(_progress(3, True)).__name__ == "Silent"   # sweeps too
    jd.options.progress = None
    monkeypatch.setenv("JOURDAIN_PROGRESS", "0")
    assert jd.options.progress is False
    system.simulate(1.0, inputs={"motor.tau": 1.0}, progress=True, n_out=5)
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("JOURDAIN_PROGRESS", "1")
    assert jd.options.progress is True
    monkeypatch.setenv("JOURDAIN_PROGRESS", "maybe")
    with pytest.raises(jd.ModelError, match="JOURDAIN_PROGRESS"):
        jd.options.progress
    with pytest.raises(jd.ModelError, match="jd.options.progress"):
        jd.options.progress = "no"


@pytest.mark.parametrize("method", ["PARTITIONING", "BAUMGARTE", "DAE"])
def test_callable_inputs_in_closed_loops(method):
    """A four-bar driven by a 5 Hz torque given as a callable and as a table of 20001
    samples (its linear interpolation is within 2e-7 N·m of the sine): the crank angles agree
    to 1e-5 rad with every constraint method."""
    from jourdain.library import FourBar
    model = jd.Model.on_world(World(), fb=FourBar())
    model.motor = Motor()
    model.connect(model.motor.flange_b, model.fb.crank.axis)
    system = jd.compile(model, constraints=getattr(jd.ConstraintMethod, method))

    def torque(t):
        return 0.5 * np.sin(2 * np.pi * 5 * t)
    ts = np.linspace(0, 1, 20001)
    a = system.simulate(1.0, inputs={"motor.tau": torque}, n_out=101)
    b = system.simulate(1.0, inputs={"motor.tau": (ts, torque(ts))}, n_out=101)
    assert np.abs(a["fb.crank.phi"] - b["fb.crank.phi"]).max() < 1e-5
