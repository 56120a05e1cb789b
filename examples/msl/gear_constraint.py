"""Modelica.Mechanics.MultiBody.Examples.Rotational3DEffects.GearConstraint in jourdain
====================================================================================

A gearbox of 3-D parts and the same gearbox in 1-D. Upper: two steel cylinders (BodyCylinder
r = (0.4, 0, 0), diameters 0.1 and 0.2 m) on the shafts of a GearConstraint (ratio 10, both
axes along x, bearing on the world); a 3-D Torque (2·sin 2πt, 0, 0) N·m in frame_b axes
between the world and the first cylinder. Lower: two Inertias with the cylinders' axial
inertias, an IdealGear (ratio 10) and a torque source 2·sin 2πt N·m, gear and source
supported by a Mounting1D on a Fixed frame. World without gravity, as in the MSL.

What you will see: 5 s (StopTime as in the MSL). Reference (the MSL's documentation): the
3-D formulation and the 1-D model move identically, on both shafts (inertia2.phi, the series
of the 1-D gear's output flange, against the second revolute's phi); and the closed form of
(J1 + J2/ratio²)·φ̈1 = 2·sin 2πt from rest (phi_a = ratio·phi_b).
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import (BodyCylinder, GearConstraint, IdealGear, Inertia, Motor,
                             Mounting1D, Mux, Sine, Torque, World)
from jourdain.blocks.multibody import Fixed

model = jd.Model(world=World(g=(0, 0, 0)))
model.gearConstraint = GearConstraint(ratio=10)
model.cyl1 = BodyCylinder(r=(0.4, 0, 0), diameter=0.1)
model.cyl2 = BodyCylinder(r=(0.4, 0, 0), diameter=0.2)
model.torque1 = Torque()                          # resolved in frame_b (the MSL's default)
model.sine_1, model.sine_2, model.sine_3 = (Sine(amplitude=a, f=1) for a in (2, 0, 0))
model.mux = Mux(1, 1, 1)
J1, J2 = float(model.cyl1.I[0, 0]), float(model.cyl2.I[0, 0])
model.fixed = Fixed()
model.inertia1, model.inertia2 = Inertia(J=J1), Inertia(J=J2)
model.idealGear = IdealGear(ratio=10)
model.torque2 = Motor()                           # Rotational.Sources.Torque with support
model.mounting1D = Mounting1D()
c = model.connect
for a, b in [(model.world.frame_b, model.gearConstraint.bearing),
             (model.cyl1.frame_b, model.gearConstraint.frame_a),
             (model.gearConstraint.frame_b, model.cyl2.frame_a),
             (model.torque1.frame_b, model.cyl1.frame_a),
             (model.torque1.frame_a, model.world.frame_b),
             (model.mux.y, model.torque1.torque),
             (model.inertia1.flange_b, model.idealGear.flange_a),
             (model.idealGear.flange_b, model.inertia2.flange_a),
             (model.torque2.flange_b, model.inertia1.flange_a),
             (model.sine_1.y, model.torque2.tau),
             (model.mounting1D.flange_b, model.idealGear.support),
             (model.mounting1D.flange_b, model.torque2.flange_a),
             (model.fixed.frame_b, model.mounting1D.frame_a)]:
    c(a, b)
for i, sine in enumerate((model.sine_1, model.sine_2, model.sine_3), 1):
    c(sine.y, getattr(model.mux, f"u{i}"))
system = jd.compile(model)

# %% 5 s from rest
result = system.simulate(5.0, rtol=1e-10, atol=1e-10, n_out=1001)
t = result.t
closed = 2 * (t - np.sin(2 * np.pi * t) / (2 * np.pi)) / (2 * np.pi * (J1 + J2 / 100))
GA = "gearConstraint.actuatedRevolute_a."
phi_a = result[GA + "phi"]
phi_b = result["gearConstraint.actuatedRevolute_b.phi"]
print(f"J1 = {J1:.5g} kg·m², J2 = {J2:.5g} kg·m²; phi_a(5 s) = {phi_a[-1]:.6f} rad")
print(f"3-D vs 1-D: max |Δphi_a| {np.abs(phi_a - result['inertia1.phi']).max():.3g} rad, "
      f"max |Δw_a| {np.abs(result[GA + 'w'] - result['inertia1.w']).max():.3g} rad/s")
# inertia2 is eliminated by the gear; the Result carries its series (docs/domains.md)
print(f"3-D vs 1-D behind the gear: max |Δphi_b| "
      f"{np.abs(phi_b - result['inertia2.phi']).max():.3g} rad (phi_b(5 s) = "
      f"{phi_b[-1]:.6f} rad)")
print(f"vs the closed form: max |phi_a - φ1(t)| {np.abs(phi_a - closed).max():.3g} rad; "
      f"gear: max |phi_a - 10·phi_b| {np.abs(phi_a - 10 * phi_b).max():.3g} rad")
result.plot("gearConstraint.actuatedRevolute_a.phi", "inertia1.phi",
            path="out/gear_constraint.png", title="MSL Rotational3DEffects.GearConstraint")
