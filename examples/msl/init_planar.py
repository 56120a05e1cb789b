"""Modelica.Mechanics.MultiBody.Examples.Elementary.InitPlanar in jourdain
========================================================================

A free planar chain of three bodies: body1 (m = 1 kg, r_CM = (−0.3, 0, 0)) – revolute12
about z with a damper (d = 0.05 N·m·s/rad) – body2 (BodyShape r = (0.4, 0, 0), m = 0.6 kg) –
revolute23 about z – body3 (m = 1 kg, r_CM = (0.3, 0, 0)); inertias 0.001 kg·m² about each
axis (the MSL's defaults), gravity −y. The MSL holds body3's pose and velocity (at the
origin, at rest), revolute12.phi = 7°, revolute23.phi = 13°, revolute23.w = 0, and gives the
last condition by a FreeMotionScalarInit between body1 and body3: their relative angular
velocity about z is 0.14 rad/s (revolute12.w is left free, start 0.7).

jourdain: body3 rides a FreeJoint on the world (the free chain needs one), and the
FreeMotionScalarInit is not needed: the RelativeSensor's output w_rel[2] is a quantity, so
``initialize(y0=..., z0=..., fix={"relativeSensor13.w_rel[2]": 0.14})`` solves
revolute12.w.

What you will see: the initialization report and 1 s of falling (StopTime as in the MSL).
Reference: the planar closed form ω3 − ω1 = w12 + w23, so with body3 at rest and w23 = 0,
revolute12.w = 0.14 rad/s; the energy balance E(t) − E(0) = −∫P_damper dt.
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import BodyShape, FreeJoint, Revolute, RigidBody, ViscousFriction, World
from jourdain.blocks.multibody import RelativeSensor

I = (0.001, 0.001, 0.001)
model = jd.Model(world=World())
model.revolute12, model.revolute23 = Revolute(n=(0, 0, 1)), Revolute(n=(0, 0, 1))
model.damper = ViscousFriction(d=0.05)        # the MSL's Rotational.Components.Damper
model.body1 = RigidBody(m=1.0, r_cm=(-0.3, 0, 0), I=I)
model.body2 = BodyShape(r=(0.4, 0, 0), r_CM=(0.2, 0, 0), m=0.6, I_11=I[0], I_22=I[1],
                        I_33=I[2])
model.body3 = RigidBody(m=1.0, r_cm=(0.3, 0, 0), I=I)
model.free = FreeJoint()                      # body3's free motion (the MSL's body states)
model.relativeSensor13 = RelativeSensor()
c = model.connect
c(model.world.frame_b, model.free.frame_a)
c(model.free.frame_b, model.body3.frame_a)
c(model.damper.flange_b, model.revolute12.axis)
c(model.revolute12.support, model.damper.flange_a)
c(model.body1.frame_a, model.revolute12.frame_a)
c(model.revolute23.frame_b, model.body3.frame_a)
c(model.relativeSensor13.frame_a, model.body1.frame_a)
c(model.relativeSensor13.frame_b, model.body3.frame_a)
c(model.revolute12.frame_b, model.body2.frame_a)
c(model.body2.frame_b, model.revolute23.frame_a)
system = jd.compile(model)

# %% initialization: body3 at the origin at rest, both angles and revolute23.w held
y0 = {"free.x": 0, "free.y": 0, "free.z": 0, "free.q0": 1, "free.q1": 0, "free.q2": 0,
      "free.q3": 0, "revolute12.phi": np.radians(7), "revolute23.phi": np.radians(13)}
z0 = {"free.vx": 0, "free.vy": 0, "free.vz": 0, "free.wx": 0, "free.wy": 0, "free.wz": 0,
      "revolute23.w": 0}
init = system.initialize(y0=y0, z0=z0, fix={"relativeSensor13.w_rel[2]": 0.14})
print(init)
w12 = init.x0[system.x_names.index("revolute12.w")]
print(f"revolute12.w = {w12:.12f} rad/s (closed form 0.14 rad/s)")

# %% 1 s from that start
result = system.simulate(1.0, x0=init.x0, rtol=1e-10, atol=1e-10, n_out=2001)
print(f"relativeSensor13.w_rel[2](0) = {result['relativeSensor13.w_rel[2]'][0]:.12f} rad/s")
E, P = result["energy.total"], result["power.dissipated"]
balance = E - E[0] + cumulative_simpson(P, x=result.t, initial=0)
print(f"energy balance: max |E - E(0) + dissipated| = {np.abs(balance).max():.3g} J "
      f"(the damper dissipates {E[0] - E[-1]:.4g} J; T + V is otherwise kept in the fall)")
result.plot("revolute12.phi", "revolute23.phi", "relativeSensor13.w_rel[2]",
            path="out/init_planar.png", title="MSL Elementary.InitPlanar")
