"""Modelica.Mechanics.MultiBody.Examples.Elementary.InitSpringConstant in jourdain
=================================================================================

A bar (BodyShape r = (1, 0, 0), r_CM = (0.5, 0, 0), m = 1 kg) on a revolute about z with a
damper (d = 0.1 N·m·s/rad) between its support and axis, hung from a Spring (s_unstretched =
0.1 m) whose other end is Fixed at (1, 0.2, 0); gravity −y. The MSL holds phi, w and a of the
revolute at 0 (a(fixed = true): a steady start) and declares the spring constant
``c(fixed = false)``: initialization solves c. In jourdain: ``compile(..., parameters=
["spring.c"])`` makes c symbolic and ``initialize(y0=..., z0=..., fix={"der(rev.w)": 0},
solve=["spring.c"])`` solves it.

What you will see: c and the 1 s run (StopTime as in the MSL) from that start. Reference:
the closed-form equilibrium c·(0.2 − 0.1)·1 m = m·g·0.5 m, c = 49.05 N/m (the MSL's
documented value); with that c the bar stays at phi = 0.
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import BodyShape, Revolute, Spring, ViscousFriction, World
from jourdain.blocks.multibody import Fixed

model = jd.Model(world=World())
model.rev = Revolute(n=(0, 0, 1))
model.damper = ViscousFriction(d=0.1)        # the MSL's Rotational.Components.Damper
model.body = BodyShape(r=(1, 0, 0), r_CM=(0.5, 0, 0), m=1)
model.fixed = Fixed(r=(1, 0.2, 0))
model.spring = Spring(s_unstretched=0.1, c=100)   # start value of c, as in the MSL
c = model.connect
c(model.world.frame_b, model.rev.frame_a)
c(model.damper.flange_b, model.rev.axis)
c(model.rev.support, model.damper.flange_a)
c(model.rev.frame_b, model.body.frame_a)
c(model.fixed.frame_b, model.spring.frame_a)
c(model.spring.frame_b, model.body.frame_b)
system = jd.compile(model, parameters=["spring.c"])

# %% initialization: phi = 0, w = 0, a = 0 with c free
init = system.initialize(y0={"rev.phi": 0.0}, z0={"rev.w": 0.0}, fix={"der(rev.w)": 0.0},
                         solve=["spring.c"])
print(init)
g = 9.81
c_closed = 1 * g * 0.5 / ((0.2 - 0.1) * 1.0)
print(f"spring.c = {init.params['spring.c']:.10g} N/m (closed form m·g·0.5/(0.1·1) = "
      f"{c_closed:.10g} N/m)")

# %% 1 s from the steady start with the solved c
result = system.simulate(1.0, x0=init.x0, params=init.params, rtol=1e-10, atol=1e-10,
                         n_out=501)
print(f"max |rev.phi| over 1 s = {np.abs(result['rev.phi']).max():.3g} rad")
result.plot("rev.phi", "rev.w", path="out/init_spring_constant.png",
            title="MSL Elementary.InitSpringConstant")
