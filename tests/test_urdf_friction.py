"""Dry joint friction of robot files as Coulomb friction with true stiction
(``from_urdf(..., friction=True)``, ``from_mjcf(..., friction=True)``, ``Robot.add_friction``).

References: Pinocchio's URDF parser (``model.friction``) and MuJoCo's compiler
(``dof_frictionloss``) for the values read; the torque balance of a held pendulum (held while
m·g·l·sin φ0 ≤ f, and then it does not move at all); the work of sliding friction when a
released pendulum sticks again, m·g·l·(cos φ1 − cos φ0) = f·(φ0 − φ1), the same in URDF and
MJCF; Newton's law of a slider on a vertical prismatic joint, s = −½·(g − f/m)·t²; the
energy balance of a friction-damped robot arm (T + V never increases).
"""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from scipy.optimize import brentq

import jourdain as jd
from jourdain.blocks import World
from jourdain.blocks.hybrid import BearingFriction, FrictionMode, SupportFriction
from jourdain.solver.exchange import UnsupportedWarning, example_robot, from_mjcf, from_urdf

M, L, I_C, G = 1.0, 0.5, 0.01, 9.81

PENDULUM = """<robot name="pendulum">
  <link name="base"/>
  <link name="arm"><inertial><origin xyz="0 0 {l}"/><mass value="{m}"/>
    <inertia ixx="{i}" iyy="{i}" izz="{i}" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="hinge" type="continuous"><parent link="base"/><child link="arm"/>
    <axis xyz="0 1 0"/><dynamics friction="{f}"/></joint>
</robot>"""

MJCF_PENDULUM = """<mujoco><option gravity="0 0 -{g}"/><worldbody>
  <body name="arm"><joint name="hinge" type="hinge" axis="0 1 0" frictionloss="{f}"/>
    <inertial pos="0 0 {l}" mass="{m}" diaginertia="{i} {i} {i}"/></body>
</worldbody></mujoco>"""

SLIDER = """<robot name="slider">
  <link name="base"/>
  <link name="block"><inertial><mass value="{m}"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="rail" type="prismatic"><parent link="base"/><child link="block"/>
    <axis xyz="0 0 1"/><limit lower="-10" upper="10" effort="100" velocity="10"/>
    <dynamics friction="{f}"/></joint>
</robot>"""


def _pendulum(f, fmt="urdf", **options):
    """The hanging pendulum (centre of mass l below the hinge about y) with dry friction f."""
    if fmt == "urdf":
        return from_urdf(PENDULUM.format(l=-L, m=M, i=I_C, f=f), **options)
    return from_mjcf(MJCF_PENDULUM.format(g=G, l=-L, m=M, i=I_C, f=f), **options)


def _simulate(robot, t_end, y0=None, **options):
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), r=robot))
    return system, system.simulate(t_end, y0=y0 or {}, **options)


def test_friction_is_metadata_with_one_note_unless_asked():
    robot = _pendulum(0.7)
    assert robot.frictions == {}
    assert robot.joint_info["hinge"].friction == pytest.approx(0.7, rel=1e-15)
    notes = [n for n in robot.notes if "friction" in n]
    assert len(notes) == 1 and "hinge" in notes[0] and "friction=True" in notes[0]
    added = robot.add_friction()                   # after the import: the note is gone
    assert list(added) == ["hinge"] and isinstance(added["hinge"], BearingFriction)
    assert not [n for n in robot.notes if "friction" in n]
    assert "friction 0.7 (stiction element)" in robot.report()


@pytest.mark.parametrize("relative", ["z1_description/urdf/z1.urdf",
                                      "talos_data/robots/talos_left_arm.urdf"])
