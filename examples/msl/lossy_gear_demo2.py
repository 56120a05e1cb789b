"""Modelica.Mechanics.Rotational.Examples.LossyGearDemo2 in jourdain
==================================================================

Built as the MSL builds it, from library parts only: a LossyGear and a BearingFriction.

What: LossyGearDemo1 (Inertia1, J = 1 kg·m², driven by 10·sin(2π·t) N·m; Inertia2, J = 1.5,
loaded by a Ramp from −10 to −5 N·m; a LossyGear of ratio 2 and efficiency 0.5) with a
BearingFriction (tau_pos = [0, 0.5; 1, 1] N·m) between the torque source and Inertia1. The
MSL runs it for 0.5 s: both friction elements take all their modes, and while both are
stuck the split of the holding torque between them is not unique (the MSL notes it).
Why: two stick/slip elements on one motion, decided together by the event iteration.
You will see: the mode changes of both elements, the first phase (both rolling backward)
against an independent scipy model of the MSL's equations, the power lost in the gear and in
the bearing, the energy balance, and out/lossy_gear_demo2.png.
Where both are stuck the split of the holding torque is not unique (the MSL says so); here
the gear, once its start condition holds, keeps rolling while the bearing holds the shaft,
so the bearing carries the load until its own static limit.

Parts: Motor = Rotational.Sources.Torque (useSupport: flange_a on the Fixed).
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import Fixed, Inertia, LossyGear, Motor, Ramp, Sine, World
from jourdain.blocks.hybrid import BearingFriction

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.gear = LossyGear(ratio=2.0, lossTable=[[0.0, 0.5, 0.5, 0.0, 0.0]])
model.Inertia1, model.Inertia2 = Inertia(J=1.0), Inertia(J=1.5)
model.torque1, model.torque2 = Motor(), Motor()
model.DriveSine = Sine(amplitude=10.0, f=1.0)
model.load = Ramp(height=5.0, duration=2.0, offset=-10.0)
model.bearingFriction = BearingFriction(tau_pos=[[0.0, 0.5], [1.0, 1.0]])
model.fixed = Fixed()
m = model
for a, b in ((m.torque2.flange_b, m.Inertia2.flange_b), (m.Inertia2.flange_a, m.gear.flange_b),
             (m.gear.flange_a, m.Inertia1.flange_b),
             (m.Inertia1.flange_a, m.bearingFriction.flange_b),
             (m.bearingFriction.flange_a, m.torque1.flange_b), (m.DriveSine.y, m.torque1.tau),
             (m.load.y, m.torque2.tau), (m.gear.support, m.fixed.flange),
             (m.fixed.flange, m.torque2.flange_a), (m.fixed.flange, m.bearingFriction.support),
             (m.torque1.flange_a, m.fixed.flange)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 0.5 s (StopTime 0.5, Interval 1e-3) from rest
res = system.simulate(0.5, n_out=501, rtol=1e-9, atol=1e-11)
print("mode changes (1 forward, 0 stuck, -1 backward):")
for record in res.events[1:]:
    print(f"  t = {record.t:.6f} s  {record.element}: {record.cause}: " +
          "; ".join(c for c in record.changes if "mode" in c))


def backward(t, x, ratio=2.0, eta=0.5, J1=1.0, J2=1.5):
    """Both rolling backward: (J1 + J2/(ratio²·e))·ẇ = τ1 + τ_bf(|w|) + τ2/(ratio·e), the
    bearing's torque τ_bf = 0.5 + 0.5·|w| against w < 0, e = 1/η2 while flange_b drives
    (τ_a ≥ 0), η1 otherwise (the MSL's quadrants for w_a < 0 without bearing loss)."""
    w = x[0]
    drive = 10 * np.sin(2 * np.pi * t) + (0.5 + 0.5 * abs(w))
    load = -10 + 5 * min(t / 2, 1)
    for e in (1 / eta, eta):
        acc = (drive + load / (ratio * e)) / (J1 + J2 / (ratio ** 2 * e))
        if (drive - J1 * acc >= 0) == (e > 1):
            return [acc]
    raise AssertionError("no consistent driving side")


stop = lambda t, x: x[0]   # noqa: E731
stop.terminal, stop.direction = True, 1
first = solve_ivp(backward, (0.0, 0.5), [0.0], events=stop, rtol=1e-11, atol=1e-13,
                  first_step=1e-6)
t_stop = first.t_events[0][0] if first.t_events[0].size else first.t[-1]
print(f"first stop of the backward phase: {res.events[1].t:.6f} s, scipy {t_stop:.6f} s")
gear_loss = res["gear.tauLoss"] * res["Inertia1.w"]
bearing_loss = res["bearingFriction.tau"] * res["Inertia1.w"]
lowest = min(gear_loss.min(), bearing_loss.min())
print(f"energy lost: gear {np.trapezoid(gear_loss, res.t):.6f} J, bearing "
      f"{np.trapezoid(bearing_loss, res.t):.6f} J (min power {lowest:.2e} W)")
for name in ("gear.mode", "bearingFriction.mode"):
    print(f"{name} takes {sorted({int(v) for v in res[name]})}")
check = res.check()
print(f"energy balance {'holds' if check else 'FAILS'}: relative error "
      f"{check.energy_relative:.1e}")
res.plot("Inertia1.w", "Inertia2.w", "gear.mode", "bearingFriction.mode",
         path=OUT / "lossy_gear_demo2.png", title="MSL Rotational.Examples.LossyGearDemo2")
print(f"figure saved to {OUT / 'lossy_gear_demo2.png'}")
