"""The examples of issue 17 run top to bottom, print their key numbers and save their figures.

References: the numbers the examples print — the tracked double pendulum ends within 1e-2 rad
of upright where the open-loop replay is off by more than 0.5 rad; the identified wheel
parameters' 95 % intervals contain the truth and the residual spreads match the sensor noise
(±15 %); the Monte Carlo study (20 runs here) has no failed run and all runs settle near
upright.
"""
import re
import runpy
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _run(name: str, tmp_path, monkeypatch, capsys) -> str:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    runpy.run_path(str(EXAMPLES / name), run_name="__main__")
    return capsys.readouterr().out


def _floats(pattern: str, text: str) -> list[float]:
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not in the output:\n{text}"
    return [float(g) for g in match.groups()]


def test_cart_double_pendulum(tmp_path, monkeypatch, capsys):
    out = _run("cart_double_pendulum.py", tmp_path, monkeypatch, capsys)
    open_loop = _floats(r"open-loop replay: phi1\(T\) = (\S+) rad, phi2\(T\) = (\S+) rad", out)
    tracked = _floats(r"tracked: phi1 = (\S+) rad, phi2 = (\S+) rad", out)
    perturbed = _floats(r"pi \+ 0.05: phi1 = (\S+) rad, phi2 = (\S+) rad", out)
    assert max(abs(v) for v in open_loop) > 0.5
    assert max(abs(v) for v in tracked + perturbed) < 1e-2
    assert (tmp_path / "out" / "cart_double_pendulum.png").stat().st_size > 1000


def test_identify_cube(tmp_path, monkeypatch, capsys):
    out = _run("identify_cube.py", tmp_path, monkeypatch, capsys)
    assert out.count("the truth is inside the 95 % interval") == 2
    for spread, noise in re.findall(r"residual spread of \S+: (\S+) \(sensor noise (\S+)\)",
                                    out):
        assert float(spread) == pytest.approx(float(noise), rel=0.15)
    assert (tmp_path / "out" / "identify_cube.png").stat().st_size > 1000


def test_cubli_monte_carlo(tmp_path, monkeypatch, capsys):
    pytest.importorskip("dask.distributed")
    monkeypatch.setenv("JOURDAIN_MC_RUNS", "20")
    out = _run("cubli_monte_carlo.py", tmp_path, monkeypatch, capsys)
    runs, = _floats(r"runs: (\d+) on 2 Dask workers", out)
    rate, failed = _floats(r"success rate: (\S+)% .*failed runs: (\d+)", out)
    worst, = _floats(r"final tilt: worst (\S+) rad", out)
    assert runs == 20 and failed == 0 and rate == 100.0
    assert worst < 0.05
    assert (tmp_path / "out" / "cubli_monte_carlo.png").stat().st_size > 1000