def test_friction_values_match_pinocchio(relative):
    """The friction Pinocchio's URDF parser reads (model.friction, per velocity index) is the
    sliding friction and static limit of each joint's element."""
    pin = pytest.importorskip("pinocchio")
    path = example_robot(relative)
    model = pin.buildModelFromUrdf(str(path))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsupportedWarning)
        robot = from_urdf(path, friction=True, require_meshes=False)
    expected = {model.names[j]: float(model.friction[model.joints[j].idx_v])
                for j in range(1, model.njoints) if model.joints[j].nv == 1}
    assert expected and all(v > 0 for v in expected.values())
    assert set(robot.frictions) == set(expected)
    for name, value in expected.items():
        element = robot.frictions[name]
        assert float(element.tau_pos[0, 1]) == pytest.approx(value, rel=1e-15)
        assert element._tau0_max(None) == pytest.approx(value, rel=1e-15)


def test_held_pendulum_stays_put_to_machine_precision():
    """Gravity's torque at φ0 = 0.3 rad, m·g·l·sin φ0 = 1.45 N·m, is below the file's friction
    2 N·m: 20 s later the joint has not moved and the friction torque balances gravity's."""
    phi0 = 0.3
    robot = _pendulum(2.0, friction=True)
    _, res = _simulate(robot, 20.0, {"r.hinge.phi": phi0}, n_out=101)
    assert np.max(np.abs(res["r.hinge.phi"] - phi0)) < 1e-13
    assert np.max(np.abs(res["r.hinge.w"])) < 1e-14
    assert np.all(res["r.hinge_friction.mode"] == FrictionMode.STUCK)
    assert abs(res["r.hinge_friction.tau"][-1]) == pytest.approx(M * G * L * np.sin(phi0),
                                                                 rel=1e-12)


@pytest.mark.parametrize("fmt", ["urdf", "mjcf"])
def test_released_pendulum_sticks_where_friction_took_the_energy(fmt):
    """Friction 1.5 N·m < m·g·l·sin 0.9 = 3.84 N·m: the pendulum breaks away at once, swings
    back and sticks at φ1 with m·g·l·(cos φ1 − cos φ0) = f·(φ0 − φ1), where gravity's torque
    is below f; URDF and MJCF (frictionloss) give the same angle."""
    f, phi0 = 1.5, 0.9
    robot = _pendulum(f, fmt, friction=True)
    system, res = _simulate(robot, 3.0, {"r.hinge.phi": phi0}, rtol=1e-12, atol=1e-12)
    phi1 = brentq(lambda p: M * G * L * (np.cos(p) - np.cos(phi0)) - f * (phi0 - p),
                  -phi0 + 1e-6, 0.0)
    assert M * G * L * abs(np.sin(phi1)) <= f                 # so it stays there
    start = res.events[0]
    assert start.t == 0.0 and "mode 0 → -1" in str(start)     # breakaway backward at t = 0
    stop = res.events.select("r.hinge_friction", "stop_backward")[0]
    assert stop.x_before[system.x_names.index("r.hinge.phi")] == pytest.approx(phi1, abs=1e-9)
    assert res["r.hinge_friction.mode"][-1] == FrictionMode.STUCK
    assert res["r.hinge.phi"][-1] == pytest.approx(phi1, abs=1e-9)


@pytest.mark.parametrize("f", [5.0, 15.0])
def test_vertical_slider_holds_or_slides_by_newtons_law(f):
    """A 1 kg block on a vertical prismatic joint with friction f [N] (a SupportFriction):
    held for f ≥ m·g, else it slides down with a = −(g − f/m), s = −½·(g − f/m)·t²."""
    robot = from_urdf(SLIDER.format(m=M, f=f), friction={"peak": 1.0})
    assert isinstance(robot.frictions["rail"], SupportFriction)
    _, res = _simulate(robot, 0.5, rtol=1e-12, atol=1e-12, n_out=51)
    a = min(0.0, -(G - f / M))
    assert np.allclose(res["r.rail.s"], 0.5 * a * res.t ** 2, rtol=0, atol=1e-10)
    assert np.max(np.abs(res["r.rail.s"])) > 0.1 if f < M * G else \
        np.max(np.abs(res["r.rail.s"])) < 1e-13


