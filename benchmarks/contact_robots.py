"""Benchmark rows of benchmarks/contact.py: the dm_control hopper and cheetah from their MJCF
files (tests/data/dm_control), in jourdain's time-stepping mode and in MuJoCo, on the same
file and the same step (the file's timestep: hopper 5 ms, cheetah 10 ms).

jourdain: ``jd.from_mjcf(path, contacts=True, stops=True)`` (the geoms' contacts with the
floor and between non-adjacent bodies, the joint ranges as rigid stops: MuJoCo enforces the
ranges of limited joints too), a ``Motor`` on every actuated joint with the actuator's gear,
``simulate(contact="stepping", dt=timestep)``. Both start from the file's pose with the
joints moved into their ranges (the hopper's knee to 5°, benchmarks/contact_import.py).

Scenes, 2 s each: ``drop`` (no torque: the robot falls and settles) and ``gait`` (open-loop
torques, control u_k(t) = 0.5·sin(2π·2 Hz·t + k) on actuator k, held over each step in both
tools, times the gear).

Columns: CPU time of the run [s], median of REPEATS, the two tools' runs alternating
(jourdain: after a first run that builds and compiles the step, the whole ``simulate`` with
its Result; MuJoCo: the loop of the controls, ``mj_step`` and the state kept per step, its
columns' bookkeeping in a run of its own), its ratio to MuJoCo's; the deepest penetration [m] (jourdain: its
ledger's, at the start of any step, after the position correction; MuJoCo: the most
negative contact distance); "corr.": the deepest penetration the position correction removed
after a step [m] (jourdain's ledger: what the linearized position update left); the
largest energy the contacts gave in one step [J] (jourdain's ledger; never > 0 by
construction, this checks it); the energy the contacts took [J] (jourdain's ledger; MuJoCo:
not separable from its other losses, so the drop of total energy minus the work of the
actuators is shown for both); the root height at the end [m].

    python benchmarks/contact_robots.py     (benchmarks/contact.py runs it too)

Writes benchmarks/results/contact_robots.json and prints a table.
"""
from __future__ import annotations

import time
import warnings
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import World
from jourdain.blocks.actuators import Motor

from contact_import import start  # joint offsets into the ranges, one rule for both

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "dm_control"
HORIZON, REPEATS, AMPLITUDE, FREQUENCY = 2.0, 11, 0.5, 2.0


def gears(name: str) -> dict:
    import mujoco
    mj = mujoco.MjModel.from_xml_path(str(DATA / f"{name}.xml"))
    return {mj.actuator(i).name: float(mj.actuator_gear[i, 0]) for i in range(mj.nu)}, \
        float(mj.opt.timestep)


def controls(t: np.ndarray, n: int) -> np.ndarray:
    """The open-loop controls u_k(t), one row per actuator."""
    return np.array([AMPLITUDE * np.sin(2 * np.pi * FREQUENCY * t + k) for k in range(n)])


def range_violation(robot, res) -> float:
    """The largest excursion of a limited joint beyond its range over the run [rad or m]."""
    worst = 0.0
    for joint, info in robot.joint_info.items():
        lo, hi = info.limits.lower, info.limits.upper
        if lo is None or hi is None or f"r.{joint}.phi" not in res.series:
            continue
        phi = res[f"r.{joint}.phi"]
        worst = max(worst, float(np.max(np.maximum(lo - info.ref - phi,
                                                    phi - (hi - info.ref)))))
    return worst


def jourdain_robot(name: str, gait: bool, horizon: float = HORIZON,
                   repeats: int = REPEATS) -> dict:
    """The robot's row (module docstring); repeats = 0: the first run only."""
    run, row = jourdain_prepared(name, gait, horizon)
    return row([run() for _ in range(repeats)])


def jourdain_prepared(name: str, gait: bool, horizon: float = HORIZON):
    """(run, row): ``run()`` simulates once and returns its CPU time [s]; ``row(times)``
    the robot's row from those times (after a first run that builds and compiles)."""
    gear, dt = gears(name)
    start_s = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # the importer's notes (sensors, lights, ...)
        robot = jd.from_mjcf(DATA / f"{name}.xml", contacts=True, stops=True)
    model = jd.Model.on_world(World(g=robot.gravity), r=robot)
    for joint in gear:
        motor = model.add(f"m_{joint}", Motor())
        model.connect(motor.flange_b, robot.joints[joint].axis)
    system = jd.compile(model)
    compile_s = time.process_time() - start_s
    grid = np.linspace(0.0, horizon, int(round(horizon / dt)) + 1)
    u = controls(grid, len(gear)) if gait else np.zeros((len(gear), grid.size))
    inputs = {f"m_{j}.tau": (grid, g * u[k]) for k, (j, g) in enumerate(gear.items())}
    options = dict(y0={f"r.{j}.phi": v for j, v in start(robot).items()}, t_out=grid,
                   inputs=inputs, contact="stepping", dt=dt)
    start_s = time.process_time()
    last = [system.simulate(horizon, **options)]
    build_s = time.process_time() - start_s

    def run() -> float:
        start_s = time.process_time()
        last[0] = system.simulate(horizon, **options)
        return time.process_time() - start_s

    def row(times: list) -> dict:
        res = last[0]
        energy = res["energy.total"]
        supplied = np.trapezoid(res["power.supplied"], res.t) \
            if "power.supplied" in res.series else 0.0
        return {"compile_s": compile_s + build_s,
                "simulate_s": float(np.median(times)) if times else build_s,
                "simulate_all_s": times, "contacts": res.stats["contacts"],
                "range_violation": range_violation(robot, res),
                "penetration": res.ledger.max_penetration,
                "max_step_gain": res.ledger.max_step_gain,
                "corrected": res.ledger.max_correction,
                "contacts_took": res.ledger.energy_taken,
                "energy_lost": float(energy[0] - energy[-1] + supplied),
                "height": float(res["r.rootz.s"][-1]), "ledger": vars(res.ledger)}
    return run, row


