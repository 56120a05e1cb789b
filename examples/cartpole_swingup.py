"""Cart-pole swing-up by trajectory optimization
=============================================

The cart-pole of the library (cart 1 kg, uniform pole 0.1 kg and 1 m) starts hanging down at
rest and must stand upright at rest after 2 s, with the cart force limited to ±20 N and the
cart kept within ±1 m of its start, using as little effort ∫ f² dt as possible. The compiled
System is the plant of the optimal-control problem as it is; the same problem statement is
solved by direct collocation and by multiple shooting, and the optimal force is re-simulated
with CVODES to check the plan. You will see the cost, iterations and solve times of both
transcriptions, the re-simulation deviation, and two figures in out/: the trajectories and a
stroboscopic picture of the motion.
"""
# %%
# The plant: compile the model once
import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import CartPole

system = jd.compile(jd.Model.on_world(World(), cartpole=CartPole()))
print(system)
S, PHI, V, W = system.x_names
F = "cartpole.motor.f"

# %%
# The problem statement, independent of the transcription
ocp = jd.TrajectoryProblem(system, horizon=2.0, intervals=60)
ocp.initial({S: 0.0, PHI: np.pi, V: 0.0, W: 0.0})   # hanging down (φ = π), at rest
ocp.final({S: 0.0, PHI: 0.0, V: 0.0, W: 0.0})       # upright, at rest, back at the start
ocp.bound(F, -20.0, 20.0)
ocp.bound(S, -1.0, 1.0)
ocp.integral_cost(lambda v: v[F] ** 2)

# %%
# Direct collocation (Radau, degree 3), with IPOPT's progress every 5 iterations
sol = ocp.solve(jd.Collocation(degree=3, scheme=jd.Scheme.RADAU), progress=5)
check = sol.check()
print(check)

# %%
# The same statement by multiple shooting (RK4), warm-started from the collocation plan
shoot = ocp.solve(jd.MultipleShooting(jd.Integrator.RK4, steps=4), guess=sol)
print(f"\ncollocation:       cost {sol.cost:.4f} N²·s, {sol.stats['iterations']} iterations, "
      f"{sol.stats['solve_time']:.3f} s")
print(f"multiple shooting: cost {shoot.cost:.4f} N²·s, {shoot.stats['iterations']} iterations, "
      f"{shoot.stats['solve_time']:.3f} s (warm start)")
print(f"re-simulation of the optimal force: max deviation {check.max_open_loop:.2e} open loop, "
      f"{check.max_local:.2e} per interval")
print(f"peak force {np.abs(sol[F]).max():.2f} N, farthest cart excursion "
      f"{np.abs(sol[S]).max():.3f} m")

# %%
# Figures: trajectories (plan and re-simulation) and a stroboscopic picture
sol.plot(path="out/cartpole_swingup.png", title="cart-pole swing-up: plan and re-simulation")
fig, ax = plt.subplots(figsize=(6.5, 4.2))
for k in range(0, len(sol.t), 3):
    s, phi = sol[S][k], sol[PHI][k]
    shade = str(0.85 - 0.75 * k / (len(sol.t) - 1))
    ax.plot([s, s - np.sin(phi)], [0.0, np.cos(phi)], color=shade, lw=2)
    ax.plot([s - 0.1, s + 0.1], [0.0, 0.0], color=shade, lw=6)
ax.set_aspect("equal")
ax.set_xlabel("x [m]")
ax.set_ylabel("y [m]")
ax.set_title("cart-pole swing-up, every third node (light: early, dark: late)")
fig.tight_layout()
fig.savefig("out/cartpole_swingup_motion.png", dpi=120)

# %%
# The plan in 3-D (open the file in a browser): the optimal motion, the nodes interpolated
sol.animate("out/cartpole_swingup.html", title="cart-pole swing-up (collocation plan)")
print("figures: out/cartpole_swingup.png, out/cartpole_swingup_motion.png; "
      "animation: out/cartpole_swingup.html")
