"""Benchmark: throughput of a parameter sweep of the 20-link chain, serial, on local worker
processes and on a Dask LocalCluster, and the per-run overhead of the parallel paths.

The study: the planar 20-link pendulum (library NLinkPendulum, recursive back end, f and its
Jacobian compiled to C), the first link's mass symbolic and drawn uniformly in [0.5, 1.5] kg,
each run 10 s of motion from q_i = 0.3 rad (CVODES Adams, rtol = atol = 1e-8, 11 outputs).
The same runs (one seed) go through jd.sweep with workers=1 (serial, in this process),
workers=W (local processes) and client=Client(LocalCluster(W workers, 1 thread each)); the
final states must agree exactly. Speed-up = serial wall time / parallel wall time.

Overhead: the same three paths on trivial runs (a 1-link pendulum for 1 ms, 2 outputs): the
parallel per-run overhead is W × wall / runs − the serial per-run time (what the path adds to
each run, in worker time). The machine is shared: the load average is recorded beside the
times, and the CPU-limited speed-up serial CPU / (parallel CPU / W) is reported beside the
wall-clock one (time slicing by other processes stretches wall time, not CPU time).

    python benchmarks/sweep.py [--runs 1000] [--workers 2] [--trivial 1000]

Prints a table and writes benchmarks/results/sweep.json.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.library import NLinkPendulum  # noqa: E402


def chain(n: int, codegen: bool):
    system = jd.compile(jd.Model.on_world(World(), chain=NLinkPendulum(n)),
                        parameters=["chain.link1.m"])
    return system.codegen() if codegen else system


def paths(system, spec: dict, workers: int) -> dict:
    """Wall time and the table of each path (serial, processes, Dask)."""
    from dask.distributed import Client, LocalCluster

    out = {}
    for label, extra in (("serial", {"workers": 1}), ("processes", {"workers": workers})):
        start, load = time.perf_counter(), os.getloadavg()[0]
        table = jd.sweep(system, progress=False, **spec, **extra)
        out[label] = (time.perf_counter() - start, table, load)
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        client.run(lambda: None)   # workers up before the clock starts
        start, load = time.perf_counter(), os.getloadavg()[0]
        table = jd.sweep(system, client=client, progress=False, **spec)
        out["dask"] = (time.perf_counter() - start, table, load)
    return out


def summary(results: dict, runs: int, workers: int) -> dict:
    """Per path: wall time, throughput, speed-up, median run (wall and CPU), per-run
    overhead, and the CPU-limited speed-up serial CPU / (parallel CPU / W), which time
    slicing by other processes on a loaded machine does not distort."""
    serial, serial_cpu = results["serial"][0], results["serial"][1]["cpu_seconds"].sum()
    rows = {}
    for label, (wall, table, load) in results.items():
        ok = int((table["status"] == "ok").sum())
        cpu = float(table["cpu_seconds"].sum())
        parallel = 1 if label == "serial" else workers
        rows[label] = {"wall_s": wall, "runs_per_s": runs / wall, "speedup": serial / wall,
                       "median_run_s": float(table["seconds"].median()),
                       "median_run_cpu_s": float(table["cpu_seconds"].median()),
                       "cpu_speedup": float(serial_cpu / (cpu / parallel)), "ok": ok,
                       "load_average": load,
                       "overhead_per_run_ms": (0.0 if label == "serial" else
                                               1e3 * (workers * wall - serial) / runs)}
    return rows


def agreement(results: dict) -> float:
    cols = [c for c in results["serial"][1].columns if c.endswith(".final")]
    ref = results["serial"][1][cols].to_numpy()
    return max(float(np.abs(results[k][1][cols].to_numpy() - ref).max())
               for k in ("processes", "dask"))


def print_table(title: str, rows: dict) -> None:
    print(f"\n{title}")
    print(f"{'path':>10} | {'wall [s]':>9} {'runs/s':>8} {'speed-up':>8} "
          f"{'run [ms]':>9} {'run CPU [ms]':>12} {'CPU speed-up':>12} "
          f"{'overhead/run [ms]':>17} {'load':>5}")
    for label, r in rows.items():
        print(f"{label:>10} | {r['wall_s']:>9.2f} {r['runs_per_s']:>8.2f} {r['speedup']:>8.2f} "
              f"{1e3 * r['median_run_s']:>9.1f} {1e3 * r['median_run_cpu_s']:>12.1f} "
              f"{r['cpu_speedup']:>12.2f} {r['overhead_per_run_ms']:>17.2f} "
              f"{r['load_average']:>5.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--trivial", type=int, default=1000)
    args = parser.parse_args()
    start = time.perf_counter()
    system = chain(20, codegen=True)
    print(f"20-link chain compiled with C code in {time.perf_counter() - start:.1f} s "
          f"({system.library})")
    spec = dict(params={"chain.link1.m": jd.Uniform(0.5, 1.5)}, samples=args.runs, seed=1,
                y0={f"chain.joint{i}.phi": 0.3 for i in range(1, 21)}, t_end=10.0,
                options={"method": jd.Method.ADAMS, "n_out": 11})
    heavy = paths(system, spec, args.workers)
    heavy_rows = summary(heavy, args.runs, args.workers)
    print_table(f"{args.runs} runs of the 20-link chain, 10 s each, {args.workers} workers",
                heavy_rows)
    diff = agreement(heavy)
    print(f"largest difference of the final states to the serial loop: {diff:.1e}")
    light = chain(1, codegen=False)
    trivial_spec = dict(params={"chain.link1.m": jd.Uniform(0.5, 1.5)}, samples=args.trivial,
                        seed=2, t_end=1e-3, options={"n_out": 2})
    trivial = summary(paths(light, trivial_spec, args.workers), args.trivial, args.workers)
    print_table(f"{args.trivial} trivial runs (1-link pendulum, 1 ms): per-run overhead",
                trivial)
    out = ROOT / "benchmarks" / "results" / "sweep.json"
    out.write_text(json.dumps({"runs": args.runs, "workers": args.workers,
                               "cores": os.cpu_count(), "chain": heavy_rows,
                               "agreement": diff, "trivial": trivial}, indent=1))
    print(f"\nwritten {out}")


if __name__ == "__main__":
    main()
