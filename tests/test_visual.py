"""Visual shapes and the animation's frame data.

References: the shapes' poses from ``poses(x, p)`` equal the kinematics, namely a closed form
(pendulum: r = l·(sin φ, −cos φ, 0), R = R_z(φ)), the pose a FrameSensor reports in the same
Result (cube on a corner, quaternion joint), the loop closure of a four-bar (the cut joint's
shape, placed through the coupler, sits on the rocker's tip D + l3·(−sin ψ, cos ψ, 0)), and a
prismatic joint's box whose length is the joint coordinate s; the HTML player's payload equals
those poses to float32 round-off.
"""
import base64
import json
import re

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import jourdain as jd
from jourdain.blocks import FrameSensor, Prismatic, Revolute, RigidBody, World
from jourdain.blocks.visual import Box, Capsule, Cylinder, Mesh, Sphere
from jourdain.library import CubeOnCorner, FourBar, Pendulum
from jourdain.solver.visual.motion import motion_of


def payload(path) -> dict:
    text = path.read_text(encoding="utf-8")
    match = re.search(r'<script id="jd-data" type="application/json">(.*?)</script>', text,
                      re.S)
    return json.loads(match.group(1).replace("<\\/", "</"))


def floats(b64: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(b64), dtype=np.float32)


@pytest.fixture(scope="module")
def pendulum_run():
    system = jd.compile(jd.Model.on_world(World(), p=Pendulum(m=1.0, l=0.8)))
    return system, system.simulate(1.0, y0={"p.joint.phi": 1.0}, n_out=101)


def test_pendulum_sphere_follows_closed_form(pendulum_run):
    system, res = pendulum_run
    motion = motion_of(res)
    k = [s.name for s in system.visual.shapes].index("p.bob/sphere")
    phi = res["p.joint.phi"]
    expected = 0.8 * np.column_stack([np.sin(phi), -np.cos(phi), 0 * phi])
    assert np.abs(motion.r[:, k] - expected).max() < 1e-12
    c, s = np.cos(phi), np.sin(phi)
    Rz = np.array([[c, -s, 0 * c], [s, c, 0 * c], [0 * c, 0 * c, 1 + 0 * c]]).transpose(2, 0, 1)
    assert np.abs(motion.R[:, k] - Rz).max() < 1e-12
    assert system.visual.up == pytest.approx((0.0, 1.0, 0.0))


def test_html_payload_equals_poses(pendulum_run, tmp_path):
    system, res = pendulum_run
    path = res.animate(tmp_path / "pendulum.html", title="pendulum")
    text = path.read_text(encoding="utf-8")
    assert "https://" not in text.split("<script>", 1)[0]  # nothing fetched: self-contained
    assert "MeshCat" in text and "jd-play" in text and "jd-speed" in text
    data = payload(path)
    run = data["runs"][0]
    motion = motion_of(res)
    times = floats(run["times"])
    assert np.abs(times - (res.t - res.t[0])).max() <= 1e-6
    for k, shape in enumerate(run["shapes"]):
        pos = floats(shape["position"]).reshape(-1, 3)
        quat = floats(shape["quaternion"]).reshape(-1, 4)
        n = len(pos)
        assert n in (1, len(res.t)), shape["name"]
        assert np.abs(pos - motion.r[:n, k]).max() <= 1e-6 * max(1.0, system.visual.size)
        R = Rotation.from_quat(quat.astype(float)).as_matrix()
        assert np.abs(R - motion.R[:n, k]).max() <= 1e-6


def test_cube_on_corner_shapes_match_frame_sensor(tmp_path):
    cube = CubeOnCorner()
    model = jd.Model.on_world(World(), cube=cube)
    model.sensor = FrameSensor()
    model.connect(cube.housing.frame_a, model.sensor.frame_a)
    system = jd.compile(model)
    res = system.simulate(0.5, z0={"cube.pivot.wx": 0.8, "cube.pivot.wz": -0.5},
                          inputs={"cube.motor1.tau": 0.02}, n_out=51)
    motion = motion_of(res)
    k = [s.name for s in system.visual.shapes].index("cube.housing/box")
    r = np.column_stack([res[f"sensor.r[{i}]"] for i in range(3)])
    R = np.stack([res[f"sensor.R[{i}]"] for i in range(9)], axis=1).reshape(-1, 3, 3)
    centre = r + R @ np.full(3, cube.a / 2)
    assert np.abs(motion.r[:, k] - centre).max() < 1e-12
    assert np.abs(motion.R[:, k] - R).max() < 1e-12
    assert np.allclose(motion.scale[:, k], cube.a)


def test_four_bar_cut_joint_shape_closes_the_loop():
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar()))
    res = system.simulate(1.0, y0={"fb.crank.phi": 0.4}, z0={"fb.crank.w": 3.0}, n_out=51)
    motion = motion_of(res)
    k = [s.name for s in system.visual.shapes].index("fb.pin/axis")
    psi = res["fb.rocker.phi"]
    tip = np.column_stack([0.8 - 0.5 * np.sin(psi), 0.5 * np.cos(psi), 0 * psi])
    assert np.abs(motion.r[:, k] - tip).max() < 1e-9   # Newton projection tolerance


