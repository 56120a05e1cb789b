"""Parallel parking of the differential-drive vehicle, planned by trajectory optimization
======================================================================================

The vehicle of the library (two motor-driven wheels rolling without slip under a chassis) can
only move along its heading: the no-slip constraints are not integrable (nonholonomic constraints; Murray, Li and Sastry 1994), so a
sideways displacement needs a switching manoeuvre, the net motion of a Lie bracket (see
examples/parallel_parking.py). Here the optimizer finds one: move 0.4 m sideways into a slot
1 m long (−0.5 m ≤ x_s ≤ 0.5 m), at rest at both ends, with the heading kept within ±0.3 rad (so it
cannot simply turn on the spot), the motor torques within ±0.5 N·m and the least effort
∫ (τ_L² + τ_R²) dt over 8 s. The compiled constrained System enters in its minimal form
(ẏ = G(y)·z, 2 speeds for 5 coordinates) with no change to the transcription. The straight
sideways line is a useless initial guess (at rest the sideways direction is not reachable to
first order), so the guess wiggles the heading. You will see the constraint classification,
IPOPT's progress, the re-simulation check, and the path in out/parking_optimal.png.
"""
# %%
# The plant: a nonholonomic vehicle, compiled in minimal form
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import DifferentialDrive

system = jd.compile(jd.Model.on_world(World(), car=DifferentialDrive(R=0.1, b=0.2)))
print(system.constraint_report())
X, Y, HEADING = "car.x_s.s", "car.y_s.s", "car.heading.phi"
TORQUES = ("car.motor_left.tau", "car.motor_right.tau")
T, SIDEWAYS, HEADING_MAX, SLOT = 8.0, 0.4, 0.3, 0.5

# %%
# The problem
ocp = jd.TrajectoryProblem(system, horizon=T, intervals=50)
at_rest = {name: 0.0 for name in system.z_names}
ocp.initial({X: 0.0, Y: 0.0, HEADING: 0.0, "car.left.phi": 0.0, "car.right.phi": 0.0,
             **at_rest})
ocp.final({X: 0.0, Y: SIDEWAYS, HEADING: 0.0, **at_rest})
for tau in TORQUES:
    ocp.bound(tau, -0.5, 0.5)
ocp.bound(HEADING, -HEADING_MAX, HEADING_MAX)
ocp.bound(X, -SLOT, SLOT)
ocp.integral_cost(lambda v: v[TORQUES[0]] ** 2 + v[TORQUES[1]] ** 2)

# %%
# Solve from a wiggling guess, with progress every 20 iterations
wiggle = {HEADING: lambda t: HEADING_MAX * np.sin(4 * np.pi * t / T),
          "car.left.w": lambda t: 3 * np.sin(2 * np.pi * t / T),
          "car.right.w": lambda t: 3 * np.sin(2 * np.pi * t / T)}
sol = ocp.solve(jd.Collocation(degree=3), guess=wiggle, progress=20, codegen=True)
check = sol.check()
print(check)

# %%
# Key numbers: the moves, and the path with the chassis drawn every few nodes
forward = sol["car.left.w"] + sol["car.right.w"]          # ∝ the speed along the heading
driving = np.sign(forward[np.abs(forward) > 0.05 * np.abs(forward).max()])
moves = int(np.sum(np.diff(driving) != 0))
print(f"\nparked {sol[Y][-1]:.4f} m sideways with heading {sol[HEADING][-1]:.1e} rad, "
      f"cost {sol.cost:.4f} N²·m²·s, {sol.stats['iterations']} iterations, "
      f"{sol.stats['solve_time']:.2f} s; the driving direction changes {moves} times")
print(f"re-simulation of the optimal torques: max deviation {check.max_open_loop:.2e} open "
      f"loop, {check.max_local:.2e} per interval")
fig, ax = plt.subplots(figsize=(8, 4.5))
ax.plot(sol[X], sol[Y], ".-", ms=3, label="planned path of the axle center")
sim = check.simulated
ax.plot(sim[X], sim[Y], "--", label="re-simulated")
for k in range(0, len(sol.t), 5):   # the axle (wheel to wheel) and a tick for the heading
    x, y, h = sol[X][k], sol[Y][k], sol[HEADING][k]
    across = 0.2 * np.array([-np.sin(h), np.cos(h)])
    ax.plot([x - across[0], x + across[0]], [y - across[1], y + across[1]], color="0.6", lw=1)
    ax.plot([x, x + 0.05 * np.cos(h)], [y, y + 0.05 * np.sin(h)], color="0.6", lw=1)
ax.axvline(-SLOT, color="k", lw=0.8, ls=":")
ax.axvline(SLOT, color="k", lw=0.8, ls=":")
ax.set(xlabel="x_s [m]", ylabel="y_s [m]", aspect="equal",
       title=f"parallel parking, heading within ±{HEADING_MAX} rad")
ax.legend(fontsize=7)
fig.tight_layout()
Path("out").mkdir(exist_ok=True)
fig.savefig("out/parking_optimal.png", dpi=120)
print("figure: out/parking_optimal.png")
