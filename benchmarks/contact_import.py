"""Benchmark: the dm_control hopper and cheetah imported from their MJCF files with their
contacts and joint limits (``jd.from_mjcf(path, contacts=True, stops=True)``: MuJoCo enforces
the ranges of limited joints too), dropped from the file's pose, in jourdain's exact
event-driven mode and in MuJoCo (mj_step, its default soft contact, dt from the file).

Columns: compile and simulation CPU [s], the ratio to MuJoCo, the number of contacts
(jourdain: contact points of the collision pairs), events, the deepest penetration [m] (the
ledger's for jourdain; for MuJoCo the most negative contact distance over the run), the
energy the contacts took [J] (jourdain's ledger; MuJoCo: the drop of the total energy), the
largest energy an impact gave (jourdain; never > 0 by construction, this checks it), and the
torso height at the end. MuJoCo's contact is soft, so its trajectories differ by design.

    python benchmarks/contact_import.py [--horizon T] [--models hopper,cheetah]

Writes benchmarks/results/contact_import.json and prints a table.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402

DATA = ROOT / "tests" / "data" / "dm_control"


def start(robot) -> dict:
    """Joint coordinates inside their ranges (the hopper's knee range 5°–150° excludes the
    file's pose 0, which a rigid stop cannot start from): {joint: value from the file's pose}."""
    out = {}
    for name, info in robot.joint_info.items():
        lo, hi = info.limits.lower, info.limits.upper
        if lo is not None and hi is not None:
            value = float(np.clip(0.0, lo - info.ref, hi - info.ref))
            if value != 0.0:
                out[name] = value
    return out


def run_jourdain(name: str, horizon: float) -> tuple[dict, dict]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        robot = jd.from_mjcf(DATA / f"{name}.xml", contacts=True, stops=True)
    model = jd.Model.on_world(World(g=robot.gravity), r=robot)
    t0 = time.process_time()
    system = jd.compile(model)
    compile_s = time.process_time() - t0
    y0 = {f"r.{joint}.phi": value for joint, value in start(robot).items()}
    t0 = time.process_time()
    res = system.simulate(horizon, y0=y0, n_out=201)
    sim_s = time.process_time() - t0
    ledger = res.ledger
    return {"compile": compile_s, "simulate": sim_s, "contacts": len(ledger.contacts),
            "events": len(res.events) - 1, "penetration": ledger.max_penetration,
            "taken": ledger.energy_out - ledger.energy_in,
            "largest_gain": max((c.impacts for c in ledger.contacts.values()), default=0.0),
            "height": float(res["r.rootz.s"][-1])}, start(robot)


def run_mujoco(name: str, horizon: float, offsets: dict) -> dict:
    import mujoco
    model = mujoco.MjModel.from_xml_path(str(DATA / f"{name}.xml"))
    model.opt.enableflags |= mujoco.mjtEnableBit.mjENBL_ENERGY
    data = mujoco.MjData(model)
    for joint, value in offsets.items():
        data.qpos[model.jnt_qposadr[mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT,
                                                      joint)]] += value
    mujoco.mj_forward(model, data)
    e0 = float(np.sum(data.energy))
    steps, deepest = int(round(horizon / model.opt.timestep)), 0.0
    t0 = time.process_time()
    for _ in range(steps):
        mujoco.mj_step(model, data)
        if data.ncon:
            deepest = min(deepest, float(np.min(data.contact.dist[:data.ncon])))
    sim_s = time.process_time() - t0
    rootz = model.jnt_qposadr[mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, "rootz")]
    return {"simulate": sim_s, "penetration": -deepest,
            "taken": e0 - float(np.sum(data.energy)),
            "height": float(data.qpos[rootz] - model.qpos0[rootz])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--horizon", type=float, default=2.0)
    parser.add_argument("--models", default="hopper,cheetah")
    args = parser.parse_args()
    rows = {}
    for name in args.models.split(","):
        jdr, offsets = run_jourdain(name, args.horizon)
        mjr = run_mujoco(name, args.horizon, offsets)
        rows[name] = {"jourdain": jdr, "mujoco": mjr,
                      "ratio": jdr["simulate"] / max(mjr["simulate"], 1e-9)}
        print(f"{name:8s} jourdain: compile {jdr['compile']:.2f} s, simulate "
              f"{jdr['simulate']:.2f} s ({rows[name]['ratio']:.0f}× MuJoCo's "
              f"{mjr['simulate']:.3f} s), {jdr['contacts']} contacts, {jdr['events']} events, "
              f"penetration {jdr['penetration']:.2g} m (MuJoCo {mjr['penetration']:.2g} m), "
              f"energy taken {jdr['taken']:.4g} J (MuJoCo {mjr['taken']:.4g} J), largest "
              f"impact gain {jdr['largest_gain']:.2g} J, root height {jdr['height']:.4f} m "
              f"(MuJoCo {mjr['height']:.4f} m)")
    out = ROOT / "benchmarks" / "results" / "contact_import.json"
    out.write_text(json.dumps({"horizon": args.horizon, "scenes": rows}, indent=2))
    print("wrote", out)


if __name__ == "__main__":
    main()
