"""Benchmark: the planar n-link pendulum built from blocks, jourdain vs sympy.physics.mechanics.

For n = 1, 2, 5, 10, 20, 40 this measures, in one run and on the same machine:
  jourdain — default back end (Backend.AUTO: projection up to 12 speeds, recursive above),
             compile time (model → System with named CasADi functions), one state-derivative
             evaluation (µs, through a CasADi function buffer, no numpy conversion), and a 10 s
             simulation with CVODES (Adams, rtol = atol = 1e-8) from q_i = 0.3 rad, u_i = 0;
  sympy    — KanesMethod with joint-relative angles (benchmarks/peers/sympy_chain.py, run in a
             subprocess capped at 120 s per case): equation derivation, lambdify, one RHS call,
             and the same 10 s simulation with scipy's RK45.
Agreement: the state derivatives are compared at q_i = 0.3, u_i = 0.5 (integrator-free).
Prints a table with ratios and writes benchmarks/results/chain.json.

    python benchmarks/chain.py [--n 1 2 5 10 20 40] [--cap 120]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.library import NLinkPendulum  # noqa: E402

from benchmarks.scale import buffered, median_us  # noqa: E402


def jourdain_case(n: int) -> dict:
    start = time.perf_counter()
    system = jd.compile(jd.Model.on_world(World(), chain=NLinkPendulum(n)))
    t_compile = time.perf_counter() - start
    probe = np.concatenate([np.full(n, 0.3), np.full(n, 0.5)])
    xdot = np.array(system.f(0.0, probe, [], [])).ravel()
    t_rhs = median_us(buffered(system.f, [np.zeros(1), probe, np.zeros(0), np.zeros(0)]))
    y0 = {f"chain.joint{i}.phi": 0.3 for i in range(1, n + 1)}
    start = time.perf_counter()
    res = system.simulate(10.0, y0=y0, rtol=1e-8, atol=1e-8, n_out=11, method=jd.Method.ADAMS)
    t_sim = time.perf_counter() - start
    E = res["energy.total"]
    return {"n": n, "backend": system.backend.value, "t_compile": t_compile, "t_rhs_us": t_rhs,
            "t_sim": t_sim,
            "ops_f": system.f.n_instructions(), "xdot_probe": xdot.tolist(),
            "energy_drift_rel": float(abs(E[-1] - E[0]) / abs(E[0]))}


def sympy_case(n: int, cap: float) -> dict | None:
    """Run the peer in a subprocess; None when it exceeds the cap."""
    try:
        out = subprocess.run([sys.executable, "-m", "benchmarks.peers.sympy_chain", str(n)],
                             cwd=ROOT, capture_output=True, text=True, timeout=cap, check=True)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[1, 2, 5, 10, 20, 40])
    parser.add_argument("--cap", type=float, default=120.0, help="sympy time cap per case [s]")
    args = parser.parse_args()
    rows, sympy_gave_up = [], False
    for n in args.n:
        row = {"jourdain": jourdain_case(n)}
        peer = None if sympy_gave_up else sympy_case(n, args.cap)
        sympy_gave_up = sympy_gave_up or peer is None
        row["sympy"] = peer
        if peer is not None:
            diff = np.abs(np.array(peer["xdot_probe"]) - row["jourdain"]["xdot_probe"]).max()
            row["xdot_agreement"] = float(diff)
        rows.append(row)
        print_row(row, header=len(rows) == 1)
    out = ROOT / "benchmarks" / "results" / "chain.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"cap_s": args.cap, "rows": rows}, indent=1))
    print(f"\nwritten {out}")


def print_row(row: dict, header: bool) -> None:
    if header:
        print(f"{'n':>3} {'backend':>10} | {'compile [s]':>11} {'f [µs]':>8} {'sim 10 s [s]':>12} | "
              f"{'sympy EOM [s]':>13} {'rhs [µs]':>9} {'sim [s]':>8} | "
              f"{'EOM/compile':>11} {'sim ratio':>9} | {'|Δẋ|':>8}")
    j, s = row["jourdain"], row["sympy"]
    left = (f"{j['n']:>3} {j['backend']:>10} | {j['t_compile']:>11.3f} {j['t_rhs_us']:>8.2f} "
            f"{j['t_sim']:>12.3f} | ")
    if s is None:
        print(left + f"{'> cap':>13} {'—':>9} {'—':>8} | {'—':>11} {'—':>9} | {'—':>8}")
        return
    t_sympy = s["t_eom"] + s["t_lambdify"]
    print(left + f"{s['t_eom']:>13.3f} {s['t_rhs']:>9.1f} {s['t_sim']:>8.3f} | "
          f"{t_sympy / j['t_compile']:>11.1f} {s['t_sim'] / j['t_sim']:>9.1f} | "
          f"{row['xdot_agreement']:>8.1e}")


if __name__ == "__main__":
    main()
