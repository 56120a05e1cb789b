"""Quantities that read the dynamics: one substitution path for every output, state derivative
and initial equation that depends on the accelerations ż.

While the components' hooks are built, ż is not known yet, so the SignalContext hands out
placeholders (``SignalContext.placeholders``, in this order):

* ẇ, the joint speeds' derivatives: acceleration sensors (``ctx.derivative``,
  ``ctx.acceleration``: AbsoluteSensor/RelativeSensor's a and z);
* the reactions of kinematic drivers (``ctx.reaction``): τ_D = M_D·ż − (q − k)_D
  (:mod:`.driven`);
* the readings of cut sensors (``ctx.cut_force``: TorqueSensor, ForceSensor), Kane's
  auxiliary speed (:mod:`.cuts`).

Once ż is known (the tree's equations, the drivers' in :mod:`.driven`, or the explicit
multipliers of a constrained system in ``constraints.methods``), :func:`placeholder_values`
expresses all of them in (t, y, z, u, s, p), ẇ = ∂w(y, z)/∂z·ż + ∂w(y, z)/∂y·ẏ, and
:func:`signal_terms` substitutes them at once in the outputs, the state derivatives ṡ (a filter
of a measured torque or acceleration) and the initial equations (a filter that starts in
steady state). A force that reads one of them would make ż depend on itself: an algebraic
loop, refused by name.
"""
from __future__ import annotations

import casadi as ca

from jourdain.blocks.errors import ModelError

from ..model.mechanics import Mechanics
from ..model.speeds import Speeds
from .cuts import cut_readings
from .projection import to_speeds


def placeholder_values(mech: Mechanics, sp: Speeds, zdot: ca.SX, drive=None,
                       wdot: ca.SX | None = None) -> ca.SX:
    """The values of ``ctx.placeholders()`` for the accelerations ``zdot`` (``drive``: the
    drivers' reactions, :class:`.driven.Drive`); ``wdot``: the joint accelerations when the
    equations already give them (closed loops: ẇ = G·ż + γ), else ẇ = d(w(y, z))/dt."""
    ctx, kin = mech.ctx, mech.kin
    if wdot is None:
        wdot = ca.jtimes(sp.w_of_z, sp.z, zdot) if sp.z.numel() else \
            ca.SX.zeros(kin.w.numel())
        if kin.y.numel():
            wdot += ca.jtimes(sp.w_of_z, kin.y, sp.ydot)
    values = [wdot]
    for path in ctx.reactions:
        if drive is None or path not in drive.reactions:
            raise ModelError(f"{path}: its reaction is not known (it drives no coordinate)")
        values.append(drive.reactions[path])
    readings = cut_readings(mech, sp, zdot, wdot)
    values += [readings[path] for path in ctx.cuts]
    return ca.vertcat(*values)


def signal_terms(mech: Mechanics, sp: Speeds, zdot: ca.SX, drive=None,
                 wdot: ca.SX | None = None) -> tuple:
    """(ṡ, outputs, initial residuals) in (t, y, z, u, s, p), every placeholder replaced by
    its value for the accelerations ``zdot`` (module docstring; ``wdot`` as in
    :func:`placeholder_values`)."""
    ctx = mech.ctx
    _, out = ctx.outputs()   # first: building the outputs hands out the placeholders
    terms = [to_speeds(e, mech, sp) for e in
             (ctx.state_derivatives(), out, ctx.initial_residuals()[0])]
    holders = ctx.placeholders()
    if holders.numel() == 0:
        return tuple(terms)
    values = placeholder_values(mech, sp, zdot, drive, wdot)
    check_no_loop(mech, holders, values)
    return tuple(ca.substitute(e, holders, values) for e in terms)


def check_no_loop(mech: Mechanics, holders: ca.SX, values: ca.SX) -> None:
    """The values must not read placeholders themselves: a force or torque that depends on an
    acceleration, a reaction or a cut reading depends on itself (an algebraic loop)."""
    if not ca.depends_on(values, holders):
        return
    ctx = mech.ctx
    named = [(f"the reading of {path}", sym) for path, sym in ctx.cuts.items()] + \
        [(f"the reaction of {path}", sym) for path, sym in ctx.reactions.items()] + \
        [("an acceleration sensor's output", ctx.wdot)]
    used = [what for what, sym in named if sym.numel() and ca.depends_on(values, sym)]
    raise ModelError(f"algebraic loop: {', '.join(used)} feeds back into the forces of the "
                     "mechanism it measures (through signal blocks without state); filter it "
                     "first (e.g. CriticalDamping) or measure a position or velocity instead")


def dynamic_names(mech: Mechanics) -> list[str]:
    """Names of the output entries that read the dynamics (accelerations, reactions, cut
    readings): they cannot serve as initial conditions."""
    holders = mech.ctx.placeholders()
    if holders.numel() == 0:
        return []
    infos, expr = mech.ctx.outputs()
    names = [n for info in infos for n in info.entry_names()]
    return [n for i, n in enumerate(names) if ca.depends_on(expr[i], holders)]
