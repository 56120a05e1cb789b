"""Modelica.Mechanics.Translational.Examples.Friction in jourdain
==============================================================

Built as the MSL builds it.

What: three sliding masses. (1) stop1, a MassWithStopAndFriction (m = 1 kg, L = 1 m, stops at
±25 m, Stribeck friction F_prop = 1 N·s/m, F_Coulomb = 5 N, F_Stribeck = 10 N, fexp = 2 s/m)
pushed by 25·sin(2π·0.25·t) N: plotting its friction force against its speed draws the
Stribeck curve. (2) The same with a Mass and a SupportFriction whose table is MSL's
GenerateStribeckFrictionTable(…, v_max = 12, nTable = 50): the MSL says the two agree.
(3) stop2 (stops at ±0.9 m, F_Coulomb = 3, F_Stribeck = 5, starting at 0 with −5 m/s) on a
spring (c = 500 N/m, s_rel0 = 1 m) from a wall at −1.75 m: it hits the left stop, stops dead
(the MSL's reinit(v, 0)) and sticks or slides off. The MSL runs it for 5 s.
Why: the MSL's own stick/slip and hard-stop example, with the Stribeck law.
You will see: the largest difference between (1) and (2), the stop events of (3) and its
final position, and the figure out/msl_translational_friction.png (Stribeck curve).
"""
# %%
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import jourdain as jd  # noqa: E402
from jourdain.blocks import Fixed, LinearMotor, Mass, Sine, TranslationalSpring, World  # noqa: E402
from jourdain.blocks.hybrid import SupportFriction, stribeck_table  # noqa: E402
from jourdain.library import MassWithStopAndFriction  # noqa: E402

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names); MassWithStopAndFriction's flanges sit at its ends, s ∓ L/2
model = jd.Model(world=World())
model.stop1 = MassWithStopAndFriction(L=1.0, smax=25.0, smin=-25.0, m=1.0, F_prop=1.0,
                                      F_Coulomb=5.0, F_Stribeck=10.0, fexp=2.0)
model.force, model.force2 = LinearMotor(), LinearMotor()
model.sineForce = Sine(amplitude=25.0, f=0.25)
model.stop2 = MassWithStopAndFriction(L=1.0, smax=0.9, smin=-0.9, F_Coulomb=3.0,
                                      F_Stribeck=5.0, m=1.0, F_prop=1.0, fexp=2.0)
model.spring = TranslationalSpring(s_rel0=1.0, c=500.0)
model.fixed2 = Fixed(s0=-1.75)
model.mass = Mass(m=1.0)
model.supportFriction = SupportFriction(f_pos=stribeck_table(1.0, 5.0, 10.0, 2.0, 12.0, 50))
for a, b in ((model.spring.flange_b, model.stop2.flange_a),
             (model.sineForce.y, model.force.f), (model.sineForce.y, model.force2.f),
             (model.spring.flange_a, model.fixed2.flange),
             (model.force.flange_b, model.stop1.flange_a),
             (model.force2.flange_b, model.mass.flange_a),
             (model.mass.flange_b, model.supportFriction.flange_a)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 5 s (the MSL's experiment: StopTime 5, Interval 1e-3)
res = system.simulate(5.0, z0={"stop2.mass.v": -5.0}, n_out=5001, rtol=1e-10, atol=1e-10)
diff = np.abs(res["stop1.mass.s"] - res["mass.s"]).max()
print(f"(1) vs (2): largest position difference {diff:.2e} m (the table interpolates the "
      "exponential linearly over 50 points)")
print("stop2 (left stop at -0.9 + L/2 = -0.4 m):")
for record in res.events.select("stop2"):
    print(f"  t = {record.t:.6f} s  {record.cause}: " + "; ".join(record.changes))
print(f"  final position {res['stop2.mass.s'][-1]:.6f} m, speed {res['stop2.mass.v'][-1]:.1e}")

# %% Figure: the Stribeck curve of stop1 (friction force against speed)
fig, ax = plt.subplots(1, 2, figsize=(10, 4))
ax[0].plot(res["stop1.mass.v"], res["stop1.friction.tau"])
ax[0].set_xlabel("stop1 v [m/s]")
ax[0].set_ylabel("friction force [N]")
ax[0].set_title("Stribeck curve", fontsize=9)
ax[1].plot(res.t, res["stop2.mass.s"])
ax[1].set_xlabel("t [s]")
ax[1].set_ylabel("stop2 s [m]")
for a in ax:
    a.grid(True, alpha=0.3)
fig.tight_layout()
fig.savefig(OUT / "msl_translational_friction.png", dpi=120)
print(f"figure saved to {OUT / 'msl_translational_friction.png'}")
