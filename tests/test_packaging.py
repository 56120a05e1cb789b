"""The package as a user installs it: a wheel built from the checkout, installed into a fresh
virtual environment, outside the source tree.

Reference: the wheel's file list (every subpackage of blocks/, solver/ and library/ under
``jourdain``, the package data the code reads at run time) and a fresh interpreter that
imports every public name, finds the package data through the installed package, reports the
version and finds the demo script. The fresh environment gets the test environment's
third-party packages through a path file (no download), never the checkout: the editable
install's finder is not activated by a plain path entry.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"jourdain": "jourdain", "jourdain.blocks": "blocks", "jourdain.solver": "solver",
           "jourdain.library": "library"}


def source_packages() -> set[str]:
    """Every package of the checkout as it must install (a folder with an __init__.py)."""
    found = set()
    for name, folder in FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            found.add(".".join([name, *rel.parts]))
    return found


# what a source distribution holds: the build reads nothing else
SOURCES = ("jourdain", "blocks", "solver", "library", "examples/cube_on_edge.py",
           "pyproject.toml", "setup.py", "README.md", "LICENSE")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # built from a copy: setuptools writes build/ and *.egg-info next to the sources, and a
    # stale build/ of the checkout could smuggle removed modules into the wheel
    src, out = tmp_path_factory.mktemp("src"), tmp_path_factory.mktemp("dist")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so")
    for name in SOURCES:
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, src / name)
    # no build isolation: the test environment's setuptools and wheel (locked, no download)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "--no-build-isolation", "-w", str(out), str(src)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    wheels = list(out.glob("jourdain-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_wheel_holds_every_package_and_its_data(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    packages = {str(Path(n).parent).replace("/", ".") for n in names
                if n.endswith("/__init__.py")}
    assert source_packages() <= packages, sorted(source_packages() - packages)
    for data in ("jourdain/py.typed", "jourdain/solver/exchange/fmi2_wrapper.c",
                 "jourdain/solver/visual/player.js", "jourdain/solver/visual/player.html",
                 "jourdain/solver/visual/player.css"):
        assert data in names, data
    assert any(n.endswith("data/data/share/jourdain/examples/cube_on_edge.py") for n in names)
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    # nothing of the checkout's top level leaks out as its own package
    assert not [n for n in names if n.split("/")[0] in ("blocks", "solver", "library",
                                                         "tests", "examples")]


INSPECT = r"""
import importlib, json, sys
from pathlib import Path
import jourdain as jd
from jourdain import __main__ as cli
public = {}
for module in ("jourdain", "jourdain.blocks", "jourdain.solver", "jourdain.library"):
    mod = importlib.import_module(module)
    public[module] = [n for n in mod.__all__ if getattr(mod, n, None) is None]
from jourdain.solver.exchange import fmi_build
from jourdain.solver.visual import html
here = Path(jd.__file__).resolve().parent
data = [p for p in ("py.typed", "solver/exchange/fmi2_wrapper.c", "solver/visual/player.js")
        if not (here / p).is_file()]
print(json.dumps({"file": jd.__file__, "missing": public, "data": data,
                  "demo": str(cli.demo_script())}))
"""


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed (and this environment's third-party packages);
    returns its python."""
    env_dir = tmp_path_factory.mktemp("wheel-env") / "venv"
    # its own pip (ensurepip, offline): pip of this environment would uninstall the editable
    # jourdain here before installing elsewhere
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                "print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    # third-party packages from this environment (a path entry: its .pth files, among them
    # the editable jourdain's finder, are not run)
    (site / "third_party.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    done = subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--no-index",
                           "--quiet", str(wheel)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return python


def test_wheel_installs_into_a_fresh_venv(installed, tmp_path):
    python, env_dir = installed, installed.parents[1]
    import json
    out = subprocess.run([str(python), "-c", INSPECT], cwd=tmp_path, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    facts = json.loads(out.stdout.strip().splitlines()[-1])
    assert Path(facts["file"]).is_relative_to(env_dir), facts["file"]
    assert not any(facts["missing"].values()), facts["missing"]
    assert not facts["data"], facts["data"]
    assert Path(facts["demo"]).is_relative_to(env_dir), facts["demo"]
    version = subprocess.run([str(python), "-m", "jourdain", "--version"], cwd=tmp_path,
                             capture_output=True, text=True)
    import jourdain
    assert version.stdout.strip() == f"jourdain {jourdain.__version__}", version


@pytest.mark.slow
def test_readme_blocks_run_from_the_installed_wheel(installed, tmp_path):
    """Reference: the README as a user of the wheel runs it — every Python block unmodified,
    each in a fresh interpreter of the wheel's venv, in an empty directory (no checkout on
    the path), runs to its end."""
    import re
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S)
    env = {**__import__("os").environ, "MPLBACKEND": "Agg", "PYTHONPATH": ""}
    for k, block in enumerate(blocks):
        work = tmp_path / f"block{k}"
        work.mkdir()
        (work / "block.py").write_text(block)
        done = subprocess.run([str(installed), "block.py"], cwd=work, capture_output=True,
                              text=True, env=env, timeout=900)
        assert done.returncode == 0, (k, block[:200], done.stderr[-3000:])
