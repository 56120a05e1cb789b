"""A thin disk rolling without slip on the ground
==============================================

The disk sits on a FreeJoint (position and unit quaternion, body-fixed angular velocity), and a
RollingContact block adds the contact: its height is a holonomic constraint (the center height
becomes a dependent coordinate, solved by Newton), the two no-slip conditions are velocity
constraints, so the generalized speeds are the three body rates and f = 5, g = 3 (nonholonomic constraints; Murray, Li and Sastry 1994).
You will see the classification, a leaning disk rolling on a curved path with its energy
conserved, and the closed-form critical speed of upright rolling, Ω_c = √(g/(3R)), checked by
simulating just below and just above it. Figure: out/rolling_disk.png.
"""
# %%
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import RollingDisk
from jourdain.library.wheel import disk_lean, upright_quaternion

R, m, g = 0.25, 1.0, 9.81

# %%
# Compile and classify.
system = jd.compile(jd.Model.on_world(World(), disk=RollingDisk(R=R, m=m)))
print(system.constraint_report())


def lean(res):
    return disk_lean(*(res[f"disk.joint.q{i}"] for i in range(4)))


# %%
# A leaning disk (0.3 rad) rolling and turning for 10 s.
y0 = upright_quaternion(heading=0.0, lean=0.3, prefix="disk.joint.")
res = system.simulate(10.0, y0=y0, z0={"disk.joint.wz": -12.0, "disk.joint.wy": 1.0},
                      rtol=1e-10, atol=1e-10, n_out=2001)
residual = max(np.abs(v).max() for k, v in res.series.items() if k.startswith("residual"))
E = res["energy.total"]
print(f"10 s of rolling: energy drift {np.ptp(E):.2e} J of {E[0]:.4f} J, "
      f"max contact residual {residual:.2e}")

# %%
# Critical speed of upright rolling: a small lean-rate kick below and above Ω_c.
Omega_c = np.sqrt(g / (3 * R))
print(f"closed-form critical spin Ω_c = √(g/(3R)) = {Omega_c:.4f} rad/s "
      f"(speed {Omega_c * R:.4f} m/s)")
sweep = {}
for ratio in (0.6, 0.9, 1.1, 1.5):
    run = system.simulate(1.5, z0={"disk.joint.wz": -ratio * Omega_c, "disk.joint.wx": 0.01},
                          rtol=1e-10, atol=1e-10, n_out=301)
    sweep[ratio] = run
    print(f"  Ω = {ratio:.1f}·Ω_c: max lean over 1.5 s {np.abs(lean(run)).max():.4f} rad")

# %%
# Figure: the path on the ground, energy, lean under the critical-speed sweep.
fig, axes = plt.subplots(1, 3, figsize=(13, 4))
axes[0].plot(res["disk.joint.x"], -res["disk.joint.z"])
axes[0].set(xlabel="x [m]", ylabel="−z [m]", title="center path (0.3 rad lean)", aspect="equal")
axes[1].plot(res.t, E - E[0])
axes[1].set(xlabel="t [s]", ylabel="E − E0 [J]", title="energy")
for ratio, run in sweep.items():
    axes[2].plot(run.t, lean(run), label=f"Ω = {ratio}·Ω_c")
axes[2].set(xlabel="t [s]", ylabel="lean [rad]", title="upright rolling, lean kick 0.01 rad/s")
axes[2].legend()
fig.tight_layout()
Path("out").mkdir(exist_ok=True)
fig.savefig("out/rolling_disk.png", dpi=120)
res.animate("out/rolling_disk.html", title="a disk rolling without slip")
print("saved out/rolling_disk.png and out/rolling_disk.html")
