"""Benchmark: the acausal core (docs/acausal.md) — compile time against model size, index
reduction, and the runtime of circuits (all compiled on the core).

In one run (CPU time, process_time, medians of --repeat):
  thermal chain — n HeatCapacitors joined by ThermalConductors, the last to a
                  FixedTemperature (n = 125 … 1000): compile time, compile time per mass
                  (flat when the growth is linear), one f evaluation;
  diode ladder  — n sections of a series Resistor and a shunt Capacitor and Diode behind a
                  voltage source (n = 50 … 200 nodes, the circuit compiled on the core);
  parallel pairs — n sections of a series Resistor and two acausal capacitors in parallel
                  (Modelica's Capacitor written as an AcausalComponent): each pair is an
                  index-2 constraint that Pantelides and dummy derivatives reduce (n = 50 …
                  200): compile time, per section (flat when linear), one f evaluation;
  RC ladder     — the same ladder without diodes (n = 200), DC motor — the geared DC motor
                  arm of examples/dc_motor.py (a 3 s run), electric cube — the LQR-balanced
                  cube of examples/electric_cube.py (its 4 s balancing run): compile time, f
                  evaluation and simulation on the core. (Before the modified nodal analysis
                  was removed, these rows compared both: docs/acausal.md has the ratios.)
Prints tables and writes benchmarks/results/acausal.json.

    python benchmarks/acausal.py [--chain 125 250 500 1000] [--ladder 50 100 200]
                                 [--pairs 50 100 200] [--repeat 3]
"""
from __future__ import annotations

import argparse
import ast
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import (AcausalComponent, Capacitor, ConstantVoltage, Ground,  # noqa: E402
                             Pin, Resistor, World)
from jourdain.blocks.electrical import Diode  # noqa: E402
from jourdain.blocks.thermal import (FixedTemperature, HeatCapacitor,  # noqa: E402
                                     ThermalConductor)
from jourdain.solver.acausal import stage  # noqa: E402


class ThermalChain(jd.Composite):
    def __init__(self, n: int):
        super().__init__()
        last = None
        for k in range(n):
            cap = self.add(f"m{k}", HeatCapacitor(C=1.0 + 0.01 * k, T_start=300.0 + k % 7))
            if last is not None:
                g = self.add(f"g{k}", ThermalConductor(G=2.0))
                self.connect(last.port, g.port_a)
                self.connect(g.port_b, cap.port)
            last = cap
        self.amb, self.ga = FixedTemperature(T=290.0), ThermalConductor(G=1.0)
        self.connect(last.port, self.ga.port_a)
        self.connect(self.ga.port_b, self.amb.port)


class Ladder(jd.Composite):
    def __init__(self, n: int, diodes: bool):
        super().__init__()
        self.src, self.gnd = ConstantVoltage(V=5.0), Ground()
        self.connect(self.src.n, self.gnd.p)
        node = self.src.p
        for k in range(n):
            r = self.add(f"R{k}", Resistor(R=10.0))
            c = self.add(f"C{k}", Capacitor(C=1e-4))
            self.connect(node, r.p)
            self.connect(r.n, c.p)
            self.connect(c.n, self.gnd.p)
            if diodes:
                d = self.add(f"D{k}", Diode())
                self.connect(r.n, d.p)
                self.connect(d.n, self.gnd.p)
            node = r.n


class Cap(AcausalComponent):
    """Modelica's Capacitor: v = p.v − n.v, 0 = p.i + n.i, C·der(v) = p.i."""

    VARIABLES = {"v": "V"}

    def __init__(self, C: float):
        self.C = C
        self.p, self.n = Pin(self, "p"), Pin(self, "n")

    def equations(self, v):
        return [v.v - (v.p.v - v.n.v), v.p.i + v.n.i, self.C * v.der(v.v) - v.p.i]


class ParallelPairs(jd.Composite):
    def __init__(self, n: int):
        super().__init__()
        self.src, self.gnd = ConstantVoltage(V=5.0), Ground()
        self.connect(self.src.n, self.gnd.p)
        node = self.src.p
        for k in range(n):
            r = self.add(f"R{k}", Resistor(R=10.0))
            a, b = self.add(f"Ca{k}", Cap(1e-4)), self.add(f"Cb{k}", Cap(2e-4))
            self.connect(node, r.p)
            for c in (a, b):
                self.connect(r.n, c.p)
                self.connect(c.n, self.gnd.p)
            node = r.n


def dc_motor_arm():
    """The geared arm of examples/dc_motor.py (its classes, not its runs)."""
    path = ROOT / "examples" / "dc_motor.py"
    tree = ast.parse(path.read_text())
    tree.body = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom,
                                                        ast.ClassDef)) or
                 (isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "MOTOR")]
    scope: dict = {"__name__": "dc_motor_parts"}
    exec(compile(tree, str(path), "exec"), scope)
    return jd.Model.on_world(World(), arm=scope["GearedArm"](**scope["MOTOR"]))


