"""Benchmark: how jourdain scales with the number of bodies, against sympy, Pinocchio and MuJoCo.

Models: the planar n-link chain (jourdain.library.NLinkPendulum, n = 1 … 100) and random trees
(jourdain.library.RandomTree, revolute/prismatic joints on random axes with springs and
dampers). Initial state y_i = 0.3, z = 0 (as benchmarks/peers/sympy_chain.py).

For each model and n, in one run on one machine:
  jourdain projection  — closed-form M, k, q (O(n³)), CasADi virtual machine (n ≤ --projection-max)
  jourdain recursive   — ABA/CRBA/RNEA (O(n)), CasADi virtual machine
  jourdain compiled    — recursive, C code from System.codegen() (gcc -O1, fresh cache: the
                         compile time includes code generation and gcc; cached_load_s is
                         the time of the same call once the library is in the cache)
  sympy                — KanesMethod + lambdify + RK45 (subprocess, capped, chain only)
  pinocchio            — ABA from Python; Jacobian by computeABADerivatives; scipy RK45
  mujoco               — mj_forward; Jacobian by mjd_transitionFD (finite differences of one
                         Euler step: it does not support RK4); 10 s of mj_step with RK4 at
                         dt = 1 ms, called from Python (chain only)
Columns: compile [s], one f evaluation [µs], one Jacobian evaluation [µs], 10 s simulation [s]
(rtol = atol = 1e-8; jourdain uses CVODES Adams with functional iteration, i.e. no Jacobian,
like the explicit RK45 of the peers), and the error of the final joint angles at t = 1 s and
10 s against jourdain's compiled solution at rtol = atol = 1e-12 (the longer horizon shows
chaos, not the integrator, for n ≳ 5).
f and Jacobian calls of CasADi go through Function.buffer (no numpy conversions); f_call_us is
the same f called from Python the recommended way, system.numeric("f")(t, x, u, p) with numpy
arrays in and out (the fair counterpart of Pinocchio's pin.aba, timed as a Python call);
f_plain_us is system.f(t, x, u, p) with DM conversions (~30 µs).

    python benchmarks/scale.py [--quick] [--chain 1 2 5 ...] [--trees 5 10 ...] [--cap 120]

Writes benchmarks/results/scale.json and scale.png (scale_quick.* with --quick,
scale_partial.* with --chain or --trees).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.library import NLinkPendulum, RandomTree  # noqa: E402
from jourdain.solver.simulation.numeric import buffered  # noqa: E402

from benchmarks.peers import rigid_body_peers as peers  # noqa: E402

Y0, T_END, TOL = 0.3, 10.0, 1e-8
METHODS = ("projection", "recursive", "compiled", "sympy", "pinocchio", "mujoco")


def median_us(call, budget: float = 0.3) -> float:
    """Median over 5 batches of the time of one call [µs], batches sized to ``budget`` s."""
    start, count = time.perf_counter(), 0
    while time.perf_counter() - start < 0.02 or count < 3:
        call()
        count += 1
    per = (time.perf_counter() - start) / count
    repeat = max(1, int(budget / 5 / per))
    samples = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(repeat):
            call()
        samples.append((time.perf_counter() - start) / repeat * 1e6)
    return float(np.median(samples))



def make_model(kind: str, n: int):
    part = NLinkPendulum(n) if kind == "chain" else RandomTree(n, seed=n)
    return part, jd.Model.on_world(World(), part=part)


def jourdain_case(kind: str, n: int, method: str, t_grid: np.ndarray) -> dict:
    """Compile, time f, its Jacobian and a 10 s simulation; return the final states."""
    _, model = make_model(kind, n)
    backend = jd.Backend.PROJECTION if method == "projection" else jd.Backend.RECURSIVE
    start = time.perf_counter()
    system = jd.compile(model, backend=backend)
    row = {"compile_s": time.perf_counter() - start}
    if method == "compiled":
        with tempfile.TemporaryDirectory() as cache:
            start = time.perf_counter()
            system.codegen(cache_dir=cache)
            row["codegen_s"] = time.perf_counter() - start
            row["compile_s"] += row["codegen_s"]
            start = time.perf_counter()
            system.codegen(cache_dir=cache)  # the next run's case: hash, find, load
            row["cached_load_s"] = time.perf_counter() - start
            row.update(_evaluate(system, n, t_grid))
    else:
        row.update(_evaluate(system, n, t_grid))
    return row


def _evaluate(system, n: int, t_grid: np.ndarray) -> dict:
    x = np.concatenate([np.full(n, Y0), np.full(n, 0.5)])
    p = system.p_default
    f_call = buffered(system.f, [np.zeros(1), x, np.zeros(0), p])
    jac = system.f.jacobian()
    jac_call = buffered(jac, [np.zeros(1), x, np.zeros(0), p, np.zeros(0)])
    y0 = {name: Y0 for name in system.y_names}
    start = time.perf_counter()
    result = system.simulate(T_END, y0=y0, t_out=t_grid, rtol=TOL, atol=TOL,
                             method=jd.Method.ADAMS, max_steps=10**7)
    sim_s = time.perf_counter() - start
    f, numeric = system.f, system.numeric("f")
    plain = median_us(lambda: f(0.0, x, np.zeros(0), p))
    call = median_us(lambda: numeric(0.0, x, (), p))
    return {"f_us": median_us(f_call), "f_call_us": call, "f_plain_us": plain,
            "jac_us": median_us(jac_call),
            "sim_s": sim_s,
            "y_out": np.asarray(result.x)[:n].T.tolist()}


def reference(kind: str, n: int, t_grid: np.ndarray) -> np.ndarray:
    """Joint angles on t_grid from the compiled recursive system at rtol = atol = 1e-12."""
    _, model = make_model(kind, n)
    system = jd.compile(model, backend=jd.Backend.RECURSIVE).codegen()
    result = system.simulate(T_END, y0={name: Y0 for name in system.y_names}, t_out=t_grid,
                             rtol=1e-12, atol=1e-12, max_steps=10**7,
                             method=jd.Method.ADAMS)
    return np.asarray(result.x)[:n].T


def pinocchio_case(kind: str, n: int, t_grid: np.ndarray) -> dict:
    """ABA from Python, its analytical derivatives, and scipy RK45 (rtol = atol = 1e-8)."""
    import pinocchio as pin
    from scipy.integrate import solve_ivp
    start = time.perf_counter()
    part, _ = make_model(kind, n)
    peer = peers.pinocchio_chain(n) if kind == "chain" else peers.pinocchio_tree(part)
    model, data, idx = peer.model, peer.model.createData(), peer.index
    row = {"compile_s": time.perf_counter() - start}
    q, v = np.zeros(n), np.zeros(n)
    q[idx], v[idx] = Y0, 0.5
    tau = peer.torque(q, v)
    row["f_us"] = median_us(lambda: pin.aba(model, data, q, v, tau))
    row["jac_us"] = median_us(lambda: pin.computeABADerivatives(model, data, q, v, tau))

    def rhs(_t, x):
        qq, vv = x[:n], x[n:]
        return np.concatenate([vv, pin.aba(model, data, qq, vv, peer.torque(qq, vv))])

    x0 = np.zeros(2 * n)
    x0[idx] = Y0
    start = time.perf_counter()
    sol = solve_ivp(rhs, (0.0, T_END), x0, method="RK45", rtol=TOL, atol=TOL, t_eval=t_grid)
    row["sim_s"] = time.perf_counter() - start
    row["y_out"] = sol.y[idx].T.tolist()
    return row


def mujoco_case(kind: str, n: int, t_grid: np.ndarray, dt: float = 1e-3) -> dict:
    """mj_forward, mjd_transitionFD and 10 s of RK4 steps at dt (MuJoCo's own integrator)."""
    import mujoco
    if kind != "chain":
        raise NotImplementedError("MuJoCo peer: chain only")
    start = time.perf_counter()
    model = mujoco.MjModel.from_xml_string(peers.mujoco_chain_xml(n, dt))
    data = mujoco.MjData(model)
    row = {"compile_s": time.perf_counter() - start}
    data.qpos[:], data.qvel[:] = Y0, 0.5
    row["f_us"] = median_us(lambda: mujoco.mj_forward(model, data))
    # mjd_transitionFD does not support RK4: time it on the same chain with Euler steps.
    euler = mujoco.MjModel.from_xml_string(peers.mujoco_chain_xml(n, dt, "Euler"))
    euler_data = mujoco.MjData(euler)
    euler_data.qpos[:], euler_data.qvel[:] = Y0, 0.5
    A, B = np.zeros((2 * n, 2 * n)), np.zeros((2 * n, 0))
    row["jac_us"] = median_us(lambda: mujoco.mjd_transitionFD(euler, euler_data, 1e-6, 0, A, B,
                                                               None, None))
    mujoco.mj_resetData(model, data)
    data.qpos[:] = Y0
    every = int(round((t_grid[1] - t_grid[0]) / dt))
    out = [data.qpos.copy()]
    start = time.perf_counter()
    for k in range(1, int(round(T_END / dt)) + 1):
        mujoco.mj_step(model, data)
        if k % every == 0:
            out.append(data.qpos.copy())
    row["sim_s"] = time.perf_counter() - start
    row["y_out"] = np.array(out).tolist()
    return row


def sympy_case(n: int, cap: float) -> dict:
    """benchmarks/peers/sympy_chain.py in a subprocess, capped at ``cap`` seconds."""
    run = subprocess.run([sys.executable, "-m", "benchmarks.peers.sympy_chain", str(n)],
                         cwd=ROOT, capture_output=True, text=True, timeout=cap)
    if run.returncode != 0:
        raise RuntimeError(run.stderr.strip().splitlines()[-1])
    data = json.loads(run.stdout.strip().splitlines()[-1])
    return {"compile_s": data["t_eom"] + data["t_lambdify"], "f_us": data["t_rhs"],
            "jac_us": None, "sim_s": data["t_sim"], "y_final": data["final_state"][:n]}


def run_case(kind: str, n: int, args, state: dict) -> dict:
    """All methods for one model; errors against the 1e-12 reference at t = 1 s and 10 s."""
    t_grid = np.linspace(0.0, T_END, 11)
    ref = reference(kind, n, t_grid)
    rows = {}
    for method in METHODS:
        if _skipped(kind, n, method, args, state):
            continue
        try:
            row = _one(kind, n, method, t_grid, args)
        except subprocess.TimeoutExpired:
            state["sympy_timed_out"] = True
            rows[method] = {"error": f"timeout > {args.cap:g} s"}
            continue
        except Exception as exc:  # a peer failing must not stop the run: record it
            rows[method] = {"error": f"{type(exc).__name__}: {exc}"[:200]}
            continue
        y_out = row.pop("y_out", None)
        final = np.array(y_out[-1] if y_out is not None else row.pop("y_final"))
        row["err_10s"] = float(np.abs(final - ref[-1]).max())
        row["err_1s"] = None if y_out is None else float(np.abs(np.array(y_out[1]) -
                                                                 ref[1]).max())
        rows[method] = row
        print(f"  {kind} n={n:3d} {method:10s} " + _brief(row), flush=True)
    return rows


def _one(kind: str, n: int, method: str, t_grid, args) -> dict:
    if method in ("projection", "recursive", "compiled"):
        row = jourdain_case(kind, n, method, t_grid)
    elif method == "pinocchio":
        row = pinocchio_case(kind, n, t_grid)
    elif method == "mujoco":
        row = mujoco_case(kind, n, t_grid)
    else:
        row = sympy_case(n, args.cap)
    return row


def _skipped(kind: str, n: int, method: str, args, state: dict) -> bool:
    if method == "projection":
        return n > args.projection_max
    if method == "sympy":
        return kind != "chain" or state.get("sympy_timed_out", False)
    return method == "mujoco" and kind != "chain"


def _brief(row: dict) -> str:
    parts = [f"compile {row['compile_s']:.3g} s", f"f {row['f_us']:.3g} µs"]
    if row.get("f_call_us") is not None:
        parts.append(f"f Python call {row['f_call_us']:.3g} µs")
    if row.get("jac_us") is not None:
        parts.append(f"jac {row['jac_us']:.3g} µs")
    parts += [f"sim {row['sim_s']:.3g} s", f"err(10 s) {row['err_10s']:.2g}"]
    if "cached_load_s" in row:
        parts.append(f"load from cache {row['cached_load_s']:.3g} s")
    return ", ".join(parts)


def print_table(results: dict) -> None:
    header = (f"{'model':6s} {'n':>4s} {'method':10s} {'compile s':>10s} {'f µs':>9s} "
              f"{'call µs':>8s} {'jac µs':>9s} {'sim 10 s':>9s} {'err 1 s':>8s} "
              f"{'err 10 s':>8s}")
    print("\n" + header + "\n" + "-" * len(header))
    for kind, cases in results["cases"].items():
        for n, rows in cases.items():
            for method, row in rows.items():
                if "error" in row:
                    print(f"{kind:6s} {n:>4} {method:10s} {row['error']}")
                    continue
                print(f"{kind:6s} {n:>4} {method:10s} {row['compile_s']:10.3g} "
                      f"{row['f_us']:9.3g} {_fmt(row.get('f_call_us')):>8s} "
                      f"{_fmt(row.get('jac_us')):>9s} {row['sim_s']:9.3g} "
                      f"{_fmt(row.get('err_1s')):>8s} {_fmt(row['err_10s']):>8s}")


def _fmt(value) -> str:
    return "—" if value is None else f"{value:.2g}"


def plot(results: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    metrics = [("compile_s", "compile [s]"), ("f_us", "one f evaluation [µs]"),
               ("jac_us", "one Jacobian evaluation [µs]"), ("sim_s", "10 s simulation [s]")]
    colors = dict(zip(METHODS, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    for ax, (key, label) in zip(axes.ravel(), metrics):
        for kind, style in (("chain", "-o"), ("tree", "--s")):
            for method in METHODS:
                pts = [(int(n), rows[method][key]) for n, rows in
                       results["cases"].get(kind, {}).items()
                       if method in rows and rows[method].get(key) is not None]
                if pts:
                    ax.loglog(*zip(*pts), style, color=colors[method], ms=4,
                              label=f"{method} ({kind})")
        ax.set_xlabel("number of bodies n")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
    axes[0, 0].legend(fontsize=7, ncol=2)
    fig.suptitle("jourdain scaling: n-link chain (solid) and random trees (dashed)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small n only (a few minutes)")
    parser.add_argument("--chain", type=int, nargs="*")
    parser.add_argument("--trees", type=int, nargs="*")
    parser.add_argument("--cap", type=float, default=120.0, help="sympy time cap [s]")
    parser.add_argument("--projection-max", type=int, default=20)
    args = parser.parse_args(argv)
    chain = args.chain or ([1, 2, 5, 10, 20] if args.quick else [1, 2, 5, 10, 20, 40, 70, 100])
    trees = args.trees if args.trees is not None else ([5, 10] if args.quick else
                                                        [5, 10, 20, 50])
    if args.quick:
        args.cap, args.projection_max = min(args.cap, 60.0), min(args.projection_max, 10)
    results = {"settings": {"y0": Y0, "t_end": T_END, "rtol": TOL, "atol": TOL,
                            "jourdain_integrator": "CVODES Adams, functional iteration",
                            "mujoco": "RK4, dt = 1 ms", "sympy_cap_s": args.cap},
               "cases": {"chain": {}, "tree": {}}}
    state: dict = {}
    for kind, sizes in (("chain", chain), ("tree", trees)):
        for n in sizes:
            results["cases"][kind][n] = run_case(kind, n, args, state)
    out = ROOT / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    # a quick or hand-picked run keeps the full results
    partial = args.chain is not None or args.trees is not None
    stem = "scale_quick" if args.quick else ("scale_partial" if partial else "scale")
    (out / f"{stem}.json").write_text(json.dumps(results, indent=1))
    plot(results, out / f"{stem}.png")
    print_table(results)
    print(f"\nwrote {out / (stem + '.json')} and {out / (stem + '.png')}")


if __name__ == "__main__":
    main()
