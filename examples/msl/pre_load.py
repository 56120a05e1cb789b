"""Modelica.Mechanics.Translational.Examples.PreLoad in jourdain
=============================================================

Built as the MSL builds it, from library parts only: a valve spool held by one preloaded
spring through four ElastoGaps.

What: a spool (0.15 kg, L = 0.19 m) in a housing (Fixed at −0.0955 m, a Rod of 0.0305 m)
is centred by one spring (c = 20 kN/m, s_rel0 = 25 mm) between two spring plates (10 g,
L = 2 mm); outer contacts (ElastoGaps, c = 1000 kN/m, d = 250 N·s/m, s_rel0 = 1.5 mm) hold
the plates against the housing, inner contacts (s_rel0 = 1 mm) join them to the spool
through rods; a damper (d = 2500 N·s/m) to the housing acts as friction. A sine force
(150 N, 0.01 Hz) pushes the spool for 100 s (the MSL's StopTime) from the MSL's start
values (spool.s = 0.01475 m, springPlateA.s = −0.093 m, springPlateB.s = −0.06925 m, at
rest).
Why: the MSL's statement: the spool is held in its position while the force is below a
threshold (the spring's preload, c·1.5 mm = 30 N) and moves linearly with the force above
it; ElastoGaps that lift off and close.
You will see: the hold while abs(F) < 20 N, both branches beyond the preload against the closed
form of the static chain spool.s = 0.01475 ± 1.5 mm + F_net·(1/c_spring + 2/c_contact)
(F_net: the force less the damper's d·v), and out/pre_load.png.

Runs on BDF (the ElastoGaps declare themselves stiff): 100 s of motion in ~0.3 s CPU.

Parts: hybrid.ElastoGap, TranslationalSpring = Components.Spring, ViscousFriction =
Components.Damper, Rod, Fixed(s0), Mass(L), LinearMotor = Sources.Force, Sine.
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import (Fixed, LinearMotor, Mass, Rod, Sine, TranslationalSpring,
                             ViscousFriction, World)
from jourdain.blocks.hybrid import ElastoGap

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.innerContactA = ElastoGap(c=1000e3, d=250, s_rel0=0.001)
model.innerContactB = ElastoGap(c=1000e3, d=250, s_rel0=0.001)
model.spool = Mass(L=0.19, m=0.150)
model.fixedLe = Fixed(s0=-0.0955)
model.springPlateA = Mass(m=10e-3, L=0.002)
model.springPlateB = Mass(m=10e-3, L=0.002)
model.spring = TranslationalSpring(c=20e3, s_rel0=0.025)
model.outerContactA = ElastoGap(c=1000e3, d=250, s_rel0=0.0015)
model.outerContactB = ElastoGap(c=1000e3, d=250, s_rel0=0.0015)
model.rod1 = Rod(L=0.007)
model.friction = ViscousFriction(d=2500)
model.force = LinearMotor()
model.housing = Rod(L=0.0305)
model.rod3, model.rod4 = Rod(L=0.00575), Rod(L=0.00575)
model.rod2 = Rod(L=0.007)
model.sineForce = Sine(amplitude=150, f=0.01)
m = model
for a, b in ((m.outerContactA.flange_b, m.springPlateA.flange_a), (m.springPlateA.flange_b, m.spring.flange_a),
             (m.spring.flange_b, m.springPlateB.flange_a), (m.springPlateB.flange_b, m.outerContactB.flange_a),
             (m.outerContactB.flange_b, m.housing.flange_b), (m.springPlateA.flange_b, m.rod1.flange_a),
             (m.innerContactA.flange_a, m.rod3.flange_a), (m.innerContactA.flange_b, m.rod1.flange_b),
             (m.rod2.flange_a, m.innerContactB.flange_a), (m.rod4.flange_b, m.innerContactB.flange_b),
             (m.friction.flange_b, m.rod3.flange_a), (m.rod3.flange_b, m.rod4.flange_a),
             (m.rod2.flange_b, m.springPlateB.flange_a), (m.spool.flange_a, m.rod4.flange_a),
             (m.sineForce.y, m.force.f), (m.force.flange_b, m.spool.flange_a),
             (m.outerContactA.flange_a, m.fixedLe.flange), (m.housing.flange_a, m.fixedLe.flange),
             (m.friction.flange_a, m.fixedLe.flange)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 100 s (StopTime 100, Interval 0.1) from the MSL's start values
res = system.simulate(100.0, y0={"spool.s": 0.01475, "springPlateA.s": -0.093,
                                 "springPlateB.s": -0.06925},
                      z0={"spool.v": 0.0, "springPlateA.v": 0.0, "springPlateB.v": 0.0},
                      n_out=1001)
F, s = res["sineForce.y"], res["spool.s"]
F_net = F - 2500.0 * res["spool.v"]           # the force less the friction damper's
compliance = 1 / 20e3 + 2 / 1000e3            # spring and two contacts in series
hold = np.abs(F) < 20.0
print(f"hold: max |spool.s − 0.01475| while |F| < 20 N: {np.abs(s[hold] - 0.01475).max():.2e} m")
for sign, name in ((1, "pushing"), (-1, "pulling")):
    branch = sign * F_net > 40.0
    closed = 0.01475 - sign * 0.0015 + F_net[branch] * compliance
    print(f"{name} (F_net {'>' if sign > 0 else '<'} {sign * 40} N, {branch.sum()} samples): "
          f"max |spool.s − closed form| {np.abs(s[branch] - closed).max():.2e} m")
print(f"spool travel {s.min():.6f} … {s.max():.6f} m")
res.plot("spool.s", "springPlateA.s", "springPlateB.s", path=OUT / "pre_load.png",
         title="MSL Translational.Examples.PreLoad")
print(f"figure saved to {OUT / 'pre_load.png'}")
