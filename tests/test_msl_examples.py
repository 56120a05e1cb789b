"""The Modelica Standard Library examples rebuilt in jourdain (examples/msl/, issue 12) run top
to bottom, print their key numbers and save their figure. Each test states the reference
the printed numbers are checked against: a closed form, a conservation law, a work–energy
balance, a constraint residual, or the MSL's own statement that two implementations of one
system agree. About 2–4 s of CPU each."""
import re
import runpy
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "msl"


def _run(script: str, tmp_path, monkeypatch, capsys) -> str:
    import matplotlib.pyplot as plt
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(EXAMPLES / script), run_name="__main__")
    plt.close("all")
    assert (tmp_path / "out" / script.replace(".py", ".png")).stat().st_size > 1000
    return capsys.readouterr().out


def _numbers(pattern: str, text: str) -> list[float]:
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not in the output:\n{text}"
    return [float(g) for g in match.groups()]


def test_every_msl_example_is_tested():
    tested = {name.removeprefix("test_") + ".py" for name in globals()
              if name.startswith("test_") and name not in ("test_every_msl_example_is_tested",
                                                         "test_readme_msl_block_runs")}
    # the MSL friction examples of the hybrid elements are run by test_hybrid_examples.py
    hybrid = (Path(__file__).parent / "test_hybrid_examples.py").read_text()
    tested |= {name + ".py" for name in re.findall(r"^def test_msl_(\w+)\(", hybrid, re.M)}
    # the MultiBody examples of issue 26: their tests' names, or the scripts they parametrize
    multibody = (Path(__file__).parent / "test_msl_multibody_examples.py").read_text()
    tested |= {name + ".py" for name in re.findall(r"^def test_(\w+)\(tmp_path", multibody, re.M)}
    tested |= set(re.findall(r'"(\w+\.py)"', multibody))
    # the Rotational examples of issue 26 (branch mslrot)
    rotational = (Path(__file__).parent / "test_msl_rotational_examples.py").read_text()
    tested |= {name + ".py" for name in re.findall(r"^def test_(\w+)\(tmp_path", rotational, re.M)}
    # the three HeatLosses examples (useHeatPort of the lossy elements)
    heat = (Path(__file__).parent / "test_msl_heat_losses.py").read_text()
    tested |= {name + ".py" for name in re.findall(r"^def test_(heat_losses_\w+)\(", heat, re.M)}
    assert {p.name for p in EXAMPLES.glob("*.py")} == tested


def test_three_springs(tmp_path, monkeypatch, capsys):
    """Reference: conservation of T + V (springs and gravity only) and the force balance
    at the massless junction (its closure residual) at round-off."""
    out = _run("three_springs.py", tmp_path, monkeypatch, capsys)
    drift, energy = _numbers(r"energy drift over 10 s: (\S+) J \(of (\S+) J\)", out)
    assert drift < 1e-6 * abs(energy)
    assert _numbers(r"force balance residual at the junction: (\S+) N", out)[0] < 1e-8


def test_free_body(tmp_path, monkeypatch, capsys):
    """Reference: conservation of T + V of the free body on two springs; unit quaternion."""
    out = _run("free_body.py", tmp_path, monkeypatch, capsys)
    drift, kinetic = _numbers(r"energy drift over 10 s: (\S+) J \(of kinetic up to (\S+) J\)",
                              out)
    assert drift < 1e-5 * kinetic
    assert _numbers(r"quaternion norm deviation: (\S+)", out)[0] < 1e-9


def test_point_gravity(tmp_path, monkeypatch, capsys):
    """Reference: Kepler: each body's specific energy and angular momentum are constant;
    body1's extreme distances are the closed-form a·(1 ± e)."""
    out = _run("point_gravity.py", tmp_path, monkeypatch, capsys)
    for body in ("body1", "body2"):
        e_drift, h_drift = _numbers(body + r": energy \S+ J/kg \(drift (\S+)\), angular "
                                    r"momentum \S+ m²/s \(drift (\S+)\)", out)
        assert e_drift < 1e-6 and h_drift < 1e-6
    rmax, rmax0, rmin, rmin0 = _numbers(r"max (\S+) m \(closed form (\S+)\), min (\S+) m "
                                        r"\(closed form (\S+)\)", out)
    assert rmax == pytest.approx(rmax0, rel=1e-6) and rmin == pytest.approx(rmin0, rel=1e-4)


