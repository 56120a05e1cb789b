"""Trajectory-optimization benchmark: jourdain on CasADi's virtual machine and compiled
(solve(codegen=True)), opty and Drake's DirectCollocation, on the same problems, in one run.

Problems (IPOPT with MUMPS, tol 1e-8, adaptive barrier, same initial guess: states
interpolated between the boundary conditions, inputs 0):
  cart-pole swing-up       jourdain.library.CartPole from hanging to upright in 2 s,
                           |f| ≤ 20 N, |s| ≤ 1 m, min ∫ f² dt (benchmarks/trajectory.py)
  double / triple pendulum on a cart: move the cart 1 m in 3 s, every link hanging at rest
                           at both ends, |f| ≤ 20 N, |s| ≤ 2 m, min ∫ f² dt
                           (benchmarks/peers/cart_chain.py: the same model in all three tools)
  parking                  examples/parking_optimal.py (collocation Radau 3, 50 intervals)
Contenders, N intervals:
  jourdain VM / C          Radau degree 1 with piecewise-constant inputs, which is opty's
                           backward Euler on the same N + 1 nodes, on the virtual machine and
                           compiled (C build once, cached: its gcc time is in 'setup' of the
                           first solve only)
  opty                     backward Euler (sympy → Cython, cyipopt)
  jourdain C Radau 3 / Drake  a third-order collocation (Radau, 3 points) against Drake's
                           DirectCollocation (Hermite–Simpson) on N + 1 samples
Metric: CPU time (time.process_time, plus the compiler's CPU for builds), median of --repeat
solves, contenders alternated. Also IPOPT options (MUMPS vs SPRAL, adaptive vs monotone
barrier) on the compiled parking and cart-pole problems.

    python benchmarks/optimization.py [--nodes 100 200 400] [--repeat 3] [--quick]

Writes benchmarks/results/optimization.json and optimization.png.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import runpy
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.library import CartPole  # noqa: E402

from benchmarks.peers import cart_chain  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
TOL = 1e-8


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def spec(name: str) -> dict:
    """The problem: model, state names (opty's order), input, horizon, boundary states,
    |f| and |s| limits."""
    if name == "cart-pole swing-up":
        names = ["cartpole.slider.s", "cartpole.hinge.phi", "cartpole.slider.v",
                 "cartpole.hinge.w"]
        return {"model": jd.Model.on_world(World(), cartpole=CartPole()), "names": names,
                "u": "cartpole.motor.f", "T": 2.0, "x0": [0.0, np.pi, 0.0, 0.0],
                "xf": [0.0] * 4, "f_max": 20.0, "s_max": 1.0, "links": 0}
    n = {"double pendulum on a cart": 2, "triple pendulum on a cart": 3}[name]
    names, u = cart_chain.jourdain_names(n)
    xf = np.zeros(2 * (n + 1))
    xf[0] = 1.0
    return {"model": cart_chain.jourdain_model(n), "names": names, "u": u, "T": 3.0,
            "x0": list(np.zeros(2 * (n + 1))), "xf": list(xf), "f_max": 20.0, "s_max": 2.0,
            "links": n}


def jourdain_problem(p: dict, N: int):
    system = jd.compile(p["model"])
    ocp = jd.TrajectoryProblem(system, p["T"], intervals=N)
    ocp.initial(dict(zip(p["names"], p["x0"])))
    ocp.final(dict(zip(p["names"], p["xf"])))
    ocp.bound(p["u"], -p["f_max"], p["f_max"])
    ocp.bound(p["names"][0], -p["s_max"], p["s_max"])
    ocp.integral_cost(lambda v: v[p["u"]] ** 2)
    return ocp


def jourdain_solve(ocp, degree: int, codegen: bool, ipopt: dict | None = None) -> dict:
    cpu, gcc = time.process_time(), children_cpu()
    sol = ocp.solve(jd.Collocation(degree), codegen=codegen, ipopt=ipopt or {},
                    raise_on_failure=False, tol=TOL)
    total = time.process_time() - cpu + children_cpu() - gcc
    solve = sol.stats["solve_cpu_time"]     # CasADi's t_proc_total of the IPOPT call
    return {"setup_cpu_s": total - solve, "solve_s": solve, "iterations": sol.stats["iterations"],
            "cost": sol.cost, "status": sol.stats["status"], "compiled": sol.stats["compiled"]}


def opty_contender(p: dict, N: int):
    from benchmarks.peers import opty_swingup as peer
    if p["links"]:
        states, u, eom = cart_chain.opty_eom(p["links"])
    else:
        states, u, eom = peer.cartpole_eom()
    bounds = {u: (-p["f_max"], p["f_max"]), states[0]: (-p["s_max"], p["s_max"])}
    cpu, cc = time.process_time(), children_cpu()
    prob, guess, _ = peer.build(states, u, eom, N, p["T"], p["x0"], p["xf"], bounds, TOL)
    setup = time.process_time() - cpu + children_cpu() - cc   # with its Cython compilation

    def solve():
        cpu = time.process_time()
        out = peer.solve(prob, guess)
        return {"solve_s": time.process_time() - cpu, "iterations": out["iterations"],
                "cost": out["cost"], "status": out["status"]}
    return setup, solve


def drake_contender(p: dict, N: int):
    cpu = time.process_time()
    rods = {} if p["links"] else {"m_rod": 0.1, "l_rod": 1.0, "up": True}   # CartPole()
    _, solve_fn = cart_chain.drake_direct_collocation(max(p["links"], 1), N, p["T"], p["x0"],
                                                      p["xf"], p["f_max"], p["s_max"], TOL,
                                                      **rods)
    setup = time.process_time() - cpu

    def solve():
        cpu = time.process_time()
        out = solve_fn()
        return {"solve_s": time.process_time() - cpu, **out}
    return setup, solve


def problem_rows(name: str, N: int, repeat: int) -> dict:
    p = spec(name)
    ocp = jourdain_problem(p, N)
    rows = {"jourdain VM (Radau 1)": [], "jourdain C (Radau 1)": [], "opty": [],
            "jourdain C (Radau 3)": [], "Drake DirectCollocation": []}
    setups = {}
    first = {key: jourdain_solve(ocp, d, True) for key, d in
             (("jourdain C (Radau 1)", 1), ("jourdain C (Radau 3)", 3))}   # cold: gcc
    for key, row in first.items():
        setups[key + " cold"] = row["setup_cpu_s"]
    setups["opty"], opty_solve = opty_contender(p, N) if _have("opty") else (None, None)
    setups["Drake DirectCollocation"], drake_solve = drake_contender(p, N) \
        if _have("pydrake") else (None, None)
    for _ in range(repeat):
        rows["jourdain VM (Radau 1)"].append(jourdain_solve(ocp, 1, False))
        rows["jourdain C (Radau 1)"].append(jourdain_solve(ocp, 1, True))
        rows["jourdain C (Radau 3)"].append(jourdain_solve(ocp, 3, True))
        if opty_solve:
            rows["opty"].append(opty_solve())
        if drake_solve:
            rows["Drake DirectCollocation"].append(drake_solve())
    out = {"setup_cpu_s": setups}
    for key, runs in rows.items():
        if runs:
            out[key] = dict(runs[-1], solve_s=float(np.median([r["solve_s"] for r in runs])))
            if "setup_cpu_s" in runs[-1]:
                out[key]["setup_cpu_s"] = float(np.median([r["setup_cpu_s"] for r in runs]))
    if "opty" in out:
        out["opty_over_jourdain_C"] = out["opty"]["solve_s"] / \
            out["jourdain C (Radau 1)"]["solve_s"]
    if "Drake DirectCollocation" in out:
        out["drake_over_jourdain_C"] = out["Drake DirectCollocation"]["solve_s"] / \
            out["jourdain C (Radau 3)"]["solve_s"]
    print(f"{name}, N = {N}: " + " | ".join(
        f"{k} {v['solve_s']:.3f} s ({v['iterations']} it, cost {v['cost']:.6g})"
        for k, v in out.items() if isinstance(v, dict) and "solve_s" in v) +
        f" | setups {setups}", flush=True)
    return out


def parking(repeat: int) -> dict:
    """examples/parking_optimal.py as a user runs it: the whole script (compile, solve,
    re-simulation check, figure), on the virtual machine and compiled (cold, then cached)."""
    script = (ROOT / "examples" / "parking_optimal.py").read_text()
    vm = script.replace("guess=wiggle, progress=20, codegen=True", "guess=wiggle, progress=20")
    c_code = vm.replace("guess=wiggle, progress=20", "guess=wiggle, progress=20, codegen=True")
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["JOURDAIN_CACHE"] = tmp
        for label, code in (("compiled, cold", c_code),):
            out[label] = _run_script(code, tmp)
        runs = {"virtual machine": [], "compiled, cached": []}
        for _ in range(repeat):
            runs["virtual machine"].append(_run_script(vm, tmp))
            runs["compiled, cached"].append(_run_script(c_code, tmp))
        os.environ.pop("JOURDAIN_CACHE")
    for label, values in runs.items():
        out[label] = float(np.median(values))
    out["vm_over_cached"] = out["virtual machine"] / out["compiled, cached"]
    out["vm_over_cold"] = out["virtual machine"] / out["compiled, cold"]
    print(f"parking (whole example, CPU s): {out}", flush=True)
    return out


def _run_script(code: str, tmp: str) -> float:
    path = Path(tmp) / "parking_run.py"
    path.write_text(code)
    cpu, gcc = time.process_time(), children_cpu()
    cwd = os.getcwd()
    os.chdir(tmp)
    try:
        with open(os.devnull, "w") as null, _redirect(null):
            runpy.run_path(str(path), run_name="__main__")
    finally:
        os.chdir(cwd)
    return time.process_time() - cpu + children_cpu() - gcc


def _redirect(stream):
    import contextlib
    return contextlib.redirect_stdout(stream)


def ipopt_options(repeat: int) -> dict:
    """The compiled cart-pole swing-up (N = 100, Radau 3): MUMPS or SPRAL, adaptive or
    monotone barrier."""
    ocp = jourdain_problem(spec("cart-pole swing-up"), 100)
    variants = {"MUMPS, adaptive μ": {}, "MUMPS, monotone μ": {"mu_strategy": "monotone"},
                "SPRAL, adaptive μ": {"linear_solver": "spral"}}
    jourdain_solve(ocp, 3, True)
    out = {k: [] for k in variants}
    for _ in range(repeat):
        for key, options in variants.items():
            out[key].append(jourdain_solve(ocp, 3, True, options))
    table = {k: dict(v[-1], solve_s=float(np.median([r["solve_s"] for r in v])))
             for k, v in out.items()}
    print("IPOPT options (cart-pole, compiled):", {k: (round(v["solve_s"], 3), v["iterations"])
                                                   for k, v in table.items()}, flush=True)
    return table


def _have(module: str) -> bool:
    try:
        __import__(module)
        return True
    except ImportError:
        print(f"{module} is not installed (pip install -e '.[bench]'): its rows are skipped")
        return False


def figure(rows: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    problems = sorted({k.split(" @ ")[0] for k in rows})
    fig, axes = plt.subplots(1, len(problems), figsize=(4 * len(problems), 3.6), squeeze=False)
    for ax, problem in zip(axes[0], problems):
        keys = sorted((k for k in rows if k.startswith(problem)), key=lambda k: int(k[-3:]))
        Ns = [int(k.split(" @ N = ")[1]) for k in keys]
        for tool, style in (("jourdain VM (Radau 1)", "o:"), ("jourdain C (Radau 1)", "o-"),
                            ("opty", "s-"), ("jourdain C (Radau 3)", "D-"),
                            ("Drake DirectCollocation", "^-")):
            pts = [(N, rows[k][tool]["solve_s"]) for N, k in zip(Ns, keys) if tool in rows[k]]
            if pts:
                ax.plot(*zip(*pts), style, label=tool)
        ax.set(xscale="log", yscale="log", xlabel="intervals N", title=problem)
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("IPOPT solve, CPU [s]")
    axes[0][-1].legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, nargs="+", default=[100, 200, 400])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="N = 100 only, no parking")
    args = parser.parse_args()
    nodes = [100] if args.quick else args.nodes
    rows = {}
    for name in ("cart-pole swing-up", "double pendulum on a cart",
                 "triple pendulum on a cart"):
        for N in nodes:
            rows[f"{name} @ N = {N}"] = problem_rows(name, N, args.repeat)
    record = {"tol": TOL, "repeat": args.repeat, "problems": rows,
              "ipopt_options": ipopt_options(args.repeat)}
    if not args.quick:
        record["parking"] = parking(args.repeat)
    RESULTS.mkdir(parents=True, exist_ok=True)
    suffix = "_quick" if args.quick else ""
    (RESULTS / f"optimization{suffix}.json").write_text(json.dumps(record, indent=1))
    figure(rows, RESULTS / f"optimization{suffix}.png")
    print(f"wrote {RESULTS / f'optimization{suffix}.json'}")


if __name__ == "__main__":
    main()