def test_mimic_friction_acts_on_the_leader():
    """A gripper finger that mimics its leader with multiplier −2 adds |−2|·f_follower to
    the leader's element (the torque to hold the follower, through the coupling)."""
    link = ('<link name="{0}"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" '
            'izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>')
    urdf = ('<robot name="g"><link name="base"/>' + link.format("a") + link.format("b") +
            '<joint name="lead" type="continuous"><parent link="base"/><child link="a"/>'
            '<axis xyz="0 0 1"/><dynamics friction="0.3"/></joint>'
            '<joint name="follow" type="continuous"><parent link="base"/><child link="b"/>'
            '<axis xyz="0 0 1"/><mimic joint="lead" multiplier="-2"/>'
            '<dynamics friction="0.1"/></joint></robot>')
    robot = from_urdf(urdf, friction=True)
    assert list(robot.frictions) == ["lead"]
    assert float(robot.frictions["lead"].tau_pos[0, 1]) == pytest.approx(0.5, rel=1e-15)
    with pytest.raises(jd.ModelError, match="'follow' follows 'lead'.*name 'lead'"):
        from_urdf(urdf).add_friction(joints=["follow"])


def test_mjcf_frictionloss_as_compiled_by_mujoco():
    """frictionloss set through a <default> class reaches the elements as MuJoCo compiles
    it (dof_frictionloss); a ball joint's friction is noted, not dropped."""
    mujoco = pytest.importorskip("mujoco")
    xml = """<mujoco><default><joint frictionloss="0.25"/></default><worldbody>
      <body name="a"><joint name="h" type="hinge" axis="0 0 1"/>
        <geom type="sphere" size="0.1" mass="1"/>
        <body name="b" pos="0 0 -0.3"><joint name="s" type="slide" axis="1 0 0"
          frictionloss="0.75"/><geom type="sphere" size="0.1" mass="1"/>
          <body name="c" pos="0 0 -0.3"><joint name="ball" type="ball"/>
            <geom type="sphere" size="0.1" mass="1"/></body></body></body>
    </worldbody></mujoco>"""
    model = mujoco.MjModel.from_xml_string(xml)
    with pytest.warns(UnsupportedWarning, match="contacts between geoms"):
        robot = from_mjcf(xml, friction=True)
    assert set(robot.frictions) == {"h", "s"}
    for name, element in robot.frictions.items():
        dof = model.jnt_dofadr[mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, name)]
        assert float(element.tau_pos[0, 1]) == pytest.approx(model.dof_frictionloss[dof],
                                                             rel=1e-15)
    assert isinstance(robot.frictions["s"], SupportFriction)
    assert any("friction 0.25 of ball joint 'ball' not imported" in n for n in robot.notes)


@pytest.mark.parametrize("fmt", ["urdf", "mjcf"])
def test_negative_friction_names_the_joint(fmt):
    if fmt == "mjcf":
        pytest.importorskip("mujoco")
    with pytest.raises(jd.ModelError, match=r"joint 'hinge'.*friction must be a finite value "
                                            r"≥ 0 .*got -0.5"):
        _pendulum(-0.5, fmt)


def test_bad_friction_options_are_named():
    with pytest.raises(jd.ModelError, match="friction must be True, False or a dict"):
        _pendulum(1.0, friction="yes")
    with pytest.raises(jd.ModelError, match="add_friction.*the option is peak"):
        _pendulum(1.0, friction={"mu": 0.5})
    with pytest.raises(jd.ModelError, match="peak must be ≥ 1"):
        _pendulum(1.0, friction={"peak": 0.5})
    robot = _pendulum(1.0)
    with pytest.raises(jd.ModelError, match="elbow"):
        robot.add_friction(joints=["elbow"])
    robot.add_friction()
    with pytest.raises(jd.ModelError, match="has a friction element already"):
        robot.add_friction()


@pytest.mark.parametrize("y0, least", [
    ({"r.joint2.phi": 0.5, "r.joint3.phi": -2.0, "r.joint5.phi": 1.0}, (3, 3, 2)),
    # the gripper starts at its limit, held there by its friction: a stop at a tie
    ({"r.joint2.phi": 1.5, "r.joint3.phi": -1.0}, (1, 3, 1))])
