"""Benchmark: what exact inputs and time events cost (issue 23).

1. A free wheel driven by a 50 Hz torque over 40 s: the torque as a Python callable (called
   where CVODES asks, a CasADi Callback) against the same sine as a table of 100 samples per
   period (an interpolant inside the expression graph), and the error of each against the
   closed form ψ̇ = (1 − cos ωt)/(J·ω), relative to the amplitude 1/(J·ω).
2. The scan for jumps and the restarts: the cube on its edge (n = 501 outputs, 5 s) with its
   motor driven by a Sine source (scanned, no restart), a Step (one declared restart), a Pulse
   of 10 Hz (100 restarts), against a Constant (nothing to scan).

Medians of repeated runs, CPU time of this process (the machine is shared). Prints a table and
writes benchmarks/results/inputs.json.

    python benchmarks/inputs.py [--repeat 3]
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
from jourdain.blocks import (  # noqa: E402
    Constant, Motor, Pulse, Revolute, RigidBody, Sine, Step, World)
from jourdain.library import CubeOnEdge  # noqa: E402

J, OMEGA = 0.1, 2 * np.pi * 50.0


def cpu(fn, repeat: int):
    """(median CPU time [s], the last result) of ``fn()``."""
    times, out = [], None
    for _ in range(repeat):
        start = time.process_time()
        out = fn()
        times.append(time.process_time() - start)
    return float(np.median(times)), out


def wheel():
    model = jd.Model(world=World())
    model.axle, model.motor = Revolute(axis=(0, 1, 0)), Motor()
    model.wheel = RigidBody(m=1, I=(J / 2, J, J / 2))
    model.connect(model.world.frame_b, model.axle.frame_a)
    model.connect(model.axle.frame_b, model.wheel.frame_a)
    model.connect(model.motor.flange_b, model.axle.axis)
    return jd.compile(model)


def fast_sine(repeat: int) -> list[dict]:
    system = wheel()
    ts = np.linspace(0.0, 40.0, 200001)
    rows = []
    for label, spec in (("callable", lambda t: np.sin(OMEGA * t)),
                        ("table, 100 samples per period", (ts, np.sin(OMEGA * ts)))):
        seconds, res = cpu(lambda: system.simulate(40.0, n_out=4001, inputs={"motor.tau": spec},
                                                   rtol=1e-8, atol=1e-10), repeat)
        error = np.abs(res["axle.w"] - (1 - np.cos(OMEGA * res.t)) / (J * OMEGA)).max()
        rows.append({"case": f"50 Hz over 40 s, {label}", "cpu_s": seconds,
                     "steps": res.stats["steps"], "rel_error": float(error * J * OMEGA)})
    return rows


def sources(repeat: int) -> list[dict]:
    rows = []
    for label, source in (("Constant", Constant(k=0.01)), ("Sine 2 Hz", Sine(0.01, 2.0)),
                          ("Step at 2.5 s", Step(0.01, 2.5)),
                          ("Pulse 10 Hz", Pulse(0.01, 50.0, 0.1))):
        model = jd.Model.on_world(World(), cube=CubeOnEdge())
        model.source = source
        model.connect(model.source.y, model.cube.motor.tau)
        system = jd.compile(model)
        seconds, res = cpu(lambda: system.simulate(5.0, y0={"cube.edge.phi": 0.1}), repeat)
        rows.append({"case": f"cube, {label}", "cpu_s": seconds,
                     "restarts": res.stats.get("restarts", 0), "steps": res.stats["steps"]})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    jd.options.progress = False
    rows = fast_sine(args.repeat) + sources(args.repeat)
    for row in rows:
        print(" | ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}"
                         for k, v in row.items()))
    out = ROOT / "benchmarks" / "results" / "inputs.json"
    out.write_text(json.dumps(rows, indent=2))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
