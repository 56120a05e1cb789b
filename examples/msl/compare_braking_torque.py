"""Modelica.Mechanics.Rotational.Examples.CompareBrakingTorque in jourdain
=======================================================================

Built as the MSL builds it, from library parts only: four braking torques on four equal
inertias.

What: four inertias (J = 1 kg·m², w_start = 100 rad/s) braked by a SignTorque (100 N·m
against the motion, Linear regularization below w0 = 1 rad/s), a LinearSpeedDependentTorque,
a QuadraticSpeedDependentTorque and an InverseSpeedDependentTorque (each −100 N·m at
w_nominal = 100 rad/s, TorqueDirection = false: reversing with the speed, so braking in both
directions; the inverse one regularized below w0 = 1 rad/s). The MSL runs it for 5 s and
compares inertiaN.w.
Why: the speed-dependent sources of Rotational.Sources with the MSL's laws.
You will see: each speed against its closed form — w = 100 − 100·t then e^(−100·(t − 0.99));
100·e^(−t); 100/(1 + t); √(10⁴ − 2·10⁴·t) then e^(−100·(t − 0.49995)) — and the figure
out/compare_braking_torque.png.

Note: the MSL's InverseSpeedDependentTorque jumps at w = ±w0 when w_nominal ≠ w0 (from
−10⁴ to −100 N·m here): both sides brake, so the speed only changes its rate there.
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import (Inertia, InverseSpeedDependentTorque, LinearSpeedDependentTorque,
                             QuadraticSpeedDependentTorque, Regularization, SignTorque, World)

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

J, w_start, tau_nominal, w0 = 1.0, 100.0, 100.0, 1.0   # the MSL's parameters
w_nominal = abs(w_start)

# %% The model (MSL names)
model = jd.Model(world=World())
model.inertia1, model.inertia2 = Inertia(J=J), Inertia(J=J)
model.inertia3, model.inertia4 = Inertia(J=J), Inertia(J=J)
model.signTorque = SignTorque(tau_nominal=-tau_nominal, reg=Regularization.Linear, w0=w0)
model.linearSpeedDependentTorque = LinearSpeedDependentTorque(
    tau_nominal=-tau_nominal, TorqueDirection=False, w_nominal=w_nominal)
model.quadraticSpeedDependentTorque = QuadraticSpeedDependentTorque(
    tau_nominal=-tau_nominal, TorqueDirection=False, w_nominal=w_nominal)
model.inverseSpeedDependentTorque = InverseSpeedDependentTorque(
    tau_nominal=-tau_nominal, TorqueDirection=False, w_nominal=w_nominal, w0=w0)
for source, inertia in ((model.signTorque, model.inertia1),
                        (model.linearSpeedDependentTorque, model.inertia2),
                        (model.quadraticSpeedDependentTorque, model.inertia3),
                        (model.inverseSpeedDependentTorque, model.inertia4)):
    model.connect(source.flange, inertia.flange_a)
system = jd.compile(model)

# %% Simulate 5 s (StopTime 5, the MSL's Interval 1e-4; output every 1e-3 s) from phi = 0, w = w_start
res = system.simulate(5.0, z0={f"inertia{k}.w": w_start for k in (1, 2, 3, 4)}, n_out=5001,
                      rtol=1e-10, atol=1e-10)
t = res.t
t1, t4 = (w_start - w0) / tau_nominal, (w_start ** 2 - w0 ** 2) / (2 * tau_nominal * w_nominal)
closed = {
    "inertia1": np.where(t < t1, w_start - tau_nominal * t, w0 * np.exp(-tau_nominal / w0 * (t - t1))),
    "inertia2": w_start * np.exp(-tau_nominal / w_nominal * t),
    "inertia3": w_start / (1 + tau_nominal / w_nominal ** 2 * w_start * t),
    "inertia4": np.where(t < t4, np.sqrt(np.clip(w_start ** 2 - 2 * tau_nominal * w_nominal * t,
                                                  0, None)),
                         w0 * np.exp(-tau_nominal / w0 * (t - t4))),
}
for name, ref in closed.items():
    print(f"{name}: w(5 s) = {res[name + '.w'][-1]:.10e} rad/s, max |w - closed form| = "
          f"{np.abs(res[name + '.w'] - ref).max():.2e} rad/s")
check = res.check()
print(f"energy balance {'holds' if check else 'FAILS'}: relative error {check.energy_relative:.1e}")
res.plot("inertia1.w", "inertia2.w", "inertia3.w", "inertia4.w",
         path=OUT / "compare_braking_torque.png",
         title="MSL Rotational.Examples.CompareBrakingTorque")
print(f"figure saved to {OUT / 'compare_braking_torque.png'}")
