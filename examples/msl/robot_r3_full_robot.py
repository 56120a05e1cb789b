"""Modelica.Mechanics.MultiBody.Examples.Systems.RobotR3.FullRobot in jourdain
===========================================================================

The six-axis Manutec r3 robot built from the MSL's own components
(``jourdain.library.robot_r3``): ``MechanicalStructure`` (six revolutes, the MSL's bodies and
a 15 kg load at rLoad = (0.1, 0.25, 0.1) m, gravity along −y), ``PathPlanning6``
(KinematicPTP2: all axes from their start to their end angles, synchronized) and six axes,
each a ``Controller`` → ``Motor`` (analog current controller of three ideal op-amps) →
gear: ``GearType1`` for axes 1-3 (stiction on the motor side, elasticity), ``GearType2`` for
axes 4-6 (rigid, stiction on the joint side). The MSL's parameters; StopTime 2 s.

Initialization as the MSL's: every joint at its reference's start angle and at rest, the
gears' springs at rest, the motors' circuits steady (``initial_conditions``); the speed
controllers' integrators then carry the gravity torques.

What you will see: the path's end time against the closed form of the synchronized profile,
each axis' final angle against its end angle and its largest tracking error (the MSL's
statement: the robot follows the reference), the motors' peak currents, the energy balance
and out/robot_r3_full_robot.png.
"""
# %%
import time
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import World
from jourdain.library.robot_r3 import FullRobot, initial_conditions

model = jd.Model.on_world(World(), robot=FullRobot())   # World(): gravity 9.81 m/s² along −y
start = time.perf_counter()
system = jd.compile(model)
init = system.initialize(**initial_conditions(system, model.robot))
print(f"compiled and initialized in {time.perf_counter() - start:.2f} s: "
      f"{len(system.x_names)} states")

# %% The reference: one path parameter for all axes, the most demanding one at its limits
ptp = model.robot.pathPlanning.ptp
dq = np.abs(ptp.q_end - ptp.q_begin)
sd, sdd = np.min(ptp.qd_max / dq), np.min(ptp.qdd_max / dq)
Te = 1 / sd + sd / sdd if sd / sdd < np.sqrt(1 / sdd) else 2 * np.sqrt(1 / sdd)
print(f"path: endTime {ptp.endTime:.6f} s (closed form {Te:.6f} s)")

# %% 2 s as the MSL
start = time.perf_counter()
res = system.simulate(2.0, x0=init.x0, n_out=2001)
print(f"simulated 2 s in {time.perf_counter() - start:.1f} s, {len(res.events.times())} events")
worst_final = worst_track = 0.0
for k in range(1, 7):
    q, q_ref = res[f"robot.mechanics.r{k}.phi"], res[f"robot.pathPlanning.q_split.y{k}"]
    i = res[f"robot.axis{k}.motor.hall1.i"]
    final, track = np.degrees(abs(q[-1] - ptp.q_end[k - 1])), np.degrees(np.abs(q - q_ref).max())
    worst_final, worst_track = max(worst_final, final), max(worst_track, track)
    print(f"axis {k}: final {np.degrees(q[-1]):9.4f}° (end {np.degrees(ptp.q_end[k - 1]):6.1f}°), "
          f"max tracking error {track:.4f}°, peak current {np.abs(i).max():.3f} A")
print(f"all axes: largest final error {worst_final:.4f}°, largest tracking error "
      f"{worst_track:.4f}°")
check = res.check()
print(f"energy balance {'holds' if check else 'FAILS'}: relative error "
      f"{check.energy_relative:.1e}")

# %% Figure: axis 3 as the MSL's plot script, and the tracking errors of all axes
fig, ax = plt.subplots(3, 1, sharex=True, figsize=(7, 8))
for k in range(1, 7):
    q, q_ref = res[f"robot.mechanics.r{k}.phi"], res[f"robot.pathPlanning.q_split.y{k}"]
    ax[0].plot(res.t, np.degrees(q), label=f"axis {k}")
    ax[1].plot(res.t, np.degrees(q - q_ref), label=f"axis {k}")
    ax[2].plot(res.t, res[f"robot.axis{k}.motor.hall1.i"], label=f"axis {k}")
ax[0].set_ylabel("joint angle [°]")
ax[1].set_ylabel("tracking error [°]")
ax[2].set_ylabel("motor current [A]")
ax[2].set_xlabel("t [s]")
for a in ax:
    a.grid(True, alpha=0.3)
ax[0].legend(fontsize=7, ncol=3)
fig.suptitle("MSL RobotR3.FullRobot")
fig.tight_layout()
Path("out").mkdir(exist_ok=True)
fig.savefig("out/robot_r3_full_robot.png", dpi=110)
print("figure saved to out/robot_r3_full_robot.png")
