"""The step of the time-stepping mode with slotted contacts (:mod:`.slots`): the compiled
contacts of :mod:`.step` and K slots solved together by the same NSGS.

    step(acc, u, p, h, gather_a, gather_b, zidx, mat) → acc

acc = (t, x, λ of the compiled contacts, ledger, λ of the slots (3K), the largest speed of
each slotted sphere's centre in the steps so far (nd)); gather_a/b: for each slot the
entries of the ``data`` columns of its a and b (Lp per slot), zidx: the entries of z
(extended by one dummy entry) that a's and b's blocks move (2s per slot), mat: r_a, r_b,
mu, e, v_rest and 1 for a used slot (6 per slot). ``slot_indices`` computes the entries
from each slot's data columns (a sphere, a plane or the dummy) in the compiled code, once
per output interval: the run loop passes the columns, 2K numbers (the entries, 90 000 for
512 slots, cost more to pass from numpy than an interval's ten steps). All indices are
numbers the run loop computes from the broad phase; the compiled code only follows them.
"""
from __future__ import annotations

import casadi as ca
import numpy as np

from .narrow import EPS
from .slots import MAT, SlottedContacts
from .step import LEDGER, MAXED, _tangents, _tiny
from .uniform import uniform

GROUP = 32     # slots per function of the passes (K is a power of two)


def data_rows(s: int) -> int:
    """Entries of one ``data`` column: centre 3, Jc 3s, Jw 3s, M⁻¹ s², normal 3, flag 1."""
    return 3 + 6 * s + s * s + 4


def data_function(system, slotted: SlottedContacts) -> ca.Function:
    """data(x, p) → Lp × (nd + planes + 1) and where(x, p) → (centres 3 × nd, speeds nd)."""
    ny, nz, s = len(system.y_names), len(system.z_names), slotted.s
    x = ca.SX.sym("x", system.nx)
    p = ca.SX.sym("p", system.p_default.size)
    z = x[ny:ny + nz]
    R, r, v, w = system.frames.function(x, p)
    M = system.functions["M"](x[:ny], p)
    columns, centres, speeds = [], [], []
    for k, prim in enumerate(slotted.spheres):
        col = slotted.columns[k]
        Rk = R[:, 3 * col:3 * col + 3]
        arm = ca.mtimes(Rk, ca.DM(prim.center))
        centre = r[:, col] + arm
        vel = v[:, col] + ca.cross(w[:, col], arm)
        members = [int(i) for i in slotted.speeds[k] if i < nz]
        Jc, Jw = ca.SX.zeros(3, s), ca.SX.zeros(3, s)
        Jc[:, :len(members)] = ca.jacobian(vel, z)[:, members]
        Jw[:, :len(members)] = ca.jacobian(w[:, col], z)[:, members]
        # the block's mass matrix without CasADi's structural non-zeros that are zero at
        # every state (a free body's: a 3 × 3 mass block and the inertia), so that its
        # symbolic inverse stays small
        Mb = ca.SX.eye(s)
        for i, row in enumerate(members):
            for j, col in enumerate(members):
                Mb[i, j] = M[row, col] if slotted.coupled[row, col] else 0
        Minv = ca.solve(Mb, ca.SX.eye(s))
        columns.append(ca.vertcat(centre, ca.vec(Jc), ca.vec(Jw), ca.vec(Minv),
                                  ca.SX.zeros(4)))
        centres.append(centre)
        speeds.append(ca.norm_2(vel))
    eye = ca.DM.eye(s).reshape((s * s, 1))
    fixed = [ca.vertcat(ca.DM(plane[:3]) * plane[3], ca.DM.zeros(6 * s), eye,
                        ca.DM(plane[:3]), 1) for plane in slotted.planes]
    fixed.append(ca.vertcat(ca.DM.zeros(3 + 6 * s), eye, ca.DM.zeros(4)))
    data = _data(columns, fixed, x, p, len(slotted.spheres))
    where = ca.Function("slot_where", [x, p], [ca.horzcat(*centres), ca.vertcat(*speeds)],
                        ["x", "p"], ["centres", "speeds"])
    return data, where


