"""Modelica.Mechanics.MultiBody.Examples.Loops.Engine1b_analytic in jourdain
=========================================================================

Engine1a with the combustion's gas force (GasForce2, L = 0.35 m, d = 0.1 m, between the
cylinder's support and axis), twice: as in Engine1b with the revolutes B1, B2 and the
prismatic Cylinder (the loop cut at B1), and as in Engine1b_analytic with one JointRRP for
them (the gas force on the assembly's bearing and axis flanges; ``jourdain.library.Engine1``
with ``analytic=True``).

What you will see: 1 s from the inertia's start (10 rad/s). Reference: the MSL's statement
that both are the same engine (the crank angles and pistons agree), and the energy balance
(the change of T + V equals the gas force's work).
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import World
from jourdain.library import Engine1

engine1b = jd.compile(jd.Model.on_world(World(), engine=Engine1(gasForce=True)))
analytic = jd.compile(jd.Model.on_world(World(), engine=Engine1(gasForce=True, analytic=True)))

# %% 1 s from 10 rad/s; the analytic one's branch: the rod above the crank pin, guessed
start = {"y0": {"engine.Bearing.phi": 0.0}, "z0": {"engine.Bearing.w": 10.0}}
options = {"t_out": np.linspace(0, 1, 10001), "rtol": 1e-9, "atol": 1e-9, "progress": False}
result = engine1b.simulate(1.0, **start, **options)
init = analytic.initialize(**start, guess={"engine.jointRRP.prismatic.s": 0.05})
other = analytic.simulate(1.0, x0=init.x0, **options)
E = result["energy.total"]
work = cumulative_simpson(result["power.supplied"] - result["power.dissipated"], x=result.t,
                          initial=0)
phi = result["engine.Bearing.phi"]
print(f"Engine1b: crank speed at 1 s {result['engine.Bearing.w'][-1]:.3f} rad/s, "
      f"{phi[-1] / (2 * np.pi):.2f} turns")
print(f"energy balance: max |E - E(0) - work| = {np.abs(E - E[0] - work).max():.3g} J "
      f"(E varies by {np.ptp(E):.4g} J)")
print(f"Engine1b vs Engine1b_analytic: max |Δ Bearing.phi| "
      f"{np.abs(phi - other['engine.Bearing.phi']).max():.3g} rad, max |Δ s| "
      f"{np.abs(result['engine.Cylinder.s'] - other['engine.jointRRP.prismatic.s']).max():.3g} m")
other.plot("engine.Bearing.w", "engine.jointRRP.prismatic.s", path="out/engine1b_analytic.png",
           title="MSL Loops.Engine1b_analytic")
