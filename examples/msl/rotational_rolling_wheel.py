"""Modelica.Mechanics.Rotational.Examples.RollingWheel in jourdain
===============================================================

Built as the MSL builds it, from library parts only: coupling Rotational and Translational.

What: a TorqueStep (10 N·m from t = 0.1 s) accelerates a wheel's Inertia (J = 1 kg·m², at
rest) which drives, through an IdealRollingWheel (radius 1 m), a Mass (m = 1 kg, L = 0) — the
vehicle — braked by a QuadraticSpeedDependentForce (f_nominal = −10 N at v_nominal = 5 m/s,
ForceDirection = false). The MSL's statement: "due to a speed dependent force (like a
driving resistance), we find an equilibrium at 5 m/s after approx. 5 s".
Why: a 1-D coupling between a rotational and a translational flange, eliminated exactly:
the wheel and the vehicle share one coordinate; both keep their series in the Result.
You will see: the speeds against the closed form w = 5·tanh(t − 0.1) (from
(J + m·r²)·ẇ = 10 − 10·(v/5)², r = 1), the rolling relation, and the figure
out/rotational_rolling_wheel.png.

Deviation: the script is named rotational_rolling_wheel.py (rolling_wheel.py is
MultiBody.Examples.Elementary.RollingWheel).
"""
# %%
from pathlib import Path

import numpy as np

import jourdain as jd
from jourdain.blocks import (IdealRollingWheel, Inertia, Mass, QuadraticSpeedDependentForce,
                             TorqueStep, World)

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.idealRollingWheel = IdealRollingWheel(radius=1.0)
model.inertia = Inertia(J=1.0)
model.torqueStep = TorqueStep(stepTorque=10.0, offsetTorque=0.0, startTime=0.1)
model.mass = Mass(L=0.0, m=1.0)
model.quadraticSpeedDependentForce = QuadraticSpeedDependentForce(
    f_nominal=-10.0, ForceDirection=False, v_nominal=5.0)
for a, b in ((model.torqueStep.flange, model.inertia.flange_a),
             (model.inertia.flange_b, model.idealRollingWheel.flangeR),
             (model.idealRollingWheel.flangeT, model.mass.flange_a),
             (model.quadraticSpeedDependentForce.flange, model.mass.flange_b)):
    model.connect(a, b)
system = jd.compile(model)
print("coordinates:", system.y_names)

# %% Simulate 5 s (StopTime 5, Interval 1e-3) from rest
res = system.simulate(5.0, n_out=5001, rtol=1e-10, atol=1e-12)
t = res.t
closed = np.where(t >= 0.1, 5.0 * np.tanh(np.clip(t - 0.1, 0, None)), 0.0)
print(f"max |inertia.w - 5·tanh(t - 0.1)| = {np.abs(res['inertia.w'] - closed).max():.2e} rad/s")
print(f"rolling: max |mass.v - radius·inertia.w| = "
      f"{np.abs(res['mass.v'] - res['inertia.w']).max():.2e} m/s, "
      f"max |mass.s - radius·inertia.phi| = {np.abs(res['mass.s'] - res['inertia.phi']).max():.2e} m")
print(f"at t = 5 s: mass.v = {res['mass.v'][-1]:.6f} m/s (equilibrium 5 m/s), "
      f"inertia.w = {res['inertia.w'][-1]:.6f} rad/s")
check = res.check()
print(f"energy balance {'holds' if check else 'FAILS'}: relative error {check.energy_relative:.1e}")
res.plot("inertia.w", "mass.v", path=OUT / "rotational_rolling_wheel.png",
         title="MSL Rotational.Examples.RollingWheel")
print(f"figure saved to {OUT / 'rotational_rolling_wheel.png'}")
