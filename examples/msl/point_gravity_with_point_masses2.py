"""Modelica.Mechanics.MultiBody.Examples.Elementary.PointGravityWithPointMasses2 in jourdain
=========================================================================================

Six point masses (1 kg) rigidly joined at ±1 m along the axes of a frame on a FreeJoint
(the MSL's FreeMotion) in a point gravity field with mue = 5 m³/s²; the frame starts at
(2, 0, 0), unrotated, at (0, 0, −1) m/s without rotation (pointMass1 at (3, 0, 0) and
pointMass3 at (2, 1, 0), both at (0, 0, −1) m/s, as the MSL fixes them). The MSL compares
with the same structure of Bodies with zero inertia (its referenceSystem), built here too.

What you will see: 3 s (StopTime as in the MSL). Reference: the MSL's statement that both
systems move identically; T + V and the total angular momentum Σ m·r × v about the field's
centre are conserved (a central field, rigid internal forces).
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import (AbsoluteSensor, FixedTranslation, FreeJoint, GravityTypes,
                             PointMass, ResolveInFrame, RigidBody, World)

OFFSETS = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
model = jd.Model(world=World(gravityType=GravityTypes.PointGravity, mue=5))
for system_name, make in (("", lambda: PointMass(m=1)),
                          ("reference_", lambda: RigidBody(m=1, I=(0, 0, 0)))):
    free = model.add(system_name + "freeMotion", FreeJoint())
    model.connect(model.world.frame_b, free.frame_a)
    for i, r in enumerate(OFFSETS, 1):
        rod = model.add(f"{system_name}fixedTranslation{i}", FixedTranslation(r=r))
        mass = model.add(f"{system_name}pointMass{i}", make())
        sensor = model.add(f"{system_name}sensor{i}",
                           AbsoluteSensor(resolveInFrame=ResolveInFrame.WORLD))
        model.connect(free.frame_b, rod.frame_a)
        model.connect(rod.frame_b, mass.frame_a)
        model.connect(rod.frame_b, sensor.frame_a)
system = jd.compile(model)

# %% 3 s from the MSL's start
start = {p + "freeMotion.x": 2.0 for p in ("", "reference_")}
speed = {p + "freeMotion.vz": -1.0 for p in ("", "reference_")}
result = system.simulate(3.0, y0=start, z0=speed, rtol=1e-11, atol=1e-11, n_out=601)
r = np.array([[result[f"sensor{i}.r[{k}]"] for k in range(3)] for i in range(1, 7)])
v = np.array([[result[f"sensor{i}.v[{k}]"] for k in range(3)] for i in range(1, 7)])
H = np.cross(r, v, axis=1).sum(axis=0)
E = result["energy.total"]
diff = max(np.abs(result[f"sensor{i}.r[{k}]"] - result[f"reference_sensor{i}.r[{k}]"]).max()
           for i in range(1, 7) for k in range(3))
print(f"centre at 3 s: ({result['freeMotion.x'][-1]:.4f}, {result['freeMotion.y'][-1]:.4f}, "
      f"{result['freeMotion.z'][-1]:.4f}) m")
print(f"point masses vs bodies with zero inertia: max distance {diff:.3g} m")
print(f"total energy drift {np.ptp(E):.3g} J (of {abs(E[0]):.4g} J); angular momentum drift "
      f"{np.abs(H - H[:, :1]).max():.3g} m²/s (|H| = {np.linalg.norm(H[:, 0]):.4g})")
result.plot("freeMotion.x", "freeMotion.z", path="out/point_gravity_with_point_masses2.png",
            title="MSL Elementary.PointGravityWithPointMasses2")