def test_double_pendulum_init_tip(tmp_path, monkeypatch, capsys):
    """Reference: the closed-form inverse kinematics of the two-link arm for both assembly
    branches (chosen by guess=), and the energy balance with the damper."""
    out = _run("double_pendulum_init_tip.py", tmp_path, monkeypatch, capsys)
    errors = [float(e) for e in re.findall(r"; error (\S+) rad", out)]
    assert len(errors) == 2 and max(errors) < 1e-9
    assert _numbers(r"energy balance E\(t\) - E\(0\) \+ dissipated work: (\S+) J", out)[0] < 1e-4


def test_force_and_torque(tmp_path, monkeypatch, capsys):
    """Reference: work–energy balance: the work of the force and torque (from an
    AbsoluteSensor's v and w at the point of application) equals the change of T + V."""
    out = _run("force_and_torque.py", tmp_path, monkeypatch, capsys)
    work, change, error = _numbers(r"over 1 s: (\S+) J; change of T \+ V: (\S+) J; max "
                                   r"\|balance error\| (\S+) J", out)
    assert work > 100 and error < 1e-6 * work


def test_line_force_with_two_masses(tmp_path, monkeypatch, capsys):
    """Reference (the MSL's documentation): the JointUPS assembly with two point masses and
    LineForceWithTwoMasses describe the same system, so both boxes move identically."""
    out = _run("line_force_with_two_masses.py", tmp_path, monkeypatch, capsys)
    assert _numbers(r"max \|revolute1.phi - revolute2.phi\| over 3 s: (\S+) rad", out)[0] < 1e-5
    assert _numbers(r"max loop closure residual \(JointUPS\): (\S+)", out)[0] < 1e-10


def test_gyroscopic_effects(tmp_path, monkeypatch, capsys):
    """Reference (the MSL's documentation): the spinning cylinder on a revolute and the
    rigid cylinder plus Rotor1D move identically; the torque holding a gyroscope level on a
    turntable is the closed form J·w·Ω."""
    out = _run("gyroscopic_effects.py", tmp_path, monkeypatch, capsys)
    assert _numbers(r"quaternions over 5 s: (\S+)", out)[0] < 1e-8
    torque, closed = _numbers(r"level driver: (\S+) N·m; J·w·Ω = (\S+) N·m", out)
    assert torque == pytest.approx(closed, rel=1e-9)


def test_actuated_drive(tmp_path, monkeypatch, capsys):
    """Reference: closed form phi = (t − sin 2πt/(2π))/(2π·J) of J·phi'' = sin 2πt, for the
    3-D Torque on a revolute and for Rotor1D with a Mounting1D."""
    out = _run("actuated_drive.py", tmp_path, monkeypatch, capsys)
    errors = [float(e) for e in re.findall(r"max error vs closed form (\S+) rad", out)]
    assert len(errors) == 2 and max(errors) < 1e-7


def test_planar_loops_analytic(tmp_path, monkeypatch, capsys):
    """Reference: loop closure residual at round-off; the driver's work ∫tau·w dt equals the
    change of T + V (a check of the reaction torque output)."""
    out = _run("planar_loops_analytic.py", tmp_path, monkeypatch, capsys)
    assert _numbers(r"max loop closure residual over 5 s: (\S+)", out)[0] < 1e-9
    error, span = _numbers(r"max \|E - E\(0\) - ∫tau·w dt\| = (\S+) J \(E varies by (\S+) J\)",
                           out)
    assert span > 1 and error < 1e-5 * span


def test_translational_accelerate(tmp_path, monkeypatch, capsys):
    """Reference: closed form s = t²/2, v = t and the driver force f = m·a = 1 N."""
    out = _run("translational_accelerate.py", tmp_path, monkeypatch, capsys)
    s_err, v_err, f_min, f_max = _numbers(r"max errors: s (\S+) m, v (\S+) m/s; driver force "
                                          r"f = (\S+) … (\S+) N", out)
    assert s_err < 1e-8 and v_err < 1e-8
    assert f_min == pytest.approx(1.0, abs=1e-9) and f_max == pytest.approx(1.0, abs=1e-9)


