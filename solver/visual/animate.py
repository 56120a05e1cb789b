"""``animate``: the motion of a simulation Result, an optimization Solution or several runs
(a parameter sweep, drawn as ghosts) as a self-contained HTML player (three.js in the
browser, :mod:`.html`), an MP4 video or a GIF (:mod:`.video`)."""
from __future__ import annotations

import html as html_text
from pathlib import Path

import numpy as np

from jourdain.blocks.errors import ModelError

from ..model.checks import number
from .html import animation_data, write_html
from .motion import motion_of
from .paths import output_path
from .video import write_video

SUFFIXES = (".html", ".htm", ".gif", ".mp4")


class Animation:
    """An animation not yet written to a file: shows itself inline in Jupyter (an iframe
    holding the player) and is written with :meth:`save`."""

    def __init__(self, motions, title: str, camera, opacity, grid: bool = True):
        self.motions, self.title, self.camera, self.opacity = motions, title, camera, opacity
        self.grid = grid

    def save(self, path, **options) -> Path:
        """Write to ``path`` (.html, .gif or .mp4; options as for :func:`animate`)."""
        return _write(self.motions, path, self.title, self.camera, self.opacity, self.grid,
                      **options)

    def _repr_html_(self) -> str:
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            page = write_html(self.motions, Path(tmp) / "a.html", self.title, self.camera,
                              self.opacity, self.grid).read_text(encoding="utf-8")
        return (f'<iframe srcdoc="{html_text.escape(page, quote=True)}" '
                'style="width:100%;height:480px;border:0"></iframe>')

    def data(self) -> dict:
        """The player's JSON document (shapes, keyframes, camera)."""
        return animation_data(self.motions, self.title, self.camera, self.opacity, self.grid)


def animate(runs, path=None, title: str = "", labels=None, camera: dict | None = None,
            opacity=None, grid: bool = True, t_range=None, fps: float = 30.0,
            speed: float = 1.0, view=None, traces=None):
    """Animate one run or several (ghosts of a sweep, the first opaque).

    runs : a Result, a Solution, or a list of them (same or different systems).
    path : ``.html`` (three.js player: play/pause, time slider, speed, orbit camera), ``.gif``
        or ``.mp4`` (matplotlib, orthographic projection; a planar mechanism is seen along the
        normal of its plane); None returns an :class:`Animation` that Jupyter shows inline.
    labels : names of the runs for the legend (e.g. the swept parameter values).
    camera : {"position": (x, y, z), "target": (x, y, z)} [m] in model axes for the HTML
        player (default: the whole motion in view).
    opacity : per-run opacity in [0, 1], a list (one per run) or one number for every run
        (default 1 for the first run, 0.35 for the others).
    title : the player's heading (default: the model's top-level parts, ``cube: CubeOnEdge``).
    grid : show the ground grid (under the lowest point any shape reaches over the motion,
        normal to up) and the axes at the origin.
    t_range : (t0, t1) [s], the part of the motion to show (default all of it).
    fps, speed : frames per second and playback speed of a video (speed 2: twice real time).
    view : direction towards the viewer in model axes for a video (default as the camera).
    traces : frame ports whose origins draw their path in the HTML player, a line that
        grows with the time shown (``traces=["w.leg0.foot.frame_b"]``).
    Returns the path written (or the Animation).
    """
    many = isinstance(runs, (list, tuple))
    items = list(runs) if many else [runs]
    if not items:
        raise ModelError("animate: no runs given")
    if labels is not None and len(labels) != len(items):
        raise ModelError(f"animate: {len(labels)} labels for {len(items)} runs")
    opacity = _opacities(opacity, len(items))
    names = [str(x) for x in labels] if labels is not None else [""] * len(items)
    motions = [motion_of(run, name, t_range, traces or ()) for run, name in zip(items, names)]
    if not any(m.visual.shapes for m in motions):   # an empty scene written without a word
        raise ModelError("animate: nothing to draw: the model has no bodies, joints or shapes "
                         "(a circuit or signal model, or every shape hidden); plot its series "
                         "instead, e.g. res.plot(...)")
    if path is None:
        return Animation(motions, title, camera, opacity, grid)
    return _write(motions, path, title, camera, opacity, grid, fps=fps, speed=speed, view=view)


def _opacities(opacity, n: int) -> list[float] | None:
    """One opacity in [0, 1] per run (a single number is every run's)."""
    if opacity is None:
        return None
    if isinstance(opacity, (int, float, np.number)) and not isinstance(opacity, bool):
        opacity = [opacity] * n
    if isinstance(opacity, (str, bytes)) or not hasattr(opacity, "__len__"):
        raise ModelError(f"animate: opacity must be a number in [0, 1] or a list of them (one "
                         f"per run), got {opacity!r:.60}")
    if len(opacity) != n:
        raise ModelError(f"animate: {len(opacity)} opacities for {n} runs")
    return [number(v, f"animate: opacity[{i}]", 0.0, 1.0) for i, v in enumerate(opacity)]


def _write(motions, path, title, camera, opacity, grid=True, fps=30.0, speed=1.0,
           view=None) -> Path:
    out = output_path(path, "animate", SUFFIXES, "animation.html")
    if out.suffix.lower() in (".html", ".htm"):
        return write_html(motions, out, title, camera, opacity, grid)
    if not (fps > 0 and speed > 0):
        raise ModelError(f"animate: fps and speed must be positive, got {fps}, {speed}")
    return write_video(motions, out, fps=fps, speed=speed, view=view, title=title)
