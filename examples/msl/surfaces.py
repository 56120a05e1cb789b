"""Modelica.Mechanics.MultiBody.Examples.Elementary.Surfaces in jourdain
=====================================================================

The MSL's demonstration of the ``Visualizers.Advanced.Surface`` visualizer, built with
jourdain's ``Surface`` shapes (``jourdain.blocks.visual``): the sine surface of the MSL's
``sineSurface`` (x, y in [−1, 1], z in [0, 1], 50 × 50 points) at the world's origin; a
``Torus`` (R = 0.5, r = 0.1 m) and a ``VoluminousWheel`` (the MSL's defaults) on
FixedTranslations after a prismatic joint moved by a Position source from a Sine (amplitude
2 m, 0.5 Hz), as in the MSL; a ``PipeWithScalarField`` (rOuter 0.3 m, length 1 m, T in [0, 2]
on 32 colours of the jet map) at (0, −2.2, 0). Gravity along −z as the MSL's world; 5 s.

Differences: the MSL animates the sine surface's phase (wz = time) and the pipe's field
(T = sin(π·xsi)·cos(π·time) + 1); a jourdain Surface is fixed in its frame, so both are drawn
as at t = 0 (the torus and the wheel move with their frame). The wheel's rim is drawn as a
solid cylinder (the MSL's pipe shape has a hole of radius rRim).

What you will see: each surface's grid against its closed form (the sine surface's points,
the torus's distance from its tube's centre circle, the triangulated torus's area and volume
against 4π²·R·r and 2π²·R·r²), the prismatic's motion, the animation out/surfaces.html and a
picture of the meshes, out/surfaces.png.
"""
# %%
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import FixedTranslation, Prismatic, Sine, World
from jourdain.blocks.drivers import translational
from jourdain.blocks.multibody import Fixed
from jourdain.blocks.visual import PipeWithScalarField, Surface, Torus, VoluminousWheel

x_min, x_max, y_min, y_max, z_min, z_max, nu, nv = -1, 1, -1, 1, 0, 1, 50, 50
A = (z_max - z_min) / 2


def sine_surface(u, v, wz=0.0):
    """The MSL's sineSurface: i = 1 + u·(nu − 1) along y, j = 1 + v·(nv − 1) along x."""
    i, j = 1 + u * (nu - 1), 1 + v * (nv - 1)
    return (x_min + (x_max - x_min) * v, y_min + (y_max - y_min) * u,
            A * np.sin(wz + 0.1 * j + 0.1 * i) + A)


sine = Surface(surfaceCharacteristic=sine_surface, nu=nu, nv=nv, color=(0, 200, 0))
torus = Torus(R=0.5, r=0.1, color=(0, 128, 255))
xsi = np.linspace(0, 1, 12)
pipe = PipeWithScalarField(rOuter=0.3, length=1.0, T=np.sin(np.pi * xsi) + 1, T_min=0,
                           T_max=2, xsi=xsi, n_colors=32)

model = jd.Model(world=World(g=(0, 0, -9.81)))
model.surface = Fixed()
model.surface.shape(sine)
model.prismatic = Prismatic(n=(1, 0, 0))
model.position, model.sine = translational.Position(), Sine(amplitude=2, f=0.5)
model.fixedTranslation1 = FixedTranslation(r=(0, -1.3, 0.5 + 0.1))
model.fixedTranslation2 = FixedTranslation(r=(0, -1.6, 0.25))
model.fixedTranslation3 = FixedTranslation(r=(0, -2.2, 0))
model.fixedTranslation1.shape(torus, frame=model.fixedTranslation1.frame_b)
model.fixedTranslation2.shape(*VoluminousWheel(), frame=model.fixedTranslation2.frame_b)
model.fixedTranslation3.shape(pipe, frame=model.fixedTranslation3.frame_b)
c = model.connect
for a, b in [(model.world.frame_b, model.prismatic.frame_a),
             (model.position.flange, model.prismatic.axis), (model.sine.y, model.position.s_ref),
             (model.prismatic.frame_b, model.fixedTranslation1.frame_a),
             (model.prismatic.frame_b, model.fixedTranslation2.frame_a),
             (model.world.frame_b, model.fixedTranslation3.frame_a)]:
    c(a, b)
system = jd.compile(model)
res = system.simulate(5.0, n_out=251)
print(f"prismatic: s from {res['prismatic.s'].min():.3f} to {res['prismatic.s'].max():.3f} m "
      f"(the sine's amplitude 2 m through the Position's filter)")

# %% The meshes against their closed forms
closed = np.array([(x_min + (x_max - x_min) * (j - 1) / (nv - 1),      # the MSL's loops
                    y_min + (y_max - y_min) * (i - 1) / (nu - 1),
                    A * np.sin(0.1 * j + 0.1 * i) + A)
                   for i in range(1, nu + 1) for j in range(1, nv + 1)])
print(f"sine surface: {len(sine.vertices)} points, {len(sine.faces)} triangles; max |point - "
      f"closed form| = {np.abs(sine.vertices - closed).max():.1e} m")
P, F = torus.vertices, torus.faces
ring = np.hypot(P[:, 0], P[:, 2])                  # distance from the torus's axis y
print(f"torus: {len(P)} points, {len(F)} triangles; max |distance from the tube's centre "
      f"circle - r| = {np.abs(np.hypot(ring - 0.5, P[:, 1]) - 0.1).max():.1e} m")
a, b, cc = P[F[:, 0]], P[F[:, 1]], P[F[:, 2]]
area = 0.5 * np.linalg.norm(np.cross(b - a, cc - a), axis=1).sum()
volume = np.einsum("ij,ij->i", a, np.cross(b, cc)).sum() / 6
print(f"torus (40 × 20 points): area {area:.6f} m² (4π²·R·r = {4 * np.pi ** 2 * 0.05:.6f}), "
      f"volume {abs(volume):.6f} m³ (2π²·R·r² = {2 * np.pi ** 2 * 0.005:.6f})")
print(f"pipe: {len(pipe.vertices)} points coloured from {pipe.colors.min(axis=0).round(3)} to "
      f"{pipe.colors.max(axis=0).round(3)}")

# %% The animation, and a picture of the meshes
Path("out").mkdir(exist_ok=True)
res.animate("out/surfaces.html")
fig = plt.figure(figsize=(7, 6))
ax = fig.add_subplot(projection="3d")
for shape, offset in ((sine, (0, 0, 0)), (torus, (0, -1.3, 0.6)), (pipe, (0, -2.2, 0))):
    P = shape.vertices + offset
    drawn = ax.plot_trisurf(P[:, 0], P[:, 1], P[:, 2], triangles=shape.faces, alpha=0.8,
                            color=shape.color)
    if shape.colors is not None:                   # the pipe's field: each triangle's colour
        drawn.set_facecolor(shape.colors[shape.faces].mean(axis=1))
ax.set_xlabel("x [m]")
ax.set_ylabel("y [m]")
ax.set_zlabel("z [m]")
ax.set_title("MSL Elementary.Surfaces (at t = 0)")
fig.savefig("out/surfaces.png", dpi=100)
print("animation saved to out/surfaces.html, figure to out/surfaces.png")
