"""Modelica.Mechanics.MultiBody.Examples.Rotational3DEffects.BevelGear1D in jourdain
=================================================================================

A drive train of two rotors (Rotor1D, J = 1.1 kg·m² about x and 18.2 kg·m² about y) coupled
by a BevelGear1D (ratio 10, a 90° angle between the shafts) and driven by a torque
140·sin(2π·8t) N·m from a Mounting1D, all mounted on a body that three revolutes (x, y, z)
turn under torques 110·sin(2π·5t), 120·sin(2π·6t) and 130·sin(2π·7t) N·m.

As in the MSL source: the carrier is a small BodyBox (7.7 kg) and the rotors' own inertia on
their mount is left out, so the rotors' share −J·n·nᵀ outweighs the box and the system's mass
matrix is indefinite; it is regular, which is what the equations need, and jourdain accepts
it (docs/msl.md, "Bodies").

What you will see: 1 s (StopTime as in the MSL). Reference: the MSL's statement that the
bevel gear stores no energy: the change of T + V equals the work of the four torque sources
(Result's supplied power); the gear relation phi_a = ratio·phi_b at round-off.
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import (BevelGear1D, BodyBox, Motor, Mounting1D, Revolute, Rotor1D, Sine,
                             World)

na, nb = (1, 0, 0), (0, 1, 0)
model = jd.Model(world=World())
model.inertia1, model.inertia2 = Rotor1D(J=1.1, n=na), Rotor1D(J=18.2, n=nb)
model.bevelGear = BevelGear1D(ratio=10, n_a=na, n_b=nb)
model.revolute1, model.revolute2 = Revolute(n=(1, 0, 0)), Revolute(n=(0, 1, 0))
model.revolute3 = Revolute(n=(0, 0, 1))
model.torque1, model.torque2, model.torque3, model.torque = Motor(), Motor(), Motor(), Motor()
for name, amplitude, f in (("sine1", 110, 5), ("sine2", 120, 6), ("sine3", 130, 7),
                           ("sine4", 140, 8)):
    model.add(name, Sine(amplitude=amplitude, f=f))
model.mounting1D = Mounting1D(n=na)
model.bodyBox = BodyBox(r=(0.1, 0.1, 0.1), length=0.1, width=0.1)
c = model.connect
c(model.inertia1.flange_b, model.bevelGear.flange_a)
c(model.bevelGear.flange_b, model.inertia2.flange_a)
c(model.world.frame_b, model.revolute1.frame_a)
c(model.revolute1.frame_b, model.revolute2.frame_a)
c(model.revolute2.frame_b, model.revolute3.frame_a)
for i in (1, 2, 3):
    c(getattr(model, f"torque{i}").flange_b, getattr(model, f"revolute{i}").axis)
    c(getattr(model, f"sine{i}").y, getattr(model, f"torque{i}").tau)
c(model.torque.flange_b, model.inertia1.flange_a)
c(model.torque.flange_a, model.mounting1D.flange_b)
c(model.sine4.y, model.torque.tau)
for frame in (model.mounting1D.frame_a, model.bodyBox.frame_a, model.inertia1.frame_a,
              model.inertia2.frame_a, model.bevelGear.frame_a):
    c(model.revolute3.frame_b, frame)
system = jd.compile(model)

# %% 1 s from rest
# Fine output: near the gimbal lock of the three revolutes (revolute2.phi → −1.3 rad) the
# carrier spins at up to ~1400 rad/s and the work's quadrature needs the samples; past
# ~0.55 s the motion is sensitive to the tolerance (runs at rtol 1e-10 and 1e-12 part by
# 1e-3 rad at 0.6 s), so the energy balance is checked on the whole run and on 0.5 s.
result = system.simulate(1.0, rtol=1e-10, atol=1e-10, n_out=100001)
E = result["energy.total"]
work = cumulative_simpson(result["power.supplied"], x=result.t, initial=0)
gear = np.abs(result["inertia1.phi"] - 10 * result["inertia2.phi"]).max()
half = result.t <= 0.5
print(f"inertia1.phi(1 s) = {result['inertia1.phi'][-1]:.6f} rad, revolute1.phi(1 s) = "
      f"{result['revolute1.phi'][-1]:.6f} rad")
print(f"energy balance: max |E - E(0) - work| = {np.abs(E - E[0] - work).max():.3g} J (the "
      f"sources deliver up to {np.abs(work).max():.4g} J)")
print(f"on 0.5 s: max |E - E(0) - work| = {np.abs(E - E[0] - work)[half].max():.3g} J (up to "
      f"{np.abs(work[half]).max():.4g} J)")
print(f"gear: max |phi_a - 10·phi_b| = {gear:.3g} rad")
result.plot("inertia1.phi", "revolute1.phi", "revolute3.phi", path="out/bevel_gear1d.png",
            title="MSL Rotational3DEffects.BevelGear1D")
