"""Property-based tests: random trees, closed loops and rolling contacts (tests/mechanisms.py).

Each generated model must compile and simulate, or stop with a named jourdain error
(ModelError, SimulationError); any other exception, a non-finite result without an error, or a
hang is a bug. References, per property:

- *conservation law*: a model without dampers, friction, drag and motors keeps T + V. The
  integrator controls the local error per step, so the energy error is a global error: it
  must stay below ENERGY_GAIN·rtol of the energy exchanged and *shrink* when the tolerance
  is tightened (a formulation error does not; measured over 0.5 s: at most 4e2·rtol, and a
  100× tighter tolerance divides the error by 7 or more);
- *the other formulation*: Lagrange's equations vs Jourdain's projection on trees in
  minimal coordinates, the recursive (ABA) vs the projection back end on every tree, both
  to round-off amplified by the conditioning of M (ROUNDOFF_GAIN), plus the gravity torque
  of a center of mass within AXIS_TOL of a wheel's axis, which counts as on it;
- *the other method*: coordinate partitioning vs the index-1 DAE (IDAS) on loops;
- *constraint residual*: closure, contact height and no-slip at the Newton tolerance, and
  the loop closed at the generated start, whose poses are computed independently in numpy.

The default profile is derandomized (the same cases on every machine and run, no example
database); ``-m slow`` runs the same properties on many more cases. Set
JOURDAIN_HYPOTHESIS=explore to draw new random cases (failures are then kept in
.hypothesis/ and replayed first).
"""
from __future__ import annotations

import faulthandler
from contextlib import contextmanager

import mechanisms as mm
import numpy as np
import pytest
from conftest import TERMINAL_STDERR
from hypothesis import event, given, settings

import jourdain as jd
from jourdain.solver import Backend

ENERGY_GAIN = 1e4        # |ΔE| ≤ ENERGY_GAIN·rtol·(max T + ptp V): global vs local error
CONVERGENCE = 0.5        # the energy error at rtol/100 must be below half of that at rtol
ROUNDOFF_GAIN = 1e-13    # |Δf| ≤ ROUNDOFF_GAIN·cond(M)·(1 + |f|) between two formulations
AXIS_TOL = 1e-12         # relative length below which a center of mass is on a joint axis
RESIDUAL_TOL = 1e-9      # closure / contact residual along a run [m, rad, m/s] (Newton 1e-13)
HANG_SECONDS = 300       # one case longer than this is a hang: dump the stacks and stop
NAMED = (jd.ModelError, jd.SimulationError)


@contextmanager
def no_hang():
    """A hung case (e.g. inside CVODES, which Python signals cannot interrupt) ends the test
    process with every thread's stack instead of blocking the suite forever."""
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True, file=TERMINAL_STDERR[0])
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def _run(system, spec, t_end, tol, start=None):
    """Simulate from the spec's start (``start``: the y0, z0 of another System of the same
    model, so that two methods begin in the same state)."""
    start = start or mm.start(spec, system)
    res = system.simulate(t_end, **start, inputs=mm.inputs(spec, system), rtol=tol, atol=tol,
                          n_out=11)
    assert np.isfinite(res.x).all(), "non-finite states without an error"
    return res


def _energy_error(res) -> tuple[float, float]:
    """(max |E(t) − E(0)|, the energy exchanged: max T + ptp V) [J]."""
    E, T, V = res["energy.total"], res["energy.kinetic"], res["energy.potential"]
    return float(np.abs(E - E[0]).max()), float(T.max() + np.ptp(V))


def _check_energy(system, spec, t_end, tol, first=None, start=None):
    """The conservation law to the integrator's tolerance, converging with it."""
    coarse = first if first is not None else _run(system, spec, t_end, tol, start)
    fine = _run(system, spec, t_end, tol / 100, start)
    (d_coarse, scale), (d_fine, _) = _energy_error(coarse), _energy_error(fine)
    floor = 1e-12 * (1.0 + scale)       # round-off of E itself
    assert d_coarse <= ENERGY_GAIN * tol * scale + floor, (d_coarse, scale)
    assert d_fine <= max(CONVERGENCE * d_coarse, ENERGY_GAIN * tol / 100 * scale) + floor, \
        ("energy error does not shrink with the tolerance", d_coarse, d_fine, scale)


def _max_residual(res) -> float:
    rows = [np.abs(v).max() for k, v in res.series.items() if k.startswith("residual")]
    return max(rows, default=0.0)


def _cases(strategy, prop, default: int, slow: int):
    """Two tests of one property: ``default`` cases in the default suite and ``slow`` cases
    under -m slow (the first ``default`` of them the same, being derandomized alike)."""
    fast = settings(max_examples=default)(given(strategy)(prop))
    many = pytest.mark.slow(settings(max_examples=slow)(given(strategy)(prop)))
    return fast, many


