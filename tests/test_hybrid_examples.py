"""The hybrid examples (issue 13) run top to bottom and print their key numbers. References:
the closed forms each example prints next to its result (bouncing ball impact times, the
Newton energy loss, stick–slip phase durations, clutch lock-up time, brake stopping time and
distance, the angular momentum the drive puts into MSL's CoupledClutches, the Cubli's jump
speed from angular momentum), compared here from the printed text."""
import re
import runpy
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _run(script: str, capsys, monkeypatch, tmp_path) -> str:
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(EXAMPLES / script), run_name="__main__")
    return capsys.readouterr().out


def _numbers(pattern: str, text: str) -> list[float]:
    match = re.search(pattern, text)
    assert match, f"not printed: {pattern}"
    return [float(g) for g in match.groups()]


def test_bouncing_ball(capsys, monkeypatch, tmp_path):
    out = _run("bouncing_ball.py", capsys, monkeypatch, tmp_path)
    errors = [float(e) for e in re.findall(r"error ([-+][\d.e+-]+)\)", out)]
    assert len(errors) == 5 and max(abs(e) for e in errors) < 1e-9
    lost = re.findall(r"energy lost ([\d.]+) J = \(1 - e²\)·½·m·v² = ([\d.]+) J", out)
    # printed to 6 decimals: equal within one printed unit (not as strings, which a value
    # on a rounding boundary would split)
    assert lost and all(abs(float(a) - float(b)) <= 1.5e-6 for a, b in lost)
    rest, zeno = _numbers(r"rests from t = ([\d.]+) s \(Zeno .*?: ([\d.]+) s\)", out)
    assert 0 < zeno - rest < 1e-2


def test_pendulum_stop(capsys, monkeypatch, tmp_path):
    out = _run("pendulum_stop.py", capsys, monkeypatch, tmp_path)
    lost = re.findall(r"energy lost ([\d.]+) J = \(1 - e²\)·½·m·l²·ω² = ([\d.]+) J", out)
    assert len(lost) == 3 and all(abs(float(a) - float(b)) <= 1.5e-6 for a, b in lost)
    reaction, expected = _numbers(r"reaction ([\d.]+) N·m = m·g·l·sin\(0.3\) = ([\d.]+)", out)
    assert reaction == pytest.approx(expected, abs=1e-6)
    assert _numbers(r"energy drift ([\d.e+-]+) J", out)[0] < 1e-6


def test_stick_slip_belt(capsys, monkeypatch, tmp_path):
    out = _run("stick_slip_belt.py", capsys, monkeypatch, tmp_path)
    slips = [float(v) for v in re.search(r"slip phases:  \[([^\]]+)\]", out).group(1).split()]
    closed = _numbers(r"slip phases: .*\(closed form ([\d.]+) s\)", out)[0]
    assert all(abs(s - closed) < 1e-8 for s in slips)
    sticks = [float(v) for v in re.search(r"stick phases: \[([^\]]+)\]", out).group(1).split()]
    assert all(abs(s - 0.2) < 1e-8 for s in sticks)


def test_clutch_engagement(capsys, monkeypatch, tmp_path):
    out = _run("clutch_engagement.py", capsys, monkeypatch, tmp_path)
    lock, closed = _numbers(r"locked at t = ([\d.]+) s \(closed form ([\d.]+) s\)", out)
    assert lock == pytest.approx(closed, abs=1e-8)


def test_cubli_jump(capsys, monkeypatch, tmp_path):
    out = _run("cubli_jump.py", capsys, monkeypatch, tmp_path)
    closed = _numbers(r"angular momentum about the edge: ([\d.]+) rad/s", out)[0]
    simulated = _numbers(r"least wheel speed by simulation .*?: ([\d.]+) rad/s", out)[0]
    assert 1.0 < simulated / closed < 1.02
    tilt = _numbers(r"tilt at t = 2.5 s: ([-\d.e+]+) rad", out)[0]
    assert abs(tilt) < 1e-2
    assert (tmp_path / "out" / "cubli_jump.png").stat().st_size > 1000


def test_msl_coupled_clutches(capsys, monkeypatch, tmp_path):
    out = _run("msl/coupled_clutches.py", capsys, monkeypatch, tmp_path)
    gained, expected = _numbers(r"angular momentum gained ([\d.]+) N·m·s = .*= ([\d.]+)", out)
    assert gained == pytest.approx(expected, abs=1e-8)
    assert out.count("release") == 1 and out.count("engage") == 2


def test_msl_rotational_friction(capsys, monkeypatch, tmp_path):
    out = _run("msl/rotational_friction.py", capsys, monkeypatch, tmp_path)
    assert "the brake holds inertia1" in out
    t_clutch = _numbers(r"tClutch: min\s+([-\d.]+)\s+max\s+([-\d.]+)", out)
    assert min(t_clutch) == pytest.approx(-80.0, abs=1e-3)     # μ·cgeo·fn_max = 0.5·160
    t_brake = _numbers(r"tBrake: min\s+([-\d.]+)\s+max\s+([-\d.]+)", out)
    assert max(t_brake) == pytest.approx(800.0, abs=1e-3)      # 0.5·1600


