"""Run the multibody benchmarks of issue 29 and print the table (problem, code, error in the
benchmark's own measure, CPU time), then write benchmarks/results/mbs.json.

    python benchmarks/mbs/run_all.py [--repeat 3] [--big]

Without --big the N-four-bar runs at n = 1, 2, 4 (every method); --big adds partitioning at
n = 5, 10, 20, 40 (the statement's), 80 at the defaults, and up to 40 at the former defaults
(a02_nfourbar.FORMER: BDF, 1e-8), with the CPU time per integrator step and window. CPU time is time.process_time,
the median of ``repeat`` runs after a warm-up (compile time apart).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import a01_pendulum  # noqa: E402
import a02_nfourbar  # noqa: E402
import andrews  # noqa: E402
import a04_bricard  # noqa: E402
import a05_flyball  # noqa: E402
import slider_crank  # noqa: E402
from common import ROOT  # noqa: E402



def table(rows: list[dict]) -> str:
    lines = [f"{'problem':28s} {'code':36s} {'error':>10s} {'measure':>8s} {'CPU [s]':>9s}  note"]
    for r in rows:
        err = "—" if math.isnan(r["error"]) else f"{r['error']:.2e}" if r.get(
            "measure", "abs") != "scd" else f"{r['error']:.2f}"
        cpu = "—" if math.isnan(r["cpu"]) else f"{r['cpu']:.3f}"
        note = r.get("refused") or r.get("settings") or (
            f"{r['vs_peer']:.2f}× peer" if "vs_peer" in r else "")
        if "parallel" in r:   # the physical branch: every rod parallel to the first
            note += f"; rods parallel to {r['parallel']:.1e} rad"
        if r.get("steps"):
            note += (f"; {r['steps']} steps, {r['us_per_step_per_window']:.1f} µs per step "
                     "and window")
        lines.append(f"{r['problem']:28s} {r['code']:36s} {err:>10s} "
                     f"{r.get('measure', 'abs'):>8s} {cpu:>9s}  {note}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--big", action="store_true")
    args = parser.parse_args()
    rows = a01_pendulum.run(args.repeat)
    rows += andrews.run(args.repeat, tolerances=(1e-8, 1e-10, 1e-12))
    rows += andrews.defaults(args.repeat)   # AUTO and the loops' default tolerance
    rows += a02_nfourbar.run((1, 2, 4), repeat=args.repeat)
    rows += a04_bricard.run(args.repeat)
    rows += a05_flyball.run(args.repeat)
    rows += slider_crank.run(args.repeat)
    if args.big:   # the statement's n = 40 among n = 5 … 80: cost per step and window
        rows += a02_nfourbar.scaling((5, 10, 20, 40, 80), repeat=args.repeat)
    print(table(rows))
    out = ROOT / "benchmarks" / "results" / "mbs.json"
    out.write_text(json.dumps(rows, indent=1, default=str))
    print(f"\nwrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
