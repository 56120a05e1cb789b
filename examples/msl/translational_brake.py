"""Modelica.Mechanics.Translational.Examples.Brake in jourdain
===========================================================

Built as the MSL builds it.

What: two masses (1 kg, 1 m/s) each with a brake (fn_max = 1 N, μ = 0.5) pressed from
t = 0.1 s by a step to f_normalized = 2: the friction force is μ·fn = 1 N, the masses
decelerate at 1 m/s² and stop at t = 1.1 s after 0.6 m, and stay there. One brake's housing
is implicit, the other's is fixed explicitly (the MSL shows both are the same).
Why: the simplest brake: sliding, then stuck at zero speed (no creep, no reversal).
You will see: the stop times and positions against the closed form and the figure
out/msl_translational_brake.png.
"""
# %%
from pathlib import Path

import jourdain as jd
from jourdain.blocks import Fixed, Mass, Step, World
from jourdain.blocks.hybrid import Brake

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.mass1, model.mass2 = Mass(m=1.0), Mass(m=1.0)
model.brake, model.brake1 = Brake(fn_max=1.0), Brake(fn_max=1.0)
model.step = Step(t_step=0.1, height=2.0)
model.fixed = Fixed()
for a, b in ((model.mass1.flange_b, model.brake.flange_a),
             (model.step.y, model.brake.f_normalized),
             (model.mass2.flange_b, model.brake1.flange_a),
             (model.step.y, model.brake1.f_normalized),
             (model.fixed.flange, model.brake1.support)):
    model.connect(a, b)
system = jd.compile(model)

# %% Simulate 2 s (the MSL's experiment: StopTime 2, Interval 1e-3)
res = system.simulate(2.0, z0={"mass1.v": 1.0, "mass2.v": 1.0}, n_out=2001, rtol=1e-10,
                      atol=1e-10)
for brake, mass in (("brake", "mass1"), ("brake1", "mass2")):
    stop = res.events.select(brake, "stop_forward")[0]
    print(f"{mass}: stops at t = {stop.t:.9f} s (closed form 1.1 s), s = "
          f"{res[f'{mass}.s'][-1]:.9f} m (closed form 0.6 m), held by {brake}.tau = "
          f"{res[f'{brake}.tau'][-1]:.2e} N afterwards")
res.plot("mass1.s", "mass1.v", "brake.tau", "brake.mode", path=OUT / "msl_translational_brake.png",
         title="MSL Translational.Examples.Brake")
print(f"figure saved to {OUT / 'msl_translational_brake.png'}")
