"""Modelica.Mechanics.MultiBody.Examples.Loops.Fourbar2 in jourdain
================================================================

Fourbar1 with the five revolutes of the coupler replaced by the MSL's UniversalSpherical
joint: a massless rod rRod_ia = (−1, 0.3, 0.1) from a universal joint (n1_a = y) on the
slider's top to a ball joint at the crank's end. The crank j1 (BodyCylinder b1) starts at
300°/s; the slider j2 (s = −0.2 m at the start, fixed as in the MSL) carries b2. The MSL
computes the rod's length at initialization (computeRodLength = true); here rRod_ia gives it
(the same length as rRod_ia, since the start configuration is consistent).

What you will see: 5 s (StopTime as in the MSL). Reference: the same bodies and massless
rod as Fourbar_analytic, so its JointSSP formulation (built here too) moves identically;
T + V conserved; the loop closure residual.
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import (BodyCylinder, FixedTranslation, JointSSP, Prismatic, Revolute,
                             UniversalSpherical, World)

model = jd.Model(world=World())
model.j1, model.j2 = Revolute(n=(1, 0, 0)), Prismatic(n=(1, 0, 0))
model.b1 = BodyCylinder(r=(0, 0.5, 0.1), diameter=0.05)
model.b2 = BodyCylinder(r=(0, 0.2, 0), diameter=0.05)
model.universalSpherical = UniversalSpherical(n1_a=(0, 1, 0), rRod_ia=(-1, 0.3, 0.1))
model.b3 = FixedTranslation(r=(1.2, 0, 0))
c = model.connect
c(model.j2.frame_b, model.b2.frame_a)
c(model.j1.frame_b, model.b1.frame_a)
c(model.j1.frame_a, model.world.frame_b)
c(model.b1.frame_b, model.universalSpherical.frame_b)
c(model.universalSpherical.frame_a, model.b2.frame_b)
c(model.b3.frame_a, model.world.frame_b)
c(model.b3.frame_b, model.j2.frame_a)
system = jd.compile(model)
print("independent coordinates:", ", ".join(system.independent_coordinates()))

# the same mechanism with JointSSP (Fourbar_analytic)
ssp = jd.Model(world=World())
ssp.j1 = Revolute(n=(1, 0, 0))
ssp.b1 = BodyCylinder(r=(0, 0.5, 0.1), diameter=0.05)
ssp.b3 = FixedTranslation(r=(1.2, 0, 0))
ssp.jointSSP = JointSSP(rod1Length=float(np.linalg.norm([-1, 0.3, 0.1])), n_b=(1, 0, 0),
                        s_offset=-0.2, rRod2_ib=(0, 0.2, 0))
ssp.b2 = BodyCylinder(r=(0, 0.2, 0), diameter=0.05)
for a, b in [(ssp.j1.frame_b, ssp.b1.frame_a), (ssp.j1.frame_a, ssp.world.frame_b),
             (ssp.b3.frame_a, ssp.world.frame_b), (ssp.b1.frame_b, ssp.jointSSP.frame_a),
             (ssp.b3.frame_b, ssp.jointSSP.frame_b), (ssp.b2.frame_a, ssp.jointSSP.frame_ib)]:
    ssp.connect(a, b)
analytic = jd.compile(ssp)

# %% 5 s from j1.phi = 0, j1.w = 300°/s, j2.s = −0.2 m
w0, options = np.radians(300), {"rtol": 1e-10, "atol": 1e-10, "n_out": 501}
init = system.initialize(y0={"j1.phi": 0.0, "j2.s": -0.2}, z0={"j1.w": w0})
result = system.simulate(5.0, x0=init.x0, **options)
other = analytic.simulate(5.0, y0={"j1.phi": 0.0}, z0={"j1.w": w0}, **options)
residual = max(np.abs(v).max() for k, v in result.series.items() if k.startswith("residual"))
E = result["energy.total"]
s_ssp = other["jointSSP.prismatic.s"] - 0.2                 # distance = s + s_offset
print(f"j1.phi(5 s) = {result['j1.phi'][-1]:.6f} rad, j2.s(5 s) = {result['j2.s'][-1]:.6f} m")
print(f"vs JointSSP (Fourbar_analytic): max |Δ j1.phi| "
      f"{np.abs(result['j1.phi'] - other['j1.phi']).max():.3g} rad, max |Δ j2.s| "
      f"{np.abs(result['j2.s'] - s_ssp).max():.3g} m")
print(f"energy drift over 5 s: {np.abs(E - E[0]).max():.3g} J (kinetic up to "
      f"{result['energy.kinetic'].max():.4g} J)")
print(f"max loop closure residual over 5 s: {residual:.3g}")
result.plot("j1.phi", "j1.w", "j2.s", "j2.v", path="out/fourbar2.png",
            title="MSL Loops.Fourbar2")
