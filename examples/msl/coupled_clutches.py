"""Modelica.Mechanics.Rotational.Examples.CoupledClutches in jourdain
==================================================================

Built as the MSL builds it.

What: four inertias (J = 1 kg·m² each; J1 starts at 10 rad/s) in a row, coupled by three
clutches (peak 1.1, fn_max 20 N, μ = 0.5); a torque of 10·sin(2π·5·t) N·m drives J1; clutch1
is pressed by sin(2π·0.2·t + π/2) (engaged until t = 1.25 s), clutch2 from T2 = 0.4 s and
clutch3 from T3 = 0.9 s by steps. The drive train has 2³ configurations and 3³ modes
(every clutch slides forward, backward or sticks); the MSL runs it for 1.5 s.
Why: the MSL's standard test of dynamically coupled friction elements: several clutches can
stick at once and the stuck ones form one rigid body whose constraint torques decide the
others' breakaway.
You will see: every mode change with its time, the speeds at the end, and a check of the
angular momentum: Σ J·ω(1.5 s) − 10 = ∫ 10·sin(10π·t) dt = 2/π (only the drive torque acts on
the train from outside); the figure out/msl_coupled_clutches.png.
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import Inertia, Motor, Sine, Step, World
from jourdain.blocks.hybrid import Clutch

f, T2, T3 = 0.2, 0.4, 0.9
OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (names as in the MSL: J1..J4, torque, clutch1..3, sin1, sin2, step1, step2)
model = jd.Model(world=World())
for k in range(1, 5):
    model.add(f"J{k}", Inertia(J=1.0))
model.torque = Motor()                      # Sources.Torque with its support fixed
model.sin1 = Sine(amplitude=10.0, f=5.0)
model.sin2 = Sine(amplitude=1.0, f=f, phase=np.pi / 2)
model.step1, model.step2 = Step(t_step=T2), Step(t_step=T3)
for k in range(1, 4):
    model.add(f"clutch{k}", Clutch(peak=1.1, fn_max=20.0))
model.connect(model.torque.flange_b, model.J1.flange_a)
model.connect(model.sin1.y, model.torque.tau)
for k, source in zip(range(1, 4), (model.sin2, model.step1, model.step2)):
    clutch = getattr(model, f"clutch{k}")
    model.connect(getattr(model, f"J{k}").flange_b, clutch.flange_a)
    model.connect(clutch.flange_b, getattr(model, f"J{k + 1}").flange_a)
    model.connect(source.y, clutch.f_normalized)
system = jd.compile(model)

# %% Simulate 1.5 s (the MSL's experiment: StopTime 1.5, Interval 1e-3)
res = system.simulate(1.5, z0={"J1.w": 10.0}, n_out=1501, rtol=1e-12, atol=1e-12)
print("mode changes (-1 backward, 0 stuck, 1 forward, 2 free):")
for record in res.events[1:]:
    print(f"  t = {record.t:.6f} s  {record.element}: {record.cause}  " +
          "; ".join(c.split(": ", 1)[-1] for c in record.changes if "mode" in c))
print("speeds at t = 1.5 s:", {f"J{k}.w": round(float(res[f'J{k}.w'][-1]), 6)
                               for k in range(1, 5)})
momentum = sum(res[f"J{k}.w"][-1] for k in range(1, 5)) - 10.0
print(f"angular momentum gained {momentum:.9f} N·m·s = ∫ drive torque dt = 2/π = "
      f"{2 / np.pi:.9f}")
res.plot("J1.w", "J2.w", "J3.w", "J4.w", "clutch1.mode", "clutch2.mode", "clutch3.mode",
         path=OUT / "msl_coupled_clutches.png", title="MSL CoupledClutches")
print(f"figure saved to {OUT / 'msl_coupled_clutches.png'}")
