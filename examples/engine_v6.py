"""The V6 engine of the Modelica Standard Library
==============================================

``Modelica.Mechanics.MultiBody.Examples.Loops.EngineV6`` rebuilt from its published sources
(``jourdain.library.EngineV6``): six cylinders, each a planar loop of crank, connecting rod
and piston with the MSL's gas force, all riding on one crankshaft — six closed loops and one
degree of freedom. The load inertia sits behind a torque sensor, a quadratic load torque
brakes it, and a critically damped filter smooths the measured engine torque.

What you will see: what the compiler found (seven coordinates per cylinder pair, one speed),
the MSL's experiment (1.01 s from 10 rad/s at rtol 1e-8) on the virtual machine and on
compiled C with their CPU times, the engine speed and torques at the end, the closure
residual, out/engine_v6.png (speed, engine torque and its filtered value) and
out/engine_v6.html (an animation of the first 0.2 s).
"""
# %%
import time
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import EngineV6

# %%
# Compile: six loops on one node of the articulated-body algorithm, one speed.
start = time.process_time()
system = jd.compile(jd.Model.on_world(World(), engine=EngineV6()))
print(f"compiled in {time.process_time() - start:.2f} s CPU: {len(system.y_names)} "
      f"coordinates, speeds {system.z_names}, filter states {system.s_names}")
print(f"dependent coordinates: {len(system.dependent_coordinates)} "
      f"({', '.join(system.dependent_coordinates[:2])}, ...)")
print(f"f: {system.functions['f'].n_instructions()} instructions")

# %%
# The MSL experiment: 1.01 s from load.w = 10 rad/s (the load turns with the bearing).
start_state = dict(y0={"engine.bearing.phi": 0.0}, z0={"engine.bearing.w": 10.0})
options = dict(rtol=1e-8, atol=1e-8, n_out=1011, method=jd.Method.ADAMS, progress=False)
begin = time.process_time()
res = system.simulate(1.01, **start_state, **options)
vm_cpu = time.process_time() - begin

# %%
# The same on compiled C (cached on disk: the second run loads it).
begin = time.time()
system.codegen()
build = time.time() - begin
begin = time.process_time()
res_c = system.simulate(1.01, **start_state, **options)
c_cpu = time.process_time() - begin
print(f"simulation of 1.01 s: {vm_cpu:.2f} s CPU on the virtual machine, {c_cpu:.2f} s on C "
      f"(C build or cache load {build:.1f} s)")

w = res["engine.bearing.w"]
print(f"engine speed at 1.01 s: {w[-1]:.2f} rad/s = {w[-1] * 30 / np.pi:.0f} rpm")
print(f"engine torque at 1.01 s: {res['engine.torqueSensor.tau'][-1]:.1f} N·m, filtered "
      f"{res['engine.filter.y'][-1]:.1f} N·m")
residual = max(np.abs(v).max() for k, v in res.series.items() if k.startswith("residual"))
print(f"max closure residual: {residual:.1e}")
print(f"C against the virtual machine: the speed at 1.01 s differs by "
      f"{abs(res_c['engine.bearing.w'][-1] - w[-1]):.1e} rad/s")

# %%
# Figure: speed and torques, as the MSL's documentation plots them (the 1 ms output grid
# samples the torque's firing pulses, three per revolution, coarsely at the end: the beats in
# the thin line are the sampling's, not the engine's).
fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
axes[0].plot(res.t, w * 30 / np.pi)
axes[0].set_ylabel("engine speed [rpm]")
axes[1].plot(res.t, res["engine.torqueSensor.tau"], lw=0.6, label="engine torque")
axes[1].plot(res.t, res["engine.filter.y"], label="filtered (critical damping, 5 Hz)")
axes[1].set(xlabel="t [s]", ylabel="torque [N·m]")
axes[1].legend(fontsize=8)
fig.tight_layout()
Path("out").mkdir(exist_ok=True)
fig.savefig("out/engine_v6.png", dpi=120)
print("saved out/engine_v6.png")

# %%
# Animation of the first 0.2 s (three.js player in the browser).
res.animate("out/engine_v6.html", title="EngineV6 (MSL), the first 0.2 s", t_range=(0.0, 0.2))
print("saved out/engine_v6.html")
