"""Accuracy versus time: the final-state error of a chain simulation against a tight
reference, for jourdain's integrators and for Pinocchio + DOP853 and MuJoCo RK4, in one run.

Model: the planar n-link chain (jourdain.library.NLinkPendulum, n = 10 by default; Pinocchio
and MuJoCo versions from benchmarks/peers/rigid_body_peers.py), joints at 0.3 rad, at rest,
T = 2 s. Reference: jourdain, compiled f, Adams at rtol = atol = 1e-13 (checked against
Pinocchio + DOP853 at 1e-13). Error: the largest deviation of the final joint angles and
rates from the reference. Time: CPU time of one run (time.process_time), median of 3.

  jourdain AUTO (Adams) / BDF, virtual machine and compiled C, rtol = atol = 1e-4 … 1e-11
  Pinocchio + DOP853     scipy.integrate.solve_ivp with pin.aba as the right-hand side
  MuJoCo RK4             mj_step at dt = 1e-2 … 1e-4 dividing T (fixed step, from Python)

    python benchmarks/accuracy.py [--links 10] [--horizon 2]

Writes benchmarks/results/accuracy.json and accuracy.png.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.library import NLinkPendulum  # noqa: E402

from benchmarks.peers import rigid_body_peers as peers  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
TOLS = (1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11)
STEPS = (1e-2, 4e-3, 2e-3, 1e-3, 5e-4, 2e-4, 1e-4)   # dividing the horizon


def cpu_median(run, repeat: int = 3):
    times, out = [], None
    for _ in range(repeat):
        start = time.process_time()
        out = run()
        times.append(time.process_time() - start)
    return float(np.median(times)), out


def jourdain_runs(n: int, T: float, cache: str) -> tuple[dict, np.ndarray]:
    vm = jd.compile(jd.Model.on_world(World(), part=NLinkPendulum(n)))
    compiled = jd.compile(jd.Model.on_world(World(), part=NLinkPendulum(n)))
    compiled.codegen(cache_dir=cache)
    y0 = {name: 0.3 for name in vm.y_names}

    def final(system, tol, method):
        res = system.simulate(T, y0=y0, t_out=[0.0, T], rtol=tol, atol=tol, method=method,
                              progress=False)
        return res.x[:, -1]
    reference = final(compiled, 1e-13, jd.Method.ADAMS)
    curves = {}
    for label, system, method in (("jourdain AUTO (Adams), C", compiled, jd.Method.AUTO),
                                  ("jourdain AUTO (Adams), VM", vm, jd.Method.AUTO),
                                  ("jourdain BDF, C", compiled, jd.Method.BDF)):
        curves[label] = []
        for tol in TOLS:
            cpu, x = cpu_median(lambda: final(system, tol, method))
            curves[label].append({"tol": tol, "cpu_s": cpu,
                                  "error": float(np.abs(x - reference).max())})
        print(label, [(p["tol"], round(p["cpu_s"], 4), f"{p['error']:.1e}")
                      for p in curves[label]], flush=True)
    return curves, reference


def pinocchio_curve(n: int, T: float, reference: np.ndarray) -> tuple[list, float]:
    import pinocchio as pin
    from scipy.integrate import solve_ivp
    model = peers.pinocchio_chain(n).model
    data = model.createData()
    tau = np.zeros(n)

    def rhs(_, x):
        return np.concatenate([x[n:], pin.aba(model, data, x[:n], x[n:], tau)])
    x0 = np.concatenate([np.full(n, 0.3), np.zeros(n)])

    def final(tol):
        return solve_ivp(rhs, (0.0, T), x0, method="DOP853", rtol=tol, atol=tol).y[:, -1]
    check = float(np.abs(final(1e-13) - reference).max())
    curve = []
    for tol in TOLS:
        cpu, x = cpu_median(lambda: final(tol))
        curve.append({"tol": tol, "cpu_s": cpu, "error": float(np.abs(x - reference).max())})
    print("pinocchio + DOP853", [(p["tol"], round(p["cpu_s"], 4), f"{p['error']:.1e}")
                                 for p in curve], f"(1e-13 vs reference: {check:.1e})",
          flush=True)
    return curve, check


def mujoco_curve(n: int, T: float, reference: np.ndarray) -> list:
    import mujoco
    curve = []
    for dt in STEPS:
        model = mujoco.MjModel.from_xml_string(peers.mujoco_chain_xml(n, dt, "RK4"))
        data = mujoco.MjData(model)
        steps = int(round(T / dt))
        assert abs(steps * dt - T) < 1e-9 * T, "the step must divide the horizon"

        def final():
            mujoco.mj_resetData(model, data)
            data.qpos[:] = 0.3
            for _ in range(steps):
                mujoco.mj_step(model, data)
            return np.concatenate([data.qpos, data.qvel])
        cpu, x = cpu_median(final)
        curve.append({"dt": dt, "cpu_s": cpu, "error": float(np.abs(x - reference).max())})
    print("mujoco RK4", [(p["dt"], round(p["cpu_s"], 4), f"{p['error']:.1e}") for p in curve],
          flush=True)
    return curve


def figure(curves: dict, path: Path, title: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, curve in curves.items():
        ax.plot([p["cpu_s"] for p in curve], [max(p["error"], 1e-16) for p in curve], "o-",
                label=label)
    ax.set(xscale="log", yscale="log", xlabel="CPU time [s]", ylabel="final-state error",
           title=title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--links", type=int, default=10)
    parser.add_argument("--horizon", type=float, default=2.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        curves, reference = jourdain_runs(args.links, args.horizon, cache)
    curves["Pinocchio + DOP853"], check = pinocchio_curve(args.links, args.horizon, reference)
    curves["MuJoCo RK4"] = mujoco_curve(args.links, args.horizon, reference)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "accuracy.json").write_text(json.dumps(
        {"links": args.links, "horizon_s": args.horizon, "reference_vs_pinocchio": check,
         "curves": curves}, indent=1))
    figure(curves, RESULTS / "accuracy.png",
           f"{args.links}-link chain, {args.horizon:g} s: error vs CPU time")
    print(f"wrote {RESULTS / 'accuracy.json'}")


if __name__ == "__main__":
    main()
