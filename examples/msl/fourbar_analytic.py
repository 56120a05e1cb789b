"""Modelica.Mechanics.MultiBody.Examples.Loops.Fourbar_analytic in jourdain
========================================================================

The four-bar of Fourbar1 with its three revolutes at the top left and its two at the top
right replaced by the MSL's JointSSP (two ball joints joined by a massless rod 1 of length
‖(−1, 0.3, 0.1)‖, rod 2 = (0, 0.2, 0) and a prismatic joint along x with s_offset = −0.2 m):
the crank j1 (BodyCylinder b1, r = (0, 0.5, 0.1), diameter 0.05 m) turns about x from
300°/s; the slider b2 (BodyCylinder r = (0, 0.2, 0)) rides on frame_ib.

jourdain's JointSSP keeps the MSL's frames and flanges; its loop is cut at the middle ball
joint and solved by Newton (the MSL solves it analytically), and the first ball joint is a
universal joint (axis n1_a, default z), since the massless rod's spin about itself is no
motion (docs/msl.md).

What you will see: 5 s (StopTime as in the MSL). Reference: an independent one-degree-of-
freedom model (sympy + scipy) from the closed-form slider position s(φ) of the rod length
constraint; T + V conserved; the loop closure residual.
"""
# %%
import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import BodyCylinder, FixedTranslation, JointSSP, Revolute, World

L = float(np.linalg.norm([-1, 0.3, 0.1]))
model = jd.Model(world=World())
model.j1 = Revolute(n=(1, 0, 0))
model.b1 = BodyCylinder(r=(0, 0.5, 0.1), diameter=0.05)
model.b3 = FixedTranslation(r=(1.2, 0, 0))
model.jointSSP = JointSSP(rod1Length=L, n_b=(1, 0, 0), s_offset=-0.2, rRod2_ib=(0, 0.2, 0))
model.b2 = BodyCylinder(r=(0, 0.2, 0), diameter=0.05)
c = model.connect
c(model.j1.frame_b, model.b1.frame_a)
c(model.j1.frame_a, model.world.frame_b)
c(model.b3.frame_a, model.world.frame_b)
c(model.b1.frame_b, model.jointSSP.frame_a)
c(model.b3.frame_b, model.jointSSP.frame_b)
c(model.b2.frame_a, model.jointSSP.frame_ib)
system = jd.compile(model)
print("independent coordinates:", ", ".join(system.independent_coordinates()))

# %% 5 s from j1.phi = 0, j1.w = 300°/s (the MSL's fixed start values)
w0 = np.radians(300)
result = system.simulate(5.0, y0={"j1.phi": 0.0}, z0={"j1.w": w0}, rtol=1e-10, atol=1e-10,
                         n_out=501)
residual = max(np.abs(v).max() for k, v in result.series.items() if k.startswith("residual"))
E = result["energy.total"]
s_jd = result["jointSSP.prismatic.s"]

# %% the independent model: s(φ) from |M(s) − A(φ)| = L, Lagrange with one coordinate
phi, dphi = sp.symbols("phi dphi")
A = sp.Matrix([0, 0.5 * sp.cos(phi) - 0.1 * sp.sin(phi), 0.5 * sp.sin(phi) + 0.1 * sp.cos(phi)])
s_of_phi = sp.sqrt(L**2 - (0.2 - A[1])**2 - A[2]**2) - 1      # M = (1 + s, 0.2, 0)
rho, R1 = 7700.0, 0.025
l1 = float(np.hypot(0.5, 0.1))
m1, m2 = rho * np.pi * R1**2 * l1, rho * np.pi * R1**2 * 0.2
J1 = m1 * (l1**2 / 3 + R1**2 / 4)                    # about j1's axis (⟂ to the cylinder)
ds = sp.diff(s_of_phi, phi)
T = (J1 + m2 * ds**2) * dphi**2 / 2
V = m1 * 9.81 * A[1] / 2
# d/dt ∂T/∂φ̇ − ∂T/∂φ + ∂V/∂φ = 0 is linear in φ̈: mass·φ̈ + rest = 0
mass = sp.diff(T, dphi, 2)
rest = sp.diff(sp.diff(T, dphi), phi) * dphi - sp.diff(T, phi) + sp.diff(V, phi)
ddphi = sp.lambdify((phi, dphi), -rest / mass)
ref = solve_ivp(lambda t, x: [x[1], ddphi(x[0], x[1])], (0, 5), [0.0, w0], t_eval=result.t,
                rtol=1e-11, atol=1e-11)
s_ref = sp.lambdify(phi, s_of_phi)(ref.y[0])
print(f"j1.phi(5 s) = {result['j1.phi'][-1]:.6f} rad, jointSSP.prismatic.s(5 s) = "
      f"{s_jd[-1]:.6f} m (distance s + s_offset = {s_jd[-1] - 0.2:.6f} m)")
print(f"vs the independent 1-DOF model: max |Δphi| {np.abs(result['j1.phi'] - ref.y[0]).max():.3g}"
      f" rad, max |Δs| {np.abs(s_jd - s_ref).max():.3g} m")
print(f"energy drift over 5 s: {np.abs(E - E[0]).max():.3g} J (kinetic up to "
      f"{result['energy.kinetic'].max():.4g} J)")
print(f"max loop closure residual over 5 s: {residual:.3g}")
result.plot("j1.phi", "j1.w", "jointSSP.prismatic.s", path="out/fourbar_analytic.png",
            title="MSL Loops.Fourbar_analytic")
