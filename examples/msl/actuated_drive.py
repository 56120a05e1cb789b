"""Modelica.Mechanics.MultiBody.Examples.Rotational3DEffects.ActuatedDrive in jourdain
===================================================================================

One drive, two ways. Upper: a body on a revolute about x, driven by a 3-D Torque between the
world and the body's frame_b with the torque (sin 2πt, 0, 0) N·m in frame_b axes (Sine[3]
with amplitudes (1, 0, 0), f = 1 Hz). Lower: a Rotor1D (J = 2 kg·m²) on a Fixed frame,
driven by a 1-D torque source (here jourdain's Motor) whose support is a Mounting1D on the
same Fixed frame. World without gravity (g = 0), as in the MSL.

The BodyShape is the MSL's: m = 0 and I = diag(2, 0, 0), an inertia without a mass
distribution (a body with m = 0 is not asked the triangle inequality of rigid bodies; the
system's mass matrix, here J = 2 kg·m² about x, must be regular: docs/msl.md, "Bodies").

What you will see: 1.1 s (StopTime as in the MSL); both angles follow the closed form
phi(t) = (t − sin(2πt)/(2π))/(2π·J) of J·phi'' = sin(2πt) from rest.
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import (
    BodyShape,
    Motor,
    Mounting1D,
    Mux,
    Revolute,
    Rotor1D,
    Sine,
    Torque,
    World,
)
from jourdain.blocks.multibody import Fixed

model = jd.Model(world=World(g=(0, 0, 0)))
model.bodyCylinder = BodyShape(r=(0.5, 0, 0), m=0, I=(2, 0, 0), shapeType="cylinder",
                               width=0.1, r_shape=(0.1, 0, 0))
model.revolute = Revolute(n=(1, 0, 0))
model.torque = Torque()                          # resolved in frame_b (the MSL's default)
model.sine1, model.sine2, model.sine3 = Sine(amplitude=1, f=1), Sine(amplitude=0, f=1), \
    Sine(amplitude=0, f=1)
model.mux = Mux(1, 1, 1)
model.fixed = Fixed()
model.rotor1D = Rotor1D(J=2)
model.torque1 = Motor()                          # the MSL's Rotational.Sources.Torque
model.mounting1D = Mounting1D()
c = model.connect
c(model.world.frame_b, model.revolute.frame_a)
c(model.revolute.frame_b, model.bodyCylinder.frame_a)
c(model.torque.frame_b, model.bodyCylinder.frame_b)
c(model.torque.frame_a, model.world.frame_b)
for i, sine in enumerate((model.sine1, model.sine2, model.sine3), 1):
    c(sine.y, getattr(model.mux, f"u{i}"))
c(model.mux.y, model.torque.torque)
c(model.fixed.frame_b, model.rotor1D.frame_a)
c(model.torque1.flange_b, model.rotor1D.flange_a)
c(model.mounting1D.flange_b, model.torque1.flange_a)
c(model.mounting1D.frame_a, model.fixed.frame_b)
c(model.sine1.y, model.torque1.tau)
system = jd.compile(model)

result = system.simulate(1.1, rtol=1e-10, atol=1e-10, n_out=111)
t, J = result.t, 2.0
closed = (t - np.sin(2 * np.pi * t) / (2 * np.pi)) / (2 * np.pi * J)
for name in ("revolute.phi", "rotor1D.phi"):
    print(f"{name}(1.1 s) = {result[name][-1]:.8f} rad; max error vs closed form "
          f"{np.abs(result[name] - closed).max():.3g} rad")
result.plot("revolute.phi", "rotor1D.phi", "revolute.w", "rotor1D.w",
            path="out/actuated_drive.png", title="MSL Rotational3DEffects.ActuatedDrive")
