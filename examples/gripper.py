"""A two-finger gripper holds a box by friction, then lets it slip
=================================================================

What: a free box (6 degrees of freedom, 0.2 kg, 6 cm) hangs between two fingers on
horizontal sliders; each finger is a sphere squeezed against a face of the box by a force
F(t) that falls from 5 N to 1 N over 1 s. The contacts are body–body contacts between the
fingers' and the box's collision shapes (``collide``), rigid, with Coulomb friction
μ = 0.8: closed contacts are constraints, the box sticks while the friction the fingers must
carry, m·g/2 each, stays inside the cone μ·F, and slides once it does not.
Why: the smallest grasp — friction holding a part against gravity — with a closed form for
the instant the grasp fails: μ·F(t) = m·g/2, i.e. F = m·g/(2μ) = 1.226 N.
You will see: the friction and normal forces while held (m·g/2 and F), the largest friction
cone use, the slip time against the closed form, the box's drop afterwards, the ledger of
the run (penetration, complementarity and cone residuals) and out/gripper.png. The run
ends at 1.1 s, before the box's top edge reaches the fingers (past the edge, the sliding
contact's normal turns and the rigid law with friction can ask a closed contact to pull:
the ledger shows it as a cone and complementarity residual; see docs/hybrid.md).
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import FreeJoint, LinearMotor, Prismatic, RigidBody, Table, World
from jourdain.blocks.visual import Box, Sphere

m, a, r, mu, g = 0.2, 0.06, 0.01, 0.8, 9.81
F0, F1, T = 5.0, 1.0, 1.0                    # squeeze force falls from F0 to F1 over T
OUT = Path("out")
OUT.mkdir(exist_ok=True)

# %%
# The model: the box on a free joint, two fingers on sliders pushed by a linear motor each
model = jd.Model(world=World(g=(0.0, -g, 0.0)))
model.free, model.box = FreeJoint(), RigidBody(m=m, I=(m * a * a / 6,) * 3)
model.connect(model.world.frame_b, model.free.frame_a)
model.connect(model.free.frame_b, model.box.frame_a)
model.box.collide(Box(size=(a, a, a)), mu=mu)
model.squeeze = Table([0.0, T], [F0, F1])
for side, axis in (("left", (1.0, 0.0, 0.0)), ("right", (-1.0, 0.0, 0.0))):
    slide = model.add(f"{side}_slide", Prismatic(axis=axis))
    finger = model.add(f"{side}_finger", RigidBody(m=0.05, I=(1e-5,) * 3))
    motor = model.add(f"{side}_motor", LinearMotor())
    model.connect(model.world.frame_b, slide.frame_a)
    model.connect(slide.frame_b, finger.frame_a)
    model.connect(motor.flange_b, slide.axis)
    model.connect(model.squeeze.y, motor.f)
    finger.collide(Sphere(radius=r), mu=mu)
system = jd.compile(model)
print("contacts:", [p.name for p in model.contacts._collision_pairs])

# %%
# Simulate: the fingers start touching the box, at rest
s0 = -(a / 2 + r)                      # each finger's centre r beyond a face
res = system.simulate(1.1, y0={"left_slide.s": s0, "right_slide.s": s0}, n_out=301,
                      rtol=1e-9, atol=1e-11)
t = res.t
pairs = {name: f"contacts.{name}" for name in ("pair0", "pair1")}
f_n = np.array([res[f"{p}.f_n"] for p in pairs.values()])
f_t = np.array([np.hypot(res[f"{p}.f_t[0]"], res[f"{p}.f_t[1]"]) for p in pairs.values()])
held = t < 0.9
print(f"held (t < 0.9 s): friction per finger {f_t[:, held].mean():.6f} N "
      f"(m·g/2 = {m * g / 2:.6f} N), normal force at t = 0: {f_n[:, 0]} N (F0 = {F0} N)")
use = np.max(f_t[:, held] / (mu * f_n[:, held]))
print(f"largest use of the friction cone while held: {use:.4f} (≤ 1)")
slip = res.events.times("contacts.pair0", "slip")
closed_form = (F0 - m * g / (2 * mu)) / (F0 - F1) * T
print(f"slip at t = {slip[0]:.6f} s; closed form μ·F(t) = m·g/2: {closed_form:.6f} s")
print(f"box height at t = 0.9 s: {res['free.y'][np.searchsorted(t, 0.9)]:.2e} m; at 1.1 s: "
      f"{res['free.y'][-1]:.4f} m (sliding down)")
print(res.ledger.table())

# %%
# Figure: forces and the box's height
import matplotlib.pyplot as plt  # noqa: E402

fig, (ax1, ax2) = plt.subplots(2, 1, sharex=True, figsize=(7, 5))
ax1.plot(t, f_n[0], label="normal force, left finger")
ax1.plot(t, f_t[0], label="friction force, left finger")
ax1.plot(t, mu * f_n[0], "--", label="cone μ·F_n")
ax1.axvline(closed_form, color="gray", lw=0.8)
ax1.set_ylabel("force [N]")
ax1.legend()
ax2.plot(t, res["free.y"])
ax2.set_ylabel("box height [m]")
ax2.set_xlabel("t [s]")
fig.tight_layout()
fig.savefig(OUT / "gripper.png", dpi=120)
print("saved", OUT / "gripper.png")
