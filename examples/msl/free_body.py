"""Modelica.Mechanics.MultiBody.Examples.Elementary.FreeBody in jourdain
=====================================================================

A free body (BodyShape, m = 1 kg, I = diag(1, 1, 1) kg·m², r = (0.4, 0, 0), r_CM = (0.2, 0, 0))
hangs from two springs (c = 20 N/m, unstretched length 0): spring1 from the world origin to
the body's frame_a, spring2 from the end of bar2 (0.8 m along x) to its frame_b. As in the
MSL it starts at r_0 = (0.2, −0.5, 0.1) at rest, rotated by 10° about x, then y, then z
(the MSL's angles_start with sequence {1, 2, 3}). The MSL body has no joint; here a
FreeJoint (position and a unit quaternion) says so.

What you will see: the body swinging and tumbling for 10 s (StopTime as in the MSL) with
T + V conserved (springs and gravity are conservative): the MSL shows the motion only.
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import (BodyShape, FixedTranslation, FreeJoint, Spring, World,
                             quaternion_from_angles)


model = jd.Model(world=World())
model.bar2 = FixedTranslation(r=(0.8, 0, 0))
model.spring1 = Spring(c=20, s_unstretched=0, width=0.1, coilWidth=0.005)
model.spring2 = Spring(c=20, s_unstretched=0, width=0.1, coilWidth=0.005)
model.free = FreeJoint()
model.body = BodyShape(r=(0.4, 0, 0), r_CM=(0.2, 0, 0), m=1, I=(1, 1, 1), width=0.05)
c = model.connect
c(model.bar2.frame_a, model.world.frame_b)
c(model.spring1.frame_b, model.body.frame_a)
c(model.bar2.frame_b, model.spring2.frame_a)
c(model.spring1.frame_a, model.world.frame_b)
c(model.body.frame_b, model.spring2.frame_b)
c(model.world.frame_b, model.free.frame_a)
c(model.free.frame_b, model.body.frame_a)
system = jd.compile(model)

# %% start as in the MSL and simulate 10 s
q = quaternion_from_angles(np.deg2rad([10, 10, 10]), sequence=(1, 2, 3))   # angles_start
y0 = {"free.x": 0.2, "free.y": -0.5, "free.z": 0.1, **{f"free.q{i}": q[i] for i in range(4)}}
result = system.simulate(10.0, y0=y0, rtol=1e-10, atol=1e-10, n_out=1001)

# %% key numbers
E = result["energy.total"]
q_norm = np.linalg.norm([result[f"free.q{i}"] for i in range(4)], axis=0)
print(f"energy drift over 10 s: {np.ptp(E):.3g} J (of kinetic up to "
      f"{result['energy.kinetic'].max():.4g} J)")
print(f"quaternion norm deviation: {np.abs(q_norm - 1).max():.3g}")
print("frame_a at t = 10 s: " + ", ".join(f"{a} = {result['free.' + a][-1]:.4f} m"
                                           for a in "xyz"))
result.plot("free.x", "free.y", "free.z", "free.wz", "energy.total",
            path="out/free_body.png", title="MSL Elementary.FreeBody")
