"""The IFToMM spatial benchmark problems (issue 29) on short horizons against their
references: Bricard's overconstrained mechanism (A04: its redundant closure equation
reported, the motion against the same mechanism in plain CasADi and between jourdain's three
constraint methods, energy conserved), the stiff flyball governor (A05: against its four
coordinates in plain CasADi, the peer's angular momentum and energy balance as its own
check) and the spatial rigid slider-crank (against the minimal-coordinate formulation with
closed-form kinematics). The peers live in benchmarks/mbs (lagrange_peer.py: Lagrange's
equations written directly in CasADi, integrated by CVODES at 1e-12)."""
import sys
from pathlib import Path

import numpy as np
import pytest

import jourdain as jd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks" / "mbs"))

import a04_bricard  # noqa: E402
import a05_flyball  # noqa: E402
import slider_crank  # noqa: E402


def _max_diff(a: dict, b: dict) -> float:
    return max(float(np.abs(np.asarray(a[k]) - np.asarray(b[k])).max()) for k in b)


@pytest.fixture(scope="module")
def bricard_reference():
    t = np.linspace(0.0, 2.0, 201)
    return a04_bricard.reference(t)


def test_bricard_reports_its_redundant_closure_equation():
    """Reference: Bricard's trihedral 6R loop is overconstrained: Grübler–Kutzbach gives
    6·5 − 5·6 = 0 degrees of freedom, the mechanism has 1, so exactly one of the cut
    revolute's 5 closure equations is implied by the others. jourdain compiles it (no
    failure), names the dropped row and finds one degree of freedom."""
    system = a04_bricard.compile_bricard()
    assert system.redundant_constraints == ["b.j5 row 4"]
    assert system.f_dof == 1 and len(system.independent_speeds) == 1
    assert "1 equations are redundant" in system.report()


@pytest.mark.parametrize("method", list(jd.ConstraintMethod))
def test_bricard_motion_against_plain_casadi_and_between_methods(method, bricard_reference):
    """Reference: the same mechanism as five tree angles with 4 independent closure
    equations in plain CasADi (index-1, CVODES at 1e-12; its own energy drift < 1e-7 J and
    closure residual < 1e-8 over 2 s). From rest under gravity over 2 s (the links swing
    through j0 = 1.04 rad and back) every method of jourdain at rtol 1e-10 keeps P3 within
    1e-6 m of the peer (the issue's 'within 1e-6 between methods'; measured 2e-9 … 2e-8
    over 10 s) and the energy within 1e-6 J."""
    ref, drift, residual = bricard_reference
    assert drift < 1e-7 and residual < 1e-8
    system = a04_bricard.compile_bricard(method)
    res, p3 = a04_bricard.jourdain_run(system, t_end=2.0, n_out=201, rtol=1e-10, atol=1e-10)
    assert res["b.j0.phi"].max() > 1.0                 # it moves: one degree of freedom
    assert _max_diff(p3, ref) < 1e-6
    energy = res["energy.total"]
    assert np.abs(energy - energy[0]).max() < 1e-6


def test_spatial_slider_crank_against_closed_form_kinematics():
    """Reference: Lagrange's equation in the crank angle alone, with the rod's pose in closed
    form (ball joint at the crank, universal joint at the slider; benchmarks/mbs/
    slider_crank.py), CVODES at 1e-12, energy conserved to < 1e-8 J. jourdain's loop
    (ball joint inside it, quaternion Newton) at rtol 1e-10 over 1 s (6 rad/s start,
    about 1.4 turns): slider within 1e-6 m and crank within 1e-5 rad of the reference."""
    t = np.linspace(0.0, 1.0, 101)
    ref, drift = slider_crank.reference(t)
    assert drift < 1e-8
    system = slider_crank.compile_slider_crank()
    res, values = slider_crank.jourdain_run(system, t_end=1.0, n_out=101, rtol=1e-10,
                                            atol=1e-10)
    assert np.abs(values["slider"] - ref["slider"]).max() < 1e-6
    assert np.abs(values["crank"] - ref["crank"]).max() < 1e-5
    assert values["crank"][-1] > 2 * np.pi


def test_stiff_flyball_governor_against_plain_casadi():
    """Reference: the four coordinates (shaft, sleeve, two hinges) in plain CasADi, BDF at
    1e-12; the peer conserves the shaft's angular momentum (< 1e-7) and balances energy with
    the dampers' losses (< 1e-6 J). jourdain at its defaults over 2 s: the sleeve's height
    within 1e-5 m and the shaft's speed within 1e-5 rad/s (measured 7e-6 over 10 s), while
    the governor opens (the sleeve rises) and the shaft slows."""
    t = np.linspace(0.0, 2.0, 201)
    ref, checks = a05_flyball.reference(t)
    assert checks["momentum"] < 1e-7 and checks["balance"] < 1e-6
    res, values = a05_flyball.jourdain_run(a05_flyball.compile_flyball(), t_end=2.0,
                                           n_out=201)
    assert _max_diff(values, ref) < 1e-5
    assert values["sleeve"].max() > 0.52 and values["shaft_w"].min() < 6.2
