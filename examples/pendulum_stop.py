"""A pendulum against hard stops: rigid impacts, an elastic stop, a compliant stop
===============================================================================

What: a point-mass pendulum (hanging at φ = 0) swings into joint limits (a Stop on its
revolute joint) three ways: a rigid lower stop at φ = 0.3 rad with e = 0.5 (gravity presses
the pendulum onto it: it bounces and comes to rest against the stop), elastic stops e = 1 at
±0.3 rad (it rattles between them without losing energy), and a compliant lower stop
(Hunt–Crossley contact force c·δⁿ·(1 + d·δ̇)).
Why: joint limits are where real mechanisms meet their boundaries; the rigid law is exact
for short stiff contacts and fast to simulate, the compliant law resolves the contact force.
You will see: the impacts and the energy each took against (1 − e²)·½·J·ω² (J = m·l², the
moment of inertia about the joint), the elastic stop's energy drift over its impacts, the
compliant stop's peak penetration and contact force, and out/pendulum_stop.png.
"""
# %%
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import jourdain as jd  # noqa: E402
from jourdain.blocks import Revolute, RigidBody, World  # noqa: E402
from jourdain.blocks.hybrid import Stop, StopLaw  # noqa: E402

m, l = 1.0, 0.5
OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)


def pendulum(stop: Stop) -> jd.System:
    """Mass m at l below the joint (φ = 0 hanging down), a stop on the joint's axis."""
    model = jd.Model(world=World())
    model.joint, model.bob = Revolute(axis=(0, 0, 1)), RigidBody(m=m, r_cm=(0.0, -l, 0.0))
    model.stop = stop
    model.connect(model.world.frame_b, model.joint.frame_a)
    model.connect(model.joint.frame_b, model.bob.frame_a)
    model.connect(model.stop.flange_b, model.joint.axis)
    return jd.compile(model)


# %%
# 1. Rigid stop at 0.3 rad, e = 0.5: bounces, then rests against it
rigid = pendulum(Stop(lower=0.3, e=0.5, v_rest=1e-3)).simulate(
    3.0, y0={"joint.phi": 1.2}, n_out=601, rtol=1e-10, atol=1e-10)
hits = rigid.events.select("stop", "hit_lower")
print(f"rigid stop (e = 0.5): {len(hits)} impacts")
for r in hits[:3]:
    w = r.x_before[1]
    print(f"  t = {r.t:.6f} s  ω⁻ = {w:+.4f} rad/s  ω⁺ = {r.x_after[1]:+.4f}  energy lost "
          f"{r.energy_lost:.6f} J = (1 - e²)·½·m·l²·ω² = {0.75 * 0.5 * m * l**2 * w**2:.6f} J")
print(f"  resting against the stop from t = {hits[-1].t:.4f} s: φ = "
      f"{rigid['joint.phi'][-1]:.9f} rad, reaction {rigid['stop.lower'][-1]:.6f} N·m = "
      f"m·g·l·sin(0.3) = {m * 9.81 * l * np.sin(0.3):.6f} N·m")

# %%
# 2. Elastic stops at ±0.3 rad (e = 1): no energy lost however many impacts
elastic = pendulum(Stop(lower=-0.3, upper=0.3, e=1.0, v_rest=0.0)).simulate(
    4.0, z0={"joint.w": 3.0}, n_out=801, rtol=1e-11, atol=1e-11)
energy = elastic["energy.total"]
print(f"elastic stops: {len(elastic.events.select('stop'))} impacts in 4 s, energy drift "
      f"{np.abs(energy - energy[0]).max():.1e} J of {energy[0]:.4f} J")

# %%
# 3. Compliant stop at 0.3 rad: Hunt–Crossley contact (c = 200 N·m/rad^1.5, d = 0.5 s/rad)
soft = pendulum(Stop(lower=0.3, law=StopLaw.COMPLIANT, c=200.0, d=0.5, n=1.5)).simulate(
    3.0, y0={"joint.phi": 1.2}, n_out=3001, rtol=1e-10, atol=1e-10)
contacts = soft.events.select("stop")
depth = 0.3 - soft["joint.phi"].min()
w_in, w_out = contacts[0].x_before[1], contacts[1].x_before[1]
print(f"compliant stop: {len(contacts)} contact events (each contact begins and ends with "
      f"one), deepest penetration {depth:.4f} rad, first contact: in at {w_in:+.4f} rad/s, out "
      f"at {w_out:+.4f} rad/s (effective restitution {abs(w_out / w_in):.3f}), "
      f"{contacts[1].t - contacts[0].t:.4f} s long")

# %%
# Figure
fig, ax = plt.subplots(3, 1, sharex=True, figsize=(7, 6))
for a, res, title in zip(ax, (rigid, elastic, soft), ("rigid, e = 0.5", "elastic, e = 1",
                                                      "compliant (Hunt–Crossley)")):
    a.plot(res.t, res["joint.phi"])
    a.set_ylabel("φ [rad]")
    a.set_title(title, fontsize=9)
    a.grid(True, alpha=0.3)
ax[-1].set_xlabel("t [s]")
fig.tight_layout()
fig.savefig(OUT / "pendulum_stop.png", dpi=120)
print(f"figure saved to {OUT / 'pendulum_stop.png'}")
