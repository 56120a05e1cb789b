"""The HTML animation in a real browser (opt-in: ``make test-browser``, marker ``browser``).

Reference: the kinematics. Headless Chromium (the Debian package) opens the player at a given
model time (``?t=``) with a known camera; in the screenshot, each colour-coded body's pixel
centroid lies where the pinhole projection of its center (from the Result, the same
perspective camera: 75° vertical field of view, the camera's look-at frame) puts it.
"""
import os
import shutil
import subprocess

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import FixedTranslation, Revolute, RigidBody, World
from jourdain.blocks.visual import Sphere

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader",
         "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars"]
WIDTH, HEIGHT = 800, 600
COLOURS = {"red": (1.0, 0.0, 0.0), "green": (0.0, 1.0, 0.0), "magenta": (1.0, 0.0, 1.0)}


def colour_mask(img: np.ndarray, name: str) -> np.ndarray:
    """Pixels of a lit, pure-coloured sphere: its channels dominate the others (the sky-blue
    background, grey and black controls never do)."""
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    if name == "red":
        return (r > 0.3) & (g < 0.45 * r) & (b < 0.45 * r)
    if name == "green":
        return (g > 0.3) & (r < 0.45 * g) & (b < 0.6 * g)
    return (r > 0.3) & (b > 0.3) & (g < 0.45 * np.minimum(r, b))


def project(points: np.ndarray, position, target, fov=75.0) -> np.ndarray:
    """Pixel coordinates (u right, v down) of world points under three.js's perspective
    camera at ``position`` looking at ``target`` with up +y (model y is up)."""
    position, target = np.asarray(position, float), np.asarray(target, float)
    z = (position - target) / np.linalg.norm(position - target)
    x = np.cross((0.0, 1.0, 0.0), z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    cam = (points - position) @ np.vstack([x, y, z]).T
    f = 1.0 / np.tan(np.radians(fov / 2))
    ndc_x = f / (WIDTH / HEIGHT) * cam[:, 0] / -cam[:, 2]
    ndc_y = f * cam[:, 1] / -cam[:, 2]
    return np.column_stack([(ndc_x + 1) / 2 * WIDTH, (1 - ndc_y) / 2 * HEIGHT])


def three_spheres():
    """A double pendulum whose pivot, elbow and tip carry red, green and magenta spheres;
    joints and the rod are hidden so only the spheres are drawn."""
    model = jd.Model(world=World())
    model.pivot = Revolute().shape(Sphere(0.08, color=COLOURS["red"]))
    model.upper = RigidBody(m=1.0, r_cm=(0, -0.6, 0), shapes=[
        Sphere(0.08, center=(0, -0.6, 0), color=COLOURS["green"])])
    model.rod = FixedTranslation(r=(0, -0.6, 0)).shape()
    model.elbow = Revolute().shape()
    model.lower = RigidBody(m=0.5, r_cm=(0, -0.5, 0), shapes=[
        Sphere(0.08, center=(0, -0.5, 0), color=COLOURS["magenta"])])
    for a, b in ((model.world.frame_b, model.pivot.frame_a),
                 (model.pivot.frame_b, model.upper.frame_a),
                 (model.pivot.frame_b, model.rod.frame_a),
                 (model.rod.frame_b, model.elbow.frame_a),
                 (model.elbow.frame_b, model.lower.frame_a)):
        model.connect(a, b)
    return model


@pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (make test-browser installs it)")
@pytest.mark.parametrize("t", [0.0, 0.7, 1.35])
def test_screenshot_shows_bodies_where_the_kinematics_puts_them(t, tmp_path):
    from PIL import Image

    system = jd.compile(three_spheres())
    res = system.simulate(2.0, y0={"pivot.phi": 1.2, "elbow.phi": -0.8}, n_out=201)
    camera = {"position": (0.0, -0.5, 3.2), "target": (0.0, -0.5, 0.0)}
    page = res.animate(tmp_path / "spheres.html", camera=camera, grid=False)
    shot = tmp_path / "shot.png"
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
                    f"--window-size={WIDTH},{HEIGHT}", "--virtual-time-budget=5000",
                    f"--screenshot={shot}", f"file://{page}?t={t}"],
                   check=True, capture_output=True, timeout=120,
                   env={**os.environ, "HOME": str(tmp_path)})
    img = np.asarray(Image.open(shot).convert("RGB"), dtype=float) / 255.0
    assert img.shape[:2] == (HEIGHT, WIDTH)
    i = int(np.argmin(np.abs(res.t - t)))
    phi1, phi2 = res["pivot.phi"][i], res["elbow.phi"][i]
    elbow = 0.6 * np.array([np.sin(phi1), -np.cos(phi1), 0.0])
    tip = elbow + 0.5 * np.array([np.sin(phi1 + phi2), -np.cos(phi1 + phi2), 0.0])
    expected = project(np.array([np.zeros(3), elbow, tip]), **camera)
    for (name, _), where in zip(COLOURS.items(), expected):
        mask = colour_mask(img, name)
        assert mask.sum() > 200, f"{name} sphere not found at t = {t}"
        v, u = np.nonzero(mask)
        centroid = np.array([u.mean(), v.mean()]) + 0.5   # pixel centres
        assert np.linalg.norm(centroid - where) < 1.0, (name, centroid, where)