def test_prismatic_box_stretches_with_its_coordinate():
    model = jd.Model(world=World())
    model.slider = Prismatic(axis=(1, 0, 0))
    model.cart = RigidBody(m=1.0)
    model.connect(model.world.frame_b, model.slider.frame_a)
    model.connect(model.slider.frame_b, model.cart.frame_a)
    system = jd.compile(model)
    spec = {s.name: s for s in system.visual.shapes}["slider/slider"]
    assert spec.dynamic and spec.default
    res = system.simulate(1.0, y0={"slider.s": 0.3}, z0={"slider.v": -1.0}, n_out=11)
    motion = motion_of(res)
    k = system.visual.names.index("slider/slider")
    s = res["slider.s"]
    floor = 1e-9 * system.visual.size            # a zero-length box is drawn this long
    assert np.abs(motion.scale[:, k, 2] - np.maximum(np.abs(s), floor)).max() < 1e-12
    assert np.abs(motion.r[:, k, 0] - s / 2).max() < 1e-12


def test_user_shapes_replace_defaults_and_hide():
    model = jd.Model(world=World())
    model.joint = Revolute().shape()                  # hidden: no default axis cylinder
    model.link = RigidBody(m=2.0, r_cm=(0.5, 0, 0), shapes=[
        Capsule.between((0, 0, 0), (1, 0, 0), 0.05, color="#ff8800"),
        Sphere(0.1, center=(1, 0, 0), color=(255, 0, 0), opacity=0.5, name="tip")])
    model.connect(model.world.frame_b, model.joint.frame_a)
    model.connect(model.joint.frame_b, model.link.frame_a)
    system = jd.compile(model)
    specs = {s.name: s for s in system.visual.shapes}
    assert set(specs) == {"link/capsule", "link/tip"}
    assert specs["link/tip"].color == (1.0, 0.0, 0.0) and specs["link/tip"].opacity == 0.5
    assert specs["link/capsule"].length == pytest.approx(1.0)


def test_shape_input_errors(tmp_path):
    with pytest.raises(jd.ModelError, match="radius"):
        Sphere(-1.0)
    with pytest.raises(jd.ModelError, match="colour"):
        Box((1, 1, 1), color="no-such-colour")
    with pytest.raises(jd.ModelError, match="no file"):
        Mesh(str(tmp_path / "missing.stl"))
    with pytest.raises(jd.ModelError, match="rotation"):
        Box(rotation=np.diag([1.0, 1.0, -1.0]))
    with pytest.raises(jd.ModelError, match="visual shapes"):
        RigidBody(m=1.0, shapes=["box"])
    with pytest.raises(jd.ModelError, match="coincide"):
        Cylinder.between((1, 2, 3), (1, 2, 3), 0.1)
    stray = RigidBody(m=1.0)
    model = jd.Model(world=World())
    model.joint = Revolute()
    model.link = RigidBody(m=1.0, r_cm=(1, 0, 0))
    model.link.shape(Sphere(0.1), frame=stray.frame_a)
    model.connect(model.world.frame_b, model.joint.frame_a)
    model.connect(model.joint.frame_b, model.link.frame_a)
    with pytest.raises(jd.ModelError, match="not a frame of this model"):
        jd.compile(model)


def test_animate_paths_and_runs(pendulum_run, tmp_path):
    system, res = pendulum_run
    with pytest.raises(jd.ModelError, match="directory"):
        res.animate(str(tmp_path) + "/")
    with pytest.raises(jd.ModelError, match=r"\.html"):
        res.animate(tmp_path / "movie.avi")
    other = system.simulate(0.6, y0={"p.joint.phi": -0.5}, n_out=31)
    path = jd.animate([res, other], tmp_path / "sweep.html", labels=["φ0 = 1", "φ0 = −0.5"])
    data = payload(path)
    assert [r["label"] for r in data["runs"]] == ["φ0 = 1", "φ0 = −0.5"]
    assert data["runs"][1]["opacity"] < 1.0
    assert data["duration"] == pytest.approx(1.0)       # the longer run sets the clock
    held = floats(data["runs"][1]["times"])
    assert held[-1] == pytest.approx(1.0) and held[-2] == pytest.approx(0.6)


def test_mesh_shape_through_trimesh(tmp_path):
    trimesh = pytest.importorskip("trimesh")
    stl = tmp_path / "block.stl"
    trimesh.creation.box(extents=(0.2, 0.1, 0.05)).export(stl)
    model = jd.Model(world=World())
    model.joint = Revolute()
    model.link = RigidBody(m=1.0, I=(0.1, 0.1, 0.1),
                           shapes=[Mesh(str(stl), scale=2.0, color="gray")])
    model.connect(model.world.frame_b, model.joint.frame_a)
    model.connect(model.joint.frame_b, model.link.frame_a)
    res = jd.compile(model).simulate(0.2, z0={"joint.w": 1.0}, n_out=5)
    data = payload(res.animate(tmp_path / "mesh.html"))
    shape = next(s for s in data["runs"][0]["shapes"] if s["kind"] == "mesh")
    vertices = floats(shape["vertices"]).reshape(-1, 3)
    assert np.abs(vertices).max(axis=0) == pytest.approx((0.1, 0.05, 0.025))
    assert np.allclose(floats(shape["scale"]), 2.0)


