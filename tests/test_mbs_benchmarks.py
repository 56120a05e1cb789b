"""The multibody benchmarks (issue 29) at small sizes against their references:
IFToMM A01 (simple pendulum, closed form by Jacobi's elliptic functions), A02 (N-four-bar:
the one-degree-of-freedom equation of its physical branch, or a refusal by name at the
singular configuration), Andrews' squeezing mechanism (the Test Set for IVP Solvers'
published solution at t = 0.03 s), and the horizon-aware default tolerances."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.special import ellipj, ellipk

import jourdain as jd
from jourdain.blocks import World
from jourdain.library.mbs_benchmarks import AndrewsMechanism, NFourBar, SimplePendulum

ANDREWS_Y0 = {"beta": -0.0617138900142764496358948458001, "theta": 0.0,
              "gamma": 0.455279819163070380255912382449,
              "phi": 0.222668390165885884674473185609,
              "delta": 0.487364979543842550225598953530,
              "omega": -0.222668390165885884674473185609,
              "epsilon": 1.23054744454982119249735015568}
ANDREWS_REF = {"beta": 0.1581077119629904e2, "theta": -0.1575637105984298e2,
               "gamma": 0.4082224013073101e-1, "phi": -0.5347301163226948,
               "delta": 0.5244099658805304, "omega": 0.5347301163226948,
               "epsilon": 0.1048080741042263e1}


def _pendulum_closed_form(t):
    """Point mass on a 1 m bar released from the horizontal: sin(θ/2) = k·sn(K − ω·t | k²),
    k = sin(π/4), θ from the downward vertical; x = 2·k·sn·dn, y = −(1 − 2·k²·sn²)."""
    k = np.sin(np.pi / 4)
    quarter = ellipk(k * k)
    sn, _, dn, _ = ellipj(np.mod(quarter - np.sqrt(9.81) * t, 4 * quarter), k * k)
    return 2 * k * sn * dn, -(1 - 2 * k * k * sn**2)


def test_a01_pendulum_2000_s_at_the_default_settings():
    """Reference: the closed form (Jacobi's elliptic functions, derived in the helper). IFToMM
    A01 over its whole 2000 s at the default settings stays within the benchmark's high
    precision 1e-3 m at 4001 outputs (it ended 1.5e-3 m off at a fixed 1e-8); the stats say
    the default tolerance was tightened for the horizon."""
    system = jd.compile(jd.Model.on_world(World(), p=SimplePendulum()))
    res = system.simulate(2000.0, n_out=4001)
    x_ref, y_ref = _pendulum_closed_form(res.t)
    phi = res["p.joint.phi"]
    assert max(np.abs(np.cos(phi) - x_ref).max(), np.abs(np.sin(phi) - y_ref).max()) < 1e-3
    assert "tightened" in res.stats["tolerances"] and "1e-10" in res.stats["tolerances"]


def test_given_tolerances_are_used_as_given():
    """Reference: the closed form again. Tolerances the user gives are not tightened
    (stats say 'given'); on a short horizon the default stays 1e-8, and the pendulum meets
    its closed form within 1e-6 m over 5 s."""
    system = jd.compile(jd.Model.on_world(World(), p=SimplePendulum()))
    res = system.simulate(2000.0, n_out=11, rtol=1e-6, atol=1e-6)
    assert res.stats["tolerances"] == "rtol = 1e-06, atol = 1e-06 (given)"
    short = system.simulate(5.0, n_out=101)
    assert short.stats["tolerances"] == "rtol = 1e-08, atol = 1e-08 (the default)"
    x_ref, y_ref = _pendulum_closed_form(short.t)
    assert np.abs(np.cos(short["p.joint.phi"]) - x_ref).max() < 1e-6


def _n_four_bar_reference(n, t):
    """The physical branch: all rods at the angle φ from the vertical, couplers translating;
    Lagrange with T = ½·((n+1)/3 + n)·φ̇², V = 9.81·((n+1)/2 + n)·cos φ (unit rods)."""
    a, b = (n + 1) / 3 + n, (n + 1) / 2 + n
    sol = solve_ivp(lambda _, x: [x[1], b * 9.81 / a * np.sin(x[0])], (t[0], t[-1]),
                    [0.0, -1.0], method="DOP853", t_eval=t, rtol=1e-12, atol=1e-12)
    return sol.y[0]


def test_n_four_bar_passes_its_singular_crossings_on_the_physical_branch():
    """Reference: the one-degree-of-freedom equation of the physical branch (helper). Two
    four-bar windows (IFToMM A02 at n = 2) from the vertical, B0 at 1 m/s, over 4 s (three
    flat, singular configurations): partitioning keeps every rod parallel to the first
    (1e-9 rad) and the first rod's angle within 1e-4 rad of the reference."""
    system = jd.compile(jd.Model.on_world(World(), m=NFourBar(2)), speeds={"z0": "m.pivot0.w"})
    res = system.simulate(4.0, z0={"z0": -1.0}, n_out=201)
    phi = res["m.pivot0.phi"]
    assert np.abs(phi - _n_four_bar_reference(2, res.t)).max() < 1e-4
    assert phi.min() < -2 * np.pi   # a whole turn: through the flat configuration twice
    for i in (1, 2):
        assert np.abs(res[f"m.pivot{i}.phi"] - phi).max() < 1e-9


@pytest.mark.parametrize("method", list(jd.ConstraintMethod))
def test_single_four_bar_crossing_is_passed_or_refused_by_name(method):
    """Reference: the closed-form branch (all rods parallel, helper) or the named refusal.
    One parallelogram window (A02 at n = 1) reaches its flat configuration at t ≈ 0.71 s,
    where the parallelogram and anti-parallelogram branches cross: every method either
    stays on the parallelogram (rods parallel to 1e-6 rad, angle within 1e-4 rad) or stops
    there with the singular-configuration error; it never goes on on the other branch."""
    model = jd.Model.on_world(World(), m=NFourBar(1))
    system = jd.compile(model, constraints=method)
    try:
        res = system.simulate(1.5, z0={"m.pivot0.w": -1.0}, n_out=151)
    except jd.SimulationError as exc:
        assert "singular configuration" in str(exc) and "m.right1" in str(exc)
        return
    assert np.abs(res["m.pivot1.phi"] - res["m.pivot0.phi"]).max() < 1e-6
    assert np.abs(res["m.pivot0.phi"] - _n_four_bar_reference(1, res.t)).max() < 1e-4


@pytest.mark.parametrize("method", [jd.ConstraintMethod.PARTITIONING, jd.ConstraintMethod.DAE])
def test_andrews_squeezing_mechanism_against_the_test_set(method):
    """Reference: the Test Set for IVP Solvers' solution at t = 0.03 s (PSIDE at 1e-14).
    Built from components with the problem's data, at rtol = atol = 1e-10 the seven angles
    have at least 6 correct significant digits (measured 6.8 partitioning, 7.0 DAE)."""
    system = jd.compile(jd.Model.on_world(World(g=(0, 0, 0)), a=AndrewsMechanism()),
                        constraints=method)
    assert system.f_dof == 1
    res = system.simulate(0.03, y0={f"a.{k}.phi": v for k, v in ANDREWS_Y0.items()},
                          n_out=2, rtol=1e-10, atol=1e-10)
    rel = max(abs(res[f"a.{k}.phi"][-1] - v) / abs(v) for k, v in ANDREWS_REF.items())
    assert rel < 1e-6


@pytest.mark.slow
def test_ten_four_bars_over_20_s_on_the_physical_branch():
    """Reference: the one-degree-of-freedom equation of the physical branch (helper). IFToMM
    A02 at n = 10 over the statement's 20 s (20 flat, singular configurations): every rod
    stays parallel to the first (1e-9 rad) and the first rod's angle within 1e-3 rad of the
    reference (measured 8e-4 on B0's velocity at rtol 1e-8 on Adams)."""
    system = jd.compile(jd.Model.on_world(World(), m=NFourBar(10)),
                        speeds={"z0": "m.pivot0.w"})
    res = system.simulate(20.0, z0={"z0": -1.0}, n_out=401, method=jd.Method.ADAMS)
    phi = res["m.pivot0.phi"]
    assert np.abs(phi - _n_four_bar_reference(10, res.t)).max() < 1e-3
    for i in range(1, 11):
        assert np.abs(res[f"m.pivot{i}.phi"] - phi).max() < 1e-9


@pytest.mark.slow
def test_n_four_bar_dae_failure_is_named_in_the_users_terms():
    """Reference: the closed-form flat configuration of the physical branch (every rod at
    φ = −π/2, reached at t ≈ 0.71 s from the reduced equation, helper). IFToMM A02 at n = 4
    by ConstraintMethod.DAE: IDAS's corrector fails after the loops fold flat (measured at
    t = 0.867 s, IDA_CONV_FAIL); the error is the named singular-configuration error (the
    loops, the time, the rods' angle within 0.1 rad of −π/2, what to do), never CasADi's
    raw text."""
    system = jd.compile(jd.Model.on_world(World(), m=NFourBar(4)),
                        constraints=jd.ConstraintMethod.DAE)
    with pytest.raises(jd.SimulationError) as info:
        system.simulate(1.5, z0={"m.pivot0.w": -1.0}, n_out=31)
    text = str(info.value)
    assert "singular configuration" in text and "m.right1" in text
    assert "PARTITIONING" in text
    assert "IdasInterface" not in text and "casadi" not in text.lower()
    t = float(text.split("at t = ")[1].split(" s")[0])
    res_t = np.linspace(0.0, 1.5, 3001)
    phi = _n_four_bar_reference(4, res_t)
    t_flat = float(res_t[np.argmax(phi < -np.pi / 2)])
    assert abs(t - t_flat) < 0.05
    angle = float(text.split("m.pivot0.phi = ")[1].split(",")[0])
    assert abs(angle + np.pi / 2) < 0.1


def _n_four_bar_b0(n, t):
    """B0 = (−sin φ, cos φ) and its velocity on the physical branch (the helper's equation)."""
    a, b = (n + 1) / 3 + n, (n + 1) / 2 + n
    sol = solve_ivp(lambda _, x: [x[1], b * 9.81 / a * np.sin(x[0])], (t[0], t[-1]),
                    [0.0, -1.0], method="DOP853", t_eval=t, rtol=1e-12, atol=1e-12)
    phi, w = sol.y
    return np.array([-np.sin(phi), np.cos(phi), -np.cos(phi) * w, -np.sin(phi) * w])


@pytest.mark.parametrize("n", [2, 4])
def test_n_four_bar_over_20_s_within_1e_3_at_the_defaults(n):
    """Reference: the one-degree-of-freedom equation of the physical branch (helper). IFToMM
    A02 at n = 2 and 4 over the statement's 20 s (20 flat, singular configurations) at the
    default settings: AUTO runs Adams (the stiffness estimate at the start is 1: the
    inverted rods' λ = ±3.4 1/s) at the partitioned loops' default 1e-9; B0's position and
    velocity stay within the benchmark's high precision 1e-3 of the reference (measured
    1.4e-4 and 1.5e-4; the former defaults, BDF at 1e-8, gave 1.6e-3 and 3.2e-3) and every
    rod stays parallel to the first (1e-9 rad): the physical branch at every crossing."""
    system = jd.compile(jd.Model.on_world(World(), m=NFourBar(n)), speeds={"z0": "m.pivot0.w"})
    res = system.simulate(20.0, z0={"z0": -1.0}, n_out=401)
    phi, w = res["m.pivot0.phi"], res["m.pivot0.w"]
    b0 = np.array([-np.sin(phi), np.cos(phi), -np.cos(phi) * w, -np.sin(phi) * w])
    assert np.abs(b0 - _n_four_bar_b0(n, res.t)).max() < 1e-3
    assert phi.min() < -10 * 2 * np.pi   # over ten turns: 20 flat configurations passed
    for i in range(1, n + 1):
        assert np.abs(res[f"m.pivot{i}.phi"] - phi).max() < 1e-9
    assert res.method is jd.Method.ADAMS
    assert res.stats["method_reason"].startswith("closed loops by partitioning, stiffness "
                                                 "ratio 1 ≤")
    assert res.stats["tolerances"].startswith("rtol = 1e-09, atol = 1e-09: the default 1e-09 "
                                              "for closed loops")


def test_andrews_at_the_defaults():
    """Reference: the Test Set for IVP Solvers' solution at t = 0.03 s (PSIDE at 1e-14). At
    the default settings (AUTO: Adams, the loops' 1e-9) the seven angles have at least 6
    correct significant digits (measured 6.75), far inside the IFToMM high precision."""
    system = jd.compile(jd.Model.on_world(World(g=(0, 0, 0)), a=AndrewsMechanism()))
    res = system.simulate(0.03, y0={f"a.{k}.phi": v for k, v in ANDREWS_Y0.items()}, n_out=2)
    rel = max(abs(res[f"a.{k}.phi"][-1] - v) / abs(v) for k, v in ANDREWS_REF.items())
    assert rel < 1e-6
    assert res.method is jd.Method.ADAMS and "1e-09" in res.stats["tolerances"]


def test_default_tolerances_of_constrained_systems_say_why():
    """Reference: the policy of solver/simulation/tolerances.py (1e-9 for constrained
    systems by every constraint method, 1e-8 otherwise, both scaled by 20 s / horizon beyond
    20 s, given values kept) and the notes it writes into ``res.stats["tolerances"]``; the
    Baumgarte system of the same loop gets the loops' default too."""
    from jourdain.solver.simulation.tolerances import resolve
    why = ("the default 1e-09 for closed loops (every constraint method), whose error grows "
           "at each passage near a singular configuration")
    assert resolve(None, None, 0.0, 20.0, loops=True)[:2] == (1e-9, 1e-9)
    rtol, atol, note = resolve(None, None, 0.0, 200.0, loops=True)
    assert rtol == pytest.approx(1e-10, rel=1e-12) and atol == pytest.approx(1e-10, rel=1e-12)
    assert note == f"rtol = 1e-10, atol = 1e-10: {why}, tightened by 20 s / 200 s for the " \
                   "long horizon"
    assert resolve(1e-6, None, 0.0, 5.0, loops=True)[2] == (
        f"rtol = 1e-06, atol = 1e-09: {why} (rtol given, the other the default)")
    assert resolve(None, None, 0.0, 5.0)[2] == "rtol = 1e-08, atol = 1e-08 (the default)"
    model = jd.Model.on_world(World(), m=NFourBar(1))
    part = jd.compile(model).simulate(0.3, z0={"m.pivot0.w": -1.0}, n_out=4)
    assert part.stats["tolerances"] == f"rtol = 1e-09, atol = 1e-09: {why}"
    given = jd.compile(model).simulate(0.3, z0={"m.pivot0.w": -1.0}, n_out=4, rtol=1e-7,
                                       atol=1e-7)
    assert given.stats["tolerances"] == "rtol = 1e-07, atol = 1e-07 (given)"
    runs = {method: jd.compile(model, constraints=method).simulate(
        0.3, z0={"m.pivot0.w": -1.0}, n_out=4)
        for method in (jd.ConstraintMethod.BAUMGARTE, jd.ConstraintMethod.DAE)}
    for other in runs.values():
        assert other.stats["tolerances"] == f"rtol = 1e-09, atol = 1e-09: {why}"
    baum = runs[jd.ConstraintMethod.BAUMGARTE]
    assert baum.method is jd.Method.BDF and "without the partition watch" in \
        baum.stats["method_reason"]
