"""1-D bodies (Inertia, Mass) in the recursive back end.

A 1-D body whose net rate is ω = cᵀ·w with a constant c (gears, belts: linear couplings) adds
J·c·cᵀ to the joint-space mass matrix and nothing to the bias forces (ċ = 0, no gyroscopic
coupling in the 1-D model). Two cases keep the O(n) algorithms exact:

* c touches the speeds of one tree link only (a motor rotor behind a gear on a joint axis):
  an **armature** J·c·cᵀ on that link's joint-space inertia, D_i = S_iᵀ·U_i + armature in the
  articulated-body algorithm (RBDA §7.3, Featherstone's treatment of motor rotor inertia);
* c touches only the speeds of the 1-D coordinates (a free drive train): a separate constant
  block M_f·ẇ_f = τ_f.

Anything else (a 1-D body moved by two links, or by a link and a 1-D coordinate) is refused
for Backend.RECURSIVE and makes Backend.AUTO choose the projection.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import casadi as ca

from jourdain.blocks.errors import ModelError

from ..model.mechanics import Mechanics


@dataclass
class OneDimTerms:
    """Armatures per link (link index -> its rows' matrix) and the free 1-D block."""

    armature: dict = field(default_factory=dict)
    free_rows: list[int] = field(default_factory=list)
    M_free: ca.SX = None


def one_dim_terms(mech: Mechanics, link_rows: list[list[int]]) -> OneDimTerms:
    """Classify every 1-D body (module docstring); a ModelError names the first that fits
    neither case."""
    w, y = mech.kin.w, mech.kin.y
    owner = {r: i for i, rows in enumerate(link_rows) for r in rows}
    free = sorted(set(range(w.numel())) - set(owner))
    terms = OneDimTerms(free_rows=free, M_free=ca.SX.zeros(len(free), len(free)))
    for body in mech.inertias:
        c = ca.jacobian(body.w, w)
        hit = [j for j in range(w.numel()) if not c[j].is_zero()]
        if not hit:
            continue
        links = {owner.get(j) for j in hit}
        if ca.depends_on(c, y) or len(links) > 1:
            raise ModelError(f"{body.path}: its speed depends on the speeds "
                             f"{', '.join(mech.kin.rates[j].name for j in hit)} in a way the "
                             "recursive back end cannot carry (one link or the free 1-D "
                             "coordinates only, with constant ratios); use Backend.PROJECTION")
        index = links.pop()
        rows = link_rows[index] if index is not None else free
        cr = ca.vertcat(*[c[j] for j in rows])
        block = body.J * ca.mtimes(cr, cr.T)
        if index is None:
            terms.M_free += block
        else:
            terms.armature[index] = terms.armature.get(index, 0) + block
    return terms


def supported(mech: Mechanics, link_rows: list[list[int]]) -> bool:
    """True when every 1-D body fits the recursive back end (module docstring)."""
    try:
        one_dim_terms(mech, link_rows)
    except ModelError:
        return False
    return True
