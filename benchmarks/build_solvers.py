"""First builds of compiled solvers (issues 27 and 28): where the time goes from an empty
cache, and what the layout choices cost at run time.

* talos: the Talos arm reach of benchmarks/robot_ocp.py (N = 100, RK4 x4, FDDP, crocoddyl's
  stop), from an empty cache, broken down into URDF import, symbolic build, C generation and
  gcc per library (each C file compiled alone, CPU and wall), then the whole first build
  (CPU of the process and its compilers, wall) and the solve (median of 3) for
  codegen="knot", codegen=True with the backward pass's library compiled beside the knots'
  (the default) and one after the other (as before).
* tower: the stepping mode's tower of boxes (tests/test_stepping_stack.py), 1 s at
  dt = 1 ms: the first run's build (CPU with gcc, wall) and the run's CPU (median of 3) with
  the step in two stages (stepping/staged.py, the default) and as one C file per function
  (the layout before: the chunked step and ``settle`` each holding every part); drift,
  penetration and the ledger after 1 s, and the CPU of a 10 s run; per part (kinematics,
  sweep, finish) its SX instructions, C size and gcc's CPU alone (``tower_N_L_parts``).
  ``--layouts unrolled``: also with every contact's sweep visit and Delassus block unrolled
  (stepping/kinds.py off).

Each case runs in a fresh subprocess with an empty cache (its compilers' CPU time is its
own). Timings on a shared machine vary with its load (reported per row).

    python benchmarks/build_solvers.py [--parts talos tower] [--boxes 3 10] [--before]
                                       [--layouts unrolled]

(--before: also the tower's layout before, minutes of gcc for 10 boxes.)
Writes benchmarks/results/build_solvers.json.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))
RESULTS = ROOT / "benchmarks" / "results"
STEPS = 4       # RK4 steps per knot (robot_ocp.py's accurate row; the knot's C holds f once)


def _cpu() -> tuple[float, float]:
    """(CPU of this process and its finished children, of the children alone) [s]."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    children = usage.ru_utime + usage.ru_stime
    return time.process_time() + children, children


class _Clock:
    def __init__(self):
        self.rows = {}

    def __call__(self, name):
        clock = self

        class Span:
            def __enter__(self):
                self.cpu, self.wall = _cpu()[0], time.perf_counter()

            def __exit__(self, *exc):
                clock.rows[name] = {"cpu_s": round(_cpu()[0] - self.cpu, 3),
                                    "wall_s": round(time.perf_counter() - self.wall, 3)}
        return Span()


def talos_parts() -> dict:
    """URDF, symbolic build, C generation and gcc per C file of codegen=True (fresh)."""
    import casadi as ca

    import robot_ocp as R
    from jourdain.solver.optimal import ddp_backward, ddp_model, knots
    clock = _Clock()
    with clock("urdf"):
        _, system = R.talos_arm()
    with clock("symbolic: problem and knot functions"):
        ocp = R.reach(system, 100)
        fns = ocp.functions()
        functions = [ddp_model.knot_derivatives(ocp, fns, STEPS),
                     ddp_model.rollout_step(ocp, fns, STEPS),
                     ddp_model.terminal_derivatives(ocp, fns)]
    with clock("symbolic: backward pass"):
        B = ddp_backward.backward_function(system.nx, len(system.u_names), 100)
    tmp = Path(tempfile.mkdtemp())
    sizes = {}
    for group, fs in (("knot library", functions), ("backward library", [B])):
        with clock(f"C generation: {group}"):
            for f in fs:
                sizes[f.name()] = Path(knots._write([f], tmp, f"{f.name()}.c")).stat().st_size
    for name, flags in [(n, "-O1") for n in sizes] + [("ddp_backward", "-O0")]:
        with clock(f"gcc {flags}: {name}.c ({sizes[name] / 1e6:.2f} MB)"):
            subprocess.run(["gcc", flags, "-w", "-fPIC", "-c", f"{name}.c", "-o", "x.o"],
                           cwd=tmp, check=True)
    del ca
    return {"steps": clock.rows, "c_bytes": sizes}


def talos_build(variant: str) -> dict:
    """The first build from an empty cache and the solve, for ``variant``: 'knot',
    'together' (codegen=True, the default) or 'after' (the backward library after the
    knots', as before)."""
    import jourdain as jd
    import robot_ocp as R
    from jourdain.solver.optimal import ddp_backward
    if variant == "after":
        ddp_backward.start_backward = lambda *a: None
    cpu, wall = _cpu()[0], time.perf_counter()
    _, system = R.talos_arm()
    nq = len(system.y_names)
    guess = R.quasi_static(system, np.concatenate([R.Q0[:nq], np.zeros(system.nx - nq)]))
    built = R.reach(system, 100).build(
        jd.MultipleShooting(jd.Integrator.RK4, steps=STEPS), solver="fddp", tol=R.FDDP_TOL,
        guess=guess, codegen="knot" if variant == "knot" else True, raise_on_failure=False)
    row = {"first_build_cpu_s": _cpu()[0] - cpu,
           "first_build_wall_s": time.perf_counter() - wall, "compiled": built.compiled,
           "backward_compiled": built._backward is not None}
    sols = [built.solve(warm=False) for _ in range(3)]
    row.update({"solve_cpu_s": float(np.median([s.stats["solve_cpu_time"] for s in sols])),
                "iterations": sols[-1].stats["iterations"], "cost": sols[-1].cost})
    return row


