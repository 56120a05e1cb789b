"""Modelica.Mechanics.MultiBody.Examples.Elementary.SpringMassSystem in jourdain
=============================================================================

The MSL's two ways to use a force law, side by side: body1 (1 kg) on a prismatic joint p1
along −y whose axis carries a 1-D translational spring (c = 30 N/m) between its bearing and
axis, and body2 on p2 pulled by a 3-D Spring (c = 30 N/m, s_unstretched = 0.1 m) between
the bar and the body. The MSL's p1 has s_offset = 0.1 m (the spring relaxed at s = 0); here
the coordinate is the whole distance and the 1-D spring's rest length s_rel0 = 0.1 m. Both
start at rest with the springs relaxed (distance 0.1 m).

What you will see: 5 s (StopTime as in the MSL). Reference (the MSL's documentation): "the
same model is defined", so p1.s and p2.s agree; and the closed form of the harmonic
oscillator s(t) = 0.1 + (m·g/c)·(1 − cos √(c/m)·t).
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import (FixedTranslation, Prismatic, RigidBody, Spring,
                             TranslationalSpring, World)

model = jd.Model(world=World())
model.bar1, model.bar2 = FixedTranslation(r=(0.3, 0, 0)), FixedTranslation(r=(0.3, 0, 0))
model.p1, model.p2 = Prismatic(n=(0, -1, 0)), Prismatic(n=(0, -1, 0))
model.spring1 = TranslationalSpring(c=30, s_rel0=0.1)
model.spring2 = Spring(c=30, s_unstretched=0.1)
model.body1, model.body2 = RigidBody(m=1), RigidBody(m=1)
c = model.connect
c(model.body1.frame_a, model.p1.frame_b)
c(model.world.frame_b, model.bar1.frame_a)
c(model.bar1.frame_b, model.p1.frame_a)
c(model.p1.support, model.spring1.flange_a)
c(model.spring1.flange_b, model.p1.axis)
c(model.bar1.frame_b, model.bar2.frame_a)
c(model.bar2.frame_b, model.p2.frame_a)
c(model.p2.frame_b, model.body2.frame_a)
c(model.bar2.frame_b, model.spring2.frame_a)
c(model.body2.frame_a, model.spring2.frame_b)
system = jd.compile(model)

# %% 5 s from rest with relaxed springs
result = system.simulate(5.0, y0={"p1.s": 0.1, "p2.s": 0.1}, rtol=1e-10, atol=1e-10,
                         n_out=1001)
closed = 0.1 + 9.81 / 30 * (1 - np.cos(np.sqrt(30.0) * result.t))
print(f"p1.s(5 s) = {result['p1.s'][-1]:.6f} m, p2.s(5 s) = {result['p2.s'][-1]:.6f} m")
print(f"1-D spring vs 3-D spring: max |p1.s - p2.s| = "
      f"{np.abs(result['p1.s'] - result['p2.s']).max():.3g} m")
print(f"vs the closed form: max |p1.s - s(t)| = {np.abs(result['p1.s'] - closed).max():.3g} m")
result.plot("p1.s", "p2.s", path="out/spring_mass_system.png",
            title="MSL Elementary.SpringMassSystem")
