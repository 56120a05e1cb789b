"""Modelica.Mechanics.Translational.Examples.InitialConditions in jourdain
========================================================================

Built as the MSL builds it, from library parts only: ways to set initial conditions.

What: system 1, fixed2 (s0 = 1 m) – spring s2 (s_rel0 = 2 m, c = 1e3 N/m) – mass m3 (L = 3 m)
– springDamper sd2 (s_rel0 = 4 m, c = 111 N/m, d = 1 N·s/m) – mass m4 (L = 5 m), started at
m3.s = 4.5 m and m4.s = 12.5 m at rest: the MSL chose these so that the system rests.
System 2, fixed1 (s0 = −1 m) – spring s1 (s_rel0 = 1 m) – m1 (L = 1 m) – springDamper sd1
(s_rel0 = 1 m) – m2 (L = 2 m), started from the lengths of its elements: s1.s_rel = 0.5 m,
sd1.s_rel = 1 m, sd1.v_rel = 0 and m1.v = 0, which is not at rest. The MSL runs it for 5 s.
Why: initial values of any quantity (a spring's length, a relative speed), solved by
``system.initialize`` as the MSL's fixed start values are.
You will see: system 1 resting, the initial state solved for system 2 (m1.s = 0 m,
m2.s = 2.5 m) against the MSL's diagram, system 2 against an independent scipy model, and
out/initial_conditions.png.

Parts: TranslationalSpring = Components.Spring, TranslationalSpringDamper = SpringDamper.
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import Fixed, Mass, TranslationalSpring, TranslationalSpringDamper, World

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.fixed2, model.fixed1 = Fixed(s0=1.0), Fixed(s0=-1.0)
model.s2 = TranslationalSpring(s_rel0=2.0, c=1e3)
model.m3 = Mass(m=1.0, L=3.0)
model.sd2 = TranslationalSpringDamper(s_rel0=4.0, c=111.0, d=1.0)
model.m4 = Mass(m=1.0, L=5.0)
model.s1 = TranslationalSpring(s_rel0=1.0, c=1e3)
model.m1 = Mass(m=1.0, L=1.0)
model.sd1 = TranslationalSpringDamper(s_rel0=1.0, c=111.0, d=1.0)
model.m2 = Mass(m=1.0, L=2.0)
m = model
for a, b in ((m.s2.flange_a, m.fixed2.flange), (m.s1.flange_a, m.fixed1.flange),
             (m.m1.flange_a, m.s1.flange_b), (m.sd1.flange_a, m.m1.flange_b),
             (m.m2.flange_a, m.sd1.flange_b), (m.m4.flange_a, m.sd2.flange_b),
             (m.sd2.flange_a, m.m3.flange_b), (m.m3.flange_a, m.s2.flange_b)):
    model.connect(a, b)
system = jd.compile(model)

# %% Initial values as the MSL gives them: positions of m3, m4; lengths in system 2
init = system.initialize(y0={"m3.s": 4.5, "m4.s": 12.5}, z0={"m3.v": 0.0, "m4.v": 0.0},
                         fix={"s1.s_rel": 0.5, "sd1.s_rel": 1.0, "sd1.w_rel": 0.0,
                              "m1.v": 0.0})
x0 = dict(zip(system.x_names, init.x0))
print(f"solved start: m1.s = {x0['m1.s']:.9f} m, m2.s = {x0['m2.s']:.9f} m, "
      f"m2.v = {x0['m2.v']:.9f} m/s")
res = system.simulate(5.0, x0=init.x0, n_out=5001, rtol=1e-10, atol=1e-12)
rest = max(np.abs(res["m3.s"] - 4.5).max(), np.abs(res["m4.s"] - 12.5).max())
print(f"system 1 at rest: max displacement {rest:.2e} m")


def rhs(t, x):
    """m1, m2: s1 from −1 to m1.s − 0.5, sd1 from m1.s + 0.5 to m2.s − 1."""
    s1, s2, v1, v2 = x
    f_s1 = 1e3 * ((s1 - 0.5 + 1.0) - 1.0)                       # spring s1 pulls m1 back
    f_sd1 = 111.0 * (((s2 - 1.0) - (s1 + 0.5)) - 1.0) + 1.0 * (v2 - v1)
    return [v1, v2, -f_s1 + f_sd1, -f_sd1]


ref = solve_ivp(rhs, (0.0, 5.0), [x0["m1.s"], x0["m2.s"], 0.0, 0.0], t_eval=res.t,
                rtol=1e-11, atol=1e-13, method="DOP853")
print(f"system 2: max |s - scipy| m1 {np.abs(res['m1.s'] - ref.y[0]).max():.2e} m, "
      f"m2 {np.abs(res['m2.s'] - ref.y[1]).max():.2e} m")
res.plot("m1.s", "m2.s", "m3.s", "m4.s", path=OUT / "initial_conditions.png",
         title="MSL Translational.Examples.InitialConditions")
print(f"figure saved to {OUT / 'initial_conditions.png'}")
