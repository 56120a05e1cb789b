"""The on-disk cache of compiled libraries (see :mod:`.codegen`): where it is, the temporary
stand-in for a directory that cannot be written, what it holds, and pruning on request.

Entries are files ``jd_<function>_<key>.so``. Their modification time records the last use
(a cache hit touches the file: access times are unreliable, most file systems mount with
``relatime`` or ``noatime``), so pruning by age or size removes the least recently used first.
Builds run in ``jd-build-*`` directories inside the cache and are renamed into place; a
build killed mid-way leaves such a directory, which pruning removes once it is a day old.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from jourdain.blocks.errors import ModelError

BUILD_PREFIX = "jd-build-"      # temporary build directories inside the cache
STALE_BUILD_SECONDS = 86_400    # a build directory this old belongs to no running build
DEFAULT_MAX_AGE_DAYS = 30.0     # ``python -m jourdain cache --prune`` without limits
DEFAULT_MAX_BYTES = 500 * 2**20

# This process's temporary stand-in for an unwritable cache directory: created on first need,
# shared by later builds of the run, removed at exit.
_fallback: Path | None = None


def default_dir() -> Path:
    """``$JOURDAIN_CACHE``, else the platform's user cache directory (platformdirs:
    ``~/.cache/jourdain`` on Linux, ``~/Library/Caches/jourdain`` on macOS,
    ``%LOCALAPPDATA%\\jourdain\\Cache`` on Windows)."""
    env = os.environ.get("JOURDAIN_CACHE")
    return Path(env) if env else Path(platformdirs.user_cache_dir("jourdain", appauthor=False))


def fallback_dir() -> Path:
    """A temporary directory for this run's libraries, removed when the process exits
    (atexit; only by the process that made it, not by forked children)."""
    global _fallback
    if _fallback is None or not _fallback.is_dir():
        _fallback = Path(tempfile.mkdtemp(prefix="jourdain-cache-"))
        atexit.register(_remove, _fallback, os.getpid())
    return _fallback


def current_fallback() -> Path | None:
    """The temporary directory of this run, if one was made."""
    return _fallback


def _remove(path: Path, owner: int) -> None:
    if os.getpid() == owner:
        shutil.rmtree(path, ignore_errors=True)


def writable_dir(directory: Path) -> tuple[Path, OSError | None]:
    """``directory`` (created if needed) when a file can be made in it, else this run's
    temporary directory and the error that ruled the cache out."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=BUILD_PREFIX, dir=directory):
            return directory, None
    except OSError as exc:
        return fallback_dir(), exc


def mark_used(path: Path) -> None:
    """Record a cache hit in the file's modification time (read-only caches: skipped)."""
    with contextlib.suppress(OSError):
        os.utime(path)


@dataclass(frozen=True)
class CacheEntry:
    """One compiled library in the cache."""

    path: Path
    bytes: int
    last_used: float      # seconds since the epoch (the file's modification time)

    @property
    def age_days(self) -> float:
        return (time.time() - self.last_used) / 86_400


def cache_entries(cache_dir=None) -> list[CacheEntry]:
    """The libraries in ``cache_dir`` (default: :func:`default_dir`), least recently used
    first."""
    directory = Path(cache_dir) if cache_dir is not None else default_dir()
    if not directory.is_dir():
        return []
    entries = []
    for path in directory.glob("jd_*.so"):
        with contextlib.suppress(OSError):    # removed meanwhile by another process
            stat = path.stat()
            entries.append(CacheEntry(path, stat.st_size, stat.st_mtime))
    return sorted(entries, key=lambda e: e.last_used)


def _limit(value, name: str, unit: str):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise ModelError(f"prune_cache: {name} must be a number ≥ 0 [{unit}] or None, "
                         f"got {value!r}")
    return float(value)


def prune_cache(max_bytes=None, max_age_days=None, cache_dir=None,
                dry_run: bool = False) -> list[Path]:
    """Remove compiled libraries from the cache and return their paths.

    max_age_days : remove entries not used for longer than this [days].
    max_bytes : then remove the least recently used until the rest fit in this size [bytes]
        (0 empties the cache).
    cache_dir : the cache (default ``$JOURDAIN_CACHE`` or ``~/.cache/jourdain``).
    dry_run : only list what would be removed.

    Build directories left by interrupted builds (``jd-build-*``, older than a day) are
    removed too. Libraries loaded by running processes stay usable (their mapping survives
    the file); those processes' next codegen() simply rebuilds.
    """
    max_bytes, max_age = _limit(max_bytes, "max_bytes", "bytes"), \
        _limit(max_age_days, "max_age_days", "days")
    entries = cache_entries(cache_dir)
    doomed = [e for e in entries if max_age is not None and e.age_days > max_age]
    kept = [e for e in entries if e not in doomed]
    total = sum(e.bytes for e in kept)
    for entry in kept:                      # least recently used first
        if max_bytes is None or total <= max_bytes:
            break
        doomed.append(entry)
        total -= entry.bytes
    removed = [e.path for e in doomed]
    if not dry_run:
        for path in removed:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        _remove_stale_builds(Path(cache_dir) if cache_dir is not None else default_dir())
    return removed


def _remove_stale_builds(directory: Path) -> None:
    if not directory.is_dir():
        return
    for build in directory.glob(BUILD_PREFIX + "*"):
        with contextlib.suppress(OSError):
            if time.time() - build.stat().st_mtime > STALE_BUILD_SECONDS:
                shutil.rmtree(build, ignore_errors=True)
