"""Trajectory-optimization benchmark: pendulum and cart-pole swing-ups, jourdain against opty,
same problem, grid and tolerances, in one run.

Both solve min ∫ u² dt rest to rest with IPOPT (MUMPS, tol 1e-8, adaptive μ) from the same
initial guess (states interpolated linearly between the boundary conditions, inputs 0):
  * jourdain, collocation Radau degree 1 with piecewise-constant inputs: this is backward
    Euler, the very discretization opty's ``integration_method="backward euler"`` uses;
  * jourdain, collocation Radau degree 3 and multiple shooting RK4 on the same grid (more
    accurate transcriptions, for reference);
  * opty 1.5 (sympy → Cython constraint code, cyipopt).

Setup time: building the NLP (jourdain: tracing CasADi functions, IPOPT's derivative
functions; opty: sympy code generation and Cython compilation). Solve time: IPOPT wall time,
the best of ``--repeat`` solves. Writes benchmarks/results/trajectory.json and the
table trajectory.md.

Run from the repository root: ``python benchmarks/trajectory.py [--nodes 100] [--repeat 3]``
(needs ``pip install -e ".[bench]"``; opty's cyipopt needs the IPOPT library, on Debian
``apt-get install coinor-libipopt-dev liblapack-dev libblas-dev``).
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import Composite, Motor, Revolute, RigidBody, World
from jourdain.library import CartPole

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
TOL = 1e-8


class TorquePendulum(Composite):
    """Point mass m = 1 kg at l = 1 m below a revolute pivot driven by a motor torque tau."""

    def __init__(self):
        super().__init__()
        self.joint = Revolute(axis=(0, 0, 1))
        self.bob = RigidBody(m=1.0, r_cm=(0, -1.0, 0))
        self.motor = Motor()
        self.connect(self.joint.frame_b, self.bob.frame_a)
        self.connect(self.motor.flange_b, self.joint.axis)
        self.expose(self.joint.frame_a, "frame_a")


PROBLEMS = {
    # name: (model, states, input, T [s], initial, final, {name: bounds})
    "pendulum swing-up": (
        lambda: jd.Model.on_world(World(), pendulum=TorquePendulum()),
        ("pendulum.joint.phi", "pendulum.joint.w"), "pendulum.motor.tau", 3.0,
        (0.0, 0.0), (np.pi, 0.0), {"pendulum.motor.tau": (-6.0, 6.0)}),
    "cart-pole swing-up": (
        lambda: jd.Model.on_world(World(), cartpole=CartPole()),
        ("cartpole.slider.s", "cartpole.hinge.phi", "cartpole.slider.v", "cartpole.hinge.w"),
        "cartpole.motor.f", 2.0, (0.0, np.pi, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0),
        {"cartpole.motor.f": (-20.0, 20.0), "cartpole.slider.s": (-1.0, 1.0)}),
}


def jourdain_run(name: str, N: int, transcription, repeat: int) -> dict:
    model, states, u, T, x0, xf, bounds = PROBLEMS[name]
    start = time.perf_counter()
    system = jd.compile(model())
    ocp = jd.TrajectoryProblem(system, T, intervals=N)
    ocp.initial(dict(zip(states, x0)))
    ocp.final(dict(zip(states, xf)))
    for var, (lo, hi) in bounds.items():
        ocp.bound(var, lo, hi)
    ocp.integral_cost(lambda v: v[u] ** 2)
    compile_time = time.perf_counter() - start
    sols = [ocp.solve(transcription, tol=TOL, raise_on_failure=False) for _ in range(repeat)]
    best = min(sols, key=lambda s: s.stats["solve_time"])
    check = best.check()
    return {"tool": "jourdain", "transcription": str(transcription),
            "setup_time": compile_time + best.stats["build_time"],
            "solve_time": best.stats["solve_time"], "iterations": best.stats["iterations"],
            "cost": best.cost, "status": best.stats["status"],
            "resimulation_local": check.max_local}


def opty_run(name: str, N: int, repeat: int) -> dict:
    from benchmarks.peers import opty_swingup as peer
    _, _, _, T, x0, xf, bounds = PROBLEMS[name]
    states, u, eom = peer.pendulum_eom() if name.startswith("pendulum") else peer.cartpole_eom()
    peer_bounds = {u: bounds[PROBLEMS[name][2]]}
    if "cartpole.slider.s" in bounds:
        peer_bounds[states[0]] = bounds["cartpole.slider.s"]
    prob, guess, setup = peer.build(states, u, eom, N, T, x0, xf, peer_bounds, TOL)
    runs = [peer.solve(prob, guess) for _ in range(repeat)]
    best = min(runs, key=lambda r: r["solve_time"])
    return {"tool": "opty", "transcription": "backward Euler (opty)", "setup_time": setup,
            "solve_time": best["solve_time"], "iterations": best["iterations"],
            "cost": best["cost"], "status": best["status"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=100, help="intervals N (opty: N+1 nodes)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-opty", action="store_true")
    args = parser.parse_args()
    rows = []
    for name in PROBLEMS:
        for tr in (jd.Collocation(1, jd.Scheme.RADAU), jd.Collocation(3, jd.Scheme.RADAU),
                   jd.MultipleShooting(jd.Integrator.RK4)):
            rows.append({"problem": name, **jourdain_run(name, args.nodes, tr, args.repeat)})
            print(_row(rows[-1]), flush=True)
        if not args.no_opty and _have_opty():
            rows.append({"problem": name, **opty_run(name, args.nodes, args.repeat)})
            print(_row(rows[-1]), flush=True)
    # a jourdain-only run must not overwrite the side-by-side record
    out = ROOT / "results" / ("trajectory-jourdain-only.json" if args.no_opty
                              else "trajectory.json")
    out.parent.mkdir(exist_ok=True)
    meta = {"intervals": args.nodes, "tol": TOL, "repeat": args.repeat,
            "python": platform.python_version(), "machine": platform.machine(),
            "versions": _versions()}
    out.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    table = out.with_suffix(".md")
    table.write_text(_table(rows, meta))
    print("\n" + table.read_text())
    print(f"wrote {out.relative_to(ROOT.parent)}, {table.relative_to(ROOT.parent)}")


def _have_opty() -> bool:
    try:
        import opty  # noqa: F401
        return True
    except ImportError:
        print("opty is not installed (pip install -e '.[bench]'): its rows are skipped")
        return False


def _versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version
    out = {}
    for name in ("casadi", "opty", "cyipopt", "sympy"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    try:
        import cyipopt
        out["ipopt (opty)"] = ".".join(map(str, cyipopt.IPOPT_VERSION))
    except ImportError:
        pass
    return out


def _table(rows: list[dict], meta: dict) -> str:
    """Markdown table of a run: one line per problem and tool/transcription."""
    lines = [f"{meta['intervals']} intervals, IPOPT tol {meta['tol']:g}, best of "
             f"{meta['repeat']} solves; versions {meta['versions']}", "",
             "| problem | tool, transcription | setup [s] | solve [s] | iterations | cost |",
             "|---|---|---:|---:|---:|---:|"]
    lines += [f"| {r['problem']} | {r['tool']}, {r['transcription']} | {r['setup_time']:.2f} | "
              f"{r['solve_time']:.3f} | {r['iterations']} | {r['cost']:.7g} |" for r in rows]
    return "\n".join(lines) + "\n"


def _row(r: dict) -> str:
    iters = "?" if r["iterations"] is None else r["iterations"]
    return (f"{r['problem']:20s} {r['tool']:9s} {r['transcription'][:52]:52s} setup "
            f"{r['setup_time']:7.2f} s  solve {r['solve_time']:7.3f} s  {iters:>4} it  "
            f"cost {r['cost']:10.5f}  {r['status'][:30]}")


if __name__ == "__main__":
    main()
