"""Modelica.Mechanics.MultiBody.Examples.Loops.EngineV6 in jourdain
=================================================================

The MSL's V6 engine (``jourdain.library.EngineV6``, built from the MSL's Utilities.Cylinder
and GasForce2): six cylinders of crank webs, connecting rod and piston, each a planar loop
closed at the rod's bearing b1, on one crankshaft; the load inertia behind a torque sensor,
a quadratic load torque and the filtered engine torque. The gallery's examples/engine_v6.py
runs the MSL's 1.01 s on the virtual machine and on C; this one checks the energy balance.

What you will see: 0.5 s from the MSL's start (load.phi = 0, load.w = 10 rad/s; the crank at
0.2 rad, off cylinder 1's top dead centre) as the engine runs up. Reference: the energy
balance (the change of T + V equals the work of the gas forces and the load torque, the
power a Result reports as supplied minus dissipated) and the loop closure residual.
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import EngineV6

system = jd.compile(jd.Model.on_world(World(), engine=EngineV6()))
print(f"{len(system.dependent_coordinates)} dependent coordinates solved by Newton, "
      f"independent: {', '.join(system.independent_coordinates())}")

# %% the engine runs up
grid = np.linspace(0, 0.5, 5001)
result = system.simulate(0.5, y0={"engine.bearing.phi": 0.2}, z0={"engine.bearing.w": 10.0},
                         t_out=grid, rtol=1e-9, atol=1e-9, progress=False)
residual = max(np.abs(v).max() for k, v in result.series.items() if k.startswith("residual"))
E = result["energy.total"]
net = result["power.supplied"] - result["power.dissipated"]
work = cumulative_simpson(net, x=result.t, initial=0)
w = result["engine.bearing.w"]
print(f"engine speed at 0.5 s: {w[-1]:.2f} rad/s = {w[-1] * 30 / np.pi:.0f} rpm; torque "
      f"{result['engine.torqueSensor.tau'][-1]:.1f} N·m, filtered "
      f"{result['engine.filter.y'][-1]:.1f} N·m")
print(f"energy balance: max |E - E(0) - work| = {np.abs(E - E[0] - work).max():.3g} J "
      f"(E varies by {np.ptp(E):.4g} J)")
print(f"max loop closure residual over 0.5 s: {residual:.3g}")
result.plot("engine.bearing.w", "engine.torqueSensor.tau", "engine.filter.y",
            path="out/engine_v6_msl.png", title="MSL Loops.EngineV6")
