"""Modelica.Mechanics.MultiBody.Examples.Loops.Engine1a in jourdain
=================================================================

The mechanical part of one cylinder of an engine, built solely from revolute and prismatic
joints (``jourdain.library.Engine1``, the MSL's parts and dimensions): crankshaft webs on
the bearing with the output inertia (J = 1 kg·m², starting at 10 rad/s), connecting rod
(0.2 m) and piston in the cylinder; no combustion. The loop is closed at the crank pin's
joint B1 (the MSL's RevolutePlanarLoopConstraint; here the compiler keeps the independent
closure equations of the planar loop).

What you will see: 5 s (StopTime as in the MSL). Reference: the crank–slider's closed form
of the piston's position, Cylinder.s = 0.35 − 0.1·cos φ − √(0.04 − 0.01·sin² φ), and T + V
conserved (no friction, no gas force).
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import Engine1

system = jd.compile(jd.Model.on_world(World(), engine=Engine1()))
print("independent coordinates:", ", ".join(system.independent_coordinates()))

# %% 5 s from the inertia's start, 10 rad/s
result = system.simulate(5.0, y0={"engine.Bearing.phi": 0.0}, z0={"engine.Bearing.w": 10.0},
                         rtol=1e-10, atol=1e-10, n_out=1001)
phi = result["engine.Bearing.phi"]
closed = 0.35 - 0.1 * np.cos(phi) - np.sqrt(0.04 - 0.01 * np.sin(phi) ** 2)
E = result["energy.total"]
residual = max(np.abs(v).max() for k, v in result.series.items() if k.startswith("residual"))
print(f"crank angle at 5 s: {phi[-1]:.4f} rad ({phi[-1] / (2 * np.pi):.2f} turns)")
print(f"piston vs the closed form: max |Cylinder.s - s(φ)| = "
      f"{np.abs(result['engine.Cylinder.s'] - closed).max():.3g} m")
print(f"energy drift over 5 s: {np.ptp(E):.3g} J (kinetic up to "
      f"{result['energy.kinetic'].max():.4g} J)")
print(f"max loop closure residual over 5 s: {residual:.3g}")
result.plot("engine.Bearing.w", "engine.Cylinder.s", path="out/engine1a.png",
            title="MSL Loops.Engine1a")