def test_robot_arm_with_friction_and_stops_simulates(y0, least):
    """The Unitree Z1 arm (example-robot-data: 1–2 N·m friction and damping on every joint)
    released from bent poses with its limits as plastic stops: joints break away, stick
    again and land on their stops through the event loop. References: while sliding the
    friction torque is the file's value; stuck, it stays within the static limit (a stop
    holding the same joint takes the load: their split is indeterminate and the stop's row
    comes first); T + V never increases (friction, damping and impacts only dissipate)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsupportedWarning)
        robot = from_urdf(example_robot("z1_description/urdf/z1.urdf"), friction=True,
                          stops=True, require_meshes=False)
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), r=robot))
    res = system.simulate(1.5, y0=y0, n_out=151)
    kinds = [e.cause for e in res.events]
    for prefix, n in zip(("break_", "stop_", "hit_"), least):
        assert sum(c.startswith(prefix) for c in kinds) >= n, res.events.table()
    for name, element in robot.frictions.items():
        f = float(element.tau_pos[0, 1])
        tau = np.abs(res[f"r.{name}_friction.tau"])
        stuck = res[f"r.{name}_friction.mode"] == FrictionMode.STUCK
        assert np.allclose(tau[~stuck], f, rtol=1e-12), name
        assert np.all(tau[stuck] <= f * (1 + 1e-9)), name
    p = system.p_default
    energy = np.array([float(sum(system.energy(res.x[:, k], p)[:2]))
                       for k in range(res.x.shape[1])])
    assert np.all(np.diff(energy) < 1e-9 * (1 + abs(energy[0])))
    assert energy[-1] < energy[0] - 1.0


def test_stop_and_friction_on_one_joint_rest_without_chattering():
    """A pendulum that falls onto its lower limit and rests there pushed by gravity's torque
    1.45 N·m, three times the joint friction 0.5 N·m: the stop takes the load (the friction
    torque stays within its limit, the stop's reaction is m·g·l·sin φ_lim), the joint stays at
    the limit, and nothing switches after the impact."""
    urdf = PENDULUM.format(l=-L, m=M, i=I_C, f=0.5).replace(
        'type="continuous"', 'type="revolute"').replace(
        "<dynamics", '<limit lower="0.3" upper="1.0" effort="1" velocity="1"/><dynamics')
    robot = from_urdf(urdf, friction=True, stops=True)
    _, res = _simulate(robot, 2.0, {"r.hinge.phi": 0.8}, n_out=21)
    assert [e.cause for e in res.events][1:] == ["hit_lower"], res.events.table()
    assert res["r.hinge.phi"][-1] == pytest.approx(0.3, abs=1e-12)
    assert res["r.hinge_stop.lower"][-1] == pytest.approx(M * G * L * np.sin(0.3), rel=1e-5)
    assert abs(res["r.hinge_friction.tau"][-1]) < 1e-4 * 0.5


def test_robot_friction_example(tmp_path, monkeypatch, capsys):
    """examples/robot_friction.py runs top to bottom. References: a joint that never slipped
    has not moved (to round-off); the sliding friction torque is the file's 1 N·m; T + V
    only decreases."""
    import runpy
    from pathlib import Path
    monkeypatch.chdir(tmp_path)
    path = Path(__file__).resolve().parents[1] / "examples" / "robot_friction.py"
    import matplotlib.pyplot as plt
    plt.close("all")            # figures other tests left open
    runpy.run_path(str(path), run_name="__main__")
    plt.close("all")
    out = capsys.readouterr().out
    moved = [float(v) for v in re.findall(r"\(moved ([\d.e+-]+) rad\)", out)]
    assert moved and max(moved) < 1e-12
    low, high = (float(v) for v in re.search(
        r"joint3 sliding: friction torque ([\d.]+) … ([\d.]+) N·m", out).groups())
    assert low == pytest.approx(1.0, abs=1e-11) and high == pytest.approx(1.0, abs=1e-11)
    start, end, took = (float(v) for v in re.search(
        r"T \+ V: ([\d.]+) J at release, ([\d.]+) J .* took ([\d.]+) J", out).groups())
    assert end < start and took == pytest.approx(start - end, abs=2e-4)
    assert (tmp_path / "out" / "robot_friction.png").stat().st_size > 1000
