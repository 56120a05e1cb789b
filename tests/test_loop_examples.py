"""The machine-scale loop examples (issue 11) run top to bottom, print their key numbers and
save their figure and animation. References: the closure residual (≤ 1e-9), the energy drift
of the free 12-leg walker (conservation law), the compiled C against the virtual machine
(two evaluations of the same f); the foot path's stride and step height only for plausibility
(the path itself is checked against an independent position analysis in test_jansen.py).
About 10 s each."""
import re
import runpy
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _run(script: str, tmp_path, monkeypatch, capsys) -> str:
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(EXAMPLES / script), run_name="__main__")
    stem = script.replace(".py", "")
    assert (tmp_path / "out" / f"{stem}.png").stat().st_size > 1000
    assert (tmp_path / "out" / f"{stem}.html").stat().st_size > 1000
    return capsys.readouterr().out


def _number(pattern: str, text: str) -> float:
    return float(re.search(pattern, text).group(1))


def test_engine_v6_example(tmp_path, monkeypatch, capsys):
    out = _run("engine_v6.py", tmp_path, monkeypatch, capsys)
    assert _number(r"max closure residual: (\S+)", out) < 1e-9
    assert _number(r"differs by (\S+) rad/s", out) < 1e-6
    assert _number(r"engine speed at 1\.01 s: (\S+) rad/s", out) > 10.0   # it accelerated


def test_strandbeest_example(tmp_path, monkeypatch, capsys):
    out = _run("strandbeest.py", tmp_path, monkeypatch, capsys)
    stride, height = (_number(r"stride .*?: (\S+) m", out), _number(r"step height (\S+) m", out))
    assert 0.3 < stride < 1.0 and 0.1 < height < stride
    assert _number(r"energy drift (\S+) J", out) < 1e-2
    assert _number(r"max closure residual (\S+)", out) < 1e-9
