"""Modelica.Mechanics.Translational.Examples.SignConvention in jourdain
====================================================================

Built as the MSL builds it, from library parts only: the sign conventions of forces.

What: three masses (m = 1 kg, L = 1 m, at rest at s = 0) are each driven by a force of 1 N
(a Constant into a Force): system 1 pushes at flange_a, system 2 pulls at flange_b, system 3
acts at flange_b with the force's support on a Fixed. The MSL states a = 1 m/s², so
v = 1 m/s and s = 0.5 m after 1 s, in all three systems.
Why: the force source acts on its flange in the positive direction, whichever side of the
mass it is connected to.
You will see: s and v of each mass at 1 s and out/sign_convention.png.

Parts: LinearMotor = Translational.Sources.Force (flange_b = flange, flange_a = support).
"""
# %%
from pathlib import Path

import jourdain as jd
from jourdain.blocks import Constant, Fixed, LinearMotor, Mass, World

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
for k in (1, 2, 3):
    setattr(model, f"mass{k}", Mass(m=1.0, L=1.0))
    setattr(model, f"force{k}", LinearMotor())
    setattr(model, f"constant{k}", Constant(k=1.0))
model.fixed = Fixed()
m = model
for a, b in ((m.constant1.y, m.force1.f), (m.constant2.y, m.force2.f),
             (m.constant3.y, m.force3.f), (m.force1.flange_b, m.mass1.flange_a),
             (m.force2.flange_b, m.mass2.flange_b), (m.mass3.flange_b, m.force3.flange_b),
             (m.fixed.flange, m.force3.flange_a)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 1 s (StopTime 1, Interval 1e-3) from rest at s = 0
res = system.simulate(1.0, n_out=1001, rtol=1e-10, atol=1e-12)
for k in (1, 2, 3):
    print(f"mass{k}: s(1 s) = {res[f'mass{k}.s'][-1]:.9f} m, v(1 s) = "
          f"{res[f'mass{k}.v'][-1]:.9f} m/s")
res.plot("mass1.s", "mass2.s", "mass3.s", path=OUT / "sign_convention.png",
         title="MSL Translational.Examples.SignConvention")
print(f"figure saved to {OUT / 'sign_convention.png'}")