def test_msl_one_way_clutch(capsys, monkeypatch, tmp_path):
    out = _run("msl/one_way_clutch.py", capsys, monkeypatch, tmp_path)
    gap = _numbers(r"\|w_in − w_out\| while locked ≤ ([\d.e+-]+)", out)[0]
    overrun = _numbers(r"overrunning w_rel ≥ ([-\d.e+]+)", out)[0]
    assert gap < 1e-9 and overrun > -1e-9


def test_msl_translational_friction(capsys, monkeypatch, tmp_path):
    out = _run("msl/translational_friction.py", capsys, monkeypatch, tmp_path)
    assert "hit_lower" in out
    final = _numbers(r"final position ([-\d.]+) m", out)[0]
    # stuck where the spring force (500·(s + 0.25)) is within the static limit 1.001·8 N
    assert abs(500 * (final + 0.25)) <= 1.001 * 8.0


def test_msl_translational_brake(capsys, monkeypatch, tmp_path):
    out = _run("msl/translational_brake.py", capsys, monkeypatch, tmp_path)
    for t_stop, s_stop in re.findall(r"stops at t = ([\d.]+) s .*?s = ([\d.]+) m", out):
        assert float(t_stop) == pytest.approx(1.1, abs=1e-8)
        assert float(s_stop) == pytest.approx(0.6, abs=1e-8)


def test_hopper_jump(capsys, monkeypatch, tmp_path):
    """The four-phase plan (push, ascent, descent, impact, landing) and its open-loop
    re-simulation through the event loop agree on lift-off, touch-down and clearance."""
    out = _run("hopper_jump.py", capsys, monkeypatch, tmp_path)
    assert "solved: True" in out
    lift, lift_plan, land, land_plan, clear, clear_plan = _numbers(
        r"lift-off at t = ([\d.]+) s \(plan ([\d.]+)\), touch-down at t = ([\d.]+) s "
        r"\(plan ([\d.]+)\), foot clearance ([\d.]+) m \(plan ([\d.]+)\)", out)
    assert abs(lift - lift_plan) < 1e-3 and abs(land - land_plan) < 1e-3
    assert abs(clear - clear_plan) < 3e-3 and clear_plan == pytest.approx(0.15, abs=1e-6)
    foot = _numbers(r"foot speed ([-+\d.]+) → ([-+\d.]+) m/s", out)
    assert foot[0] < -1.0 and abs(foot[1]) < 1e-9              # plastic impact on the floor


def test_gripper(capsys, monkeypatch, tmp_path):
    """Reference: statics of the grasp (friction m·g/2 per finger), the friction cone, and the
    closed-form slip instant μ·F(t) = m·g/2."""
    out = _run("gripper.py", capsys, monkeypatch, tmp_path)
    friction, half_weight = _numbers(r"friction per finger ([\d.]+) N \(m·g/2 = ([\d.]+) N\)",
                                     out)
    assert friction == pytest.approx(half_weight, abs=2e-6)
    assert _numbers(r"friction cone while held: ([\d.]+)", out)[0] <= 1.0
    slip, closed = _numbers(r"slip at t = ([\d.]+) s; closed form .*: ([\d.]+) s", out)
    assert slip == pytest.approx(closed, abs=1e-5)
    assert (tmp_path / "out" / "gripper.png").is_file()


def test_dm_control_cheetah(capsys, monkeypatch, tmp_path):
    """Reference: MuJoCo on the same MJCF file, torques and step (the root height at the end
    within 1 cm: MuJoCo's soft contact sinks by up to 1.4 cm where jourdain's is rigid), and
    the ledger's bounds (no penetration beyond 1e-6 m, no energy given in any step)."""
    pytest.importorskip("mujoco")
    out = _run("dm_control_cheetah.py", capsys, monkeypatch, tmp_path)
    assert _numbers(r"near (\d+) stop rows and (\d+) capsules on the floor, far (\d+)",
                    out) == [12, 8, 19]
    ours = _numbers(r"jourdain: 47 contacts, root height at t = 2 s ([-+\d.]+) m", out)[0]
    theirs = _numbers(r"MuJoCo: +root height at t = 2 s ([-+\d.]+) m", out)[0]
    assert abs(ours - theirs) <= 1e-2
    penetration = _numbers(r"max penetration ([\d.e+-]+) m", out)[0]
    given = _numbers(r"largest energy given in a step ([\d.e+-]+) J", out)[0]
    assert penetration <= 1e-6 and given == 0.0
    for name in ("dm_control_cheetah.png", "dm_control_cheetah.html"):
        assert (tmp_path / "out" / name).is_file()
