"""Readings of cut sensors (TorqueSensor, ForceSensor): the torque or force a rigid flange
connection transmits, from the equations of motion (docs/domains.md).

Opening the cut adds an auxiliary coordinate δ (φ_b − φ_a = δ, held at 0) whose partial
derivatives ∂φ_net/∂δ come from the 1-D network (:mod:`..model.flanges`): they are the nets
that move when the cut opens. Kane's equation of that auxiliary speed, with the transmitted
force F as the only force doing work along it, gives (Kane & Levinson, *Dynamics: Theory and
Applications*, 1985, §4.9, non-contributing forces brought into evidence):

    F = Σ_inertias J·α_net·∂φ_net/∂δ − Σ_elements F_e·∂s_e/∂δ,

α_net = ∂ω_net/∂z·ż + ∂ω_net/∂y·ẏ the net's acceleration. The reading replaces the placeholder
that ``ctx.cut_force`` handed out, in the outputs and in the state derivatives of the signal
blocks (a filter of the measured torque), along with the other quantities that read ż
(:mod:`.readings`); a force that depends on a reading would make an algebraic loop and is
refused there.
"""
from __future__ import annotations

import casadi as ca

from ..model.mechanics import Mechanics
from ..model.speeds import Speeds
from .projection import to_speeds


def cut_readings(mech: Mechanics, sp: Speeds, zdot: ca.SX, wdot: ca.SX | None = None) -> dict:
    """sensor path -> its reading F in (t, y, z, u, s, p), for the accelerations ``zdot``
    (``wdot``: the joint accelerations in (t, y, z, u, s, p), when known)."""
    if not mech.ctx.cuts:
        return {}
    aux = {sensor.path: partials for sensor, partials in mech.kin.network.aux.items()}
    readings = {}
    for path in mech.ctx.cuts:
        readings[path] = _reading(mech, sp, zdot, aux.get(path, {}), wdot)
    return readings


def _reading(mech: Mechanics, sp: Speeds, zdot: ca.SX, partials: dict, wdot=None) -> ca.SX:
    z, y = sp.z, mech.kin.y
    F = ca.SX(0)
    for body in mech.inertias:
        if body.net not in partials:
            continue
        if wdot is not None:   # α = ∂ω/∂w·ẇ + ∂ω/∂y·ẏ, with no derivative through w(y, z)
            alpha = to_speeds(ca.jtimes(body.w, mech.kin.y, mech.kin.ydot), mech, sp) + \
                ca.mtimes(to_speeds(ca.jacobian(body.w, mech.kin.w), mech, sp), wdot)
        else:
            w = to_speeds(body.w, mech, sp)
            alpha = ca.mtimes(ca.jacobian(w, z), zdot) + ca.jtimes(w, y, sp.ydot)
        F += body.J * alpha * partials[body.net]
    flat = mech.flat
    # the 1-D elements come first in mech.elements (3-D line forces follow; their flanges
    # along the line are not part of the 1-D network, so no cut opens them)
    for elem, original in zip(mech.elements, flat.forces):
        moved = partials.get(flat.net_of[original.flange_b], 0) - \
            partials.get(flat.net_of[original.flange_a], 0)
        if not (isinstance(moved, int) and moved == 0):
            force = elem.spring_force + elem.damping_force + elem.force
            F -= to_speeds(force, mech, sp) * moved
    return F