def _data(columns, fixed, x, p, nd: int) -> ca.Function:
    """slot_data(x, p): the spheres' columns and the fixed ones (planes, the dummy); the
    spheres' as one column's function mapped over them where they are alike (free bodies:
    :mod:`.uniform`), else expanded."""
    L = fixed[0].numel()
    mapped = uniform(ca.vertcat(*columns), [x, p],
                     [np.arange(k * L, (k + 1) * L) for k in range(nd)],
                     "sphere_data") if nd > 1 else None
    if mapped is None:
        out = ca.horzcat(*columns, *fixed)
        return ca.Function("slot_data", [x, p], [out], ["x", "p"], ["data"])
    xm, pm = ca.MX.sym("x", x.numel()), ca.MX.sym("p", p.numel())
    out = ca.horzcat(ca.reshape(mapped(xm, pm), L, nd), ca.horzcat(*fixed))
    return ca.Function("slot_data", [xm, pm], [out], ["x", "p"], ["data"])


def _unpack(d, s):
    c, k = d[:3], 3
    Jc = ca.reshape(d[k:k + 3 * s], 3, s)
    Jw = ca.reshape(d[k + 3 * s:k + 6 * s], 3, s)
    Minv = ca.reshape(d[k + 6 * s:k + 6 * s + s * s], s, s)
    tail = k + 6 * s + s * s
    return c, Jc, Jw, Minv, d[tail:tail + 3], d[tail + 3]


def packed_rows(s: int) -> int:
    """Entries of a slot's packed kinematics: J 3×2s, B 2s×3, w_n, w_t 4, b, gap, mu, mask."""
    return 12 * s + 9


def slot_kinematics(s: int, exact: bool = False) -> ca.Function:
    """(data_a, data_b, z_a, z_b, mat, h) → packed rows of one slot: the normal from b to
    a (a plane's own, or between the centres), gap, J = (n, t1, t2)ᵀ·(velocity of a's
    contact point − b's), B = M⁻¹·Jᵀ per block, the targets b (Moreau's −g/h, Newton's
    −e·v_n for a contact closing within the step faster than v_rest), as :mod:`.step`;
    with ``exact`` (the position correction runs) a penetration sets no positive target,
    b ≤ 0, as in :mod:`.step`: it is the correction's to remove, never a speed's."""
    L = data_rows(s)
    da, db = ca.SX.sym("da", L), ca.SX.sym("db", L)
    za, zb = ca.SX.sym("za", s), ca.SX.sym("zb", s)
    mat, h = ca.SX.sym("mat", MAT), ca.SX.sym("h")
    ra, rb, mu, e, v_rest, mask = (mat[k] for k in range(MAT))
    ca_, Jca, Jwa, Ma, _, _ = _unpack(da, s)
    cb, Jcb, Jwb, Mb, normal, flag = _unpack(db, s)
    d = mask * (ca_ - cb) + (1 - mask) * ca.DM([1, 0, 0])   # an empty slot: any normal
    dist = ca.sqrt(ca.dot(d, d) + EPS)
    n = flag * normal + (1 - flag) * d / dist
    gap = flag * (ca.dot(normal, d) - ra) + (1 - flag) * (dist - ra - rb)
    t1, t2 = _tangents(n)
    T = ca.horzcat(n, t1, t2).T
    skew = ca.skew(n)
    Ja = ca.mtimes(T, Jca + ra * ca.mtimes(skew, Jwa))
    Jb = -ca.mtimes(T, Jcb - rb * ca.mtimes(skew, Jwb))
    Ba, Bb = ca.mtimes(Ma, Ja.T), ca.mtimes(Mb, Jb.T)
    # an empty slot's Delassus block is zero: the identity keeps its inverses finite
    W = ca.mtimes(Ja, Ba) + ca.mtimes(Jb, Bb) + (1 - mask) * ca.DM.eye(3)
    v_before = ca.dot(Ja[0, :].T, za) + ca.dot(Jb[0, :].T, zb)
    closing = ca.logic_and(gap + h * v_before <= 0, -v_before > v_rest)
    closes = ca.fmin(-gap / h, 0) if exact else -gap / h
    b = ca.if_else(closing, ca.fmax(closes, -e * v_before), closes)
    w_n = 1 / (W[0, 0] + _tiny(W))
    w_t = ca.vec(ca.inv(W[1:, 1:] + _tiny(W) * ca.DM.eye(2)))
    packed = ca.vertcat(ca.vec(ca.horzcat(Ja, Jb)), ca.vec(ca.vertcat(Ba, Bb)), w_n, w_t,
                        b, gap, mu, mask)
    return ca.Function("slot_kinematics", [da, db, za, zb, mat, h], [packed])


