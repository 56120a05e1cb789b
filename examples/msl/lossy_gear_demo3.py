"""Modelica.Mechanics.Rotational.Examples.LossyGearDemo3 in jourdain
==================================================================

Built as the MSL builds it, from library parts only: a LossyGear whose driving side is not
obvious (the LossyGear of MSL ≤ 3.1 failed here: no convergence of the event iteration).

What: two inertias (J = 0.001 kg·m² each, both turning at 10 rad/s) joined by a LossyGear
(ratio 1, lossTable = [0, 0.25, 0.25, 0.625, 2.5]: mesh efficiency 0.25 either way, bearing
friction 0.625 N·m when flange_a drives, 2.5 N·m when flange_b drives, so 0.5 N·m on each
side), no torque on Inertia1 (a Step of height 0) and a Step of 1 N·m on Inertia2 from
t = 0.5 s; the housing is the reference (useSupport = false). The MSL runs it for 1 s.
Why: rolling out, the teeth carry no torque: the flange_a.tau − tau_bf_a that decides the
driving side is exactly 0, where both quadrants of the loss law give the same loss (1 N·m):
w = 10 − 500·t, stuck at t = 0.02 s. The step then drives flange_b with 1 N·m, below the
static limit (quadrant2 at w = 0+: 2.5 N·m), so the gear stays stuck.
You will see: the stop time and the speed against that closed form, the gear's modes, the
energy lost in the gear (the 0.1 J of kinetic energy) and the figure out/lossy_gear_demo3.png.

Parts: Motor = Rotational.Sources.Torque (useSupport = false: flange_a left free, the
reference); Step = Blocks.Sources.Step (t_step for the MSL's startTime). As in the MSL, Inertia2's phi
and w are fixed and Inertia1.w (only a start value there) follows from the gear: initialize()
solves the speeds through the LossyGear's mesh, a constraint in every mode.
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import Inertia, LossyGear, Motor, Step, World
from jourdain.blocks.drivetrain import GearMode

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.gear = LossyGear(ratio=1.0, lossTable=[[0.0, 0.25, 0.25, 0.625, 2.5]])
model.Inertia1, model.Inertia2 = Inertia(J=0.001), Inertia(J=0.001)
model.torque1, model.torque2 = Motor(), Motor()
model.step = Step(height=0.0)
model.step1 = Step(t_step=0.5, height=1.0, offset=0.0)
for a, b in ((model.Inertia1.flange_b, model.gear.flange_a),
             (model.torque1.flange_b, model.Inertia1.flange_a),
             (model.step.y, model.torque1.tau),
             (model.gear.flange_b, model.Inertia2.flange_a),
             (model.Inertia2.flange_b, model.torque2.flange_b),
             (model.step1.y, model.torque2.tau)):
    model.connect(a, b)
system = jd.compile(model)
init = system.initialize(y0={"Inertia2.phi": 0.0}, z0={"Inertia2.w": 10.0})
print(init)

# %% Simulate 1 s (StopTime 1, Interval 1e-3)
res = system.simulate(1.0, x0=init.x0, n_out=1001, rtol=1e-10, atol=1e-12)
print("gear mode changes (1 forward, 0 stuck, -1 backward):")
for record in res.events.select("gear"):
    print(f"  t = {record.t:.6f} s  {record.cause}: " +
          "; ".join(c.split(": ", 1)[-1] for c in record.changes))
stops = [r.t for r in res.events.select("gear") if any("→ 0" in c for c in r.changes)]
print(f"stuck at t = {stops[0]:.6f} s (closed form 0.020000 s)")
t = res.t
closed = np.maximum(10.0 - 500.0 * t, 0.0)
print(f"max |Inertia1.w - max(10 - 500·t, 0)| = {np.abs(res['Inertia1.w'] - closed).max():.2e}"
      f" rad/s, max |Inertia2.w - Inertia1.w| = "
      f"{np.abs(res['Inertia2.w'] - res['Inertia1.w']).max():.2e} rad/s")
after = t > 0.5
print(f"after the step: max |w| = {np.abs(res['Inertia2.w'][after]).max():.2e} rad/s, gear "
      f"modes {sorted({int(v) for v in res['gear.mode'][after]})} "
      f"(stuck = {int(GearMode.STUCK)}), tauLoss = {res['gear.tauLoss'][-1]:.6f} N·m")
loss = res["gear.tauLoss"] * res["Inertia1.w"]
print(f"energy lost in the gear {np.trapezoid(loss, t):.6f} J (kinetic energy at the start "
      f"{0.5 * 0.002 * 100:.6f} J)")
check = res.check()
print(f"energy balance {'holds' if check else 'FAILS'}: relative error {check.energy_relative:.1e}")
res.plot("Inertia1.w", "Inertia2.w", "gear.mode", "gear.tauLoss",
         path=OUT / "lossy_gear_demo3.png", title="MSL Rotational.Examples.LossyGearDemo3")
print(f"figure saved to {OUT / 'lossy_gear_demo3.png'}")
