"""Modelica.Mechanics.MultiBody.Examples.Elementary.RollingWheelSetDriving in jourdain
===================================================================================

A RollingWheelSet (R_wheel = 0.1 m, m_wheel = 0.5 kg, I_wheelAxis = 0.01, I_wheelLong =
0.02 kg·m², track = 0.5 m) on the ground z = 0 (World with gravity along −z, as the MSL
requires) carries a 0.01 kg body 0.2 m ahead of its axle; two torques, sine1 = 2·sin(2πt)
and sine2 = 2·sin(2πt + π/2) N·m, act between the axle (``support``) and each wheel
(Rotational.Sources.Torque2 is jourdain's Motor: +tau on flange_b, −tau on flange_a).

What you will see: 3 s (StopTime as in the MSL) from x = y = 0.1 m. Reference: the rolling
kinematics in closed form (the axle's middle moves at R·(θ̇1 + θ̇2)/2 along its heading,
which turns at R·(θ̇2 − θ̇1)/track), and the work of the two torques equal to the change of
kinetic energy (the ground and gravity do no work).
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import FixedTranslation, Motor, RigidBody, RollingWheelSet, Sine, World

model = jd.Model(world=World(g=(0, 0, -9.81)))
model.wheelSet = RollingWheelSet(R_wheel=0.1, m_wheel=0.5, I_wheelAxis=0.01,
                                 I_wheelLong=0.02, track=0.5)
model.body = RigidBody(m=0.01, I=(0, 0, 0))
model.fixedTranslation = FixedTranslation(r=(0.2, 0, 0))
model.sine1 = Sine(f=1, amplitude=2)
model.sine2 = Sine(f=1, amplitude=2, phase=np.pi / 2)
model.torque1, model.torque2 = Motor(), Motor()
c = model.connect
c(model.fixedTranslation.frame_a, model.wheelSet.frameMiddle)
c(model.fixedTranslation.frame_b, model.body.frame_a)
c(model.wheelSet.axis1, model.torque1.flange_a)
c(model.torque1.flange_b, model.wheelSet.support)
c(model.wheelSet.axis2, model.torque2.flange_a)
c(model.wheelSet.support, model.torque2.flange_b)
c(model.sine1.y, model.torque1.tau)
c(model.sine2.y, model.torque2.tau)
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
power = -(result["sine1.y"] * w1 + result["sine2.y"] * w2)   # −tau on each wheel (flange_a)
work = cumulative_simpson(power, x=result.t, initial=0)
T = result["energy.kinetic"]
print(f"final pose: x = {x[-1]:.5f} m, y = {y[-1]:.5f} m, phi = {phi[-1]:.5f} rad")
print(f"max rolling kinematics error (closed form): {kin:.3g} m/s")
print(f"torques' work vs change of kinetic energy: max |T - T(0) - W| = "
      f"{np.abs(T - T[0] - work).max():.3g} J (T up to {T.max():.4g} J)")
result.plot(ws + "prismatic1.s", ws + "prismatic2.s", ws + "revolute.phi",
            path="out/rolling_wheel_set_driving.png", title="MSL Elementary.RollingWheelSetDriving")
