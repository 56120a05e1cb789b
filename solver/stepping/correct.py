"""Position-level correction after a step (post-stabilization, Cline and Pai 2003; the
"split impulse" of game engines): the step holds every gap to first order only
(y⁺ = y + h·ẏ(y, z⁺) moves a rotating body's corner along its tangent, O(h²·ω²·r) into the
ground), so after it the bodies are pushed out of what penetration is left, by a
displacement alone — the velocities z⁺ are untouched, so the correction adds no kinetic
energy and takes none.

The displacement is the least one in the metric of the mass matrix that opens the
penetrating contacts: Δz = M⁻¹·J_nᵀ·δ with W_nn·δ = −g on the contacts with g < −SLOP (held
at g = 0 by the later passes, the total δ ≥ 0; zero elsewhere), applied through the kinematic map y ← y + ẏ(y, Δz)·(1 s) (unit quaternions
renormalized). W_nn = J_n·M⁻¹·J_nᵀ is the step's (its start's) Delassus matrix: a
quasi-Newton iteration on the gaps, evaluated anew at each of PASSES passes, which removes
the penetration to second order per pass. Each pass's W_nn·δ = −g is solved in the
speeds' space (an nz × nz matrix by Woodbury's identity, :mod:`.exact`; proximally
regularized by EPS·W_ii, which coplanar corners make singular, and refined once), and the
passes run only on a step that ends in a penetration (:mod:`.branch`). The largest
penetration found before the first pass goes into the ledger (``max_correction``): what the raw step left and the correction
removed; the potential energy the correction gives is at most the weight times it.
"""
from __future__ import annotations

import casadi as ca

from .branch import switch
from .exact import woodbury_inverse, woodbury_step

PASSES = 2          # gap evaluations and solves per step
# proximal regularization of W_nn relative to its diagonal (coplanar corners make it
# singular), one refinement: W_nn·δ = −g to (EPS/σ)² on a direction of singular value σ
EPS = 1e-6
# [m] penetrations the correction leaves to the next step's target b = −g/h: round-off-deep
# gaps (1e-16 m) of a resting face are no rigid pattern (outside W_nn's range), and their
# least-norm δ, clipped to δ ≥ 0, would lift and drop a resting stack by 1e-8 m
SLOP = 1e-10


def displacement_function(system, f, normalize) -> ca.Function:
    """displace(t, x, u, p, dz) → x with y moved by ẏ(y, dz) (the kinematic map, linear in
    the speeds: a displacement Δz for 1 s), unit quaternions renormalized, z and the
    component states unchanged."""
    ny, nz, nx = len(system.y_names), len(system.z_names), system.nx
    t, x = ca.SX.sym("t"), ca.SX.sym("x", nx)
    u, p = ca.SX.sym("u", len(system.u_names)), ca.SX.sym("p", system.p_default.size)
    dz = ca.SX.sym("dz", nz)
    moved = ca.vertcat(x[:ny], dz, x[ny + nz:])
    y = normalize(system, x[:ny] + f(t, moved, u, p)[:ny])
    return ca.Function("displace", [t, x, u, p, dz], [ca.vertcat(y, x[ny:])],
                       ["t", "x", "u", "p", "dz"], ["x_corrected"])


def correct(x, t, u, p, J, B, gaps, displace, geometric):
    """(x after the step) → (x pushed out of penetration, the deepest penetration before
    it [m], geometric contacts only) (module docstring). MX in, MX out; the passes run
    only on a step that ends in a penetration (most steps leave none)."""
    first = gaps(x, p)
    worst = ca.mmax(ca.fmax(-first, 0) * geometric)
    Jn, Bn = J[0::3, :], B[:, 0::3]

    def passes(x, t, u, p, Jn, Bn, g):
        R = EPS * ca.sum2(Jn * Bn.T)                 # EPS times W_nn's diagonal
        held, total = 0, 0
        for k in range(PASSES):
            if k:
                g = gaps(x, p)
            # a contact once pushed is held at g = 0 by the later passes, which take back
            # what a pass's linearization lifted too far (the total push δ stays ≥ 0:
            # never a pull)
            held = ca.logic_or(held, g < -SLOP)
            inv_r = held / R
            K_inv = woodbury_inverse(Bn, inv_r, Jn)
            delta = woodbury_step(K_inv, Bn, inv_r, Jn, -g)
            delta = delta + woodbury_step(K_inv, Bn, inv_r, Jn,
                                          -g - ca.mtimes(Jn, ca.mtimes(Bn, delta)))
            delta = ca.fmax(delta, -total)
            size = ca.sum1(ca.fabs(delta))
            delta = ca.if_else(ca.logic_and(size == size, size < 1e300), delta,
                               ca.DM.zeros(delta.numel()))
            total = total + delta
            x = displace(t, x, u, p, ca.mtimes(Bn, delta))
        return x
    x = switch("correct", ca.mmin(first) < -SLOP, [x, t, u, p, Jn, Bn, first], passes,
               lambda x, *_: x)
    return x, worst
