"""Modelica.Mechanics.MultiBody.Examples.Elementary.PointGravity in jourdain
=========================================================================

Two free bodies (m = 1 kg, I = 0.1·1 kg·m²) in the point gravity field of a World with
gravityType = PointGravity and mue = 1 m³/s² (g = −mue·r/‖r‖³, as in the MSL): body1 starts
at r_0 = (0, 0.6, 0) with v_0 = (1, 0, 0), body2 at (0.6, 0.6, 0) with (0.6, 0, 0). The MSL
bodies have no joints; here each has a FreeJoint.

What you will see: two Kepler ellipses over 5 s (StopTime as in the MSL). Reference: each
body's energy v²/2 − mue/r and angular momentum r × v are constant, and body1's distance
swings between the closed-form apoapsis and periapsis a·(1 ± e) of its ellipse.
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import FreeJoint, GravityTypes, RigidBody, World

mue = 1.0
model = jd.Model(world=World(mue=mue, gravityType=GravityTypes.PointGravity))
for name in ("body1", "body2"):
    model.add(name, RigidBody(m=1, I=(0.1, 0.1, 0.1)))
    model.add(f"{name}_free", FreeJoint())
    model.connect(model.world.frame_b, getattr(model, f"{name}_free").frame_a)
    model.connect(getattr(model, f"{name}_free").frame_b, getattr(model, name).frame_a)
system = jd.compile(model)
start = {"body1": ((0, 0.6, 0), (1, 0, 0)), "body2": ((0.6, 0.6, 0), (0.6, 0, 0))}
y0 = {f"{b}_free.{a}": r[i] for b, (r, _) in start.items() for i, a in enumerate("xyz")}
z0 = {f"{b}_free.v{a}": v[i] for b, (_, v) in start.items() for i, a in enumerate("xyz")}
result = system.simulate(5.0, y0=y0, z0=z0, rtol=1e-11, atol=1e-11, n_out=2001)

# %% invariants of each orbit and body1's closed-form extreme distances
for b in start:
    r = np.array([result[f"{b}_free.{a}"] for a in "xyz"])
    v = np.array([result[f"{b}_free.v{a}"] for a in "xyz"])
    energy = 0.5 * (v * v).sum(0) - mue / np.linalg.norm(r, axis=0)
    h = np.cross(r.T, v.T)[:, 2]
    print(f"{b}: energy {energy[0]:.6f} J/kg (drift {np.ptp(energy):.2g}), angular momentum "
          f"{h[0]:.6f} m²/s (drift {np.ptp(h):.2g})")
r0, v0 = 0.6, 1.0                                  # body1 starts at apoapsis (r ⟂ v)
a = -mue / (2 * (v0**2 / 2 - mue / r0))            # semi-major axis
e = np.sqrt(1 - (r0 * v0) ** 2 / (mue * a))        # eccentricity from h² = mue·a·(1 − e²)
distance = np.linalg.norm([result[f"body1_free.{a_}"] for a_ in "xyz"], axis=0)
print(f"body1 distance: max {distance.max():.6f} m (closed form {a * (1 + e):.6f}), "
      f"min {distance.min():.6f} m (closed form {a * (1 - e):.6f})")
print(f"total energy drift (T + V of the system): {np.ptp(result['energy.total']):.3g} J")
result.plot("body1_free.x", "body1_free.y", "body2_free.x", "body2_free.y",
            path="out/point_gravity.png", title="MSL Elementary.PointGravity")
