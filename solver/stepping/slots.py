"""Contacts found by a broad phase in the time-stepping mode: a fixed number of *slots*
that a run refills between output intervals, so that a scene of many bodies compiles the
contact law once per slot instead of once per possible pair.

Which contacts: spheres (and points) on bodies against each other and against planes fixed
in the world — the balls of a box, the corners of a GroundContact — when the sphere's frame
moves with at most S_MAX speeds that the mass matrix couples to no others (a free body: 6).
Everything else (capsules, boxes, body-fixed planes, stops, spheres on a robot's links) stays
compiled pair by pair as before (:mod:`.step`). A slot k holds one pair (a, b): b a sphere
or a world plane; its inputs are where to read a's and b's data (pose, velocity Jacobians,
inverse mass of the block) and which entries of z they move; a slot left empty points at a
dummy whose Delassus block is zero (no impulse). The NSGS of :mod:`.step` then runs over the
compiled contacts and the slots alike: each slot gathers its bodies' speeds by index, takes
the same projections (normal on λ_n ≥ 0, tangent on the disk μ·λ_n), and writes them back
(CasADi's parametric indexing, in place in the generated C).

Functions: ``data`` (x, p) → one column per sphere, world plane and the dummy (centre,
Jacobians of the centre's velocity and of the angular velocity on the block's speeds, the
block's inverse mass, a plane's normal and flag); ``where`` (x, p) → the spheres' centres
and speeds (for the broad phase); ``slot_kinematics`` per slot (mapped): the rows J, B =
M⁻¹·Jᵀ, the targets b, the gap; ``slot_update`` one NSGS update of a slot; ``slot_ledger``
the residuals of a slot.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np

from ..collision.pairs import WORLD
from .scene import ContactSpec
from .step import _column, _tangents, _tiny

S_MAX = 12        # largest block of speeds a slotted sphere may move
BROAD_MIN = 64    # with broad=None, contacts go to slots when at least this many qualify
MAT = 6           # per slot: r_a, r_b, mu, e, v_rest, mask
COUPLED = 1e-12   # an entry of M below this times its diagonal's scale couples nothing


@dataclass
class SlottedContacts:
    """The contacts that run in slots: sphere primitives (frame column, centre in the
    frame, radius, block of speeds padded with the dummy index nz), world planes (normal,
    offset), and the pairs (index of a sphere, index of a sphere or nd + a plane) with
    their material (mu, e, v_rest) and labels; s: the padded block size."""

    spheres: list
    columns: list
    radii: np.ndarray
    speeds: np.ndarray
    blocks: np.ndarray
    planes: np.ndarray
    pairs: np.ndarray
    mats: np.ndarray
    labels: list
    s: int
    pad: int             # the dummy entry of z_ext = (z, 0): nz
    coupled: np.ndarray  # nz × nz: the entries of M that are not identically zero

    @property
    def nd(self) -> int:
        return len(self.spheres)


def split(system, specs, broad) -> tuple[list, SlottedContacts | None]:
    """(compiled specs, slotted contacts or None): broad=True slots every contact that
    qualifies (module docstring), False none, None when at least BROAD_MIN qualify."""
    if broad is False:
        return list(specs), None
    kin = system.frames
    blocks = _speed_blocks(system)
    spheres, index, planes, plane_index = [], {}, [], {}
    columns, block_of, sizes = [], [], []
    pairs, mats, labels, rest = [], [], [], []
    for spec in specs:
        found = _orient(spec) if isinstance(spec, ContactSpec) else None
        if found is None:
            rest.append(spec)
            continue
        a, b = found
        ends = []
        for prim in (a, b) if b.kind == "sphere" else (a,):
            # one sphere per frame column: the ports of a body's net (a GroundContact's
            # frame, a collider's) are one frame, and a sphere each would repeat its data
            key = (_column(kin, prim), prim.center, prim.dims)
            if key not in index:
                block = blocks(_column(kin, prim))
                index[key] = len(spheres) if block is not None else None
                if block is not None:
                    spheres.append(prim)
                    columns.append(_column(kin, prim))
                    block_of.append(block[0])
                    sizes.append(block[1])
            ends.append(index[key])
        if any(k is None for k in ends) or (len(ends) == 2 and
                                            block_of[ends[0]] == block_of[ends[1]]):
            rest.append(spec)
            continue
        if b.kind == "plane":
            key = tuple(b.dims)
            plane_index.setdefault(key, len(planes))
            if plane_index[key] == len(planes):
                planes.append(key)
            ends.append(-1 - plane_index[key])
        pairs.append(ends)
        mats.append((spec.mu, spec.e, spec.v_rest))
        labels.append(spec.label)
    if not pairs or (broad is None and len(pairs) < BROAD_MIN):
        return list(specs), None
    nd = len(spheres)
    pairs = np.array([(i, j if j >= 0 else nd - 1 - j) for i, j in pairs], dtype=np.int64)
    s = max(sizes)
    speeds = np.full((nd, s), len(system.z_names), dtype=np.int64)
    for k, block in enumerate(block_of):
        members = blocks.members(block)
        speeds[k, :len(members)] = members
    return rest, SlottedContacts(spheres, columns, np.array([p.dims[0] for p in spheres]),
                                 speeds, np.array(block_of), np.array(planes).reshape(-1, 4),
                                 pairs, np.array(mats, dtype=float).reshape(-1, 3), labels, s,
                                 len(system.z_names), blocks.coupled)


def _orient(spec):
    """(sphere, sphere or world plane) of a spec that slots can run, else None."""
    a, b = spec.a, spec.b
    if a.kind == "plane":
        a, b = b, a
    if a.kind != "sphere" or a.frame == WORLD:
        return None
    if b.kind == "sphere" and b.frame != WORLD:
        return a, b
    if b.kind == "plane" and b.frame == WORLD:
        return a, b
    return None


class _Blocks:
    """The block of speeds (a connected set of the mass matrix's couplings) that moves each
    frame column: (block id, size), or None when the frame does not move, moves with speeds
    of several blocks, or its block exceeds S_MAX."""

    def __init__(self, system):
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components
        ny, nz = len(system.y_names), len(system.z_names)
        x = ca.SX.sym("x", system.nx)
        p = ca.SX.sym("p", system.p_default.size)
        # couplings of the mass matrix: its entries that are not zero at two random states
        # (an expression that is zero for every state can be a structural non-zero of
        # CasADi's, coupling free bodies that do not couple), relative to the diagonal: a
        # ball's inertia R·I·Rᵀ has off-diagonal entries of round-off (1e-19) at some
        # states and 0 at others, which made alike bodies' blocks differ
        rng = np.random.default_rng(0)
        M = ca.Function("M", [x], [system.functions["M"](x[:ny], system.p_default)])
        coupled = sum(np.abs(np.array(M(rng.uniform(-1, 1, system.nx)))) for _ in range(2))
        scale = np.sqrt(np.outer(np.diag(coupled), np.diag(coupled)))
        coupled = np.where(coupled > COUPLED * scale, coupled, 0.0)
        self.coupled = coupled > 0
        rows, cols = (list(v) for v in np.nonzero(coupled))
        _, _, v, w = system.frames.function(x, p)
        jr, jc = ca.jacobian(ca.vec(ca.vertcat(v, w)), x[ny:ny + nz]).sparsity() \
            .get_triplet()
        self._speeds = {}
        for r, c in zip(jr, jc):          # row 6k..6k+5: frame column k's v and w
            self._speeds.setdefault(r // 6, set()).add(c)
        for used in self._speeds.values():    # speeds that move one frame: one block
            first = min(used)
            rows += [first] * len(used)
            cols += sorted(used)
        graph = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(nz, nz))
        _, self.label = connected_components(graph, directed=False)

    def __call__(self, column: int):
        used = sorted(self._speeds.get(column, ()))
        if not used:
            return None
        labels = set(self.label[used].tolist())
        if len(labels) != 1:
            return None
        block = labels.pop()
        size = int(np.sum(self.label == block))
        return (int(block), size) if size <= S_MAX else None

    def members(self, block: int) -> list:
        return [int(k) for k in np.flatnonzero(self.label == block)]


def _speed_blocks(system) -> _Blocks:
    return _Blocks(system)