def mujoco_robot(name: str, gait: bool, horizon: float = HORIZON,
                 repeats: int = REPEATS) -> dict:
    run, row = mujoco_prepared(name, gait, horizon)
    return row([run() for _ in range(repeats)])


def mujoco_prepared(name: str, gait: bool, horizon: float = HORIZON):
    """(run, row) as :func:`jourdain_prepared`'s, for MuJoCo's loop."""
    import mujoco
    model = mujoco.MjModel.from_xml_path(str(DATA / f"{name}.xml"))
    model.opt.enableflags |= mujoco.mjtEnableBit.mjENBL_ENERGY
    data = mujoco.MjData(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        robot = jd.from_mjcf(DATA / f"{name}.xml")
    offsets = start(robot)
    dt, steps = model.opt.timestep, int(round(horizon / model.opt.timestep))
    u = controls(np.arange(steps) * dt, model.nu) if gait else np.zeros((model.nu, steps))
    rootz = model.jnt_qposadr[mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_JOINT, "rootz")]
    states = np.zeros((steps + 1, model.nq))

    def reset():
        mujoco.mj_resetData(model, data)
        for joint, value in offsets.items():
            data.qpos[model.jnt_qposadr[mujoco.mj_name2id(
                model, mujoco.mjtObj.mjOBJ_JOINT, joint)]] += value
        mujoco.mj_forward(model, data)

    # the timed runs: the controls in, a step, the state kept (as jourdain's Result keeps
    # it); the bookkeeping of the columns (deepest contact, the actuators' work) in one
    # untimed run of its own (mj_step is deterministic: the same trajectory), since its
    # numpy calls per step made MuJoCo's runs 1.5-2.3x slower (docs/hybrid.md, Performance)
    def run() -> float:
        reset()
        start_s = time.process_time()
        for k in range(steps):
            data.ctrl[:] = u[:, k]
            mujoco.mj_step(model, data)
            states[k + 1] = data.qpos
        return time.process_time() - start_s

    def row(times: list) -> dict:
        reset()
        e0, deepest, work = float(np.sum(data.energy)), 0.0, 0.0
        for k in range(steps):
            data.ctrl[:] = u[:, k]
            mujoco.mj_step(model, data)
            if data.ncon:
                deepest = min(deepest, float(np.min(data.contact.dist[:data.ncon])))
            work += dt * float(np.dot(data.actuator_force, data.actuator_velocity))
        return {"compile_s": 0.0, "simulate_s": float(np.median(times)),
                "simulate_all_s": times, "contacts": None, "penetration": -deepest,
                "max_step_gain": None, "contacts_took": None,
                "energy_lost": e0 - float(np.sum(data.energy)) + work,
                "height": float(data.qpos[rootz] - model.qpos0[rootz])}
    return run, row


def robot_rows(names=("hopper", "cheetah"), repeats: int = REPEATS) -> dict:
    """{scene: {"mujoco": row, "stepping": row}} for the drop and the gait of each robot;
    the two tools' runs alternate (a machine's load drifts between them otherwise: the
    cheetah's ratio moved 1.4-3.8x between processes with MuJoCo's five runs first)."""
    out = {}
    for name in names:
        for gait in (False, True):
            scene = f"{name}_{'gait' if gait else 'drop'}"
            tools = {"mujoco": mujoco_prepared(name, gait),
                     "stepping": jourdain_prepared(name, gait)}
            times = {tool: [] for tool in tools}
            for _ in range(repeats):
                for tool, (run, _) in tools.items():
                    times[tool].append(run())
            out[scene] = {tool: row(times[tool]) for tool, (_, row) in tools.items()}
    return out


def print_rows(rows: dict) -> None:
    print(f"{'scene':14s} {'tool':9s} {'sim s':>8s} {'ratio':>6s} {'pen. m':>8s} "
          f"{'gain J':>8s} {'corr. m':>8s} {'took J':>8s} {'lost J':>8s} {'height m':>8s}")
    for scene, runs in rows.items():
        for tool, r in runs.items():
            ratio = r["simulate_s"] / runs["mujoco"]["simulate_s"]
            r["ratio_to_mujoco"] = ratio

            def num(key, fmt):
                return "-" if r.get(key) is None else format(r[key], fmt)
            print(f"{scene:14s} {tool:9s} {r['simulate_s']:8.4f} {ratio:6.2f} "
                  f"{num('penetration', '8.1e')} {num('max_step_gain', '8.1e')} "
                  f"{num('corrected', '8.1e')} "
                  f"{num('contacts_took', '8.3f')} {r['energy_lost']:8.3f} "
                  f"{r['height']:8.4f}")


if __name__ == "__main__":
    import json
    rows = robot_rows()
    print_rows(rows)
    out = Path(__file__).resolve().parent / "results" / "contact_robots.json"
    out.write_text(json.dumps({"horizon_s": HORIZON, "repeats": REPEATS, "scenes": rows},
                              indent=2, default=float))
    print(f"results written to {out}")
