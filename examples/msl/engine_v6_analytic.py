"""Modelica.Mechanics.MultiBody.Examples.Loops.EngineV6_analytic in jourdain
=========================================================================

The MSL's V6 engine with "analytic loop handling": six cylinders whose slider–cranks are each
one JointRRP (the gas force between the assembly's ``bearing`` and ``axis`` flanges, the
connecting rod on frame_ia, the piston on frame_ib), one body for the whole crankshaft, the
load inertia behind a torque sensor, a quadratic load torque and the filtered engine torque
(``jourdain.library.EngineV6Analytic``). jourdain cuts each JointRRP at its middle revolute
and solves the six loops by Newton; the crank's mass properties (I_11 = 0.1 kg·m²,
I_22 = I_33 = 1e-5 kg·m², which break the triangle inequality of a body with mass) are a
body with I = 1e-5 kg·m² about every axis and an inertia without mass ``crank_inertia``
carrying the rest of I_11, as the r3 robot's b1.

What you will see: 0.5 s from the MSL's start (load.phi = 0, load.w = 10 rad/s; the crank at
0.2 rad, off cylinder 1's top dead centre) as the engine runs up. The assembly branch (every
connecting rod along its cylinder) is chosen as in the MSL, by s_guess = 0 of each JointRRP
(``guess=`` on the slider's coordinate). Reference: the energy
balance (the change of T + V equals the work of the gas forces and the load torque, the
power a Result reports as supplied minus dissipated) and the loop closure residual.
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import EngineV6Analytic

system = jd.compile(jd.Model.on_world(World(), engine=EngineV6Analytic()))
print(f"{len(system.dependent_coordinates)} dependent coordinates solved by Newton, "
      f"independent: {', '.join(system.independent_coordinates())}")

# %% the branch: each connecting rod along its cylinder, chosen as the MSL's JointRRP chooses it:
# by s_guess = 0 (the piston nearest the cylinder top), a guess of the slider's coordinate
guess = {f"engine.cylinder{i}.jointRRP.prismatic.s": 0.0 for i in range(1, 7)}
init = system.initialize(y0={"engine.bearing.phi": 0.2}, z0={"engine.bearing.w": 10.0},
                         guess=guess)
strokes = [init.x0[system.x_names.index(f"engine.cylinder{i}.jointRRP.prismatic.s")]
           for i in range(1, 7)]
print(f"pistons from the cylinder tops: {min(strokes):.4f} … {max(strokes):.4f} m (stroke "
      f"0.095 … 0.195 m)")

# %% the engine runs up
grid = np.linspace(0, 0.5, 5001)
result = system.simulate(0.5, x0=init.x0, t_out=grid, rtol=1e-9, atol=1e-9, progress=False)
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
            path="out/engine_v6_analytic.png", title="MSL Loops.EngineV6_analytic")