def electric_cube():
    """The LQR-balanced electric cube of examples/electric_cube.py (its gain, computed here)."""
    from jourdain.library import BalancedElectricCubeOnEdge, ElectricCubeOnEdge
    plant = jd.compile(jd.Model.on_world(World(), cube=ElectricCubeOnEdge()))
    states = [f"cube.{s}" for s in BalancedElectricCubeOnEdge.STATES]
    K = jd.lqr(jd.linearize(plant).select(states), Q={states[0]: 100.0, states[1]: 1.0,
                                                       states[2]: 1e-3, states[3]: 1e-3},
               R=[[0.1]]).K
    return jd.Model.on_world(World(), bal=BalancedElectricCubeOnEdge(K))


def timed(fn, repeat: int):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        times.append(time.process_time() - t0)
    return float(np.median(times)), out


def f_time(system, repeat: int) -> float:
    """One f evaluation [s]: the fastest of 5 batches of 2000 after a warm-up batch (the
    first batch of a fresh function is slower: a single batch made one formulation look
    twice as slow as the other on the same 39 instructions)."""
    f = system.numeric("f")
    x = np.asarray(system.state(), dtype=float) if hasattr(system, "state") else \
        np.zeros(system.nx)
    u, p = np.zeros(len(system.u_names)), system.p_default
    n, best = 2000, np.inf
    for batch in range(6):
        t0 = time.process_time()
        for _ in range(n):
            f(0.0, x, u, p)
        if batch:
            best = min(best, (time.process_time() - t0) / n)
    return best


def on_core(model_fn, repeat: int):
    return timed(lambda: jd.compile(model_fn()), repeat)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chain", type=int, nargs="*", default=[125, 250, 500, 1000])
    ap.add_argument("--ladder", type=int, nargs="*", default=[50, 100, 200])
    ap.add_argument("--pairs", type=int, nargs="*", default=[50, 100, 200])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    out = {"machine": platform.platform(), "python": platform.python_version(),
           "chain": [], "diode_ladder": [], "parallel_pairs": []}

    print("thermal chain: n masses | compile [s] | per mass [ms] | f eval [µs]")
    for n in args.chain:
        t, system = timed(lambda: jd.compile(jd.Model(World(), c=ThermalChain(n))), args.repeat)
        fe = f_time(system, args.repeat)
        out["chain"].append({"n": n, "compile_s": t, "per_mass_ms": 1e3 * t / n,
                             "f_eval_us": 1e6 * fe, "states": system.nx})
        print(f"  {n:5d} | {t:8.3f} | {1e3 * t / n:7.3f} | {1e6 * fe:8.2f}")

    print("diode ladder (core): n nodes | compile [s] | per node [ms] | f eval [µs]")
    for n in args.ladder:
        t, system = timed(lambda: jd.compile(jd.Model(World(), c=Ladder(n, True))), args.repeat)
        fe = f_time(system, args.repeat)
        out["diode_ladder"].append({"n": n, "compile_s": t, "per_node_ms": 1e3 * t / n,
                                    "f_eval_us": 1e6 * fe})
        print(f"  {n:5d} | {t:8.3f} | {1e3 * t / n:7.3f} | {1e6 * fe:8.2f}")

    print("parallel pairs (index reduction): n sections | compile [s] | per section [ms] | "
          "f eval [µs] | states")
    for n in args.pairs:
        t, system = timed(lambda: jd.compile(jd.Model(World(), c=ParallelPairs(n))),
                          args.repeat)
        fe = f_time(system, args.repeat)
        out["parallel_pairs"].append({"n": n, "compile_s": t, "per_section_ms": 1e3 * t / n,
                                      "f_eval_us": 1e6 * fe, "states": system.nx})
        print(f"  {n:5d} | {t:8.3f} | {1e3 * t / n:7.3f} | {1e6 * fe:8.2f} | {system.nx}")

    runs = {
        "rc_ladder": (lambda: jd.Model(World(), c=Ladder(max(args.ladder), False)),
                      lambda system: system.simulate(0.05, n_out=11, rtol=1e-8, atol=1e-8)),
        "dc_motor": (dc_motor_arm, lambda system: system.simulate(
            3.0, inputs={"arm.source.v": lambda t: 6.0 * np.sin(2 * np.pi * t)}, n_out=301,
            rtol=1e-8, atol=1e-8)),
        "electric_cube": (electric_cube, lambda system: system.simulate(
            4.0, y0={"bal.cube.edge.phi": 0.1}, n_out=401)),
    }
    print("circuits on the core (RC ladder of max --ladder nodes, examples/dc_motor.py, "
          "examples/electric_cube.py): | compile [s] | f eval [µs] | simulate [s]")
    for name, (build, run) in runs.items():
        if name == "rc_ladder" and not args.ladder:
            continue
        t, system = on_core(build, args.repeat)
        fe = f_time(system, args.repeat)
        ts, _ = timed(lambda: run(system), args.repeat)
        out[name] = {"core": {"compile_s": t, "f_eval_us": 1e6 * fe, "simulate_s": ts}}
        print(f"  {name:13s} | {t:8.4f} | {1e6 * fe:8.3f} | {ts:8.4f}")

    path = ROOT / "benchmarks" / "results" / "acausal.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(out, indent=2))
    print(f"written to {path}")
    return out


if __name__ == "__main__":
    main()
