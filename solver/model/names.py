"""Names to vectors, and unknown names reported with the closest known ones: shared by every
stage and consumer that takes values by dotted name."""
from __future__ import annotations

import difflib

import numpy as np

from jourdain.blocks.errors import ModelError


def unknown(what: str, name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=3)
    hint = f"did you mean {', '.join(close)}?" if close else f"known names: {', '.join(known)}"
    return f"{what}: unknown name '{name}'; {hint}"


def by_name(values: dict, names: list[str], what: str, kind: str,
             default: np.ndarray | None = None) -> np.ndarray:
    vec = np.zeros(len(names)) if default is None else default.copy()
    for name, value in values.items():
        if name not in names:
            raise ModelError(unknown(what, name, names) + f" (a {kind} name is expected)")
        vec[names.index(name)] = float(value)
    return vec


def require_system(obj, where: str) -> None:
    """A ModelError unless ``obj`` is a compiled System (duck-typed: the wings never import
    the System class, which sits above them)."""
    if all(hasattr(obj, attr) for attr in ("functions", "x_names", "state", "parameters")):
        return
    hint = " (compile it first: system = jd.compile(model))" \
        if hasattr(obj, "connect") else ""
    raise ModelError(f"{where}: expected a compiled jd.System, got {type(obj).__name__} "
                     f"{obj!r:.60}{hint}")
