"""Modelica.Mechanics.MultiBody.Examples.Elementary.DoublePendulumInitTip in jourdain
==================================================================================

A double pendulum of two steel boxes (BodyBox, r = (0.5, 0, 0), width 0.06 m) with a damper
(d = 0.1 N·m·s/rad) on the first joint. The MSL initializes it by the tip: a
FreeMotionScalarInit joint fixes the x and y of boxBody2.frame_b at (0.7, 0.3) and their
velocities at 0. jourdain needs no extra joint: ``system.initialize(fix=...)`` takes initial
values for any quantity and solves them with the closure equations; ``guess`` picks the
assembly branch (elbow up or down) without holding a value (Modelica's start with
fixed = false).

What you will see: both branches, checked against the closed-form inverse kinematics of the
two-link arm, and 5 s of damped swinging (StopTime as in the MSL) whose energy balance
E(t) − E(0) = −∫P_damper dt holds.
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import BodyBox, Revolute, ViscousFriction, World

model = jd.Model(world=World())
model.revolute1 = Revolute()
model.damper = ViscousFriction(d=0.1)       # the MSL's Rotational.Components.Damper
model.boxBody1 = BodyBox(r=(0.5, 0, 0), width=0.06)
model.revolute2 = Revolute()
model.boxBody2 = BodyBox(r=(0.5, 0, 0), width=0.06)
c = model.connect
c(model.damper.flange_b, model.revolute1.axis)
c(model.revolute1.frame_b, model.boxBody1.frame_a)
c(model.revolute2.frame_b, model.boxBody2.frame_a)
c(model.boxBody1.frame_b, model.revolute2.frame_a)
c(model.world.frame_b, model.revolute1.frame_a)
system = jd.compile(model)

# %% the tip at (0.7, 0.3) at rest, both assembly branches
tip = "boxBody2.frame_b"
fix = {f"{tip}.r_0[0]": 0.7, f"{tip}.r_0[1]": 0.3, f"{tip}.v_0[0]": 0.0, f"{tip}.v_0[1]": 0.0}
x, y, l1, l2 = 0.7, 0.3, 0.5, 0.5
elbow = np.arccos((x**2 + y**2 - l1**2 - l2**2) / (2 * l1 * l2))   # closed-form IK
for sign in (+1, -1):
    init = system.initialize(fix=fix, guess={"revolute2.phi": sign * 1.0})
    phi1 = np.arctan2(y, x) - np.arctan2(l2 * np.sin(sign * elbow), l1 + l2 * np.cos(sign * elbow))
    print(init)
    print(f"  closed form: revolute1.phi = {phi1:.6f}, revolute2.phi = {sign * elbow:.6f}; "
          f"error {max(abs(init.x0[0] - phi1), abs(init.x0[1] - sign * elbow)):.2g} rad")

# %% simulate the default branch (the MSL starts its Newton iteration from phi = 0)
init = system.initialize(fix=fix)
result = system.simulate(5.0, x0=init.x0, rtol=1e-10, atol=1e-10, n_out=2001)
E, P = result["energy.total"], result["power.dissipated"]
balance = E - E[0] + cumulative_simpson(P, x=result.t, initial=0)
print(f"energy balance E(t) - E(0) + dissipated work: {np.abs(balance).max():.3g} J "
      f"(dissipated {E[0] - E[-1]:.4f} J over 5 s)")
result.plot("revolute1.phi", "revolute2.phi", "energy.total",
            path="out/double_pendulum_init_tip.png", title="MSL DoublePendulumInitTip")
