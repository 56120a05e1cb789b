"""The Cubli jumps up onto its edge and balances
=============================================

Gajamohan, Merz, Thommen, D'Andrea, "The Cubli: A cube that can jump up and balance",
IROS 2012.

What: the 1-D Cubli lies on a face (a rigid floor stop at φ = −45°). Its motor spins the
reaction wheel up; a brake then stops the wheel within a millisecond, the wheel's angular
momentum passes to the whole cube, which lifts off and rises towards its edge; when it comes
within 0.1 rad of upright a digital LQR controller (sampled at 1 kHz, zero-order hold, torque
limit) takes over, the brake opens, and the controller balances the cube.
Why: every part of the hybrid machinery at once — a resting contact that lifts off when its
reaction would pull, a brake with stiction (MSL Brake: sliding, then stuck), a latch that
closes on a zero crossing, and a sampled controller inside the continuous plant.
You will see: the least wheel speed for the jump, from the angular-momentum closed form of the
paper and from simulation (bisection on the speed with the brake held), the event log of the
jump, the balancing error, the figure out/cubli_jump.png and the 3-D animation
out/cubli_jump.html (open it in a browser).
"""
# %%
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import jourdain as jd  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.library import CubeOnEdge, CubliJumpUp, jump_speed  # noqa: E402

FACE = -np.pi / 4

# %%
# The least wheel speed: the closed form of the paper (instant braking)
closed = jump_speed()
print(f"least wheel speed for the jump, angular momentum about the edge: {closed:.2f} rad/s")

# %%
# ... and by simulation: the brake closes at t = 20 ms and holds (no controller)
coast = jd.compile(jd.Model.on_world(World(), cubli=CubliJumpUp(
    np.zeros((1, 3)), sample_period=10.0, catch_angle=-1.0)))   # catch never: brake held


def reaches_upright(speed: float) -> bool:
    res = coast.simulate(1.5, y0={"cubli.cube.edge.phi": FACE},
                         z0={"cubli.cube.bearing.w": speed}, n_out=151)
    return res["cubli.cube.edge.phi"].max() >= 0.0


low, high = 0.9 * closed, 1.2 * closed
for _ in range(14):
    mid = 0.5 * (low + high)
    low, high = (low, mid) if reaches_upright(mid) else (mid, high)
print(f"least wheel speed by simulation (brake torque 50 N·m, bearing friction): "
      f"{high:.2f} rad/s, {100 * (high / closed - 1):+.2f} % (gravity acts during the "
      "0.7 ms of braking, the bearing slows the wheel before)")

# %%
# The LQR design on the cube without floor (the linearization about upright)
edge = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
linear = jd.linearize(edge).select([f"cube.{s}" for s in CubliJumpUp.STATES])
gain = jd.lqr(linear, Q={"cube.edge.phi": 100.0, "cube.edge.w": 1.0, "cube.bearing.w": 1e-3},
              R=[[1e3]])
print("LQR gain on (φ, φ̇, ψ̇):", np.round(gain.K, 4))

# %%
# The whole jump: spin up with 0.1 N·m for 0.42 s, brake at 0.5 s, catch, balance
cubli = jd.compile(jd.Model.on_world(World(), cubli=CubliJumpUp(
    gain.K, tau_max=0.2, sample_period=1e-3, spin_torque=0.1, spin_time=0.42,
    brake_at=0.5)))
res = cubli.simulate(2.5, y0={"cubli.cube.edge.phi": FACE}, n_out=501)
brake = res.events.select("cubli.brake", "engage")[0]
wheel_at_brake = brake.x_before[cubli.x_names.index("cubli.cube.bearing.w")]
caught = res.events.select("cubli.catch")[0]
print(f"\nwheel speed when the brake closes: {wheel_at_brake:.2f} rad/s "
      f"({wheel_at_brake / high:.3f} × the least speed)")
print(f"the cube lifts off at t = {brake.t:.3f} s, the controller takes over at "
      f"t = {caught.t:.4f} s (φ = {caught.x_before[0]:.4f} rad)")
phi = res["cubli.cube.edge.phi"]
print(f"tilt at t = 2.5 s: {phi[-1]:.2e} rad, largest motor torque "
      f"{np.abs(res['cubli.limit.y']).max():.3f} N·m (limit 0.2), "
      f"{len(res.events)} events logged, {res.segments} integration segments")
print("event log:\n  " + res.events.table(8).replace("\n", "\n  "))

# %%
# Figure
fig, ax = plt.subplots(4, 1, sharex=True, figsize=(7, 8))
ax[0].plot(res.t, np.degrees(phi))
ax[0].axhline(-45, color="k", lw=0.5, ls="--")
ax[0].set_ylabel("φ [deg]")
ax[1].plot(res.t, res["cubli.cube.bearing.w"])
ax[1].set_ylabel("ψ̇ [rad/s]")
ax[2].plot(res.t, res["cubli.limit.y"])
ax[2].set_ylabel("motor torque [N·m]")
ax[3].plot(res.t, res["cubli.brake.mode"], label="brake mode")
ax[3].plot(res.t, res["cubli.cube.floor.mode"], label="floor mode")
ax[3].plot(res.t, res["cubli.catch.on"], label="controller on")
ax[3].legend(fontsize=7)
ax[3].set_xlabel("t [s]")
for a in ax:
    a.grid(True, alpha=0.3)
fig.suptitle("The Cubli jumps up and balances")
fig.tight_layout()
out = Path("out") / "cubli_jump.png"
out.parent.mkdir(exist_ok=True)
fig.savefig(out, dpi=120)
print(f"figure saved to {out}")

# %%
# The jump in 3-D: open out/cubli_jump.html in a browser (play, pause, time slider, speed,
# orbit with the mouse): the wheel spins up, the brake stops it, the cube rises onto its edge
# and the controller holds it there.
res.animate(Path("out") / "cubli_jump.html", title="The Cubli jumps up onto its edge and balances")
print("animation saved to out/cubli_jump.html")
