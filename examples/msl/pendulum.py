"""Modelica.Mechanics.MultiBody.Examples.Elementary.Pendulum in jourdain
=====================================================================

A body (m = 1 kg, center of mass 0.5 m along x, the MSL Body's default inertia 0.001 kg·m²)
on a revolute joint about z, with a rotational damper (d = 0.1 N·m·s/rad) between the joint's
support and axis (the MSL's bearing and axis); released at rest from phi = 0 (horizontal).

What you will see: 5 s (StopTime as in the MSL). Reference: an independent scipy model of
(I_33 + m·l²)·φ̈ = −m·g·l·cos φ − d·φ̇, and the energy balance E(t) − E(0) + ∫d·φ̇² dt = 0.
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson, solve_ivp

import jourdain as jd
from jourdain.blocks import Revolute, RigidBody, ViscousFriction, World

model = jd.Model(world=World())
model.rev = Revolute(n=(0, 0, 1))
model.damper = ViscousFriction(d=0.1)
model.body = RigidBody(m=1.0, r_cm=(0.5, 0, 0), I=(0.001, 0.001, 0.001))
model.connect(model.world.frame_b, model.rev.frame_a)
model.connect(model.damper.flange_b, model.rev.axis)
model.connect(model.rev.support, model.damper.flange_a)
model.connect(model.body.frame_a, model.rev.frame_b)
system = jd.compile(model)

# %% 5 s from rest at phi = 0
result = system.simulate(5.0, y0={"rev.phi": 0.0}, z0={"rev.w": 0.0}, rtol=1e-10, atol=1e-10,
                         n_out=1001)
J, m, l, g, d = 0.001 + 0.25, 1.0, 0.5, 9.81, 0.1
ref = solve_ivp(lambda t, x: [x[1], (-m * g * l * np.cos(x[0]) - d * x[1]) / J], (0, 5),
                [0.0, 0.0], t_eval=result.t, rtol=1e-12, atol=1e-12)
E = result["energy.total"]
lost = cumulative_simpson(d * result["rev.w"] ** 2, x=result.t, initial=0)
print(f"rev.phi(5 s) = {result['rev.phi'][-1]:.6f} rad")
print(f"vs the independent ODE: max |Δphi| {np.abs(result['rev.phi'] - ref.y[0]).max():.3g} rad")
print(f"energy balance: max |E - E(0) + ∫d·w² dt| = {np.abs(E - E[0] + lost).max():.3g} J "
      f"(dissipated {lost[-1]:.4g} J)")
result.plot("rev.phi", "rev.w", path="out/pendulum.png", title="MSL Elementary.Pendulum")
