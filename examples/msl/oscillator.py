"""Modelica.Mechanics.Translational.Examples.Oscillator in jourdain
=================================================================

Built as the MSL builds it, from library parts only: a spring–mass oscillator driven at
resonance, without and with damping.

What: two masses (m = 1 kg, length L = 1 m, their middle at s = −0.5 m, at rest) are pushed
by a sine force (amplitude 1 N, 15.9155 Hz ≈ 100 rad/s) and held by a spring (c = 1e4 N/m,
s_rel0 = 1 m) from a Fixed at s0 = 1 m; the second has a damper (d = 10 N·s/m) beside its
spring. The resonance ω = √(c/m) = 100 rad/s: the undamped amplitude grows, the damped one is
bounded. The MSL runs it for 1 s.
Why: masses with a length (flanges at s ∓ L/2) and springs with a rest length, all at rest
in the initial state the MSL states.
You will see: the amplitude of both masses after 1 s against an independent scipy model,
the damped steady amplitude against the closed form 1/(d·ω), and out/oscillator.png.

Parts: LinearMotor = Translational.Sources.Force, TranslationalSpring = Components.Spring,
ViscousFriction = Components.Damper, Mass(L=1), Fixed(s0).
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import (Fixed, LinearMotor, Mass, Sine, TranslationalSpring,
                             ViscousFriction, World)

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)
f, c, d = 15.9155, 1.0e4, 10.0

# %% The model (MSL names)
model = jd.Model(world=World())
for k in (1, 2):
    setattr(model, f"mass{k}", Mass(m=1.0, L=1.0))
    setattr(model, f"spring{k}", TranslationalSpring(s_rel0=1.0, c=c))
    setattr(model, f"fixed{k}", Fixed(s0=1.0))
    setattr(model, f"force{k}", LinearMotor())
    setattr(model, f"sine{k}", Sine(f=f))
model.damper1 = ViscousFriction(d=d)
m = model
for a, b in ((m.mass1.flange_b, m.spring1.flange_a), (m.spring2.flange_a, m.damper1.flange_a),
             (m.mass2.flange_b, m.spring2.flange_a), (m.damper1.flange_b, m.spring2.flange_b),
             (m.sine1.y, m.force1.f), (m.sine2.y, m.force2.f),
             (m.spring1.flange_b, m.fixed1.flange), (m.force2.flange_b, m.mass2.flange_a),
             (m.force1.flange_b, m.mass1.flange_a), (m.spring2.flange_b, m.fixed2.flange)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 1 s (StopTime 1, Interval 1e-3) from s = −0.5 m, v = 0
res = system.simulate(1.0, y0={"mass1.s": -0.5, "mass2.s": -0.5}, n_out=1001, rtol=1e-10,
                      atol=1e-12)


def rhs(t, x, damping):
    """m·a = F(t) + c·(s_rel − s_rel0) − d·v, s_rel = s0 − (s + L/2) the spring's length."""
    s, v = x
    return [v, np.sin(2 * np.pi * f * t) + c * ((1.0 - (s + 0.5)) - 1.0) - damping * v]


late = res.t > 0.8
for k, damping in ((1, 0.0), (2, d)):
    ref = solve_ivp(rhs, (0.0, 1.0), [-0.5, 0.0], t_eval=res.t, args=(damping,), rtol=1e-11,
                    atol=1e-13, method="DOP853")
    s = res[f"mass{k}.s"]
    print(f"mass{k}: amplitude over the last 0.2 s {np.abs(s[late] + 0.5).max():.6f} m, "
          f"max |s - s_scipy| {np.abs(s - ref.y[0]).max():.2e} m")
omega = 2 * np.pi * f
print(f"damped steady amplitude, closed form 1/sqrt((c - m·ω²)² + (d·ω)²) = "
      f"{1 / np.hypot(c - omega ** 2, d * omega):.6f} m")
res.plot("mass1.s", "mass2.s", path=OUT / "oscillator.png",
         title="MSL Translational.Examples.Oscillator")
print(f"figure saved to {OUT / 'oscillator.png'}")
