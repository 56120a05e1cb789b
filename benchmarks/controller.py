"""Benchmark: how a controller enters the simulation, cost and accuracy.

The same LQR law u = −K·x balances the cube on its edge (10 s from a 0.1 rad tilt) and a
PD law holds the 20-link chain hanging (10 s from q_i = 0.3 rad, one motor per joint), run
as
  compiled   — the law folded into the CasADi graph (jd.Feedback or jd.close_loop),
  callback   — a Python function called by CVODES through a CasADi Callback at every
               right-hand-side evaluation (finite differences complete BDF's Jacobian),
  stepwise   — the Python function sampled with a zero-order hold at period h (CVODES
               restarted every h), h = 10, 1, 0.1 ms.
Accuracy: the largest deviation of the states from the compiled run at rtol = atol = 1e-10.
Times are medians of 3 runs (CPU time of this process); rtol = atol = 1e-8 for the timed runs.

    python benchmarks/controller.py

Prints a table and writes benchmarks/results/controller.json.
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import Motor, World  # noqa: E402
from jourdain.library import CubeOnEdge, NLinkPendulum  # noqa: E402


def cube():
    system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
    states = ["cube.edge.phi", "cube.edge.w", "cube.bearing.w"]
    fb = jd.lqr(jd.linearize(system).select(states),
                Q={"cube.edge.phi": 100.0, "cube.edge.w": 1.0, "cube.bearing.w": 1e-3},
                R=[[1e3]])
    rows, K = [system.x_names.index(n) for n in states], fb.K[0]
    return "cube on edge (LQR)", system, fb, (lambda t, x: [-K @ x[rows]]), \
        {"y0": {"cube.edge.phi": 0.1}}


def chain(n: int = 20):
    model = jd.Model.on_world(World(), chain=NLinkPendulum(n))
    for i in range(1, n + 1):
        setattr(model, f"motor{i}", Motor())
        model.connect(getattr(model, f"motor{i}").flange_b,
                      getattr(model.chain, f"joint{i}").axis)
    system = jd.compile(model)
    lin = jd.linearize(system)
    K = np.hstack([20.0 * np.eye(n), 5.0 * np.eye(n)])   # PD per joint
    fb = jd.Feedback(K, list(lin.state_names), list(system.u_names), np.zeros(2 * n),
                     np.zeros(n), np.zeros(0), np.zeros(0), lin.chart)
    return f"{n}-link chain (PD)", system, fb, (lambda t, x: -K @ x), \
        {"y0": {f"chain.joint{i}.phi": 0.3 for i in range(1, n + 1)}}


def timed(fn, repeat: int = 3) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.process_time()
        out = fn()
        times.append(time.process_time() - start)
    return statistics.median(times), out


def case(label, system, fb, law, start) -> list[dict]:
    grid = dict(n_out=101, **start)
    exact = system.simulate(10.0, controller=fb, rtol=1e-10, atol=1e-10, **grid)
    variants = [("compiled", {"controller": fb}),
                ("callback (BDF)", {"controller": law}),
                ("callback (Adams)", {"controller": law, "method": jd.Method.ADAMS})]
    variants += [(f"stepwise h = {1e3 * h:g} ms", {"controller": law, "period": h})
                 for h in (1e-2, 1e-3, 1e-4)]
    rows = []
    for name, options in variants:
        t, res = timed(lambda: system.simulate(10.0, rtol=1e-8, atol=1e-8, **grid, **options),
                       repeat=1 if "0.1 ms" in name else 3)
        error = float(np.abs(res.x - exact.x).max())
        calls = getattr(res, "controller_calls", 0)
        rows.append({"system": label, "variant": name, "cpu_s": t, "max_error": error,
                     "controller_calls": int(calls)})
        print(f"{label:>22} {name:>22} | {t:>8.3f} s {error:>10.2e} {calls:>9d}")
    return rows


def main() -> None:
    print(f"{'system':>22} {'variant':>22} | {'CPU':>10} {'max |Δx|':>10} {'calls':>9}")
    rows = []
    for build in (cube, chain):
        rows += case(*build())
    out = ROOT / "benchmarks" / "results" / "controller.json"
    out.write_text(json.dumps(rows, indent=1))
    print(f"\nwritten {out}")


if __name__ == "__main__":
    main()
