"""Stage 6, second method: Lagrange's equations of the 2nd kind with a dissipation function
(Lagrange; Rayleigh's dissipation function), an independent check of the projection method:

    d/dt(∂L/∂ẏ) − ∂L/∂y + ∂D/∂ẏ = Q̂,   L = T − V,

solved for ÿ and mapped to the chosen speeds by ż = d/dt(W(y)·ẏ) = W·ÿ + (∂(W·ẏ)/∂y)·ẏ.
It uses only energies (T, V), the dissipation function D and the virtual work of the residual
forces, never the partial velocities of the projection method.
"""
from __future__ import annotations

import casadi as ca

from jourdain.blocks.errors import ModelError

from ..model.mechanics import Mechanics
from ..model.speeds import Speeds
from .projection import solve_spd, to_speeds


def lagrange_accelerations(mech: Mechanics) -> tuple[ca.SX, ca.SX]:
    """(M_L, ÿ) in (t, y, ẏ, u, p): the Lagrangian mass matrix and the coordinate accelerations."""
    M_L, rhs = lagrange_system(mech)
    return M_L, solve_spd(M_L, rhs)


def lagrange_system(mech: Mechanics) -> tuple[ca.SX, ca.SX]:
    """(M_L, rhs) with M_L·ÿ = rhs, in (t, y, ẏ, u, p)."""
    if not mech.kin.rates_are_derivatives:
        quaternion = next(r.joint.path for r in mech.kin.rates if r.derivative_of is None)
        raise ModelError(f"the Lagrange formulation needs minimal coordinates whose rates are "
                         f"the speeds; {quaternion} uses a quaternion (4 coordinates, 3 speeds): "
                         "use Formulation.JOURDAIN for this model")
    y, yd = mech.kin.y, mech.kin.w  # w = ẏ here
    T, V, D = mech.kinetic_energy(), mech.potential_energy(), mech.dissipation_function()
    # Virtual work of the residual forces (virtual work): δA = Σ f_e·δs_e with
    # δs_e = (∂s_e/∂y)·δy = (∂w_e/∂ẏ)·δy, so Q̂ = Σ f_e·(∂w_e/∂ẏ)ᵀ.
    Q_hat = sum((e.force * ca.jacobian(e.w, yd).T for e in mech.elements),
                ca.SX.zeros(y.numel()))
    # Loads (3-D forces, non-uniform gravity) by their virtual work f·δr + t·δθ; gravity of a
    # field with a potential is in V instead.
    Q_hat += sum((ld.generalized(yd) for ld in mech.loads if not ld.conservative),
                 ca.SX.zeros(y.numel()))
    momentum = ca.gradient(T, yd)
    M_L = ca.jacobian(momentum, yd)
    rhs = Q_hat - ca.gradient(D, yd) + ca.gradient(T - V, y) - ca.jtimes(momentum, y, yd)
    return M_L, rhs


def lagrange_zdot(mech: Mechanics, speeds: Speeds) -> ca.SX:
    """ż from Lagrange's equations, in (t, y, z, u, p)."""
    _, ydd = lagrange_accelerations(mech)
    y, yd = mech.kin.y, mech.kin.w  # w = ẏ, checked above
    W = ca.jacobian(speeds.z_of_w, yd)
    zdot = ca.mtimes(W, ydd) + ca.jtimes(speeds.z_of_w, y, yd)
    return to_speeds(zdot, mech, speeds)
