"""Modelica.Mechanics.Rotational.Examples.Friction in jourdain
===========================================================

Built as the MSL builds it: a drive train with a clutch and a brake.

What: inertia3 (J = 1 kg·m², 100 rad/s) is driven by 200·sin(100·t) N·m until t = 0.5 s
(sine × step, a Product block); a clutch (fn_max = 160 N, pressed all the time) couples it to
inertia2 (J = 0.05, 90 rad/s), a spring–damper (c = 160 N·m/rad, d = 1 N·m·s/rad) to the
braked shaft inertia1 (J = 1, 90 rad/s); the brake (fn_max = 1600 N, housing fixed) closes at
t = 0.5 s. The MSL runs it for 3 s and plots the motor, clutch, brake and spring torques.
Why: a clutch and a brake acting on one train, each with its own stick/slip logic.
You will see: the mode changes, when the brake holds inertia1 and when everything has
stopped, the torques' extremes, and the figure out/msl_rotational_friction.png.
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import (
    Constant,
    Inertia,
    Motor,
    Product,
    RotationalSpring,
    Sine,
    Step,
    ViscousFriction,
    World,
)
from jourdain.blocks.hybrid import Brake, Clutch

start_time = 0.5
OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.torque = Motor()
model.inertia3 = Inertia(J=1.0)
model.clutch = Clutch(fn_max=160.0)
model.inertia2 = Inertia(J=0.05)
model.spring = RotationalSpring(c=160.0)          # SpringDamper: spring ∥ damper
model.damper = ViscousFriction(d=1.0)
model.brake = Brake(fn_max=1600.0)                # support = the fixed housing
model.inertia1 = Inertia(J=1.0)
model.const = Constant(k=1.0)
model.step = Step(t_step=start_time)
model.step2 = Step(height=-1.0, offset=1.0, t_step=start_time)
model.sine = Sine(amplitude=200.0, f=50 / np.pi)
model.product = Product()
for a, b in ((model.torque.flange_b, model.inertia3.flange_a),
             (model.inertia3.flange_b, model.clutch.flange_a),
             (model.clutch.flange_b, model.inertia2.flange_a),
             (model.inertia2.flange_b, model.spring.flange_a),
             (model.inertia2.flange_b, model.damper.flange_a),
             (model.spring.flange_b, model.brake.flange_a),
             (model.damper.flange_b, model.brake.flange_a),
             (model.brake.flange_b, model.inertia1.flange_a),
             (model.sine.y, model.product.u1), (model.step2.y, model.product.u2),
             (model.product.y, model.torque.tau), (model.const.y, model.clutch.f_normalized),
             (model.step.y, model.brake.f_normalized)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 3 s (the MSL's experiment: StopTime 3, Interval 1e-3)
res = system.simulate(3.0, z0={"inertia3.w": 100.0, "inertia2.w": 90.0, "inertia1.w": 90.0},
                      n_out=3001, rtol=1e-10, atol=1e-10)
print("mode changes (-1 backward, 0 stuck, 1 forward, 2 free):")
for record in res.events[1:]:
    print(f"  t = {record.t:.6f} s  {record.element}: {record.cause}  " +
          "; ".join(c.split(": ", 1)[-1] for c in record.changes if "mode" in c))
held = res.events.select("brake", "stop_forward")
print(f"the brake holds inertia1 from t = {held[0].t:.6f} s" if held else "brake never holds")
print("speeds at t = 3 s:", {n: round(float(res[f"{n}.w"][-1]), 6)
                             for n in ("inertia1", "inertia2", "inertia3")})
spring_torque = 160.0 * (res["inertia1.phi"] - res["inertia2.phi"]) + \
    1.0 * (res["inertia1.w"] - res["inertia2.w"])          # SpringDamper's tau
for label, series in (("tMotor", res["product.y"]), ("tClutch", res["clutch.tau"]),
                      ("tBrake", res["brake.tau"]), ("tSpring", spring_torque)):
    print(f"  {label}: min {series.min():10.3f}  max {series.max():10.3f} N·m")
res.plot("inertia1.w", "inertia2.w", "inertia3.w", "product.y", "clutch.tau", "brake.tau",
         path=OUT / "msl_rotational_friction.png", title="MSL Rotational.Examples.Friction")
print(f"figure saved to {OUT / 'msl_rotational_friction.png'}")
