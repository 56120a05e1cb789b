"""MJCF import (jd.from_mjcf) against MuJoCo itself (reference: an established peer): the
imported model's mass matrix equals mj_fullM and its ż equals MuJoCo's qacc (gravity, joint
damping and springs, contacts disabled) at random states.

Mapping: hinge and slide coordinates are qpos − qpos0 (MJCF ``ref``); ball and free joints
take MuJoCo's scalar-first quaternions and velocities as they are (free: world linear,
body-fixed angular velocity, as jourdain's FreeJoint).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.solver.exchange import GeometryKind, UnsupportedWarning, from_mjcf

mujoco = pytest.importorskip("mujoco")

ARM = """
<mujoco model="arm">
  <compiler angle="degree"/>
  <option gravity="0 0.5 -9.81"/>
  <worldbody>
    <geom type="plane" size="1 1 0.1"/>
    <body name="upper" pos="0 0 1" quat="0.9 0.1 0.2 0.3">
      <joint name="shoulder" type="hinge" axis="0 1 0" pos="0 0 0.1" ref="20" damping="0.2"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
      <body name="lower" pos="0.5 0 0" euler="10 20 30">
        <joint name="elbow" type="hinge" axis="0 0.6 0.8" pos="0.05 0.02 0" damping="0.3"
               stiffness="2" springref="10"/>
        <joint name="slide" type="slide" axis="1 0 0" pos="0.1 0 0" stiffness="5"/>
        <geom type="box" size="0.2 0.05 0.03" pos="0.2 0 0" euler="0 0 15"/>
        <site name="tip" pos="0.4 0 0"/>
        <body name="hand" pos="0.4 0 0">
          <joint name="wrist" type="ball" pos="0 0 0.05"/>
          <inertial pos="0.01 0.02 0.03" mass="0.7" fullinertia="0.01 0.02 0.015 0.001 0.002 -0.001"/>
        </body>
      </body>
      <body name="cap" pos="0 0 0.3">
        <geom type="ellipsoid" size="0.1 0.05 0.03"/>
      </body>
    </body>
    <body name="ball" pos="1 0 1">
      <freejoint/>
      <geom type="cylinder" size="0.1 0.2"/>
    </body>
  </worldbody>
</mujoco>
"""


def _state(robot, system, model, rng):
    """Random MuJoCo qpos, qvel and the same state as jourdain's y, z (module docstring)."""
    qpos, qvel = model.qpos0.copy(), rng.uniform(-1, 1, model.nv)
    y, z = system.y_default.copy(), np.zeros(len(system.z_names))
    perm = []
    for j in range(model.njnt):
        name = mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_JOINT, j) or "ball_free"
        coords, speeds = robot.coordinate_names(name), robot.speed_names(name)
        qa, da, kind = model.jnt_qposadr[j], model.jnt_dofadr[j], int(model.jnt_type[j])
        if kind in (int(mujoco.mjtJoint.mjJNT_HINGE), int(mujoco.mjtJoint.mjJNT_SLIDE)):
            values = [rng.uniform(-1, 1)]
            qpos[qa] = model.qpos0[qa] + values[0]
        else:
            quat = rng.normal(size=4)
            values = [*rng.uniform(-1, 1, 3 * (kind == int(mujoco.mjtJoint.mjJNT_FREE))),
                      *quat / np.linalg.norm(quat)]
            qpos[qa:qa + len(values)] = values
        for n, v in zip(coords, values):
            y[system.y_names.index(n)] = v
        for k, n in enumerate(speeds):
            z[system.z_names.index(n)] = qvel[da + k]
        perm += [system.z_names.index(n) for n in speeds]
    return qpos, qvel, y, z, perm


