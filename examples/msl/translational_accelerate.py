"""Modelica.Mechanics.Translational.Examples.Accelerate in jourdain
================================================================

Built as the MSL builds it: a mass m = 1 kg (Translational.Components.Mass) is moved with
the prescribed acceleration a_ref = 1 m/s² (a Constant block) by
Translational.Sources.Accelerate on its flange_a. The driver's coordinate has no equation of
motion left; its output f is the force it applies.

What you will see: 1 s (StopTime as in the MSL) of s = t²/2, v = t, and f = m·a = 1 N.
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import Constant, Mass, World
from jourdain.blocks.drivers import translational

model = jd.Model(world=World())
model.mass = Mass(m=1)
model.accelerate = translational.Accelerate()
model.constantAcc = Constant(k=1)
c = model.connect
c(model.accelerate.flange, model.mass.flange_a)
c(model.constantAcc.y, model.accelerate.a_ref)
system = jd.compile(model)

result = system.simulate(1.0, rtol=1e-10, atol=1e-10, n_out=1001)   # Interval 0.001 s
t = result.t
print(f"s(1 s) = {result['mass.s'][-1]:.10f} m (t²/2: 0.5), v(1 s) = "
      f"{result['mass.v'][-1]:.10f} m/s (t: 1)")
print(f"max errors: s {np.abs(result['mass.s'] - t**2 / 2).max():.3g} m, v "
      f"{np.abs(result['mass.v'] - t).max():.3g} m/s; driver force f = "
      f"{result['accelerate.f'].min():.6f} … {result['accelerate.f'].max():.6f} N (m·a = 1)")
result.plot("mass.s", "mass.v", "accelerate.f", path="out/translational_accelerate.png",
            title="MSL Translational.Examples.Accelerate")
