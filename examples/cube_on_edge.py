"""Cube on an edge: the 1-D Cubli falling and driven by its wheel
===============================================================

What: builds the cube on an edge (Gajamohan et al.'s 1-D Cubli, IROS 2012) from blocks (edge
revolute φ, bearing revolute ψ, motor T_M, bearing friction C_ψ), prints its equations of
motion in textbook form for both choices of generalized speeds, the wheel's absolute speed
u = (φ̇, φ̇ + ψ̇) and its speed relative to the housing ũ = (φ̇, ψ̇), then simulates

1. a fall from near upright with the motor off, onto the floor (a rigid stop at the faces,
   φ = ±45°: the cube lands on a face, bounces a little and comes to rest; also as a 3-D
   animation in the browser), and

2. a run from upright with a motor-torque table that spins the wheel up and brakes it.

Why: the choice of generalized speeds (Kane's method) decides the form of the equations; the
framework derives either form from the same blocks.
You will see: the structure report, both sets of equations, the landing time, the growth rate
compared with the linearized value √(m·g·l_C / I_K), the event log of the landing with the
energy each impact took, two figures and the animation out/cube_on_edge_fall.html.
"""
# %%
# Imports
from pathlib import Path

import numpy as np
import sympy as sp

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import CubeOnEdge

OUT = Path("out")   # relative to where the example runs (make demo: the repository)

# %%
# Build the model from blocks (default parameters: the 1-D Cubli, see library/cube.py)
model = jd.Model.on_world(World(g=(0.0, -9.81, 0.0)), cube=CubeOnEdge())
system = jd.compile(model)
print(system.report())

# %%
# The equations in textbook notation, for both speed choices
symbols = {
    "cube.edge.phi": "phi", "cube.bearing.phi": "psi", "cube.motor.tau": "T_M",
    "cube.edge.w": "ut1", "cube.bearing.w": "ut2",
    "cube.housing.m": "m_K", "cube.housing.r_cm[1]": "l_K", "cube.housing.I.zz": "I_Kc",
    "cube.wheel.m": "m_R", "cube.wheel.I.zz": "I_R", "cube.mount.r[1]": "l_MO",
    "cube.friction.d": "C_psi", "world.g[1]": -sp.Symbol("g"),
}
symbolic = [name for name in symbols if name.startswith(("world", "cube.housing",
                                                            "cube.wheel", "cube.mount",
                                                            "cube.friction"))]
wheel_speeds = {"u1": "cube.edge.phi.der", "u2": "cube.edge.phi.der + cube.bearing.phi.der"}
for title, speeds in (("u = (phi', phi' + psi'), the wheel's absolute speed", wheel_speeds),
                      ("u~ = (phi', psi'), the wheel's speed relative to the housing", None)):
    symbolic_system = jd.compile(model, speeds=speeds, parameters=symbolic)
    print(f"\nEquations of motion with {title}:")
    print(symbolic_system.equations_text(symbols))
print("(I_K = I_Kc + m_K*l_K**2 + m_R*l_MO**2 is the inertia about the edge; "
      "m*l_C = m_K*l_K + m_R*l_MO)")

# %%
# 1. Fall from near upright, motor off, onto the floor
phi0 = 0.01
# The floor is a rigid stop on the edge joint at φ = ±45° (a face on the ground), with a
# coefficient of restitution of 0.3: the cube lands, bounces and rests on its face.
floored = jd.compile(jd.Model.on_world(World(g=(0.0, -9.81, 0.0)),
                                       cube=CubeOnEdge(floor=True, e_floor=0.3)))
fall = floored.simulate(1.5, y0={"cube.edge.phi": phi0}, n_out=1501)
phi = fall["cube.edge.phi"]
landings = fall.events.select("cube.floor")
cube = CubeOnEdge()
m_l = cube.housing.m * cube.housing.r_cm[1] + cube.wheel.m * cube.mount.r[1]
I_K = cube.housing.I[2, 2] + cube.housing.m * cube.housing.r_cm[1] ** 2 \
    + cube.wheel.m * cube.mount.r[1] ** 2
lam = np.sqrt(9.81 * m_l / I_K)
early = fall.t < 0.5
rate = np.polyfit(fall.t[early], np.arccosh(np.maximum(phi[early] / phi0, 1.0)), 1)[0]
E = fall["energy.total"]
print(f"\nFall from phi0 = {phi0} rad, motor off, onto the floor (restitution 0.3):")
print(f"  a face hits the floor (|phi| = 45 deg) at t = {landings[0].t:.3f} s")
print(f"  growth rate of phi(t) = phi0*cosh(lambda*t): {rate:.3f} 1/s "
      f"(linearized sqrt(m g l_C / I_K) = {lam:.3f} 1/s)")
print(f"  {len(landings)} impacts, the cube rests on its face from t = {landings[-1].t:.3f} s "
      f"at phi = {phi[-1]:.6f} rad (pi/4 = {np.pi / 4:.6f})")
print(f"  energy: start {E[0]:.6f} J, end {E[-1]:.6f} J; the impacts took "
      f"{fall.events.energy_lost:.6f} J, the bearing {E[0] - E[-1] - fall.events.energy_lost:.2e} J")
print("  event log:\n    " + fall.events.table(6).replace("\n", "\n    "))
fall.plot("cube.edge.phi", "cube.edge.w", "cube.bearing.w", "energy.total",
          path=OUT / "cube_on_edge_fall.png", title="Cube on an edge: fall onto the floor")

# %%
# The fall in 3-D: open out/cube_on_edge_fall.html in a browser (play, pause, time slider,
# speed, orbit with the mouse): the cube tips over, lands on a face and rests there (the jump
# back up: examples/cubli_jump.py).
fall.animate(OUT / "cube_on_edge_fall.html",
             title="Cube on an edge: fall with the motor off, onto the floor")

# %%
# 2. Motor-torque profile: spin the wheel up, then brake it (a torque table)
profile = ([0.0, 0.1, 0.11, 0.3, 0.31, 0.5, 0.51, 0.6],
           [0.0, 0.0, 0.02, 0.02, -0.02, -0.02, 0.0, 0.0])
run = floored.simulate(0.6, y0={"cube.edge.phi": 0.0}, inputs={"cube.motor.tau": profile},
                       n_out=601)
wheel_peak = np.abs(run["cube.bearing.w"]).max()
print("\nMotor-torque profile from upright (+20 mN·m for 0.2 s, then −20 mN·m for 0.2 s):")
print(f"  peak wheel speed relative to the housing: {wheel_peak:.1f} rad/s")
tipped = run.events.select("cube.floor")
print(f"  the reaction torque tips the housing over: it lands on a face at t = "
      f"{tipped[0].t:.3f} s and lies at phi = {run['cube.edge.phi'][-1]:.4f} rad at t = 0.6 s "
      "(balancing needs feedback: examples/cube_balance.py, examples/cubli_jump.py)")
run.plot("cube.motor.tau", "cube.edge.phi", "cube.bearing.w", path=OUT / "cube_on_edge_motor.png",
         title="Cube on an edge: motor-torque profile")
print(f"\nFigures written to {OUT / 'cube_on_edge_fall.png'} and "
      f"{OUT / 'cube_on_edge_motor.png'}, the animation to {OUT / 'cube_on_edge_fall.html'}")
