"""Contacts and armature from model files (issue 28). References: MuJoCo's mass matrix
(mj_fullM) with the files' joint armature; non-penetration of the rigid contacts (the
ledger's deepest penetration below 1e-6 m) for the dm_control hopper and cheetah dropped on
their floor (files from dm_control 1.0.50, Apache-2.0, in tests/data/dm_control); the
restitution of MuJoCo's damped contact spring in closed form."""
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.solver.exchange.contacts import restitution

mujoco = pytest.importorskip("mujoco")
DATA = Path(__file__).parent / "data" / "dm_control"


def _import(name, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return jd.from_mjcf(DATA / f"{name}.xml", **options)


def test_armature_enters_the_mass_matrix_as_in_mujoco():
    """The hopper's hinge armature (0.2 kg·m² on waist, hip, knee, ankle): jourdain's M
    equals mj_fullM at random configurations to 1e-10 (relative); without the armature
    the diagonal differs by exactly 0.2."""
    robot = _import("hopper")
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), r=robot))
    model = mujoco.MjModel.from_xml_path(str(DATA / "hopper.xml"))
    data = mujoco.MjData(model)
    assert [n.split(".")[1] for n in system.y_names] == \
        [mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_JOINT, j) for j in range(model.njnt)]
    rng = np.random.default_rng(5)
    for _ in range(4):
        y = rng.uniform(-0.5, 0.5, model.nq)
        data.qpos[:] = model.qpos0 + y
        mujoco.mj_forward(model, data)
        M = np.zeros((model.nv, model.nv))
        mujoco.mj_fullM(model, data, M)
        M_jd = np.array(system.M(y, system.p_default))
        assert np.abs(M_jd - M).max() < 1e-10 * np.abs(M).max()
    assert np.allclose(model.dof_armature[3:], 0.2)


def test_restitution_of_mujoco_contact_spring():
    """e = exp(−π·ζ/√(1 − ζ²)): the bounce of a mass on a linear spring–damper of damping
    ratio ζ; MuJoCo's default ζ = 1 is plastic."""
    assert restitution((0.02, 1.0)) == 0.0
    assert restitution((0.02, 0.5)) == pytest.approx(math.exp(-math.pi * 0.5 / math.sqrt(0.75)),
                                                     rel=1e-15)
    assert restitution((-1000.0, -10.0)) == 0.0


def test_imported_contacts_follow_the_file():
    """The hopper's geoms (contype = conaffinity = 1, friction 1 by MuJoCo's default) and its
    floor become collision shapes; parent and child bodies do not collide."""
    robot = _import("hopper", contacts=True)
    model = jd.Model.on_world(World(g=robot.gravity), r=robot)
    from jourdain.solver.collision import collision_pairs
    pairs = collision_pairs(model)
    names = {(p.a.name, p.b.name) for p in pairs}
    assert ("floor", "foot") in names and ("torso", "nose") not in names
    assert ("thigh", "calf") not in names and ("torso", "thigh") in names
    assert all(p.material.mu == pytest.approx(1.0) and p.material.e == 0.0 for p in pairs)


@pytest.mark.parametrize("name, horizon", [
    ("hopper", 0.5),
    pytest.param("cheetah", 0.5, marks=pytest.mark.slow)])   # 35 contacts, 105 rows: ~80 s
def test_dm_control_model_dropped_does_not_fall_through_the_floor(name, horizon):
    """Dropped from the file's pose under gravity: lands, deepest penetration < 1e-6 m, the
    impacts take energy (never give), and the body ends above the floor."""
    robot = _import(name, contacts=True)
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), r=robot))
    res = system.simulate(horizon, n_out=31)
    ledger = res.ledger
    assert len(res.events) > 1
    assert ledger.max_penetration < 1e-6
    assert all(c.impacts <= 1e-12 for c in ledger.contacts.values())
    assert sum(c.impacts for c in ledger.contacts.values()) < 0


PENDULUM = """<robot name="pendulum">
  <link name="base"><collision><origin xyz="0 0 -0.48"/><geometry><box size="1 1 0.1"/>
    </geometry></collision></link>
  <link name="arm"><inertial><origin xyz="0 0 -0.4"/><mass value="1.0"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0 0 -0.4"/><geometry><sphere radius="0.05"/></geometry>
    </collision></link>
  <joint name="hinge" type="continuous"><parent link="base"/><child link="arm"/>
    <axis xyz="0 1 0"/><dynamics damping="0" armature="{a}"/></joint>
</robot>"""


def test_urdf_armature_and_collision_elements():
    """URDF: <dynamics armature> adds to the joint's inertia (M = I + m·l² + a, closed form);
    the arm's <collision> sphere lands on the base's <collision> box (parent and child, kept
    because the base is the world: MuJoCo's rule) at cos φ = (0.43 − r)/l and stays above
    the box's top (non-penetration)."""
    from jourdain.solver.exchange import from_urdf
    a, m, l, i = 0.05, 1.0, 0.4, 0.01
    robot = from_urdf(PENDULUM.format(a=a), contacts={"e": 0.0, "mu": 0.5})
    system = jd.compile(jd.Model.on_world(World(g=(0.0, 0.0, -9.81)), r=robot))
    assert float(system.M([0.3], system.p_default)) == pytest.approx(i + m * l * l + a,
                                                                     rel=1e-12)
    res = system.simulate(1.5, y0={"r.hinge.phi": np.pi / 2}, n_out=31, rtol=1e-10,
                          atol=1e-12)
    first = res.events.select("contacts", "touch")[0]
    assert np.cos(first.x_before[0]) == pytest.approx((0.43 - 0.05) / l, abs=1e-8)
    assert res.ledger.max_penetration < 1e-8
    lowest = -l * np.cos(res["r.hinge.phi"]) - 0.05
    assert lowest.min() >= -0.43 - 1e-8
