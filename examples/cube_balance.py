"""Balancing the Cubli on an edge and on a corner with LQR under motor torque limits
=================================================================================

What: the reaction-wheel cube (the 1-D Cubli, Gajamohan et al. 2012) on an edge (one wheel) and its 3-D sibling on a
corner (three wheels, spherical pivot) are linearized about the upright equilibrium, an LQR
gain is designed with python-control, and the gain is wired back as signal blocks (sensors →
state vector → StateFeedback → Saturation → motors), so each closed loop is one model.

Why: the upright cube is an inverted pendulum (a positive real eigenvalue); the wheels'
reaction torques stabilize it. On the corner, the angular momentum about the vertical through
the pivot cannot be changed by internal torques: that mode stays at λ = 0.

You will see: the structure reports (operation counts of M and k for the default speeds and
for the absolute wheel speeds chosen for the cube on an edge), the modes of the linearizations, the gains,
and the balancing from a perturbed start; the figure out/cube_balance.png shows angles, wheel
speeds and motor torques.
"""
# %%
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import (BalancedCubeOnCorner, BalancedCubeOnEdge, CubeOnCorner,
                              CubeOnEdge)

TAU_MAX = 0.1  # [N·m] motor torque limit, each motor

# %%
# Cube on an edge: linearize about the upright position, design LQR
edge = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
edge_lin = jd.linearize(edge)
print(edge_lin)
edge_states = [f"cube.{s}" for s in BalancedCubeOnEdge.STATES]  # the wheel angle is cyclic
edge_fb = jd.lqr(edge_lin.select(edge_states),
                 Q={"cube.edge.phi": 100.0, "cube.edge.w": 1.0, "cube.bearing.w": 1e-3},
                 R=[[1e3]])
print(edge_fb)

# %%
# The closed loop is one model: compile and simulate from a 0.1 rad tilt
edge_cl = jd.compile(jd.Model.on_world(World(), bal=BalancedCubeOnEdge(edge_fb.K, TAU_MAX)))
edge_res = edge_cl.simulate(4.0, y0={"bal.cube.edge.phi": 0.1}, n_out=401)
print(f"edge: phi(0) = 0.1 rad, phi(4 s) = {edge_res['bal.cube.edge.phi'][-1]:.2e} rad, "
      f"max |tau| = {np.abs(edge_res['bal.limit.y']).max():.3f} N·m (limit {TAU_MAX})")

# %%
# Cube on a corner: two choices of generalized speeds
# With the housing's body-fixed ω both choices give a constant M. Seed 000's choice of the
# wheels' absolute spin rates makes M block-diagonal (each wheel row reads
# J_w·Ẇ_i = T_i − C_w·ψ̇_i), so solving for ż is cheaper and f shrinks. The compiler writes
# each wheel (axisymmetric about its bearing) in the bearing's non-spinning axes, so M and k
# carry no sin ψ, cos ψ that would cancel only by sin² + cos² = 1: that alone makes M about
# 7× and k 2× shorter than in the wheels' own axes (tests/test_cube_corner.py).
corner = jd.compile(jd.Model.on_world(World(), cube=CubeOnCorner()))
corner_abs = jd.compile(jd.Model.on_world(World(), cube=CubeOnCorner()),
                        speeds=CubeOnCorner.absolute_wheel_speeds())
for label, system in (("default speeds (ω, ψ̇_i)", corner),
                      ("absolute wheel speeds (ω, ω·e_i + ψ̇_i)", corner_abs)):
    counts = {k: system.functions[k].n_instructions() for k in ("M", "k", "f")}
    M = np.array(system.M(system.y_default, []))
    print(f"corner, {label}: operation counts {counts}, "
          f"max |M coupling housing–wheels| = {np.abs(M[:3, 3:]).max():.2e} kg·m²")
print(corner_abs.report())

# %%
# Linearize the corner about the upright equilibrium and design LQR
corner_lin = jd.linearize(corner)
print(corner_lin)
corner_states = [f"cube.{s}" for s in BalancedCubeOnCorner.STATES]
Q = {n: (100.0 if "theta" in n else 1.0 if "pivot.w" in n else 1e-3) for n in corner_states}
corner_fb = jd.lqr(corner_lin.select(corner_states), Q, 1e3 * np.eye(3))
print(corner_fb)
print("uncontrollable (conserved vertical angular momentum):", corner_fb.uncontrollable)

# %%
# Balance the corner from a tilt of about 3.3° with the torque limit
# (gravity's moment m·g·l·sin θ grows with the tilt; near 0.08 rad it exceeds what three
# 0.1 N·m motors can counter and the cube falls over)
corner_cl = jd.compile(jd.Model.on_world(World(),
                                         bal=BalancedCubeOnCorner(corner_fb.K, TAU_MAX)))
x0 = corner_lin.to_state({"cube.pivot.theta_x": 0.05, "cube.pivot.theta_y": -0.03})
corner_res = corner_cl.simulate(6.0, y0={f"bal.{n}": v for n, v in zip(corner.y_names, x0)},
                                n_out=601)
tilt = np.linalg.norm([corner_res[f"bal.attitude.theta[{i}]"] for i in range(3)], axis=0)
torques = np.array([corner_res[f"bal.limit.y[{i}]"] for i in range(3)])
print(f"corner: |theta|(0) = {tilt[0]:.3f} rad, max {tilt.max():.3f}, "
      f"|theta|(6 s) = {tilt[-1]:.2e} rad, "
      f"max |tau| = {np.abs(torques).max():.3f} N·m (limit {TAU_MAX})")
print("closed-loop linearization eigenvalues:",
      np.round(jd.linearize(corner_cl).eigenvalues, 3))
Path("out").mkdir(exist_ok=True)
corner_res.animate("out/cube_balance_corner.html",
                   title="cube on a corner: LQR balancing from a 0.06 rad tilt")

# %%
# Figure: angles, wheel speeds, torques
fig, ax = plt.subplots(3, 2, sharex="col", figsize=(10, 7))
t = edge_res.t
ax[0, 0].plot(t, edge_res["bal.cube.edge.phi"])
ax[0, 0].set_ylabel("φ [rad]")
ax[1, 0].plot(t, edge_res["bal.cube.bearing.w"])
ax[1, 0].set_ylabel("ψ̇ [rad/s]")
ax[2, 0].plot(t, edge_res["bal.limit.y"])
ax[2, 0].set_ylabel("T_M [N·m]")
ax[0, 0].set_title("cube on an edge")
t = corner_res.t
for i, c in enumerate("xyz"):
    ax[0, 1].plot(t, corner_res[f"bal.attitude.theta[{i}]"], label=f"θ_{c}")
    ax[1, 1].plot(t, corner_res[f"bal.cube.bearing{i + 1}.w"], label=f"ψ̇_{i + 1}")
    ax[2, 1].plot(t, torques[i], label=f"T_{i + 1}")
ax[0, 1].set_title("cube on a corner")
for a, unit in zip(ax[:, 1], ("rad", "rad/s", "N·m")):
    a.legend(fontsize=7)
    a.set_ylabel(unit)
for a in ax.ravel():
    a.grid(True, alpha=0.3)
for a in ax[2]:
    a.axhline(TAU_MAX, color="k", lw=0.5, ls="--")
    a.axhline(-TAU_MAX, color="k", lw=0.5, ls="--")
    a.set_xlabel("t [s]")
fig.tight_layout()
out = Path("out") / "cube_balance.png"
out.parent.mkdir(exist_ok=True)
fig.savefig(out, dpi=120)
print(f"figure saved to {out}")
