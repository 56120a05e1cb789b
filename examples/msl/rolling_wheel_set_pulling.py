"""Modelica.Mechanics.MultiBody.Examples.Elementary.RollingWheelSetPulling in jourdain
===================================================================================

A RollingWheelSet (R_wheel = 0.1 m, m_wheel = 0.5 kg, I_wheelAxis = 0.01, I_wheelLong =
0.02 kg·m², track = 0.5 m) on the ground z = 0 (World with gravity along −z, as the MSL
requires) carries a 0.01 kg body 0.2 m ahead of its axle, where a WorldForce pulls with the
MSL's CombiTimeTable [0, 1, 0, 0; 1, 1, 0, 0; 2, 0, 2, 0; 3, 0, 2, 0] (linear
interpolation, columns 2 … 4 as the force vector): 1 N along x for a second, then turning to
2 N along y.

What you will see: 3 s (StopTime as in the MSL) from x = y = 0.1 m. Reference: the rolling
kinematics in closed form (the axle's middle moves at R·(θ̇1 + θ̇2)/2 along its heading,
which turns at R·(θ̇2 − θ̇1)/track), and the work of the force (at its point, from an
AbsoluteSensor's v) equal to the change of kinetic energy (the ground and gravity do no
work).
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import (AbsoluteSensor, CombiTimeTable, FixedTranslation, ResolveInFrame,
                             RigidBody, RollingWheelSet, World, WorldForce)

model = jd.Model(world=World(g=(0, 0, -9.81)))
model.wheelSet = RollingWheelSet(R_wheel=0.1, m_wheel=0.5, I_wheelAxis=0.01,
                                 I_wheelLong=0.02, track=0.5)
model.body = RigidBody(m=0.01, I=(0, 0, 0))
model.fixedTranslation = FixedTranslation(r=(0.2, 0, 0))
model.force = WorldForce()
model.combiTimeTable = CombiTimeTable(table=[[0, 1, 0, 0], [1, 1, 0, 0], [2, 0, 2, 0],
                                             [3, 0, 2, 0]], columns=[2, 3, 4])
model.sensor = AbsoluteSensor(resolveInFrame=ResolveInFrame.WORLD)
c = model.connect
c(model.fixedTranslation.frame_a, model.wheelSet.frameMiddle)
c(model.fixedTranslation.frame_b, model.body.frame_a)
c(model.force.frame_b, model.fixedTranslation.frame_b)
c(model.sensor.frame_a, model.fixedTranslation.frame_b)
c(model.combiTimeTable.y, model.force.force)
system = jd.compile(model)
print("independent coordinates:", ", ".join(system.independent_coordinates()))

# %% 3 s from x = y = 0.1 m at rest
R, track = 0.1, 0.5
ws = "wheelSet."
result = system.simulate(3.0, y0={ws + "prismatic1.s": 0.1, ws + "prismatic2.s": 0.1},
                         rtol=1e-10, atol=1e-10, n_out=1201)
x, y, phi = (result[ws + n] for n in ("prismatic1.s", "prismatic2.s", "revolute.phi"))
w1, w2 = result[ws + "revolute1.w"], result[ws + "revolute2.w"]
speed = R * (w1 + w2) / 2
kin = max(np.abs(result[ws + "prismatic1.v"] - speed * np.cos(phi)).max(),
          np.abs(result[ws + "prismatic2.v"] - speed * np.sin(phi)).max(),
          np.abs(result[ws + "revolute.w"] - R * (w2 - w1) / track).max())
power = sum(result[f"combiTimeTable.y[{i}]"] * result[f"sensor.v[{i}]"] for i in range(3))
work = cumulative_simpson(power, x=result.t, initial=0)
T = result["energy.kinetic"]
print(f"final pose: x = {x[-1]:.5f} m, y = {y[-1]:.5f} m, phi = {phi[-1]:.5f} rad")
print(f"max rolling kinematics error (closed form): {kin:.3g} m/s")
print(f"force's work vs change of kinetic energy: max |T - T(0) - W| = "
      f"{np.abs(T - T[0] - work).max():.3g} J (T up to {T.max():.4g} J)")
result.plot(ws + "prismatic1.s", ws + "prismatic2.s", ws + "revolute.phi",
            path="out/rolling_wheel_set_pulling.png", title="MSL Elementary.RollingWheelSetPulling")
