"""C build benchmark: what System.codegen costs (wall and CPU time, the compiler's peak memory)
and what the code gives (one evaluation of f), by model size and compiler flags, against the
layout before issue 18 (f and its Jacobian always compiled together).

Models: jourdain.library.NLinkPendulum(n) and RandomTree(n, seed=n). Each build runs in a
fresh subprocess with an empty cache, so its compiler children's peak RSS
(getrusage(RUSAGE_CHILDREN).ru_maxrss) and CPU time are its own. Rows:
  f -O0 / -O1 / -O2   codegen's default layout (f alone for a large system: Adams needs no
                      Jacobian) at each flag; f evaluated through Function.buffer [µs]
  jacobian on demand  the Jacobian BDF asks for (jacobian.attach_jacobian), when compiled
  before              f and the pre-issue jac_f (expanded below 100k instructions, else
                      forward derivatives over the columns) in one build, as codegen did
Target (issue 18): the 100-link chain under 5 s wall, gcc under 1 GB.

    python benchmarks/build.py [--chain 20 50 100] [--trees 20 50] [--before]

(--before: the old layout for the largest chain only; it takes minutes.)

Writes benchmarks/results/build.json and build.png.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "benchmarks" / "results"


def _children() -> tuple[float, float]:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def one(kind: str, n: int, what: str, flags: str) -> dict:
    """One build in this (fresh) process; what: 'f', 'jacobian' or 'before'."""
    import casadi as ca

    import jourdain as jd
    from jourdain.blocks import World
    from jourdain.library import NLinkPendulum, RandomTree
    from jourdain.solver.simulation import codegen, jacobian

    part = NLinkPendulum(n) if kind == "chain" else RandomTree(n, seed=n)
    system = jd.compile(jd.Model.on_world(World(), part=part))
    f = system.functions["f"]
    row = {"f_instructions": f.n_instructions()}
    with tempfile.TemporaryDirectory() as cache:
        wall = time.perf_counter()
        if what == "before":
            options = codegen.CodegenOptions(flags=tuple(flags.split()), cache_dir=cache)
            path = codegen.build_library(f, options, functions=[f, codegen.jacobian_function(f)])
            row["ok"] = path is not None
        else:
            system.codegen(cache_dir=cache, flags=flags)
            row["ok"] = system.library is not None
            if what == "jacobian":
                base = _children()[0]
                wall = time.perf_counter()
                choice = jacobian.choose(system)
                jacobian.attach_jacobian(system, choice)
                row["form"], row["ok"] = choice.form.value, choice.compiled is not None
                row["instructions"] = jacobian.instructions(choice.function)
        row["wall_s"] = time.perf_counter() - wall
        cpu, rss = _children()
        row["gcc_cpu_s"] = cpu - (base if what == "jacobian" else 0.0)
        row["gcc_peak_mb"] = rss
        if what == "f" and row["ok"]:
            x = np.concatenate([np.full(n, 0.3), np.full(n, 0.5)])
            row["f_us"] = _time_us(system.f, [0.0, x, [], system.p_default])
            row["f_vm_us"] = _time_us(f, [0.0, x, [], system.p_default])
        row["library_kb"] = sum(p.stat().st_size for p in Path(cache).glob("*.so")) / 1024
    del ca
    return row


def _time_us(fn, args) -> float:
    from jourdain.solver.simulation.numeric import buffered
    trigger = buffered(fn, args)
    trigger()
    samples = []
    for _ in range(5):
        start, count = time.process_time(), 0
        while time.process_time() - start < 0.05:
            trigger()
            count += 1
        samples.append((time.process_time() - start) / count * 1e6)
    return float(np.median(samples))


def run(kind: str, n: int, what: str, flags: str) -> dict:
    # flags travel without their dashes (argparse would read "-O1" as an option)
    out = subprocess.run([sys.executable, __file__, "--one", kind, str(n), what,
                          flags.replace("-", "+")],
                         capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1][:200]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def figure(rows: list, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for kind, marker in (("chain", "o"), ("tree", "s")):
        for what, flags, style in (("f", "-O1", "-"), ("f", "-O0", ":"), ("before", "-O1", "--"),
                                   ("jacobian", "-O1", "-.")):
            pts = [(r["n"], r["wall_s"], r["gcc_peak_mb"]) for r in rows
                   if r["kind"] == kind and r["what"] == what and r["flags"] == flags
                   and "wall_s" in r]
            if pts:
                ns, wall, mem = zip(*pts)
                label = f"{kind} {what} {flags}"
                axes[0].plot(ns, wall, marker + style, label=label)
                axes[1].plot(ns, mem, marker + style, label=label)
    axes[0].axhline(5.0, color="k", lw=0.8, ls=":")
    axes[1].axhline(1024, color="k", lw=0.8, ls=":")
    axes[0].set(xlabel="bodies n", ylabel="build wall time [s]", yscale="log")
    axes[1].set(xlabel="bodies n", ylabel="gcc peak RSS [MB]", yscale="log")
    axes[1].legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--chain", type=int, nargs="+", default=[20, 50, 100])
    parser.add_argument("--trees", type=int, nargs="+", default=[20, 50])
    parser.add_argument("--before", action="store_true",
                        help="also the pre-issue-18 build (f and Jacobian) of the largest chain")
    args = parser.parse_args()
    if args.one:
        kind, n, what, flags = args.one
        flags = flags.replace("+", "-")
        print(json.dumps(one(kind, int(n), what, flags)))
        return
    rows = []
    plan = [("f", "-O0"), ("f", "-O1"), ("f", "-O2"), ("jacobian", "-O1")]
    for kind, sizes in (("chain", args.chain), ("tree", args.trees)):
        for n in sizes:
            before = args.before and kind == "chain" and n == max(args.chain)
            for what, flags in plan + ([("before", "-O1")] if before else []):
                row = {"kind": kind, "n": n, "what": what, "flags": flags,
                       **run(kind, n, what, flags)}
                rows.append(row)
                print(json.dumps(row), flush=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "build.json").write_text(json.dumps(rows, indent=1))
    figure(rows, RESULTS / "build.png")
    print(f"wrote {RESULTS / 'build.json'}")


if __name__ == "__main__":
    main()
