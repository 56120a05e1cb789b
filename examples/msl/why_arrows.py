"""Modelica.Mechanics.Translational.Examples.WhyArrows in jourdain
================================================================

Built as the MSL builds it, from library parts only: why the arrows of the translational
components matter.

What: three rods (L = 1 m) on a Fixed at 0: rod1 ends at its flange_b on the Fixed, rod2
and rod3 start there with their flange_a (rod3 drawn flipped in the MSL's diagram); position
sensors at their free ends. Below, two mass–spring systems that the MSL draws differently
but connects alike: a Fixed at −1.9 m, a Spring (c = 11 N/m, s_rel0 = 2 m) to the flange_b
of a Mass (m = 1 kg, L = 2 m) starting at s = 0 at rest. The MSL runs it for 1 s.
Why: the MSL's statements "positionSensor2.s = positionSensor3.s", "positionSensor3.s ≠
positionSensor1.s" (a flipped rod still adds its length from flange_a to flange_b) and
"both systems are equivalent"; positions of flanges that only rods determine.
You will see: the three sensors (−1 m, 1 m, 1 m), both masses against the closed form
s = −0.9 + 0.9·cos(√11·t), and out/why_arrows.png.

Parts: Rod, Fixed(s0), PositionSensor, TranslationalSpring = Components.Spring, Mass(L).
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import Fixed, Mass, PositionSensor, Rod, TranslationalSpring, World

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.fixed = Fixed()
model.rod1, model.rod2, model.rod3 = Rod(L=1.0), Rod(L=1.0), Rod(L=1.0)
model.positionSensor1, model.positionSensor2 = PositionSensor(), PositionSensor()
model.positionSensor3 = PositionSensor()
model.fixed1, model.fixed2 = Fixed(s0=-1.9), Fixed(s0=-1.9)
model.spring1 = TranslationalSpring(s_rel0=2.0, c=11.0)
model.spring2 = TranslationalSpring(s_rel0=2.0, c=11.0)
model.mass1, model.inertia2 = Mass(L=2.0, m=1.0), Mass(L=2.0, m=1.0)   # the MSL's names
m = model
for a, b in ((m.spring1.flange_b, m.mass1.flange_b), (m.spring2.flange_b, m.inertia2.flange_b),
             (m.rod3.flange_b, m.positionSensor3.flange),
             (m.rod1.flange_a, m.positionSensor1.flange), (m.rod1.flange_b, m.fixed.flange),
             (m.rod3.flange_a, m.fixed.flange), (m.fixed.flange, m.rod2.flange_a),
             (m.rod2.flange_b, m.positionSensor2.flange), (m.fixed1.flange, m.spring1.flange_a),
             (m.fixed2.flange, m.spring2.flange_a)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 1 s from s = 0 at rest (the MSL's fixed start values)
res = system.simulate(1.0, y0={"mass1.s": 0.0, "inertia2.s": 0.0},
                      z0={"mass1.v": 0.0, "inertia2.v": 0.0}, n_out=1001, rtol=1e-10,
                      atol=1e-12)
p1, p2, p3 = (res[f"positionSensor{k}.s"] for k in (1, 2, 3))
print(f"positionSensor1.s = {p1.mean():.6f} m, positionSensor2.s = {p2.mean():.6f} m, "
      f"positionSensor3.s = {p3.mean():.6f} m (constant to {max(np.ptp(p) for p in (p1, p2, p3)):.1e})")
closed = -0.9 + 0.9 * np.cos(np.sqrt(11.0) * res.t)    # m·s'' = −c·(s + 0.9)
print(f"mass1: max |s - closed form| {np.abs(res['mass1.s'] - closed).max():.2e} m; "
      f"inertia2: {np.abs(res['inertia2.s'] - closed).max():.2e} m; "
      f"max |mass1.s - inertia2.s| {np.abs(res['mass1.s'] - res['inertia2.s']).max():.1e} m")
res.plot("mass1.s", "inertia2.s", path=OUT / "why_arrows.png",
         title="MSL Translational.Examples.WhyArrows")
print(f"figure saved to {OUT / 'why_arrows.png'}")
