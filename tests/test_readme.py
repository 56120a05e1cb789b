"""The README's first model runs as written (reference: the documented numbers are produced,
and the figure is written)."""
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_first_model_runs(tmp_path, monkeypatch, capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "README has no python example"
    monkeypatch.chdir(tmp_path)
    exec(compile(blocks[0], "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert "arm.joint.phi" in printed and "inputs u (1): arm.motor.tau" in printed
    assert (tmp_path / "out" / "arm.png").stat().st_size > 1000
