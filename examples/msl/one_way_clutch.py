"""Modelica.Mechanics.Rotational.Examples.OneWayClutch in jourdain
===============================================================

Built as the MSL builds it.

What: a driving inertia (J = 1 kg·m², −0.5 rad/s) under a torque 10·sin(2π·3·t) N·m and a
driven inertia (J = 1, at rest) joined by a one-way clutch (freewheel in parallel with a
clutch: peak 25, fn_max 3 N, μ = 0.5), engaged periodically by a pulse (width 50 %, period
1.3 s, from 0.3 s). Released, the freewheel lets the driven side overrun (w_rel > 0) and
locks when w_rel would turn negative; engaged, the clutch drags the inertias to one speed.
The MSL runs it for 2 s.
Why: the freewheel, a unilateral constraint on a speed (locks one way only), and a clutch on
the same pair of flanges — MSL models them as one element to avoid two redundant constraint
torques; so does OneWayClutch here.
You will see: the lock and release instants, the speeds, a check that locked means equal
speeds, and the figure out/msl_one_way_clutch.png.
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import Inertia, Motor, Pulse, Sine, World
from jourdain.blocks.hybrid import FrictionMode, OneWayClutch

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.inertiaIn, model.inertiaOut = Inertia(J=1.0), Inertia(J=1.0)
model.oneWayClutch = OneWayClutch(peak=25.0, fn_max=3.0)
model.torque = Motor()
model.signalTorque = Sine(amplitude=10.0, f=3.0)
model.signalEngagement = Pulse(amplitude=1.0, width=50.0, period=1.3, start_time=0.3)
for a, b in ((model.torque.flange_b, model.inertiaIn.flange_a),
             (model.signalTorque.y, model.torque.tau),
             (model.inertiaIn.flange_b, model.oneWayClutch.flange_a),
             (model.oneWayClutch.flange_b, model.inertiaOut.flange_a),
             (model.signalEngagement.y, model.oneWayClutch.f_normalized)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 2 s (the MSL's experiment: StopTime 2, Interval 1e-3)
res = system.simulate(2.0, z0={"inertiaIn.w": -0.5}, n_out=2001, rtol=1e-10, atol=1e-10)
print("mode changes (0 locked, 1 the driven side overruns):")
for record in res.events[1:]:
    print(f"  t = {record.t:.6f} s  {record.element}: {record.cause}  " +
          "; ".join(c.split(": ", 1)[-1] for c in record.changes if "mode" in c))
locked = res["oneWayClutch.mode"] == FrictionMode.STUCK
gap = np.abs(res["inertiaIn.w"] - res["inertiaOut.w"])[locked]
print(f"locked {100 * locked.mean():.1f} % of the time, |w_in − w_out| while locked ≤ "
      f"{gap.max():.1e} rad/s; overrunning w_rel ≥ "
      f"{(res['inertiaOut.w'] - res['inertiaIn.w'])[~locked].min():.2e} rad/s")
print("speeds at t = 2 s:", {n: round(float(res[f"{n}.w"][-1]), 6)
                             for n in ("inertiaIn", "inertiaOut")})
res.plot("inertiaIn.w", "inertiaOut.w", "signalEngagement.y", "oneWayClutch.tau",
         "oneWayClutch.mode", path=OUT / "msl_one_way_clutch.png",
         title="MSL Rotational.Examples.OneWayClutch")
print(f"figure saved to {OUT / 'msl_one_way_clutch.png'}")
