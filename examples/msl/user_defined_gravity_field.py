"""Modelica.Mechanics.MultiBody.Examples.Elementary.UserDefinedGravityField in jourdain
====================================================================================

A large pendulum (Body m = 1000 kg, center of mass 10 m along x, the MSL Body's default
inertia 0.001 kg·m²) on a revolute joint about z, 20 m above the WGS84 ellipsoid, with a
rotational damper (d = 0.1 N·m·s/rad), in the MSL's theoretical normal gravity of the WGS84
ellipsoid (``Utilities.theoreticalNormalGravityWGS84``) along −y: g_h = g_n·(1 −
h/a·(2·(1 + f + m − 2·f·sin²φ) + 3·h/a)) at the height h = r[1], with g_n the normal
gravity at geodetic latitude φ. The field is World's ``gravity`` with its potential
U(h) = g_n·(h − (1 + f + m − 2·f·sin²φ)·h²/a − h³/a²), so that energy includes it.

What you will see: 10 s (StopTime as in the MSL, tolerance 1e-8) at the equator and at the
poles. Reference: the MSL's documented results rev.phi(10 s) = −2.39 rad (latitude 0°) and
−2.42 rad (90°), and the energy balance with the damper's loss.
"""
# %%
import casadi as ca
import numpy as np
from scipy.integrate import cumulative_simpson

import jourdain as jd
from jourdain.blocks import FixedTranslation, Revolute, RigidBody, ViscousFriction, World

A, B = 6378137.0, 6356752.3142                  # semi-major, semi-minor axis [m]
G_E, G_P = 9.7803253359, 9.8321849378           # normal gravity at the equator, poles
K, E2 = (B / A) * (G_P / G_E) - 1, 8.1819190842622e-2 ** 2
F, OMEGA, GM = 1 / 298.257223563, 7292115e-11, 3986004.418e8
M = OMEGA**2 * A**2 * B / GM


def wgs84(latitude_deg):
    """The field r ↦ (0, −g_h, 0) and its potential U(r) [J/kg] at a geodetic latitude."""
    s2 = np.sin(np.radians(latitude_deg)) ** 2
    gn = G_E * (1 + K * s2) / np.sqrt(1 - E2 * s2)
    c1 = 1 + F + M - 2 * F * s2

    def gravity(r):
        ha = r[1] / A
        return ca.vertcat(0, -gn * (1 - ha * (2 * c1 + 3 * ha)), 0)

    def potential(r):
        return gn * (r[1] - c1 * r[1] ** 2 / A - r[1] ** 3 / A**2)
    return gravity, potential


def pendulum(latitude_deg):
    gravity, potential = wgs84(latitude_deg)
    model = jd.Model(world=World(gravity=gravity, potential=potential))
    model.rev = Revolute(n=(0, 0, 1))
    model.damper = ViscousFriction(d=0.1)
    model.body = RigidBody(m=1000.0, r_cm=(10, 0, 0), I=(0.001, 0.001, 0.001))
    model.fixedTranslation = FixedTranslation(r=(0, 20, 0))
    c = model.connect
    c(model.damper.flange_b, model.rev.axis)
    c(model.rev.support, model.damper.flange_a)
    c(model.body.frame_a, model.rev.frame_b)
    c(model.world.frame_b, model.fixedTranslation.frame_a)
    c(model.fixedTranslation.frame_b, model.rev.frame_a)
    return jd.compile(model)


# %% 10 s at the equator and at the poles
for latitude in (0, 90):
    result = pendulum(latitude).simulate(10.0, y0={"rev.phi": 0.0}, rtol=1e-10, atol=1e-10,
                                         n_out=2001)
    E = result["energy.total"]
    lost = cumulative_simpson(0.1 * result["rev.w"] ** 2, x=result.t, initial=0)
    print(f"latitude {latitude}°: rev.phi(10 s) = {result['rev.phi'][-1]:.4f} rad; energy "
          f"balance |E - E(0) + ∫d·w² dt| ≤ {np.abs(E - E[0] + lost).max():.3g} J (E = "
          f"{abs(E[0]):.4g} J, the damper takes {lost[-1]:.3g} J)")
result.plot("rev.phi", "rev.w", path="out/user_defined_gravity_field.png",
            title="MSL Elementary.UserDefinedGravityField (latitude 90°)")
