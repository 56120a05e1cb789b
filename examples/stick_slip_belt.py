"""A block in stick–slip on a moving belt
======================================

What: a block (m = 1 kg) tied to the wall by a spring (k = 100 N/m) lies on a belt moving at
v_b = 0.1 m/s; dry friction between block and belt holds up to F_s = 3 N (static) and slides
with F_k = 2 N. Stuck, the block rides with the belt and stretches the spring until the
spring force exceeds F_s; it slips, oscillates about x_k = F_k/k, and sticks again when its
speed matches the belt's. The friction is MSL's SupportFriction (stick/slip by events, the
stuck phase a constraint); the belt is a 10¹¹ kg slider, whose speed friction cannot change.
Why: the textbook limit cycle of friction-induced vibration (squeal, chatter of machine
slides), with closed-form stick and slip durations::

    slip:  T_slip = (2π − 2·atan(a·ω/v_b))/ω,  a = (F_s − F_k)/k,  ω = √(k/m)
    stick: T_stick = (F_s/k − x_e)/v_b, x_e = x_k + a·cos(ω·T_slip) + (v_b/ω)·sin(ω·T_slip)

You will see: the durations of the phases against the closed form, the friction force's
stick/slip pattern, and out/stick_slip_belt.png.
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import Prismatic, RigidBody, TranslationalSpring, World
from jourdain.blocks.hybrid import SupportFriction

m, k, F_k, F_s, v_b = 1.0, 100.0, 2.0, 3.0, 0.1
OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %%
# Model: belt and block on horizontal sliders, spring from the wall, friction between
model = jd.Model(world=World())
for name, mass in (("belt", 1e11), ("block", m)):
    joint = model.add(name, Prismatic(axis=(1, 0, 0)))
    body = model.add(f"{name}_body", RigidBody(m=mass))
    model.connect(model.world.frame_b, joint.frame_a)
    model.connect(joint.frame_b, body.frame_a)
model.spring = TranslationalSpring(c=k)
model.friction = SupportFriction(f_pos=[[0.0, F_k]], peak=F_s / F_k)
model.connect(model.spring.flange_b, model.block.axis)
model.connect(model.friction.support, model.belt.axis)
model.connect(model.friction.flange_b, model.block.axis)
system = jd.compile(model)

# %%
# Simulate: the block starts at the spring's rest length, moving with the belt
res = system.simulate(6.0, z0={"belt.v": v_b, "block.v": v_b}, n_out=1201, rtol=1e-11,
                      atol=1e-12)
breaks = res.events.times("friction", "break_backward")
sticks = res.events.times("friction", "stop_backward")
omega, a = np.sqrt(k / m), (F_s - F_k) / k
t_slip = (2 * np.pi - 2 * np.arctan(a * omega / v_b)) / omega
theta = omega * t_slip
x_end = F_k / k + a * np.cos(theta) + v_b / omega * np.sin(theta)
t_stick = (F_s / k - x_end) / v_b
print(f"first breakaway at t = {breaks[0]:.9f} s (closed form F_s/(k·v_b) = "
      f"{F_s / k / v_b:.9f} s)")
print(f"slip phases:  {np.round(sticks[:4] - breaks[:4], 9)} s  (closed form {t_slip:.9f} s)")
print(f"stick phases: {np.round(breaks[1:4] - sticks[:3], 9)} s  (closed form {t_stick:.9f} s)")
print(f"largest friction force: {np.abs(res['friction.tau']).max():.6f} N (static limit "
      f"{F_s} N, reached at each breakaway); belt speed change "
      f"{abs(res['belt.v'][-1] - v_b):.1e} m/s")
res.plot("block.s", "block.v", "friction.tau", "friction.mode", path=OUT / "stick_slip_belt.png",
         title="Block on a moving belt: stick–slip")
print(f"figure saved to {OUT / 'stick_slip_belt.png'}")
