"""Benchmark: what the visualization wing costs.

1. Compile time with and without the visual stage (shapes, ``poses`` function, component
   graph) on n-link chains and the cube on a corner: the visual stage runs on every compile.
2. Simulation with ``progress=False`` (one CVODES call), ``None`` (the default: a watcher
   thread, a bar only after 2 s) and ``True`` (the grid in 20 pieces with a fraction bar);
   the overhead ratios against ``False``.
3. Writing an HTML animation (poses mapped over the samples, the file) and its size.

Medians of repeated runs, CPU time of this process (the machine is shared). Prints a table and
writes benchmarks/results/visual.json.

    python benchmarks/visual.py [--repeat 5]
"""
from __future__ import annotations

import argparse
import importlib
import io
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.library import CubeOnCorner, NLinkPendulum  # noqa: E402


def cpu(fn, repeat: int) -> float:
    """Median CPU time [s] of ``fn()``."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return float(np.median(times))


def models() -> dict:
    return {"chain 5": lambda: jd.Model.on_world(World(), m=NLinkPendulum(5)),
            "chain 20": lambda: jd.Model.on_world(World(), m=NLinkPendulum(20)),
            "chain 60": lambda: jd.Model.on_world(World(), m=NLinkPendulum(60)),
            "cube on a corner": lambda: jd.Model.on_world(World(), m=CubeOnCorner())}


def compile_cost(make, repeat: int) -> dict:
    compile_module = importlib.import_module("jourdain.solver.compile")
    with_visual = cpu(lambda: jd.compile(make()), repeat)
    original = compile_module.attach_visual
    compile_module.attach_visual = lambda system, mech, y: None
    try:
        without = cpu(lambda: jd.compile(make()), repeat)
    finally:
        compile_module.attach_visual = original
    return {"compile [s]": with_visual, "without visual [s]": without,
            "visual share": (with_visual - without) / with_visual}


def simulation_cost(system, horizon: float, repeat: int) -> dict:
    y0 = {system.y_names[0]: 1.0}
    out = {}
    for progress in (False, None, True):
        sink = io.StringIO()
        import tqdm.auto
        original = tqdm.auto.tqdm
        tqdm.auto.tqdm = lambda *a, **k: original(*a, **{**k, "file": sink})
        try:
            out[str(progress)] = cpu(lambda: system.simulate(horizon, y0=y0, progress=progress),
                                     repeat)
        finally:
            tqdm.auto.tqdm = original
    out["ratio None/False"] = out["None"] / out["False"]
    out["ratio True/False"] = out["True"] / out["False"]
    return out


def animation_cost(system, repeat: int) -> dict:
    res = system.simulate(5.0, y0={system.y_names[0]: 1.0})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "a.html"
        seconds = cpu(lambda: res.animate(path), repeat)
        size = path.stat().st_size
    return {"animate html [s]": seconds, "html size [MB]": size / 1e6,
            "shapes": len(system.visual), "samples": len(res.t)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = {}
    for name, make in models().items():
        system = jd.compile(make())
        row = compile_cost(make, args.repeat)
        row.update({f"sim 10 s {k}": v for k, v in
                    simulation_cost(system, 10.0, args.repeat).items()})
        row.update(animation_cost(system, args.repeat))
        rows[name] = row
        print(name, {k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()},
              flush=True)
    out = ROOT / "benchmarks" / "results" / "visual.json"
    out.write_text(json.dumps(rows, indent=2))
    keys = ["compile [s]", "visual share", "sim 10 s False", "sim 10 s ratio None/False",
            "sim 10 s ratio True/False", "animate html [s]", "html size [MB]"]
    print("\n| model | " + " | ".join(keys) + " |")
    print("|---|" + "---:|" * len(keys))
    for name, row in rows.items():
        print(f"| {name} | " + " | ".join(f"{row[k]:.3g}" for k in keys) + " |")
    print(f"\nwritten {out}")


if __name__ == "__main__":
    main()
