"""What ``export_fmu`` refuses, by name: bad arguments (the file path, the model name, the
start state, the build options) and Systems the FMU's wrapper cannot reproduce (a DAE without
an explicit ẋ; hybrid elements whose modes switch at state events). Each refusal is a
ModelError that names the argument or the elements at fault and says what is supported
(docs/exchange.md)."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from jourdain.blocks.errors import ModelError
from jourdain.blocks.hybrid.base import Hybrid, Sampled

from ..constraints.methods import ConstraintMethod
from ..model.checks import number, vector

WHERE = "export_fmu"


def checked_path(path) -> Path:
    """The FMU's file: a str or path ending in .fmu that is not a directory and whose folder
    can be made (no existing file on the way)."""
    if not isinstance(path, (str, os.PathLike)) or not str(path):
        raise ModelError(f"{WHERE}: path must be a file name ending in .fmu (a str or "
                         f"pathlib.Path), got {path!r:.60}")
    path = Path(path).expanduser()
    if path.suffix != ".fmu":
        raise ModelError(f"{WHERE}: path: the file name must end in .fmu, got {path.name}")
    if path.is_dir():
        raise ModelError(f"{WHERE}: path {path} is an existing directory; give a file name "
                         f"inside it, e.g. {path / 'model.fmu'}")
    for parent in path.parents:
        if parent.exists() and not parent.is_dir():
            raise ModelError(f"{WHERE}: path {path} lies under {parent}, which is a file, "
                             "not a directory; give a path in a directory")
    return path


def checked_name(model_name) -> str | None:
    """None (the file name is used) or a non-empty str."""
    if model_name is None:
        return None
    if not isinstance(model_name, str) or not model_name.strip():
        raise ModelError(f"{WHERE}: model_name must be a non-empty str (the FMU's "
                         f"modelIdentifier, a C identifier), got {model_name!r:.60}")
    return model_name


def checked_x0(system, x0) -> np.ndarray | None:
    """None or one finite number per state, in the order of ``system.x_names``."""
    return None if x0 is None else vector(x0, system.x_names, f"{WHERE}: x0")


def checked_build(step, tolerance, compiler, flags) -> tuple:
    """(step, tolerance, compiler, flags) checked: positive numbers, a compiler name and a
    sequence of flag strings (a single str would be split into characters)."""
    step = number(step, f"{WHERE}: step", low=0.0, open_low=True, unit="s")
    tolerance = number(tolerance, f"{WHERE}: tolerance", low=0.0, open_low=True)
    if not isinstance(compiler, str) or not compiler:
        raise ModelError(f"{WHERE}: compiler must be the name or path of a C compiler (a "
                         f"str such as 'gcc'), got {compiler!r:.60}")
    if isinstance(flags, (str, bytes)) or not all(isinstance(f, str) for f in
                                                  _iterable(flags, "flags")):
        raise ModelError(f"{WHERE}: flags must be a list or tuple of str such as "
                         f"('-O1',), got {flags!r:.60}")
    return step, tolerance, compiler, tuple(flags)


def _iterable(value, what: str):
    try:
        return list(value)
    except TypeError:
        raise ModelError(f"{WHERE}: {what} must be a list or tuple of str, got "
                         f"{value!r:.60}") from None


def check_exportable(system) -> None:
    """Refuse, by name, Systems whose f the FMU cannot reproduce: a DAE (no explicit ẋ) and
    hybrid elements with modes (stops, impacts, stick–slip friction, contacts, latches):
    their jumps and mode changes happen at state events, which the wrapper does not detect
    (FMI 2.0 event indicators and event iteration are not written)."""
    method = getattr(system, "method", None)
    if method is ConstraintMethod.DAE:
        raise ModelError(f"{WHERE}: a System compiled with ConstraintMethod.DAE is a DAE "
                         "(IDAS) without an explicit ẋ = f; compile with "
                         "constraints=jd.ConstraintMethod.BAUMGARTE to export it")
    modal = switching_elements(system)
    if modal:
        listed = ", ".join(f"{e.path} ({type(e).__name__})" for e in modal)
        raise ModelError(
            f"{WHERE}: the hybrid elements {listed} switch modes or jump at state events "
            "(impacts, stick/slip, contact, latching), which an FMU of jourdain does not "
            "reproduce yet (no FMI 2.0 event indicators or event iteration); exported without "
            "them a ball would fall through its floor. Supported: smooth models, closed loops, "
            "kinematic drivers, component states, continuous force laws (ElastoGap, the "
            "regularized CoulombFriction, springs and dampers) and sampled blocks (time "
            "events). Replace them by such force laws to export, or simulate the model with "
            "jourdain's simulate")


def switching_elements(system) -> list:
    """The System's hybrid elements that are not sampled blocks and have discrete modes,
    constraint rows or event actions (an ElastoGap, whose guard only restarts the integrator
    at its continuous force's kink, is not one)."""
    info = getattr(system, "hybrid", None)
    if info is None:
        return []
    owners = {id(row.owner) for row in info.rows}
    return [e for e in info.elements if not isinstance(e, Sampled) and
            (e.DISCRETE or id(e) in owners or type(e).on_event is not Hybrid.on_event)]