def test_gif_and_mp4(pendulum_run, tmp_path):
    _, res = pendulum_run
    gif = res.animate(tmp_path / "pendulum.gif", fps=8)
    assert gif.read_bytes()[:6] == b"GIF89a"
    pytest.importorskip("imageio_ffmpeg")
    mp4 = res.animate(tmp_path / "pendulum.mp4", fps=8)
    assert mp4.stat().st_size > 1000 and b"ftyp" in mp4.read_bytes()[:32]


def test_imported_urdf_visuals_become_shapes():
    """A URDF link's <visual> (cylinder along its z, origin 0.1 m along x and turned by
    rpy = (0, π/2, 0), rgba) is drawn where the link frame and the origin put it
    (reference: R = R_z(φ)·R_y(π/2), r = R_z(φ)·(0.1, 0, 0))."""
    pytest.importorskip("yourdfpy")
    text = ('<robot name="r"><link name="base"/><link name="arm"><inertial><mass value="1"/>'
            '<inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>'
            '<visual><origin xyz="0.1 0 0" rpy="0 1.5707963267948966 0"/><geometry>'
            '<cylinder radius="0.02" length="0.3"/></geometry><material name="red">'
            '<color rgba="1 0 0 0.5"/></material></visual></link>'
            '<joint name="j" type="continuous"><parent link="base"/><child link="arm"/>'
            '<axis xyz="0 0 1"/></joint></robot>')
    system = jd.compile(jd.Model.on_world(World(), r=jd.from_urdf(text)))
    spec = next(s for s in system.visual.shapes if s.kind == "cylinder" and not s.default)
    assert spec.name == "r/arm" and spec.color == (1.0, 0.0, 0.0) and spec.opacity == 0.5
    res = system.simulate(0.5, z0={"r.j.w": 2.0}, n_out=11)
    motion = motion_of(res)
    k = system.visual.names.index("r/arm")
    phi = res["r.j.phi"]
    c, s = np.cos(phi), np.sin(phi)
    Rz = np.stack([np.stack([c, -s, 0 * c], -1), np.stack([s, c, 0 * c], -1),
                   np.stack([0 * c, 0 * c, 1 + 0 * c], -1)], 1)
    Ry = np.array([[0.0, 0, 1], [0, 1, 0], [-1, 0, 0]])
    assert np.abs(motion.R[:, k] - Rz @ Ry).max() < 1e-9
    assert np.abs(motion.r[:, k] - 0.1 * Rz[:, :, 0]).max() < 1e-12
    assert np.allclose(motion.scale[:, k], (0.02, 0.02, 0.3))


def test_shaped_bodies_draw_their_box_and_cylinder():
    """Reference: the MSL's BodyBox/BodyCylinder pictures — a box of length |r − r_shape|
    (× width × height) centred half way along lengthDirection from r_shape, and a cylinder
    spanning r_shape → r; placed by the joint's closed-form rotation about z."""
    from jourdain.blocks import Revolute
    from jourdain.blocks.multibody import BodyBox, BodyCylinder

    class Arm(jd.Composite):
        def __init__(self):
            super().__init__()
            self.j = Revolute(axis=(0, 0, 1))
            self.box = BodyBox(r=(0.5, 0, 0), r_shape=(0.1, 0, 0), width=0.1, height=0.05)
            self.cyl = BodyCylinder(r=(0, -0.4, 0), diameter=0.06)
            self.connect(self.j.frame_b, self.box.frame_a)
            self.connect(self.box.frame_b, self.cyl.frame_a)
            self.expose(self.j.frame_a, "frame_a")

    system = jd.compile(jd.Model.on_world(World(), arm=Arm()))
    names = system.visual.names
    assert "arm.box/box" in names and "arm.cyl/cylinder" in names
    assert not any("frameTranslation" in n for n in names)   # the body shape replaces the rod
    phi = 0.3
    _, r, scale = (np.array(v) for v in system.poses(system.state({"arm.j.phi": phi}),
                                                     system.p_default))
    c, s = np.cos(phi), np.sin(phi)
    box, cyl = names.index("arm.box/box"), names.index("arm.cyl/cylinder")
    np.testing.assert_allclose(r[:, box], [0.3 * c, 0.3 * s, 0], atol=1e-12)
    np.testing.assert_allclose(scale[:, box], [0.4, 0.1, 0.05], atol=1e-12)
    tip = np.array([0.5 * c, 0.5 * s, 0])            # frame_b of the box = frame_a of the tube
    np.testing.assert_allclose(r[:, cyl], tip + [0.2 * s, -0.2 * c, 0], atol=1e-12)
    np.testing.assert_allclose(scale[:, cyl], [0.03, 0.03, 0.4], atol=1e-12)