def test_first(tmp_path, monkeypatch, capsys):
    """Reference: scipy's DOP853 on the hand-reduced equations of the drive train (the gear
    reflects ratio²·J1 and ratio·tau), the gear's relation inertia1.phi = ratio·inertia2.phi
    on the series of the eliminated inertia2, and the energy balance (res.check())."""
    out = _run("first.py", tmp_path, monkeypatch, capsys)
    err2, err3 = _numbers(r"max \|w - w_scipy\|: inertia2 (\S+), inertia3 (\S+) rad/s", out)
    assert err2 < 1e-6 and err3 < 1e-6
    residual, = _numbers(r"inertia1 = ratio·inertia2: max residual (\S+) rad", out)
    assert residual < 1e-12
    assert "energy balance holds" in out


def test_lossy_gear_demo1(tmp_path, monkeypatch, capsys):
    """Reference: the mode sequence the MSL documents (backward and forward rolling and stuck
    within 0.5 s) at the instants an independent scipy event model gives
    (tests/test_msl_1d_parts.py: 0.080477, 0.199520, 0.371343, 0.464539 s), a non-negative
    power loss, and the energy balance including the gear's losses (res.check())."""
    out = _run("lossy_gear_demo1.py", tmp_path, monkeypatch, capsys)
    times = [float(t) for t in re.findall(r"t = (\S+) s  \w+: mode", out)]
    assert times == pytest.approx([0.080477, 0.199520, 0.371343, 0.464539], abs=2e-6)
    modes = re.findall(r"mode (-?\d) → (-?\d)", out)
    assert modes == [("-1", "0"), ("0", "1"), ("1", "0"), ("0", "-1")]
    loss_max, lost = _numbers(r"max (\S+) W, energy lost (\S+) J", out)
    assert loss_max > 0 and lost > 0
    assert "energy balance holds" in out


def test_first_grounded(tmp_path, monkeypatch, capsys):
    """Reference: the same scipy model as First (the MSL's statement: grounding the supports
    by leaving them free changes nothing), the gear's relation and the energy balance."""
    out = _run("first_grounded.py", tmp_path, monkeypatch, capsys)
    err2, err3 = _numbers(r"max \|w - w_scipy\|: inertia2 (\S+), inertia3 (\S+) rad/s", out)
    assert err2 < 1e-6 and err3 < 1e-6
    assert "energy balance holds" in out


def test_backlash(tmp_path, monkeypatch, capsys):
    """Reference: the damped oscillator's closed form for the SpringDamper branch; scipy on
    the MSL's ElastoBacklash and ElastoBacklash2 laws written out in the script for the
    others; neither law pulls; the backlash lowers the eigenfrequency (fewer zero
    crossings); ElastoBacklash2's unbounded damping takes more energy (smaller amplitude);
    energy balance."""
    out = _run("backlash.py", tmp_path, monkeypatch, capsys)
    closed, = _numbers(r"springDamper: max \|phi - closed form\| (\S+) rad", out)
    assert closed < 1e-7
    for name in ("elastoBacklash", "elastoBacklash2"):
        err, pull = _numbers(rf"{name}: max \|phi - scipy\| (\S+) rad; never pulls: min "
                             r"tau·sign\(phi\) = (\S+) N·m", out)
        assert err < 1e-5 and pull >= 0
    n1, n2 = _numbers(r"springDamper (\d+), elastoBacklash (\d+)", out)
    assert n2 < n1
    a1, a2 = _numbers(r"elastoBacklash (\S+) rad, elastoBacklash2 (\S+) rad", out)
    assert a2 < a1
    assert "energy balance holds" in out


