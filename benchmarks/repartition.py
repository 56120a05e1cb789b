"""Benchmark: the cost and the effect of watching the partition of closed loops.

1. Monitoring cost: a partitioned simulation with the conditioning watch and the drift guard
   (System.simulate) against the same System's f integrated by plain CVODES without them
   (solver.simulation.simulate.simulate, the path partitioned systems took before), for the
   Grashof four-bar (10 s, crank 1 rad at 2 rad/s), the RSSR (5 s) and a random
   FreeJoint–Spherical–Revolute loop (0.5 s); rtol = atol = 1e-8, 501 outputs; CPU time,
   medians of 5 runs after a warm-up (integrators are built in every run, as a user pays).
2. Dead points: the non-Grashof four-bar (l = 1, 0.5, 0.6, 0.5; crank 0.3 rad at 20 rad/s,
   rtol = atol = 1e-10) over 2 s: switches, energy drift of partitioning against the
   Baumgarte ODE (same CVODES tolerances) and the DAE (IDAS), the crank angle's largest
   distance from the DAE's, and CPU times (the first partitioned run compiles the other
   partitions; the second reuses them).

Prints tables and writes benchmarks/results/repartition.json.

    python benchmarks/repartition.py [--repeat 5]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import FreeJoint, Revolute, Spherical, World  # noqa: E402
from jourdain.library import RSSR, FourBar, RandomLoop  # noqa: E402
from jourdain.solver.simulation.simulate import simulate as plain_simulate  # noqa: E402


def cpu(fn, repeat: int) -> tuple[float, object]:
    fn()  # warm-up (CasADi plugin loading, caches)
    times, out = [], None
    for _ in range(repeat):
        start = time.process_time()
        out = fn()
        times.append(time.process_time() - start)
    return float(np.median(times)), out


def monitoring_cost(repeat: int) -> list[dict]:
    loop_speeds = ["loop.joint1.wx", "loop.joint1.wy", "loop.joint1.wz", "loop.joint2.wx"]
    cases = [
        ("four-bar", jd.Model.on_world(World(), fb=FourBar()), None, 10.0,
         dict(y0={"fb.crank.phi": 1.0}, z0={"fb.crank.w": 2.0})),
        ("RSSR", jd.Model.on_world(World(), m=RSSR()), None, 5.0,
         dict(z0={"m.crank.w": 3.0})),
        ("FreeJoint-Spherical-Revolute loop",
         jd.Model.on_world(World(), loop=RandomLoop((FreeJoint, Spherical, Revolute), seed=99)),
         {f"u{k}": n for k, n in enumerate(loop_speeds)}, 0.5,
         dict(z0={"u0": 0.024, "u1": 0.260, "u2": 0.048, "u3": 1.889})),
    ]
    rows = []
    for name, model, speeds, t_end, start in cases:
        system = jd.compile(model, speeds=speeds)
        x0 = system.state(**start)
        opts = dict(rtol=1e-8, atol=1e-8, n_out=501)
        t_mon, res = cpu(lambda: system.simulate(t_end, x0=x0, **opts), repeat)
        t_plain, ref = cpu(lambda: plain_simulate(system, t_end, x0=x0, **opts), repeat)
        rows.append({"case": name, "t_end": t_end, "cpu_monitored": t_mon,
                     "cpu_plain": t_plain, "ratio": t_mon / t_plain,
                     "switches": len(res.switches),
                     "energy_drift_monitored": float(np.ptp(res["energy.total"])),
                     "energy_drift_plain": float(np.ptp(ref["energy.total"]))})
    return rows


def dead_points() -> dict:
    model = jd.Model.on_world(World(), fb=FourBar(l0=1.0, l1=0.5, l2=0.6, l3=0.5))
    start = dict(y0={"fb.crank.phi": 0.3}, z0={"fb.crank.w": 20.0}, rtol=1e-10, atol=1e-10,
                 n_out=2001)
    out = {}
    system = jd.compile(model)
    first = time.process_time()
    res = system.simulate(2.0, **start)
    out["cpu_partitioning_first"] = time.process_time() - first
    out["cpu_partitioning"], res = cpu(lambda: system.simulate(2.0, **start), 1)
    runs = {"partitioning": res}
    for method in (jd.ConstraintMethod.BAUMGARTE, jd.ConstraintMethod.DAE):
        other = jd.compile(model, constraints=method)
        out[f"cpu_{method.value}"], runs[method.value] = cpu(
            lambda: other.simulate(2.0, **start), 1)
    energy0 = float(res["energy.total"][0])
    for name, run in runs.items():
        out[f"energy_drift_rel_{name}"] = float(np.ptp(run["energy.total"]) / energy0)
    out["switches"] = len(res.switches)
    out["switch_log"] = [(round(s.t, 5), s.speeds_before[0], s.speeds_after[0],
                          round(s.conditioning_before, 2), round(s.conditioning_after, 2))
                         for s in res.switches]
    out["crank_vs_dae"] = float(np.abs(res["fb.crank.phi"] - runs["dae"]["fb.crank.phi"]).max())
    out["rocker_vs_dae"] = float(np.abs(res["fb.rocker.phi"] -
                                        runs["dae"]["fb.rocker.phi"]).max())
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = monitoring_cost(args.repeat)
    print(f"{'case':36s} {'t_end':>6s} {'watched':>9s} {'plain':>9s} {'ratio':>6s} "
          f"{'switches':>8s} {'dE watched':>11s} {'dE plain':>10s}")
    for r in rows:
        print(f"{r['case']:36s} {r['t_end']:6.1f} {r['cpu_monitored']:8.3f}s "
              f"{r['cpu_plain']:8.3f}s {r['ratio']:6.2f} {r['switches']:8d} "
              f"{r['energy_drift_monitored']:11.2e} {r['energy_drift_plain']:10.2e}")
    dp = dead_points()
    print("\nnon-Grashof four-bar through its dead points, 2 s, rtol = atol = 1e-10:")
    print(f"  switches {dp['switches']}; relative energy drift: partitioning "
          f"{dp['energy_drift_rel_partitioning']:.2e}, Baumgarte "
          f"{dp['energy_drift_rel_baumgarte']:.2e}, DAE {dp['energy_drift_rel_dae']:.2e}")
    print(f"  crank angle vs DAE {dp['crank_vs_dae']:.2e} rad, rocker {dp['rocker_vs_dae']:.2e}"
          f" rad; CPU partitioning {dp['cpu_partitioning_first']:.2f} s (first run, compiles "
          f"the other partitions) / {dp['cpu_partitioning']:.2f} s, Baumgarte "
          f"{dp['cpu_baumgarte']:.2f} s, DAE {dp['cpu_dae']:.2f} s")
    out = ROOT / "benchmarks" / "results" / "repartition.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"monitoring": rows, "dead_points": dp}, indent=1))
    print(f"\nwrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
