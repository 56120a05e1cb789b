"""One robot axis: cascade controller, DC motor, elastic gearbox and arm
======================================================================

Reference motion → P-PI-PI cascade controller → DC motor on an H-bridge → elastic gearbox
(ratio 210) → arm link, in the style of the Modelica Standard Library's
``Mechanics.MultiBody.Examples.Systems.RobotR3.OneAxis``.

What: the library's RobotAxis moves the arm from 0 to 120° along a KinematicPTP reference
(3 rad/s, 10 rad/s²) and holds it; the experiment of OneAxis (1.6 s). A second run with a
rigid gear shows the motor inertia reflected to the joint (ratio²·J_motor in the mass matrix).
Why: a drive train across domains — electrical (armature circuit, H-bridge), 1-D mechanical
(motor rotor, gear elasticity, ideal gear) and multibody (the arm on its joint) — closed by
signal blocks, simulated as one model.
You will see: the tracking error, the peak current and voltage, the final position error, the
rigid-gear mass matrix against J_load + ratio²·J_motor, timing, and out/robot_axis.png.
"""
# %%
# Imports
import time
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import RobotAxis

# %%
# The axis with OneAxis' elastic gear (c = 8 N·m/rad, cd = 0.01 N·m·s/rad on the motor side)
start = time.perf_counter()
axis = jd.compile(jd.Model.on_world(World(), axis=RobotAxis()))
compiled = time.perf_counter() - start
print(axis.report())
start = time.perf_counter()
run = axis.simulate(1.6, n_out=801, rtol=1e-8, atol=1e-8)
simulated = time.perf_counter() - start
q, q_ref = run["axis.joint.phi"], run["axis.reference.q"]
current, voltage = run["axis.drive.ammeter.i"], run["axis.current_controller.y"]
print(f"compile {compiled:.2f} s, simulate 1.6 s in {simulated:.3f} s")
print(f"tracking: max |q − q_ref| = {np.degrees(np.abs(q - q_ref).max()):.3f}°, final error "
      f"{np.degrees(abs(q[-1] - q_ref[-1])):.2e}° at q = {np.degrees(q[-1]):.3f}°")
print(f"drive: peak current {np.abs(current).max():.2f} A, peak voltage command "
      f"{np.abs(voltage).max():.1f} V (supply 300 V)")

# %%
# A rigid gear: the motor inertia appears reflected at the joint
rigid = jd.compile(jd.Model.on_world(World(), axis=RobotAxis(c=None)))
M = float(np.array(rigid.M(rigid.y_default, []))[0, 0])
print(f"rigid gear: {len(rigid.y_names)} coordinate(s) {rigid.y_names}, mass matrix {M:.4f} "
      f"kg·m² = J_load 19.5 + 210²·0.0013 = {19.5 + 210 ** 2 * 0.0013:.4f}")
rigid_run = rigid.simulate(1.6, n_out=801)
print(f"rigid gear tracking: max |q − q_ref| = "
      f"{np.degrees(np.abs(rigid_run['axis.joint.phi'] - q_ref).max()):.3f}°")

# %%
# Figure
fig, ax = plt.subplots(3, 1, sharex=True, figsize=(7, 7))
ax[0].plot(run.t, np.degrees(q_ref), "k--", label="reference")
ax[0].plot(run.t, np.degrees(q), label="elastic gear")
ax[0].plot(rigid_run.t, np.degrees(rigid_run["axis.joint.phi"]), ":", label="rigid gear")
ax[0].set_ylabel("joint angle [°]")
ax[1].plot(run.t, np.degrees(q - q_ref))
ax[1].set_ylabel("tracking error [°]")
ax[2].plot(run.t, current, label="armature current [A]")
ax[2].plot(run.t, voltage / 10, label="voltage command / 10 [V]")
ax[2].set_xlabel("t [s]")
for a in ax:
    a.legend(fontsize=7) if a.get_legend_handles_labels()[0] else None
    a.grid(True, alpha=0.3)
fig.suptitle("Robot axis (after Modelica's RobotR3.OneAxis)")
fig.tight_layout()
Path("out").mkdir(exist_ok=True)
fig.savefig("out/robot_axis.png", dpi=120)
print("figure saved to out/robot_axis.png")