def test_sign_convention(tmp_path, monkeypatch, capsys):
    """Reference: the MSL's statement, a = 1 m/s² in all three systems: s = 0.5 m and
    v = 1 m/s after 1 s."""
    out = _run("sign_convention.py", tmp_path, monkeypatch, capsys)
    for k in (1, 2, 3):
        s, v = _numbers(rf"mass{k}: s\(1 s\) = (\S+) m, v\(1 s\) = (\S+) m/s", out)
        assert s == pytest.approx(0.5, abs=1e-9) and v == pytest.approx(1.0, abs=1e-9)


def test_initial_conditions(tmp_path, monkeypatch, capsys):
    """Reference: the MSL's diagram — system 1 rests (m3.s = 4.5 m, m4.s = 12.5 m), system
    2 starts at m1.s = 0 m, m2.s = 2.5 m from the elements' lengths — and scipy's DOP853 on
    the two-mass equations of system 2."""
    out = _run("initial_conditions.py", tmp_path, monkeypatch, capsys)
    s1, s2, v2 = _numbers(r"m1.s = (\S+) m, m2.s = (\S+) m, m2.v = (\S+) m/s", out)
    assert s1 == pytest.approx(0.0, abs=1e-9) and s2 == pytest.approx(2.5, abs=1e-9)
    assert v2 == pytest.approx(0.0, abs=1e-9)
    rest, = _numbers(r"system 1 at rest: max displacement (\S+) m", out)
    assert rest < 1e-9
    e1, e2 = _numbers(r"max \|s - scipy\| m1 (\S+) m, m2 (\S+) m", out)
    assert e1 < 1e-6 and e2 < 1e-6


def test_lossy_gear_demo2(tmp_path, monkeypatch, capsys):
    """Reference: the MSL's statement that both friction elements take all modes (forward,
    backward, stuck) within 0.5 s; the first phase (both rolling backward) against scipy on
    the MSL's equations; non-negative losses; the energy balance."""
    out = _run("lossy_gear_demo2.py", tmp_path, monkeypatch, capsys)
    ours, ref = _numbers(r"first stop of the backward phase: (\S+) s, scipy (\S+) s", out)
    assert ours == pytest.approx(ref, abs=1e-5)
    assert "gear.mode takes [-1, 0, 1]" in out and "bearingFriction.mode takes [-1, 0, 1]" in out
    power, = _numbers(r"min power (\S+) W", out)
    assert power > -1e-9
    assert "energy balance holds" in out


def test_oscillator(tmp_path, monkeypatch, capsys):
    """Reference: scipy's DOP853 on m·a = F(t) + c·(s_rel − s_rel0) − d·v with the masses'
    length (flange_b at s + L/2); the damped amplitude against the closed form of forced
    vibration 1/√((c − m·ω²)² + (d·ω)²) (within the decaying transient, 3 %)."""
    out = _run("oscillator.py", tmp_path, monkeypatch, capsys)
    amp1, err1 = _numbers(r"mass1: amplitude over the last 0.2 s (\S+) m, max \|s - s_scipy\| "
                          r"(\S+) m", out)
    amp2, err2 = _numbers(r"mass2: amplitude over the last 0.2 s (\S+) m, max \|s - s_scipy\| "
                          r"(\S+) m", out)
    closed, = _numbers(r"\(d·ω\)²\) = (\S+) m", out)
    assert err1 < 1e-8 and err2 < 1e-8
    assert amp2 == pytest.approx(closed, rel=0.03) and amp1 > 4 * amp2   # resonance grows


def test_translational_damper(tmp_path, monkeypatch, capsys):
    """Reference: closed forms, v = 10·e^(−25t) for the damper alone and the overdamped
    oscillator x'' + 25·x' + x = 0 for damper ∥ spring; the SpringDamper equals the pair."""
    out = _run("translational_damper.py", tmp_path, monkeypatch, capsys)
    for k in (1, 2, 3):
        err, = _numbers(rf"mass{k}: s\(1 s\) = \S+ m, max \|s - closed form\| (\S+) m", out)
        assert err < 1e-8
    diff, = _numbers(r"mass2 - mass3: max (\S+) m", out)
    assert diff < 1e-10


