"""Benchmark: contact scenes with rigid, event-driven contact (jourdain) and soft contact
(MuJoCo), on the same scenes.

Scenes (gravity 9.81 m/s², Coulomb friction μ = 0.5, restitution e = 0.5 in jourdain):
  box    — a 0.2 m cube of 1 kg dropped from 0.5 m with a tilt and a spin onto the ground
           (jourdain: BoxContact, eight corner contacts); 10 s.
  balls  — N balls (r = 5 cm, 0.1 kg) thrown into a 1 m × 1 m box open at the top (floor and
           four walls; the balls meet the walls, not each other: ball–ball contact is off in
           MuJoCo too); 10 s.

Columns: CPU time of the simulation [s] (compile time separately), its ratio to MuJoCo's,
the number of islands jourdain split the scene into (independent bodies run between their
own events, docs/hybrid.md), number of events
(jourdain: impacts, lift-offs, stick/slip changes; MuJoCo has none: it steps at dt = 1 ms
with its soft contact), the total energy at t = 0, 1, 2, 5, 10 s and the energy the contacts
removed. MuJoCo's contact is soft (a spring–damper through its solver's impedance), so the
trajectories differ by design; the comparison is of energy behaviour (both lose the kinetic
energy of the bounces and come to rest at the potential energy of the resting pose) and of
cost. MuJoCo runs from Python with mj_step (Euler, its default integrator).

    python benchmarks/contact.py [--balls N] [--horizon T]

Writes benchmarks/results/contact.json and prints a table.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import FreeJoint, RigidBody, World  # noqa: E402
from jourdain.blocks.hybrid import BoxContact, GroundContact  # noqa: E402
from jourdain.solver.hybrid.islands import island_systems  # noqa: E402

MU, E, G = 0.5, 0.5, 9.81
TIMES = (0.0, 1.0, 2.0, 5.0, 10.0)
SIZE, MASS = 0.2, 1.0                  # box
RADIUS, BALL, HALF = 0.05, 0.1, 0.5    # balls, box half-width


def box_start():
    angle, axis = 0.5, np.array([1.0, 0.5, 0.2]) / np.linalg.norm([1.0, 0.5, 0.2])
    q = np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])
    return np.array([0.0, 0.5, 0.0]), q, np.array([1.0, 0.0, 0.0]), np.array([2.0, 4.0, 0.0])


def balls_start(n: int):
    rng = np.random.default_rng(0)
    side = int(np.ceil(np.sqrt(n)))
    pos = np.array([[-0.4 + 0.8 * (i % side) / max(side - 1, 1), 0.3 + 0.5 * rng.random(),
                     -0.4 + 0.8 * (i // side) / max(side - 1, 1)] for i in range(n)])
    vel = np.column_stack([rng.uniform(-1, 1, n), np.zeros(n), rng.uniform(-1, 1, n)])
    return pos, vel


# ---- jourdain ------------------------------------------------------------------------------
def jourdain_box(horizon: float) -> dict:
    model = jd.Model(world=World())
    model.free = FreeJoint()
    model.box = RigidBody(m=MASS, I=(MASS * SIZE**2 / 6,) * 3)
    model.contact = BoxContact((SIZE, SIZE, SIZE), mu=MU, e=E, v_rest=0.05)
    for a, b in ((model.world.frame_b, model.free.frame_a),
                 (model.free.frame_b, model.box.frame_a),
                 (model.contact.frame_a, model.box.frame_a)):
        model.connect(a, b)
    r, q, v, w = box_start()
    y0 = dict(zip(("free.x", "free.y", "free.z", "free.q0", "free.q1", "free.q2", "free.q3"),
                  np.concatenate([r, q])))
    z0 = dict(zip(("free.vx", "free.vy", "free.vz", "free.wx", "free.wy", "free.wz"),
                  np.concatenate([v, w])))
    return _run_jourdain(model, horizon, y0, z0)


def jourdain_balls(n: int, horizon: float) -> dict:
    model = jd.Model(world=World())
    planes = [((0, 1, 0), 0.0), ((1, 0, 0), -HALF), ((-1, 0, 0), -HALF), ((0, 0, 1), -HALF),
              ((0, 0, -1), -HALF)]
    for i in range(n):
        joint = model.add(f"j{i}", FreeJoint())
        body = model.add(f"b{i}", RigidBody(m=BALL, I=(0.4 * BALL * RADIUS**2,) * 3))
        model.connect(model.world.frame_b, joint.frame_a)
        model.connect(joint.frame_b, body.frame_a)
        for k, (normal, offset) in enumerate(planes):
            contact = model.add(f"c{i}_{k}", GroundContact(
                radius=RADIUS, normal=normal, offset=offset, mu=MU, e=E, v_rest=0.05))
            model.connect(contact.frame_a, body.frame_a)
    pos, vel = balls_start(n)
    y0, z0 = {}, {}
    for i in range(n):
        y0.update({f"j{i}.x": pos[i, 0], f"j{i}.y": pos[i, 1], f"j{i}.z": pos[i, 2]})
        z0.update({f"j{i}.vx": vel[i, 0], f"j{i}.vz": vel[i, 2]})
    return _run_jourdain(model, horizon, y0, z0)


def _run_jourdain(model, horizon: float, y0: dict, z0: dict) -> dict:
    start = time.process_time()
    system = jd.compile(model)
    compile_s = time.process_time() - start
    start = time.process_time()
    try:
        res = system.simulate(horizon, y0=y0, z0=z0, t_out=np.linspace(0, horizon, 1001))
    except jd.SimulationError as exc:   # reported in the table, not hidden
        return {"compile_s": compile_s, "simulate_s": time.process_time() - start,
                "events": None, "segments": None, "energy": {}, "lost_in_impacts": None,
                "failed": str(exc)[:400]}
    sim_s = time.process_time() - start
    energy = res["energy.total"]
    return {"compile_s": compile_s, "simulate_s": sim_s, "events": len(res.events) - 1,
            "islands": len(island_systems(system)),
            "segments": res.segments, "energy": _at(res.t, energy),
            "lost_in_impacts": res.events.energy_lost}


# ---- MuJoCo ----------------------------------------------------------------------------------
def mujoco_box(horizon: float) -> dict:
    r, q, v, w = box_start()
    xml = f"""<mujoco><option timestep="0.001" gravity="0 -{G} 0"/>
      <worldbody><geom type="plane" size="5 5 0.1" zaxis="0 1 0" friction="{MU} 0.005 0.0001"/>
        <body pos="{r[0]} {r[1]} {r[2]}" quat="{q[0]} {q[1]} {q[2]} {q[3]}"><freejoint/>
          <geom type="box" size="{SIZE / 2} {SIZE / 2} {SIZE / 2}" mass="{MASS}"
                friction="{MU} 0.005 0.0001"/></body></worldbody></mujoco>"""
    return _run_mujoco(xml, horizon, [(v, w)])


def mujoco_balls(n: int, horizon: float) -> dict:
    pos, vel = balls_start(n)
    walls = "".join(
        f'<geom type="plane" size="5 5 0.1" pos="{p}" zaxis="{a}" conaffinity="1" '
        f'contype="1" friction="{MU} 0.005 0.0001"/>'
        for p, a in (("0 0 0", "0 1 0"), (f"{-HALF} 0 0", "1 0 0"), (f"{HALF} 0 0", "-1 0 0"),
                     (f"0 0 {-HALF}", "0 0 1"), (f"0 0 {HALF}", "0 0 -1")))
    bodies = "".join(
        f'<body pos="{x} {y} {z}"><freejoint/><geom type="sphere" size="{RADIUS}" '
        f'mass="{BALL}" contype="2" conaffinity="1" friction="{MU} 0.005 0.0001"/></body>'
        for x, y, z in pos)
    xml = (f'<mujoco><option timestep="0.001" gravity="0 -{G} 0"/><worldbody>{walls}{bodies}'
           "</worldbody></mujoco>")
    return _run_mujoco(xml, horizon, [(v, np.zeros(3)) for v in vel])


def _run_mujoco(xml: str, horizon: float, speeds) -> dict:
    import mujoco
    start = time.process_time()
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    compile_s = time.process_time() - start
    for k, (v, w) in enumerate(speeds):      # free joint qvel: linear (world), angular (body)
        data.qvel[6 * k:6 * k + 6] = np.concatenate([v, w])
    mujoco.mj_forward(model, data)   # positions computed, so the energy at t = 0 is right
    steps = int(round(horizon / model.opt.timestep))
    marks = {int(round(t / model.opt.timestep)) for t in TIMES if t <= horizon}
    energy, times = [], []
    start = time.process_time()
    for step in range(steps + 1):
        if step in marks:
            mujoco.mj_energyPos(model, data)
            mujoco.mj_energyVel(model, data)
            energy.append(float(data.energy[0] + data.energy[1]))
            times.append(step * model.opt.timestep)
        if step < steps:
            mujoco.mj_step(model, data)
    sim_s = time.process_time() - start
    return {"compile_s": compile_s, "simulate_s": sim_s, "events": None, "segments": None,
            "energy": dict(zip([f"{t:g}" for t in times], energy)), "lost_in_impacts": None,
            "steps": steps}


def _at(t: np.ndarray, values: np.ndarray) -> dict:
    return {f"{s:g}": float(np.interp(s, t, values)) for s in TIMES if s <= t[-1] + 1e-12}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--balls", type=int, default=100)
    parser.add_argument("--horizon", type=float, default=10.0)
    args = parser.parse_args()
    results = {"box": {"jourdain": jourdain_box(args.horizon),
                       "mujoco": mujoco_box(args.horizon)},
               f"balls_{args.balls}": {"jourdain": jourdain_balls(args.balls, args.horizon),
                                       "mujoco": mujoco_balls(args.balls, args.horizon)}}
    print(f"{'scene':10s} {'tool':9s} {'compile s':>9s} {'sim s':>8s} {'ratio':>6s} "
          f"{'islands':>7s} {'events':>7s}  energy at t = " + ", ".join(f"{t:g}" for t in TIMES)
          + " s [J]")
    for scene, runs in results.items():
        for tool, r in runs.items():
            energy = ", ".join(f"{r['energy'].get(f'{t:g}', float('nan')):.4f}" for t in TIMES)
            events = "-" if r["events"] is None else str(r["events"])
            ratio = r["simulate_s"] / runs["mujoco"]["simulate_s"]
            r["ratio_to_mujoco"] = ratio
            print(f"{scene:10s} {tool:9s} {r['compile_s']:9.2f} {r['simulate_s']:8.2f} "
                  f"{ratio:6.1f} {str(r.get('islands', '-')):>7s} {events:>7s}  {energy}")
            if r.get("failed"):
                print(f"{'':20s} FAILED: {r['failed'][:200]}")
    out = ROOT / "benchmarks" / "results" / "contact.json"
    out.write_text(json.dumps({"horizon_s": args.horizon, "results": results}, indent=2))
    print(f"results written to {out}")


if __name__ == "__main__":
    main()
