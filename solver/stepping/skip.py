"""Sweeps that skip the contacts they would not change: the projected Gauss–Seidel passes of
:mod:`.step` over groups of GROUP consecutive contacts, each group's update a CasADi Switch
that runs only where it can change something.

A contact's update is exactly the identity when it carries no impulse (λ = 0) and its
normal speed meets its target at the current speeds (J_n·z ≥ b): the normal impulse
max(0, 0 − w_n·(J_n·z − b)) is 0, so the tangential one, projected on the disk of radius
μ·0, is 0 too, and z moves by B·0. A group all of whose contacts are so is skipped: nothing
changes within it, so the test at the group's start holds for each of its contacts in turn.
The passes' result is the unskipped passes' (the same operations on the contacts that
run). A far contact (a leg's capsule 0.5 m above the floor, a joint away from its
limit) has b = −g/h far below its speed: its group costs the test, J_n·z for its rows,
instead of the update (the cheetah: 3 of its 47 contacts come near the floor in a drop).
Near groups run as before; the test is repeated at every pass, so a contact that comes
into reach within the step's passes (the speeds changed by another contact's impulse) is
updated from that pass on.
"""
from __future__ import annotations

import casadi as ca

GROUP = 4    # contacts per group: a Switch per group and pass (its call costs ~a contact's
             # update), consecutive contacts being a shape's ends or a box's corners


def contact_update(z, lam, J, B, w_n, w_t, b, mu, c: int):
    """One contact's NSGS update (docs/hybrid.md, "Two contact modes"): the normal impulse
    projected on λ_n ≥ 0, then the tangential one on the disk of radius μ·λ_n; z and the
    list lam updated in place of contact c's entries (SX)."""
    n, t = 3 * c, slice(3 * c + 1, 3 * c + 3)
    v_n = ca.mtimes(J[n, :], z)
    new_n = ca.fmax(0, lam[n] - w_n[c] * (v_n - b[c]))
    z = z + B[:, n] * (new_n - lam[n])
    v_t = ca.mtimes(J[t, :], z)
    Wi = ca.reshape(w_t[4 * c:4 * c + 4], 2, 2)
    trial = ca.vertcat(lam[n + 1], lam[n + 2]) - ca.mtimes(Wi, v_t)
    size = ca.sqrt(ca.dot(trial, trial) + 1e-300)
    new_t = trial * ca.fmin(1, float(mu) * new_n / size)
    z = z + ca.mtimes(B[:, t], new_t - ca.vertcat(lam[n + 1], lam[n + 2]))
    lam[n], lam[n + 1], lam[n + 2] = new_n, new_t[0], new_t[1]
    return z


class SkippingSweeps:
    """folds(zl, J, B, w_n, w_t, b, count) → zl after ``count`` folds (a forward and a
    backward pass each) of the grouped passes (module docstring), as MX: the data of each
    group are cut from the step's once per call, not per pass."""

    def __init__(self, J_sp: ca.Sparsity, B_sp: ca.Sparsity, nz: int, nc: int, mu,
                 size: int | None = None):
        self.nz, self.nc, size = nz, nc, size or GROUP
        self.groups = [list(range(k, min(k + size, nc))) for k in range(0, nc, size)]
        J, B = ca.SX.sym("J", J_sp), ca.SX.sym("B", B_sp)
        self.parts = []
        for g, members in enumerate(self.groups):
            rows = [3 * c + k for c in members for k in range(3)]
            Jg, Bg = J[rows, :], B[:, rows]
            self.parts.append((rows, self._functions(g, Jg.sparsity(), Bg.sparsity(),
                                                     [mu[c] for c in members])))

    def _functions(self, g: int, J_sp, B_sp, mu):
        """(forward, backward, test) of group g: its pass in each order as a Switch on
        the test (its contacts could change), and the test (SX)."""
        m, nz = len(mu), self.nz
        z, lam_g = ca.SX.sym("z", nz), ca.SX.sym("lam", 3 * m)
        J, B = ca.SX.sym("J", J_sp), ca.SX.sym("B", B_sp)
        w_n, w_t, b = ca.SX.sym("w_n", m), ca.SX.sym("w_t", 4 * m), ca.SX.sym("b", m)
        args = [z, lam_g, J, B, w_n, w_t, b]
        passes = []
        for order in (range(m), reversed(range(m))):
            zz, lam = z, [lam_g[k] for k in range(3 * m)]
            for c in order:
                zz = contact_update(zz, lam, J, B, w_n, w_t, b, mu[c], c)
            update = ca.Function(f"group{g}_update", args, [zz, ca.vertcat(*lam)])
            keep = ca.Function(f"group{g}_keep", args, [z, lam_g])
            passes.append(ca.Function.if_else(f"group{g}_pass", update, keep))
        moves = ca.logic_or(ca.mmax(ca.fabs(lam_g)) > 0,
                            ca.mmin(ca.mtimes(J[0::3, :], z) - b) < 0)
        test = ca.Function(f"group{g}_moves", [z, lam_g, J, b], [moves])
        return passes[0], passes[1], test

    def folds(self, zl, J, B, w_n, w_t, b, count: int):
        nz = self.nz
        z = zl[:nz]
        data = []
        for (rows, fns), members in zip(self.parts, self.groups):
            quad = [4 * c + k for c in members for k in range(4)]
            data.append([zl[[nz + r for r in rows]], J[rows, :], B[:, rows],
                         w_n[members], w_t[quad], b[members], fns])
        for _ in range(count):
            for backward in (False, True):
                for item in (reversed(data) if backward else data):
                    lam, Jg, Bg, wn, wt, bg, (forward, back, test) = item
                    moves = test(z, lam, Jg, bg)
                    z, item[0] = (back if backward else forward)(moves, z, lam, Jg, Bg, wn,
                                                                 wt, bg)
        return ca.vertcat(z, *[item[0] for item in data])
