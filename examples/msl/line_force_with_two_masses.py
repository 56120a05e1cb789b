"""Modelica.Mechanics.MultiBody.Examples.Elementary.LineForceWithTwoMasses in jourdain
===================================================================================

Two copies of one mechanism: a box (BodyBox, r = (0.7, 0, 0)) on a revolute at (0, 0.3, 0),
pushed and pulled from (0, −0.9, 0) by a line force with two point masses m = 1 kg (a
hydraulic cylinder's halves) and a 1-D damper d = 3 N·s/m acting along the line.

* Upper system, the MSL's JointUPS (nAxis_ia = (0.7, 1.2, 0)): a universal joint at the
  ground, a prismatic joint along the line (the damper between its axis and bearing) and a
  spherical joint at the box, with point masses 0.2 m along the line from each end on
  frame_ia and frame_ib. The loop is closed at the assembly's spherical joint.
* Lower system, the MSL's LineForceWithTwoMasses (L_a = L_b = 0.2 m, m_a = m_b = 1 kg),
  offset by 0.3 m in z; its damper sits on the element's flanges.

What you will see: 3 s of motion (StopTime as in the MSL). Reference (the MSL's own): both
implementations describe the same system, so the two boxes move identically; here their
revolute angles agree to the integrator tolerance.
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import (
                             BodyBox,
                             FixedTranslation,
                             JointUPS,
                             LineForceWithTwoMasses,
                             Revolute,
                             RigidBody,
                             ViscousFriction,
                             World,
)

m = 1.0
line = np.array([0.7, 1.2, 0.0]) / np.linalg.norm([0.7, 1.2, 0.0])   # the MSL's nAxis_ia

model = jd.Model(world=World())
# upper system: revolute1 + bodyBox1 and the universal–prismatic–spherical chain
model.rod2, model.rod1 = FixedTranslation(r=(0, 0.3, 0)), FixedTranslation(r=(0, -0.9, 0))
model.revolute1, model.bodyBox1 = Revolute(), BodyBox(r=(0.7, 0, 0))
model.jointUPS = JointUPS(nAxis_ia=(0.7, 1.2, 0))
model.body1 = RigidBody(m=m, r_cm=tuple(0.2 * line), I=(0, 0, 0))
model.body2 = RigidBody(m=m, r_cm=tuple(-0.2 * line), I=(0, 0, 0))
model.damper1 = ViscousFriction(d=3)
c = model.connect
c(model.world.frame_b, model.rod2.frame_a)
c(model.world.frame_b, model.rod1.frame_a)
c(model.rod2.frame_b, model.revolute1.frame_a)
c(model.revolute1.frame_b, model.bodyBox1.frame_a)
c(model.rod1.frame_b, model.jointUPS.frame_a)
c(model.jointUPS.frame_b, model.bodyBox1.frame_b)
c(model.jointUPS.frame_ia, model.body1.frame_a)
c(model.jointUPS.frame_ib, model.body2.frame_a)
c(model.damper1.flange_b, model.jointUPS.axis)
c(model.damper1.flange_a, model.jointUPS.bearing)
# lower system: revolute2 + bodyBox2 and LineForceWithTwoMasses with its damper
model.rod4, model.rod3 = FixedTranslation(r=(0, 0.3, 0.3)), FixedTranslation(r=(0, -0.9, 0.3))
model.revolute2, model.bodyBox2 = Revolute(), BodyBox(r=(0.7, 0, 0))
model.lineForceWithTwoMasses = LineForceWithTwoMasses(L_a=0.2, L_b=0.2, m_a=m, m_b=m)
model.damper2 = ViscousFriction(d=3)
c(model.world.frame_b, model.rod4.frame_a)
c(model.rod3.frame_a, model.rod4.frame_a)
c(model.rod4.frame_b, model.revolute2.frame_a)
c(model.revolute2.frame_b, model.bodyBox2.frame_a)
c(model.lineForceWithTwoMasses.frame_a, model.rod3.frame_b)
c(model.lineForceWithTwoMasses.frame_b, model.bodyBox2.frame_b)
c(model.lineForceWithTwoMasses.flange_b, model.damper2.flange_b)
c(model.lineForceWithTwoMasses.flange_a, model.damper2.flange_a)
system = jd.compile(model)
print("independent coordinates:", ", ".join(system.independent_coordinates()))

# %% 3 s from rest at phi = 0 (the MSL's initType PositionVelocity; with closed loops, give
# the coordinates you mean: the others are assembled from the reference configuration)
result = system.simulate(3.0, y0={"revolute1.phi": 0.0, "revolute2.phi": 0.0}, rtol=1e-10,
                         atol=1e-10, n_out=601)
diff = np.abs(result["revolute1.phi"] - result["revolute2.phi"]).max()
residual = max(np.abs(v).max() for k, v in result.series.items() if k.startswith("residual"))
print(f"revolute1.phi(3 s) = {result['revolute1.phi'][-1]:.6f} rad (JointUPS), "
      f"revolute2.phi(3 s) = {result['revolute2.phi'][-1]:.6f} rad (LineForceWithTwoMasses)")
print(f"max |revolute1.phi - revolute2.phi| over 3 s: {diff:.3g} rad")
print(f"max loop closure residual (JointUPS): {residual:.3g}")
result.plot("revolute1.phi", "revolute2.phi", "jointUPS.prismatic.s",
            path="out/line_force_with_two_masses.png",
            title="MSL Elementary.LineForceWithTwoMasses")
