"""Modelica.Mechanics.MultiBody.Examples.Elementary.ThreeSprings in jourdain
=========================================================================

Three 3-D springs, two in series, hold a body: spring1 from bar1's end and spring3 from
bar2's end meet spring2 at a point with no mass (the MSL's point: line force elements can be
joined without a body at the connection point, so no stiff small mass is needed). jourdain
gives that junction three coordinates solved from the force balance at every step. The MSL
body has no joint (it is free); here a FreeJoint says so. Start as in the MSL: body1 at
r_0 = (0.5, −0.3, 0) at rest; the junction's start guess is the MSL's
spring1.lineForce.r_rel_0 start (−0.2, −0.2, 0.2) from bar1's end.

What you will see: the body bouncing on the springs for 10 s (StopTime as in the MSL), the
energy T + V conserved (no damping) and the force balance at the junction at round-off.
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import FixedTranslation, FreeJoint, RigidBody, Spring, World

model = jd.Model(world=World())
model.body1 = RigidBody(m=0.8, r_cm=(0, -0.2, 0), I=(0.1, 0.1, 0.1))
model.free = FreeJoint()                       # the MSL body is free: here explicitly
model.bar1 = FixedTranslation(r=(0.3, 0, 0))
model.bar2 = FixedTranslation(r=(0, 0, 0.3))
model.spring1 = Spring(c=20, s_unstretched=0.1, width=0.1, coilWidth=0.005)
model.spring2 = Spring(c=40, s_unstretched=0.1, width=0.1, coilWidth=0.005)
model.spring3 = Spring(c=20, s_unstretched=0.1, width=0.1, coilWidth=0.005)
c = model.connect
c(model.world.frame_b, model.bar1.frame_a)
c(model.world.frame_b, model.bar2.frame_a)
c(model.bar1.frame_b, model.spring1.frame_a)
c(model.bar2.frame_b, model.spring3.frame_a)
c(model.spring2.frame_b, model.body1.frame_a)
c(model.spring3.frame_b, model.spring1.frame_b)
c(model.spring2.frame_a, model.spring1.frame_b)
c(model.world.frame_b, model.free.frame_a)
c(model.free.frame_b, model.body1.frame_a)
system = jd.compile(model)
print("junction coordinates (solved from the force balance):",
      ", ".join(system.dependent_coordinates))

# %% start: body1 at rest at r_0 = (0.5, -0.3, 0); the junction starts from the MSL's guess
junction = np.array([0.3, 0, 0]) + np.array([-0.2, -0.2, 0.2])
init = system.initialize(y0={"free.x": 0.5, "free.y": -0.3, "free.z": 0.0},
                         guess={f"spring1.frame_b.{a}": v for a, v in zip("xyz", junction)})
print(init)
result = system.simulate(10.0, x0=init.x0, rtol=1e-10, atol=1e-10, n_out=1001)

# %% key numbers
E = result["energy.total"]
residual = max(np.abs(v).max() for k, v in result.series.items() if k.startswith("residual"))
print(f"energy drift over 10 s: {np.ptp(E):.3g} J (of {E[0]:.4g} J)")
print(f"max force balance residual at the junction: {residual:.3g} N")
print("body1 at t = 10 s: " + ", ".join(f"{a} = {result['free.' + a][-1]:.4f} m" for a in "xyz"))
result.plot("free.x", "free.y", "free.z", "spring1.frame_b.y", path="out/three_springs.png",
            title="MSL Elementary.ThreeSprings")
