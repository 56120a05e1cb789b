"""Modelica.Mechanics.MultiBody.Examples.Loops.Engine1b in jourdain
=================================================================

Engine1a with the combustion's gas force (GasForce2, L = 0.35 m, d = 0.1 m, between the
cylinder's support and axis; ``jourdain.library.Engine1(gasForce=True)``): the revolutes
B1, B2 and the prismatic Cylinder, the loop cut at B1. Engine1b_analytic is the same engine
with a JointRRP (engine1b_analytic.py).

What you will see: 1 s from the inertia's start (10 rad/s) as the engine runs up.
Reference: the energy balance (the change of T + V equals the gas force's work) and the
crank–slider's closed form of the piston's position.
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import Engine1

engine1b = jd.compile(jd.Model.on_world(World(), engine=Engine1(gasForce=True)))

# %% 1 s from 10 rad/s
start = {"y0": {"engine.Bearing.phi": 0.0}, "z0": {"engine.Bearing.w": 10.0}}
options = {"t_out": np.linspace(0, 1, 10001), "rtol": 1e-9, "atol": 1e-9, "progress": False}
result = engine1b.simulate(1.0, **start, **options)
E = result["energy.total"]
work = cumulative_simpson(result["power.supplied"] - result["power.dissipated"], x=result.t,
                          initial=0)
phi = result["engine.Bearing.phi"]
print(f"Engine1b: crank speed at 1 s {result['engine.Bearing.w'][-1]:.3f} rad/s, "
      f"{phi[-1] / (2 * np.pi):.2f} turns")
print(f"energy balance: max |E - E(0) - work| = {np.abs(E - E[0] - work).max():.3g} J "
      f"(E varies by {np.ptp(E):.4g} J)")
closed = 0.35 - 0.1 * np.cos(phi) - np.sqrt(0.04 - 0.01 * np.sin(phi) ** 2)
print(f"piston vs the closed form: max |Cylinder.s - s(φ)| = "
      f"{np.abs(result['engine.Cylinder.s'] - closed).max():.3g} m")
result.plot("engine.Bearing.w", "engine.Cylinder.s", path="out/engine1b.png",
            title="MSL Loops.Engine1b")
