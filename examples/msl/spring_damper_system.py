"""Modelica.Mechanics.MultiBody.Examples.Elementary.SpringDamperSystem in jourdain
===============================================================================

Left: body1 (m = 1 kg, center of mass (0, −0.2, 0), I = 0.1 kg·m² about each axis), free in
space (a FreeJoint; the MSL's free body), hangs from the bar's end (0.3, 0, 0) on a 3-D
spring (c = 30 N/m, s_unstretched = 0.1 m) and a 3-D damper (d = 2 N·s/m); it starts at
r_0 = (0.3, −0.2, 0) at rest, turning at 2°/s about z. Right: body2 (1 kg) on a prismatic
joint along −y, 0.9 m from the origin, on a 3-D spring (c = 30 N/m, s_unstretched = 0.1 m),
from s = 0.1 m at rest.

What you will see: 10 s (StopTime as in the MSL). Reference: the energy balance
E(t) − E(0) + ∫(dissipated power) dt = 0 (the damper) and body2's closed form
s(t) = 0.1 + (m·g/c)·(1 − cos √(c/m)·t).
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import (Damper, FixedTranslation, FreeJoint, Prismatic, RigidBody, Spring,
                             World)

model = jd.Model(world=World())
model.body1 = RigidBody(m=1, r_cm=(0, -0.2, 0), I=(0.1, 0.1, 0.1))
model.free = FreeJoint()
model.bar1, model.bar2 = FixedTranslation(r=(0.3, 0, 0)), FixedTranslation(r=(0.6, 0, 0))
model.body2 = RigidBody(m=1)
model.p2 = Prismatic(n=(0, -1, 0))
model.spring2 = Spring(c=30, s_unstretched=0.1)
model.spring1 = Spring(c=30, s_unstretched=0.1)
model.damper1 = Damper(d=2)
c = model.connect
c(model.world.frame_b, model.bar1.frame_a)
c(model.bar1.frame_b, model.bar2.frame_a)
c(model.bar2.frame_b, model.p2.frame_a)
c(model.p2.frame_b, model.body2.frame_a)
c(model.bar2.frame_b, model.spring2.frame_a)
c(model.body2.frame_a, model.spring2.frame_b)
c(model.damper1.frame_a, model.bar1.frame_b)
c(model.spring1.frame_a, model.bar1.frame_b)
c(model.damper1.frame_b, model.body1.frame_a)
c(model.spring1.frame_b, model.body1.frame_a)
c(model.world.frame_b, model.free.frame_a)
c(model.free.frame_b, model.body1.frame_a)
system = jd.compile(model)

# %% 10 s from the MSL's start
result = system.simulate(10.0, y0={"free.x": 0.3, "free.y": -0.2, "p2.s": 0.1},
                         z0={"free.wz": np.radians(2)}, rtol=1e-10, atol=1e-10, n_out=4001)
E = result["energy.total"]
lost = cumulative_simpson(result["power.dissipated"], x=result.t, initial=0)
closed = 0.1 + 9.81 / 30 * (1 - np.cos(np.sqrt(30.0) * result.t))
print(f"body1 at 10 s: x = {result['free.x'][-1]:.5f} m, y = {result['free.y'][-1]:.5f} m")
print(f"energy balance: max |E - E(0) + dissipated| = {np.abs(E - E[0] + lost).max():.3g} J "
      f"(dissipated {lost[-1]:.4g} J)")
print(f"body2 vs the closed form: max |p2.s - s(t)| = "
      f"{np.abs(result['p2.s'] - closed).max():.3g} m")
result.plot("free.x", "free.y", "p2.s", path="out/spring_damper_system.png",
            title="MSL Elementary.SpringDamperSystem")
