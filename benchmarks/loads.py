"""Benchmark: compile time and peak memory of the families whose compile grew superlinearly
(issue 30, "Loads"): an RC ladder of n sections (the electrical network), a gear train of n
inertias (the 1-D flange network), and n balls with ground contact (the hybrid collection).

For each family and size n: the model is built, then ``jd.compile`` is timed (process CPU
time and wall time) and its peak Python memory measured (tracemalloc, a separate run of the
same compile, since tracing slows it). The growth exponent between successive sizes is
log(t₂/t₁)/log(n₂/n₁) (1: linear, 2: quadratic). Each point runs in a fresh subprocess, so
caches and the other sizes do not affect it.

    python benchmarks/loads.py [--sizes 100 200 500 1000] [--families rc gears balls]
                               [--profile rc 500]   # cProfile's top entries of one compile

Prints a table and writes benchmarks/results/loads.json.
"""
from __future__ import annotations

import argparse
import json
import math
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def rc_ladder(n: int):
    """A voltage source feeding n RC sections: R_k from node k−1 to node k, C_k from node k
    to ground (n capacitor-voltage states)."""
    import jourdain as jd
    from jourdain.blocks import Capacitor, ConstantVoltage, Ground, Resistor, World

    class Ladder(jd.Composite):
        def __init__(self):
            super().__init__()
            self.src, self.ground = ConstantVoltage(V=1.0), Ground()
            self.connect(self.src.n, self.ground.p)
            left = self.src.p
            for k in range(n):
                r = self.add(f"R{k}", Resistor(R=1.0))
                c = self.add(f"C{k}", Capacitor(C=1e-3))
                self.connect(left, r.p)
                self.connect(r.n, c.p)
                self.connect(c.n, self.ground.p)
                left = r.n
    return jd.Model(World(), ladder=Ladder())


def gear_train(n: int):
    """n inertias in a row, each pair meshed by an IdealGear (ratio 1.01), a damper on the
    first: one coordinate, the whole train's reflected inertia on it."""
    import jourdain as jd
    from jourdain.blocks import IdealGear, Inertia, World

    class Train(jd.Composite):
        def __init__(self):
            super().__init__()
            previous = None
            for k in range(n):
                inertia = self.add(f"J{k}", Inertia(J=1e-3 * (1 + k % 7)))
                if previous is not None:
                    gear = self.add(f"gear{k}", IdealGear(ratio=1.01))
                    self.connect(previous.flange_b, gear.flange_a)
                    self.connect(gear.flange_b, inertia.flange_a)
                previous = inertia
    return jd.Model(World(), train=Train())


def balls(n: int):
    """n free balls (FreeJoint, sphere contact on the floor y = 0, μ = 0.5, e = 0.5)."""
    import jourdain as jd
    from jourdain.blocks import FreeJoint, RigidBody, World
    from jourdain.blocks.hybrid import GroundContact

    model = jd.Model(world=World())
    for i in range(n):
        joint = model.add(f"j{i}", FreeJoint())
        body = model.add(f"b{i}", RigidBody(m=0.1, I=(1e-4,) * 3))
        contact = model.add(f"c{i}", GroundContact(radius=0.05, normal=(0, 1, 0), mu=0.5,
                                                   e=0.5, v_rest=0.05))
        model.connect(model.world.frame_b, joint.frame_a)
        model.connect(joint.frame_b, body.frame_a)
        model.connect(contact.frame_a, body.frame_a)
    return model


FAMILIES = {"rc": rc_ladder, "gears": gear_train, "balls": balls}


def _point(family: str, n: int) -> dict:
    """One compile in this process: CPU and wall seconds, states; then the peak memory of
    a second, traced compile of a fresh model."""
    import tracemalloc

    import jourdain as jd

    model = FAMILIES[family](n)
    before = _rss_mb()
    wall, cpu = time.perf_counter(), time.process_time()
    system = jd.compile(model)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - before
    model = FAMILIES[family](n)
    tracemalloc.start()
    jd.compile(model)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"family": family, "n": n, "nx": system.nx, "compile_cpu_s": cpu,
            "compile_wall_s": wall, "peak_mb": peak / 2**20, "rss_growth_mb": rss}


def _rss_mb() -> float:
    """The resident set size now [MB] (Linux /proc; the peak after compile is ru_maxrss)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def _profile(family: str, n: int, top: int = 25) -> None:
    import cProfile
    import pstats

    import jourdain as jd

    model = FAMILIES[family](n)
    profiler = cProfile.Profile()
    profiler.enable()
    jd.compile(model)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(top)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def _exponents(rows: list[dict], key: str) -> None:
    for a, b in zip(rows, rows[1:]):
        if a["family"] == b["family"] and a.get(key) and b.get(key):
            b[f"{key}_exponent"] = math.log(b[key] / a[key]) / math.log(b["n"] / a["n"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 500, 1000])
    parser.add_argument("--families", nargs="+", default=list(FAMILIES), choices=FAMILIES)
    parser.add_argument("--profile", nargs=2, metavar=("FAMILY", "N"))
    parser.add_argument("--point", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, default=900.0)
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "loads.json"))
    args = parser.parse_args()
    if args.point:
        print(json.dumps(_point(args.point[0], int(args.point[1]))))
        return
    if args.profile:
        _profile(args.profile[0], int(args.profile[1]))
        return
    rows = []
    print(f"{'family':7s} {'n':>6s} {'nx':>6s} {'cpu [s]':>9s} {'wall [s]':>9s} "
          f"{'rss [MB]':>9s} {'py [MB]':>9s} {'exp(cpu)':>9s} {'exp(rss)':>9s} "
          f"{'exp(py)':>9s}")
    for family in args.families:
        for n in args.sizes:
            try:
                out = subprocess.run([sys.executable, __file__, "--point", family, str(n)],
                                     capture_output=True, text=True, timeout=args.timeout)
                row = json.loads(out.stdout.strip().splitlines()[-1])
            except (subprocess.TimeoutExpired, IndexError, json.JSONDecodeError):
                row = {"family": family, "n": n, "failed": True}
            rows.append(row)
            for key in ("compile_cpu_s", "rss_growth_mb", "peak_mb"):
                _exponents(rows, key)
            if row.get("failed"):
                print(f"{family:7s} {n:6d}  failed or timed out")
                continue
            exps = " ".join(f"{row.get(k + '_exponent', float('nan')):9.2f}"
                            for k in ("compile_cpu_s", "rss_growth_mb", "peak_mb"))
            print(f"{family:7s} {n:6d} {row['nx']:6d} {row['compile_cpu_s']:9.2f} "
                  f"{row['compile_wall_s']:9.2f} {row['rss_growth_mb']:9.1f} "
                  f"{row['peak_mb']:9.1f} {exps}", flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({
        "machine": platform.platform(), "python": platform.python_version(),
        "note": "compile CPU time (process_time), growth of the peak resident memory "
                "(ru_maxrss) and tracemalloc peak of jd.compile; exponent: log ratio "
                "between successive sizes", "rows": rows}, indent=1))
    print(f"written {args.out}")


if __name__ == "__main__":
    main()
