"""Modelica.Mechanics.MultiBody.Examples.Elementary.PointGravityWithPointMasses in jourdain
========================================================================================

Four point masses (1 kg) in a point gravity field with mue = 1 m³/s²: body1 and body2 fly
free from (0, 0.6, 0) at 1 m/s and (0.6, 0.6, 0) at 0.6 m/s along x; body3 and body4 start at
(0, 0.8, 0) and (0.3, 0.8, 0), both at 0.6 m/s along x, joined by a spring (c = 10 N/m,
s_unstretched = 0). The MSL neglects the point masses' rotation; here each moves on three
prismatic joints (x, y, z), the translation-only equivalent (a point mass on a FreeJoint
would leave its rotation without inertia).

What you will see: 2 s (StopTime as in the MSL). Reference: Kepler's conservation laws —
body1's and body2's specific energy v²/2 − mue/r and angular momentum r × v are constant;
for the pair on the spring, the total energy and total angular momentum about the centre
(central field, internal force along the line) are constant.
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import GravityTypes, PointMass, Prismatic, Spring, World

model = jd.Model(world=World(gravityType=GravityTypes.PointGravity, mue=1))
for i in range(1, 5):
    chain = [model.add(f"body{i}_{a}", Prismatic(n=tuple(np.eye(3)[k]))) for k, a in
             enumerate("xyz")]
    model.connect(model.world.frame_b, chain[0].frame_a)
    for a, b in zip(chain, chain[1:]):
        model.connect(a.frame_b, b.frame_a)
    model.add(f"body{i}", PointMass(m=1))
    model.connect(chain[-1].frame_b, getattr(model, f"body{i}").frame_a)
model.spring = Spring(c=10)
model.connect(model.spring.frame_a, model.body3.frame_a)
model.connect(model.spring.frame_b, model.body4.frame_a)
system = jd.compile(model)

# %% 2 s from the MSL's start values
starts = {1: ((0, 0.6), 1.0), 2: ((0.6, 0.6), 0.6), 3: ((0, 0.8), 0.6), 4: ((0.3, 0.8), 0.6)}
y0 = {f"body{i}_{a}.s": r[k] for i, (r, _) in starts.items() for k, a in enumerate("xy")}
z0 = {f"body{i}_x.v": v for i, (_, v) in starts.items()}
result = system.simulate(2.0, y0=y0, z0=z0, rtol=1e-11, atol=1e-11, n_out=801)


def state(i):
    r = np.array([result[f"body{i}_{a}.s"] for a in "xyz"])
    v = np.array([result[f"body{i}_{a}.v"] for a in "xyz"])
    return r, v


for i in (1, 2):
    r, v = state(i)
    e = 0.5 * (v**2).sum(0) - 1 / np.linalg.norm(r, axis=0)
    h = np.cross(r, v, axis=0)[2]
    print(f"body{i}: energy {e[0]:.6f} J/kg (drift {np.ptp(e):.3g}), angular momentum "
          f"{h[0]:.6f} m²/s (drift {np.ptp(h):.3g})")
(r3, v3), (r4, v4) = state(3), state(4)
H = np.cross(r3, v3, axis=0)[2] + np.cross(r4, v4, axis=0)[2]
E = result["energy.total"]
print(f"spring pair and all bodies: total energy drift {np.ptp(E):.3g} J (of {abs(E[0]):.4g} J); "
      f"pair's angular momentum drift {np.ptp(H):.3g} m²/s")
result.plot("body1_x.s", "body1_y.s", "body3_x.s", "body4_x.s",
            path="out/point_gravity_with_point_masses.png",
            title="MSL Elementary.PointGravityWithPointMasses")
