"""The HTML player's scene: the ground under the machine, the mesh files' own colours, the
model's title, joint markers beside the user's shapes, and traces of chosen points.

References: closed forms of the lowest point (a pendulum's bob of radius ρ at
−l·cos φ − ρ; a cube turned by 45° reaching its centre − a/√2), the colours written into the
mesh files (vertex colours of a PLY, a glTF material's base colour), the frame kinematics
(a pendulum's tip at l·(sin φ, −cos φ, 0)), and the MSL's default joint size L/10 scaled by the
documented factor.
"""
import numpy as np
import pytest
from test_visual import floats, payload   # the player's data, as the visual tests read it

import jourdain as jd
from jourdain.blocks import FixedTranslation, Revolute, RigidBody, World
from jourdain.blocks.visual import Box, Mesh
from jourdain.library import Pendulum
from jourdain.solver.visual.floor import floor_height
from jourdain.solver.visual.motion import motion_of
from jourdain.solver.visual.scene import MARKER_WITH_SHAPES




def grid_height(data: dict) -> float:
    """The grid's offset along MeshCat's z (the model's up) from its 4×4 column-major matrix."""
    return data["grid"][14]


def tip_pendulum(l=0.8, shapes=None, world=None):
    model = jd.Model(world=world or World())
    model.joint = Revolute(axis=(0, 0, 1))
    model.link = RigidBody(m=1.0, r_cm=(0, -l, 0), I=(0.01, 0.01, 0.01), shapes=shapes or ())
    model.tip = FixedTranslation(r=(0, -l, 0))
    for a, b in ((model.world.frame_b, model.joint.frame_a),
                 (model.joint.frame_b, model.link.frame_a),
                 (model.joint.frame_b, model.tip.frame_a)):
        model.connect(a, b)
    return model


@pytest.fixture(scope="module")
def pendulum_run():
    system = jd.compile(jd.Model.on_world(World(), p=Pendulum(m=1.0, l=0.8)))
    return system, system.simulate(1.0, y0={"p.joint.phi": 1.0}, n_out=101)


def test_grid_lies_under_the_lowest_point_of_the_swing(pendulum_run, tmp_path):
    """Reference: the bob (a sphere of radius ρ at l·(sin φ, −cos φ)) is the lowest shape;
    its bottom over the samples is min(−l·cos φᵢ) − ρ, and the grid sits there, not through
    the pivot at 0."""
    system, res = pendulum_run
    motion = motion_of(res)
    k = system.visual.names.index("p.bob/sphere")
    rho = motion.scale[0, k, 0]
    expected = float(np.min(-0.8 * np.cos(res["p.joint.phi"]))) - rho
    assert floor_height([motion], system.visual.up) == pytest.approx(expected, abs=1e-12)
    data = payload(res.animate(tmp_path / "p.html"))
    assert grid_height(data) == pytest.approx(expected, abs=1e-9)
    assert expected < -0.8


def test_floor_of_a_turned_box_is_its_lowest_corner():
    """Reference: a cube of edge a = 0.2 m centred 0.5 m down a link turned by φ = π/4 about
    z (no gravity: it stays there) has its lowest corner at −0.5·cos φ − a/√2."""
    model = tip_pendulum(0.5, shapes=[Box((0.2, 0.2, 0.2), center=(0, -0.5, 0))],
                         world=World(g=(0.0, 0.0, 0.0)))
    system = jd.compile(model)
    res = system.simulate(0.1, y0={"joint.phi": np.pi / 4}, n_out=3)
    expected = -0.5 * np.cos(np.pi / 4) - 0.2 / np.sqrt(2)
    assert floor_height([motion_of(res)], (0, 1, 0)) == pytest.approx(expected, abs=1e-12)


def test_mesh_files_are_drawn_in_their_own_colours(tmp_path):
    """Reference: the colours written into the files — a PLY's vertex colours (pure green)
    and a glTF material's base colour (red); a colour given to the shape wins over the
    file's, and a file without colours takes the shape's."""
    trimesh = pytest.importorskip("trimesh")
    ply, glb, stl = tmp_path / "green.ply", tmp_path / "red.glb", tmp_path / "plain.stl"
    box = trimesh.creation.box(extents=(0.1, 0.1, 0.1))
    green = box.copy()
    green.visual.vertex_colors = [0, 255, 0, 255]
    green.export(ply)
    red = box.copy()
    red.visual = trimesh.visual.TextureVisuals(
        material=trimesh.visual.material.PBRMaterial(baseColorFactor=[255, 0, 0, 255]))
    red.export(glb)
    box.export(stl)
    shapes = [Mesh(str(ply)), Mesh(str(glb), center=(0, -0.2, 0)),
              Mesh(str(ply), center=(0, -0.4, 0), color="gray"),
              Mesh(str(stl), center=(0, -0.6, 0))]
    res = jd.compile(tip_pendulum(shapes=shapes)).simulate(0.1, n_out=3)
    meshes = [s for s in payload(res.animate(tmp_path / "m.html"))["runs"][0]["shapes"]
              if s["kind"] == "mesh"]
    assert len(meshes) == 4
    colours = [floats(s["colors"]).reshape(-1, 3) if "colors" in s else None for s in meshes]
    assert np.allclose(colours[0], (0, 1, 0)) and np.allclose(colours[1], (1, 0, 0))
    assert colours[2] is None and colours[3] is None
    assert np.allclose(meshes[2]["color"], (0.5, 0.5, 0.5), atol=0.01)


