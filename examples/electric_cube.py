"""The cube on an edge with a DC motor: LQR balancing and the swing-up on voltage
==============================================================================

What: the reaction-wheel cube (the 1-D Cubli, Gajamohan et al. 2012) with its ideal torque source replaced by a DC motor
on a PWM H-bridge (library ElectricCubeOnEdge; motor data are documented ESTIMATES: 24 V
supply, 15 A current limit). The wheel torque is k·i, with the armature current a state
(L/R ≈ 0.76 ms) and the back-EMF k·ψ̇ braking the wheel.

1. Linearize about upright, design LQR on the armature voltage with the current in the state,
   and balance from a 0.1 rad tilt (the bridge clips at ±24 V).
2. Swing up from lying on a face (φ = 45°) in minimum time with −24 V ≤ v ≤ 24 V, −15 A ≤ i ≤ 15 A and
   the wheel below 150 rad/s. The optimization uses the same motor with L = 0 (the current
   follows the voltage instantly, i = (v − k·ψ̇)/R: the electrical transient is three orders
   faster than the swing), a smooth voltage limit, and the current bound as a path constraint.

Why: with a real motor the available torque depends on the wheel speed through the back-EMF,
and the limits are voltage and current, not torque.
You will see: the LQR gain and closed-loop eigenvalues (the electrical pole near −R/L), the
balancing run, the minimum swing-up time against the torque-limited one (0.5 N·m = k·I_max),
the re-simulation check, and out/electric_cube.png.
"""
# %%
# Imports
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import VoltageLimit, World
from jourdain.library import BalancedElectricCubeOnEdge, ElectricCubeOnEdge
from jourdain.library.electric_cubes import CUBE_MOTOR, I_MAX, V_SUPPLY

# %%
# 1. LQR on the voltage
plant = jd.compile(jd.Model.on_world(World(), cube=ElectricCubeOnEdge()))
print(plant.report())
lin = jd.linearize(plant)
print(lin)
states = [f"cube.{s}" for s in BalancedElectricCubeOnEdge.STATES]   # the wheel angle is cyclic
feedback = jd.lqr(lin.select(states), Q={states[0]: 100.0, states[1]: 1.0, states[2]: 1e-3,
                                         states[3]: 1e-3}, R=[[0.1]])
print(feedback)
print(f"electrical pole −R/L = {-CUBE_MOTOR['R'] / CUBE_MOTOR['L']:.0f} 1/s")
closed = jd.compile(jd.Model.on_world(World(), bal=BalancedElectricCubeOnEdge(feedback.K)))
balance = closed.simulate(4.0, y0={"bal.cube.edge.phi": 0.1}, n_out=401)
print(f"balancing: phi(0) = 0.1 rad, phi(4 s) = {balance['bal.cube.edge.phi'][-1]:.1e} rad, "
      f"peak voltage {np.abs(balance['bal.controller.u']).max():.2f} V, peak current "
      f"{np.abs(balance['bal.cube.drive.ammeter.i']).max():.2f} A")

# %%
# 2. Swing-up in minimum time on voltage, with voltage, current and wheel-speed limits
system = jd.compile(jd.Model.on_world(
    World(), cube=ElectricCubeOnEdge(limit=VoltageLimit.SMOOTH, motor={"L": 0.0})))
PHI, PSI, W_EDGE, W_WHEEL = system.x_names
VOLT, AMP = "cube.drive.v_ref", "cube.drive.ammeter.i"
ocp = jd.TrajectoryProblem(system, jd.FreeTime(guess=1.0, lower=0.05, upper=4.0), intervals=60)
ocp.initial({PHI: np.pi / 4, PSI: 0.0, W_EDGE: 0.0, W_WHEEL: 0.0})
ocp.final({PHI: 0.0, W_EDGE: 0.0})
ocp.bound(VOLT, -V_SUPPLY, V_SUPPLY)
ocp.path_constraint(lambda v: v[AMP], -I_MAX, I_MAX, name="current limit")
ocp.bound(W_WHEEL, -150.0, 150.0)
ocp.bound(PHI, -np.pi / 4, np.pi / 4)           # the floor on either side
ocp.terminal_cost(lambda v: v.T)
ocp.integral_cost(lambda v: 1e-5 * v[VOLT] ** 2)
sol = ocp.solve(jd.Collocation(degree=3, scheme=jd.Scheme.RADAU))
check = sol.check()
print(sol.report())
print(f"swing-up on voltage: T = {sol.T:.3f} s, peak current {np.abs(sol[AMP]).max():.2f} A "
      f"(limit {I_MAX}), peak voltage {np.abs(sol[VOLT]).max():.2f} V, wheel at the top "
      f"{sol[W_WHEEL][-1]:.1f} rad/s; re-simulation deviation {check.max_open_loop:.2e}")
tau_max = CUBE_MOTOR["k"] * I_MAX

# %%
# The same swing-up with an ideal torque source limited to k·I_max, for comparison
from jourdain.library import CubeOnEdge

torque_system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
ideal = jd.TrajectoryProblem(torque_system, jd.FreeTime(guess=1.0, lower=0.05, upper=4.0),
                             intervals=60)
ideal.initial({PHI: np.pi / 4, PSI: 0.0, W_EDGE: 0.0, W_WHEEL: 0.0})
ideal.final({PHI: 0.0, W_EDGE: 0.0})
ideal.bound("cube.motor.tau", -tau_max, tau_max)
ideal.bound(W_WHEEL, -150.0, 150.0)
ideal.bound(PHI, -np.pi / 4, np.pi / 4)
ideal.terminal_cost(lambda v: v.T)
ideal.integral_cost(lambda v: 1e-3 * v["cube.motor.tau"] ** 2)
ideal_sol = ideal.solve(jd.Collocation(degree=3, scheme=jd.Scheme.RADAU))
print(f"ideal torque source limited to k·I_max = {tau_max:.3f} N·m: T = {ideal_sol.T:.3f} s "
      "(the motor's back-EMF and voltage limit cost the difference)")

# %%
# Figure
fig, ax = plt.subplots(3, 2, sharex="col", figsize=(10, 7))
for a, name, unit in zip(ax[:, 0], ("bal.cube.edge.phi", "bal.cube.drive.ammeter.i",
                                    "bal.controller.u"), ("rad", "A", "V")):
    a.plot(balance.t, balance[name])
    a.set_ylabel(f"{name.split('.', 1)[1]} [{unit}]", fontsize=8)
ax[0, 0].set_title("LQR balancing on voltage")
ax[0, 1].plot(sol.t, sol[PHI], label="voltage-driven")
ax[0, 1].plot(ideal_sol.t, ideal_sol[PHI], "--", label="ideal torque")
ax[0, 1].legend(fontsize=7)
ax[1, 1].plot(sol.t, sol[AMP])
ax[1, 1].axhline(I_MAX, color="k", lw=0.5, ls="--")
ax[2, 1].plot(sol.t, sol[VOLT])
ax[0, 1].set_title(f"minimum-time swing-up, T = {sol.T:.3f} s")
for a in ax.ravel():
    a.grid(True, alpha=0.3)
for a in ax[2]:
    a.set_xlabel("t [s]")
fig.tight_layout()
Path("out").mkdir(exist_ok=True)
fig.savefig("out/electric_cube.png", dpi=120)
print("figure saved to out/electric_cube.png")
