"""FMU export where features meet (issues 23 and 30), run by FMPy: start values of a closed
loop re-assembled at initialization, sampled controllers as FMI time events, hybrid elements
refused by name. References: the same System's simulate from the same start (for a closed
loop: ``system.initialize(fix=...)``), within the tolerances stated per test; the closure
residual of the FMU's start state.
"""
from __future__ import annotations

import shutil

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import FourBar

fmpy = pytest.importorskip("fmpy")
from fmpy.validation import validate_fmu  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="an FMU needs gcc")
KINDS = ["ModelExchange", "CoSimulation"]
METHODS = [jd.ConstraintMethod.PARTITIONING, jd.ConstraintMethod.BAUMGARTE]
GROUND = "fb.ground.r[0]"   # the four-bar's ground link [m], 0.8 by default


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("fmu_cache")


def _run(path, kind, t_end, names, start_values=None, tol=1e-10):
    return fmpy.simulate_fmu(str(path), fmi_type=kind, stop_time=t_end, output_interval=0.01,
                             relative_tolerance=tol, start_values=start_values or {},
                             output=names)


@pytest.fixture(scope="module", params=METHODS, ids=lambda m: m.name.lower())
def four_bar(request, tmp_path_factory, cache):
    """A four-bar exported with its default start (the reference assembly); the ground
    link's length is a parameter."""
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar()), constraints=request.param,
                        parameters=[GROUND])
    path = tmp_path_factory.mktemp("fmu") / "fb.fmu"
    return system, system.export_fmu(path, cache_dir=cache)


@pytest.mark.parametrize("kind", KINDS)
def test_four_bar_start_value_is_assembled(four_bar, kind):
    """Issue 23: FMPy sets the crank angle (1.0 rad, far from the export's 0.344) and speed
    of a four-bar FMU, and a shorter ground link (0.7 m for 0.8); the FMU solves the closure
    equations with them held in fmi2ExitInitializationMode (the coupler and rocker were left
    at their export values before, and the run ended 2.0 of the signal range away from
    simulate). Reference: simulate from system.initialize(fix=...) with the same values and
    parameter: states within 1e-6 of each signal's range (measured ~5e-8), the FMU's start
    state on the loop (closure residual < 1e-10 m), the crank held exactly."""
    system, path = four_bar
    assert validate_fmu(str(path)) == []
    md = fmpy.read_model_description(str(path))
    initial = {v.name: v.initial for v in md.modelVariables}
    assert [initial[n] for n in system.dependent_coordinates] == ["calculated"] * 2
    fix, params = {"fb.crank.phi": 1.0, "fb.crank.w": 2.0}, {GROUND: 0.7}
    out = _run(path, kind, 2.0, system.x_names, start_values=fix | params)
    x0 = system.initialize(fix=fix, params=params).x0
    ref = system.simulate(2.0, x0=x0, params=params, t_out=out["time"], rtol=1e-11,
                          atol=1e-11)
    for name in system.x_names:
        assert np.abs(out[name] - ref[name]).max() < 1e-6 * np.ptp(ref[name]), name
    start = np.array([out[n][0] for n in system.x_names])
    assert start[0] == 1.0
    closure = np.array(system.functions["residuals"](start, [0.7])[0]).ravel()
    assert np.abs(closure).max() < 1e-10


@pytest.mark.parametrize("kind", KINDS)
def test_driven_four_bar_fmu_starts_assembled_on_the_reference(kind, tmp_path, cache):
    """A four-bar whose crank follows the input drv.phi_ref through the MSL's filtered
    Position driver: the FMU sets the crank on the reference (1.2 rad) and then assembles
    the loop about it (drivers first, as system.initialize holds driven coordinates).
    Reference: simulate from system.initialize(u0=...), to 1e-6 of each signal's range
    (measured 1e-15: both start from the same assembled state)."""
    from jourdain.blocks.drivers import rotational
    model = jd.Model.on_world(World(), fb=FourBar())
    model.drv = rotational.Position(f_crit=5.0)
    model.connect(model.drv.flange, model.fb.crank.axis)
    system = jd.compile(model)
    path = system.export_fmu(tmp_path / "driven.fmu", cache_dir=cache)
    signal = np.array([(0.0, 1.2), (3.0, 1.2)], dtype=[("time", float), ("drv.phi_ref", float)])
    out = fmpy.simulate_fmu(str(path), fmi_type=kind, stop_time=1.0, output_interval=0.01,
                            relative_tolerance=1e-10, output=system.x_names, input=signal)
    x0 = system.initialize(u0=[1.2]).x0
    ref = system.simulate(1.0, x0=x0, inputs={"drv.phi_ref": 1.2}, t_out=out["time"],
                          rtol=1e-11, atol=1e-11)
    assert out["fb.crank.phi"][0] == pytest.approx(1.2, abs=1e-12)
    for name in system.x_names:
        assert np.abs(out[name] - ref[name]).max() < 1e-6 * max(np.ptp(ref[name]), 1.0), name


