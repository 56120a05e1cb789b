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

The time-stepping mode (``contact="stepping"``, dt = 1 ms like MuJoCo's, docs/hybrid.md)
runs the same box and three more scenes:
  balls_pairs — the balls above, now also meeting each other (ball–ball CollisionPairs in
           jourdain, contype/conaffinity in MuJoCo), e = 0.5 on every contact; --pair-balls
           of them (default 100: 4950 ball–ball and 500 ball–wall pairs, found per output
           interval by the broad phase and solved in slots, docs/hybrid.md), started on
           four layers 0.2 m apart so that no two overlap; with --pair-exact the same
           scene runs with exact=True (the slots' position correction), a row
           balls_pairs_K_exact of its own;
  tower  — 10 boxes of 0.2 m, 1 kg stacked at rest on the ground for 10 s: the drift of the
           boxes' centres from their start [m] (jourdain: each box's corners against the top
           face of the box below, a body-fixed plane; MuJoCo: box–box contacts);
  hopper, cheetah — the dm_control robots from their MJCF files, a 2 s drop and a 2 s gait
           with open-loop torques, stepping mode vs MuJoCo on the same file and step
           (benchmarks/contact_robots.py: its docstring has the columns; CPU medians of 11, the tools alternating).

    python benchmarks/contact.py [--balls N] [--horizon T] [--modes events,stepping]
                                 [--scenes box,balls,pairs,tower,robots] [--pair-balls K]
                                 [--pair-exact]

Writes benchmarks/results/contact.json and prints a table.
"""
from __future__ import annotations

import argparse
import dataclasses
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
from jourdain.blocks.visual import Box, Sphere  # noqa: E402
from jourdain.solver.collision import Collider, CollisionPair, ContactMaterial  # noqa: E402
from jourdain.solver.hybrid.islands import island_systems  # noqa: E402
from jourdain.blocks.visual import Plane  # noqa: E402
from contact_robots import print_rows, robot_rows  # noqa: E402

MU, E, G = 0.5, 0.5, 9.81
TIMES = (0.0, 1.0, 2.0, 5.0, 10.0)
SIZE, MASS = 0.2, 1.0                  # box
RADIUS, BALL, HALF = 0.05, 0.1, 0.5    # balls, box half-width
DT = 1e-3                              # stepping mode's step [s], as MuJoCo's timestep
REPEATS = 5                            # runs of the fast scenes; their CPU time's median


def box_start():
    angle, axis = 0.5, np.array([1.0, 0.5, 0.2]) / np.linalg.norm([1.0, 0.5, 0.2])
    q = np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])
    return np.array([0.0, 0.5, 0.0]), q, np.array([1.0, 0.0, 0.0]), np.array([2.0, 4.0, 0.0])


def balls_start(n: int, apart: bool = False):
    """Centres and speeds of n balls; apart: on layers 0.2 m apart (no two balls overlap:
    the scenes where balls meet each other), else on one 0.8 m square grid at random
    heights (balls that meet only the walls may overlap)."""
    rng = np.random.default_rng(0)
    if apart:
        pos = np.array([[-0.4 + 0.2 * (i % 5), 0.3 + 0.2 * (i // 25), -0.4 + 0.2 * (i // 5 % 5)]
                        for i in range(n)]) + rng.uniform(-0.02, 0.02, (n, 3))
        vel = np.column_stack([rng.uniform(-1, 1, n), np.zeros(n), rng.uniform(-1, 1, n)])
        return pos, vel
    side = int(np.ceil(np.sqrt(n)))
    pos = np.array([[-0.4 + 0.8 * (i % side) / max(side - 1, 1), 0.3 + 0.5 * rng.random(),
                     -0.4 + 0.8 * (i // side) / max(side - 1, 1)] for i in range(n)])
    vel = np.column_stack([rng.uniform(-1, 1, n), np.zeros(n), rng.uniform(-1, 1, n)])
    return pos, vel


# ---- jourdain ------------------------------------------------------------------------------
def jourdain_box(horizon: float, stepping: bool = False) -> dict:
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
    return _run_jourdain(model, horizon, y0, z0, stepping)


def jourdain_balls(n: int, horizon: float, stepping: bool = False,
                   meet: bool = False, exact=None) -> dict:
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
    pos, vel = balls_start(n, apart=meet)
    y0, z0 = {}, {}
    for i in range(n):
        y0.update({f"j{i}.x": pos[i, 0], f"j{i}.y": pos[i, 1], f"j{i}.z": pos[i, 2]})
        z0.update({f"j{i}.vx": vel[i, 0], f"j{i}.vz": vel[i, 2]})
    material = ContactMaterial(mu=MU, e=E)
    pairs = [CollisionPair(Collider(f"b{i}.frame_a", Sphere(radius=RADIUS)),
                           Collider(f"b{k}.frame_a", Sphere(radius=RADIUS)), material)
             for i in range(n) for k in range(i + 1, n)] if meet else []
    return _run_jourdain(model, horizon, y0, z0, stepping, pairs, exact)


def jourdain_tower(horizon: float, boxes: int = 10) -> dict:
    """The stack of boxes at rest (stepping mode): each box's corners against the top face
    of the box below (the ground for the first); the drift of the centres from the start."""
    model = jd.Model(world=World())
    pairs, y0 = [], {}
    inertia = (MASS * SIZE**2 / 6,) * 3
    for k in range(boxes):
        joint = model.add(f"j{k}", FreeJoint())
        body = model.add(f"box{k}", RigidBody(m=MASS, I=inertia))
        model.connect(model.world.frame_b, joint.frame_a)
        model.connect(joint.frame_b, body.frame_a)
        below = Collider("world", Plane(normal=(0, 1, 0))) if k == 0 else \
            Collider(f"box{k - 1}.frame_a",
                     Plane(normal=(0, 1, 0), center=(0, SIZE / 2, 0)))
        pairs.append(CollisionPair(Collider(f"box{k}.frame_a", Box(size=(SIZE,) * 3)), below,
                                   ContactMaterial(mu=MU, e=0.0)))
        y0[f"j{k}.y"] = SIZE / 2 + SIZE * k
    out = _run_jourdain(model, horizon, y0, {}, True, pairs)
    if "positions" in out:
        start = np.array([[0.0, y0[f"j{k}.y"], 0.0] for k in range(boxes)])
        out["drift_m"] = float(np.abs(out.pop("positions") - start[:, :, None]).max())
    return out


def _run_jourdain(model, horizon: float, y0: dict, z0: dict, stepping: bool = False,
                  pairs=(), exact=None) -> dict:
    start = time.process_time()
    system = jd.compile(model)
    compile_s = time.process_time() - start
    grid = np.linspace(0, horizon, 1001)
    if stepping:
        return _run_stepping(system, horizon, y0, z0, pairs, grid, compile_s, exact)
    start = time.process_time()
    try:
        res = system.simulate(horizon, y0=y0, z0=z0, t_out=grid)
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


def _run_stepping(system, horizon, y0, z0, pairs, grid, compile_s, exact=None) -> dict:
    """The stepping run twice: the first builds and compiles the step (reported as
    compile time with the model's), the second is the simulation's cost."""
    options = dict(y0=y0, z0=z0, t_out=grid, contact="stepping", dt=DT, pairs=pairs,
                   exact=exact)
    start, wall = time.process_time(), time.perf_counter()
    system.simulate(horizon, **options)
    build_s = time.process_time() - start
    # gcc runs in a child process: its time is in the wall clock, not in process_time
    build_wall_s = time.perf_counter() - wall
    times = []
    for _ in range(REPEATS):
        start = time.process_time()
        res = system.simulate(horizon, **options)
        times.append(time.process_time() - start)
    sim_s = float(np.median(times))
    bodies = sorted({n.rsplit(".", 1)[0] for n in system.y_names})
    positions = np.array([[res[f"{b}.{c}"] for c in "xyz"] for b in bodies])
    return {"compile_s": compile_s + build_s, "build_wall_s": build_wall_s,
            "simulate_s": sim_s, "simulate_runs_s": times, "events": None,
            "segments": None, "energy": _at(res.t, res["energy.total"]),
            "lost_in_impacts": None, "ledger": dataclasses.asdict(res.ledger), "contacts": res.stats["contacts"],
            "stats": {k: v for k, v in res.stats.items() if k != "dt"},
            "energy_rise_max": float(np.max(np.diff(res["energy.total"]))),
            "positions": positions}


# ---- MuJoCo ----------------------------------------------------------------------------------
def mujoco_box(horizon: float) -> dict:
    r, q, v, w = box_start()
    xml = f"""<mujoco><option timestep="0.001" gravity="0 -{G} 0"/>
      <worldbody><geom type="plane" size="5 5 0.1" zaxis="0 1 0" friction="{MU} 0.005 0.0001"/>
        <body pos="{r[0]} {r[1]} {r[2]}" quat="{q[0]} {q[1]} {q[2]} {q[3]}"><freejoint/>
          <geom type="box" size="{SIZE / 2} {SIZE / 2} {SIZE / 2}" mass="{MASS}"
                friction="{MU} 0.005 0.0001"/></body></worldbody></mujoco>"""
    return _run_mujoco(xml, horizon, [(v, w)])


def mujoco_balls(n: int, horizon: float, meet: bool = False) -> dict:
    pos, vel = balls_start(n, apart=meet)
    affinity = 3 if meet else 1        # 3: a ball's contype 2 meets the other balls too
    walls = "".join(
        f'<geom type="plane" size="5 5 0.1" pos="{p}" zaxis="{a}" conaffinity="1" '
        f'contype="1" friction="{MU} 0.005 0.0001"/>'
        for p, a in (("0 0 0", "0 1 0"), (f"{-HALF} 0 0", "1 0 0"), (f"{HALF} 0 0", "-1 0 0"),
                     (f"0 0 {-HALF}", "0 0 1"), (f"0 0 {HALF}", "0 0 -1")))
    bodies = "".join(
        f'<body pos="{x} {y} {z}"><freejoint/><geom type="sphere" size="{RADIUS}" '
        f'mass="{BALL}" contype="2" conaffinity="{affinity}" friction="{MU} 0.005 0.0001"/>'
        "</body>"
        for x, y, z in pos)
    xml = (f'<mujoco><option timestep="0.001" gravity="0 -{G} 0"/><worldbody>{walls}{bodies}'
           "</worldbody></mujoco>")
    return _run_mujoco(xml, horizon, [(v, np.zeros(3)) for v in vel])


def mujoco_tower(horizon: float, boxes: int = 10) -> dict:
    """The stack of boxes in MuJoCo (box–box contacts); drift of the centres [m]."""
    bodies = "".join(
        f'<body pos="0 {SIZE / 2 + SIZE * k} 0"><freejoint/><geom type="box" '
        f'size="{SIZE / 2} {SIZE / 2} {SIZE / 2}" mass="{MASS}" friction="{MU} 0.005 0.0001"/>'
        "</body>" for k in range(boxes))
    xml = (f'<mujoco><option timestep="{DT}" gravity="0 -{G} 0"/><worldbody>'
           f'<geom type="plane" size="5 5 0.1" zaxis="0 1 0" friction="{MU} 0.005 0.0001"/>'
           f"{bodies}</worldbody></mujoco>")
    import mujoco
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    start_pos = data.qpos.reshape(boxes, 7)[:, :3].copy()
    drift, steps = 0.0, int(round(horizon / DT))
    start = time.process_time()
    for step in range(steps):
        mujoco.mj_step(model, data)
        if step % 10 == 9:
            drift = max(drift, float(np.abs(data.qpos.reshape(boxes, 7)[:, :3]
                                            - start_pos).max()))
    return {"compile_s": 0.0, "simulate_s": time.process_time() - start, "events": None,
            "segments": None, "energy": {}, "lost_in_impacts": None, "drift_m": drift,
            "steps": steps}


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
    state = mujoco.MjData(model)
    mujoco.mj_copyData(state, model, data)
    cpu = []
    for _ in range(REPEATS):
        mujoco.mj_copyData(data, model, state)
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
        cpu.append(time.process_time() - start)
    sim_s = float(np.median(cpu))
    return {"compile_s": compile_s, "simulate_s": sim_s, "events": None, "segments": None,
            "energy": dict(zip([f"{t:g}" for t in times], energy)), "lost_in_impacts": None,
            "steps": steps}


def _at(t: np.ndarray, values: np.ndarray) -> dict:
    return {f"{s:g}": float(np.interp(s, t, values)) for s in TIMES if s <= t[-1] + 1e-12}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--balls", type=int, default=100)
    parser.add_argument("--horizon", type=float, default=10.0)
    parser.add_argument("--modes", default="events,stepping",
                        help="jourdain's contact modes to run, comma-separated")
    parser.add_argument("--pair-balls", type=int, default=100)
    parser.add_argument("--pair-exact", action="store_true",
                        help="the balls meeting each other with exact=True (the slots' "
                             "position correction), a row of its own")
    parser.add_argument("--scenes", default="box,balls,pairs,tower,robots",
                        help="scenes to run, comma-separated")
    args = parser.parse_args()
    modes, h, n = args.modes.split(","), args.horizon, args.balls
    scenes = args.scenes.split(",")
    results = {}
    if "box" in scenes:
        results["box"] = {"mujoco": mujoco_box(h)}
        if "events" in modes:
            results["box"]["events"] = jourdain_box(h)
        if "stepping" in modes:
            results["box"]["stepping"] = jourdain_box(h, stepping=True)
    if "balls" in scenes:
        results[f"balls_{n}"] = {"mujoco": mujoco_balls(n, h)}
        if "events" in modes:
            results[f"balls_{n}"]["events"] = jourdain_balls(n, h)
        if "stepping" in modes:
            results[f"balls_{n}"]["stepping"] = jourdain_balls(n, h, stepping=True)
    if "pairs" in scenes and "stepping" in modes:
        k = args.pair_balls
        name = f"balls_pairs_{k}" + ("_exact" if args.pair_exact else "")
        results[name] = {"mujoco": mujoco_balls(k, h, meet=True),
                         "stepping": jourdain_balls(k, h, stepping=True, meet=True,
                                                    exact=True if args.pair_exact else None)}
    if "tower" in scenes and "stepping" in modes:
        results["tower"] = {"mujoco": mujoco_tower(h), "stepping": jourdain_tower(h)}
    _table(results)
    robots = robot_rows() if "robots" in scenes and "stepping" in modes else {}
    if robots:
        print_rows(robots)
    out = ROOT / "benchmarks" / "results" / "contact.json"
    # the scenes' tools run now replace theirs; the others' rows stay (a run of one scene
    # or one mode does not erase the rest; each row keeps the ratio to the MuJoCo run
    # beside it, stored with it)
    old = json.loads(out.read_text()) if out.exists() else {}
    if old.get("horizon_s") == h:
        kept = old.get("results", {})
        results = {**kept, **{scene: {**kept.get(scene, {}), **rows}
                              for scene, rows in results.items()}}
        robots = robots or old.get("robots_2s", {})
    out.write_text(json.dumps({"horizon_s": h, "dt_stepping_s": DT, "results": results,
                               "robots_2s": robots}, indent=2, default=float))
    print(f"results written to {out}")


def _table(results: dict) -> None:
    print(f"{'scene':16s} {'tool':9s} {'compile s':>9s} {'sim s':>8s} {'ratio':>6s} "
          f"{'events':>7s} {'pen. m':>8s} {'drift m':>8s}  energy at t = "
          + ", ".join(f"{t:g}" for t in TIMES) + " s [J]")
    for scene, runs in results.items():
        for tool, r in runs.items():
            r.pop("positions", None)
            energy = ", ".join(f"{r['energy'].get(f'{t:g}', float('nan')):.4f}" for t in TIMES)
            events = "-" if r.get("events") is None else str(r["events"])
            ratio = r["simulate_s"] / runs["mujoco"]["simulate_s"]
            r["ratio_to_mujoco"] = ratio
            r["mujoco_s_beside"] = runs["mujoco"]["simulate_s"]
            pen = r.get("ledger", {}).get("max_penetration")
            print(f"{scene:16s} {tool:9s} {r['compile_s']:9.2f} {r['simulate_s']:8.2f} "
                  f"{ratio:6.1f} {events:>7s} {'-' if pen is None else f'{pen:.1e}':>8s} "
                  f"{r['drift_m'] if 'drift_m' in r else float('nan'):8.1e}  {energy}")
            if r.get("failed"):
                print(f"{'':20s} FAILED: {r['failed'][:200]}")


if __name__ == "__main__":
    main()
