"""Modelica.Mechanics.MultiBody.Examples.Elementary.ForceAndTorque in jourdain
===========================================================================

A ForceAndTorque element acts between a point fixed in the world (fixed2 at (1.5, 0.25, 0))
and the end of a cylinder (BodyCylinder, r = (1, 0, 0)) that hangs on two revolutes
(revolute1 about z at fixed1 = (0, −0.5, 0), revolute2 about y). The force (0, 1000, 0) N and
torque (−100, 100, 0) N·m come from constant signals and are resolved in the axes of
fixedRotation (30° about z at fixed1), connected to the element's frame_resolve, as in the
MSL. frame_b gets the force and torque; frame_a (the world) their reaction.

What you will see: 1 s of motion (StopTime as in the MSL). Reference: the work done by the
element, ∫(f·v_b + t·ω_b) dt measured by an AbsoluteSensor at the cylinder's end, equals the
change of T + V.
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import (
    AbsoluteSensor,
    BodyCylinder,
    Constant,
    FixedRotation,
    ForceAndTorque,
    Mux,
    ResolveInFrame,
    Revolute,
    World,
)
from jourdain.blocks.multibody import Fixed

model = jd.Model(world=World())
model.body = BodyCylinder(r=(1, 0, 0))
model.fixed1 = Fixed(r=(0, -0.5, 0))
model.fixedRotation = FixedRotation(n=(0, 0, 1), angle_deg=30)   # the MSL's angle is in degrees
model.forceAndTorque = ForceAndTorque(resolveInFrame=ResolveInFrame.FRAME_RESOLVE)
model.revolute2 = Revolute(n=(0, 1, 0))
model.revolute1 = Revolute()
model.fixed2 = Fixed(r=(1.5, 0.25, 0))
k = (0, 1000, 0, -100, 100, 0)
for i, value in enumerate(k):
    model.add(f"Constant{i}", Constant(k=value))
model.force, model.torque = Mux(1, 1, 1), Mux(1, 1, 1)
model.sensor = AbsoluteSensor(resolveInFrame=ResolveInFrame.WORLD)
c = model.connect
c(model.revolute2.frame_b, model.body.frame_a)
c(model.forceAndTorque.frame_b, model.body.frame_b)
c(model.fixed1.frame_b, model.revolute1.frame_a)
c(model.revolute1.frame_b, model.revolute2.frame_a)
c(model.fixed2.frame_b, model.forceAndTorque.frame_a)
c(model.fixedRotation.frame_a, model.fixed1.frame_b)
c(model.forceAndTorque.frame_resolve, model.fixedRotation.frame_b)
for i in range(3):
    c(getattr(model, f"Constant{i}").y, getattr(model.force, f"u{i + 1}"))
    c(getattr(model, f"Constant{i + 3}").y, getattr(model.torque, f"u{i + 1}"))
c(model.force.y, model.forceAndTorque.force)
c(model.torque.y, model.forceAndTorque.torque)
c(model.sensor.frame_a, model.body.frame_b)
system = jd.compile(model)
print(f"{system}; cylinder m = {model.body.m:.3f} kg")

# %% 1 s from rest, and the work–energy balance
result = system.simulate(1.0, rtol=1e-10, atol=1e-10, n_out=4001)
c30, s30 = np.cos(np.pi / 6), np.sin(np.pi / 6)
R = np.array([[c30, -s30, 0], [s30, c30, 0], [0, 0, 1]])     # fixedRotation's axes -> world
f, t = R @ np.array(k[:3], float), R @ np.array(k[3:], float)
v = np.array([result[f"sensor.v[{i}]"] for i in range(3)])
w = np.array([result[f"sensor.w[{i}]"] for i in range(3)])
power = f @ v + t @ w
E = result["energy.total"]
work = cumulative_simpson(power, x=result.t, initial=0)
print(f"work done by forceAndTorque over 1 s: {work[-1]:.4f} J; change of T + V: "
      f"{E[-1] - E[0]:.4f} J; max |balance error| {np.abs(E - E[0] - work).max():.3g} J")
print(f"revolute1.phi(1 s) = {result['revolute1.phi'][-1]:.5f} rad, "
      f"revolute2.phi(1 s) = {result['revolute2.phi'][-1]:.5f} rad")
result.plot("revolute1.phi", "revolute2.phi", "energy.total",
            path="out/force_and_torque.png", title="MSL Elementary.ForceAndTorque")
