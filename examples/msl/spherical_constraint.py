"""Modelica.Mechanics.MultiBody.Examples.Constraints.SphericalConstraint in jourdain
=================================================================================

Two copies of one body (BodyShape, r = (0.4, 0, 0), m = 1 kg, I = 1 kg·m² about each axis)
hang on a spring (c = 20 N/m) from (0.8, 0, 0.3); their other end is held at the frame
fixedRotation (r = (0.2, −0.3, 0.2), planar rotation sequence 10°, 55°, 68°). The first by a
spherical joint (blue in the MSL); the second is free (a FreeJoint, the MSL's free body) and
held by a spherical joint declared last, which closes the loop. jourdain has no separate
constraint elements: a joint that closes a loop is cut by the topology stage and contributes
exactly the closure equations of the MSL's Joints.Constraints.Spherical.

What you will see: 10 s (StopTime as in the MSL) from rest at the joint's zero. Reference
(the MSL's documentation): both bodies move identically (their frame_b positions agree);
T + V of the constrained copy is conserved; its closure residual stays at round-off.
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import (AbsoluteSensor, BodyShape, FixedRotation, FixedTranslation, FreeJoint,
                             ResolveInFrame, Spherical, Spring, World)

model = jd.Model(world=World())
model.fixedRotation = FixedRotation(r=(0.2, -0.3, 0.2), sequence=(1, 2, 3),
                                    angles_deg=(10, 55, 68))
model.fixedTranslation = FixedTranslation(r=(0.8, 0, 0.3))
for body in ("bodyOfJoint", "bodyOfConstraint"):
    model.add(body, BodyShape(r=(0.4, 0, 0), r_CM=(0.2, 0, 0), m=1, I_11=1, I_22=1, I_33=1,
                              width=0.05))
    spring = model.add("springOf" + body[6:], Spring(c=20, s_unstretched=0))
    sensor = model.add("sensorOf" + body[6:], AbsoluteSensor(resolveInFrame=ResolveInFrame.WORLD))
    model.connect(model.fixedTranslation.frame_b, spring.frame_a)
    model.connect(getattr(model, body).frame_b, spring.frame_b)
    model.connect(getattr(model, body).frame_b, sensor.frame_a)
model.joint = Spherical()
model.connect(model.fixedRotation.frame_b, model.joint.frame_a)
model.connect(model.joint.frame_b, model.bodyOfJoint.frame_a)
model.freeMotion = FreeJoint()
# declared last: cut, 3 closure equations
model.constraint = Spherical()
model.connect(model.fixedRotation.frame_b, model.constraint.frame_a)
model.connect(model.constraint.frame_b, model.bodyOfConstraint.frame_a)
c = model.connect
c(model.world.frame_b, model.fixedTranslation.frame_a)
c(model.world.frame_b, model.fixedRotation.frame_a)
c(model.fixedRotation.frame_b, model.freeMotion.frame_a)
c(model.freeMotion.frame_b, model.bodyOfConstraint.frame_a)
system = jd.compile(model)
print("independent coordinates:", ", ".join(system.independent_coordinates()))

# %% 10 s from rest
result = system.simulate(10.0, rtol=1e-10, atol=1e-10, n_out=1001)
diff = max(np.abs(result[f"sensorOfJoint.r[{i}]"] - result[f"sensorOfConstraint.r[{i}]"]).max()
           for i in range(3))
residual = max(np.abs(v).max() for k, v in result.series.items() if k.startswith("residual"))
E = result["energy.total"]
print(f"joint vs constraint: max distance between the bodies' frame_b {diff:.3g} m (they "
      f"move by {np.ptp(result['sensorOfJoint.r[0]']):.3g} m along x)")
print(f"energy drift over 10 s: {np.ptp(E):.3g} J (kinetic up to "
      f"{result['energy.kinetic'].max():.4g} J)")
print(f"max closure residual over 10 s: {residual:.3g}")
result.plot("sensorOfJoint.r[0]", "sensorOfConstraint.r[0]", "sensorOfJoint.r[2]",
            path="out/spherical_constraint.png", title="MSL Constraints.SphericalConstraint")
