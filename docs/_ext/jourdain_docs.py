"""Helpers of the documentation build: embed the animations the examples write, and read the
house style of docstrings as reST."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ANIMATIONS = ROOT / "docs" / "_static" / "animations"
WATCHED = [ROOT / "out", ROOT / "examples" / "out"]
_seen: dict = {}


def _animation_files() -> dict:
    return {p: p.stat().st_mtime for d in WATCHED if d.is_dir()
            for p in d.iterdir() if p.suffix in (".html", ".gif")}


def animation_scraper(block, block_vars, gallery_conf) -> str:
    """sphinx-gallery scraper: animations a block wrote (out/*.html embedded as an iframe
    with the player, out/*.gif as an image), copied to _static/animations."""
    now = _animation_files()
    fresh = [p for p, t in now.items() if _seen.get(p) != t]
    _seen.update(now)
    ANIMATIONS.mkdir(parents=True, exist_ok=True)
    parts = []
    for path in sorted(fresh):
        shutil.copy2(path, ANIMATIONS / path.name)
        if path.suffix == ".gif":
            parts.append(f".. image:: /_static/animations/{path.name}\n")
        else:
            parts.append(".. raw:: html\n\n"
                         f'   <iframe src="../_static/animations/{path.name}" '
                         'style="width:100%;height:460px;border:0" loading="lazy"></iframe>\n'
                         f"\n`Open the animation <../_static/animations/{path.name}>`__\n")
    return "\n".join(parts)


_seen.update(_animation_files())

# ---- the house style of docstrings, read as reST --------------------------------------------
# Docstrings are written for people reading the source: "name : text" entries with indented
# continuations, indented formulas and tables after "…:", |x| for norms. Here entries become
# bullet lists, indented blocks literal blocks, and bars are escaped, so the API pages render
# them without changing the source.
ENTRY = re.compile(r"^(\s*)([A-Za-z_][\w\[\]., /*]*?) : (\S.*)$")
CODE = re.compile(r"(``.*?``)")
MARKUP = (":", "* ", "- ", ".. ", "**")


INITIAL = re.compile(r"^(\s*)([A-Za-z])\. ")     # "R. Featherstone" is no enumerated list


def _escape(line: str) -> str:
    parts = CODE.split(INITIAL.sub(r"\1\2\\. ", line))
    return "".join(p if p.startswith("``") else p.replace("|", "\\|") for p in parts)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _entries(lines: list[str]) -> list[str]:
    out, base = [], None
    for raw in lines:
        line = _escape(raw)
        match = ENTRY.match(line)
        if match and not line.lstrip().startswith(MARKUP) and \
                (base is None or _indent(line) == base):
            if base is None and out and out[-1].strip():
                out.append("")
            base = _indent(line)
            out.append(f"{match.group(1)}* **{match.group(2)}** : {match.group(3)}")
        elif base is not None and line.strip() and _indent(line) > base:
            out.append(" " * (base + 2) + line.strip())
        else:
            if base is not None and line.strip():
                out.append("")
            base = None if line.strip() or base is None else base
            out.append(line)
    return out


def _literals(lines: list[str]) -> list[str]:
    """An indented block after a line ending in ':' or after a blank line becomes a literal
    block (formulas, tables of functions, numbered orders written as plain text)."""
    out, i = [], 0
    prev = None                      # the last non-blank line written
    while i < len(lines):
        line = lines[i]
        if prev is not None and line.strip() and _indent(line) > _indent(prev) and \
                not prev.lstrip().startswith(MARKUP):
            blank_before = not out[-1].strip()
            if prev.rstrip().endswith("::"):
                pass                     # already a literal block (run twice: idempotent)
            elif prev.rstrip().endswith(":") and not blank_before:
                out[-1] = out[-1].rstrip() + ":"
                out.append("")
            elif blank_before:
                out[-1:] = ["", "::", ""]
            else:
                out.append(line)
                i += 1
                continue
            base = _indent(prev)
            while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > base):
                out.append(lines[i])
                i += 1
            out.append("")
            continue
        out.append(line)
        if line.strip():
            prev = line
        i += 1
    return out


def _bullets(lines: list[str]) -> list[str]:
    """A blank line before a bullet list that follows a paragraph line."""
    out = []
    for line in lines:
        if line.lstrip().startswith(("* ", "- ")) and out and out[-1].strip() and \
                not out[-1].lstrip().startswith(("* ", "- ")) and \
                _indent(out[-1]) == _indent(line):
            out.append("")
        out.append(line)
    return out


RELATIVE = re.compile(r":(mod|func|class):`\.(\w[\w.]*)`")


def _absolute(lines: list[str], package: str) -> list[str]:
    """:mod:`.sibling` → :mod:`package.sibling` (a relative name that two wings share, such
    as ``.initial``, would be ambiguous for Sphinx)."""
    return [RELATIVE.sub(lambda m: f":{m.group(1)}:`{package}.{m.group(2)}`", line)
            for line in lines]


def house_style(app, what, name, obj, options, lines) -> None:
    """autodoc-process-docstring: the house style as valid reST."""
    module = name if what == "module" else getattr(obj, "__module__", "") or ""
    package = module if what == "module" and getattr(obj, "__path__", None) else \
        module.rpartition(".")[0]
    lines[:] = _absolute(_literals(_entries(_bullets(lines))), package)