def test_arm_matches_mujoco(rng):
    """M = mj_fullM and ż = qacc (with damping, springs and gravity) to 1e-10."""
    with pytest.warns(UnsupportedWarning, match="contacts between geoms"):
        robot = from_mjcf(ARM)
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), r=robot))
    model = mujoco.MjModel.from_xml_string(ARM)
    model.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONTACT
    data = mujoco.MjData(model)
    for _ in range(4):
        qpos, qvel, y, z, perm = _state(robot, system, model, rng)
        data.qpos[:], data.qvel[:] = qpos, qvel
        mujoco.mj_forward(model, data)
        M = np.zeros((model.nv, model.nv))
        mujoco.mj_fullM(model, data, M)
        p = system.p_default
        M_jd = np.array(system.M(y, p))[np.ix_(perm, perm)]
        zdot = np.array(system.f(0, np.r_[y, z], [], p)).ravel()[len(y):][perm]
        assert np.abs(M_jd - M).max() < 1e-10 * np.abs(M).max()
        assert np.abs(zdot - data.qacc).max() < 1e-10 * np.abs(data.qacc).max()


def test_metadata_geoms_sites_and_limits():
    """Reference: the MJCF text: geoms become shapes in the body frames (full box extents,
    full cylinder length), the site a frame, ref and springs appear in joint_info."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsupportedWarning)
        robot = from_mjcf(ARM.replace('<joint name="slide"', '<joint name="slide" '
                                      'limited="true" range="-0.1 0.2"'))
    kinds = {g.kind for g in robot.visuals["lower"]}
    assert kinds == {GeometryKind.BOX}
    box = robot.visuals["lower"][0]
    assert box.size == pytest.approx((0.4, 0.1, 0.06))
    assert robot.visuals["ball"][0].size == pytest.approx((0.1, 0.4))
    assert robot.visuals["world"][0].kind is GeometryKind.PLANE
    assert "tip" in robot.frames and "lower#1" not in robot.frames
    assert robot.joint_info["shoulder"].ref == pytest.approx(np.radians(20))
    assert robot.limits["slide"].lower == -0.1 and robot.limits["slide"].upper == 0.2
    assert robot.gravity == (0.0, 0.5, -9.81)
    assert sorted(robot.joints) == ["ball_free", "elbow", "shoulder", "slide", "wrist"]


def test_unsupported_and_bad_mjcf():
    """Actuators are named in the warning; MuJoCo's own compile error becomes a ModelError
    naming the file's problem."""
    with_motor = ARM.replace("</worldbody>", '</worldbody><actuator><motor joint="elbow"/>'
                             "</actuator>")
    with pytest.warns(UnsupportedWarning, match=r"<actuator> .* ×1"):
        from_mjcf(with_motor)
    with pytest.raises(jd.ModelError, match="MuJoCo could not compile .*unrecognized"):
        from_mjcf(ARM.replace('type="hinge" axis="0 1 0"', 'type="hinge" axiz="0 1 0"'))
    with pytest.raises(jd.ModelError, match="no such file"):
        from_mjcf("missing.xml")


def test_mesh_geom_keeps_the_file_frame(tmp_path):
    """MuJoCo re-centres mesh vertices on their inertial frame; the imported shape points at
    the file and places the file's own frame where the MJCF geom put it (reference: the geom's
    pos and euler written here, and MuJoCo's own body inertia of the mesh)."""
    (tmp_path / "tet.obj").write_text("v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\n"
                                      "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    (tmp_path / "m.xml").write_text(
        '<mujoco><asset><mesh name="tet" file="tet.obj"/></asset><worldbody><body name="b">'
        '<joint type="hinge" axis="0 0 1"/><geom type="mesh" mesh="tet" pos="0.3 0 0" '
        'euler="0 0 90"/></body></worldbody></mujoco>')
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsupportedWarning)
        robot = from_mjcf(tmp_path / "m.xml")
    (shape,) = robot.visuals["b"]
    assert shape.kind is GeometryKind.MESH and shape.mesh == tmp_path / "tet.obj"
    expected = np.array([[0, -1, 0, 0.3], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    assert np.abs(shape.origin - expected).max() < 1e-12
    model = mujoco.MjModel.from_xml_path(str(tmp_path / "m.xml"))
    assert robot.links["b"].m == pytest.approx(model.body_mass[1], rel=1e-14)
