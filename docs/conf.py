"""Sphinx configuration of jourdain's documentation site (``make docs``).

Pages are Markdown (MyST), the API reference comes from the docstrings (autodoc, autosummary,
napoleon for the NumPy-style sections), the gallery from ``examples/`` (sphinx-gallery: each
example runs, its figures and animations are embedded). ``-D plot_gallery=0`` builds the
gallery pages without running the examples (what the test suite does).
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import jourdain

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

project = "jourdain"
author = "the jourdain authors"
copyright = "the jourdain authors, MIT license"
release = version = jourdain.__version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.autosummary", "sphinx.ext.napoleon",
              "sphinx.ext.viewcode", "myst_parser", "sphinx_gallery.gen_gallery"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "auto_examples/*.ipynb", "auto_examples/*.py",
                    "auto_examples/*.zip", "auto_examples/*.json", "auto_examples/*.md5",
                    "sg_execution_times.rst", "auto_examples/sg_execution_times.rst"]
myst_heading_anchors = 3

autosummary_generate = True
# autosummary writes its stubs into the source tree; stubs of modules that have since moved or
# been removed would fail the build (-W), so every build starts from fresh stubs
shutil.rmtree(ROOT / "docs" / "generated", ignore_errors=True)
autodoc_default_options = {"members": True, "show-inheritance": True,
                           "ignore-module-all": True}
autodoc_member_order = "bysource"
autodoc_typehints = "none"
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_param = False

try:
    import furo  # noqa: F401
    html_theme = "furo"
except ImportError:  # the docs extra installs furo; alabaster ships with Sphinx
    html_theme = "alabaster"
html_title = f"jourdain {release}"
html_static_path = ["_static"]

sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/",          # run every example
    "image_scrapers": ("matplotlib", "jourdain_docs.animation_scraper"),
    "remove_config_comments": True,
    "download_all_examples": False,
    "within_subsection_order": "FileNameSortKey",
    "min_reported_time": 1e9,
    "write_computation_times": False,
    # the printed output of a block only, not the repr of its last expression (a plot's
    # Figure, an animation's path would show as stray "<Figure size …>" lines)
    "capture_repr": (),
}


def setup(app):
    from jourdain_docs import house_style
    app.connect("autodoc-process-docstring", house_style)
