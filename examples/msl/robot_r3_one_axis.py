"""Modelica.Mechanics.MultiBody.Examples.Systems.RobotR3.OneAxis in jourdain
=========================================================================

One axis of the Manutec r3 robot with a load inertia, built from the MSL's own components
(``jourdain.library.robot_r3``): ``PathPlanning1`` (KinematicPTP2 from 0° to 120°, 3 rad/s,
10 rad/s²) → ``Controller`` (P position loop, PI speed loop on the motor side, ratio 210) →
``Motor`` (the analog current controller of three ideal op-amps driving the armature Ra, La
and the EMF, rotor Jmotor) → ``GearType1`` (bearing friction with stiction on the motor
side, gear elasticity c = 8 N·m/rad, d = 0.01 N·m·s/rad, ideal gear 210) → the load
J = 1.3·15 kg·m². The MSL's parameters of axis 2; StopTime 1.6 s as the MSL.

Initialization as the MSL's: the joint at its reference at rest (InitializeFlange), the
gear's spring at rest (w_rel = a_rel = 0) and the motor's circuit steady (der(C.v) =
der(La.i) = 0), given to ``system.initialize`` (``library.robot_r3.initial_conditions``).

What you will see: the path's end angle and end time against the closed form of the
point-to-point profile, the final angle against the path's end angle and the largest
tracking error (the MSL's statement: the axis follows the reference), the motor current,
the friction element's stick/slip events, the energy balance (the op-amps' supplies, the
losses in resistors, dampers and friction) and out/robot_r3_one_axis.png.
"""
# %%
import time
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import World
from jourdain.library.robot_r3 import OneAxis, initial_conditions

model = jd.Model(world=World())
model.robot = OneAxis()
start = time.perf_counter()
system = jd.compile(model)
init = system.initialize(**initial_conditions(system, model.robot))
print(f"compiled and initialized in {time.perf_counter() - start:.2f} s; states "
      f"{', '.join(system.x_names)}")

# %% The reference: KinematicPTP2's closed form (accelerate, constant speed, decelerate)
path = model.robot.pathPlanning.ptp
dq, qd_max, qdd_max = np.radians(120.0), 3.0, 10.0
Ta = qd_max / qdd_max                                  # 0.3 s to full speed
Te = dq / qd_max + Ta                                   # 0.998 s to the end
print(f"path: endTime {path.endTime:.6f} s (closed form Δq/qd_max + qd_max/qdd_max = "
      f"{Te:.6f} s)")

# %% 1.6 s as the MSL (pathPlanning.stopTime = endTime + swingTime 0.5 s, rounded up)
start = time.perf_counter()
res = system.simulate(1.6, x0=init.x0, n_out=1601)
print(f"simulated 1.6 s in {time.perf_counter() - start:.2f} s, "
      f"{len(res.events.times('robot.axis.gear.bearingFriction'))} friction events")
q, q_ref = res["robot.load.phi"], res["robot.pathPlanning.q_split.y1"]
current = res["robot.axis.motor.hall1.i"]
print(f"path at its end: q_ref = {np.degrees(q_ref[-1]):.9f}° (end angle 120°)")
print(f"final angle {np.degrees(q[-1]):.4f}° (end angle 120°): error "
      f"{np.degrees(abs(q[-1] - np.radians(120.0))):.4f}°")
print(f"max tracking error |q - q_ref| = {np.degrees(np.abs(q - q_ref).max()):.4f}°")
print(f"motor current: peak {np.abs(current).max():.3f} A, final {current[-1]:.4f} A")
check = res.check()
print(f"energy balance {'holds' if check else 'FAILS'}: relative error "
      f"{check.energy_relative:.1e}")

# %% Figure
fig, ax = plt.subplots(3, 1, sharex=True, figsize=(7, 7))
ax[0].plot(res.t, np.degrees(q_ref), "k--", label="reference")
ax[0].plot(res.t, np.degrees(q), label="load angle")
ax[0].set_ylabel("angle [°]")
ax[1].plot(res.t, np.degrees(q - q_ref))
ax[1].set_ylabel("tracking error [°]")
ax[2].plot(res.t, current)
ax[2].set_ylabel("motor current [A]")
ax[2].set_xlabel("t [s]")
for a in ax:
    a.grid(True, alpha=0.3)
ax[0].legend(fontsize=8)
fig.suptitle("MSL RobotR3.OneAxis")
fig.tight_layout()
Path("out").mkdir(exist_ok=True)
fig.savefig("out/robot_r3_one_axis.png", dpi=110)
print("figure saved to out/robot_r3_one_axis.png")