def tower(boxes: int, layout: str) -> dict:
    """The first 1 s run of the tower (build included) and the run's CPU (median of 3)."""
    from jourdain.solver.stepping import run
    from test_stepping_stack import _drift, tower as make
    if layout == "unrolled":    # the per-contact code unrolled, not called per kind
        from jourdain.solver.stepping import kinds
        kinds.MAP_OPS = float("inf")
    if layout == "before":
        def compiled_staged(parts, functions, glue, names, flags):   # one file per function
            return run._compiled(glue(*parts), flags)
        run.compiled_staged = compiled_staged
    system, pairs, y0 = make(boxes)
    options = dict(contact="stepping", dt=1e-3, pairs=pairs, y0=y0, n_out=101)
    (cpu, gcc), wall = _cpu(), time.perf_counter()
    system.simulate(1.0, **options)
    (cpu_after, gcc_after) = _cpu()
    row = {"first_run_cpu_s": cpu_after - cpu, "gcc_cpu_s": gcc_after - gcc,
           "first_run_wall_s": time.perf_counter() - wall}
    runs = []
    for _ in range(3):
        start = time.process_time()
        res = system.simulate(1.0, **options)
        runs.append(time.process_time() - start)
    start = time.process_time()     # n_out 1001: 10 steps per output, the library built
    res10 = system.simulate(10.0, **dict(options, n_out=1001))
    row.update({"run_10s_cpu_s": time.process_time() - start,
                "drift_10s_m": _drift(res10, y0, boxes)})
    ledger = res.ledger
    row.update({"run_cpu_s_per_simulated_s": float(np.median(runs)),
                "drift_m": _drift(res, y0, boxes), "max_penetration_m": ledger.max_penetration,
                "complementarity_m_s": ledger.complementarity,
                "max_step_gain_J": ledger.max_step_gain})
    return row


def tower_parts(boxes: int, layout: str) -> dict:
    """Each part of the tower's staged step (kinematics, sweep, finish): SX instructions,
    C size, and gcc's CPU on its C file alone at the flags the run uses (one at a time)."""
    import casadi as ca
    from jourdain.solver.simulation import codegen
    from jourdain.solver.stepping import kinds, run
    from jourdain.solver.stepping.step import build_parts
    from test_stepping_stack import tower as make
    if layout == "unrolled":
        kinds.MAP_OPS = float("inf")
    system, pairs, _ = make(boxes)
    start = time.process_time()
    parts, compose, nc = build_parts(system, run._specs(system, pairs), run.ITERATIONS, True)
    step, _ = compose(*parts)
    row = {"contacts": nc, "build_parts_cpu_s": time.process_time() - start}
    ops = sum(f.n_instructions() for f in step.find_functions()
              if f.class_name() == "SXFunction")
    flags = run.FLAGS if ops <= run.LARGE_OPS else run.LARGE_FLAGS
    row["flags"] = " ".join(flags)
    with tempfile.TemporaryDirectory() as tmp:
        for part in parts:
            source = Path(tmp) / codegen._sources(part, Path(tmp))[0]
            _, before = _cpu()
            subprocess.run(["gcc", *flags, "-w", "-fPIC", "-c", str(source), "-o",
                            str(source.with_suffix(".o"))], check=True)
            row[part.name()] = {"sx_instructions": part.n_instructions(),
                                "c_kb": round(source.stat().st_size / 1e3, 1),
                                "gcc_cpu_s": round(_cpu()[1] - before, 2)}
    return row


def _run(*args) -> dict:
    env = dict(os.environ, JOURDAIN_CACHE=tempfile.mkdtemp(prefix="jd_bench_cache_"))
    out = subprocess.run([sys.executable, __file__, "--one", *args], capture_output=True,
                         text=True, env=env, timeout=7200)
    if out.returncode != 0:
        return {"error": (out.stderr.strip().splitlines() or ["?"])[-1][:200]}
    row = json.loads(out.stdout.strip().splitlines()[-1])
    row["load"] = round(os.getloadavg()[0], 1)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--parts", nargs="+", default=["talos", "tower"])
    parser.add_argument("--boxes", type=int, nargs="+", default=[3])
    parser.add_argument("--before", action="store_true")
    parser.add_argument("--layouts", nargs="*", default=[],
                        help="more tower layouts: unrolled (no call per kind of contact)")
    args = parser.parse_args()
    if args.one:
        kind, *rest = args.one
        result = {"talos_parts": lambda: talos_parts(), "talos": lambda: talos_build(rest[0]),
                  "tower": lambda: tower(int(rest[0]), rest[1]),
                  "tower_parts": lambda: tower_parts(int(rest[0]), rest[1])}[kind]()
        print(json.dumps(result))
        return
    path = RESULTS / "build_solvers.json"
    results = json.loads(path.read_text()) if path.exists() else {}
    if "talos" in args.parts:
        results["talos_parts"] = _run("talos_parts")
        print(json.dumps(results["talos_parts"], indent=1), flush=True)
        for variant in ("knot", "together", "after"):
            results[f"talos_fddp_{variant}"] = row = _run("talos", variant)
            print(f"talos FDDP {variant}:", row, flush=True)
    if "tower" in args.parts:
        for boxes in args.boxes:
            for layout in ("staged",) + tuple(args.layouts) + (("before",) if args.before else ()):
                if layout != "before":
                    results[f"tower_{boxes}_{layout}_parts"] = row = _run(
                        "tower_parts", str(boxes), layout)
                    print(f"tower of {boxes} boxes, {layout}, parts:", row, flush=True)
                results[f"tower_{boxes}_{layout}"] = row = _run("tower", str(boxes), layout)
                print(f"tower of {boxes} boxes, {layout}:", row, flush=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=1))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