def _screenshot(page, tmp_path, query="") -> np.ndarray:
    from PIL import Image

    shot = tmp_path / "shot.png"
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
                    f"--window-size={WIDTH},{HEIGHT}", "--virtual-time-budget=5000",
                    f"--screenshot={shot}", f"file://{page}{query}"],
                   check=True, capture_output=True, timeout=120,
                   env={**os.environ, "HOME": str(tmp_path)})
    return np.asarray(Image.open(shot).convert("RGB"), dtype=float) / 255.0


@pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (make test-browser installs it)")
def test_screenshot_shows_the_floor_under_the_machine_in_its_own_colours(tmp_path):
    """Reference: the geometry and the mesh file. A pendulum hangs at rest (no gravity
    torque at φ = 0) with a cube mesh of edge 0.2 m whose file colours it pure green (the
    shape gives no colour, so the palette's blue would show otherwise); its lowest point is
    0.6 + 0.1 = 0.7 m below the pivot. Seen by a camera at exactly that height looking
    horizontally, the ground plane is edge-on: every grid pixel lies on the middle row
    (the horizon), and every pixel of the green cube lies above it. A grid through the pivot
    would show 0.7 m higher; MeshCat's own panel (a dark bar at the top right) is hidden."""
    trimesh = pytest.importorskip("trimesh")
    from jourdain.blocks.visual import Mesh

    ply = tmp_path / "green.ply"
    cube = trimesh.creation.box(extents=(0.2, 0.2, 0.2))
    cube.visual.vertex_colors = [0, 255, 0, 255]
    cube.export(ply)
    model = jd.Model(world=World())
    model.pivot = Revolute()
    model.arm = RigidBody(m=1.0, r_cm=(0, -0.6, 0), I=(0.01, 0.01, 0.01),
                          shapes=[Mesh(str(ply), center=(0, -0.6, 0))])
    model.connect(model.world.frame_b, model.pivot.frame_a)
    model.connect(model.pivot.frame_b, model.arm.frame_a)
    res = jd.compile(model).simulate(0.5, n_out=11)
    camera = {"position": (0.0, -0.7, 2.5), "target": (0.0, -0.7, 0.0)}
    img = _screenshot(res.animate(tmp_path / "floor.html", camera=camera), tmp_path, "?t=0.2")
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    green = (g > 0.3) & (r < 0.45 * g) & (b < 0.6 * g)
    assert green.sum() > 500, "the cube is not drawn in its file's green"
    rows = np.arange(HEIGHT)[:, None] * np.ones((1, WIDTH))
    body = slice(40, HEIGHT - 50)                 # clear of the title and the control bar
    # grid lines: greyer than the sky gradient 3 rows above and below (MeshCat blends them)
    sky = np.full_like(img, np.nan)
    sky[3:-3] = (img[:-6] + img[6:]) / 2
    d = img - sky
    grey = (d[..., 0] > 0.05) & (d[..., 2] < -0.04) & (np.abs(r - g) < 0.2)
    counts = grey[body].sum(axis=1)             # a grid line spans its row
    grey_rows = np.arange(HEIGHT)[body][counts > 50]
    assert grey_rows.size, "no grid drawn"
    horizon = HEIGHT / 2
    assert np.abs(grey_rows - horizon).max() <= 2.5, grey_rows
    assert rows[green].max() <= horizon + 2.5     # the cube rests on the floor, not in it
    assert rows[green].max() >= horizon - 6       # ... and touches it
    corner = img[:30, WIDTH - 250:]
    assert (corner.max(axis=2) < 0.15).mean() < 0.05, "MeshCat's panel is showing"
