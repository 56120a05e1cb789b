"""The remaining Modelica Standard Library Rotational examples rebuilt in jourdain
(examples/msl/, issue 26) run top to bottom, print their key numbers and save their figure.
Each test states its reference: a closed form, an independent scipy model of the same
equations written out in the script, an energy balance, or the MSL's own statement of what
the example shows. About 2–4 s of CPU each."""
import re

import pytest

from test_msl_examples import _numbers, _run


def _events(out: str) -> list[tuple[float, str]]:
    return [(float(t), what) for t, what in re.findall(r"t = (\S+) s  (lock|release)\b", out)]


def test_one_way_clutch_disengaged(tmp_path, monkeypatch, capsys):
    """Reference: an independent scipy event model of the same equations (free: each inertia
    under its own torque; locked: one body; the MSL's tiny static limit of the released
    clutch): the same lock/release sequence at the same instants, the same speeds at 2 s;
    the driven side never lags (the freewheel's unilateral constraint)."""
    out = _run("one_way_clutch_disengaged.py", tmp_path, monkeypatch, capsys)
    events = _events(out)
    assert len(events) == 8 and [w for _, w in events] == ["lock", "release"] * 4
    n, dt = _numbers(r"scipy: (\d+) switches, max \|t - t_scipy\| = (\S+) s", out)
    assert n == 8 and dt < 1e-6 and "same sequence: True" in out
    w_in, w_out, r_in, r_out = _numbers(r"inertiaIn.w = (\S+), inertiaOut.w = (\S+) rad/s; "
                                        r"scipy (\S+), (\S+)", out)
    assert w_in == pytest.approx(r_in, abs=1e-6) and w_out == pytest.approx(r_out, abs=1e-6)
    assert _numbers(r"min w_rel = (\S+) rad/s", out)[0] > -1e-9


def test_rotational_rolling_wheel(tmp_path, monkeypatch, capsys):
    """Reference: the closed form of (J + m·r²)·ẇ = 10 − 10·(v/5)² with r = 1 from rest at
    t = 0.1 s, w = 5·tanh(t − 0.1); the rolling relation v = r·w, s = r·φ; the MSL's
    statement (equilibrium at 5 m/s after about 5 s); the energy balance."""
    out = _run("rotational_rolling_wheel.py", tmp_path, monkeypatch, capsys)
    assert _numbers(r"max \|inertia.w - 5·tanh\(t - 0.1\)\| = (\S+) rad/s", out)[0] < 1e-6
    dv, ds = _numbers(r"max \|mass.v - radius·inertia.w\| = (\S+) m/s, max \|mass.s - "
                      r"radius·inertia.phi\| = (\S+) m", out)
    assert dv < 1e-12 and ds < 1e-12
    v, = _numbers(r"at t = 5 s: mass.v = (\S+) m/s", out)
    assert v == pytest.approx(5 * __import__("math").tanh(4.9), abs=1e-6)
    assert "energy balance holds" in out


def test_simple_gear_shift(tmp_path, monkeypatch, capsys):
    """Reference: the MSL's statement (gearRatio = 1/(1 + ratio) = 0.4 while the brake holds
    the ring, 1 once the clutch locks ring and sun), the first gear against scipy on the
    reduced equation (J_e + J_l/(1 + r)²)·ẇ_e = 20 − τ_load/(1 + r), and the energy balance
    with the clutch's and brake's losses."""
    out = _run("simple_gear_shift.py", tmp_path, monkeypatch, capsys)
    lo, hi = _numbers(r"first gear \(1 s < t < 2 s\): (\S+) … (\S+) ", out)
    assert lo == pytest.approx(0.4, abs=1e-8) and hi == pytest.approx(0.4, abs=1e-8)
    lo, hi = _numbers(r"second gear \(t > 4 s\): (\S+) … (\S+) ", out)
    assert lo == pytest.approx(1.0, abs=1e-8) and hi == pytest.approx(1.0, abs=1e-8)
    ours, ref = _numbers(r"engine.w = (\S+) rad/s, scipy (\S+)", out)
    assert ours == pytest.approx(ref, abs=1e-6)
    assert "clutch: engage" in out and "clutch: stop_backward" in out
    assert "energy balance holds" in out


