"""A robot arm with joint friction and joint limits from its URDF file
======================================================================

What: the Unitree Z1 arm of the example-robot-data package (six joints and a gripper, each
with ``<dynamics damping friction>``: 1–2 N·m of dry friction) imported twice — once with
its friction as Coulomb friction with true stiction (``friction=True``: MSL's
BearingFriction on every joint) and once with damping only — both with their limits as
plastic stops (``stops=True``), released from a bent pose without motors.
Why: what holds a real arm still is friction in its joints; a regularized friction law lets
it creep, MuJoCo's frictionloss too (soft). With stiction the joints whose holding torque
stays below their friction do not move at all, the others break away, slide against the
file's friction torque and stick again; a joint that lands on its stop rests there.
You will see: the stick/slip and impact events, the joints that never moved (to machine
precision), the energy the friction took, the friction torque of a sliding joint against
the file's value, and out/robot_friction.png.
"""
# %%
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.blocks.hybrid import FrictionMode  # noqa: E402
from jourdain.solver.exchange import UnsupportedWarning, example_robot  # noqa: E402

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)
URDF = example_robot("z1_description/urdf/z1.urdf")
POSE = {"joint2": 0.5, "joint3": -2.0, "joint5": 1.0}    # [rad], the rest at 0


def released(friction: bool):
    """(robot, system, result) of the arm released from POSE for 1.5 s."""
    with warnings.catch_warnings():     # <gazebo>, <transmission>: named, not needed here
        warnings.simplefilter("ignore", UnsupportedWarning)
        robot = jd.from_urdf(URDF, friction=friction, stops=True, require_meshes=False)
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), z1=robot))
    y0 = {robot.coordinate_names(j)[0]: q for j, q in POSE.items()}
    return robot, system, system.simulate(1.5, y0=y0, n_out=301)


# %%
# With stiction: the event log of stick, slip and impacts
robot, system, res = released(friction=True)
print(robot.report().splitlines()[2])          # one joint line: limits and friction
print(f"{len(res.events)} events:")
print(res.events.table())
held = [j for j in robot.joints
        if np.all(res[f"z1.{j}_friction.mode"] == FrictionMode.STUCK)]
moved = {j: float(np.abs(res[f"z1.{j}.phi"] - res[f"z1.{j}.phi"][0]).max()) for j in held}
print("never slipped: " + ", ".join(f"{j} (moved {d:.1e} rad)" for j, d in moved.items()))
T, V = (np.array([float(system.energy(res.x[:, k], system.p_default)[i])
                  for k in range(res.x.shape[1])]) for i in (0, 1))
print(f"energy T + V: {T[0] + V[0]:.4f} J at release, {T[-1] + V[-1]:.4f} J at 1.5 s "
      f"(friction, damping and the impacts took {T[0] + V[0] - T[-1] - V[-1]:.4f} J)")
sliding = res["z1.joint3_friction.mode"] != FrictionMode.STUCK
tau = np.abs(res["z1.joint3_friction.tau"][sliding])
print(f"joint3 sliding: friction torque {tau.min():.12f} … {tau.max():.12f} N·m "
      f"(file: {robot.joint_info['joint3'].friction} N·m)")

# %%
# Damping only: the same arm without its dry friction
_, _, free = released(friction=False)
for j in ("joint1", "joint2", "joint3", "joint4", "joint5"):
    print(f"{j}: final angle {res[f'z1.{j}.phi'][-1]:+.4f} rad with stiction, "
          f"{free[f'z1.{j}.phi'][-1]:+.4f} rad with damping only")

# %%
# Figure
fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
for ax, run, title in ((axes[0], res, "friction=True (stiction)"),
                       (axes[1], free, "damping only")):
    for j in ("joint1", "joint2", "joint3", "joint4", "joint5"):
        ax.plot(run.t, run[f"z1.{j}.phi"], label=j)
    ax.set(title=title, xlabel="t [s]")
axes[0].set_ylabel("joint angle [rad]")
axes[1].legend()
fig.tight_layout()
fig.savefig(OUT / "robot_friction.png", dpi=100)
print("figure: out/robot_friction.png")
