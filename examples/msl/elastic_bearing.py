"""Modelica.Mechanics.Rotational.Examples.ElasticBearing in jourdain
=================================================================

Built as the MSL builds it, from library parts only: a gearbox whose housing is not fixed
but sits on a spring-damper (the use of the support flange).

What: a Torque (a Ramp to 100 N·m over 5 s, its support on the Fixed) drives the shaft
(J = 1 kg·m²) into an IdealGear (ratio 3) whose support is the housing (an Inertia, J = 5),
held by a SpringDamper (c = 1e5 N·m/rad, d = 5 N·m·s/rad) to the Fixed through a
MultiSensor; the gear's flange_b drives the load (J = 50) through a Spring (c = 1e3). All at
rest with the springs relaxed. The MSL asks to simulate about 10 s and plot housing.w,
shaft.w and load.w.
Why: the gear's reaction torque turns the housing, which the 1-D network keeps as a
coordinate of its own; the MultiSensor reads the torque the bearing carries.
You will see: the speeds against an independent scipy model of the same three equations, the
sensor's torque against the spring-damper's law −(c·phi + d·w), the energy balance, and
the figure out/elastic_bearing.png.

Parts: Motor = Rotational.Sources.Torque (flange_a is its support), RotationalSpring =
Components.Spring, RotationalMultiSensor = Sensors.MultiSensor (outputs tau, w, power). The
MSL's initial equations (shaft.phi, shaft.w, load.w, spring.phi_rel, springDamper.phi_rel
and w_rel fixed at 0) are given to initialize().
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

import jourdain as jd
from jourdain.blocks import (Fixed, IdealGear, Inertia, Motor, Ramp, RotationalMultiSensor,
                             RotationalSpring, SpringDamper, World)

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)

# %% The model (MSL names)
model = jd.Model(world=World())
model.shaft, model.load, model.housing = Inertia(J=1.0), Inertia(J=50.0), Inertia(J=5.0)
model.spring = RotationalSpring(c=1e3)
model.fixed = Fixed()
model.springDamper = SpringDamper(c=1e5, d=5.0)
model.torque = Motor()
model.ramp = Ramp(duration=5.0, height=100.0)
model.idealGear = IdealGear(ratio=3.0)
model.multiSensor = RotationalMultiSensor()
for a, b in ((model.torque.flange_b, model.shaft.flange_a),
             (model.spring.flange_b, model.load.flange_a),
             (model.springDamper.flange_a, model.fixed.flange),
             (model.shaft.flange_b, model.idealGear.flange_a),
             (model.idealGear.flange_b, model.spring.flange_a),
             (model.idealGear.support, model.housing.flange_b),
             (model.ramp.y, model.torque.tau),
             (model.fixed.flange, model.torque.flange_a),
             (model.housing.flange_a, model.multiSensor.flange_b),
             (model.multiSensor.flange_a, model.springDamper.flange_b)):
    model.connect(a, b)
system = jd.compile(model)
init = system.initialize(y0={"shaft.phi": 0.0}, z0={"shaft.w": 0.0, "load.w": 0.0},
                         fix={"spring.s_rel": 0.0, "springDamper.s_rel": 0.0,
                              "springDamper.w_rel": 0.0})
print(init)

# %% Simulate 10 s (StopTime 10, Interval 0.01)
res = system.simulate(10.0, x0=init.x0, n_out=1001, rtol=1e-10, atol=1e-12)


# %% The independent reference: scipy on the same equations, written out
def reference(t_eval):
    """q = (shaft, housing, load); the gear's flange_b at φ_b = φ_s/3 + 2·φ_h/3 (φ_s − φ_h =
    3·(φ_b − φ_h)), so the spring's torque k1·(φ_l − φ_b) acts on φ_s with 1/3, on φ_h with
    2/3; the housing also carries −k2·φ_h − d·ω_h."""
    k1, k2, d = 1e3, 1e5, 5.0

    def rhs(t, x):
        ps, ph, pl, ws, wh, wl = x
        tau = 100.0 * min(t / 5.0, 1.0)
        f = k1 * (pl - (ps / 3 + 2 * ph / 3))
        return [ws, wh, wl, tau + f / 3, (2 * f / 3 - k2 * ph - d * wh) / 5.0, -f / 50.0]
    sol = solve_ivp(rhs, (0, t_eval[-1]), np.zeros(6), t_eval=t_eval, rtol=1e-11, atol=1e-13,
                    method="DOP853")
    return sol.y


ref = reference(res.t)
for k, name in enumerate(("shaft", "housing", "load")):
    print(f"{name}: w(10 s) = {res[name + '.w'][-1]:.6f} rad/s, max |w - scipy| = "
          f"{np.abs(res[name + '.w'] - ref[3 + k]).max():.2e} rad/s")
law = -(1e5 * res["housing.phi"] + 5.0 * res["housing.w"])
print(f"multiSensor.tau vs -(c·phi + d·w) of the bearing: max difference "
      f"{np.abs(res['multiSensor.tau'] - law).max():.2e} N·m (peak "
      f"{np.abs(law).max():.3f} N·m); multiSensor.w = housing.w: "
      f"{np.abs(res['multiSensor.w'] - res['housing.w']).max():.1e}")
check = res.check()
print(f"energy balance {'holds' if check else 'FAILS'}: relative error {check.energy_relative:.1e}")
res.plot("housing.w", "shaft.w", "load.w", "multiSensor.tau", path=OUT / "elastic_bearing.png",
         title="MSL Rotational.Examples.ElasticBearing")
print(f"figure saved to {OUT / 'elastic_bearing.png'}")
