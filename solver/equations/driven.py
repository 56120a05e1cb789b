"""The equations of motion with kinematic drivers and the drivers' reactions.

Drivers (:mod:`..model.drivers`) prescribe some generalized speeds z_D: ż_D is known, so
only the free speeds F keep an equation of motion, and the driven rows give the force or
torque each driver applies (M·ż + k = q + τ, τ zero on the free rows):

    M_FF·ż_F = (q − k)_F − M_FD·ż_D,     τ_D = M_D·ż − (q − k)_D.

Exact drivers also prescribe values: y_i(t) (Position) and z_k(t) (Position, Speed). They stay
in the state vector x = (y, z, s), so M(y, p), energy(x, p), ... keep their signatures, but
f, h and q read the prescribed values instead (``Drive.apply``), the integrated entries
follow them (ẏ_i = ż_k's integral of a known function), and the named function
``drive(t, x, u, p)`` overwrites them where results are reported (as the Newton projection
of a closed loop overwrites its dependent coordinates). ``drive0`` also sets a filtered
Position's coordinate to its reference at the start (the MSL's initial equation).

The drivers' reactions τ_D are read by outputs through placeholders (``ctx.reaction``),
substituted with the accelerations and the cut readings in :mod:`.readings`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca

from jourdain.blocks.errors import ModelError

from ..model.mechanics import Mechanics
from ..model.speeds import Speeds
from .projection import solve_spd, to_speeds


@dataclass
class Drive:
    """Prescribed values (symbols → expressions of t, p) and the drivers' reactions."""

    symbols: list = field(default_factory=list)
    values: list = field(default_factory=list)
    initial: list = field(default_factory=list)   # (symbol, value at the start) of filters
    reactions: dict = field(default_factory=dict)  # driver path -> τ expression

    def apply(self, expr):
        """``expr`` with the prescribed coordinates and speeds replaced by their values."""
        if not self.symbols:
            return expr
        values = ca.densify(ca.vertcat(*[ca.SX(v) for v in self.values]))
        return ca.substitute(expr, ca.vertcat(*self.symbols), values)


def driven_speed_index(mech: Mechanics, sp: Speeds, j: int) -> int:
    """Index in z of the joint speed w_j (a generalized speed must be that joint speed)."""
    for k in range(sp.z.numel()):
        if ca.is_equal(ca.SX(sp.z_of_w[k]), mech.kin.w[j]):
            return k
    raise ModelError(f"{mech.kin.rates[j].name} is driven, so it must be a generalized speed "
                     "itself; drivers work with the default joint speeds (no speeds=)")


def driven_dynamics(mech: Mechanics, sp: Speeds, M: ca.SX, rhs: ca.SX) -> tuple:
    """(ż, Drive) from M·ż = rhs (rhs = q − k) with the driven speeds prescribed."""
    n = sp.z.numel()
    drive, acc = Drive(), {}
    for d in mech.driven:
        k = driven_speed_index(mech, sp, d.speed)
        acc[k] = to_speeds(d.acceleration, mech, sp)
        if d.position is not None:
            drive.symbols.append(mech.kin.y[d.coordinate])
            drive.values.append(d.position)
        if d.velocity is not None:
            drive.symbols.append(sp.z[k])
            drive.values.append(d.velocity)
        if d.initial is not None:
            drive.initial.append((mech.kin.y[d.coordinate], d.initial))
    D = sorted(acc)
    F = [k for k in range(n) if k not in acc]
    zd_D = ca.vertcat(*[acc[k] for k in D])
    zd_F = solve_spd(M[F, F], rhs[F] - ca.mtimes(M[F, D], zd_D)) if F else ca.SX(0, 1)
    zdot = ca.SX.zeros(n)
    for pos, k in enumerate(F):
        zdot[k] = zd_F[pos]
    for pos, k in enumerate(D):
        zdot[k] = zd_D[pos]
    for d in mech.driven:
        k = driven_speed_index(mech, sp, d.speed)
        drive.reactions[d.path] = ca.mtimes(M[k, :], zdot) - rhs[k]
    return zdot, drive
