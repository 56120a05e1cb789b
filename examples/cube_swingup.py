"""Cube on an edge: swing-up from lying on a face to upright (the Cubli swing-up)
==============================================================================

The reaction-wheel cube (the 1-D Cubli, Gajamohan et al. 2012) (Cubli prototype parameters) lies on a face, φ = 45°, wheel
at rest. The motor may exert at most 0.4 N·m and the wheel may spin at most 150 rad/s relative
to the housing; the floor keeps φ within ±45°. Find the fastest motion (free final time, with a
small effort penalty) to the upright position φ = 0 at rest. The static torque needed to lift
the lying cube is m·g·l·sin 45° ≈ 0.34 N·m, so the motor has little margin: the optimum
pushes at full torque until the wheel reaches its speed limit, lets the cube coast up with the
wheel held at the limit, and brakes the wheel at the top. A second run with a wheel limit of 100 rad/s is infeasible and shows
the named failure report. You will see the optimal time, the wheel speed reached, the
re-simulation deviation, and out/cube_swingup.png.

At the top, an LQR controller (linearization about the upright equilibrium, the closed loop
BalancedCubeOnEdge of the library, same 0.4 N·m limit) takes over from the planned state and
balances the cube while it slows the wheel down; out/cube_swingup_balance.png shows the whole
manoeuvre.
"""
# %%
# The plant
import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import BalancedCubeOnEdge, CubeOnEdge

system = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
PHI, PSI, W_EDGE, W_WHEEL = system.x_names
TAU = "cube.motor.tau"
print(system, system.x_names)


# %%
# The problem: minimum time from a face to the edge under torque and wheel-speed limits
def swing_up(wheel_limit: float, torque_limit: float = 0.4) -> jd.TrajectoryProblem:
    ocp = jd.TrajectoryProblem(system, jd.FreeTime(guess=1.0, lower=0.05, upper=4.0),
                               intervals=60)
    ocp.initial({PHI: np.pi / 4, PSI: 0.0, W_EDGE: 0.0, W_WHEEL: 0.0})
    ocp.final({PHI: 0.0, W_EDGE: 0.0})
    ocp.bound(TAU, -torque_limit, torque_limit)
    ocp.bound(W_WHEEL, -wheel_limit, wheel_limit)
    ocp.bound(PHI, -np.pi / 4, np.pi / 4)          # the floor on either side
    ocp.terminal_cost(lambda v: v.T)
    ocp.integral_cost(lambda v: 1e-3 * v[TAU] ** 2)  # [s/(N·m)²·s]: smooths the bang-bang
    return ocp


sol = swing_up(wheel_limit=150.0).solve(jd.Collocation(degree=3, scheme=jd.Scheme.RADAU))
check = sol.check()
print(sol.report())

# %%
# The same statement with a wheel limit too low to get up: a named report, not a crash
try:
    swing_up(wheel_limit=100.0).solve(jd.Collocation(degree=3))
except jd.OptimizationError as failure:
    print("\nwith a 100 rad/s wheel limit:\n" + str(failure))

# %%
# At the top, LQR balancing takes over from the state the re-simulation reached
lin = jd.linearize(system)
states = [f"cube.{s}" for s in BalancedCubeOnEdge.STATES]  # the wheel angle is cyclic
feedback = jd.lqr(lin.select(states), Q={PHI: 100.0, W_EDGE: 1.0, W_WHEEL: 1e-3}, R=[[1e3]])
closed = jd.compile(jd.Model.on_world(World(), bal=BalancedCubeOnEdge(feedback.K, 0.4)))
top = check.simulated.final()
balance = closed.simulate(3.0, y0={f"bal.{n}": top[n] for n in (PHI, PSI)},
                          z0={f"bal.{n}": top[n] for n in (W_EDGE, W_WHEEL)}, n_out=301)
print(f"LQR from the top: phi {top[PHI]:.1e} → {balance['bal.' + PHI][-1]:.1e} rad, wheel "
      f"{top[W_WHEEL]:.1f} → {balance['bal.' + W_WHEEL][-1]:.1f} rad/s in 3 s, max |tau| "
      f"{np.abs(balance['bal.limit.y']).max():.3f} N·m")

# %%
# Key numbers and the figures
print(f"\nupright after T = {sol.T:.3f} s, peak motor torque {np.abs(sol[TAU]).max():.3f} N·m, "
      f"wheel speed at the top {sol[W_WHEEL][-1]:.1f} rad/s")
print(f"re-simulation of the optimal torque: max deviation {check.max_open_loop:.2e} open loop, "
      f"{check.max_local:.2e} per interval")
sol.plot(PHI, W_EDGE, W_WHEEL, TAU, path="out/cube_swingup.png",
         title=f"Cubli swing-up, minimum time {sol.T:.3f} s")
print("figure: out/cube_swingup.png")
fig, axes = plt.subplots(3, 1, sharex=True, figsize=(7, 6))
sim, t_top = check.simulated, sol.T
for ax, name, unit in zip(axes, (PHI, W_WHEEL, TAU), ("rad", "rad/s", "N·m")):
    ax.plot(sim.t, sim[name], label="swing-up (planned torque, re-simulated)")
    after = balance["bal.limit.y"] if name == TAU else balance["bal." + name]
    ax.plot(t_top + balance.t, after, label="LQR balancing")
    ax.set_ylabel(f"{name} [{unit}]", fontsize=8)
    ax.grid(True, alpha=0.3)
axes[0].legend(fontsize=7)
axes[-1].set_xlabel("t [s]")
fig.suptitle("Cubli: minimum-time swing-up, then LQR balancing")
fig.tight_layout()
fig.savefig("out/cube_swingup_balance.png", dpi=120)
print("figure: out/cube_swingup_balance.png")
