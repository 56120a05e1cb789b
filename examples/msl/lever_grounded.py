"""Modelica.Mechanics.Translational.Examples.LeverGrounded in jourdain
=====================================================================

Built as the MSL builds it, from library parts only: an elastically mounted lever.

What: a sine force (amplitude 10 N, 5 Hz, its support grounded: useSupport = false) drives
mass1 (0.1 kg) at flange_a of an IdealLever (ratio 1.6: a lever of the second class, the
driven flange_b between flange_a and the pivot) whose flange_b carries mass2 (7 kg); the
lever's pivot (support) sits on a springDamper (c = 800 N/m, d = 50 N·s/m) to a Fixed. The
MSL fixes mass2.s = 0, mass2.v = 0 and the spring's s_rel = 0, v_rel = 0; it runs 1 s.
Why: a lever whose pivot floats on a spring (s_pivot = (s_a − ratio·s_b)/(1 − ratio));
initial values on a force element's length and rate, solved by ``system.initialize``.
You will see: both masses against an independent scipy model of the hand-reduced
equations, the energy balance, and out/lever_grounded.png.

Parts: IdealLever (support connected: useSupport = true), LinearMotor = Sources.Force,
TranslationalSpringDamper = Components.SpringDamper, Sine, Fixed, Mass.
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import (Fixed, IdealLever, LinearMotor, Mass, Sine,
                             TranslationalSpringDamper, World)

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)
ratio, c, d = 1.6, 800.0, 50.0

# %% The model (MSL names)
model = jd.Model(world=World())
model.force = LinearMotor()
model.mass1, model.mass2 = Mass(m=0.1), Mass(m=7.0)
model.idealLever = IdealLever(ratio=ratio)
model.sine = Sine(amplitude=10.0, f=5.0)
model.fixed = Fixed()
model.springDamper = TranslationalSpringDamper(c=c, d=d)
m = model
for a, b in ((m.mass1.flange_b, m.idealLever.flange_a), (m.idealLever.flange_b, m.mass2.flange_a),
             (m.sine.y, m.force.f), (m.force.flange_b, m.mass1.flange_a),
             (m.fixed.flange, m.springDamper.flange_a),
             (m.springDamper.flange_b, m.idealLever.support)):
    model.connect(a, b)
system = jd.compile(model)

# %% The MSL's initial equations, then 1 s (StopTime 1, Interval 1e-3)
init = system.initialize(y0={"mass2.s": 0.0}, z0={"mass2.v": 0.0},
                         fix={"springDamper.s_rel": 0.0, "springDamper.w_rel": 0.0})
x0 = dict(zip(system.x_names, init.x0))
res = system.simulate(1.0, x0=init.x0, n_out=1001, rtol=1e-10, atol=1e-12)


def rhs(t, x):
    """Coordinates s1, s2; s_pivot = (s1 − ratio·s2)/(1 − ratio) (the lever's relation)."""
    s1, s2, v1, v2 = x
    J = np.array([1.0, -ratio]) / (1 - ratio)          # ∂s_pivot/∂(s1, s2)
    f_pivot = c * (J @ [s1, s2]) + d * (J @ [v1, v2])
    return [v1, v2, (10.0 * np.sin(2 * np.pi * 5.0 * t) - f_pivot * J[0]) / 0.1,
            -f_pivot * J[1] / 7.0]


ref = solve_ivp(rhs, (0.0, 1.0), [x0["mass1.s"], x0["mass2.s"], x0["mass1.v"], x0["mass2.v"]],
                t_eval=res.t, rtol=1e-11, atol=1e-13, method="DOP853", max_step=0.005)
print(f"max |v - scipy|: mass1 {np.abs(res['mass1.v'] - ref.y[2]).max():.2e} m/s, mass2 "
      f"{np.abs(res['mass2.v'] - ref.y[3]).max():.2e} m/s (mass1 up to "
      f"{np.abs(ref.y[2]).max():.4f} m/s)")
E = res["energy.total"]
net = np.trapezoid(res["power.supplied"] - res["power.dissipated"], res.t)
print(f"energy balance: E(1 s) − E(0) = {E[-1] - E[0]:.6f} J, ∫(P_supplied − P_dissipated) dt "
      f"= {net:.6f} J")
res.plot("mass1.v", "mass2.v", path=OUT / "lever_grounded.png",
         title="MSL Translational.Examples.LeverGrounded")
print(f"figure saved to {OUT / 'lever_grounded.png'}")