# ---------------------------------------------------------------- trees
def tree_simulates(spec):
    """Trees are regular (positive masses and inertias): they compile and simulate without
    any error; a conservative one keeps its energy."""
    with no_hang():
        system = jd.compile(mm.build(spec))
        res = _run(system, spec, 0.5, 1e-8)
        if spec.conservative:
            _check_energy(system, spec, 0.5, 1e-8, res)
    event(f"{len(spec.links)} bodies, {'conservative' if spec.conservative else 'dissipative'}")


test_trees, test_trees_many = _cases(mm.trees(), tree_simulates, 120, 2000)


def formulations_agree(spec):
    """Projection (Jourdain/Kane) vs recursive (ABA) on every tree, and vs Lagrange's
    equations where the coordinates are minimal, at the spec's state."""
    model = mm.build(spec)
    ref = jd.compile(model, backend=Backend.PROJECTION)
    others = [jd.compile(model, backend=Backend.RECURSIVE)]
    if spec.minimal:
        others.append(jd.compile(model, formulation=jd.Formulation.LAGRANGE,
                                 backend=Backend.PROJECTION))
    x = ref.state(**mm.start(spec, ref))
    u = np.array([f(0.3) for f in mm.inputs(spec, ref).values()])
    fa = np.array(ref.f(0.3, x, u, ref.p_default)).ravel()
    M = np.array(ref.M(x[:len(ref.y_names)], ref.p_default))
    # a center of mass within AXIS_TOL of a revolute axis counts as on it (a wheel,
    # solver/model/mechanics.py): the torque of that offset under gravity may differ
    snap = AXIS_TOL * np.linalg.norm(spec.g) * sum(
        link.body.m * (1.0 + np.linalg.norm(link.body.r_cm)) for link in spec.links)
    for other in others:
        fb = np.array(other.f(0.3, x, u, other.p_default)).ravel()
        tol = ROUNDOFF_GAIN * np.linalg.cond(M) * (1.0 + np.abs(fa).max()) + \
            np.linalg.norm(np.linalg.inv(M), 2) * snap
        assert np.abs(fa - fb).max() <= tol, (other.backend, np.abs(fa - fb).max(), tol)
    event("minimal coordinates" if spec.minimal else "quaternion joints")


test_formulations, test_formulations_many = _cases(mm.trees(4), formulations_agree, 100, 2000)


# ---------------------------------------------------------------- loops
def loop_simulates(spec):
    """A loop closed at its generated start compiles and simulates (or stops with a named
    error); the closure holds along the run; a conservative one keeps its energy."""
    with no_hang():
        try:
            system = jd.compile(mm.build(spec))
        except NAMED as exc:
            event(f"compile: {type(exc).__name__}")
            return
        start = mm.start(spec, system)
        y0 = np.array([start["y0"][n] for n in system.y_names])
        assert np.abs(np.array(system.c(y0, system.p_default))).max() < 1e-12
        try:
            res = _run(system, spec, 0.3, 1e-8)
        except NAMED as exc:
            event(f"simulate: {type(exc).__name__}")
            return
        assert _max_residual(res) <= RESIDUAL_TOL
        if spec.conservative:
            try:   # at rtol/100 a degenerating partition may stop with a named error
                _check_energy(system, spec, 0.3, 1e-8, res)
            except NAMED as exc:
                event(f"energy check at rtol/100: {type(exc).__name__}")
        event(f"{len(system.z_names)} DOF, cut {spec.cut}")


test_loops, test_loops_many = _cases(mm.loops(), loop_simulates, 40, 400)


def loop_methods_agree(spec):
    """Partitioning vs the index-1 DAE from the same assembled start over 0.2 s, and the
    DAE's energy for a conservative loop (conservation law)."""
    with no_hang():
        try:
            part = jd.compile(mm.build(spec))
            dae = jd.compile(mm.build(spec), constraints=jd.ConstraintMethod.DAE)
            start = mm.start(spec, part)   # the DAE's speeds are all joint speeds
            a = _run(part, spec, 0.2, 1e-10, start)
            b = _run(dae, spec, 0.2, 1e-10, start)
        except NAMED as exc:
            event(type(exc).__name__)
            return
        for name in part.y_names:
            assert np.abs(a[name] - b[name]).max() < 1e-6, name
        if spec.conservative:
            _check_energy(dae, spec, 0.2, 1e-8, start=start)


test_loop_methods, test_loop_methods_many = _cases(mm.loops(3), loop_methods_agree, 15, 300)


# ---------------------------------------------------------------- rolling contact
def disk_rolls(spec):
    """A disk rolling without slip (with or without a pendulum on it) conserves energy;
    contact height and slip velocities stay at the Newton tolerance. A disk that falls flat
    leaves the contact model (its rolling direction is undefined there): a named error."""
    with no_hang():
        system = jd.compile(mm.build(spec))
        try:
            res = _run(system, spec, 0.5, 1e-8)
            assert _max_residual(res) <= RESIDUAL_TOL
            _check_energy(system, spec, 0.5, 1e-8, res)
        except NAMED as exc:
            event(f"simulate: {type(exc).__name__}")
            return
    event("with a pendulum" if spec.bob is not None else "disk alone")


test_rolling, test_rolling_many = _cases(mm.rolling(), disk_rolls, 60, 1000)
