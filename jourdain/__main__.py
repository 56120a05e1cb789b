"""Command line: ``python -m jourdain report LIBRARY_MODEL`` prints the structure report of a
library model, ``python -m jourdain demo`` runs the cube-on-edge demo, ``python -m jourdain
cache [--prune [--max-age-days D] [--max-mb MB] | --clear]`` lists or prunes the cache of
compiled C libraries."""
from __future__ import annotations

import argparse
import runpy
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="jourdain", description=__doc__)
    parser.add_argument("--version", action="version", version=f"jourdain {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("report", help="print the structure report of a library model")
    rep.add_argument("model", help="library class name, e.g. CubeOnEdge or DoublePendulum")
    sub.add_parser("demo", help="run the cube-on-edge demo (examples/cube_on_edge.py); "
                                "figures go to ./out")
    _cache_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "cache":
        from jourdain.blocks.errors import ModelError
        try:
            return _cache_command(args)
        except ModelError as exc:       # e.g. a negative limit
            parser.error(str(exc))
    if args.command == "report":
        import jourdain as jd
        from jourdain import library
        from jourdain.blocks import World

        cls = getattr(library, args.model, None)
        if cls is None:
            parser.error(f"no library model {args.model!r}; choose from {', '.join(library.__all__)}")
        try:
            mechanism = cls()
        except TypeError as exc:  # e.g. the balanced cubes need a feedback gain K
            parser.error(f"{args.model} cannot be built with default arguments: {exc}")
        print(jd.compile(jd.Model.on_world(World(), model=mechanism)).report())
        return 0
    script = demo_script()
    if script is None:
        print("jourdain demo: examples/cube_on_edge.py was not found next to the package nor "
              f"in {Path(sys.prefix) / DEMO_DATA}; reinstall jourdain (pip install jourdain)",
              file=sys.stderr)
        return 1
    runpy.run_path(str(script), run_name="__main__")
    return 0


# where the wheel installs the demo script ([tool.setuptools.data-files] in pyproject.toml)
DEMO_DATA = Path("share") / "jourdain" / "examples" / "cube_on_edge.py"


def demo_script() -> Path | None:
    """The demo script: the source checkout's examples/ (editable installs, make demo), else
    the copy a wheel installs under ``sys.prefix``."""
    for candidate in (Path(__file__).resolve().parents[1] / "examples" / "cube_on_edge.py",
                      Path(sys.prefix) / DEMO_DATA, Path(sys.base_prefix) / DEMO_DATA):
        if candidate.is_file():
            return candidate
    return None


def _version() -> str:
    from jourdain import __version__
    return __version__


def _cache_parser(sub) -> None:
    cache = sub.add_parser("cache", help="list or prune the cache of compiled C libraries")
    cache.add_argument("--dir", help="the cache (default: $JOURDAIN_CACHE or ~/.cache/jourdain)")
    cache.add_argument("--prune", action="store_true",
                       help="remove libraries by age and size (without limits: unused for "
                            "30 days, then the least recently used beyond 500 MB)")
    cache.add_argument("--max-age-days", type=float, help="remove libraries unused this long")
    cache.add_argument("--max-mb", type=float, help="then keep at most this many MB")
    cache.add_argument("--clear", action="store_true", help="remove every library")
    cache.add_argument("--dry-run", action="store_true", help="only say what would go")


def _size(nbytes: float) -> str:
    return f"{nbytes / 2**20:.1f} MB" if nbytes >= 2**20 else f"{nbytes / 2**10:.1f} kB"


def _cache_command(args) -> int:
    from jourdain.solver.simulation import cache

    directory = Path(args.dir) if args.dir else cache.default_dir()
    if args.prune or args.clear:
        limits = {"max_bytes": 0} if args.clear else {
            "max_age_days": args.max_age_days,
            "max_bytes": None if args.max_mb is None else args.max_mb * 2**20}
        if not args.clear and args.max_age_days is None and args.max_mb is None:
            limits = {"max_age_days": cache.DEFAULT_MAX_AGE_DAYS,
                      "max_bytes": cache.DEFAULT_MAX_BYTES}
        sizes = {e.path: e.bytes for e in cache.cache_entries(directory)}
        removed = cache.prune_cache(cache_dir=directory, dry_run=args.dry_run, **limits)
        verb = "would remove" if args.dry_run else "removed"
        print(f"{directory}: {verb} {len(removed)} libraries "
              f"({_size(sum(sizes.get(p, 0) for p in removed))})")
    entries = cache.cache_entries(directory)
    print(f"{directory}: {len(entries)} libraries, {_size(sum(e.bytes for e in entries))}")
    for e in reversed(entries):            # most recently used first
        print(f"  {e.path.name}  {_size(e.bytes):>9}  last used {e.age_days:.1f} days ago")
    return 0


if __name__ == "__main__":
    sys.exit(main())
