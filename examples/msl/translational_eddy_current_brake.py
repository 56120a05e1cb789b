"""Modelica.Mechanics.Translational.Examples.EddyCurrentBrake in jourdain
======================================================================

Built as the MSL builds it (names and parameters of the MSL's diagram).

What: a mass (m = 1 kg, v = 20 m/s at t = 0) braked by an eddy current brake
(f_nominal = 100 N at v_nominal = 10 m/s, alpha20 of copper, TRef = 20 °C) whose losses
heat a HeatCapacitor (C = 1 J/K, adiabatic: nothing else cools it).
Why: the translational twin of Rotational.Examples.EddyCurrentBrake: a force element with a
heat port on the acausal core, its force depending on the temperature its losses raise.
You will see: the final speed, position and temperature, the energy balance (kinetic energy
lost = heat stored, C·ΔT) and out/translational_eddy_current_brake.png.
"""
# %%
from pathlib import Path

import jourdain as jd
from jourdain.blocks import EddyCurrentForce, Mass, World
from jourdain.blocks.thermal import HeatCapacitor

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)
alpha20Copper = 3.920e-3    # 1/K, Modelica.Electrical.Machines.Thermal.Constants
m, v_start, C, T_start = 1.0, 20.0, 1.0, 293.15

# %% The model (MSL names)
model = jd.Model(world=World())
model.eddyCurrentForce = EddyCurrentForce(f_nominal=100.0, v_nominal=10.0, TRef=293.15,
                                          alpha20=alpha20Copper, useHeatPort=True)
model.mass = Mass(m=m)
model.heatCapacitor = HeatCapacitor(C=C, T_start=T_start)
model.connect(model.eddyCurrentForce.flange, model.mass.flange_a)
model.connect(model.eddyCurrentForce.heatPort, model.heatCapacitor.port)
system = jd.compile(model)
print(f"states: {', '.join(system.x_names)}")

# %% Simulate 1 s (the MSL's experiment: StopTime 1, Interval 1e-3)
s_name = next(n for n in system.x_names if n.endswith(".s"))
v_name = next(n for n in system.x_names if n.endswith(".v"))
T_name = next(n for n in system.x_names if n.endswith("heatCapacitor.T"))
res = system.simulate(1.0, z0={v_name: v_start}, n_out=1001, rtol=1e-10,
                      atol=1e-10)
v_end, s_end, T_end = res[v_name][-1], res[s_name][-1], res[T_name][-1]
kinetic_lost = 0.5 * m * (v_start ** 2 - v_end ** 2)
heat_stored = C * (T_end - T_start)
i = int(abs(res.t - 0.1).argmin())   # t = 0.1 s: braking hard, speed still well above 0
print(f"at t = {res.t[i]:.3f} s: v = {res[v_name][i]:.9f} m/s, T = {res[T_name][i]:.9f} K")
print(f"at t = 1 s: v = {v_end:.9f} m/s, s = {s_end:.9f} m, T = {T_end:.9f} K")
print(f"kinetic energy lost {kinetic_lost:.9f} J, heat stored {heat_stored:.9f} J")
print(res.check())

# %% Figure
res.plot(v_name, T_name, "power.dissipated",
         path=OUT / "translational_eddy_current_brake.png",
         title="MSL Translational.Examples.EddyCurrentBrake")
print(f"figure saved to {OUT / 'translational_eddy_current_brake.png'}")
