"""Modelica.Mechanics.Translational.Examples.Sensors in jourdain
==============================================================

Built as the MSL builds it, from library parts only: the translational sensors.

What: a sine force (amplitude 10 N, 4 Hz) pushes a Mass (m = 1 kg, L = 1 m, starting at
s = 0 at rest) through a ForceSensor and a MultiSensor in series; a PositionSensor, a
SpeedSensor and an AccSensor sit on the mass's flange_a, a second PositionSensor on its
flange_b. The MSL runs it for 1 s.
Why: the MSL's statement "the measured velocity and acceleration is independent of the
flange the sensor is connected to; the measured position depends on the flange and the
length L": positionSensor1.s = mass.s − L/2, positionSensor2.s = mass.s + L/2; cut sensors
in series carry the same force; the MultiSensor's power is f·v.
You will see: each sensor against the closed form of m·a = 10·sin(8π·t) (a, v =
10·(1 − cos 8πt)/(8π), s), the offsets ∓L/2 of the position sensors, the power against f·v
and its integral against the mass's kinetic energy at every instant, and out/sensors.png.

Parts: LinearMotor = Sources.Force, ForceSensor, MultiSensor, PositionSensor (its speed
output unused), SpeedSensor, AccSensor, Mass(L), Sine.
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import cumulative_trapezoid

import jourdain as jd
from jourdain.blocks import (AccSensor, ForceSensor, LinearMotor, Mass, MultiSensor,
                             PositionSensor, Sine, SpeedSensor, World)

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.forceSensor, model.multiSensor = ForceSensor(), MultiSensor()
model.speedSensor1, model.accSensor1 = SpeedSensor(), AccSensor()
model.positionSensor1, model.positionSensor2 = PositionSensor(), PositionSensor()
model.mass = Mass(L=1.0, m=1.0)
model.force = LinearMotor()
model.sineForce = Sine(amplitude=10.0, f=4.0)
m = model
for a, b in ((m.sineForce.y, m.force.f), (m.forceSensor.flange_a, m.force.flange_b),
             (m.mass.flange_a, m.positionSensor1.flange), (m.mass.flange_a, m.speedSensor1.flange),
             (m.mass.flange_a, m.accSensor1.flange), (m.mass.flange_b, m.positionSensor2.flange),
             (m.forceSensor.flange_b, m.multiSensor.flange_a),
             (m.multiSensor.flange_b, m.mass.flange_a)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 1 s from s = 0 at rest (StopTime 1, Interval 1e-3)
res = system.simulate(1.0, y0={"mass.s": 0.0}, z0={"mass.v": 0.0}, n_out=1001, rtol=1e-10,
                      atol=1e-12)
t, w = res.t, 8 * np.pi
a = 10 * np.sin(w * t)
v = 10 * (1 - np.cos(w * t)) / w
s = 10 * (t - np.sin(w * t) / w) / w
for name, ref, unit in (("forceSensor.f", a, "N"), ("multiSensor.f", a, "N"),
                        ("multiSensor.v", v, "m/s"), ("speedSensor1.v", v, "m/s"),
                        ("accSensor1.a", a, "m/s²"), ("mass.s", s, "m")):
    print(f"{name}: max |value - closed form| {np.abs(res[name] - ref).max():.2e} {unit}")
print(f"positionSensor1.s − mass.s = {np.mean(res['positionSensor1.s'] - res['mass.s']):.6f} m, "
      f"positionSensor2.s − mass.s = {np.mean(res['positionSensor2.s'] - res['mass.s']):.6f} m")
power = res["multiSensor.power"]
work = cumulative_trapezoid(power, t, initial=0.0)
kinetic = 0.5 * res["mass.v"] ** 2
print(f"multiSensor.power: max |power - f·v| "
      f"{np.abs(power - res['multiSensor.f'] * res['multiSensor.v']).max():.2e} W; "
      f"max |∫power dt − ½·m·v²| {np.abs(work - kinetic).max():.2e} J (kinetic energy up to "
      f"{kinetic.max():.6f} J)")
res.plot("positionSensor1.s", "positionSensor2.s", "mass.s", path=OUT / "sensors.png",
         title="MSL Translational.Examples.Sensors")
print(f"figure saved to {OUT / 'sensors.png'}")