def test_four_bar_dependent_start_value_refused(four_bar, capsys):
    """A dependent coordinate is calculated, not a start value: FMPy refuses to set it, and
    the wrapper refuses by name when an importer tries (fmi2SetReal returns fmi2Error and
    logs the variable)."""
    system, path = four_bar
    with pytest.raises(Exception, match="fb.rocker.phi"):
        _run(path, "CoSimulation", 0.1, ["fb.crank.phi"], start_values={"fb.rocker.phi": 0.1})
    from fmpy import extract, read_model_description
    from fmpy.fmi2 import FMU2Slave
    md = read_model_description(str(path))
    refs = {v.name: v.valueReference for v in md.modelVariables}
    slave = FMU2Slave(guid=md.guid, unzipDirectory=extract(str(path)),
                      modelIdentifier=md.coSimulation.modelIdentifier, instanceName="fb")
    slave.instantiate(loggingOn=True)
    capsys.readouterr()
    with pytest.raises(Exception, match="fmi2SetReal failed"):
        slave.setReal([refs["fb.rocker.phi"]], [0.1])
    assert "fb.rocker.phi is calculated" in capsys.readouterr().out
    slave.freeInstance()


def test_four_bar_unassemblable_start_fails_by_name(tmp_path, cache, capsys):
    """A crank angle the loop cannot close at (a four-bar whose crank is longer than the
    coupler and rocker can follow: at φ = 3 rad B–D = 1.29 m > l2 + l3 = 0.9 m): the FMU's
    initialization fails (fmi2Error) with a message that names the held coordinate, as
    system.initialize refuses it, instead of starting off the loop."""
    model = jd.Model.on_world(World(), fb=FourBar(l0=0.8, l1=0.5, l2=0.4, l3=0.5))
    system = jd.compile(model)
    with pytest.raises(jd.ModelError, match="fb.crank.phi"):
        system.initialize(fix={"fb.crank.phi": 3.0})
    path = system.export_fmu(tmp_path / "short.fmu", cache_dir=cache)
    capsys.readouterr()
    with pytest.raises(Exception, match="fmi2ExitInitializationMode"):
        _run(path, "CoSimulation", 0.1, ["fb.crank.phi"], start_values={"fb.crank.phi": 3.0})
    message = capsys.readouterr().out
    assert "cannot be assembled" in message and "fb.crank.phi" in message


def _sampled_pendulum(zoh: bool):
    """A damped pendulum whose motor torque is a DiscretePID (20 Hz, saturated at 3 N·m) on
    the angle; with ``zoh`` the angle reaches it through a ZeroOrderHold sampled at the same
    instants (a chain: the hold must update before the PID reads it) and a second hold
    starting at 0.013 s samples the torque (instants between the PID's)."""
    from jourdain.blocks import AngleSensor, Motor
    from jourdain.blocks.hybrid import DiscretePID, ZeroOrderHold
    from jourdain.library import Pendulum
    model = jd.Model.on_world(World(), p=Pendulum(d=0.1))
    model.sensor, model.motor = AngleSensor(), Motor()
    model.pid = DiscretePID(k_p=-4.0, k_i=-3.0, k_d=-0.4, T_f=0.01, sample_period=0.05,
                            y_max=3.0)
    model.connect(model.sensor.flange, model.p.joint.axis)
    model.connect(model.motor.flange_b, model.p.joint.axis)
    model.connect(model.pid.y, model.motor.tau)
    if zoh:
        model.hold = ZeroOrderHold(sample_period=0.05)
        model.probe = ZeroOrderHold(sample_period=0.02, start_time=0.013)
        model.connect(model.sensor.phi, model.hold.u)
        model.connect(model.hold.y, model.pid.e)
        model.connect(model.pid.y, model.probe.u)
    else:
        model.connect(model.sensor.phi, model.pid.e)
    return model


