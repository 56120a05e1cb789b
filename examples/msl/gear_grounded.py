"""Modelica.Mechanics.Translational.Examples.GearGrounded in jourdain
====================================================================

Built as the MSL builds it, from library parts only: a translational gear whose housing is
mounted elastically.

What: a ramp force (10 N → 20 N between 0.3 s and 0.9 s) pushes mass1 (0.1 kg) into the
flange_a of an IdealGear (ratio 1.6) whose flange_b drives mass2 (7 kg) against a preloaded
springDamper (c = 160 N/m, d = 10 N·s/m, s_rel0 = 0.1 m) to a Fixed; the gear's support sits
on springDamperSupport (c = 800 N/m, d = 50 N·s/m) to another Fixed. The ramp's offset
s_rel0·c/ratio = 10 N balances the preload, so the system starts at rest. The MSL fixes
mass2.s = 0, mass2.v = 0 and the support spring's s_rel = 0, v_rel = 0; it runs 3 s.
Why: a gear's housing that floats on a spring (the support's position follows from the two
flanges: s_support = (s_a − ratio·s_b)/(1 − ratio)); initial values on a force element's
length and rate, solved by ``system.initialize``.
You will see: the solved start, both masses against an independent scipy model of the
hand-reduced equations, the energy balance, and out/gear_grounded.png.

Parts: TranslationalIdealGear = Components.IdealGear (support connected: useSupport = true),
LinearMotor = Sources.Force, TranslationalSpringDamper = Components.SpringDamper, Ramp,
Fixed, Mass.
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import (Fixed, LinearMotor, Mass, Ramp, TranslationalIdealGear,
                             TranslationalSpringDamper, World)

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)
ratio, c, d, s_rel0, c_sup, d_sup = 1.6, 160.0, 10.0, 0.1, 800.0, 50.0

# %% The model (MSL names)
model = jd.Model(world=World())
model.force = LinearMotor()
model.idealGear = TranslationalIdealGear(ratio=ratio)
model.mass1, model.mass2 = Mass(m=0.1), Mass(m=7.0)
model.springDamper = TranslationalSpringDamper(c=c, d=d, s_rel0=s_rel0)
model.springDamperSupport = TranslationalSpringDamper(c=c_sup, d=d_sup)
model.ramp = Ramp(height=10.0, duration=0.6, offset=s_rel0 * c / ratio, startTime=0.3)
model.fixed, model.fixed1 = Fixed(), Fixed()
m = model
for a, b in ((m.mass1.flange_b, m.idealGear.flange_a), (m.idealGear.flange_b, m.mass2.flange_a),
             (m.ramp.y, m.force.f), (m.force.flange_b, m.mass1.flange_a),
             (m.fixed.flange, m.springDamperSupport.flange_a),
             (m.springDamperSupport.flange_b, m.idealGear.support),
             (m.mass2.flange_b, m.springDamper.flange_a), (m.springDamper.flange_b, m.fixed1.flange)):
    model.connect(a, b)
system = jd.compile(model)

# %% The MSL's initial equations, then 3 s (StopTime 3, Interval 1e-3)
init = system.initialize(y0={"mass2.s": 0.0}, z0={"mass2.v": 0.0},
                         fix={"springDamperSupport.s_rel": 0.0,
                              "springDamperSupport.w_rel": 0.0})
x0 = dict(zip(system.x_names, init.x0))
print(f"solved start: mass1.s = {x0['mass1.s']:.3e} m, mass1.v = {x0['mass1.v']:.3e} m/s")
res = system.simulate(3.0, x0=init.x0, n_out=3001, rtol=1e-10, atol=1e-12)


def rhs(t, x):
    """Coordinates s1, s2; s_sup = (s1 − ratio·s2)/(1 − ratio) (the gear's relation)."""
    s1, s2, v1, v2 = x
    J = np.array([1.0, -ratio]) / (1 - ratio)          # ∂s_sup/∂(s1, s2)
    f_sup = c_sup * (J @ [s1, s2]) + d_sup * (J @ [v1, v2])
    F = s_rel0 * c / ratio + 10.0 * np.clip((t - 0.3) / 0.6, 0.0, 1.0)
    f1 = F - f_sup * J[0]
    f2 = -c * (s2 + s_rel0) - d * v2 - f_sup * J[1]   # springDamper: s_rel = 0 − s2
    return [v1, v2, f1 / 0.1, f2 / 7.0]


ref = solve_ivp(rhs, (0.0, 3.0), [x0["mass1.s"], x0["mass2.s"], x0["mass1.v"], x0["mass2.v"]],
                t_eval=res.t, rtol=1e-11, atol=1e-13, method="DOP853", max_step=0.01)
print(f"max |s - scipy|: mass1 {np.abs(res['mass1.s'] - ref.y[0]).max():.2e} m, mass2 "
      f"{np.abs(res['mass2.s'] - ref.y[1]).max():.2e} m (mass1 moves {np.ptp(ref.y[0]):.4f} m)")
E = res["energy.total"]
net = np.trapezoid(res["power.supplied"] - res["power.dissipated"], res.t)
print(f"energy balance: E(3 s) − E(0) = {E[-1] - E[0]:.6f} J, ∫(P_supplied − P_dissipated) dt "
      f"= {net:.6f} J")
res.plot("mass1.s", "mass2.s", path=OUT / "gear_grounded.png",
         title="MSL Translational.Examples.GearGrounded")
print(f"figure saved to {OUT / 'gear_grounded.png'}")