# ---- Translational examples of issue 26 (msltrans) ----
def test_compare_braking_force(tmp_path, monkeypatch, capsys):
    """Reference: closed forms of m·v' = f(v) for the four laws (constant deceleration then
    the exponential decay inside v0; 100·e^(−t); 100/(1 + t); √(10⁴ − 2·10⁴·t) then decay),
    which the inverse law reaches across its jump at |v| = v0."""
    out = _run("compare_braking_force.py", tmp_path, monkeypatch, capsys)
    for k, law in enumerate(("sign", "linear", "quadratic", "inverse"), 1):
        s, s_ref, err = _numbers(rf"mass{k} \({law}\): s\(5 s\) = (\S+) m \(closed form (\S+)\), "
                                 r"max \|v - closed form\| (\S+) m/s", out)
        assert s == pytest.approx(s_ref, rel=1e-7, abs=1e-7) and err < 1e-4


def test_elasto_gap(tmp_path, monkeypatch, capsys):
    """Reference: mass1 the closed-form damped oscillator m·s'' = −2c·s − 2d·s'; mass2 an
    independent scipy model of the MSL's ElastoGap law (bounded damping); the MSL's
    statement that mass2 flies free (constant speed) for |s| < 0.5 m; the energy balance."""
    out = _run("elasto_gap.py", tmp_path, monkeypatch, capsys)
    assert _numbers(r"mass1: max \|s - closed form\| (\S+) m", out)[0] < 1e-8
    assert _numbers(r"mass2: max \|s - scipy\| (\S+) m", out)[0] < 1e-6
    flights, change = _numbers(r"in (\d+) flights; largest change of v in flight (\S+) m/s",
                               out)
    assert flights >= 2 and change < 1e-9
    dE, net = _numbers(r"E\(5 s\) − E\(0\) = (\S+) J, ∫\(P_supplied − P_dissipated\) dt "
                       r"= (\S+) J", out)
    assert dE < -10 and dE == pytest.approx(net, rel=1e-5)


def test_gear_grounded(tmp_path, monkeypatch, capsys):
    """Reference: scipy on the hand-reduced equations of the two masses with the gear's
    support at (s1 − ratio·s2)/(1 − ratio) on its spring-damper; the work–energy balance.
    Exercises a floating gear housing and initialize(fix=) on a spring's s_rel, w_rel."""
    out = _run("gear_grounded.py", tmp_path, monkeypatch, capsys)
    err1, err2, travel = _numbers(r"scipy\|: mass1 (\S+) m, mass2 (\S+) m \(mass1 moves (\S+) m\)",
                                  out)
    assert travel > 0.1 and err1 < 1e-7 and err2 < 1e-7
    dE, net = _numbers(r"E\(3 s\) − E\(0\) = (\S+) J, ∫\(P_supplied − P_dissipated\) "
                       r"dt = (\S+) J", out)
    assert dE > 0 and dE == pytest.approx(net, rel=1e-4)


def test_lever_grounded(tmp_path, monkeypatch, capsys):
    """Reference: scipy on the hand-reduced equations with the lever's pivot at
    (s1 − ratio·s2)/(1 − ratio) on its spring-damper; the work–energy balance."""
    out = _run("lever_grounded.py", tmp_path, monkeypatch, capsys)
    err1, err2, peak = _numbers(r"scipy\|: mass1 (\S+) m/s, mass2 (\S+) m/s \(mass1 up to "
                                r"(\S+) m/s\)", out)
    assert peak > 0.1 and err1 < 1e-7 and err2 < 1e-7
    dE, net = _numbers(r"E\(1 s\) − E\(0\) = (\S+) J, ∫\(P_supplied − P_dissipated\) "
                       r"dt = (\S+) J", out)
    assert dE > 0 and dE == pytest.approx(net, rel=1e-4)


