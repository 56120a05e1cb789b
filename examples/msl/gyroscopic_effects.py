"""Modelica.Mechanics.MultiBody.Examples.Rotational3DEffects.GyroscopicEffects in jourdain
=======================================================================================

A body on a spherical joint carries a spinning cylinder. Upper half, multibody parts only: a
BodyCylinder (r = (0.2, 0, 0), diameter 0.1 m) on a revolute about x spinning at 10 rad/s.
Lower half, the MSL's point: the cylinder is rigidly attached (its mass and inertia ride
along, it is axisymmetric) and a Rotor1D with J = the cylinder's I[1, 1] carries the spin;
Rotor1D pushes its gyroscopic torque ω_a × (J·n·w) back onto its mount. Both start with the
spherical joints at rest in the identity orientation (angles_fixed, w_rel_a_fixed).

What you will see: 5 s (StopTime as in the MSL) in which the two bodies move identically
(the MSL: "kinematic movement and reaction forces are identical"), and a gyroscope on a
turntable: a Rotor1D spinning w = 10 rad/s on a frame turned at Ω = 2 rad/s about an axis
across the rotor's, held level by a position driver, whose reaction torque is J·w·Ω.
"""
# %%
import numpy as np

import jourdain as jd
from jourdain.blocks import (
                             BodyCylinder,
                             Constant,
                             FixedRotation,
                             FixedTranslation,
                             Revolute,
                             RigidBody,
                             Rotor1D,
                             Spherical,
                             World,
)
from jourdain.blocks.drivers import rotational
from jourdain.blocks.multibody import Fixed

model = jd.Model(world=World())
# upper half: multibody parts only
model.spherical1 = Spherical()
model.bodyCylinder1 = BodyCylinder(r=(0.25, 0, 0), diameter=0.05)
model.fixedRotation1 = FixedRotation(angle_deg=45, n=(0, 1, 0))
model.revolute = Revolute(n=(1, 0, 0))
model.fixedTranslation = FixedTranslation(r=(-0.1, 0, 0))
model.bodyCylinder2 = BodyCylinder(diameter=0.1, r=(0.2, 0, 0))
# lower half: the spinning cylinder as a rigid part plus a Rotor1D
model.fixed = Fixed()
model.spherical2 = Spherical()
model.bodyCylinder3 = BodyCylinder(r=(0.25, 0, 0), diameter=0.05)
model.fixedRotation2 = FixedRotation(n=(0, 1, 0), angle_deg=45)
model.fixedTranslation1 = FixedTranslation(r=(-0.1, 0, 0))
model.bodyCylinder4 = BodyCylinder(diameter=0.1, r=(0.2, 0, 0))
model.rotor1D = Rotor1D(J=model.bodyCylinder4.I[0, 0], n=(1, 0, 0))
c = model.connect
c(model.world.frame_b, model.spherical1.frame_a)
c(model.spherical1.frame_b, model.bodyCylinder1.frame_a)
c(model.bodyCylinder1.frame_b, model.fixedRotation1.frame_a)
c(model.fixedRotation1.frame_b, model.revolute.frame_a)
c(model.revolute.frame_b, model.fixedTranslation.frame_a)
c(model.fixedTranslation.frame_b, model.bodyCylinder2.frame_a)
c(model.spherical2.frame_b, model.bodyCylinder3.frame_a)
c(model.bodyCylinder3.frame_b, model.fixedRotation2.frame_a)
c(model.fixed.frame_b, model.spherical2.frame_a)
c(model.fixedTranslation1.frame_b, model.bodyCylinder4.frame_a)
c(model.fixedRotation2.frame_b, model.fixedTranslation1.frame_a)
c(model.rotor1D.frame_a, model.fixedRotation2.frame_b)
system = jd.compile(model)

result = system.simulate(5.0, z0={"revolute.w": 10.0, "rotor1D.w": 10.0}, rtol=1e-10,
                         atol=1e-10, n_out=1001)
gap = max(np.abs(result[f"spherical1.q{i}"] - result[f"spherical2.q{i}"]).max()
          for i in range(4))
print(f"rotor1D.J = {model.bodyCylinder4.I[0, 0]:.6g} kg·m² (bodyCylinder4.I[1, 1])")
print(f"max difference of the two spherical joints' quaternions over 5 s: {gap:.3g}")
print(f"spin at 5 s: revolute.w = {result['revolute.w'][-1]:.6f}, rotor1D.w = "
      f"{result['rotor1D.w'][-1]:.6f} rad/s")
print(f"energy drift: {np.ptp(result['energy.total']):.3g} J")

# %% a gyroscope on a turntable: the driver that holds it level feels J·w·Ω
J, w, Omega = 0.02, 10.0, 2.0
gyro = jd.Model(world=World(g=(0, 0, 0)))
gyro.turn, gyro.tilt = Revolute(n=(0, 1, 0)), Revolute(n=(1, 0, 0))
gyro.housing = RigidBody(m=1.0, I=(0.01, 0.01, 0.01))
gyro.rotor = Rotor1D(J=J, n=(0, 0, 1))
gyro.spin = rotational.Speed(exact=True)
gyro.hold = rotational.Position(exact=True)
gyro.Omega, gyro.level = Constant(k=Omega), Constant(k=0.0)
c = gyro.connect
c(gyro.world.frame_b, gyro.turn.frame_a)
c(gyro.turn.frame_b, gyro.tilt.frame_a)
c(gyro.tilt.frame_b, gyro.housing.frame_a)
c(gyro.tilt.frame_b, gyro.rotor.frame_a)
c(gyro.spin.flange, gyro.turn.axis)
c(gyro.Omega.y, gyro.spin.w_ref)
c(gyro.hold.flange, gyro.tilt.axis)
c(gyro.level.y, gyro.hold.phi_ref)
table = jd.compile(gyro).simulate(1.0, z0={"rotor.w": w}, n_out=11)
print(f"gyroscopic torque on the level driver: {table['hold.tau'][-1]:.6f} N·m; "
      f"J·w·Ω = {J * w * Omega:.6f} N·m")
result.plot("spherical1.q1", "spherical2.q1", "revolute.w", "rotor1D.w",
            path="out/gyroscopic_effects.png", title="MSL Rotational3DEffects.GyroscopicEffects")
