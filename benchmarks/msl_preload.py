"""MSL Translational.Examples.PreLoad: CPU time of simulate by horizon and integrator.

The model of examples/msl/pre_load.py (four ElastoGaps, c = 1e6 N/m on 10 g spring plates,
open or just touching at the start) from the MSL's start values, for horizons of 40, 45 and
100 s (the MSL's StopTime), with Method.AUTO (the default), ADAMS and BDF. Before the
ElastoGap declared itself stiff, AUTO's stiffness test at the start (which cannot see a
contact that is open there) chose BDF for 40 s and Adams for 45 s and 100 s: 0.2 s against
11–48 s CPU. The table shows what each choice costs and which one AUTO takes now; the
spool's largest deviation from the closed form of the static chain (pushing branch) shows
that all three reach the same motion.

    python benchmarks/msl_preload.py [--repeat 1]

Writes benchmarks/results/msl_preload.json.
"""
from __future__ import annotations

import argparse
import json
import runpy
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
Y0 = {"spool.s": 0.01475, "springPlateA.s": -0.093, "springPlateB.s": -0.06925}
Z0 = {"spool.v": 0.0, "springPlateA.v": 0.0, "springPlateB.v": 0.0}


def system():
    """The example's compiled model (its script up to the simulation)."""
    source = (ROOT / "examples" / "msl" / "pre_load.py").read_text()
    namespace: dict = {}
    exec(compile(source.split("# %% Simulate")[0], "pre_load", "exec"), namespace)
    return namespace["system"]


def run(sys_, horizon: float, method) -> dict:
    cpu = time.process_time()
    res = sys_.simulate(horizon, y0=Y0, z0=Z0, method=method, n_out=int(horizon * 10) + 1)
    cpu = time.process_time() - cpu
    F_net = res["sineForce.y"] - 2500.0 * res["spool.v"]
    push = F_net > 40.0
    closed = 0.01475 - 0.0015 + F_net[push] * (1 / 20e3 + 2 / 1000e3)
    error = float(np.abs(res["spool.s"][push] - closed).max()) if push.any() else None
    return {"cpu_s": cpu, "method": res.method.name, "events": len(res.events),
            "closed_form_error_m": error}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    sys_ = system()
    rows = []
    for horizon in (40.0, 45.0, 100.0):
        for method in (jd.Method.AUTO, jd.Method.ADAMS, jd.Method.BDF):
            runs = [run(sys_, horizon, method) for _ in range(args.repeat)]
            row = dict(runs[0], cpu_s=float(np.median([r["cpu_s"] for r in runs])),
                       horizon_s=horizon, contender=method.name)
            rows.append(row)
            print(f"{horizon:5.0f} s  {method.name:5s} -> {row['method']:5s} "
                  f"{row['cpu_s']:8.2f} s CPU  {row['events']} events  closed-form error "
                  f"{row['closed_form_error_m']}")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "msl_preload.json").write_text(json.dumps(
        {"metric": "CPU s of simulate, median", "rows": rows}, indent=1))
    print(f"wrote {RESULTS / 'msl_preload.json'}")


if __name__ == "__main__":
    main()
