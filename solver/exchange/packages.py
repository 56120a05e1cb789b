"""Where mesh files named in robot descriptions live: ``package://name/path`` resolved as ROS
does (a directory ``name`` under one of the package directories), ``file://`` and plain paths
relative to the description file.

Package directories are searched in this order: the ``package_dirs`` given to the importer,
``$ROS_PACKAGE_PATH``, ``$AMENT_PREFIX_PATH``/share, and the share directory of the
``example-robot-data`` package when it is installed (its URDFs say
``package://example-robot-data/robots/...``).
"""
from __future__ import annotations

import importlib.metadata
import os
from pathlib import Path

from jourdain.blocks.errors import ModelError


def example_robot_data_dir() -> Path | None:
    """The ``share`` directory holding ``example-robot-data/robots`` of the PyPI package
    example-robot-data, or None when it is not installed."""
    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        return None
    share = Path(str(dist.locate_file("cmeel.prefix/share")))
    return share if (share / "example-robot-data" / "robots").is_dir() else None


def example_robot(relative: str) -> Path:
    """A file of example-robot-data, e.g. ``example_robot("panda_description/urdf/panda.urdf")``
    (Franka Emika Panda), ``"ur_description/urdf/ur5_robot.urdf"``,
    ``"solo_description/robots/solo12.urdf"``."""
    share = example_robot_data_dir()
    if share is None:
        raise ModelError("example_robot: the example-robot-data package is not installed "
                         "(pip install example-robot-data, or jourdain[exchange])")
    path = share / "example-robot-data" / "robots" / relative
    if not path.is_file():
        raise ModelError(f"example_robot: no file '{relative}' under "
                         f"{share / 'example-robot-data' / 'robots'}")
    return path


def search_dirs(package_dirs=()) -> list[Path]:
    """The package directories searched for ``package://`` URIs, in order."""
    if isinstance(package_dirs, (str, os.PathLike)):
        package_dirs = [package_dirs]
    dirs = [Path(d).expanduser() for d in package_dirs]
    dirs += [Path(d) for d in os.environ.get("ROS_PACKAGE_PATH", "").split(os.pathsep) if d]
    dirs += [Path(d) / "share" for d in os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep)
             if d]
    share = example_robot_data_dir()
    if share is not None:
        dirs.append(share)
    return dirs


def resolve(uri: str, base_dir: Path | None, dirs: list[Path]) -> Path | None:
    """The existing file a description's filename refers to, or None."""
    for scheme in ("package://", "model://"):
        if uri.startswith(scheme):
            package, _, rest = uri[len(scheme):].partition("/")
            for d in dirs:
                for candidate in (d / package / rest, d / rest if d.name == package else None):
                    if candidate is not None and candidate.is_file():
                        return candidate
            return None
    path = Path(uri[len("file://"):] if uri.startswith("file://") else uri).expanduser()
    if not path.is_absolute():
        path = (base_dir or Path.cwd()) / path
    return path if path.is_file() else None
