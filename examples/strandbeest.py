"""Theo Jansen's Strandbeest: one leg, then twelve on one crank
============================================================

Jansen's leg (``jourdain.library.JansenLinkage``) is an eight-bar linkage with three loops
and one degree of freedom, built from the published lengths ("holy numbers"). Driven at one
revolution per second by a speed source on the crank, its foot traces the famous path: a flat
stride and a lifted return. Twelve legs on one crank (``JansenWalker``: six mirrored pairs,
pins 60° apart) make 36 coupled loops that still have one degree of freedom; the recursive
formulation keeps the cost per leg constant.

What you will see: the stride length and step height of the foot path, the crank torque the
drive needs against gravity, the compile and simulation CPU times of 1, 4 and 12 legs (per
leg), the energy drift of the free 12-leg walker, out/strandbeest.png and out/strandbeest.html
(an animation of the driven leg).
"""
# %%
import time
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import Composite, Constant, World
from jourdain.blocks.drivers import rotational
from jourdain.library import JansenLinkage, JansenWalker


# %%
# One leg, its crank driven at 2π rad/s (an exact speed source on the crank's axis).
class DrivenLeg(Composite):
    """A Jansen leg whose crank turns at ``w`` rad/s."""

    def __init__(self, w: float):
        super().__init__()
        self.leg = JansenLinkage()
        self.drive = rotational.Speed(exact=True)
        self.speed = Constant(k=w)
        self.connect(self.drive.flange, self.leg.O.axis)
        self.connect(self.speed.y, self.drive.w_ref)
        self.expose(self.leg.frame_a, "frame_a")


leg = jd.compile(jd.Model.on_world(World(), beast=DrivenLeg(2 * np.pi)))
res = leg.simulate(1.0, n_out=361, progress=False)
# the foot's position r_0 is one of the System's quantities (frames' positions and velocities,
# outputs): evaluate that function along the run
n = res.t.size
q = np.array(leg.quantities.map(n)(res.t, res.x, np.zeros((len(leg.u_names), n)),
                                   np.repeat(leg.p_default[:, None], n, 1)))
foot = q[[leg.quantity_names.index(f"beast.leg.toe.frame_b.r_0[{i}]") for i in (0, 1)]]
ground = foot[1] < foot[1].min() + 0.01          # within 1 cm of the lowest point
print(f"stride (foot within 1 cm of its lowest point): {np.ptp(foot[0][ground]):.3f} m, "
      f"step height {np.ptp(foot[1]):.3f} m")
torque = res["beast.drive.tau"]
print(f"crank torque against gravity over a revolution: {torque.min():.2f} … "
      f"{torque.max():.2f} N·m")

# %%
# Walkers: the cost per leg stays flat (one node of the articulated-body algorithm).
rows = []
for legs in (1, 4, 12):
    begin = time.process_time()
    walker = jd.compile(jd.Model.on_world(World(), w=JansenWalker(legs=legs)))
    compile_cpu = time.process_time() - begin
    begin = time.process_time()
    run = walker.simulate(2.0, z0={"w.crank.w": 6.0}, method=jd.Method.ADAMS, n_out=201,
                          progress=False)
    sim_cpu = time.process_time() - begin
    rows.append((legs, compile_cpu, sim_cpu, run))
    print(f"{legs:2d} legs ({3 * legs} loops, {len(walker.z_names)} speed): compile "
          f"{compile_cpu:.2f} s, 2 s simulated in {sim_cpu:.2f} s CPU "
          f"({sim_cpu / legs:.3f} s per leg)")
walker12 = rows[-1][3]
energy = walker12["energy.total"]
print(f"12 legs, free: energy drift {np.ptp(energy):.1e} J of {energy[0]:.2f} J, max closure "
      f"residual {max(np.abs(v).max() for k, v in walker12.series.items() if 'residual' in k):.1e}")

# %%
# Figure: the foot path and the 12-leg walker's crank speed.
fig, axes = plt.subplots(1, 2, figsize=(10, 4))
axes[0].plot(foot[0], foot[1])
axes[0].plot(foot[0][ground], foot[1][ground], ".", ms=3, label="stride")
axes[0].set(xlabel="x [m]", ylabel="y [m]", title="foot path of one leg", aspect="equal")
axes[0].legend(fontsize=8)
axes[1].plot(walker12.t, walker12["w.crank.w"])
axes[1].set(xlabel="t [s]", ylabel="crank speed [rad/s]", title="12 legs, released at 6 rad/s")
fig.tight_layout()
Path("out").mkdir(exist_ok=True)
fig.savefig("out/strandbeest.png", dpi=120)
print("saved out/strandbeest.png")

# %%
# Animation of the driven leg (three.js player in the browser).
res.animate("out/strandbeest.html", title="Jansen's leg, crank at 1 rev/s")
print("saved out/strandbeest.html")
