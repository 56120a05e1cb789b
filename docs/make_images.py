"""Regenerate the pictures in docs/images (README and documentation site).

    python docs/make_images.py            # needs chromium for the player screenshot

Writes: cube_corner_player.png (the HTML player in headless Chromium), four_bar.gif (a GIF
through matplotlib), balanced_cube_graph.png (system.draw) and cube_fall_plot.png (a plot with
units); palettes are reduced so the files stay small.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import matplotlib
import numpy as np
from PIL import Image

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import BalancedCubeOnEdge, CubeOnCorner, CubeOnEdge, FourBar

IMAGES = Path(__file__).resolve().parent / "images"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader",
         "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def small_png(source: Path, target: Path, colours: int = 128) -> None:
    Image.open(source).convert("RGB").quantize(colours).save(target, optimize=True)


def player_screenshot() -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("no chromium: skipped cube_corner_player.png")
        return
    system = jd.compile(jd.Model.on_world(World(), cube=CubeOnCorner()))
    res = system.simulate(1.2, z0={"cube.pivot.wx": 0.6, "cube.pivot.wz": -0.4},
                          inputs={"cube.motor2.tau": 0.02})
    with tempfile.TemporaryDirectory() as tmp:
        page = res.animate(Path(tmp) / "cube.html", title="cube on a corner (3-D Cubli)",
                           camera={"position": (0.2, 0.24, 0.26), "target": (0.0, 0.1, 0.0)})
        shot = Path(tmp) / "shot.png"
        subprocess.run([chromium, *FLAGS, f"--user-data-dir={tmp}/profile",
                        "--window-size=900,560", "--virtual-time-budget=5000",
                        f"--screenshot={shot}", f"file://{page}?t=1.0"], check=True,
                       capture_output=True, env={**os.environ, "HOME": tmp})
        small_png(shot, IMAGES / "cube_corner_player.png", 256)


def screenshot(page: Path, target: Path, t: float, size=(900, 560)) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print(f"no chromium: skipped {target.name}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        shot = Path(tmp) / "shot.png"
        subprocess.run([chromium, *FLAGS, f"--user-data-dir={tmp}/profile",
                        f"--window-size={size[0]},{size[1]}", "--virtual-time-budget=8000",
                        f"--screenshot={shot}", f"file://{page}?t={t}"], check=True,
                       capture_output=True, env={**os.environ, "HOME": tmp})
        small_png(shot, target, 256)


def panda_screenshot() -> None:
    """The Franka Emika Panda from its URDF (example-robot-data), with its own meshes."""
    import warnings

    from jourdain.solver.exchange import example_robot
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        robot = jd.from_urdf(example_robot("panda_description/urdf/panda.urdf"),
                             locked={"panda_finger_joint1": 0.02,
                                     "panda_finger_joint2": 0.02})
    system = jd.compile(jd.Model.on_world(World(g=(0.0, 0.0, -9.81)), arm=robot))
    pose = {"arm.panda_joint2.phi": -0.3, "arm.panda_joint4.phi": -2.2,
            "arm.panda_joint6.phi": 1.9, "arm.panda_joint7.phi": 0.8}
    res = system.simulate(0.2, y0=pose, n_out=3)
    with tempfile.TemporaryDirectory() as tmp:
        page = res.animate(Path(tmp) / "panda.html", title="Franka Emika Panda (URDF)",
                           camera={"position": (0.85, -0.75, 0.75), "target": (0.15, 0.0, 0.4)})
        screenshot(page, IMAGES / "panda_player.png", 0.0)


def four_bar_gif() -> None:
    system = jd.compile(jd.Model.on_world(World(), fb=FourBar()))
    res = system.simulate(1.6, y0={"fb.crank.phi": 1.0}, z0={"fb.crank.w": 4.0}, n_out=161)
    res.animate(IMAGES / "four_bar.gif", fps=12, title="four-bar linkage")
    frames = Image.open(IMAGES / "four_bar.gif")
    print("four_bar.gif:", frames.n_frames, "frames")


def figures() -> None:
    import matplotlib.pyplot as plt

    closed = jd.compile(jd.Model.on_world(World(), bal=BalancedCubeOnEdge(
        np.array([[-2.0, -0.2, -1e-3]]), tau_max=0.1)))
    with tempfile.TemporaryDirectory() as tmp:
        closed.draw(Path(tmp) / "graph.png", title="balanced cube on an edge")
        small_png(Path(tmp) / "graph.png", IMAGES / "balanced_cube_graph.png", 64)
        system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
        fall = system.simulate(0.5, y0={"cube.edge.phi": 0.01})
        fall.plot("cube.edge.phi", "cube.edge.w", "cube.bearing.w", "energy.total",
                  title="cube on an edge: fall with the motor off", path=Path(tmp) / "p.png")
        small_png(Path(tmp) / "p.png", IMAGES / "cube_fall_plot.png", 64)
    plt.close("all")


if __name__ == "__main__":
    matplotlib.use("Agg")   # a script of its own: no window needed
    IMAGES.mkdir(exist_ok=True)
    player_screenshot()
    panda_screenshot()
    four_bar_gif()
    figures()
    for path in sorted(IMAGES.iterdir()):
        print(f"{path.name}: {path.stat().st_size / 1e3:.0f} kB")