def _fields(P, s):
    J = ca.reshape(P[:6 * s], 3, 2 * s)
    B = ca.reshape(P[6 * s:12 * s], 2 * s, 3)
    k = 12 * s
    return J, B, P[k], ca.reshape(P[k + 1:k + 5], 2, 2), P[k + 5], P[k + 6], P[k + 7], \
        P[k + 8]


def slot_update(s: int) -> ca.Function:
    """(g, λ, P) → (g, λ): one NSGS update of a slot, the projections of :mod:`.step`'s
    sweep on the speeds g = (z_a, z_b) of its two blocks; an empty slot (mask 0) keeps
    λ = 0."""
    g0, lam, P = ca.SX.sym("g", 2 * s), ca.SX.sym("lam", 3), ca.SX.sym("P", packed_rows(s))
    J, B, w_n, Wt, b, _, mu, mask = _fields(P, s)
    new_n = ca.if_else(mask > 0, ca.fmax(0, lam[0] - w_n * (ca.dot(J[0, :].T, g0) - b)), 0)
    g = g0 + B[:, 0] * (new_n - lam[0])
    trial = lam[1:] - ca.mtimes(Wt, ca.mtimes(J[1:, :], g))
    size = ca.sqrt(ca.dot(trial, trial) + 1e-300)
    new_t = trial * ca.fmin(1, mu * new_n / size)
    g = g + ca.mtimes(B[:, 1:], new_t - lam[1:])
    return ca.Function("slot_update", [g0, lam, P], [g, ca.vertcat(new_n, new_t)],
                       ["g", "lam", "P"], ["g_next", "lam_next"])


def slot_ledger(s: int) -> ca.Function:
    """(g⁺, g_free, g_start, λ, P) → the slot's penetration [m], complementarity and cone
    residuals [m/s], energy gain and work [J], as :mod:`.step`'s ledger."""
    g, g_free, g_start = (ca.SX.sym(k, 2 * s) for k in ("g", "g_free", "g_start"))
    lam, P = ca.SX.sym("lam", 3), ca.SX.sym("P", packed_rows(s))
    J, _, w_n, _, b, gap, mu, mask = _fields(P, s)
    v_n = ca.dot(J[0, :].T, g)
    lam_t = ca.sqrt(lam[1] ** 2 + lam[2] ** 2)
    out = ca.vertcat(mask * ca.fmax(-gap, 0),
                     mask * ca.fabs(ca.fmin(lam[0] / w_n, v_n - b)),
                     mask * ca.fmax(lam_t - mu * lam[0], 0) / w_n,
                     ca.dot(lam, ca.mtimes(J, g + g_free)) / 2,
                     -ca.dot(lam, ca.mtimes(J, g + g_start)) / 2)
    return ca.Function("slot_ledger", [g, g_free, g_start, lam, P], [out])


def slot_indices(slotted: SlottedContacts, K: int) -> ca.Function:
    """(slot_a, slot_b) → (gather_a, gather_b, zidx) of the step: the entries of the data
    and of z (extended) that each slot's a and b read, from their data columns."""
    s, L = slotted.s, data_rows(slotted.s)
    slot_a, slot_b = ca.MX.sym("slot_a", K), ca.MX.sym("slot_b", K)
    # the entries of z each column's block moves (s per column; planes, dummy: the pad)
    speeds = np.vstack([slotted.speeds, np.full((len(slotted.planes) + 1, s), slotted.pad)])
    table = ca.MX(ca.DM(speeds.ravel().astype(float)))
    zidx = ca.vec(ca.vertcat(ca.reshape(_gather(table, _entries(slot_a, s, K)), s, K),
                             ca.reshape(_gather(table, _entries(slot_b, s, K)), s, K)))
    return ca.Function("slot_indices", [slot_a, slot_b],
                       [_entries(slot_a, L, K), _entries(slot_b, L, K), zidx])


def _entries(columns, rows: int, K: int):
    """The entries of vec(table) of the given column of each slot, for a table of ``rows``
    rows: rows·K indices, a slot's consecutive."""
    first = ca.repmat(ca.reshape(columns, 1, K) * rows, rows, 1)
    return ca.vec(first + ca.repmat(ca.DM(np.arange(rows)), 1, K))


