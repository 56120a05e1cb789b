"""A DC motor heated by its own losses (acausal thermal network)
==============================================================

What: a DC motor on a 12 V source (armature resistance R with a heat port, inductance L,
EMF k, rotor J, bearing damper d with a heat port) whose losses heat a thermal network built
from `jourdain.blocks.thermal`: the winding (HeatCapacitor) takes the resistor's losses, the
housing (HeatCapacitor) takes the bearing's, a ThermalConductor joins them, and Convection
with a constant coefficient cools the housing to a FixedTemperature ambient. A
TemperatureSensor reads the winding. This is the MSL's `useHeatPort` pattern (as in its
`HeatLosses` examples).
Why: components of three domains (electrical, 1-D mechanics, thermal) connected acausally;
the thermal parts are written as equations and compiled by the acausal core, the heat ports
hand the electrical and mechanical losses to the thermal network.
You will see: the steady speed and current against their closed forms, the steady winding
and housing temperatures against the thermal network's closed form
T_h = T_amb + (P_R + P_d)/Gc, T_w = T_h + P_R/G_wh, the energy balance of the start-up
(res.check()), and out/heat_losses.png.
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import (EMF, Constant, ConstantVoltage, Ground, Inductor, Inertia,
                             Resistor, ViscousFriction, World)
from jourdain.blocks.thermal import (Convection, FixedTemperature, HeatCapacitor,
                                     TemperatureSensor, ThermalConductor)

V, R, L, k, J, d = 12.0, 2.0, 5e-3, 0.1, 1e-3, 2e-4
C_w, C_h, G_wh, Gc, T_amb = 40.0, 300.0, 1.5, 0.8, 293.15
OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)


# %%
# The model
class HeatedMotor(jd.Composite):
    def __init__(self):
        super().__init__()
        self.source, self.ground = ConstantVoltage(V=V), Ground()
        self.armature, self.inductor = Resistor(R=R, useHeatPort=True), Inductor(L=L)
        self.emf, self.rotor = EMF(k=k), Inertia(J=J)
        self.bearing = ViscousFriction(d=d, useHeatPort=True)
        self.winding = HeatCapacitor(C=C_w, T_start=T_amb)
        self.housing = HeatCapacitor(C=C_h, T_start=T_amb)
        self.conduction, self.air = ThermalConductor(G=G_wh), Convection()
        self.gc, self.ambient = Constant(k=Gc), FixedTemperature(T=T_amb)
        self.sensor = TemperatureSensor()
        # electrical
        self.connect(self.source.p, self.armature.p)
        self.connect(self.armature.n, self.inductor.p)
        self.connect(self.inductor.n, self.emf.p)
        self.connect(self.emf.n, self.source.n)
        self.connect(self.source.n, self.ground.p)
        # mechanical
        self.connect(self.emf.flange, self.rotor.flange_a)
        self.connect(self.rotor.flange_b, self.bearing.flange_b)
        # thermal
        self.connect(self.armature.heatPort, self.winding.port)
        self.connect(self.bearing.heatPort, self.housing.port)
        self.connect(self.winding.port, self.conduction.port_a)
        self.connect(self.conduction.port_b, self.housing.port)
        self.connect(self.housing.port, self.air.solid)
        self.connect(self.air.fluid, self.ambient.port)
        self.connect(self.gc.y, self.air.Gc)
        self.connect(self.sensor.port, self.winding.port)


system = jd.compile(jd.Model(World(), m=HeatedMotor()))
print(f"states: {', '.join(system.x_names)}")
res = system.simulate(4000.0, n_out=801)

# %%
# Closed forms of the steady state
w_ss = k * V / (k ** 2 + R * d)
i_ss = d * V / (k ** 2 + R * d)
P_R, P_d = R * i_ss ** 2, d * w_ss ** 2
T_h = T_amb + (P_R + P_d) / Gc
T_w = T_h + P_R / G_wh
w_name = next(n for n in system.x_names if n.endswith(".w"))
print(f"speed {res[w_name][-1]:.4f} rad/s (closed form {w_ss:.4f}), current "
      f"{res['m.inductor.i'][-1]:.5f} A (closed form {i_ss:.5f})")
print(f"losses: armature {P_R:.4f} W, bearing {P_d:.4f} W")
print(f"winding {res['m.sensor.T'][-1]:.3f} K (closed form {T_w:.3f}), housing "
      f"{res['m.housing.T'][-1]:.3f} K (closed form {T_h:.3f})")
# the balance needs a grid that resolves the start-up (an electrical time constant of
# L/R = 2.5 ms, a mechanical one of J·R/k² = 0.2 s): checked on the first 2 s
start = system.simulate(2.0, n_out=4001)
print(start.check())

# %%
# Figure
import matplotlib.pyplot as plt  # noqa: E402

fig, ax = plt.subplots(1, 2, figsize=(10, 4))
ax[0].plot(res.t, res["m.sensor.T"] - 273.15, label="winding")
ax[0].plot(res.t, res["m.housing.T"] - 273.15, label="housing")
ax[0].axhline(T_w - 273.15, color="k", lw=0.5, ls="--")
ax[0].axhline(T_h - 273.15, color="k", lw=0.5, ls="--")
ax[0].set_ylabel("temperature [°C]")
ax[0].set_title("heated by the motor's own losses")
ax[1].plot(res.t, res["power.dissipated"], label="dissipated (R·i² + d·ω²)")
ax[1].plot(res.t, res["power.supplied"], label="supplied (source + heat into the network)")
ax[1].set_ylabel("power [W]")
ax[1].set_yscale("symlog", linthresh=0.1)
for a in ax:
    a.set_xlabel("t [s]")
    a.legend(fontsize=8)
    a.grid(True, alpha=0.3)
fig.tight_layout()
fig.savefig(OUT / "heat_losses.png", dpi=120)
print(f"figure saved to {OUT / 'heat_losses.png'}")
