"""Modelica.Mechanics.MultiBody.Examples.Elementary.DoublePendulum in jourdain
===========================================================================

Two boxes (BodyBox, r = (0.5, 0, 0), width 0.06 m, steel) on two revolute joints about z; a
damper (d = 0.1 N·m·s/rad) on the first joint; released at rest from the horizontal
(phi = 0, w = 0 fixed for both joints, as in the MSL).

What you will see: 3 s (StopTime as in the MSL). Reference: two formulations of the
equations of motion agree (Jourdain/Kane projection and Lagrange's equations with Rayleigh's
dissipation function), and the energy balance E(t) − E(0) + ∫d·w₁² dt = 0.
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import BodyBox, Revolute, ViscousFriction, World


def double_pendulum():
    model = jd.Model(world=World())
    model.revolute1, model.revolute2 = Revolute(), Revolute()
    model.damper = ViscousFriction(d=0.1)
    model.boxBody1 = BodyBox(r=(0.5, 0, 0), width=0.06)
    model.boxBody2 = BodyBox(r=(0.5, 0, 0), width=0.06)
    c = model.connect
    c(model.damper.flange_b, model.revolute1.axis)
    c(model.revolute1.support, model.damper.flange_a)
    c(model.revolute1.frame_b, model.boxBody1.frame_a)
    c(model.revolute2.frame_b, model.boxBody2.frame_a)
    c(model.boxBody1.frame_b, model.revolute2.frame_a)
    c(model.world.frame_b, model.revolute1.frame_a)
    return model


system = jd.compile(double_pendulum())
lagrange = jd.compile(double_pendulum(), formulation=jd.Formulation.LAGRANGE)

# %% 3 s from rest, horizontal
start = {"y0": {"revolute1.phi": 0.0, "revolute2.phi": 0.0}, "rtol": 1e-10, "atol": 1e-10,
         "n_out": 1501}
result = system.simulate(3.0, **start)
other = lagrange.simulate(3.0, **start)
E = result["energy.total"]
lost = cumulative_simpson(0.1 * result["revolute1.w"] ** 2, x=result.t, initial=0)
diff = max(np.abs(result[n] - other[n]).max() for n in ("revolute1.phi", "revolute2.phi"))
print(f"revolute1.phi(3 s) = {result['revolute1.phi'][-1]:.6f} rad, revolute2.phi(3 s) = "
      f"{result['revolute2.phi'][-1]:.6f} rad")
print(f"Jourdain/Kane vs Lagrange: max |Δphi| {diff:.3g} rad")
print(f"energy balance: max |E - E(0) + ∫d·w² dt| = {np.abs(E - E[0] + lost).max():.3g} J "
      f"(E varies by {np.ptp(E):.4g} J)")
result.plot("revolute1.phi", "revolute2.phi", path="out/double_pendulum.png",
            title="MSL Elementary.DoublePendulum")
