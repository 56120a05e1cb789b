"""Dormant contacts: the body–body pairs of a compiled step left out of the steps on which
they stay open (a broad phase for the compiled step).

A robot from its model file carries contacts between its own links (the dm_control
cheetah: 19 capsule pairs of its 47 contacts, 370 of the 513 nonzeros of the contact
Jacobian J), open on nearly every step. MuJoCo's broad phase drops far pairs step by step;
a compiled step has a fixed structure, so here it is compiled twice: with every contact
(*full*), and with the *near* ones only — the joints' stops and the contacts against the
world or a frame fixed to it. A step whose warm start carries no impulse on a body–body
contact runs the near step
and keeps its result where the law holds for the left-out contacts with zero impulse:

    each left-out contact open at the start (g ≥ 0) and at its target after the step,
    v_n⁺ = J_n(y)·z⁺ ≥ b (the full step's b: :func:`.step.targets`), and not
    penetrating after the step (its gap at the new positions ≥ 0).

Then (z⁺, λ_near, 0) solves the full step's complementarity problem (the same law with
those impulses zero), and the ledger's residuals are the full step's (a left-out contact
adds no penetration, complementarity or cone residual, no energy). Where the check fails
(a pair about to touch) or a body–body contact carried an impulse on the step before, the
full step runs from the same start: on those steps the near step's cost is spent on top.

Used with the exact solve (the default), where the scene has contacts of both sets and its
contacts are not written per kind (:mod:`.kinds`: a tower, whose boxes rest on each other
on every step).
"""
from __future__ import annotations

import casadi as ca

from ..collision.pairs import WORLD
from .branch import switch
from .kinds import worth_mapping
from .step import LEDGER, contact_rows, targets


def split(system, specs) -> tuple[list, list] | None:
    """(near, far): the stops and the contacts against the world or a frame fixed to it,
    and the pairs of two moving bodies, in the order of ``specs``; None when either is
    empty (nothing to leave out, or nothing else to run)."""
    from .scene import ContactSpec
    moving = _moving_frames(system)
    is_far = [isinstance(s, ContactSpec) and s.a.frame in moving and s.b.frame in moving
              for s in specs]
    near = [s for s, f in zip(specs, is_far) if not f]
    far = [s for s, f in zip(specs, is_far) if f]
    return (near, far) if near and far else None


def _moving_frames(system) -> set:
    """The frames whose pose depends on the state (a ground plane's frame, fixed to the
    world through a connection, does not)."""
    kin = system.frames
    x, p = ca.SX.sym("x", system.nx), ca.SX.sym("p", system.p_default.size)
    R, r, _, _ = kin.function(x, p)
    return {name for name, k in kin.index.items()
            if ca.depends_on(ca.vertcat(r[:, k], ca.vec(R[:, 3 * k:3 * k + 3])), x)}


def worth_it(parts, nc: int) -> bool:
    """Whether the full step's parts are unrolled (not written per kind of contact)."""
    return not worth_mapping(parts[0].sparsity_out(0), parts[0].sparsity_out(1), nc)


def open_check(system, far) -> ca.Function:
    """open(x, x_new, p, h) → 1 where the ``far`` contacts meet the law with zero impulse
    over the step from x to x_new (module docstring), else 0: SX."""
    ny, nz, nx = len(system.y_names), len(system.z_names), system.nx
    x, x_new = ca.SX.sym("x", nx), ca.SX.sym("x_new", nx)
    p, h = ca.SX.sym("p", system.p_default.size), ca.SX.sym("h")
    gap, gamma, mats = contact_rows(system, far, x, p)
    rows = ca.Function("far_rows", [x, p], [gap, gamma[0::3]])
    b = targets(gap, gamma[0::3], h, ca.DM(mats[:, 1]), ca.DM(mats[:, 2]))
    # the normal speeds after the step at the step's start positions (the law's J_n(y))
    _, v_after = rows(ca.vertcat(x[:ny], x_new[ny:ny + nz], x[ny + nz:]), p)
    gap_after, _ = rows(x_new, p)
    ok = ca.logic_and(ca.logic_and(ca.mmin(gap) >= 0, ca.mmin(v_after - b) >= 0),
                      ca.mmin(gap_after) >= 0)
    ok = ca.cse(ok)     # the pairs' geometry at y, built for the gaps and for both speeds
    return ca.Function("dormant_open", [x, x_new, p, h], [ok], ["x", "x_new", "p", "h"],
                       ["open"])


def tiered(full: ca.Function, near: ca.Function, check: ca.Function, nx: int, nc: int,
           nc_near: int) -> ca.Function:
    """step(acc, u, p, h) → acc of the full step (layout of :func:`.step._step`: the near
    contacts' impulses first), running the near step where it holds (module docstring)."""
    head, tail = 1 + nx + 3 * nc_near, 1 + nx + 3 * nc
    assert full.size1_in(0) == tail + len(LEDGER) and near.size1_in(0) == head + len(LEDGER)
    acc = ca.MX.sym("acc", full.size1_in(0))
    u, p, h = (ca.MX.sym(n, full.sparsity_in(k)) for k, n in ((1, "u"), (2, "p"), (3, "h")))
    asleep = ca.mmax(ca.fabs(acc[head:tail])) == 0
    acc_near = ca.vertcat(acc[:head], acc[tail:])

    def attempt(acc, u, p, h, acc_near):
        out = near(acc_near, u, p, h)
        kept = ca.vertcat(out[:head], ca.MX.zeros(tail - head), out[head:])
        ok = check(acc[1:1 + nx], out[1:1 + nx], p, h)
        return switch("dormant_kept", ok, [kept, acc, u, p, h], lambda k, *_: k,
                      lambda _, a, u_, p_, h_: full(a, u_, p_, h_))
    out = switch("dormant", asleep, [acc, u, p, h, acc_near], attempt,
                 lambda a, u_, p_, h_, _: full(a, u_, p_, h_))
    return ca.Function("step", [acc, u, p, h], [out], ["acc", "u", "p", "h"], ["acc_next"])