@pytest.mark.parametrize("zoh", [False, True], ids=["pid", "chain"])
@pytest.mark.parametrize("kind", KINDS)
def test_sampled_controller_fmu_matches_simulate(kind, zoh, tmp_path, cache):
    """Issue 23: a DiscretePID exports as FMI 2.0 time events (was: an invalid FMU with a
    duplicate variable pid.y whose PID stayed at 0). The description validates, names the
    held output once and the PID's other held values as discrete locals; FMPy's run (model
    exchange: nextEventTime and fmi2NewDiscreteStates; co-simulation: the wrapper steps to
    each sample instant) matches simulate's event loop in states, outputs and held values to
    1e-6 of each signal's range (measured 1e-10 to 3e-9), away from the sample instants
    themselves (where an output grid point sits on the jump). The PID does act: its output
    spans more than 1 N·m."""
    system = jd.compile(_sampled_pendulum(zoh))
    y0 = {"p.joint.phi": 1.0}
    path = system.export_fmu(tmp_path / "pid.fmu", y0=y0, cache_dir=cache)
    assert validate_fmu(str(path)) == []
    md = fmpy.read_model_description(str(path))
    described = {v.name: (v.causality, v.variability) for v in md.modelVariables}
    assert described["pid.y"] == ("output", "continuous")
    assert described["pid.integral"] == ("local", "discrete")
    names = system.x_names + system.output_names + ["pid.integral", "pid.derivative"]
    out = fmpy.simulate_fmu(str(path), fmi_type=kind, stop_time=2.0, output_interval=0.01,
                            relative_tolerance=1e-10, output=names, record_events=False)
    ref = system.simulate(2.0, y0=y0, t_out=out["time"], rtol=1e-11, atol=1e-11)
    t = out["time"]
    instants = [0.05 * np.arange(41)] + ([0.013 + 0.02 * np.arange(100)] if zoh else [])
    away = np.min(np.abs(t[:, None] - np.concatenate(instants)[None, :]), axis=1) > 1e-6
    for name in names:
        span = max(np.ptp(ref[name]), 1e-3)
        assert np.abs(out[name] - ref[name])[away].max() < 1e-6 * span, name
    assert np.ptp(ref["pid.y"]) > 1.0


@pytest.mark.parametrize("build", ["stop", "friction", "contact"])
def test_hybrid_elements_refused_by_name(build, tmp_path):
    """Issue 30: a bouncing ball (Stop with restitution), stick–slip friction and a ground
    contact are refused by name: the FMU has no state events, and the exported ball fell
    through its floor (18.9× the signal range) without a word. The message names the
    element and its class and says what is supported."""
    from hybrid_models import ball, pendulum

    from jourdain.blocks import FreeJoint, RigidBody
    from jourdain.blocks.hybrid import BearingFriction, GroundContact
    if build == "stop":
        model, named = ball(e=0.9), "floor (Stop)"
    elif build == "friction":
        model = jd.Model(world=World())
        joint, _ = pendulum(model)
        model.bearing = BearingFriction(tau_pos=[[0.0, 0.5]], peak=1.2)
        model.connect(model.bearing.flange_b, joint.axis)
        named = "bearing (BearingFriction)"
    else:
        model = jd.Model(world=World())
        model.free, model.body = FreeJoint(), RigidBody(m=1.0, I=(0.01, 0.01, 0.01))
        model.ground = GroundContact(e=0.5)
        model.connect(model.world.frame_b, model.free.frame_a)
        model.connect(model.free.frame_b, model.body.frame_a)
        model.connect(model.ground.frame_a, model.body.frame_a)
        named = "ground (GroundContact)"
    system = jd.compile(model)
    with pytest.raises(jd.ModelError, match="state events") as caught:
        system.export_fmu(tmp_path / "h.fmu")
    assert named in str(caught.value) and "sampled blocks" in str(caught.value)
    assert not (tmp_path / "h.fmu").exists()


@pytest.mark.parametrize("kind", KINDS)
def test_elasto_gap_exports(kind, tmp_path, cache):
    """An ElastoGap (a ball dropped 0.3 m onto a Hertzian spring–damper, bouncing on it) is
    not refused: its force is continuous and its guard only restarts simulate's integrator at
    the kink. Reference: simulate with its guard events; FMPy's run (its CVODE, or the FMU's
    Dormand–Prince, across the kinks by error control) within 1e-5 of each signal's range
    (measured 6e-8 in position, 5e-7 in speed), the ball inside the gap (below 0) in both."""
    from jourdain.blocks import Prismatic, RigidBody
    from jourdain.blocks.hybrid import ElastoGap
    model = jd.Model(world=World())
    model.slide, model.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=0.5)
    model.gap = ElastoGap(c=1e4, d=5.0, n=1.5)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.ball.frame_a)
    model.connect(model.gap.flange_b, model.slide.axis)
    system = jd.compile(model)
    y0 = {"slide.s": 0.3}
    path = system.export_fmu(tmp_path / "gap.fmu", y0=y0, cache_dir=cache)
    assert validate_fmu(str(path)) == []
    out = _run(path, kind, 2.0, system.x_names)
    ref = system.simulate(2.0, y0=y0, t_out=out["time"], rtol=1e-11, atol=1e-11)
    for name in system.x_names:
        assert np.abs(out[name] - ref[name]).max() < 1e-5 * np.ptp(ref[name]), name
    assert ref["slide.s"].min() < 0 and out["slide.s"].min() < 0
