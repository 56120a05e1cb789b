"""Modelica.Mechanics.MultiBody.Examples.Elementary.RollingWheel in jourdain
=========================================================================

A RollingWheel (radius 0.3 m, m = 2 kg, I_axis = 0.06, I_long = 0.12 kg·m²) on the ground
z = 0 (gravity along −z, as the MSL requires) starts upright at x = y = 0.2 m with the MSL's
start rates der_angles = (0, 5, 1) rad/s about z, x and y (heading, lean, rolling).

What you will see: 4 s (StopTime as in the MSL). Reference: ideal rolling does no work, so
T + V is conserved; the contact's holonomic and no-slip residuals stay at round-off.
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import RollingWheel, World

model = jd.Model(world=World(g=(0, 0, -9.81)))
model.wheel1 = RollingWheel(radius=0.3, m=2, I_axis=0.06, I_long=0.12)
system = jd.compile(model)
print("independent coordinates:", ", ".join(system.independent_coordinates()))

# %% 4 s from the MSL's start values
w = "wheel1."
result = system.simulate(4.0, y0={w + "x.s": 0.2, w + "y.s": 0.2, w + "z.s": 0.3},
                         z0={w + "heading.w": 0.0, w + "lean.w": 5.0, w + "rolling.w": 1.0},
                         rtol=1e-10, atol=1e-10, n_out=801)
E = result["energy.total"]
residual = max(np.abs(v).max() for k, v in result.series.items() if k.startswith("residual"))
print(f"at 4 s: x = {result[w + 'x.s'][-1]:.4f} m, y = {result[w + 'y.s'][-1]:.4f} m, "
      f"lean {result[w + 'lean.phi'][-1]:.4f} rad")
print(f"energy drift over 4 s: {np.ptp(E):.3g} J (kinetic up to "
      f"{result['energy.kinetic'].max():.4g} J)")
print(f"max contact residual over 4 s: {residual:.3g}")
result.plot(w + "x.s", w + "y.s", w + "lean.phi", w + "heading.phi",
            path="out/rolling_wheel.png", title="MSL Elementary.RollingWheel")
