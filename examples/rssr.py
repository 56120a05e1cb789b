"""A spatial four-bar (RSSR) whose loop runs through a ball joint of the spanning tree
===================================================================================

A revolute crank on the ground (axis z) and a revolute rocker on a skew axis (x) are joined by
a coupler with ball joints at both ends. The compiler keeps the ball joint at the crank end in
the tree (quaternion coordinates) and cuts the one at the rocker (3 closure equations). Newton
then solves the rocker angle and two rotation directions of the tree ball joint, turning its
quaternion on the unit sphere (q ← q ⊗ (1, ½·δθ), normalized); the coupler's spin about its
own axis is the second degree of freedom. You will see the structure report, the closure
residual and energy of a 10 s run under gravity, the rocker angle against the closed-form
spatial Freudenstein equation, and out/rssr.png.
"""
# %%
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import RSSR

a, l, b, d = 0.15, 0.7, 0.4, (0.4, 0.3, 0.3)   # crank, coupler, rocker [m], rocker pivot

# %%
# Compile: the report names the ball joint's rotation directions solved by Newton.
system = jd.compile(jd.Model.on_world(World(), m=RSSR(a=a, l=l, b=b, d=d)))
print(system.report())

# %%
# Simulate 10 s: only the crank angle and speed are given, the rest is assembled.
res = system.simulate(10.0, y0={"m.crank.phi": 0.5}, z0={"m.crank.w": 8.0},
                      rtol=1e-12, atol=1e-12, n_out=1001)
residual = max(np.abs(v).max() for k, v in res.series.items() if k.startswith("residual"))
energy = res["energy.total"]
print(f"max closure residual over 10 s: {residual:.2e}")
print(f"energy drift over 10 s: {np.ptp(energy):.2e} J (E0 = {energy[0]:.4f} J)")

# %%
# Closed form: :math:`\lVert C(\psi) - B(\varphi) \rVert = l` gives
# :math:`P \cos\psi + Q \sin\psi + R = 0` (tests/test_spatial_loops.py).
phi, psi = res["m.crank.phi"], res["m.rocker.phi"]
P = -2 * b * d[2]
Q = 2 * b * (d[1] - a * np.sin(phi))
R = (d[0] - a * np.cos(phi))**2 + (d[1] - a * np.sin(phi))**2 + d[2]**2 + b**2 - l**2
psi_closed = np.arctan2(Q, P) - np.arccos(-R / np.hypot(P, Q))
gap = np.abs((psi - psi_closed + np.pi) % (2 * np.pi) - np.pi).max()
print(f"rocker angle vs spatial Freudenstein equation: {gap:.2e} rad")

# %%
# Figure: input–output relation and closure residual.
fig, axes = plt.subplots(2, 1, figsize=(8, 7))
order = np.argsort(np.mod(phi, 2 * np.pi))
axes[0].plot(np.mod(phi, 2 * np.pi)[order], psi_closed[order], "k-", lw=3, alpha=0.3,
             label="closed form")
axes[0].plot(np.mod(phi, 2 * np.pi), psi, ".", ms=2, label="simulation")
axes[0].set(xlabel="crank angle φ mod 2π [rad]", ylabel="rocker angle ψ [rad]")
axes[0].legend(fontsize=8)
resid = np.max([np.abs(v) for k, v in res.series.items() if k.startswith("residual")], 0)
axes[1].semilogy(res.t, np.maximum(resid, 1e-17))
axes[1].set(xlabel="t [s]", ylabel="max |closure residual|")
fig.tight_layout()
Path("out").mkdir(exist_ok=True)
fig.savefig("out/rssr.png", dpi=120)
print("saved out/rssr.png")
