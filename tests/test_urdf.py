"""URDF import (jd.from_urdf): robots of the example-robot-data package against Pinocchio's own
URDF parser and algorithms (reference: an established peer, to 1e-10), and bad files that must
give errors naming the element.

Conventions mapped explicitly: Pinocchio's continuous joints have q = (cos φ, sin φ); its
free-flyer has q = (x, y, z, qx, qy, qz, qw) and v = (body-frame linear, body-frame angular
velocity), while jourdain's FreeJoint uses a scalar-first quaternion and the world-frame
linear velocity, so z = T·v with T = diag(R, I, I) and ż = T·a + (R·(ω × v_b), 0, …).
URDF joint damping, which Pinocchio records but leaves out of RNEA/ABA, is added as −d·v.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import Motor, World
from jourdain.solver.exchange import (
    GeometryKind,
    JointLimits,
    UnsupportedWarning,
    example_robot,
    example_robot_data_dir,
    from_urdf,
)

pin = pytest.importorskip("pinocchio")

ROBOTS = {"panda": "panda_description/urdf/panda.urdf",
          "ur5": "ur_description/urdf/ur5_robot.urdf",
          "double_pendulum_continuous":
              "double_pendulum_description/urdf/double_pendulum_continuous.urdf",
          "tiago_pro": "tiago_pro_description/robots/tiago_pro.urdf"}   # 10 mimic joints


def _import(relative: str, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsupportedWarning)
        robot = from_urdf(example_robot(relative), **options)
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), r=robot))
    return robot, system


def _joint_maps(robot, system, model, first: int):
    """(y index, q index, nq) and (z index, v index) of every 1-DOF Pinocchio joint."""
    qmap, vmap = [], []
    for jid in range(first, model.njoints):
        name, joint = model.names[jid], model.joints[jid]
        if joint.shortname() == "JointModelMimic":    # no coordinate of its own
            continue
        qmap.append((system.y_names.index(robot.coordinate_names(name)[0]), joint.idx_q,
                     joint.nq))
        vmap.append((system.z_names.index(robot.speed_names(name)[0]), joint.idx_v))
    return qmap, vmap


def _dynamics(system, y, z, zdot):
    """(M, τ = M·ż + k − q, ż from f) of a jourdain system without inputs."""
    p = system.p_default
    M = np.array(system.M(y, p))
    tau = M @ zdot + np.array(system.k(y, z, p)).ravel() - \
        np.array(system.q(0, y, z, [], p)).ravel()
    acc = np.array(system.f(0, np.r_[y, z], [], p)).ravel()[len(y):]
    return M, tau, acc


def _mimic_damping(robot, model) -> np.ndarray:
    """Pinocchio's joint damping with each mimic joint's reflected onto its leader's speed
    (d_leader + multiplier²·d_mimic; Pinocchio keeps only the leader's)."""
    damping = np.array(model.damping)
    for name in robot.mimics:
        leader, multiplier, _ = robot.joint_info[name].mimic
        damping[model.joints[model.getJointId(leader)].idx_v] += \
            multiplier ** 2 * robot.joint_info[name].damping
    return damping


def _on_leaders(robot, system, y):
    """y with each mimic joint's coordinate at multiplier·q_leader + offset."""
    for name in robot.mimics:
        leader, multiplier, offset = robot.joint_info[name].mimic
        i, j = (system.y_names.index(robot.coordinate_names(n)[0]) for n in (name, leader))
        y[i] = multiplier * y[j] + offset
    return y


@pytest.mark.parametrize("robot_name", sorted(ROBOTS))
def test_fixed_base_robot_matches_pinocchio(robot_name, rng):
    """Reference: Pinocchio (crba, rnea, aba) on its own parse of the same file, at random
    states, to 1e-10 (relative to the size of the quantities). Mimic joints (the Panda's second
    finger; TIAGo Pro's grippers: ten, multipliers ±1, chains of mimics) against Pinocchio's
    parse with mimic=True: crba and rnea on the leaders' speeds (its aba does not take mimic
    joints, so forward dynamics is M⁻¹·(−rnea(q, v, 0) − D·v))."""
    path = example_robot(ROBOTS[robot_name])
    robot, system = _import(ROBOTS[robot_name])
    model = pin.buildModelFromUrdf(str(path), mimic=True)
    data = model.createData()
    qmap, vmap = _joint_maps(robot, system, model, 1)
    perm = [iz for iz, _ in sorted(vmap, key=lambda m: m[1])]    # z index in Pinocchio's order
    damping = _mimic_damping(robot, model)
    for _ in range(3):
        y, z, a = (rng.uniform(-1, 1, n) for n in (len(system.y_names), model.nv, model.nv))
        y = _on_leaders(robot, system, y)
        q = np.zeros(model.nq)
        for iy, iq, nq in qmap:
            q[iq:iq + nq] = y[iy] if nq == 1 else (np.cos(y[iy]), np.sin(y[iy]))
        v, acc = np.zeros(model.nv), np.zeros(model.nv)
        for iz, iv in vmap:
            v[iv], acc[iv] = z[iz], a[iz]
        M, tau, zdot = _dynamics(system, y, z, a)
        M_pin = pin.crba(model, data, q)
        M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T
        tau_pin = pin.rnea(model, data, q, v, acc) + damping * v
        aba = np.linalg.solve(M_pin, -pin.rnea(model, data, q, v, 0 * v) - damping * v)
        assert np.abs(M[np.ix_(perm, perm)] - M_pin).max() < 1e-10 * max(1, np.abs(M_pin).max())
        assert np.abs(tau[perm] - tau_pin).max() < 1e-10 * max(1, np.abs(tau_pin).max())
        assert np.abs(zdot[perm] - aba).max() < 1e-10 * max(1, np.abs(aba).max())


def test_floating_base_quadruped_matches_pinocchio(rng):
    """Solo-12 on a free-flyer (Pinocchio's JointModelFreeFlyer, jourdain's floating_base=True):
    M, inverse and forward dynamics through the explicit velocity map T (module docstring)."""
    relative = "solo_description/robots/solo12.urdf"
    robot, system = _import(relative, floating_base=True)
    model = pin.buildModelFromUrdf(str(example_robot(relative)), pin.JointModelFreeFlyer())
    data = model.createData()
    qmap, vmap = _joint_maps(robot, system, model, 2)
    yb = [system.y_names.index(n) for n in robot.coordinate_names("root_joint")]
    perm = [system.z_names.index(n) for n in robot.speed_names("root_joint")] + \
        [iz for iz, _ in sorted(vmap, key=lambda m: m[1])]
    for _ in range(3):
        y = rng.uniform(-1, 1, len(system.y_names))
        quat = rng.normal(size=4)
        y[yb[3:]] = quat / np.linalg.norm(quat)
        v, acc = rng.uniform(-1, 1, model.nv), rng.uniform(-1, 1, model.nv)
        q = np.zeros(model.nq)
        q[:3], q[3:7] = y[yb[:3]], y[yb[3:]][[1, 2, 3, 0]]
        for iy, iq, _ in qmap:
            q[iq] = y[iy]
        R = pin.Quaternion(q[6], q[3], q[4], q[5]).toRotationMatrix()
        T = np.eye(model.nv)
        T[:3, :3] = R
        bias = np.zeros(model.nv)
        bias[:3] = R @ np.cross(v[3:6], v[:3])
        z, zdot = np.zeros(model.nv), np.zeros(model.nv)
        z[perm], zdot[perm] = T @ v, T @ acc + bias
        M, tau, a = _dynamics(system, y, z, zdot)
        M_pin = pin.crba(model, data, q)
        M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T
        tau_pin = pin.rnea(model, data, q, v, acc) + model.damping * v
        aba = pin.aba(model, data, q, v, -model.damping * v)
        assert np.abs(T.T @ M[np.ix_(perm, perm)] @ T - M_pin).max() < 1e-10 * np.abs(M_pin).max()
        assert np.abs(T.T @ tau[perm] - tau_pin).max() < 1e-10 * np.abs(tau_pin).max()
        assert np.abs(np.linalg.solve(T, a[perm] - bias) - aba).max() < 1e-10 * np.abs(aba).max()


def test_panda_metadata_names_limits_and_meshes():
    """Reference: the Panda's URDF text (limits, joint names, mesh files on disk); the
    unsupported <safety_controller> tags are named in a warning."""
    with pytest.warns(UnsupportedWarning, match=r"<safety_controller> in joints panda_joint1"):
        robot = from_urdf(example_robot("panda_description/urdf/panda.urdf"))
    assert robot.limits["panda_joint4"] == JointLimits(-3.0718, -0.0698, 87.0, 2.175)
    assert robot.joints["panda_joint4"].limits == robot.limits["panda_joint4"]
    assert robot.joints["panda_joint1"] is robot.panda_joint1
    assert robot.joints["panda_joint1"].axis.name == "axis"      # the flange motors drive
    assert "panda_hand" in robot.frames and "panda_joint8" not in robot.joints
    visual = robot.visuals["panda_link1"][0]
    assert visual.kind is GeometryKind.MESH and visual.mesh.is_file()
    assert visual.uri.startswith("package://example-robot-data/")
    assert list(robot.mimics) == ["panda_finger_joint2"]                  # kept on finger 1
    assert robot.mimics["panda_finger_joint2"].ratio == 1.0
    assert "mimic of panda_finger_joint1" in robot.report()
    assert robot.links["panda_hand"] is robot.links["panda_link7"]       # welded: one body


def test_motors_bounds_and_locked_joints():
    """Reference: the URDF limits become TrajectoryProblem bounds by dotted name; locked
    fingers leave 7 coordinates; the motors' inputs are the system's inputs."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsupportedWarning)
        robot = from_urdf(example_robot("panda_description/urdf/panda.urdf"),
                          locked={"panda_finger_joint1": 0.01, "panda_finger_joint2": 0.01})
    motors = robot.add_motors()
    assert sorted(motors) == [f"panda_joint{i}" for i in range(1, 8)]
    assert all(isinstance(m, Motor) for m in motors.values())
    with pytest.raises(jd.ModelError, match="compile a model that contains it first"):
        robot.bounds()
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), arm=robot))
    assert system.u_names == [f"arm.panda_joint{i}_motor.tau" for i in range(1, 8)]
    bounds = robot.bounds(system)
    assert bounds["arm.panda_joint2.phi"] == (-1.7628, 1.7628)
    assert bounds["arm.panda_joint5.w"] == (-2.61, 2.61)
    assert bounds["arm.panda_joint7_motor.tau"] == (-12.0, 12.0)
    ocp = jd.TrajectoryProblem(system, horizon=1.0, intervals=4)
    for name, (lo, hi) in bounds.items():
        ocp.bound(name, lo, hi)
    with pytest.raises(jd.ModelError, match="not a revolute, continuous or prismatic"):
        from_urdf(example_robot("panda_description/urdf/panda.urdf"),
                  locked={"panda_joint8": 0.0})


def _urdf(body: str) -> str:
    return f'<robot name="bad">{body}</robot>'


LINK = ('<link name="{0}"><inertial><mass value="1"/>'
        '<inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>')
JOINT = ('<joint name="{0}" type="{3}"><parent link="{1}"/><child link="{2}"/>'
         '<axis xyz="0 0 1"/></joint>')


def test_two_link_arm_by_hand_matches_closed_form():
    """Reference: a pendulum of a point-like mass m at distance l (inertial origin) about a
    z axis rotated to horizontal by rpy: M = I_zz + m·l² with I rotated by the inertial rpy,
    here I_xx = 0.3 about the inertial x axis, which rpy = (0, π/2, 0) turns into link z."""
    text = _urdf(
        '<link name="base"/>'
        '<link name="arm"><inertial><origin xyz="0.5 0 0" rpy="0 1.5707963267948966 0"/>'
        '<mass value="2"/><inertia ixx="0.3" iyy="0.2" izz="0.1" ixy="0" ixz="0" iyz="0"/>'
        '</inertial></link>'
        '<joint name="hinge" type="continuous"><parent link="base"/><child link="arm"/>'
        '<origin xyz="0 0 1" rpy="0 0 0"/><axis xyz="0 0 1"/></joint>')
    robot = from_urdf(text)
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), r=robot))
    M = float(np.array(system.M([0.3], []))[0, 0])
    assert M == pytest.approx(0.3 + 2 * 0.5**2, rel=1e-14)
    assert robot.limits["hinge"] == JointLimits()


MIMIC_PAIR = _urdf(
    '<link name="base"/>'
    '<link name="arm"><inertial><origin xyz="0 0 -0.4"/><mass value="1.5"/>'
    '<inertia ixx="0.02" iyy="0.03" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>'
    '<link name="follower_arm"><inertial><origin xyz="0 0 -0.25"/><mass value="0.8"/>'
    '<inertia ixx="0.01" iyy="0.005" izz="0.008" ixy="0" ixz="0" iyz="0"/></inertial></link>'
    '<joint name="leader" type="revolute"><parent link="base"/><child link="arm"/>'
    '<axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="10" velocity="10"/></joint>'
    '<joint name="mimic" type="revolute"><parent link="base"/><child link="follower_arm"/>'
    '<origin xyz="0.5 0 0"/><axis xyz="0 1 0"/><limit lower="-9" upper="9" effort="10" '
    'velocity="20"/><mimic joint="leader" multiplier="-1.7" offset="0.3"/></joint>')
K, OFFSET, G = -1.7, 0.3, 9.81
J_A, J_B = 0.03 + 1.5 * 0.4**2, 0.005 + 0.8 * 0.25**2      # about the joint axes [kg·m²]


def test_mimic_pair_is_one_dof_with_reflected_inertia(tmp_path, rng):
    """Two pendulums on parallel axes, the second a mimic of the first (q_b = k·q_a + o,
    k = −1.7, o = 0.3). References: the closed form of the single-DOF system with the
    reflected inertia, (J_a + k²·J_b)·q̈ = −m_a·g·l_a·sin q − k·m_b·g·l_b·sin(k·q + o)
    (scipy's solve_ivp to 1e-12), to 1e-8 rad; the coupling q_b = k·q_a + o to 1e-9 and the
    energy T + V to 1e-9 relative over the run; and Pinocchio's mimic=True parse (crba, rnea
    with the offset) at random states to 1e-12 (Pinocchio wants the leader first in its
    name-ordered traversal: hence the names)."""
    from scipy.integrate import solve_ivp
    robot = from_urdf(MIMIC_PAIR)
    assert list(robot.mimics) == ["mimic"]
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), r=robot))
    assert system.z_names == ["r.leader.w"] and system.dependent_coordinates == ["r.mimic.phi"]
    M = float(np.array(system.M([0.2, K * 0.2 + OFFSET], []))[0, 0])
    assert M == pytest.approx(J_A + K**2 * J_B, rel=1e-12)

    def closed_form(t, x):
        q, w = x
        torque = -1.5 * G * 0.4 * np.sin(q) - K * 0.8 * G * 0.25 * np.sin(K * q + OFFSET)
        return [w, torque / (J_A + K**2 * J_B)]

    t = np.linspace(0, 2, 41)
    ref = solve_ivp(closed_form, (0, 2), [0.4, 0.0], t_eval=t, rtol=1e-12, atol=1e-12)
    res = system.simulate(2.0, y0={"r.leader.phi": 0.4}, t_out=t, rtol=1e-11, atol=1e-11)
    assert np.abs(res["r.leader.phi"] - ref.y[0]).max() < 1e-8
    assert np.abs(res["r.mimic.phi"] - (K * res["r.leader.phi"] + OFFSET)).max() < 1e-9
    energy = res["energy.kinetic"] + res["energy.potential"]
    assert np.ptp(energy) < 1e-9 * np.abs(energy).max()
    path = tmp_path / "pair.urdf"
    path.write_text(MIMIC_PAIR)
    model = pin.buildModelFromUrdf(str(path), mimic=True)
    data = model.createData()
    for _ in range(2):
        q, v, a = rng.uniform(-1, 1, 3)
        _, tau, _ = _dynamics(system, [q, K * q + OFFSET], [v], [a])
        assert float(tau[0]) == pytest.approx(
            float(pin.rnea(model, data, np.array([q]), np.array([v]), np.array([a]))[0]),
            rel=1e-12)
        assert float(np.array(system.M([q, K * q + OFFSET], []))[0, 0]) == pytest.approx(
            float(pin.crba(model, data, np.array([q]))[0, 0]), rel=1e-12)


def test_mimic_options_locks_and_errors():
    """mimic=False lets the joint move on its own (named in the warning); a locked leader
    locks its mimic at k·value + o; a mimic joint gets no motor by default; bad mimics
    are named errors (unknown leader, cycles)."""
    with pytest.warns(UnsupportedWarning, match="'mimic' follows 'leader'.*mimic=False"):
        free = from_urdf(MIMIC_PAIR, mimic=False)
    assert not free.mimics and len(jd.compile(jd.Model.on_world(World(), r=free)).z_names) == 2
    locked = from_urdf(MIMIC_PAIR, locked={"leader": 0.5})
    assert not locked.joints and any("'mimic' locked at -0.55" in n for n in locked.notes)
    robot = from_urdf(MIMIC_PAIR)
    assert list(robot.add_motors()) == ["leader"]
    with pytest.raises(jd.ModelError, match=r"joint 'mimic' .*<mimic joint='nobody'> "
                                            r"names no joint.*mimic=False"):
        from_urdf(MIMIC_PAIR.replace('mimic joint="leader"', 'mimic joint="nobody"'))
    cycle = MIMIC_PAIR.replace('<axis xyz="0 1 0"/><limit lower="-3"',
                               '<axis xyz="0 1 0"/><mimic joint="mimic"/><limit lower="-3"')
    with pytest.raises(jd.ModelError, match="follow each other in a cycle"):
        from_urdf(cycle)


@pytest.mark.parametrize("body, match", [
    (LINK.format("a") + '<link name="b"/>' + JOINT.format("j", "a", "b", "revolute"),
     r"joint 'j' \(<string>, line 1\) moves link 'b'.*no <inertial>"),
    (LINK.format("a") + LINK.format("b") + JOINT.format("j", "a", "b", "screw"),
     r"joint 'j' .*unknown joint type 'screw'"),
    (LINK.format("a") + LINK.format("b") + LINK.format("c") + JOINT.format("j1", "a", "b",
     "revolute") + JOINT.format("j2", "b", "c", "revolute") + JOINT.format("j3", "c", "b",
                                                                          "revolute"),
     r"link 'b' is the child of two joints, joint 'j1'.* and joint 'j3'"),
    (LINK.format("a") + LINK.format("b") + JOINT.format("j1", "a", "b", "revolute")
     + JOINT.format("j2", "b", "a", "revolute"),
     r"joint 'j1' .*, joint 'j2' .* form a cycle"),
    (LINK.format("a") + LINK.format("a"), r"link 'a' is defined twice"),
    (LINK.format("a") + LINK.format("b") + LINK.format("c") + JOINT.format("j1", "b", "c",
     "revolute") + JOINT.format("j2", "c", "b", "fixed"),
     r"joint 'j1' .*, joint 'j2' .* form a cycle"),
    (LINK.format("a") + LINK.format("b") + JOINT.format("j", "a", "missing", "revolute"),
     r"joint 'j' .*child link 'missing' is not defined"),
    (LINK.format("a") + LINK.format("b") + JOINT.format("j", "a", "b", "planar"),
     r"joint 'j' .*planar joints are not supported yet"),
    (LINK.format("a").replace('iyy="0.1"', 'iyy="0.01"').replace('izz="0.1"', 'izz="0.01"')
     + LINK.format("b") + JOINT.format("j", "b", "a", "revolute"),
     r"link 'a' .*triangle inequality.*balance_inertia=True"),
])
def test_bad_urdf_named_errors(body, match):
    """Bad input: the error names the element (and its line) and says what to do."""
    with pytest.raises(jd.ModelError, match=match):
        from_urdf(_urdf(body))


def test_missing_mesh_named_and_optional(tmp_path):
    """A mesh file that does not exist is a named error pointing at the link; with
    require_meshes=False the dynamics import and the note says so; package_dirs resolve
    package:// names (reference: the file written here)."""
    mesh = ('<visual><geometry><mesh filename="package://my_robot/meshes/arm.stl"/>'
            '</geometry></visual>')
    text = _urdf(LINK.format("a") + LINK.format("b").replace("</link>", mesh + "</link>")
                 + JOINT.format("j", "a", "b", "revolute"))
    with pytest.raises(jd.ModelError, match=r"link 'b' .*<visual> mesh "
                                            r"'package://my_robot/meshes/arm.stl' not found"):
        from_urdf(text)
    with pytest.warns(UnsupportedWarning, match="1 mesh files not found"):
        robot = from_urdf(text, require_meshes=False)
    assert robot.visuals["b"][0].mesh is None
    (tmp_path / "my_robot" / "meshes").mkdir(parents=True)
    (tmp_path / "my_robot" / "meshes" / "arm.stl").write_text("solid arm\nendsolid arm\n")
    robot = from_urdf(text, package_dirs=[tmp_path])
    assert robot.visuals["b"][0].mesh == tmp_path / "my_robot" / "meshes" / "arm.stl"


def test_balance_inertia_and_sanitized_names():
    """balance_inertia raises the two smaller principal moments to I1 + I2 = I3 (reference:
    the triangle inequality holds with equality afterwards); names that are no identifiers
    are mapped and reported."""
    bad = LINK.format("arm.1").replace('iyy="0.1"', 'iyy="0.01"').replace('izz="0.1"',
                                                                          'izz="0.01"')
    text = _urdf(LINK.format("base") + bad + JOINT.format("joint-1", "base", "arm.1",
                                                           "revolute"))
    robot = from_urdf(text, balance_inertia=True)
    assert robot.joint_names == {"joint-1": "joint_1"}
    assert robot.link_names == {"base": "base", "arm.1": "arm_1"}
    body = robot.links["arm.1"]
    moments = np.linalg.eigvalsh(body.I)
    assert moments[0] + moments[1] == pytest.approx(moments[2], rel=1e-12)
    assert "renamed: joint-1 -> joint_1" in robot.report()
    assert any("balanced" in note for note in robot.notes)


def test_example_robot_data_is_found():
    assert example_robot_data_dir() is not None
    with pytest.raises(jd.ModelError, match="no file 'nope.urdf'"):
        example_robot("nope.urdf")


def test_robot_arm_example(tmp_path, monkeypatch, capsys):
    """examples/robot_arm.py runs top to bottom. References: the held arm does not move under
    its gravity torques (static equilibrium), the plan respects the URDF torque limits, the
    PID-tracked arm with a heavier hand ends at the goal, the FMU holds the arm in FMPy."""
    import re
    import runpy
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "examples" / "robot_arm.py"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("JOURDAIN_CACHE", str(tmp_path / "cache"))
    runpy.run_path(str(path), run_name="__main__")
    out = capsys.readouterr().out

    def number(pattern):
        return float(re.search(pattern, out).group(1))

    assert number(r"largest joint drift (\S+) rad") < 1e-9
    ratios = re.search(r"peak torque / limit per joint: \[([^\]]+)\]", out).group(1)
    assert max(float(r) for r in ratios.split()) <= 1.0 + 1e-6
    assert number(r"feedforward \+ PID, \+1 kg in the hand: .* (\S+) rad from the goal") < 1e-3
    assert number(r"held by the gravity torques for 2 s: largest drift (\S+) rad") < 1e-9
    assert (tmp_path / "out" / "robot_arm.png").stat().st_size > 1000
    assert (tmp_path / "out" / "panda.fmu").stat().st_size > 1000


def _all_robots():
    share = example_robot_data_dir()
    root = share / "example-robot-data" / "robots" if share else None
    return sorted(str(p.relative_to(root)) for p in root.glob("*/*/*.urdf")) if root else []


REFUSED = {"romeo_description/urdf/romeo.urdf": "moves link",          # massless fingers
           "romeo_description/urdf/romeo_laas_small.urdf": "moves link",
           "ur_description/urdf/ur3.urdf": "has no <link>"}             # an empty file


@pytest.mark.slow
@pytest.mark.parametrize("relative", _all_robots())
def test_every_example_robot_mass_matrix_matches_pinocchio(relative, rng):
    """Every URDF of example-robot-data (up to 45 speeds): M equals Pinocchio's crba at a
    random configuration to 1e-10 relative, or the import is refused with a named error
    (files with non-physical inertias are balanced, and then only checked to import). Mimic
    joints stay on their leaders when Pinocchio's mimic=True parse accepts the file."""
    path = example_robot(relative)
    if relative in REFUSED:
        with pytest.raises(jd.ModelError, match=REFUSED[relative]):
            from_urdf(path, require_meshes=False, balance_inertia=True)
        return
    try:                # mimic joints on their leaders where Pinocchio accepts the file's
        model, mimic = pin.buildModelFromUrdf(str(path), mimic=True), True
    except ValueError:  # e.g. a mimic naming a joint that does not exist (Alex's hands)
        model, mimic = pin.buildModelFromUrdf(str(path)), False
    if not 0 < model.nv <= 45:
        pytest.skip(f"{model.nv} speeds")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsupportedWarning)
        robot = from_urdf(path, require_meshes=False, balance_inertia=True, mimic=mimic)
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), r=robot))
    qmap, vmap = _joint_maps(robot, system, model, 1)
    y, q = _on_leaders(robot, system, rng.uniform(-1, 1, len(system.y_names))), \
        pin.neutral(model)
    for iy, iq, nq in qmap:
        q[iq:iq + nq] = y[iy] if nq == 1 else (np.cos(y[iy]), np.sin(y[iy]))
    perm = [iz for iz, _ in sorted(vmap, key=lambda m: m[1])]
    M = np.array(system.M(y, system.p_default))[np.ix_(perm, perm)]
    M_pin = pin.crba(model, model.createData(), q)
    M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T
    if not any("balanced" in note for note in robot.notes):
        assert np.abs(M - M_pin).max() < 1e-10 * np.abs(M_pin).max()
