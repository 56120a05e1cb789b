"""Monte Carlo robustness of the Cubli's balancing controller on a local Dask cluster
==================================================================================

What: the reaction-wheel cube on its corner (the 3-D Cubli, three wheels driven by DC motors
on H-bridges that clip at ±24 V) balances with one LQR gain designed for the nominal
parameters. Each of the N runs draws the masses and inertias of the housing and the wheels
and the three motor constants uniformly within ±20 % of nominal, starts tilted by 0.1 rad
and simulates 5 s of the closed loop.

Why: a gain is designed on one model; the hardware differs. A Monte Carlo study says how
much margin the design has. The closed loop is one compiled System (jd.close_loop folds the
gain into the equations, no Python in the loop), its parameters stay symbolic, so every run
is the same System with other numbers; jd.sweep sends it once to each Dask worker and
collects one table.

You will see: the nominal closed-loop eigenvalues, the success rate (settled near upright
after 5 s), the worst and the median largest and final tilt, the time per run, and the
histograms of the largest and the final tilt in out/cubli_monte_carlo.png. Set
JOURDAIN_MC_RUNS (default 1000) for fewer runs; JOURDAIN_MC_WORKERS (default 2) workers.
"""
# %%
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.library import ElectricCubeOnCorner  # noqa: E402

RUNS = int(os.environ.get("JOURDAIN_MC_RUNS", "1000"))
WORKERS = int(os.environ.get("JOURDAIN_MC_WORKERS", "2"))
SPREAD = 0.2            # ±20 % of nominal
TILT0 = 0.1             # [rad] initial tilt
DIAGONAL = np.ones(3) / np.sqrt(3)   # the upright body diagonal, in the pivot's axes


def tilt(result) -> np.ndarray:
    """Angle [rad] between the housing's body diagonal and the vertical, over time."""
    q = np.array([result[f"cube.pivot.q{i}"] for i in range(4)])
    q = q / np.linalg.norm(q, axis=0)
    w, v = q[0][:, None], q[1:].T
    turned = np.cross(v, DIAGONAL)
    moved = DIAGONAL + 2 * w * turned + 2 * np.cross(v, turned)   # R(q)·diagonal
    return np.arctan2(np.linalg.norm(np.cross(moved, DIAGONAL), axis=1), moved @ DIAGONAL)


def max_tilt(result) -> float:
    return float(tilt(result).max())


def final_tilt(result) -> float:
    return float(tilt(result)[-1])


def last_second_drift(result) -> float:
    """How much the tilt still changes in the last second [rad] (0 when settled)."""
    return float(np.ptp(tilt(result)[result.t >= result.t[-1] - 1.0]))


def draws(system, runs: int, seed: int = 2024) -> pd.DataFrame:
    """±20 % uniform draws: masses, the housing's inertia entries, one scale per wheel
    inertia (all its entries together, so the thin disk stays a physical body) and motor
    constants."""
    rng = np.random.default_rng(seed)
    nominal = dict(zip(system.p_names, system.p_default))
    rows = []
    for _ in range(runs):
        row = {}
        for name, value in nominal.items():
            if ".wheel" in name and ".I." in name or value == 0.0:
                continue
            row[name] = value * rng.uniform(1 - SPREAD, 1 + SPREAD)
        for i in (1, 2, 3):
            scale = rng.uniform(1 - SPREAD, 1 + SPREAD)
            for entry in ("xx", "yy", "zz"):
                name = f"cube.wheel{i}.I.{entry}"
                row[name] = nominal[name] * scale
        rows.append(row)
    return pd.DataFrame(rows)


