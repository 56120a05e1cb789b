"""Modelica.Mechanics.Translational.Examples.Damper in jourdain
=============================================================

Built as the MSL builds it, from library parts only: dampers in three configurations.

What: three masses (m = 1 kg, length L = 1 m, starting at s = 3 m with v = 10 m/s) move
towards a Fixed at s0 = 4.5 m: mass1 through a damper (d = 25 N·s/m), mass2 through a damper
and a spring (c = 1 N/m, s_rel0 = 1 m) in parallel, mass3 through one SpringDamper with the
same c, d and s_rel0. The MSL runs it for 1 s.
Why: the Translational damper, spring and SpringDamper with masses of a length.
You will see: each mass against its closed form (mass1: v = 10·e^(−25t); mass2 and mass3:
the overdamped oscillator x'' + 25x' + x = 0), mass2 = mass3, and out/translational_damper.png.

Parts: ViscousFriction = Translational.Components.Damper, TranslationalSpring = Spring,
TranslationalSpringDamper = SpringDamper, Mass(L=1), Fixed(s0).
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import (Fixed, Mass, TranslationalSpring, TranslationalSpringDamper,
                             ViscousFriction, World)

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.mass1, model.mass2, model.mass3 = (Mass(m=1.0, L=1.0) for _ in range(3))
model.damper1, model.damper2 = ViscousFriction(d=25.0), ViscousFriction(d=25.0)
model.fixed1, model.fixed2, model.fixed3 = (Fixed(s0=4.5) for _ in range(3))
model.spring2 = TranslationalSpring(s_rel0=1.0, c=1.0)
model.springDamper3 = TranslationalSpringDamper(s_rel0=1.0, d=25.0, c=1.0)
m = model
for a, b in ((m.mass1.flange_b, m.damper1.flange_a), (m.mass2.flange_b, m.damper2.flange_a),
             (m.damper2.flange_b, m.spring2.flange_b), (m.damper2.flange_a, m.spring2.flange_a),
             (m.mass3.flange_b, m.springDamper3.flange_a), (m.damper1.flange_b, m.fixed1.flange),
             (m.damper2.flange_b, m.fixed2.flange), (m.springDamper3.flange_b, m.fixed3.flange)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 1 s (StopTime 1, Interval 1e-3) from s = 3 m, v = 10 m/s
res = system.simulate(1.0, y0={f"mass{k}.s": 3.0 for k in (1, 2, 3)},
                      z0={f"mass{k}.v": 10.0 for k in (1, 2, 3)}, n_out=1001, rtol=1e-10,
                      atol=1e-12)
t = res.t
s1 = 3.0 + 0.4 * (1 - np.exp(-25 * t))
r1, r2 = (-25 + np.sqrt(621)) / 2, (-25 - np.sqrt(621)) / 2
s23 = 3.0 + 10 / (r1 - r2) * (np.exp(r1 * t) - np.exp(r2 * t))
print(f"mass1: s(1 s) = {res['mass1.s'][-1]:.6f} m, max |s - closed form| "
      f"{np.abs(res['mass1.s'] - s1).max():.2e} m")
for k in (2, 3):
    print(f"mass{k}: s(1 s) = {res[f'mass{k}.s'][-1]:.6f} m, max |s - closed form| "
          f"{np.abs(res[f'mass{k}.s'] - s23).max():.2e} m")
print(f"mass2 - mass3: max {np.abs(res['mass2.s'] - res['mass3.s']).max():.2e} m")
res.plot("mass1.s", "mass2.s", "mass3.s", path=OUT / "translational_damper.png",
         title="MSL Translational.Examples.Damper")
print(f"figure saved to {OUT / 'translational_damper.png'}")