def test_why_arrows(tmp_path, monkeypatch, capsys):
    """Reference: the MSL's statements positionSensor2.s = positionSensor3.s = 1 m ≠
    positionSensor1.s = −1 m (rods add L from flange_a to flange_b however drawn) and "both
    systems are equivalent"; the closed form s = −0.9 + 0.9·cos(√11·t)."""
    out = _run("why_arrows.py", tmp_path, monkeypatch, capsys)
    p1, p2, p3, spread = _numbers(r"positionSensor1.s = (\S+) m, positionSensor2.s = (\S+) m, "
                                  r"positionSensor3.s = (\S+) m \(constant to (\S+)\)", out)
    assert (p1, p2, p3) == pytest.approx((-1.0, 1.0, 1.0), abs=1e-12) and spread < 1e-12
    e1, e2, diff = _numbers(r"mass1: max \|s - closed form\| (\S+) m; inertia2: (\S+) m; "
                            r"max \|mass1.s - inertia2.s\| (\S+) m", out)
    assert e1 < 1e-8 and e2 < 1e-8 and diff < 1e-12


def test_sensors(tmp_path, monkeypatch, capsys):
    """Reference: the closed form of m·a = 10·sin(8π·t) for every sensor's reading (force,
    speed, acceleration, position), the MSL's statement that positions differ by ∓L/2 between
    the flanges; the MultiSensor's power = f·v and its integral = ½·m·v² (work–energy)."""
    out = _run("sensors.py", tmp_path, monkeypatch, capsys)
    for name in ("forceSensor.f", "multiSensor.f", "multiSensor.v", "speedSensor1.v",
                 "accSensor1.a", "mass.s"):
        assert _numbers(re.escape(name) + r": max \|value - closed form\| (\S+)", out)[0] < 1e-8
    d1, d2 = _numbers(r"positionSensor1.s − mass.s = (\S+) m, positionSensor2.s − mass.s = "
                      r"(\S+) m", out)
    assert (d1, d2) == pytest.approx((-0.5, 0.5), abs=1e-12)
    dp, dw, kinetic = _numbers(r"max \|power - f·v\| (\S+) W; max \|∫power dt − ½·m·v²\| (\S+) "
                               r"J \(kinetic energy up to (\S+) J\)", out)
    assert dp < 1e-10 and kinetic > 0.3 and dw < 1e-3 * kinetic   # trapezoid, 1 ms samples


def test_vehicle(tmp_path, monkeypatch, capsys):
    """Reference: the MSL's statement that vehicle1 with twice the torque pulling the
    trailer moves as vehicle; scipy (LSODA, piecewise between the table's jumps) on
    m·v' = τ/R − drag − rolling − grade; the coupling force = τ/R (the two equal vehicles
    share vehicle1's drive) and the MultiSensor's power = f·v."""
    out = _run("vehicle.py", tmp_path, monkeypatch, capsys)
    top, v_nom = _numbers(r"top speed (\S+) m/s \(vNom (\S+)\)", out)
    assert top == pytest.approx(v_nom, rel=0.02)   # driven at nominal torque it nears vNom
    assert _numbers(r"vehicle1 vs vehicle: max \|dv\| (\S+) m/s", out)[0] < 1e-7
    assert _numbers(r"vehicle vs scipy: max \|dv\| (\S+) m/s", out)[0] < 1e-5
    df, f_max, dp = _numbers(r"max \|df\| (\S+) N \(up to (\S+) N\); power max \|P - f·v\| "
                             r"(\S+) W", out)
    assert f_max > 100 and df < 1e-6 * f_max and dp < 1e-9


def test_pre_load(tmp_path, monkeypatch, capsys):
    """Reference: the MSL's statement (the spool is held while the force is below the
    spring's preload and moves linearly with it above) against the closed form of the
    static chain spool → contact → spring → contact → housing (the damper's d·v taken off
    the force). 100 s of four stiff contacts (c = 1e6 N/m on 10 g plates): BDF, as the
    ElastoGaps declare (0.3 s CPU; Adams, once chosen at the open start, took 48 s)."""
    out = _run("pre_load.py", tmp_path, monkeypatch, capsys)
    assert _numbers(r"while \|F\| < 20 N: (\S+) m", out)[0] < 1e-4
    for name in ("pushing", "pulling"):
        samples, err = _numbers(name + r" \(F_net \S+ \S+ N, (\d+) samples\): max "
                                r"\|spool.s − closed form\| (\S+) m", out)
        assert samples > 100 and err < 1e-5


