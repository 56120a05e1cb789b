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


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("fmu_cache")


def _run(path, kind, t_end, names, start_values=None, tol=1e-10):
    return fmpy.simulate_fmu(str(path), fmi_type=kind, stop_time=t_end, output_interval=0.01,
                             relative_tolerance=tol, start_values=start_values or {},
                             output=names)


@pytest.fixture(scope="module", params=METHODS, ids=lambda m: m.name.lower())
def four_bar(request, tmp_path_factory, cache):
    """A four-bar exported with its default start (the reference assembly)."""
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar()), constraints=request.param)
    path = tmp_path_factory.mktemp("fmu") / "fb.fmu"
    return system, system.export_fmu(path, cache_dir=cache)


@pytest.mark.parametrize("kind", KINDS)
def test_four_bar_start_value_is_assembled(four_bar, kind):
    """Issue 23: FMPy sets the crank angle (1.0 rad, far from the export's 0.344) and speed
    of a four-bar FMU; the FMU solves the closure equations with them held in
    fmi2ExitInitializationMode (the coupler and rocker were left at their export values
    before, and the run ended 2.0 of the signal range away from simulate). Reference:
    simulate from system.initialize(fix=...) with the same values: states within 1e-6 of
    each signal's range (measured ~5e-8), the FMU's start state on the loop (closure
    residual < 1e-10 m), the crank held exactly."""
    system, path = four_bar
    assert validate_fmu(str(path)) == []
    md = fmpy.read_model_description(str(path))
    initial = {v.name: v.initial for v in md.modelVariables}
    assert [initial[n] for n in system.dependent_coordinates] == ["calculated"] * 2
    fix = {"fb.crank.phi": 1.0, "fb.crank.w": 2.0}
    out = _run(path, kind, 2.0, system.x_names, start_values=fix)
    x0 = system.initialize(fix=fix).x0
    ref = system.simulate(2.0, x0=x0, t_out=out["time"], rtol=1e-11, atol=1e-11)
    for name in system.x_names:
        assert np.abs(out[name] - ref[name]).max() < 1e-6 * np.ptp(ref[name]), name
    start = np.array([out[n][0] for n in system.x_names])
    assert start[0] == 1.0
    p = system.parameters()
    closure = np.array(system.functions["residuals"](start, p)[0]).ravel()
    assert np.abs(closure).max() < 1e-10


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
