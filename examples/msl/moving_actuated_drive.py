"""Modelica.Mechanics.MultiBody.Examples.Rotational3DEffects.MovingActuatedDrive in jourdain
=========================================================================================

ActuatedDrive on a moving housing, two ways. Upper: a body on a revolute about x, driven by a
3-D Torque (sin 2πt, 0, 0) N·m in frame_b axes, on a joint r1 about y whose angle a position
source prescribes (phi_ref = 2·sin 2πt, Rotational.Sources.Position with the MSL's default
filter; its support a Mounting1D on the world). Lower: a Rotor1D (J = 2 kg·m²) driven by a
1-D torque source with a Mounting1D support, on a joint r2 about y prescribed the same way.
World without gravity (g = 0), as in the MSL.

Difference from the MSL source: its BodyShape has m = 0 and I = diag(2, 0, 0), which no
physical body has; here m = 1 kg on the axis with I = diag(2, 1, 1), and the lower housing
carries the same body without the axial part, diag(0, 1, 1) (the MSL asks the rotor's mass
and inertia across its axis to be a body on the housing): the two systems are then the
same physical system.

What you will see: 1.1 s (StopTime as in the MSL). Reference (the MSL's documentation): the
movement of the two systems is identical, and so are the drivers' torques; and since the
housings turn about y, across the rotor's axis x, the rotor still obeys J·φ̈ = sin 2πt:
φ(t) = (t − sin(2πt)/(2π))/(2π·J), as in ActuatedDrive.
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import (BodyShape, Motor, Mounting1D, Mux, Revolute, RigidBody, Rotor1D,
                             Sine, Torque, World)
from jourdain.blocks.drivers import rotational
from jourdain.blocks.multibody import Fixed

model = jd.Model(world=World(g=(0, 0, 0)))
model.bodyCylinder = BodyShape(r=(0.5, 0, 0), m=1, I=(2, 1, 1), shapeType="cylinder",
                               width=0.1, r_shape=(0.1, 0, 0))
model.revolute = Revolute(n=(1, 0, 0))
model.torque = Torque()
model.sine1_1, model.sine1_2, model.sine1_3 = (Sine(amplitude=a, f=1) for a in (1, 0, 0))
model.mux = Mux(1, 1, 1)
model.rotor1D = Rotor1D(J=2)
model.housing = RigidBody(m=1, I=(0, 1, 1))       # the rotor's mass and cross inertia
model.torque1 = Motor()                           # Rotational.Sources.Torque
model.mounting1D = Mounting1D()
model.r1, model.r2 = Revolute(n=(0, 1, 0)), Revolute(n=(0, 1, 0))
model.position1, model.position2 = rotational.Position(), rotational.Position()
model.sine2 = Sine(amplitude=2, f=1)
model.mounting1D1, model.mounting1D2 = Mounting1D(n=(0, 1, 0)), Mounting1D(n=(0, 1, 0))
model.fixed = Fixed()
c = model.connect
for a, b in [(model.revolute.frame_b, model.bodyCylinder.frame_a),
             (model.torque.frame_b, model.bodyCylinder.frame_b),
             (model.mux.y, model.torque.torque),
             (model.torque1.flange_b, model.rotor1D.flange_a),
             (model.mounting1D.flange_b, model.torque1.flange_a),
             (model.r1.frame_a, model.world.frame_b),
             (model.position1.flange, model.r1.axis),
             (model.position1.support, model.mounting1D1.flange_b),
             (model.mounting1D1.frame_a, model.world.frame_b),
             (model.sine2.y, model.position1.phi_ref),
             (model.r1.frame_b, model.revolute.frame_a),
             (model.torque.frame_a, model.revolute.frame_a),
             (model.position2.flange, model.r2.axis),
             (model.position2.support, model.mounting1D2.flange_b),
             (model.fixed.frame_b, model.r2.frame_a),
             (model.fixed.frame_b, model.mounting1D2.frame_a),
             (model.sine2.y, model.position2.phi_ref),
             (model.r2.frame_b, model.rotor1D.frame_a),
             (model.r2.frame_b, model.housing.frame_a),
             (model.r2.frame_b, model.mounting1D.frame_a),
             (model.sine1_1.y, model.torque1.tau)]:
    c(a, b)
for i, sine in enumerate((model.sine1_1, model.sine1_2, model.sine1_3), 1):
    c(sine.y, getattr(model.mux, f"u{i}"))
system = jd.compile(model)

# %% 1.1 s from rest
result = system.simulate(1.1, rtol=1e-10, atol=1e-10, n_out=1101)
motion = np.abs(result["revolute.phi"] - result["rotor1D.phi"]).max()
drivers = np.abs(result["position1.tau"] - result["position2.tau"]).max()
t = result.t
closed = (t - np.sin(2 * np.pi * t) / (2 * np.pi)) / (2 * np.pi * 2.0)
print(f"max error vs closed form {np.abs(result['rotor1D.phi'] - closed).max():.3g} rad")
print(f"revolute.phi(1.1 s) = {result['revolute.phi'][-1]:.8f} rad, rotor1D.phi(1.1 s) = "
      f"{result['rotor1D.phi'][-1]:.8f} rad")
print(f"3-D body vs Rotor1D: max |Δphi| {motion:.3g} rad; drivers' torques max |Δtau| "
      f"{drivers:.3g} N·m (up to {np.abs(result['position1.tau']).max():.4g} N·m)")
result.plot("revolute.phi", "rotor1D.phi", "position1.tau", "position2.tau",
            path="out/moving_actuated_drive.png",
            title="MSL Rotational3DEffects.MovingActuatedDrive")