def test_lossy_gear_demo3(tmp_path, monkeypatch, capsys):
    """Reference: the closed form of the roll-out (the teeth carry no torque, both quadrants
    of the MSL's loss law give tauLoss = 1 N·m: w = 10 − 500·t, stuck at t = 0.02 s), the
    MSL's stuck limit (1 N·m on flange_b stays below quadrant2 at w = 0+, 2.5 N·m: the gear
    stays stuck after the step), and the energy lost in the gear = the 0.1 J of kinetic
    energy."""
    out = _run("lossy_gear_demo3.py", tmp_path, monkeypatch, capsys)
    assert _numbers(r"stuck at t = (\S+) s", out)[0] == pytest.approx(0.02, abs=1e-7)
    err, diff = _numbers(r"max \|Inertia1.w - max\(10 - 500·t, 0\)\| = (\S+) rad/s, max "
                         r"\|Inertia2.w - Inertia1.w\| = (\S+) rad/s", out)
    assert err < 1e-6 and diff < 1e-9
    w_after, = _numbers(r"after the step: max \|w\| = (\S+) rad/s", out)
    assert w_after < 1e-9 and "gear modes [0]" in out
    assert _numbers(r"tauLoss = (\S+) N·m", out)[0] == pytest.approx(1.0, abs=1e-9)
    lost, kinetic = _numbers(r"energy lost in the gear (\S+) J \(kinetic energy at the start "
                             r"(\S+) J\)", out)
    assert lost == pytest.approx(kinetic, rel=1e-3)
    assert "energy balance holds" in out


def test_compare_braking_torque(tmp_path, monkeypatch, capsys):
    """Reference: the closed forms of J·ẇ = τ(w) for the four laws from w = 100 rad/s: sign
    (100 − 100·t, then e^(−100·(t − 0.99)) below w0), linear (100·e^(−t)), quadratic
    (100/(1 + t)), inverse (√(10⁴ − 2·10⁴·t), then e^(−100·(t − 0.49995)) below w0); the
    energy balance (the sources' work = the change of kinetic energy)."""
    out = _run("compare_braking_torque.py", tmp_path, monkeypatch, capsys)
    tolerance = {"inertia1": 1e-6, "inertia2": 1e-6, "inertia3": 1e-6, "inertia4": 1e-3}
    for name, tol in tolerance.items():
        _, err = _numbers(rf"{name}: w\(5 s\) = (\S+) rad/s, max \|w - closed form\| = (\S+)",
                          out)
        assert err < tol, name
    w3, = _numbers(r"inertia3: w\(5 s\) = (\S+) rad/s", out)
    assert w3 == pytest.approx(100 / 6, rel=1e-8)
    assert "energy balance holds" in out


def test_demo_free_wheel(tmp_path, monkeypatch, capsys):
    """Reference: an independent scipy event model of the same equations (locked: inertia2
    follows the prescribed speed while the freewheel's torque J2·ẇ1 + 5·w1 ≥ 0; free:
    J2·ẇ2 = −5·w2 + wRes·(w1 − w2) until w1 catches up): the same 9 switches at the same
    instants (the first release in closed form: tan(10πt) = −2π) and the same speed at 1 s;
    the MSL's statement (locked: equal speeds, torque ≥ 0; freewheeling: inertia2.w ≥
    inertia1.w)."""
    out = _run("demo_free_wheel.py", tmp_path, monkeypatch, capsys)
    events = _events(out)
    assert events[0][0] == pytest.approx((3.141592653589793 - 1.4129651365067377) /
                                         (10 * 3.141592653589793), abs=1e-8)
    n, dt = _numbers(r"scipy: (\d+) switches, same sequence: True, max \|t - t_scipy\| = "
                     r"(\S+) s", out)
    assert n == len(events) == 9 and dt < 1e-6
    w2, ref = _numbers(r"inertia2.w = (\S+) rad/s; scipy inertia2.w = (\S+)", out)
    assert w2 == pytest.approx(ref, abs=1e-6)
    gap, tau, overrun = _numbers(r"max \|w1 - w2\| locked (\S+) rad/s, min tau (\S+) N·m; "
                                 r"freewheeling min w2 - w1 (\S+) rad/s", out)
    assert gap < 1e-6 and tau >= 0 and overrun >= -1e-9


def test_elastic_bearing(tmp_path, monkeypatch, capsys):
    """Reference: an independent scipy DOP853 model of the same three equations (shaft,
    housing, load; the gear's flange_b at φ_s/3 + 2·φ_h/3 relative to the moving housing):
    the three speeds over 10 s; the MultiSensor's torque = the bearing spring-damper's law
    −(c·φ + d·ω) and its speed = the housing's; the energy balance (the torque's work = the
    change of T + V plus the damper's loss)."""
    out = _run("elastic_bearing.py", tmp_path, monkeypatch, capsys)
    for name in ("shaft", "housing", "load"):
        _, err = _numbers(rf"{name}: w\(10 s\) = (\S+) rad/s, max \|w - scipy\| = (\S+) rad/s",
                          out)
        assert err < 1e-6, name
    diff, peak, dw = _numbers(r"max difference (\S+) N·m \(peak (\S+) N·m\); "
                              r"multiSensor.w = housing.w: (\S+)", out)
    assert diff < 1e-8 * peak and peak > 100 and dw < 1e-12
    assert "energy balance holds" in out
