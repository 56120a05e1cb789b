"""Swing-up of the double inverted pendulum on a cart: plan, track with time-varying LQR
=====================================================================================

What: a cart (1 kg) carries two uniform poles in series (0.3 kg, 0.5 m each). Both hang down
at rest; in 2.5 s they must stand upright at rest above the cart's starting point, with the
cart force within ±40 N and the cart within ±1.5 m, for the least ∫F² dt. Direct collocation
plans the motion; a time-varying LQR (Riccati equation integrated backwards along the plan's
linearization) tracks it, and keeps the poles up afterwards with the LQR of the upright
equilibrium.

Why: the upright double pendulum is unstable with fast modes (about 7 1/s here), so the
plan's own small errors grow by orders of magnitude within the swing: replaying the optimal
force open loop ends far from upright. Feedback along the plan removes them; the same
controller also absorbs a perturbed start.

You will see: the plan's cost and solve time, the open-loop replay's final angles (off by
radians), the closed-loop final angles (within 1e-2 rad of upright, 1 s after the plan
ends), the same from a start 0.05 rad off, and out/cart_double_pendulum.png with the plan,
the open-loop replay and the tracked motion.
"""
# %%
# The plant and the swing-up problem
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.library import CartDoublePendulum  # noqa: E402

system = jd.compile(jd.Model.on_world(World(), cdp=CartDoublePendulum()))
S, PHI1, PHI2, V, W1, W2 = system.x_names
F = "cdp.motor.f"
T = 2.5

ocp = jd.TrajectoryProblem(system, horizon=T, intervals=80)
ocp.initial({S: 0.0, PHI1: np.pi, PHI2: 0.0, V: 0.0, W1: 0.0, W2: 0.0})  # hanging down
ocp.final({S: 0.0, PHI1: 0.0, PHI2: 0.0, V: 0.0, W1: 0.0, W2: 0.0})      # upright, at rest
ocp.bound(F, -40.0, 40.0)
ocp.bound(S, -1.5, 1.5)
ocp.integral_cost(lambda v: v[F] ** 2)
plan = ocp.solve(jd.Collocation(3), guess={PHI1: lambda t: np.pi * (1 - t / T)})
print(f"plan: cost {plan.cost:.2f} N²·s, {plan.stats['iterations']} iterations, "
      f"{plan.stats['solve_time']:.2f} s")

# %%
# Open-loop replay: the optimal force alone
replay = plan.check()
end = replay.simulated.final()
print(f"open-loop replay: phi1(T) = {end[PHI1]:+.3f} rad, phi2(T) = {end[PHI2]:+.3f} rad "
      f"(max deviation from the plan {replay.max_open_loop:.2f})")

# %%
# Tracking: time-varying LQR along the plan, then 1 s more at the upright equilibrium
Q = {S: 10.0, PHI1: 100.0, PHI2: 100.0, V: 1.0, W1: 1.0, W2: 1.0}
tracker = plan.tracking_controller(Q, R=0.01)
print(f"TVLQR: {len(tracker.t)} gains along the plan; final cost: {tracker.final_cost}")
tracked = plan.check(controller=tracker, t_end=T + 1.0)
end = tracked.simulated.final()
print(f"tracked: phi1 = {end[PHI1]:+.2e} rad, phi2 = {end[PHI2]:+.2e} rad at t = {T + 1:g} s "
      f"(max deviation from the plan {tracked.max_deviation:.2e})")
perturbed = plan.check(controller=tracker, t_end=T + 1.0, initial={PHI1: np.pi + 0.05})
end = perturbed.simulated.final()
print(f"tracked from phi1(0) = pi + 0.05: phi1 = {end[PHI1]:+.2e} rad, "
      f"phi2 = {end[PHI2]:+.2e} rad at t = {T + 1:g} s")

# %%
# Figure: plan, open-loop replay, tracked (nominal and perturbed start)
fig, axes = plt.subplots(3, 1, sharex=True, figsize=(7, 7))
for ax, name in zip(axes, (S, PHI1, PHI2)):
    ax.plot(plan.t, plan[name], "k.", ms=3, label="plan (nodes)")
    ax.plot(replay.simulated.t, replay.simulated[name], "C3-", lw=1, label="open-loop replay")
    ax.plot(tracked.simulated.t, tracked.simulated[name], "C0-", label="tracked (TVLQR)")
    ax.plot(perturbed.simulated.t, perturbed.simulated[name], "C2--", lw=1,
            label="tracked, perturbed start")
    ax.set_ylabel(name, fontsize=8)
    ax.grid(True, alpha=0.3)
axes[1].set_ylim(-1.0, 4.5)
axes[2].set_ylim(-3.0, 3.0)
axes[0].legend(fontsize=7, loc="upper right")
axes[-1].set_xlabel("t [s]")
fig.suptitle("double pendulum on a cart: swing-up plan and tracking")
fig.tight_layout()
fig.savefig("out/cart_double_pendulum.png", dpi=120)
print("figure saved to out/cart_double_pendulum.png")
