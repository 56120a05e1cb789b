"""A ball bouncing on the floor: impacts, apex heights and rest
============================================================

What: a point mass on a vertical slider falls from h = 1 m onto a floor modelled as a rigid
stop with Newton's coefficient of restitution e = 0.8. Each impact reverses and shrinks the
normal speed (v⁺ = −e·v⁻); once a rebound is slower than v_rest the ball stays on the floor
(resting contact, a constraint). A user event marks each apex.
Why: the simplest hybrid system, with a closed form to compare against — impact times
t_1 = √(2h/g), t_{k+1} = t_k + 2·e^k·v_0/g, apex heights h·e^(2k) — and the classical Zeno
accumulation at t_∞ = t_1·(1 + 2e/(1 − e)), which the rest speed resolves.
You will see: the first impact times and apex heights next to the closed form, the energy
each impact took against (1 − e²)·½·m·v², the time the ball comes to rest, and
out/bouncing_ball.png.
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import Prismatic, RigidBody, World
from jourdain.blocks.hybrid import Stop

h, e, m, g = 1.0, 0.8, 0.5, 9.81
OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %%
# The model: a slider along y, the floor a one-sided stop at s = 0
model = jd.Model(world=World(g=(0.0, -g, 0.0)))
model.slide, model.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=m)
model.floor = Stop(lower=0.0, e=e, v_rest=1e-3)
model.connect(model.world.frame_b, model.slide.frame_a)
model.connect(model.slide.frame_b, model.ball.frame_a)
model.connect(model.floor.flange_b, model.slide.axis)
system = jd.compile(model)

# %%
# Simulate with an apex event (the speed crosses zero falling)
apex = jd.Event(lambda v: v["slide.v"], jd.Direction.FALLING, name="apex")
res = system.simulate(6.0, y0={"slide.s": h}, events=[apex], n_out=1201, rtol=1e-12,
                      atol=1e-12)

# %%
# Compare with the closed form
hits = res.events.select("floor", "hit_lower")
times = np.array([r.t for r in hits])
v0 = np.sqrt(2 * g * h)
expected = np.sqrt(2 * h / g) + np.concatenate(
    [[0.0], np.cumsum(2 * e ** np.arange(1, times.size) * v0 / g)])
heights = np.array([r.x_after[0] for r in res.events.select("apex")])
print(f"{times.size} impacts; the first five and the closed form:")
for k in range(5):
    lost = hits[k].energy_lost
    v_in = hits[k].x_before[1]
    print(f"  t_{k + 1} = {times[k]:.12f} s  (closed form {expected[k]:.12f}, "
          f"error {times[k] - expected[k]:+.1e})   energy lost {lost:.6f} J "
          f"= (1 - e²)·½·m·v² = {(1 - e**2) * 0.5 * m * v_in**2:.6f} J")
print("apex heights:", np.round(heights[:5], 9), " h·e^(2k):",
      np.round(h * e ** (2 * np.arange(1, 6)), 9))
t_zeno = np.sqrt(2 * h / g) * (1 + 2 * e / (1 - e))
rest = next(r.t for r in hits if r.discrete_after.get("floor.mode") == -1)
print(f"the ball rests from t = {rest:.6f} s (Zeno accumulation point of the ideal bounce "
      f"sequence: {t_zeno:.6f} s); final height {res['slide.s'][-1]:.1e} m, floor reaction "
      f"{res['floor.lower'][-1]:.6f} N = m·g = {m * g:.6f} N")

res.plot("slide.s", "slide.v", "energy.total", path=OUT / "bouncing_ball.png",
         title="Bouncing ball (e = 0.8)")
print(f"figure saved to {OUT / 'bouncing_ball.png'}")
