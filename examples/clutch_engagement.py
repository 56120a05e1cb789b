"""Two shafts coupled by a clutch that engages
===========================================

What: an engine shaft (J1 = 1 kg·m², spinning at 10 rad/s, driven by a constant torque
τ_e = 2 N·m) and a load shaft (J2 = 2 kg·m², at rest, with a load torque of −1 N·m) — two
free 1-D inertias (Inertia) — are coupled by an MSL Clutch. At t = 0.5 s its normal force
rises in a step (f_normalized 0 → 1); the clutch slips with the sliding torque
τ_c = cgeo·μ·fn, the speeds approach, and at equal speeds it locks: the two shafts turn as
one, the clutch torque becomes the constraint torque that keeps them together.
Why: the engagement of a clutch is the textbook variable-structure drive train (MSL
Rotational.Examples.CoupledClutches); locked, the clutch is a coupling constraint.
You will see: the lock-up time against the closed form from the shafts' equations while
slipping (the speed difference closes at a constant rate), the common speed's acceleration
(τ_e + τ_l)/(J1 + J2) after lock-up, the torque transmitted while locked, and
out/clutch_engagement.png.
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import Inertia, Motor, Step, World
from jourdain.blocks.hybrid import Clutch

J1, J2, tau_e, tau_l, mu, fn = 1.0, 2.0, 2.0, -1.0, 0.3, 20.0
OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %%
# Model: two inertias, an engine torque, a load torque, the clutch between them
model = jd.Model(world=World())
model.engine, model.load = Inertia(J=J1), Inertia(J=J2)
model.drive, model.brake_load = Motor(), Motor()
model.clutch = Clutch(mu_pos=[[0.0, mu]], peak=1.1, fn_max=fn)
model.engage = Step(height=1.0, t_step=0.5)
model.connect(model.drive.flange_b, model.engine.flange_a)
model.connect(model.brake_load.flange_b, model.load.flange_a)
model.connect(model.clutch.flange_a, model.engine.flange_b)
model.connect(model.clutch.flange_b, model.load.flange_a)
model.connect(model.engage.y, model.clutch.f_normalized)
system = jd.compile(model)

# %%
# Simulate
res = system.simulate(3.0, z0={"engine.w": 10.0}, n_out=601, rtol=1e-11, atol=1e-11,
                      inputs={"drive.tau": tau_e, "brake_load.tau": tau_l})
lock = res.events.select("clutch", "stop_backward")[0]
# before t = 0.5 s the shafts run free; slipping (ω1 > ω2): J1·ω̇1 = τ_e − τ_c,
# J2·ω̇2 = τ_l + τ_c, so ω1 − ω2 closes at a constant rate
w1, w2 = 10.0 + tau_e * 0.5 / J1, tau_l * 0.5 / J2
tau_c = mu * fn
rate = (tau_e - tau_c) / J1 - (tau_l + tau_c) / J2
t_lock = 0.5 + (w1 - w2) / -rate
print(f"engaged at t = {res.events.select('clutch', 'engage')[0].t:.6f} s, locked at "
      f"t = {lock.t:.9f} s (closed form {t_lock:.9f} s)")
i = np.searchsorted(res.t, 2.8)
common = np.gradient(res["engine.w"], res.t)[i]
print(f"after lock-up both shafts turn at one speed (|ω1 − ω2| = "
      f"{abs(res['engine.w'][-1] - res['load.w'][-1]):.1e} rad/s), accelerating at "
      f"{common:.6f} rad/s² = (τ_e + τ_l)/(J1 + J2) = {(tau_e + tau_l) / (J1 + J2):.6f}")
print(f"torque through the locked clutch: {abs(res['clutch.tau'][-1]):.6f} N·m (static limit "
      f"{1.1 * tau_c:.2f} N·m; by the load's equation J2·ω̇ − τ_l = "
      f"{J2 * (tau_e + tau_l) / (J1 + J2) - tau_l:.6f} N·m)")
res.plot("engine.w", "load.w", "clutch.tau", "clutch.mode", path=OUT / "clutch_engagement.png",
         title="Clutch engagement")
print(f"figure saved to {OUT / 'clutch_engagement.png'}")
