"""Benchmark: the classification of velocity constraints (integrability: Lie brackets, ranks,
Frobenius tests) on rolling and closed-loop models up to a Whipple bicycle (9 coordinates,
6 velocity constraints).

For each model, in one run and on the same inputs (fields, points, constraint rows):
  after  — the current implementation, as a user meets it: the first ``system.integrability``
           (configurations near the reference assembled, brackets evaluated numerically by
           directional derivatives, stopped at the holonomic bound), and the first
           ``report()`` of a fresh System;
  unbound — the new search on the same inputs without the holonomic bound (its worst case:
           every level evaluated until no bracket raises the rank);
  before — the symbolic implementation it replaced (bracket expressions built with full
           Jacobians, one CasADi Function per rank test), loaded from git at --baseline
           (default 51d2bd7, the commit before the change), given the same inputs.
Both must give the same f, g and involutivity. CPU time (process_time), medians of --repeat.
Prints a table with ratios and writes benchmarks/results/integrability.json.

    python benchmarks/integrability.py [--repeat 3] [--baseline REV | --no-baseline]
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.library import RSSR, DifferentialDrive, FourBar, RollingDisk, Wheel  # noqa: E402
from jourdain.library.bicycle import WhippleBicycle  # noqa: E402
from jourdain.solver.constraints import analysis  # noqa: E402

MODELS = {
    "wheel (seed 002)": lambda: Wheel(),
    "rolling disk": lambda: RollingDisk(),
    "differential drive": lambda: DifferentialDrive(),
    "four-bar": lambda: FourBar(),
    "RSSR": lambda: RSSR(),
    "Whipple bicycle": lambda: WhippleBicycle(),
}


def baseline_module(rev: str):
    """The integrability module at ``rev``, loaded inside the installed package so that its
    relative imports resolve; None if git or the revision is unavailable."""
    try:
        source = subprocess.run(["git", "show", f"{rev}:solver/constraints/integrability.py"],
                                cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    name = "jourdain.solver.constraints._integrability_baseline"
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "jourdain.solver.constraints"
    sys.modules[name] = module          # dataclasses look their module up there
    exec(compile(source, f"{rev}:integrability.py", "exec"), module.__dict__)
    return module


def compiled(make):
    return jd.compile(jd.Model.on_world(World(), m=make()))


WALL: dict = {}   # label -> wall-clock seconds of the calls timed under it (JSON only)


def cpu(fn, label: str | None = None):
    """(CPU seconds, result) of fn(); its wall time is appended to WALL[label]."""
    start, wall = time.process_time(), time.perf_counter()
    out = fn()
    WALL.setdefault(label, []).append(time.perf_counter() - wall)
    return time.process_time() - start, out


def classify_inputs(system) -> tuple:
    """The arguments the System's classification passes to ``classify`` (captured)."""
    seen = {}

    def capture(*args, **kwargs):
        seen.update(args=args, kwargs=kwargs)
    with mock.patch.object(analysis, "classify", capture):
        system._classify()
    return seen["args"], seen["kwargs"]


def answers(info) -> dict:
    return {"f": info.f, "g": info.g, "involutive": bool(info.involutive),
            "levels": list(info.levels)}


def case(label: str, make, repeat: int, base) -> dict:
    t_compile, system = cpu(lambda: compiled(make))
    fresh = [compiled(make) for _ in range(2 * repeat)]     # the classification is cached
    t_after, info = zip(*[cpu(lambda: s.integrability, (label, "after"))
                           for s in fresh[:repeat]])
    t_report = [cpu(s.report)[0] for s in fresh[repeat:]]
    row = {"model": label, "coordinates": len(system.y_names),
           "velocity_constraints": len(system.partition.velocity_rows),
           "t_compile": t_compile, "t_after": float(np.median(t_after)),
           "t_report": float(np.median(t_report)), "after": answers(info[0]),
           "t_after_wall": float(np.median(WALL[(label, "after")]))}
    args, kwargs = classify_inputs(system)
    kwargs.pop("bound", None)
    t_free = [cpu(lambda: analysis.classify(*args, **kwargs))[0] for _ in range(repeat)]
    row["t_unbounded"] = float(np.median(t_free))
    if base is not None:
        t_before, old = zip(*[cpu(lambda: base.classify(*args, **kwargs), (label, "before"))
                              for _ in range(repeat)])
        row.update(t_before=float(np.median(t_before)), before=answers(old[0]))
        row["t_before_wall"] = float(np.median(WALL[(label, "before")]))
        row["same_answers"] = all(row["before"][k] == row["after"][k]
                                  for k in ("f", "g", "involutive"))
    return row


def print_table(rows: list) -> None:
    head = (f"{'model':<19} {'n_y':>3} {'k':>2} {'compile':>7} {'before':>7} {'after':>7} "
            f"{'ratio':>6} {'unbound':>7} {'report':>7}  f  g  {'levels before':<18} "
            f"{'levels after':<14} same")
    print(head)
    print("-" * len(head))
    for r in rows:
        before = f"{r['t_before']:7.3f}" if "t_before" in r else f"{'—':>7}"
        ratio = f"{r['t_before'] / r['t_after']:6.1f}" if "t_before" in r else f"{'—':>6}"
        a, b = r["after"], r.get("before", {"levels": []})
        print(f"{r['model']:<19} {r['coordinates']:>3} {r['velocity_constraints']:>2} "
              f"{r['t_compile']:7.3f} {before} {r['t_after']:7.3f} {ratio} "
              f"{r['t_unbounded']:7.3f} {r['t_report']:7.3f}  {a['f']}  {a['g']}  "
              f"{' -> '.join(map(str, b['levels'])):<18} "
              f"{' -> '.join(map(str, a['levels'])):<14} {r.get('same_answers', '—')}")
    print("CPU seconds, medians. before: the baseline's symbolic brackets on the same inputs; "
          "after: first System.integrability\n(nearby configurations assembled, holonomic "
          "bound, brackets); unbound: the new search on the same inputs without the bound; "
          "report: first System.report()")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", default="51d2bd7")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/integrability.json"))
    args = parser.parse_args()
    base = None if args.no_baseline else baseline_module(args.baseline)
    compiled(MODELS["wheel (seed 002)"])          # warm-up: imports, CasADi plugins
    rows = [case(label, make, args.repeat, base) for label, make in MODELS.items()]
    print_table(rows)
    meta = {"baseline": None if base is None else args.baseline, "repeat": args.repeat,
            "python": platform.python_version(), "machine": platform.machine(),
            "casadi": __import__("casadi").__version__}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
