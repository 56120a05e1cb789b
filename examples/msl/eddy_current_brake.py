"""Modelica.Mechanics.Rotational.Examples.EddyCurrentBrake in jourdain
===================================================================

Built as the MSL builds it (names and parameters of the MSL's diagram).

What: an inertia (J = 1 kg·m², w = 20 rad/s at t = 0) braked by an eddy current brake
(tau_nominal = 100 N·m at w_nominal = 10 rad/s, alpha20 of copper, TRef = 20 °C) whose
losses heat a HeatCapacitor (C = 1 J/K, adiabatic: nothing else cools it).
Why: a mechanical element with a heat port on the acausal core: the braking torque depends
on the temperature the losses raise (the hotter the conductor, the higher its resistance,
the larger the speed of maximum torque).
Version: the MSL's EddyCurrentBrake with a constant tau_nominal (full excitation from t = 0);
the newer version ramps the maximum torque through the input (``useTau_nominalInput=True``,
``tau_input`` from a Ramp 0 → 100 N·m over 0.1 … 0.2 s), which EddyCurrentTorque has too
(tests/test_eddy_current_input.py).
You will see: the final speed and temperature, the energy balance (kinetic energy lost =
heat stored, C·ΔT) and out/eddy_current_brake.png.
"""
# %%
from pathlib import Path

import jourdain as jd
from jourdain.blocks import EddyCurrentTorque, Inertia, World
from jourdain.blocks.thermal import HeatCapacitor

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)
alpha20Copper = 3.920e-3    # 1/K, Modelica.Electrical.Machines.Thermal.Constants
J, w_start, C, T_start = 1.0, 20.0, 1.0, 293.15

# %% The model (MSL names)
model = jd.Model(world=World())
model.eddyCurrentTorque = EddyCurrentTorque(tau_nominal=100.0, w_nominal=10.0,
                                            alpha20=alpha20Copper, TRef=293.15,
                                            useHeatPort=True)
model.inertia = Inertia(J=J)
model.heatCapacitor = HeatCapacitor(C=C, T_start=T_start)
model.connect(model.eddyCurrentTorque.flange, model.inertia.flange_a)
model.connect(model.eddyCurrentTorque.heatPort, model.heatCapacitor.port)
system = jd.compile(model)
print(f"states: {', '.join(system.x_names)}")

# %% Simulate 1 s (the MSL's experiment: StopTime 1, Interval 1e-3)
w_name = next(n for n in system.x_names if n.endswith(".w"))
T_name = next(n for n in system.x_names if n.endswith("heatCapacitor.T"))
res = system.simulate(1.0, z0={w_name: w_start}, n_out=1001, rtol=1e-10, atol=1e-10)
w_end, T_end = res[w_name][-1], res[T_name][-1]
kinetic_lost = 0.5 * J * (w_start ** 2 - w_end ** 2)
heat_stored = C * (T_end - T_start)
i = int(abs(res.t - 0.1).argmin())   # t = 0.1 s: braking hard, speed still well above 0
print(f"at t = {res.t[i]:.3f} s: w = {res[w_name][i]:.9f} rad/s, T = {res[T_name][i]:.9f} K")
print(f"at t = 1 s: w = {w_end:.9f} rad/s, T = {T_end:.9f} K")
print(f"kinetic energy lost {kinetic_lost:.9f} J, heat stored {heat_stored:.9f} J")
print(res.check())

# %% Figure
res.plot(w_name, T_name, "power.dissipated", path=OUT / "eddy_current_brake.png",
         title="MSL Rotational.Examples.EddyCurrentBrake")
print(f"figure saved to {OUT / 'eddy_current_brake.png'}")
