"""Joint limits of an imported URDF as hard stops (``from_urdf(..., stops=...)``,
``Robot.add_stops``). Reference: a pendulum of inertia J about its hinge, swinging from
φ = 0 at ω₀ into its upper limit φ_u: energy conservation before the impact,
J·ω_u² = J·ω₀² − 2·m·g·l·(1 − cos φ_u); Newton's law at the stop, ω⁺ = −e·ω_u, and the energy
an impact removes, (1 − e²)·½·J·ω_u² (m_eff = J for the row γ = ω); the symmetric potential
brings the pendulum to the lower limit at the rebound speed."""
from __future__ import annotations

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.blocks.hybrid import StopLaw

M, L, I_C, G, LIMIT, W0 = 1.0, 0.5, 0.01, 9.81, 0.3, 2.0
J = I_C + M * L ** 2

URDF = f"""<robot name="limited_pendulum">
  <link name="base"/>
  <link name="arm"><inertial><origin xyz="0 0 {-L}"/><mass value="{M}"/>
    <inertia ixx="{I_C}" iyy="{I_C}" izz="{I_C}" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 1 0"/><limit lower="{-LIMIT}" upper="{LIMIT}" effort="10" velocity="5"/>
  </joint>
</robot>"""


def _run(robot, t_end=1.0):
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), r=robot))
    (phi,), (w,) = robot.coordinate_names("hinge"), robot.speed_names("hinge")
    res = system.simulate(t_end, z0={w: W0}, rtol=1e-11, atol=1e-11, n_out=201)
    return system, res, phi, w


def test_limits_are_metadata_unless_asked():
    robot = jd.from_urdf(URDF)
    assert robot.stops == {}
    _, res, phi, _ = _run(robot, 0.5)
    assert res[phi].max() > LIMIT + 0.1           # swings through the limit of the file


def test_urdf_limits_become_stops_with_newton_impacts():
    e = 0.5
    robot = jd.from_urdf(URDF, stops={"e": e, "v_rest": 0.0})
    assert list(robot.stops) == ["hinge"]
    assert robot.stops["hinge"].lower == pytest.approx(-LIMIT, abs=1e-15)
    assert robot.stops["hinge"].upper == pytest.approx(LIMIT, abs=1e-15)
    system, res, phi, w = _run(robot)
    k = system.x_names.index(w)
    w_hit = np.sqrt(W0 ** 2 - 2 * M * G * L * (1 - np.cos(LIMIT)) / J)
    upper = res.events.select("r.hinge_stop", "hit_upper")
    lower = res.events.select("r.hinge_stop", "hit_lower")
    assert len(upper) >= 1 and len(lower) >= 1
    first = upper[0]
    assert first.x_before[k] == pytest.approx(w_hit, rel=1e-7)
    assert first.x_after[k] == pytest.approx(-e * w_hit, rel=1e-7)
    assert first.energy_lost == pytest.approx((1 - e ** 2) * 0.5 * J * w_hit ** 2, rel=1e-7)
    assert lower[0].t > first.t
    assert lower[0].x_before[k] == pytest.approx(-e * w_hit, rel=1e-6)
    assert res[phi].max() <= LIMIT + 1e-9 and res[phi].min() >= -LIMIT - 1e-9


def test_plastic_stops_by_default_and_add_stops_after_import():
    """stops=True: e = 0, the arm stops dead at the limit and gravity takes it back; the
    same stop added after the import by Robot.add_stops gives the same event times."""
    robot = jd.from_urdf(URDF, stops=True)
    system, res, phi, w = _run(robot, 0.6)
    k = system.x_names.index(w)
    hit = res.events.select("r.hinge_stop", "hit_upper")[0]
    assert abs(hit.x_after[k]) < 1e-9
    later = jd.from_urdf(URDF)
    later.add_stops(joints=["hinge"], law=StopLaw.RIGID)
    _, res2, _, _ = _run(later, 0.6)
    assert res2.events.select("r.hinge_stop", "hit_upper")[0].t == pytest.approx(hit.t,
                                                                                 abs=1e-9)


def test_bad_stop_options_are_named():
    with pytest.raises(jd.ModelError, match="stops must be True, False or a dict"):
        jd.from_urdf(URDF, stops="yes")
    with pytest.raises(jd.ModelError, match="add_stops.*options are Stop's"):
        jd.from_urdf(URDF, stops={"restitution": 0.5})
    with pytest.raises(jd.ModelError, match="restitution e must lie in"):
        jd.from_urdf(URDF, stops={"e": 1.5})
    robot = jd.from_urdf(URDF)
    with pytest.raises(jd.ModelError, match="elbow"):
        robot.add_stops(joints=["elbow"])
    robot.add_stops()
    with pytest.raises(jd.ModelError, match="has a stop already"):
        robot.add_stops()


def test_mjcf_ranges_become_stops():
    """The same pendulum in MJCF (hinge range in radians): the same first impact."""
    pytest.importorskip("mujoco")
    xml = f"""<mujoco><compiler angle="radian"/><option gravity="0 0 -{G}"/><worldbody>
      <body name="arm"><joint name="hinge" type="hinge" axis="0 1 0" limited="true"
        range="{-LIMIT} {LIMIT}"/>
        <inertial pos="0 0 {-L}" mass="{M}" diaginertia="{I_C} {I_C} {I_C}"/></body>
    </worldbody></mujoco>"""
    robot = jd.from_mjcf(xml, stops={"e": 0.5, "v_rest": 0.0})
    system, res, phi, w = _run(robot, 0.5)
    w_hit = np.sqrt(W0 ** 2 - 2 * M * G * L * (1 - np.cos(LIMIT)) / J)
    first = res.events.select("r.hinge_stop", "hit_upper")[0]
    assert first.x_after[system.x_names.index(w)] == pytest.approx(-0.5 * w_hit, rel=1e-7)
