"""Modelica.Mechanics.Translational.Examples.Vehicle in jourdain
==============================================================

Built as the MSL 4.0 builds it, from library parts only: one-dimensional vehicles with
driving resistances.

What: ``vehicle`` and ``vehicle1`` (Components.Vehicle: m = 100 kg, J = 0, wheel radius
R = 0.25 m, A = 1 m², Cd = 0.5, Cr = 0.01, no wind, the inclination from an input) are
driven by torques at their wheels; ``trailer`` (the same data, flangeR free) is coupled to
vehicle1 through a MultiSensor. A CombiTimeTable gives the torque in multiples of the
nominal torque (the driving resistances at vNom = 25/3.5 m/s times R, with the example's air
density 1.18 kg/m³) and the inclination: accelerate from 5 s, cruise, 5 % grade between 20 s
and 25 s, brake between 50 s and 55 s, coast after. vehicle1 gets twice vehicle's torque.
The MSL fixes both vehicles' s and v at 0 and leaves the trailer free; it runs 60 s.
Why: the MSL's statement "the driving torque of vehicle1 has to be doubled to achieve the
same acceleration and velocity"; the Vehicle's drag, rolling and grade resistances.
You will see: vehicle1 against vehicle, vehicle against an independent scipy model of
m·v' = τ/R − Cd·A·ρ·v·abs(v)/2 − Cr·m·g·cos α·sign(v) − m·g·sin α, the force in the coupling
against τ/R (the trailer's half of vehicle1's drive), and out/vehicle.png.

Parts: Vehicle (Mass, Inertia, IdealRollingWheel, WindDrag, RollingResistance, LinearMotor
with Gain/Sin/Atan for the grade), MultiSensor, CombiTimeTable (jumps), Demux, Gain, Motor =
Rotational.Sources.Torque. Differs: the Vehicle's wind enters its drag law (no Speed source
on the drag's support; vWind = 0 here).
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import (CombiTimeTable, Demux, Extrapolation, Gain, Motor, MultiSensor,
                             Vehicle, World)

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)
g_n = 9.80665
m, R, A, Cd, rho, vWind, Cr, inclination = 100.0, 0.25, 1.0, 0.5, 1.18, 0.0, 0.01, 0.0
vNom = 25 / 3.5
alpha = np.arctan(inclination)
fDrag, fRoll, fGrav = Cd * A * rho * (vNom - vWind) ** 2 / 2, Cr * m * g_n * np.cos(alpha), \
    m * g_n * np.sin(alpha)
table = [[0, 0, 0], [5, 0, 0], [5, 5.6, 0], [10.8, 5.6, 0], [10.8, 1, 0], [20, 1, 0],
         [20, 2.8, 0.05], [25, 2.8, 0.05], [25, 1, 0], [50, 1, 0], [50, -5, 0], [55, -5, 0],
         [55, 0, 0], [60, 0, 0]]

# %% The model (MSL names)
model = jd.Model(world=World())
data = dict(m=m, J=0.0, R=R, A=A, Cd=Cd, CrConstant=Cr, vWindConstant=vWind,
            useInclinationInput=True)
model.vehicle, model.vehicle1, model.trailer = Vehicle(**data), Vehicle(**data), Vehicle(**data)
model.multiSensor = MultiSensor()
model.timeTableTorqueInclination = CombiTimeTable(table=table,
                                                  extrapolation=Extrapolation.HoldLastPoint)
model.columns = Demux(1, 1)   # the MSL connects y[1] and y[2] directly
model.torque, model.torque1 = Motor(), Motor()
model.gain, model.gain1 = Gain((fDrag + fRoll + fGrav) * R), Gain(2.0)
mo = model
for a, b in ((mo.timeTableTorqueInclination.y, mo.columns.u), (mo.columns.y1, mo.gain.u),
             (mo.columns.y2, mo.vehicle.inclination), (mo.gain.y, mo.torque.tau),
             (mo.torque.flange_b, mo.vehicle.flangeR), (mo.torque1.flange_b, mo.vehicle1.flangeR),
             (mo.vehicle.inclination, mo.vehicle1.inclination),
             (mo.vehicle1.inclination, mo.trailer.inclination), (mo.gain.y, mo.gain1.u),
             (mo.gain1.y, mo.torque1.tau), (mo.vehicle1.flangeT, mo.multiSensor.flange_a),
             (mo.multiSensor.flange_b, mo.trailer.flangeT)):
    model.connect(a, b)
system = jd.compile(model)
print(f"states: {system.x_names}")

# %% Simulate 60 s from s = 0, v = 0 (StopTime 60, Interval 0.01)
res = system.simulate(60.0, y0={"vehicle.mass.s": 0.0, "vehicle1.mass.s": 0.0},
                      z0={"vehicle.mass.v": 0.0, "vehicle1.mass.v": 0.0}, n_out=6001,
                      rtol=1e-9, atol=1e-10)
t, v = res.t, res["vehicle.mass.v"]
print(f"vehicle: top speed {v.max():.4f} m/s (vNom {vNom:.4f}), s(60 s) = "
      f"{res['vehicle.mass.s'][-1]:.3f} m")
print(f"vehicle1 vs vehicle: max |dv| {np.abs(res['vehicle1.mass.v'] - v).max():.2e} m/s")


def rhs(t, x, torque, grade):
    """One vehicle (rho = 1.2, the Vehicle's default): m·v' = τ/R − drag − roll − grade."""
    s, v = x
    a = np.arctan(grade)
    roll = Cr * m * g_n * np.cos(a) * (np.sign(v) if abs(v) >= 1e-3 else v / 1e-3)
    return [v, (torque / R - 0.5 * Cd * A * 1.2 * v * abs(v) - roll - m * g_n * np.sin(a)) / m]


# the table's rows in pairs: (from, to, torque multiple, inclination) between its jumps
segments = [(r0[0], r1[0], r0[1], r0[2]) for r0, r1 in zip(table[::2], table[1::2])]
x, ref = [0.0, 0.0], []
for k, (start, stop, multiple, grade) in enumerate(segments):
    sl = (t >= start) & (t <= stop) if k == 0 else (t > start) & (t <= stop)
    sol = solve_ivp(rhs, (start, stop), x, args=(multiple * (fDrag + fRoll + fGrav) * R, grade),
                    dense_output=True, rtol=1e-11, atol=1e-12, method="LSODA")
    ref.append(sol.sol(t[sl])[1])
    x = sol.y[:, -1]
v_ref = np.concatenate(ref)
print(f"vehicle vs scipy: max |dv| {np.abs(v - v_ref).max():.2e} m/s")
f_ref = res["gain.y"] / R
print(f"multiSensor.f vs τ/R: max |df| {np.abs(res['multiSensor.f'] - f_ref).max():.2e} N "
      f"(up to {np.abs(f_ref).max():.2f} N); power max |P - f·v| "
      f"{np.abs(res['multiSensor.power'] - res['multiSensor.f'] * res['multiSensor.v']).max():.1e} W")
res.plot("vehicle.mass.v", "vehicle1.mass.v", path=OUT / "vehicle.png",
         title="MSL Translational.Examples.Vehicle")
print(f"figure saved to {OUT / 'vehicle.png'}")
