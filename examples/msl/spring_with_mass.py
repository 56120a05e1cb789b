"""Modelica.Mechanics.MultiBody.Examples.Elementary.SpringWithMass in jourdain
===========================================================================

A body (m = 1 kg, the MSL Body's default inertia 0.001 kg·m², free: a FreeJoint) hangs from
the world's origin on a 3-D spring with a mass of its own (Spring c = 40 N/m, s_unstretched =
0.2 m, m = 0.5 kg at the middle of the line); it starts at rest at r_0 = (0, −0.3, 0).

What you will see: 5 s (StopTime as in the MSL). Reference: the closed form of the vertical
oscillator it is, with the spring's mass moving at half the body's speed: effective mass
1 + 0.5/4 kg, equilibrium length 0.2 + (1 + 0.5/2)·g/c, so y(t) = −(L + (0.3 − L)·cos ωt)
with ω² = c/(1.125 kg); T + V conserved.
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import FreeJoint, RigidBody, Spring, World

model = jd.Model(world=World())
model.spring = Spring(s_unstretched=0.2, m=0.5, c=40)
model.body = RigidBody(m=1, I=(0.001, 0.001, 0.001))   # the MSL Body's default inertia
model.free = FreeJoint()
model.connect(model.world.frame_b, model.spring.frame_a)
model.connect(model.body.frame_a, model.spring.frame_b)
model.connect(model.world.frame_b, model.free.frame_a)
model.connect(model.free.frame_b, model.body.frame_a)
system = jd.compile(model)

# %% 5 s from rest at (0, −0.3, 0)
result = system.simulate(5.0, y0={"free.y": -0.3}, rtol=1e-10, atol=1e-10, n_out=1001)
L = 0.2 + 1.25 * 9.81 / 40
closed = -(L + (0.3 - L) * np.cos(np.sqrt(40 / 1.125) * result.t))
E = result["energy.total"]
print(f"body at 5 s: y = {result['free.y'][-1]:.6f} m (closed form {closed[-1]:.6f} m)")
print(f"vs the closed form: max |y - y(t)| = {np.abs(result['free.y'] - closed).max():.3g} m")
print(f"energy drift over 5 s: {np.ptp(E):.3g} J (kinetic up to "
      f"{result['energy.kinetic'].max():.4g} J)")
result.plot("free.y", "free.vy", path="out/spring_with_mass.png",
            title="MSL Elementary.SpringWithMass")
