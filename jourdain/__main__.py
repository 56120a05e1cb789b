"""Command line: ``python -m jourdain report LIBRARY_MODEL`` prints the structure report of a
library model, ``python -m jourdain demo`` runs the cube-on-edge demo."""
from __future__ import annotations

import argparse
import runpy
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="jourdain", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("report", help="print the structure report of a library model")
    rep.add_argument("model", help="library class name, e.g. CubeOnEdge or DoublePendulum")
    sub.add_parser("demo", help="run examples/cube_on_edge.py (from a source checkout)")
    args = parser.parse_args(argv)
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
    script = Path(__file__).resolve().parents[1] / "examples" / "cube_on_edge.py"
    if not script.exists():
        print("the demo script ships with the source checkout (examples/cube_on_edge.py)")
        return 1
    runpy.run_path(str(script), run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
