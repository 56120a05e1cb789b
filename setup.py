"""Packages found automatically under each folder of the package-dir mapping.

The three code folders live at the top of the checkout (blocks/, solver/, library/) but install
as subpackages of one import package, ``jourdain`` (DESIGN.md §2). setuptools' ``find`` works
per folder and does not prefix names, so this file runs it once per mapped folder and adds the
prefix; everything else is declared in pyproject.toml.
"""
from setuptools import find_packages, setup

ROOTS = {"jourdain": "jourdain", "jourdain.blocks": "blocks", "jourdain.solver": "solver",
         "jourdain.library": "library"}


def packages() -> list[str]:
    found = []
    for name, folder in ROOTS.items():
        found.append(name)
        found += [f"{name}.{sub}" for sub in find_packages(where=folder)]
    return found


setup(packages=packages(), package_dir=ROOTS)