def test_readme_msl_block_runs(capsys):
    """Reference: the README's MSL block runs as written; its initial condition is met
    (the forearm's end 0.4 m below the shoulder) and the driven shoulder is reported held."""
    readme = Path(__file__).resolve().parents[1] / "README.md"
    block = [b for b in re.findall(r"```python\n(.*?)```", readme.read_text(), flags=re.S)
             if "rotational.Position" in b][0]
    scope = {}
    exec(compile(block, "README.md", "exec"), scope)
    out = capsys.readouterr().out
    assert "held (given): joint.phi = 0" in out and "solved: elbow.phi" in out
    assert _numbers(r"forearm.frame_b.r_0\[1\] = -0.4 \(residual (\S+)\)", out)[0] < 1e-10
    assert _numbers(r"peak drive torque (\S+) N·m", out)[0] > 10



def _eddy_current_brake_scipy():
    """Angle (position), speed and temperature at t = 0.1 s and 1 s of an inertia (mass) of
    1 kg·m² (1 kg) at 20 rad/s (m/s) braked by an eddy current brake (100 N·m at 10 rad/s)
    heating an adiabatic 1 J/K capacitor: ds/dt = w, J·dw/dt = −τ, C·dT/dt = τ·w with
    τ = 2·τ_nominal·v/(1 + v²), v = w/(w_nominal·(1 + alpha20·(T − TRef))): the MSL's law
    written out independently and integrated by scipy."""
    from scipy.integrate import solve_ivp
    alpha20, TRef = 3.920e-3, 293.15

    def rhs(t, y):
        _, w, T = y
        v = w / (10.0 * (1 + alpha20 * (T - TRef)))
        tau = 2 * 100.0 * v / (1 + v ** 2)
        return [w, -tau / 1.0, tau * w / 1.0]

    sol = solve_ivp(rhs, (0.0, 1.0), [0.0, 20.0, 293.15], method="LSODA", t_eval=[0.1, 1.0],
                    rtol=1e-11, atol=1e-11)
    return sol.y[:, 0], sol.y[:, 1]


def _check_eddy_current_brake(out: str, speed: str) -> None:
    w1, T1 = _numbers(rf"at t = 0.100 s: \w = (\S+) {speed}, T = (\S+) K", out)
    w2, T2 = _numbers(rf"at t = 1 s: \w = (\S+) {speed}, .*?T = (\S+) K", out)
    lost, stored = _numbers(r"kinetic energy lost (\S+) J, heat stored (\S+) J", out)
    assert lost > 199.0 and stored == pytest.approx(lost, rel=1e-6)
    ref1, ref2 = _eddy_current_brake_scipy()
    assert w1 == pytest.approx(ref1[1], rel=1e-6) and T1 == pytest.approx(ref1[2], rel=1e-8)
    # at 1 s the speed is nearly 0: compared in absolute terms (of the 20 at the start)
    assert abs(w2 - ref2[1]) < 1e-6 and T2 == pytest.approx(ref2[2], rel=1e-8)


def test_eddy_current_brake(tmp_path, monkeypatch, capsys):
    """Reference: the energy balance of the adiabatic brake (kinetic energy lost = heat
    stored in the HeatCapacitor, C·ΔT), and an independent scipy solve_ivp of the same
    equations (speed and temperature at t = 0.1 s and 1 s)."""
    _check_eddy_current_brake(_run("eddy_current_brake.py", tmp_path, monkeypatch, capsys),
                              "rad/s")


def test_translational_eddy_current_brake(tmp_path, monkeypatch, capsys):
    """Reference: the energy balance of the adiabatic brake (kinetic energy lost = heat
    stored, C·ΔT), and an independent scipy solve_ivp of the same equations (speed and
    temperature at t = 0.1 s and 1 s, position at 1 s)."""
    out = _run("translational_eddy_current_brake.py", tmp_path, monkeypatch, capsys)
    _check_eddy_current_brake(out, "m/s")
    _, ref = _eddy_current_brake_scipy()
    assert _numbers(r"s = (\S+) m,", out)[0] == pytest.approx(ref[0], rel=1e-6)

