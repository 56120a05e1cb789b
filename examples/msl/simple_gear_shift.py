"""Modelica.Mechanics.Rotational.Examples.SimpleGearShift in jourdain
==================================================================

Built as the MSL builds it, from library parts only: an automatic gear shift from a planetary
gear, a brake and a clutch.

What: a TorqueStep (20 N·m from t = 0.5 s) drives the engine (J = 1 kg·m²) on the sun of an
IdealPlanetary (ratio 75/50); the carrier drives the load (J = 10, at rest) against a
QuadraticSpeedDependentTorque (−20 N·m at 100 rpm). A Brake (cgeo 2, fn_max 100 N) holds the
ring, a Clutch (the same) joins ring and sun; a Ramp from t = 2 s over 0.1 s engages the
clutch and, through Feedback (1 − ramp), releases the brake. The MSL's statement: first the
brake fixes the ring, gearRatio = wLoad/wEngine = 1/(1 + ratio) = 0.4; after t = 2 s the
clutch locks ring and sun, gearRatio = 1. The MSL runs it for 5 s.
Why: three friction elements' stick/slip on one planetary gear (an eliminated coupling),
switched by signals.
You will see: the gear ratio in both gears, the first gear against scipy on the reduced
equation, the friction modes, the energy balance, and the figure out/simple_gear_shift.png.

Parts: Feedback = Blocks.Math.Feedback, Constant = Blocks.Sources.Constant. The MSL's outputs
wEngine, wLoad and gearRatio are computed from the Result (engine.w, load.w).
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import (Constant, Feedback, IdealPlanetary, Inertia,
                             QuadraticSpeedDependentTorque, Ramp, TorqueStep, World)
from jourdain.blocks.hybrid import Brake, Clutch

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.torqueStep = TorqueStep(offsetTorque=0.0, startTime=0.5, stepTorque=20.0)
model.engine = Inertia(J=1.0)
model.idealPlanetary = IdealPlanetary(ratio=75 / 50)
model.load = Inertia(J=10.0)
model.quadraticSpeedDependentTorque = QuadraticSpeedDependentTorque(
    w_nominal=10.471975511966, tau_nominal=-20.0)
model.clutch = Clutch(cgeo=2.0, fn_max=100.0)
model.brake = Brake(cgeo=2.0, fn_max=100.0)
model.feedback = Feedback()
model.const1 = Constant(k=1.0)
model.ramp = Ramp(height=1.0, offset=0.0, startTime=2.0, duration=0.1)
for a, b in ((model.torqueStep.flange, model.engine.flange_a),
             (model.quadraticSpeedDependentTorque.flange, model.load.flange_b),
             (model.feedback.y, model.brake.f_normalized),
             (model.engine.flange_b, model.idealPlanetary.sun),
             (model.idealPlanetary.sun, model.clutch.flange_a),
             (model.idealPlanetary.ring, model.clutch.flange_b),
             (model.idealPlanetary.ring, model.brake.flange_a),
             (model.idealPlanetary.carrier, model.load.flange_a),
             (model.const1.y, model.feedback.u1),
             (model.feedback.u2, model.clutch.f_normalized),
             (model.ramp.y, model.clutch.f_normalized)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 5 s (StopTime 5, Interval 0.01) from rest (clutch.phi_rel, w_rel fixed at 0)
res = system.simulate(5.0, n_out=501, rtol=1e-10, atol=1e-10)
print("friction mode changes (-1 backward, 0 stuck, 1 forward, 2 free):")
for record in res.events[1:]:
    print(f"  t = {record.t:.6f} s  {record.element}: {record.cause}  " +
          "; ".join(c.split(": ", 1)[-1] for c in record.changes if "mode" in c))
t, wEngine, wLoad = res.t, res["engine.w"], res["load.w"]
gearRatio = wLoad / np.maximum(wEngine, 1e-6)
first = (t > 1.0) & (t < 2.0)
second = t > 4.0
print(f"gearRatio in first gear (1 s < t < 2 s): {gearRatio[first].min():.9f} … "
      f"{gearRatio[first].max():.9f} (MSL: 1/(1 + ratio) = {1 / 2.5:.9f})")
print(f"gearRatio in second gear (t > 4 s): {gearRatio[second].min():.9f} … "
      f"{gearRatio[second].max():.9f} (MSL: 1)")


# %% First gear against scipy: ring held, (J_e + J_l/(1 + r)²)·ẇ_e = 20 − τ_load/(1 + r)
def first_gear(t):
    k = 1 + 75 / 50
    rhs = lambda s, w: [(20.0 - 20.0 * (w[0] / k / 10.471975511966) ** 2 / k)   # noqa: E731
                        / (1.0 + 10.0 / k ** 2)]
    return solve_ivp(rhs, (0.5, t), [0.0], rtol=1e-12, atol=1e-12).y[0, -1]


w_ref = first_gear(2.0)
i2 = int(np.argmin(np.abs(t - 2.0)))
print(f"first gear at t = 2 s: engine.w = {wEngine[i2]:.9f} rad/s, scipy {w_ref:.9f}")
print(f"at t = 5 s: engine.w = {wEngine[-1]:.6f}, load.w = {wLoad[-1]:.6f} rad/s "
      f"(equilibrium of second gear: 100 rpm = 10.471976 rad/s)")
check = res.check()
print(f"energy balance {'holds' if check else 'FAILS'}: relative error {check.energy_relative:.1e}")
res.plot("engine.w", "load.w", "clutch.mode", "brake.mode", path=OUT / "simple_gear_shift.png",
         title="MSL Rotational.Examples.SimpleGearShift")
print(f"figure saved to {OUT / 'simple_gear_shift.png'}")
