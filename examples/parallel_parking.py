"""Parallel parking: the Lie bracket of the rolling wheel as a net motion
======================================================================

The vertical rolling wheel (y = (x_s, y_s, φ, γ), ẏ = g1·z1 + g2·z2 with g1 = roll,
g2 = steer) cannot move sideways: the no-slip constraints forbid it. The switching sequence
roll h, steer h, roll back h, steer back h nevertheless ends displaced, by h²·[g1, g2] + O(h³),
with [g1, g2] = Dg2·g1 − Dg1·g2 = (R·sin γ, −R·cos γ, 0, 0): sideways. You will see the
classification (f = 4, g = 2), the net displacement against h²·[g1, g2] for shrinking h with the
error falling as h³, and the path of the wheel in out/parallel_parking.png.
"""
# %%
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import Wheel
from jourdain.solver.constraints.integrability import field_bracket, kinematic_flow, switching_displacement

# %%
# Compile the wheel and classify its constraints (nonholonomic constraints; Murray, Li and Sastry 1994).
system = jd.compile(jd.Model.on_world(World(), wheel=Wheel(R=0.3)))
print(system.integrability)
print("speeds z:", system.z_names)

# %%
# The switching sequence g1, g2, −g1, −g2 for shrinking steps h.
flow = kinematic_flow(system)
bracket = field_bracket(system)
y0 = np.array([0.0, 0.0, 0.0, 0.4])           # x_s, y_s, φ, γ
g12 = np.array(bracket(y0, system.p_default)).ravel()
print("[g1, g2](y0) =", np.round(g12, 6))
rows = []
for h in (0.4, 0.2, 0.1, 0.05):
    d = switching_displacement(flow, y0, h)
    err = np.linalg.norm(d - h**2 * g12)
    rows.append((h, d, err))
    print(f"h = {h:5.3f}: net displacement {np.round(d, 6)}, |Δy − h²[g1,g2]| = {err:.3e}")
orders = [np.log2(rows[k][2] / rows[k + 1][2]) for k in range(len(rows) - 1)]
print("observed order of the error when halving h:", np.round(orders, 3), "(3 expected)")

# %%
# The path of one maneuver (h = 0.4), in the ground plane.
h, path, y = 0.4, [y0], y0.copy()
for z in ([1, 0], [0, 1], [-1, 0], [0, -1]):
    for _ in range(20):
        y = flow(y, np.array(z, float), h / 20)
        path.append(y)
path = np.array(path)
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
ax1.plot(path[:, 0], path[:, 1], ".-", ms=3)
ax1.annotate("", xy=path[-1, :2], xytext=path[0, :2], arrowprops={"arrowstyle": "->", "color": "r"})
ax1.annotate("", xy=path[0, :2] + h**2 * g12[:2], xytext=path[0, :2],
             arrowprops={"arrowstyle": "->", "color": "g", "linestyle": "--"})
ax1.text(*(path[0, :2] + h**2 * g12[:2]), "  h²·[g1, g2]", color="g", fontsize=8)
ax1.text(*path[-1, :2], "  net motion", color="r", fontsize=8)
ax1.set(xlabel="x_s [m]", ylabel="y_s [m]", title="roll, steer, roll back, steer back",
        aspect="equal")
hs = np.array([r[0] for r in rows])
ax2.loglog(hs, [r[2] for r in rows], "o-", label="|Δy − h²·[g1, g2]|")
ax2.loglog(hs, rows[0][2] * (hs / hs[0]) ** 3, "--", label="∝ h³")
ax2.set(xlabel="h", title="error of the bracket approximation")
ax2.legend()
fig.tight_layout()
Path("out").mkdir(exist_ok=True)
fig.savefig("out/parallel_parking.png", dpi=120)
print("saved out/parallel_parking.png")