def test_traces_follow_the_frame_kinematics(tmp_path):
    """Reference: the pendulum's tip frame at l·(sin φ, −cos φ, 0) at every sample; the
    player's payload holds the same path to float32 round-off."""
    system = jd.compile(tip_pendulum(0.8))
    res = system.simulate(1.0, y0={"joint.phi": 1.0}, n_out=51)
    phi = res["joint.phi"]
    expected = 0.8 * np.column_stack([np.sin(phi), -np.cos(phi), 0 * phi])
    motion = motion_of(res, traces=["tip.frame_b"])
    assert np.abs(motion.traces["tip.frame_b"] - expected).max() < 1e-12
    data = payload(res.animate(tmp_path / "t.html", traces=["tip.frame_b"]))
    trace = data["runs"][0]["traces"][0]
    assert trace["name"] == "tip.frame_b"
    assert np.abs(floats(trace["points"]).reshape(-1, 3) - expected).max() < 1e-6
    with pytest.raises(jd.ModelError, match="tip.frame_b"):
        res.animate(tmp_path / "bad.html", traces=["tip.frame_c"])


def test_title_comes_from_the_model(pendulum_run, tmp_path):
    """The page names the model's top-level part and its class unless a title is given."""
    _, res = pendulum_run
    page = res.animate(tmp_path / "p.html")
    assert payload(page)["title"] == "p: Pendulum"
    assert "<title>p: Pendulum</title>" in page.read_text(encoding="utf-8")
    assert payload(res.animate(tmp_path / "q.html", title="mine"))["title"] == "mine"


def test_joint_markers_shrink_beside_the_users_shapes():
    """Reference: the MSL's default joint cylinder, L/10 long (L the model's nominal length);
    beside user shapes MARKER_WITH_SHAPES of it."""
    def axis_length(model):
        system = jd.compile(model)
        k = system.visual.names.index("joint/axis")
        _, _, scale = (np.array(v) for v in system.poses(system.state({}), system.p_default))
        return scale[2, k], system.visual.size

    bare, size = axis_length(tip_pendulum())
    shaped, size2 = axis_length(tip_pendulum(shapes=[Box((0.1, 0.1, 0.1))]))
    assert bare == pytest.approx(size / 10, rel=1e-12)
    assert shaped == pytest.approx(MARKER_WITH_SHAPES * size2 / 10, rel=1e-12)


def test_player_page_has_view_presets_and_folds_meshcat_controls(pendulum_run, tmp_path):
    """The page carries the four view presets and the button that shows MeshCat's own panel
    (hidden by the player script; the browser test checks the picture)."""
    _, res = pendulum_run
    text = res.animate(tmp_path / "p.html").read_text(encoding="utf-8")
    for name in ("front", "side", "top", "iso", "scene"):
        assert f'id="jd-{name}"' in text
    assert 'gui.domElement.style.display = "none"' in text


def test_panda_meshes_keep_their_collada_colours():
    """Reference: the <diffuse> colours of the Panda's COLLADA file (example-robot-data),
    read by the XML parser: the player's per-vertex colours are exactly that set (to the
    8 bits trimesh stores), not the palette."""
    import xml.etree.ElementTree as ET

    from jourdain.solver.exchange import example_robot
    from jourdain.solver.visual.meshes import read_mesh

    pytest.importorskip("trimesh")
    try:
        path = example_robot("panda_description/meshes/visual/link0.dae")
    except jd.ModelError:
        pytest.skip("example-robot-data is not installed")
    ns = {"c": "http://www.collada.org/2005/11/COLLADASchema"}
    diffuse = {tuple(float(v) for v in e.text.split()[:3])
               for e in ET.parse(path).getroot().iterfind(".//c:diffuse/c:color", ns)}
    colours = np.unique(read_mesh(str(path)).colors.round(6), axis=0)
    assert len(colours) >= 2
    for c in colours:
        assert min(np.abs(np.array(d) - c).max() for d in diffuse) <= 1 / 255 + 1e-9, c
