"""Modelica.Mechanics.Translational.Examples.ElastoGap in jourdain
================================================================

Built as the MSL builds it, from library parts only: the effect of ElastoGaps on the
eigenfrequency.

What: a Fixed at 0 carries two rods (L = 2 m) reaching to −2 m and +2 m. mass1 (1 kg, at
s = 2 m at rest) hangs between them on two SpringDampers (c = 10 N/m, d = 1.5 N·s/m,
s_rel0 = 1 m); mass2 (the same start) on two ElastoGaps (c = 10 N/m, d = 1.5 N·s/m,
s_rel0 = 1.5 m), which lift off at s > −0.5 m and s < +0.5 m. The MSL runs it for 5 s.
Why: the MSL's statement "mass2 moves freely as long as −0.5 m < s < +0.5 m", while mass1
is a damped oscillator all the time; ElastoGap's damping is bounded by its spring force, so
it never pulls and its force is continuous at contact.
You will see: mass1 against the closed form of m·s'' = −2c·s − 2d·s', mass2 against an
independent scipy model of the MSL's law, the largest change of mass2's speed
while it flies free, the energy balance of both, and out/elasto_gap.png.

Parts: TranslationalSpringDamper = Components.SpringDamper, hybrid.ElastoGap, Rod, Fixed,
Mass. The MSL's start values of the elements' s_rel (fixed = false) are mere guesses and
need nothing here.
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import Fixed, Mass, Rod, TranslationalSpringDamper, World
from jourdain.blocks.hybrid import ElastoGap

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)
c, d = 10.0, 1.5

# %% The model (MSL names)
model = jd.Model(world=World())
model.fixed = Fixed()
model.rod1, model.rod2 = Rod(L=2.0), Rod(L=2.0)
model.springDamper1 = TranslationalSpringDamper(c=c, s_rel0=1.0, d=d)
model.springDamper2 = TranslationalSpringDamper(c=c, s_rel0=1.0, d=d)
model.mass1 = Mass(L=0.0, m=1.0)
model.elastoGap1 = ElastoGap(c=c, s_rel0=1.5, d=d)
model.elastoGap2 = ElastoGap(c=c, s_rel0=1.5, d=d)
model.mass2 = Mass(L=0.0, m=1.0)
m = model
for a, b in ((m.rod1.flange_b, m.fixed.flange), (m.fixed.flange, m.rod2.flange_a),
             (m.springDamper1.flange_a, m.rod1.flange_a),
             (m.springDamper2.flange_b, m.rod2.flange_b),
             (m.springDamper1.flange_b, m.mass1.flange_a),
             (m.mass1.flange_b, m.springDamper2.flange_a),
             (m.rod1.flange_a, m.elastoGap1.flange_a), (m.rod2.flange_b, m.elastoGap2.flange_b),
             (m.elastoGap1.flange_b, m.mass2.flange_a),
             (m.mass2.flange_b, m.elastoGap2.flange_a)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 5 s (StopTime 5) from s = 2 m at rest
res = system.simulate(5.0, y0={"mass1.s": 2.0, "mass2.s": 2.0},
                      z0={"mass1.v": 0.0, "mass2.v": 0.0}, n_out=5001, rtol=1e-10,
                      atol=1e-12)
t = res.t

# mass1: m·s'' + 2d·s' + 2c·s = 0, s(0) = 2, v(0) = 0
zeta_w, wd = d, np.sqrt(2 * c - d ** 2)
s1 = np.exp(-zeta_w * t) * (2 * np.cos(wd * t) + 2 * zeta_w / wd * np.sin(wd * t))
print(f"mass1: max |s - closed form| {np.abs(res['mass1.s'] - s1).max():.2e} m")


def gap_force(depth, rate):
    """The MSL's ElastoGap force on the mass pushed by it: c·depth − f_d, f_d = d·rate
    bounded by the spring force (depth > 0 in contact, rate = d(s_rel)/dt)."""
    if depth <= 0:
        return 0.0
    f_c = -c * depth
    f_d = min(max(d * rate, f_c), -f_c)
    return -(f_c + f_d)


def rhs(t, x):
    """mass2 between elastoGap1 (s_rel = s + 2) and elastoGap2 (s_rel = 2 − s)."""
    s, v = x
    return [v, gap_force(1.5 - (s + 2.0), v) - gap_force(1.5 - (2.0 - s), -v)]


# the force is continuous (kinks at contact): small steps instead of restarts
ref = solve_ivp(rhs, (0.0, 5.0), [2.0, 0.0], t_eval=t, rtol=1e-12, atol=1e-12,
                method="DOP853", max_step=1e-3)
s2 = ref.y[0]
print(f"mass2: max |s - scipy| {np.abs(res['mass2.s'] - s2).max():.2e} m")
free = np.abs(res["mass2.s"]) < 0.5 - 1e-6
runs = np.split(np.flatnonzero(free), np.flatnonzero(np.diff(np.flatnonzero(free)) > 1) + 1)
change = max(np.ptp(res["mass2.v"][r]) for r in runs if r.size > 1)
print(f"mass2 free for |s| < 0.5 m in {len(runs)} flights; largest change of v in flight "
      f"{change:.2e} m/s")
E = res["energy.total"]
net = np.trapezoid(res["power.supplied"] - res["power.dissipated"], t)
print(f"energy balance: E(5 s) − E(0) = {E[-1] - E[0]:.6f} J, ∫(P_supplied − P_dissipated) dt "
      f"= {net:.6f} J")
res.plot("mass1.s", "mass2.s", path=OUT / "elasto_gap.png",
         title="MSL Translational.Examples.ElastoGap")
print(f"figure saved to {OUT / 'elasto_gap.png'}")
