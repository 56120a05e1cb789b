"""Modelica.Mechanics.MultiBody.Examples.Loops.PlanarFourbar in jourdain
=====================================================================

A planar four-bar of BodyBoxes (width 0.05 m): the crank body1 (r = (0.4, 0, 0)) on revolute1
with a damper (d = 0.1 N·m·s/rad), body2 (r = (0.1, 1.1, 0)) on revolute2 at its end, body3
(r = (−0.15, 1, 0)) fixed in the world, body4 (r = body1.r + body2.r − body3.r) on revolute3,
the loop closed by revolute4cut (the MSL's RevolutePlanarLoopConstraint; here a Revolute
declared last, whose independent closure equations the compiler keeps). The MSL marks the
part revolute3–body4–revolute4cut–body2–revolute2 as replaceable by a JointRRR: that version
is built here too (body4 on its frame_ia, body2 on its frame_ib).

What you will see: 5 s (StopTime as in the MSL) from rest at revolute1.phi = 0. Reference:
the MSL's statement that the JointRRR version is the same mechanism (the crank angles agree);
the energy balance with the damper's loss; the loop closure residual.
"""
# %%
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import BodyBox, JointRRR, Revolute, ViscousFriction, World

r1, r2, r3 = np.array([0.4, 0, 0]), np.array([0.1, 1.1, 0]), np.array([-0.15, 1, 0])
r4 = r1 + r2 - r3


def planar_fourbar(analytic: bool):
    model = jd.Model(world=World())
    model.revolute1 = Revolute(n=(0, 0, 1))
    model.damper = ViscousFriction(d=0.1)
    for i, r in enumerate((r1, r2, r3, r4), 1):
        model.add(f"body{i}", BodyBox(r=tuple(r), width=0.05))
    c = model.connect
    c(model.world.frame_b, model.revolute1.frame_a)
    c(model.revolute1.frame_b, model.body1.frame_a)
    c(model.world.frame_b, model.body3.frame_a)
    c(model.damper.flange_b, model.revolute1.axis)
    c(model.revolute1.support, model.damper.flange_a)
    if analytic:
        model.jointRRR = JointRRR(rRod1_ia=tuple(r4), rRod2_ib=tuple(r2))
        c(model.body3.frame_b, model.jointRRR.frame_a)
        c(model.body1.frame_b, model.jointRRR.frame_b)
        c(model.jointRRR.frame_ia, model.body4.frame_a)
        c(model.jointRRR.frame_ib, model.body2.frame_a)
    else:
        model.revolute2, model.revolute3 = Revolute(n=(0, 0, 1)), Revolute(n=(0, 0, 1))
        model.revolute4cut = Revolute(n=(0, 0, 1))
        for a, b in [(model.revolute2.frame_a, model.body1.frame_b),
                     (model.revolute2.frame_b, model.body2.frame_a),
                     (model.body3.frame_b, model.revolute3.frame_a),
                     (model.revolute3.frame_b, model.body4.frame_a),
                     (model.body4.frame_b, model.revolute4cut.frame_a),
                     (model.body2.frame_b, model.revolute4cut.frame_b)]:
            c(a, b)
    return jd.compile(model)


system, analytic = planar_fourbar(False), planar_fourbar(True)
print("independent coordinates:", ", ".join(system.independent_coordinates()))

# %% 5 s from rest
start = {"y0": {"revolute1.phi": 0.0}, "rtol": 1e-10, "atol": 1e-10, "n_out": 1001}
result, other = system.simulate(5.0, **start), analytic.simulate(5.0, **start)
E = result["energy.total"]
lost = cumulative_simpson(0.1 * result["revolute1.w"] ** 2, x=result.t, initial=0)
residual = max(np.abs(v).max() for k, v in result.series.items() if k.startswith("residual"))
print(f"revolute1.phi(5 s) = {result['revolute1.phi'][-1]:.6f} rad (swings over "
      f"{np.ptp(result['revolute1.phi']):.4f} rad)")
print(f"revolutes vs JointRRR: max |Δ revolute1.phi| "
      f"{np.abs(result['revolute1.phi'] - other['revolute1.phi']).max():.3g} rad")
print(f"energy balance: max |E - E(0) + ∫d·w² dt| = {np.abs(E - E[0] + lost).max():.3g} J "
      f"(dissipated {lost[-1]:.4g} J)")
print(f"max loop closure residual over 5 s: {residual:.3g}")
result.plot("revolute1.phi", "revolute1.w", path="out/planar_fourbar.png",
            title="MSL Loops.PlanarFourbar")
