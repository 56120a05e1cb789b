"""Modelica.Mechanics.Translational.Examples.CompareBrakingForce in jourdain
===========================================================================

Built as the MSL builds it, from library parts only: four masses braked by four laws.

What: four masses (m = 1 kg) start at s = 0 with v_start = 100 m/s; each is braked by one
source with f_nominal = −100 N: a constant force changing sign with the speed
(``SignForce``, linear regularization below v0 = 1 m/s), a force linear in the speed
(``LinearSpeedDependentForce``), quadratic (``QuadraticSpeedDependentForce``) and inversely
proportional to it (``InverseSpeedDependentForce``, below v0 = 1 m/s linear to zero), all
with ForceDirection = false and v_nominal = abs(v_start). The MSL runs it for 5 s.
Why: the MSL's speed-dependent sources with their regularizations; the inverse law jumps at
abs(v) = v0 (from f_nominal·v_nominal/v0 = −10 kN to f_nominal·v0/v0 = −100 N), as in the MSL,
and a guard restarts the integrator there.
You will see: each mass's speed against its closed form (constant deceleration, then the
exponential decay inside the regularization; 100·e^(−t); 100/(1 + t); √(10⁴ − 2·10⁴·t), then
decay), the distances after 5 s, and out/compare_braking_force.png.

Parts: SignForce(reg=Regularization.Linear), LinearSpeedDependentForce,
QuadraticSpeedDependentForce, InverseSpeedDependentForce, Mass.
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import (InverseSpeedDependentForce, LinearSpeedDependentForce, Mass,
                             QuadraticSpeedDependentForce, Regularization, SignForce, World)

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)
m, v_start, f_nominal, v0 = 1.0, 100.0, 100.0, 1.0
v_nominal = abs(v_start)

# %% The model (MSL names)
model = jd.Model(world=World())
model.mass1, model.mass2, model.mass3, model.mass4 = (Mass(m=m) for _ in range(4))
model.signForce = SignForce(f_nominal=-f_nominal, reg=Regularization.Linear, v0=v0)
model.linearSpeedDependentForce = LinearSpeedDependentForce(
    f_nominal=-f_nominal, ForceDirection=False, v_nominal=v_nominal)
model.quadraticSpeedDependentForce = QuadraticSpeedDependentForce(
    f_nominal=-f_nominal, ForceDirection=False, v_nominal=v_nominal)
model.inverseSpeedDependentForce = InverseSpeedDependentForce(
    f_nominal=-f_nominal, ForceDirection=False, v_nominal=v_nominal, v0=v0)
m_ = model
for a, b in ((m_.signForce.flange, m_.mass1.flange_a),
             (m_.linearSpeedDependentForce.flange, m_.mass2.flange_a),
             (m_.quadraticSpeedDependentForce.flange, m_.mass3.flange_a),
             (m_.inverseSpeedDependentForce.flange, m_.mass4.flange_a)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 5 s from s = 0, v = v_start (the MSL's fixed start values)
res = system.simulate(5.0, y0={f"mass{k}.s": 0.0 for k in range(1, 5)},
                      z0={f"mass{k}.v": v_start for k in range(1, 5)}, n_out=5001,
                      rtol=1e-10, atol=1e-10)
t = res.t


def decay_after(t1, s1):
    """Inside the regularization: m·v' = f_nominal·v/v0, v(t1) = v0 → v, s after t1."""
    k = f_nominal / (m * v0)
    e = np.exp(-k * np.clip(t - t1, 0, None))
    return v0 * e, s1 + v0 * (1 - e) / k


# constant deceleration f_nominal/m until v = v0, then decay
t1 = (v_start - v0) * m / f_nominal
v_dec, s_dec = decay_after(t1, v_start * t1 - 0.5 * f_nominal / m * t1 ** 2)
v1 = np.where(t < t1, v_start - f_nominal / m * t, v_dec)
s1 = np.where(t < t1, v_start * t - 0.5 * f_nominal / m * t ** 2, s_dec)
# linear: v' = −(f_nominal/(m·v_nominal))·v
k2 = f_nominal / (m * v_nominal)
v2, s2 = v_start * np.exp(-k2 * t), v_start * (1 - np.exp(-k2 * t)) / k2
# quadratic: v' = −f_nominal·v²/(m·v_nominal²)
k3 = f_nominal / (m * v_nominal ** 2)
v3, s3 = v_start / (1 + k3 * v_start * t), np.log1p(k3 * v_start * t) / k3
# inverse: v·v' = −f_nominal·v_nominal/m until v = v0, then decay
P = f_nominal * v_nominal / m
t4 = (v_start ** 2 - v0 ** 2) / (2 * P)
sq = np.clip(v_start ** 2 - 2 * P * t, v0 ** 2, None)
v_dec, s_dec = decay_after(t4, (v_start ** 3 - v0 ** 3) / (3 * P))
v4 = np.where(t < t4, np.sqrt(sq), v_dec)
s4 = np.where(t < t4, (v_start ** 3 - sq ** 1.5) / (3 * P), s_dec)

for k, (v_ref, s_ref, law) in enumerate(((v1, s1, "sign"), (v2, s2, "linear"),
                                         (v3, s3, "quadratic"), (v4, s4, "inverse")), 1):
    v, s = res[f"mass{k}.v"], res[f"mass{k}.s"]
    print(f"mass{k} ({law}): s(5 s) = {s[-1]:.6f} m (closed form {s_ref[-1]:.6f}), "
          f"max |v - closed form| {np.abs(v - v_ref).max():.2e} m/s")
print(f"sign force reaches v0 at t = {t1:.5f} s, inverse force at t = {t4:.5f} s")
res.plot("mass1.v", "mass2.v", "mass3.v", "mass4.v", path=OUT / "compare_braking_force.png",
         title="MSL Translational.Examples.CompareBrakingForce")
print(f"figure saved to {OUT / 'compare_braking_force.png'}")
