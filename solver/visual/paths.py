"""Output paths given by users: ``~`` expanded, a directory or a missing or unknown suffix
refused with a ModelError that says what to write instead, parent folders created."""
from __future__ import annotations

from pathlib import Path

from jourdain.blocks.errors import ModelError


def output_path(path, what: str, suffixes: tuple[str, ...], example: str) -> Path:
    """``path`` as a Path ready for writing a ``what`` (e.g. "figure"), or a ModelError.

    ``suffixes`` are the accepted lower-case suffixes (with the dot); ``example`` a file name
    suggested in the messages (``"result.png"``).
    """
    if not isinstance(path, (str, Path)):
        raise ModelError(f"{what}: path must be a file name (str or pathlib.Path), got "
                         f"{path!r}")
    text = str(path)
    out = Path(text).expanduser()
    if text.endswith(("/", "\\")) or out.is_dir():
        raise ModelError(f"{what}: path '{text}' is a directory; give a file name such as "
                         f"'{(out / example).as_posix()}'")
    if out.suffix.lower() not in suffixes:
        hint = "no suffix" if not out.suffix else f"the suffix '{out.suffix}'"
        raise ModelError(f"{what}: path '{text}' has {hint}; use one of "
                         f"{', '.join(sorted(suffixes))} (e.g. '{out.with_suffix(Path(example).suffix).as_posix()}')")
    out.parent.mkdir(parents=True, exist_ok=True)
    return out
