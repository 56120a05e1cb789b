"""Property tests across families (issue 23): random compositions of 1-D shafts, springs,
dampers, clutches, elastic gaps, ideal gears, rigid and compliant stops, bearing friction,
ideal and DC motors (electrical), kinematic drivers and an independent pendulum
(tests/compositions.py). Each composition compiles and simulates, or stops with a named
jourdain error (ModelError, SimulationError); any other exception is a bug. References:

- *energy balance* (conservation law): ``res.check()`` closes E(t) − E(0) =
  ∫(P_sup − P_diss) dt − impacts' losses to CHECK_RTOL of the energy scale (beyond its
  quadrature estimate), and the closed rows' residuals to 1e-6;
- *islands*: the event loop run island by island agrees with the model as one system
  (islands=False) to 1e-6 in the states at tolerances 1e-12;
- *codegen*: the compiled C f agrees with CasADi's virtual machine to 1e-10 relative at
  random states, and a simulation with each to 1e-6.

The default suite runs a few fixed compositions (FIXED); ``-m slow`` draws many with
hypothesis (derandomized, as tests/test_properties.py).
"""
from __future__ import annotations

import shutil

import compositions as cm
import numpy as np
import pytest
from hypothesis import event, given, settings

import jourdain as jd

CHECK_RTOL = 1e-3
ISLAND_TOL = 1e-6
NAMED = (jd.ModelError, jd.SimulationError)

FIXED = {
    "driver_clutch_bearing": cm.Composition((1.0, 0.05), ("clutch",), ("none", "bearing"),
                                            "driver", (5.0, 5.0), True),
    "dc_motor_gap_stops": cm.Composition((0.05, 0.05), ("gap",), ("stop", "compliant_stop"),
                                         "dc_motor", (5.0, 2.0), True),
    "motor_gear_stop": cm.Composition((0.2, 0.2, 0.2), ("gear", "spring"),
                                      ("stop", "none", "bearing"), "motor", (0.0, 5.0, 0.0),
                                      False),
}


def _simulate(system, spec, **options):
    return system.simulate(options.pop("t_end", 1.0), inputs=cm.inputs(spec, system),
                           **cm.start(spec, system), **options)


def energy_balances(spec):
    """The balance and the residuals hold (res.check) over 1 s at tolerances 1e-9."""
    try:
        system = jd.compile(cm.build(spec))
        res = _simulate(system, spec, n_out=2001, rtol=1e-9, atol=1e-9)
    except NAMED as exc:
        return type(exc).__name__
    check = res.check(rtol=CHECK_RTOL, constraint_tol=1e-6)
    assert check.ok, f"{spec}\n{check}"
    return "hybrid" if spec.hybrid else "smooth"


def islands_agree(spec):
    """islands=True and islands=False give the same states over 0.5 s at 1e-12."""
    try:
        system = jd.compile(cm.build(spec))
        split, whole = (_simulate(system, spec, t_end=0.5, n_out=51, rtol=1e-12, atol=1e-12,
                                  islands=flag) for flag in (True, False))
    except NAMED as exc:
        return type(exc).__name__
    assert np.max(np.abs(split.x - whole.x)) < ISLAND_TOL, spec
    assert len(split.events or ()) == len(whole.events or ()), spec
    return "hybrid" if spec.hybrid else "smooth"


def codegen_agrees(spec, cache_dir):
    """C code for f agrees with the virtual machine, pointwise and along a run."""
    try:
        system = jd.compile(cm.build(spec))
    except NAMED as exc:
        return type(exc).__name__
    vm = system.functions["f"]
    if not vm.is_a("SXFunction"):
        return "MX f: no C code"
    reference = _simulate(system, spec, t_end=0.5, n_out=51, rtol=1e-10, atol=1e-10)
    system.codegen(cache_dir=cache_dir)
    assert system.library is not None and not system.f.is_a("SXFunction")
    rng = np.random.default_rng(0)
    p = np.array(reference.p)[:, -1] if np.ndim(reference.p) == 2 else reference.p
    u = np.zeros(len(system.u_names))
    for _ in range(5):
        x = rng.normal(size=system.nx)
        a, b = (np.array(fn(0.3, x, u, p), dtype=float).ravel() for fn in (system.f, vm))
        assert np.allclose(a, b, rtol=1e-10, atol=1e-10 * (1.0 + np.abs(b).max())), spec
    compiled = _simulate(system, spec, t_end=0.5, n_out=51, rtol=1e-10, atol=1e-10)
    assert np.max(np.abs(compiled.x - reference.x)) < 1e-6, spec
    return "compiled"


needs_cc = pytest.mark.skipif(shutil.which("gcc") is None, reason="no C compiler")


@pytest.mark.parametrize("name", sorted(FIXED))
def test_fixed_compositions_balance_their_energy(name):
    assert energy_balances(FIXED[name]) in ("hybrid", "smooth")   # it ran


@pytest.mark.parametrize("name", sorted(FIXED))
def test_fixed_compositions_split_into_islands_alike(name):
    assert islands_agree(FIXED[name]) in ("hybrid", "smooth")


@needs_cc
def test_fixed_composition_codegen_agrees(tmp_path):
    assert codegen_agrees(FIXED["driver_clutch_bearing"], tmp_path) == "compiled"


@pytest.mark.slow
@settings(max_examples=60)
@given(cm.compositions())
def test_compositions_balance_their_energy(spec):
    event(energy_balances(spec))


@pytest.mark.slow
@settings(max_examples=40)
@given(cm.compositions())
def test_compositions_split_into_islands_alike(spec):
    event(islands_agree(spec))


@pytest.mark.slow
@needs_cc
@settings(max_examples=10)
@given(cm.compositions(max_shafts=2))
def test_compositions_codegen_agrees(spec):
    import tempfile
    with tempfile.TemporaryDirectory() as cache:
        event(codegen_agrees(spec, cache))
