"""Cube on an edge (seed 000): a housing balancing on one edge with a reaction wheel inside.

What: builds the cube from blocks (edge revolute φ, bearing revolute ψ, motor T_M, bearing
friction C_ψ), prints its equations of motion in the seed's form for both speed choices
u = (φ̇, φ̇ + ψ̇) (eq. 1.15) and ũ = (φ̇, ψ̇) (eq. 1.19), then simulates
  1. a fall from near upright with the motor off, and
  2. a run from upright with a motor-torque table that spins the wheel up and brakes it.
Why: the seed's point is that the choice of generalized speeds decides the form of the
equations; the framework derives either form from the same blocks.
You will see: the structure report, both sets of equations, the fall time and the growth rate
compared with the linearized value √(m·g·l_C / I_K), energy bookkeeping, and two figures in
out/.
"""
# %% Imports
from pathlib import Path

import numpy as np
import sympy as sp

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import CubeOnEdge

OUT = Path("out")   # in the working directory, like every example (make demo: the repository)

# %% Build the model from blocks (default parameters: the 1-D Cubli, see library/cube.py)
model = jd.Model.on_world(World(g=(0.0, -9.81, 0.0)), cube=CubeOnEdge())
system = jd.compile(model)
print(system.report())

# %% The equations in the seed's notation, for both speed choices
seed_names = {
    "cube.edge.phi": "phi", "cube.bearing.phi": "psi", "cube.motor.tau": "T_M",
    "cube.edge.w": "ut1", "cube.bearing.w": "ut2",
    "cube.housing.m": "m_K", "cube.housing.r_cm[1]": "l_K", "cube.housing.I.zz": "I_Kc",
    "cube.wheel.m": "m_R", "cube.wheel.I.zz": "I_R", "cube.mount.r[1]": "l_MO",
    "cube.friction.d": "C_psi", "world.g[1]": -sp.Symbol("g"),
}
symbolic = [name for name in seed_names if name.startswith(("world", "cube.housing",
                                                            "cube.wheel", "cube.mount",
                                                            "cube.friction"))]
seed_speeds = {"u1": "cube.edge.phi.der", "u2": "cube.edge.phi.der + cube.bearing.phi.der"}
for title, speeds in (("u = (phi', phi' + psi'), seed eq. (1.15)", seed_speeds),
                      ("u~ = (phi', psi'), seed eq. (1.19)", None)):
    symbolic_system = jd.compile(model, speeds=speeds, parameters=symbolic)
    print(f"\nEquations of motion with {title}:")
    print(symbolic_system.equations_text(seed_names))
print("(I_K = I_Kc + m_K*l_K**2 + m_R*l_MO**2 is the seed's I_K; m*l_C = m_K*l_K + m_R*l_MO)")

# %% 1. Fall from near upright, motor off
phi0 = 0.01
# The model has no floor: past 45° a face would hit the ground, so stop shortly after that.
fall = system.simulate(0.6, y0={"cube.edge.phi": phi0}, n_out=601)
phi = fall["cube.edge.phi"]
t_face = fall.t[np.argmax(np.abs(phi) >= np.pi / 4)]
cube = CubeOnEdge()
m_l = cube.housing.m * cube.housing.r_cm[1] + cube.wheel.m * cube.mount.r[1]
I_K = cube.housing.I[2, 2] + cube.housing.m * cube.housing.r_cm[1] ** 2 \
    + cube.wheel.m * cube.mount.r[1] ** 2
lam = np.sqrt(9.81 * m_l / I_K)
early = fall.t < 0.5
rate = np.polyfit(fall.t[early], np.arccosh(np.maximum(phi[early] / phi0, 1.0)), 1)[0]
E = fall["energy.total"]
print(f"\nFall from phi0 = {phi0} rad, motor off:")
print(f"  a face hits the floor (|phi| = 45 deg) at t = {t_face:.3f} s")
print(f"  growth rate of phi(t) = phi0*cosh(lambda*t): {rate:.3f} 1/s "
      f"(linearized sqrt(m g l_C / I_K) = {lam:.3f} 1/s)")
print(f"  energy: start {E[0]:.6f} J, end {E[-1]:.6f} J, "
      f"dissipated in the bearing {E[0] - E[-1]:.2e} J")
fall.plot("cube.edge.phi", "cube.edge.w", "cube.bearing.w", "energy.total",
          path=OUT / "cube_on_edge_fall.png", title="Cube on an edge: fall with the motor off")

# %% 2. Motor-torque profile: spin the wheel up, then brake it (a torque table)
profile = ([0.0, 0.1, 0.11, 0.3, 0.31, 0.5, 0.51, 0.6],
           [0.0, 0.0, 0.02, 0.02, -0.02, -0.02, 0.0, 0.0])
run = system.simulate(0.6, y0={"cube.edge.phi": 0.0}, inputs={"cube.motor.tau": profile},
                      n_out=601)
wheel_peak = np.abs(run["cube.bearing.w"]).max()
print("\nMotor-torque profile from upright (+20 mN·m for 0.2 s, then −20 mN·m for 0.2 s):")
print(f"  peak wheel speed relative to the housing: {wheel_peak:.1f} rad/s")
print(f"  housing angle at t = 0.6 s: {run['cube.edge.phi'][-1]:.4f} rad (the reaction torque "
      "pushes the housing away from upright; balancing needs feedback)")
run.plot("cube.motor.tau", "cube.edge.phi", "cube.bearing.w", path=OUT / "cube_on_edge_motor.png",
         title="Cube on an edge: motor-torque profile")
print(f"\nFigures written to {OUT / 'cube_on_edge_fall.png'} and "
      f"{OUT / 'cube_on_edge_motor.png'}")
