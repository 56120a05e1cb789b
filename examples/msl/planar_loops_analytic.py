"""Modelica.Mechanics.MultiBody.Examples.Loops.PlanarLoops_analytic in jourdain
============================================================================

Three coupled planar loops with one degree of freedom, driven by a position source: the
crank ``rev`` follows phi_ref = 0.7·sin(2π·t) (Rotational.Sources.Position with its default
exact = false: the reference passes the MSL's critically damped filter, f_crit = 50 Hz)
whose support is a Mounting1D on the world. Each loop is the MSL's JointRRR: three revolutes
with parallel axes joined by two rods, given by rRod1_ia and rRod2_ib, and a 1 kg body on
the first rod at its middle.

The MSL solves these loops analytically inside JointRRR; jourdain's JointRRR
(jourdain.blocks.multibody) keeps its frames, rods and flanges but is made of three revolutes:
the topology stage cuts each loop at the assembly's revolute_b, and coordinate partitioning
solves the six dependent angles by Newton at every step. The driven crank is
not a degree of freedom, so no equation of motion is left: the driver's torque is an output.

What you will see: 5 s (StopTime as in the MSL). Reference: the loop closure residual at
round-off, and the driver's work ∫tau·w dt equal to the change of T + V (no friction).
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import (FixedTranslation, JointRRR, Mounting1D, Revolute, RigidBody,
                             Sine, World)
from jourdain.blocks.drivers import rotational

rh, rv = np.array([0.5, 0, 0]), np.array([0, 0.5, 0])
r1b = np.array([0.1, 0.5, 0])
r1a = r1b + rh - rv
r2b = np.array([0.1, 0.6, 0])
r2a = r2b + rh - r1b
r3b = np.array([0, 0.55, 0])
r3a = r3b + rh - r2b


model = jd.Model(world=World())
model.rev = Revolute()
model.rod1, model.rod2 = FixedTranslation(r=tuple(rv)), FixedTranslation(r=tuple(rh))
model.rod3, model.rod4 = FixedTranslation(r=tuple(rh)), FixedTranslation(r=tuple(rh))
model.jointRRR1, model.jointRRR2 = JointRRR(rRod1_ia=r1a, rRod2_ib=r1b), \
    JointRRR(rRod1_ia=r2a, rRod2_ib=r2b)
model.jointRRR3 = JointRRR(rRod1_ia=r3a, rRod2_ib=r3b)
for i, ra in enumerate((r1a, r2a, r3a), 1):
    model.add(f"body{i}", RigidBody(m=1, r_cm=tuple(ra / 2)))
model.position = rotational.Position()            # exact = False, f_crit = 50 Hz (MSL)
model.sine = Sine(amplitude=0.7, f=1)
model.mounting1D = Mounting1D()
c = model.connect
c(model.world.frame_b, model.rev.frame_a)
c(model.rod1.frame_a, model.rev.frame_b)
c(model.rod1.frame_b, model.jointRRR1.frame_a)
c(model.rod2.frame_a, model.world.frame_b)
c(model.rod2.frame_b, model.jointRRR1.frame_b)
c(model.jointRRR1.frame_ia, model.body1.frame_a)
c(model.rod3.frame_a, model.rod2.frame_b)
c(model.rod3.frame_b, model.jointRRR2.frame_b)
c(model.jointRRR2.frame_ia, model.body2.frame_a)
c(model.jointRRR1.frame_im, model.jointRRR2.frame_a)
c(model.rod3.frame_b, model.rod4.frame_a)
c(model.rod4.frame_b, model.jointRRR3.frame_b)
c(model.jointRRR2.frame_im, model.jointRRR3.frame_a)
c(model.jointRRR3.frame_ia, model.body3.frame_a)
c(model.sine.y, model.position.phi_ref)
c(model.mounting1D.flange_b, model.position.support)
c(model.mounting1D.frame_a, model.world.frame_b)
c(model.position.flange, model.rev.axis)
system = jd.compile(model)
print(f"{len(system.dependent_coordinates)} dependent angles solved by Newton; state "
      f"{', '.join(system.x_names)} (the filter's states: the crank's angle and speed)")

# %% 5 s, the loop residual and the driver's work
# a fine grid over the filter's start transient (time constant ~3 ms) for the work integral
grid = np.concatenate([np.linspace(0, 0.05, 1001), np.linspace(0.05, 5, 4951)[1:]])
result = system.simulate(5.0, t_out=grid, rtol=1e-10, atol=1e-10)
residual = max(np.abs(v).max() for k, v in result.series.items() if k.startswith("residual"))
E = result["energy.total"]
work = cumulative_simpson(result["position.tau"] * result["rev.w"], x=result.t, initial=0)
lag = np.abs(result["rev.phi"] - result["sine.y"]).max()
print(f"max loop closure residual over 5 s: {residual:.3g}")
print(f"driver work vs change of T + V: max |E - E(0) - ∫tau·w dt| = "
      f"{np.abs(E - E[0] - work).max():.3g} J (E varies by {np.ptp(E):.4g} J)")
print(f"max |rev.phi - phi_ref| (the 50 Hz filter's lag): {lag:.3g} rad; peak driver torque "
      f"{np.abs(result['position.tau'][result.t > 0.1]).max():.4g} N·m")
result.plot("rev.phi", "position.tau", "jointRRR1.revolute_a.phi", "jointRRR3.revolute_b.phi",
            path="out/planar_loops_analytic.png", title="MSL Loops.PlanarLoops_analytic")
