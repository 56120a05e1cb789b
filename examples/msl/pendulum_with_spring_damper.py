"""Modelica.Mechanics.MultiBody.Examples.Elementary.PendulumWithSpringDamper in jourdain
=====================================================================================

A body (m = 1 kg, I = diag(1, 1, 1) kg·m²) on a revolute joint about z and a prismatic joint
along x (s starts at 0.5 m), 0.3 m from the world's origin; a 3-D spring (c = 20 N/m,
s_unstretched = 0.2 m) and a 3-D damper (d = 1 N·s/m) between the bar's end and the body.

What you will see: 10 s (StopTime as in the MSL) from rest. Reference: the energy balance
E(t) − E(0) + ∫d·ṡ² dt = 0, where the damper's rate of extension ṡ is the prismatic joint's
speed (both line forces run from the revolute's centre to the body), and two back ends of
the equations of motion agree (the projection and the recursive articulated-body algorithm).
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import Damper, FixedTranslation, Prismatic, Revolute, RigidBody, Spring, World

model = jd.Model(world=World())
model.body1 = RigidBody(m=1, I=(1, 1, 1))
model.bar1 = FixedTranslation(r=(0.3, 0, 0))
model.spring1 = Spring(c=20, s_unstretched=0.2)
model.damper1 = Damper(d=1)
model.revolute, model.prismatic = Revolute(), Prismatic(n=(1, 0, 0))
c = model.connect
c(model.world.frame_b, model.bar1.frame_a)
c(model.revolute.frame_a, model.bar1.frame_b)
c(model.prismatic.frame_a, model.revolute.frame_b)
c(model.damper1.frame_a, model.bar1.frame_b)
c(model.damper1.frame_b, model.prismatic.frame_b)
c(model.spring1.frame_a, model.bar1.frame_b)
c(model.spring1.frame_b, model.prismatic.frame_b)
c(model.body1.frame_a, model.prismatic.frame_b)
system = jd.compile(model, backend=jd.Backend.PROJECTION)
recursive = jd.compile(model, backend=jd.Backend.RECURSIVE)

# %% 10 s from rest, s = 0.5 m
start = {"y0": {"revolute.phi": 0.0, "prismatic.s": 0.5}, "rtol": 1e-10, "atol": 1e-10,
         "n_out": 2001}
result, other = system.simulate(10.0, **start), recursive.simulate(10.0, **start)
E = result["energy.total"]
lost = cumulative_simpson(1.0 * result["prismatic.v"] ** 2, x=result.t, initial=0)
diff = max(np.abs(result[n] - other[n]).max() for n in ("revolute.phi", "prismatic.s"))
print(f"revolute.phi(10 s) = {result['revolute.phi'][-1]:.6f} rad, prismatic.s(10 s) = "
      f"{result['prismatic.s'][-1]:.6f} m")
print(f"energy balance: max |E - E(0) + ∫d·v² dt| = {np.abs(E - E[0] + lost).max():.3g} J "
      f"(dissipated {lost[-1]:.4g} J)")
print(f"projection vs recursive back end: max difference {diff:.3g}")
result.plot("revolute.phi", "prismatic.s", path="out/pendulum_with_spring_damper.png",
            title="MSL Elementary.PendulumWithSpringDamper")
