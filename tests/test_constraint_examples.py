"""The constraint examples (issue 3) run top to bottom, print their key numbers and save their
figure. Reference: the residuals, energy drift and order of convergence they print (constraint
residual, conservation law, seed 002's h²·[g1, g2] + O(h³)). About 10 s each; they run in
the default suite because the examples are part of what the project delivers."""
import re
import runpy
from pathlib import Path

import numpy as np

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _run(script: str, tmp_path, monkeypatch, capsys) -> str:
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(EXAMPLES / script), run_name="__main__")
    figure = tmp_path / "out" / script.replace(".py", ".png")
    assert figure.stat().st_size > 1000
    return capsys.readouterr().out


def _number(pattern: str, text: str) -> float:
    return float(re.search(pattern, text).group(1))


def test_four_bar_example(tmp_path, monkeypatch, capsys):
    out = _run("four_bar.py", tmp_path, monkeypatch, capsys)
    assert "5 closure equations" in out and "rank 2" in out
    assert _number(r"max closure residual over 10 s: (\S+)", out) < 1e-9
    for method in ("baumgarte", "dae"):
        assert _number(method + r"\s+: crank angle vs partitioning over 5 s (\S+) rad", out) < 1e-5


def test_rssr_example(tmp_path, monkeypatch, capsys):
    """Reference: constraint residual, conservation law and the closed-form spatial
    Freudenstein equation printed by the example."""
    out = _run("rssr.py", tmp_path, monkeypatch, capsys)
    assert "rotation directions m.ball_b.wz, m.ball_b.wy" in out
    assert _number(r"max closure residual over 10 s: (\S+)", out) < 1e-9
    assert _number(r"energy drift over 10 s: (\S+) J", out) < 1e-7
    assert _number(r"spatial Freudenstein equation: (\S+) rad", out) < 1e-9


def test_rolling_disk_example(tmp_path, monkeypatch, capsys):
    out = _run("rolling_disk.py", tmp_path, monkeypatch, capsys)
    assert _number(r"max contact residual (\S+)", out) < 1e-9
    assert _number(r"energy drift (\S+) J", out) < 1e-6


def test_parallel_parking_example(tmp_path, monkeypatch, capsys):
    out = _run("parallel_parking.py", tmp_path, monkeypatch, capsys)
    orders = re.search(r"observed order of the error when halving h: \[([^\]]+)\]", out).group(1)
    assert np.allclose([float(v) for v in orders.split()], 3.0, atol=0.1)


def test_differential_drive_example(tmp_path, monkeypatch, capsys):
    out = _run("differential_drive.py", tmp_path, monkeypatch, capsys)
    assert _number(r"max no-slip residual (\S+);", out) < 1e-9
    assert _number(r"varies by (\S+) rad over 10 s", out) < 1e-9