def main():
    # %% The plant with symbolic masses, inertias and motor constants; the nominal LQR
    # (armature inductance neglected: L/R = 0.76 ms is far below the balancing time scale)
    uncertain = ["cube.housing.m", "cube.housing.I"] + \
        [f"cube.wheel{i}.{p}" for i in (1, 2, 3) for p in ("m", "I")] + \
        [f"cube.drive{i}.motor.emf.k" for i in (1, 2, 3)]
    plant = jd.compile(jd.Model.on_world(World(), cube=ElectricCubeOnCorner(motor={"L": 0.0})),
                       parameters=uncertain)
    lin = jd.linearize(plant)
    states = [n for n in lin.state_names if "bearing" not in n or n.endswith(".w")]
    Q = {n: (100.0 if "theta" in n else 1.0 if "pivot.w" in n else 1e-3) for n in states}
    gain = jd.lqr(lin.select(states), Q, np.eye(3))
    print("nominal closed-loop eigenvalues:", np.round(gain.closed_loop, 2))
    closed = jd.close_loop(plant, gain)
    x0 = lin.to_state({"cube.pivot.theta_x": TILT0 / np.sqrt(2),
                       "cube.pivot.theta_y": -TILT0 / np.sqrt(2)})
    y0 = dict(zip(plant.y_names, x0[:len(plant.y_names)]))

    # %% The study on a local Dask cluster (worker processes), one table back
    from dask.distributed import Client, LocalCluster

    cases = draws(plant, RUNS)
    with LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        table = jd.sweep(closed, cases=cases, y0=y0, t_end=5.0, client=client,
                         metrics={"max_tilt": max_tilt, "final_tilt": final_tilt,
                                  "drift": last_second_drift},
                         options={"n_out": 501}, progress=False)
    ok = table["status"] == "ok"
    # balanced: settled (the tilt changes by < 0.1 mrad in the last second) near upright;
    # off-nominal masses move the center of mass off the diagonal, so the cube settles a
    # few mrad away from it, with the wheels spinning at constant speed
    upright = ok & (table["drift"] < 1e-4) & (table["final_tilt"] < 0.05)
    print(f"runs: {len(table)} on {WORKERS} Dask workers in {table.attrs['wall_time']:.1f} s "
          f"({table.loc[ok, 'seconds'].median() * 1e3:.0f} ms per run, median)")
    print(f"success rate: {upright.mean():.1%} (settled within 0.05 rad of upright after "
          f"5 s); failed runs: {int((~ok).sum())}")
    print(f"final tilt: worst {table.loc[ok, 'final_tilt'].max():.4f} rad, median "
          f"{table.loc[ok, 'final_tilt'].median():.4f} rad")
    print(f"largest tilt: worst {table.loc[ok, 'max_tilt'].max():.4f} rad, median "
          f"{table.loc[ok, 'max_tilt'].median():.4f} rad (start {TILT0} rad)")
    worst = table.loc[table.loc[ok, "final_tilt"].idxmax()]
    print("run with the largest final tilt: housing mass "
          f"{worst['cube.housing.m']:.3f} kg, motor constants "
          + ", ".join(f"{worst[f'cube.drive{i}.motor.emf.k']:.4f}" for i in (1, 2, 3))
          + " N·m/A")

    # %% Histograms of the largest and the final tilt
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
    for ax, column, label in ((axes[0], "max_tilt", "largest tilt over 5 s [rad]"),
                              (axes[1], "final_tilt", "tilt after 5 s [rad]")):
        ax.hist(table.loc[ok, column], bins=30, color="0.4")
        ax.set_xlabel(label)
        ax.set_ylabel("runs")
    axes[0].axvline(TILT0, color="k", ls="--", lw=1, label="initial tilt")
    axes[0].legend()
    fig.suptitle(f"Cubli balancing, ±{SPREAD:.0%} parameters, {len(table)} runs")
    fig.tight_layout()
    out = Path("out") / "cubli_monte_carlo.png"
    out.parent.mkdir(exist_ok=True)
    fig.savefig(out, dpi=120)
    print(f"figure saved to {out}")


if __name__ == "__main__":   # worker processes import this file: run the study only here
    main()
