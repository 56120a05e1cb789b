"""Modelica.Mechanics.Rotational.Examples.LossyGearDemo1 in jourdain
==================================================================

Built as the MSL builds it, from library parts only: gear efficiency may lead to stuck motion.

What: Inertia1 (J = 1 kg·m²), driven by 10·sin(2π·t) N·m, meets Inertia2 (J = 1.5), loaded by
a Ramp from −10 to −5 N·m over 2 s, through a LossyGear (ratio 2, mesh efficiency 0.5 in both
directions of power flow: lossTable = [0, 0.5, 0.5, 0, 0]) on a Fixed housing. The MSL runs it
for 0.5 s: the gear takes all its modes, backward and forward rolling and stuck.
Why: the loss torque depends on the torque the teeth carry, a constraint force; jourdain's
LossyGear carries it as a row of constraint force (docs/hybrid.md), so stick/slip and the
driving side are decided on it as in the MSL.
You will see: the mode changes with their times, the power lost in the gear, the energy
balance, and the figure out/lossy_gear_demo1.png.

Parts: Motor = Rotational.Sources.Torque (useSupport: flange_a on the Fixed).
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import Fixed, Inertia, LossyGear, Motor, Ramp, Sine, World

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.gear = LossyGear(ratio=2.0, lossTable=[[0.0, 0.5, 0.5, 0.0, 0.0]])
model.Inertia1 = Inertia(J=1.0)
model.Inertia2 = Inertia(J=1.5)
model.torque1, model.torque2 = Motor(), Motor()
model.DriveSine = Sine(amplitude=10.0, f=1.0)
model.load = Ramp(height=5.0, duration=2.0, offset=-10.0)
model.fixed = Fixed()
for a, b in ((model.Inertia1.flange_b, model.gear.flange_a),
             (model.gear.flange_b, model.Inertia2.flange_a),
             (model.torque1.flange_b, model.Inertia1.flange_a),
             (model.torque2.flange_b, model.Inertia2.flange_b),
             (model.DriveSine.y, model.torque1.tau), (model.load.y, model.torque2.tau),
             (model.fixed.flange, model.gear.support),
             (model.fixed.flange, model.torque1.flange_a),
             (model.fixed.flange, model.torque2.flange_a)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 0.5 s (StopTime 0.5, Interval 1e-3) from rest
res = system.simulate(0.5, n_out=501, rtol=1e-9, atol=1e-11)
print("gear mode changes (1 forward, 0 stuck, -1 backward):")
for record in res.events.select("gear"):
    print(f"  t = {record.t:.6f} s  {record.cause}: " +
          "; ".join(c.split(": ", 1)[-1] for c in record.changes))
# PowerLoss = flange_a.tau·w_a + flange_b.tau·w_b = tauLoss·w_a (the MSL's lossPower)
loss = res["gear.tauLoss"] * res["Inertia1.w"]
print(f"power lost in the gear: max {loss.max():.4f} W, energy lost "
      f"{np.trapezoid(loss, res.t):.6f} J")
print(f"Inertia1.w: min {res['Inertia1.w'].min():.6f}  max {res['Inertia1.w'].max():.6f} rad/s")
check = res.check()
print(f"energy balance {'holds' if check else 'FAILS'}: relative error "
      f"{check.energy_relative:.1e}")
res.plot("Inertia1.w", "Inertia2.w", "gear.mode", path=OUT / "lossy_gear_demo1.png",
         title="MSL Rotational.Examples.LossyGearDemo1")
print(f"figure saved to {OUT / 'lossy_gear_demo1.png'}")
