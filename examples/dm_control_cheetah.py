"""The dm_control cheetah from its MJCF file, trotting open loop
=============================================================

Contact between bodies from the model file, at physics-engine speed, side by side with
MuJoCo on the same file.

What: the planar cheetah of the DeepMind Control Suite (tests/data/dm_control/cheetah.xml:
a torso and head, two legs of three links, eight capsules, six actuated hinges with
ranges), imported with its collision geometry and joint ranges
(``from_mjcf(path, contacts=True, stops=True)``: its capsules against the floor, the
capsule pairs between its links, a rigid stop at each end of each range), a ``Motor`` on
each actuated joint with the file's gear, open-loop torques u_k = 0.5·sin(2π·2 Hz·t + k)
held over each step, 2 s at the file's 10 ms step in the stepping contact mode (rigid
contact, exact complementarity, Coulomb's cone); and, when MuJoCo is installed, the same
file, torques and step in ``mj_step``.
Why: a legged robot's contacts come from its model file, and a controller or a learning
loop runs it thousands of times: each run must be cheap, and still say what it can vouch
for (the ledger: no penetration, no energy gained at an impact).
You will see: the contacts (near: stops and floor contacts; far: the links' pairs, left out
of the steps on which they stay open), the root height at the end in both tools (MuJoCo's
soft contact sinks by about a centimetre), the ledger, the CPU time of a run in both and
their ratio, the figure out/dm_control_cheetah.png and the animation
out/dm_control_cheetah.html.
"""
# %%
import time
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import World
from jourdain.blocks.actuators import Motor
from jourdain.solver.stepping import dormant, run
from jourdain.solver.stepping.scene import RowSpec

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "tests" / "data" / "dm_control" / "cheetah.xml"
OUT = Path("out")
OUT.mkdir(exist_ok=True)
HORIZON, DT, AMPLITUDE, FREQUENCY = 2.0, 0.01, 0.5, 2.0
# the actuated joints of cheetah.xml and their gears (its <motor joint=... gear=...>)
GEARS = {m.get("joint"): float(m.get("gear")) for m in ET.parse(FILE).find("actuator").iter("motor")}


def controls(t):
    """u_k(t), one row per actuator (the same in both tools)."""
    return np.array([AMPLITUDE * np.sin(2 * np.pi * FREQUENCY * t + k)
                     for k in range(len(GEARS))])


# %%
# The robot with its contacts, a motor on each actuated joint
with warnings.catch_warnings():
    warnings.simplefilter("ignore")          # the importer's notes (lights, cameras, ...)
    robot = jd.from_mjcf(FILE, contacts=True, stops=True)
model = jd.Model.on_world(World(g=robot.gravity), r=robot)
for joint in GEARS:
    motor = model.add(f"m_{joint}", Motor())
    model.connect(motor.flange_b, robot.joints[joint].axis)
system = jd.compile(model)
near, far = dormant.split(system, run._specs(system, ()))
stops = sum(isinstance(s, RowSpec) for s in near)
print(f"contacts: near {stops} stop rows and {len(near) - stops} capsules on the floor, "
      f"far {len(far)} capsule pairs between links")

grid = np.arange(0.0, HORIZON + DT / 2, DT)
inputs = {f"m_{j}.tau": (grid, gear * u) for (j, gear), u in zip(GEARS.items(),
                                                                   controls(grid))}
options = dict(contact="stepping", dt=DT, t_out=grid, inputs=inputs)
res = system.simulate(HORIZON, **options)          # the first run compiles the step (cached)
times = []
for _ in range(5):
    start = time.process_time()
    res = system.simulate(HORIZON, **options)
    times.append(time.process_time() - start)
jd_cpu = float(np.median(times))
height = res["r.rootz.s"]
print(f"jourdain: {res.stats['contacts']} contacts, root height at t = 2 s "
      f"{height[-1]:+.4f} m, CPU {1e3 * jd_cpu:.1f} ms a run (median of 5)")
print(res.ledger.table())

# %%
# MuJoCo on the same file (optional: pip install mujoco)
try:
    import mujoco
except ImportError:
    mujoco = None
if mujoco is not None:
    mj = mujoco.MjModel.from_xml_path(str(FILE))
    data = mujoco.MjData(mj)
    steps = int(round(HORIZON / mj.opt.timestep))
    u = controls(np.arange(steps) * mj.opt.timestep)
    rootz = mj.jnt_qposadr[mujoco.mj_name2id(mj, mujoco.mjtObj.mjOBJ_JOINT, "rootz")]
    mj_times, mj_height = [], np.zeros(steps + 1)
    for _ in range(5):
        mujoco.mj_resetData(mj, data)
        start = time.process_time()
        for k in range(steps):
            data.ctrl[:] = u[:, k]
            mujoco.mj_step(mj, data)
            mj_height[k + 1] = data.qpos[rootz] - mj.qpos0[rootz]
        mj_times.append(time.process_time() - start)
    mj_cpu = float(np.median(mj_times))
    print(f"MuJoCo:   root height at t = 2 s {mj_height[-1]:+.4f} m, CPU "
          f"{1e3 * mj_cpu:.1f} ms a run (median of 5); ratio {jd_cpu / mj_cpu:.2f}")

# %%
# The figure and the animation
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

fig, ax = plt.subplots(figsize=(7, 3.5))
ax.plot(res.t, height, label="jourdain (stepping, rigid)")
if mujoco is not None:
    ax.plot(np.arange(steps + 1) * mj.opt.timestep, mj_height, "--", label="MuJoCo (soft)")
ax.set_xlabel("t [s]")
ax.set_ylabel("root height from the file's pose [m]")
ax.set_title("dm_control cheetah, open-loop trot")
ax.legend()
fig.tight_layout()
fig.savefig(OUT / "dm_control_cheetah.png", dpi=120)
res.animate(OUT / "dm_control_cheetah.html", title="dm_control cheetah, open-loop trot")
print("saved", OUT / "dm_control_cheetah.png", "and", OUT / "dm_control_cheetah.html")