def _gather(vector, index):
    """vector[index] for a run-time index (dense: the index counts every entry)."""
    return ca.densify(vector).get_nz(False, index)


def _scatter(vector, index, values):
    """vector with vector[index] = values, a run-time index (in place in the C code)."""
    vector = ca.densify(vector)
    vector.set_nz(ca.densify(values), False, index)
    return vector


def build_slot_step(system, parts, slotted: SlottedContacts, K: int, iterations: int,
                    correct=None):
    """The step (module docstring) for the compiled contacts ``parts``
    (:func:`.step.build_step` with iterations=None) and K slots of ``slotted``. No
    ``settle`` here: a run with slots starts from zero impulses (a second function as large as the step doubled its compile time;
    balls need no converged start, a stack of boxes runs its pairs compiled). ``correct``:
    the slots' position correction after the step (:func:`.slot_correct.corrected`), or
    None; with it, a penetration sets no positive target b."""
    kinematics, sweep, finish, (nx, nz, nc, nu, n_p) = parts
    s, nd = slotted.s, slotted.nd
    data, _ = data_function(system, slotted)
    L, LP = data_rows(s), packed_rows(s)
    kin_map = slot_kinematics(s, correct is not None).map(min(K, GROUP))
    update, ledger_map = slot_update(s), slot_ledger(s).map(min(K, GROUP))
    n_led = len(LEDGER)
    acc = ca.MX.sym("acc", 1 + nx + 3 * nc + n_led + 3 * K + nd)
    u, p, h = ca.MX.sym("u", nu), ca.MX.sym("p", n_p), ca.MX.sym("h")
    gather_a, gather_b = ca.MX.sym("gather_a", L * K), ca.MX.sym("gather_b", L * K)
    zidx, mat = ca.MX.sym("zidx", 2 * s * K), ca.MX.sym("mat", MAT * K)
    t, x = acc[0], acc[1:1 + nx]
    k0 = 1 + nx
    lam_c, ledger = acc[k0:k0 + 3 * nc], acc[k0 + 3 * nc:k0 + 3 * nc + n_led]
    k1 = k0 + 3 * nc + n_led
    lam_s, vmax = acc[k1:k1 + 3 * K], acc[k1 + 3 * K:]
    ny = len(system.y_names)
    J, B, w_n, w_t, b, z_free, gap = kinematics(t, x, u, p, h)
    D = data(x, p)
    Da = ca.reshape(_gather(ca.vec(D), gather_a), L, K)
    Db = ca.reshape(_gather(ca.vec(D), gather_b), L, K)
    z_start = ca.vertcat(x[ny:ny + nz], 0)
    G = ca.reshape(_gather(z_start, zidx), 2 * s, K)
    size = min(K, GROUP)
    used = ca.sum1(ca.reshape(mat, MAT, K)[MAT - 1, :].T)
    P = _by_group(kin_map, used, size, K, Da, Db, G[:s, :], G[s:, :],
                  ca.reshape(mat, MAT, K), h)
    z_ext = ca.densify(ca.vertcat(z_free + ca.mtimes(B, lam_c) if nc else z_free, 0))
    warm = _warm_group(nz, s, size)     # warm start: z = z_free + Σ B·λ of the slots too
    warm = _unless_empty(warm)
    for g in range(K // size):
        z_ext, = warm(used > size * g, z_ext, lam_s[3 * size * g:3 * size * (g + 1)],
                      P[:, size * g:size * (g + 1)],
                      zidx[2 * s * size * g:2 * s * size * (g + 1)])
    one = _pass_function(sweep, update, nz, nc, s, K, J, B, w_n, w_t, b, P, zidx)
    state = ca.vertcat(z_ext, lam_c, lam_s)
    passes = max(1, (iterations + 1) // 2)
    size = min(K, GROUP)
    split_P = ca.horzsplit(P, size)
    split_z = ca.vertsplit(zidx, 2 * s * size)
    used = ca.sum2(P[P.size1() - 1, :])         # the slots in use: the first ones
    # the passes as calls in a row, not CasADi's fold: its iterations copied their inputs
    # (the slots' packed rows, 40 000 entries for 512 slots) at every pass
    solved = state
    for _ in range(passes):
        solved = one(solved, J, B, w_n, w_t, b, used, *split_P, *split_z)
    z_new, lam_c_new = solved[:nz], solved[nz + 1:nz + 1 + 3 * nc]
    lam_s_new = solved[nz + 1 + 3 * nc:]
    x_new, residuals = finish(t, x, u, p, h, ca.vertcat(z_new, lam_c_new), J, w_n, b, gap,
                              z_free)
    corrected = ca.MX(0)
    if correct is not None:
        x_new, corrected = correct(system, slotted, finish, x_new, t + h, u, p, h, Db,
                                   gather_a, gather_b, mat, P, zidx, used, K)
    z_new_ext, z_free_ext = ca.vertcat(z_new, 0), ca.vertcat(z_free, 0)
    slot_res = _by_group(ledger_map, used, size, K,
                         ca.reshape(_gather(z_new_ext, zidx), 2 * s, K),
                         ca.reshape(_gather(z_free_ext, zidx), 2 * s, K), G,
                         ca.reshape(lam_s_new, 3, K), P)
    # this step's residuals by name: maxima over all contacts, the energy gain and work
    # summed (an entry the slots do not compute, if the ledger has more, is the compiled
    # contacts' own or zero)
    found = ["max_penetration", "complementarity", "cone", "max_step_gain", "energy_taken"]
    values = {name: ca.fmax(residuals[k], ca.mmax(slot_res[k, :])) if k < 3 else
              residuals[k] + ca.sum2(slot_res[k, :]) for k, name in enumerate(found)}
    values["max_correction"] = corrected
    step_res = ca.vertcat(*[values.get(name, ca.MX(0)) for name in LEDGER])
    speeds = _sphere_speeds(slotted, z_new_ext, data_rows(s), D)
    out = ca.vertcat(t + h, x_new, lam_c_new, ca.fmax(ledger[:MAXED], step_res[:MAXED]),
                     ledger[MAXED:] + step_res[MAXED:], lam_s_new, ca.fmax(vmax, speeds))
    names = ["acc", "u", "p", "h", "gather_a", "gather_b", "zidx", "mat"]
    args = [acc, u, p, h, gather_a, gather_b, zidx, mat]
    step = ca.Function("slot_step", args, [out], names, ["acc_next"])
    return step


def _pass_function(sweep, update, nz, nc, s, K, J, B, w_n, w_t, b, P, zidx):
    """One pass: the compiled contacts' sweep (forward and backward), then the slots
    forward and backward, on state = (z_ext, λ_c, λ_s). The slots' packed rows and
    indices come split by group of GROUP slots (the step splits them once: slices of the
    whole inside the pass copied all of them at every pass), and the number in use."""
    state = ca.MX.sym("state", nz + 1 + 3 * nc + 3 * K)
    Js, Bs = ca.MX.sym("J", J.sparsity()), ca.MX.sym("B", B.sparsity())
    wn, wt, bb = ca.MX.sym("w_n", w_n.sparsity()), ca.MX.sym("w_t", w_t.sparsity()), \
        ca.MX.sym("b", b.sparsity())
    size = min(K, GROUP)
    groups = list(range(K // size))
    Ps = [ca.MX.sym(f"P{g}", P.size1(), size) for g in groups]
    zi = [ca.MX.sym(f"zidx{g}", 2 * s * size) for g in groups]
    used = ca.MX.sym("used")
    z_ext, lam_c, lam_s = state[:nz + 1], state[nz + 1:nz + 1 + 3 * nc], \
        state[nz + 1 + 3 * nc:]
    if nc:
        zl = sweep(ca.vertcat(z_ext[:nz], lam_c), Js, Bs, wn, wt, bb)
        z_ext, lam_c = ca.vertcat(zl[:nz], z_ext[nz]), zl[nz:]
    # the slots in groups of GROUP, each group one function (forward or backward): the C
    # code stays small enough for gcc (1024 updates in one function took it many minutes)
    forward, backward = (_group(update, nz, s, size, order) for order in (1, -1))
    lam = [lam_s[3 * size * g:3 * size * (g + 1)] for g in groups]
    for fn, order in ((_unless_empty(forward), groups), (_unless_empty(backward),
                                                          groups[::-1])):
        for g in order:
            z_ext, lam[g] = fn(used > size * g, z_ext, lam[g], Ps[g], zi[g])
    out = ca.vertcat(z_ext, lam_c, *lam)
    return ca.Function("slot_pass", [state, Js, Bs, wn, wt, bb, used, *Ps, *zi], [out])


def _by_group(mapped, used, size: int, K: int, *args):
    """mapped (a function mapped over ``size`` slots) on each group of the slots'
    columns of ``args`` (a scalar argument is shared), zeros for a group holding no slot
    in use (its rows are read by nothing but the ledger, whose entries are maxima of
    non-negative residuals and sums: zero changes neither)."""
    zero = ca.Function(f"{mapped.name()}_none", mapped.mx_in(),
                       [ca.MX.zeros(mapped.sparsity_out(0).shape)])
    switch = ca.Function.if_else(f"{mapped.name()}_if", mapped, zero)
    out = []
    for g in range(K // size):
        cols = slice(size * g, size * (g + 1))
        out.append(switch(used > size * g,
                          *[a if a.size2() == 1 and a.size1() == 1 else a[:, cols]
                            for a in args]))
    return ca.horzcat(*out)


def _unless_empty(fn):
    """switch(active, z_ext, λ, ...) → fn's outputs for a group holding a slot in use,
    else its first inputs unchanged without evaluating fn (an empty slot's update changes
    nothing: its λ stays 0), so that the passes cost the slots in use, rounded up to a
    group, not all K. The Switch's inputs are the group's own (a conditional on the whole
    step's symbols copied them all at every call)."""
    args = fn.mx_in()
    n_out = fn.n_out()
    keep = ca.Function(f"{fn.name()}_keep", args, args[:n_out])
    switch = ca.Function.if_else(f"{fn.name()}_if", fn, keep)

    def call(active, *values):
        return switch.call([active, *values])
    return call


def _group(update, nz: int, s: int, size: int, order: int) -> ca.Function:
    """(z_ext, λ, P, zidx) → (z_ext, λ) of ``size`` slots, updated in ``order`` (1:
    forward, −1: backward)."""
    z_ext, lam = ca.MX.sym("z_ext", nz + 1), ca.MX.sym("lam", 3 * size)
    P, zi = ca.MX.sym("P", update.size1_in(2), size), ca.MX.sym("zidx", 2 * s * size)
    z, lams = z_ext, [lam[3 * k:3 * k + 3] for k in range(size)]
    for k in list(range(size))[::order]:
        index = zi[2 * s * k:2 * s * (k + 1)]
        g, lams[k] = update(_gather(z, index), lams[k], P[:, k])
        z = _scatter(z, index, g)
    return ca.Function("slot_forward" if order == 1 else "slot_backward",
                       [z_ext, lam, P, zi], [z, ca.vertcat(*lams)])


def _warm_group(nz: int, s: int, size: int) -> ca.Function:
    """(z_ext, λ, P, zidx) → z_ext + Σ B·λ over ``size`` slots (the warm start): a group
    per function, as the passes' (a function per slot of 512 made the C code megabytes)."""
    z_ext, lam = ca.MX.sym("z_ext", nz + 1), ca.MX.sym("lam", 3 * size)
    P, zi = ca.MX.sym("P", packed_rows(s), size), ca.MX.sym("zidx", 2 * s * size)
    z = z_ext
    for k in range(size):
        index = zi[2 * s * k:2 * s * (k + 1)]
        Bk = ca.reshape(P[6 * s:12 * s, k], 2 * s, 3)
        z = _scatter(z, index, _gather(z, index) + ca.mtimes(Bk, lam[3 * k:3 * k + 3]))
    return ca.Function("slot_warm", [z_ext, lam, P, zi], [z])


def _sphere_speeds(slotted, z_ext, L, D):
    """|velocity of each slotted sphere's centre| at the speeds z_ext (for the broad phase's
    travel bound)."""
    s, out = slotted.s, []
    for k in range(slotted.nd):
        Jc = ca.reshape(D[3:3 + 3 * s, k], 3, s)
        out.append(ca.norm_2(ca.mtimes(Jc, z_ext[[int(i) for i in slotted.speeds[k]]])))
    return ca.vertcat(*out) if out else ca.MX(0, 1)
