"""The documentation: the site builds without warnings, the public API is documented.

References: Sphinx itself (``-W``: every warning, from a broken docstring to a missing image,
fails the build; the gallery pages are generated without running the examples, which the
example tests run); Python's introspection for docstrings; the parameter metadata of the
components (``param(default, unit, doc)``) for the units their docstrings must name.
"""
import importlib
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

import jourdain as jd
import jourdain.blocks as blocks
import jourdain.blocks.visual as visual
import jourdain.library as library
from jourdain.blocks.base import parameter_fields

ROOT = Path(__file__).resolve().parents[1]
PUBLIC = (jd, blocks, visual, library)


def _missing_docstrings(obj, name: str) -> list[str]:
    missing = [] if inspect.getdoc(obj) else [name]
    if inspect.isclass(obj):
        for attr, value in vars(obj).items():
            if attr.startswith("_") or not (inspect.isfunction(value) or
                                            isinstance(value, property)):
                continue
            if not inspect.getdoc(getattr(obj, attr)):
                missing.append(f"{name}.{attr}")
    return missing


def test_public_api_has_docstrings():
    missing = []
    for module in PUBLIC:
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) or inspect.isfunction(obj):
                missing += _missing_docstrings(obj, f"{module.__name__}.{name}")
    assert not missing, "public names without a docstring: " + ", ".join(missing)


def test_component_docstrings_name_their_parameters():
    """Every parameter declared with param(default, unit, doc) is named in its component's
    docstring, and so is its unit unless dimensionless (e.g. "m : [kg] mass")."""
    bad = []
    for module in (blocks, library):
        for name in module.__all__:
            obj = getattr(module, name)
            if not inspect.isclass(obj):
                continue
            doc = inspect.getdoc(obj) or ""
            for field in parameter_fields(obj):
                unit = field.metadata["unit"]
                if field.name not in doc:
                    bad.append(f"{name}.{field.name} not named")
                elif unit not in ("1", "") and not _unit_named(unit, doc):
                    bad.append(f"{name}.{field.name}: unit {unit} not named")
    assert not bad, "; ".join(bad)


def _unit_named(unit: str, doc: str) -> bool:
    forms = {unit, unit.replace(".", "·"), unit.replace("2", "²").replace(".", "·"),
             unit.replace("2", "²"), unit.replace("3", "³"), unit.replace("Ohm", "Ω"),
             unit.replace("2", "²").replace("3", "³").replace(".", "·")}
    return any(f in doc for f in forms)


@pytest.mark.parametrize("module", ["sphinx", "myst_parser", "sphinx_gallery"])
def test_docs_dependencies_importable(module):
    """make test installs what the docs build needs (the test extra)."""
    pytest.importorskip(module)


def test_site_builds_without_warnings(tmp_path):
    """The site (guide, API reference, gallery pages without running the examples) builds
    with warnings as errors, by the HTML builder a reader gets (some warnings, such as a
    gallery page without a title in the sidebar, only the HTML builder raises); the pages it
    writes are checked for the gallery's titles."""
    for module in ("sphinx", "myst_parser", "sphinx_gallery"):
        pytest.importorskip(module)
    env = {**os.environ, "MPLBACKEND": "Agg"}
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b",
                           "html", "-D", "plot_gallery=0", "-d", str(tmp_path / "doctrees"),
                           str(ROOT / "docs"), str(tmp_path / "out")],
                          capture_output=True, text=True, env=env, timeout=1500)
    assert proc.returncode == 0, proc.stderr[-4000:]
    gallery = (tmp_path / "out" / "auto_examples" / "index.html").read_text()
    for example in sorted((ROOT / "examples").glob("*.py")):
        # the sidebar's entry, which sphinx leaves out for a page without a title
        assert f'class="reference internal" href="{example.stem}.html">' in gallery, example.name


def test_docs_pages_exist_and_link_inside_the_repository():
    """Every page the README points to is in docs/, and no page links outside the
    repository (a design card elsewhere, ../../shared/...)."""
    pages = sorted((ROOT / "docs").glob("*.md"))
    names = {p.name for p in pages}
    for needed in ("visualization.md", "design.md", "architecture.md", "constraints.md",
                   "trajectory_optimization.md", "index.md"):
        assert needed in names
    for path in pages + [ROOT / "README.md"]:
        assert "../../" not in path.read_text(encoding="utf-8"), path.name
    assert importlib.util.find_spec("jourdain") is not None
    assert (ROOT / "jourdain" / "py.typed").is_file()


def test_delegating_methods_show_their_real_keyword_arguments():
    """Reference: the implementations' own signatures (inspect): help(), notebooks and IDEs
    that ask the object see every keyword argument of the function a method delegates to,
    and its documentation, not ``**options``."""
    import inspect

    from jourdain.solver.control.linearize import linearize
    from jourdain.solver.exchange.fmu import export_fmu
    from jourdain.solver.simulation.dae import simulate_constrained
    from jourdain.solver.simulation.simulate import simulate
    from jourdain.solver.system import ConstrainedSystem
    from jourdain.solver.visual.animate import animate

    for method, impl, extra in ((jd.System.simulate, simulate, {"controller", "period"}),
                                (ConstrainedSystem.simulate, simulate_constrained,
                                 {"controller", "period"}),
                                (jd.System.linearize, linearize, set()),
                                (jd.System.export_fmu, export_fmu, set()),
                                (jd.Result.animate, animate, set())):
        shown = inspect.signature(method).parameters
        wanted = set(list(inspect.signature(impl).parameters)[1:]) | extra
        assert wanted <= set(shown) and "options" not in shown, (method, wanted - set(shown))
        assert inspect.getdoc(impl).splitlines()[0] in inspect.getdoc(method)
