"""Modelica.Mechanics.Rotational.Examples.First in jourdain
=========================================================

Built as the MSL builds it, from library parts only: a simple drive train.

What: a sine torque (amplitude 10 N·m, 5 Hz) drives the motor inertia1 (J = 0.1 kg·m²),
an IdealGear (ratio 10) the gear-side inertia2 (J = 2), a Spring (c = 1e4 N·m/rad) the load
inertia3 (J = 2); a Damper (d = 10 N·m·s/rad) holds inertia2 against the Fixed housing, which
also carries the torque source's and the gear's supports. All starts at rest (the MSL fixes
inertia2.phi, inertia2.w, spring.phi_rel and inertia3.w at 0). The MSL runs it for 1 s and
plots inertia2.w and inertia3.w.
Why: the first drive train of the MSL; inertia2 sits behind the gear, so its angle is not a
coordinate of its own (inertia1's is), yet the Result has inertia2.phi and inertia2.w.
You will see: the extremes of both speeds, the agreement with an independent scipy model of
the reduced equations and the energy balance, and the figure out/msl_first.png.

Parts: Motor = Rotational.Sources.Torque (useSupport: its flange_a on the Fixed),
RotationalSpring = Components.Spring, ViscousFriction = Components.Damper.
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import (Fixed, IdealGear, Inertia, Motor, RotationalSpring, Sine,
                             ViscousFriction, World)

amplitude, f, Jmotor, Jload, ratio, damping = 10.0, 5.0, 0.1, 2.0, 10.0, 10.0
OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.fixed = Fixed()
model.torque = Motor()
model.inertia1 = Inertia(J=Jmotor)
model.idealGear = IdealGear(ratio=ratio)
model.inertia2 = Inertia(J=2.0)
model.spring = RotationalSpring(c=1.0e4)
model.inertia3 = Inertia(J=Jload)
model.damper = ViscousFriction(d=damping)
model.sine = Sine(amplitude=amplitude, f=f)
for a, b in ((model.inertia1.flange_b, model.idealGear.flange_a),
             (model.idealGear.flange_b, model.inertia2.flange_a),
             (model.inertia2.flange_b, model.spring.flange_a),
             (model.spring.flange_b, model.inertia3.flange_a),
             (model.damper.flange_a, model.inertia2.flange_b),
             (model.damper.flange_b, model.fixed.flange),
             (model.sine.y, model.torque.tau),
             (model.torque.flange_a, model.fixed.flange),      # torque.support
             (model.idealGear.support, model.fixed.flange),
             (model.torque.flange_b, model.inertia1.flange_a)):
    model.connect(a, b)
system = jd.compile(model)
print("coordinates:", system.y_names)

# %% Simulate 1 s (StopTime 1, Interval 1e-3), everything at rest at the start
res = system.simulate(1.0, n_out=1001, rtol=1e-10, atol=1e-12)
for name in ("inertia2.w", "inertia3.w"):
    print(f"{name}: min {res[name].min():.6f}  max {res[name].max():.6f} rad/s")


# %% An independent model: the gear reflects J1 (ratio²·J1) and the torque (ratio·tau)
def rhs(t, x):
    phi2, w2, phi3, w3 = x
    spring = 1.0e4 * (phi3 - phi2)
    tau = amplitude * np.sin(2 * np.pi * f * t)
    return [w2, (ratio * tau + spring - damping * w2) / (ratio ** 2 * Jmotor + 2.0),
            w3, -spring / Jload]


ref = solve_ivp(rhs, (0.0, 1.0), [0, 0, 0, 0], t_eval=res.t, rtol=1e-11, atol=1e-13,
                method="DOP853")
err2 = np.abs(res["inertia2.w"] - ref.y[1]).max()
err3 = np.abs(res["inertia3.w"] - ref.y[3]).max()
print(f"max |w - w_scipy|: inertia2 {err2:.2e}, inertia3 {err3:.2e} rad/s")
print(f"inertia1 = ratio·inertia2: max residual "
      f"{np.abs(res['inertia1.phi'] - ratio * res['inertia2.phi']).max():.1e} rad")
check = res.check()
print(f"energy balance {'holds' if check else 'FAILS'}: relative error "
      f"{check.energy_relative:.1e}")
res.plot("inertia2.w", "inertia3.w", path=OUT / "first.png",
         title="MSL Rotational.Examples.First")
print(f"figure saved to {OUT / 'first.png'}")
