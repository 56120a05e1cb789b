"""The slots' position correction (solver/stepping/slot_correct.py; ``exact=True`` with
the broad phase's slots). References: agreement with the position correction of the
contacts compiled pair by pair (solver/stepping/correct.py, broad=False: the same
displacement Δz = M⁻¹·J_nᵀ·δ by another formulation); the gap closed to zero (a constraint
residual); the ledger's bounds (no penetration, no step gaining energy) and the total
energy never rising (the correction moves positions only)."""
from __future__ import annotations

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.blocks.hybrid import GroundContact
from jourdain.blocks.visual import Plane, Sphere
from jourdain.solver.collision import Collider, CollisionPair, ContactMaterial
from stepping_models import free_body

R = 0.1
OVERLAP = 1e-4


def _two():
    model = jd.Model(world=World(g=(0.0, 0.0, 0.0)))
    for k in range(2):
        free_body(model, f"b{k}", 1.0, (0.4 * R**2,) * 3)
    return jd.compile(model)


def _pair(i, k, e=0.0, mu=0.3):
    return CollisionPair(Collider(f"b{i}.frame_a", Sphere(radius=R)),
                         Collider(f"b{k}.frame_a", Sphere(radius=R)),
                         ContactMaterial(mu=mu, e=e))


OPTIONS = dict(contact="stepping", dt=1e-3, n_out=11, pairs=[_pair(0, 1)],
               y0={"b1_j.x": 2 * R - OVERLAP, "b1_j.y": 1e-3})
DEPTH = 2 * R - np.hypot(2 * R - OVERLAP, 1e-3)      # the overlap along the line of centres


def test_overlap_pushed_out_by_a_displacement():
    """Two equal balls at rest overlapping by 0.1 mm (no gravity), exact=True in slots: the
    first step pushes them apart to touching (the gap closed to 1e-9 m: a constraint
    residual), by a displacement alone (speeds 0 to 1e-12 m/s: no kinetic energy given,
    no step gain), and the ledger's max_correction is the overlap (closed form)."""
    system = _two()
    slots = system.simulate(0.05, broad=True, exact=True, **OPTIONS)
    distance = np.hypot(slots["b1_j.x"] - slots["b0_j.x"], slots["b1_j.y"] - slots["b0_j.y"])
    assert distance[0] == pytest.approx(2 * R - DEPTH, abs=1e-12)
    assert np.abs(distance[1:] - 2 * R).max() <= 1e-9
    assert max(np.abs(slots[name]).max() for name in system.z_names) <= 1e-12
    assert slots.ledger.max_correction == pytest.approx(DEPTH, rel=1e-6)
    assert slots.ledger.max_step_gain == 0.0
    assert slots.stats["exact"] and slots.stats["slots"] >= 1


@pytest.mark.slow
def test_overlap_pushed_out_as_the_compiled_correction():
    """The same two balls: the slots' correction moves them as the compiled pair's
    (broad=False, correct.py) does, positions to 1e-12 m (reference: the other
    formulation); the sweeps alone (exact unset) push them out with a speed instead (the
    contrast: energy given)."""
    system = _two()
    slots = system.simulate(0.05, broad=True, exact=True, **OPTIONS)
    compiled = system.simulate(0.05, broad=False, exact=True, **OPTIONS)
    for name in system.y_names:
        assert np.abs(slots[name] - compiled[name]).max() <= 1e-12, name
    assert compiled.ledger.max_correction == pytest.approx(DEPTH, rel=1e-6)
    sweeps = system.simulate(0.05, broad=True, **OPTIONS)
    assert sweeps["b1_j.vx"][-1] > 1e-2 and sweeps.ledger.max_step_gain > 1e-4


HALF = 0.2
PLANES = [((0, 1, 0), 0.0), ((1, 0, 0), -HALF), ((-1, 0, 0), -HALF), ((0, 0, 1), -HALF),
          ((0, 0, -1), -HALF)]


@pytest.fixture(scope="module")
def pile():
    """Nine balls (r = 5 cm, 0.1 kg) thrown into a 0.4 m box (floor and four walls,
    μ = 0.5, e = 0.5) on three layers, meeting each other and the walls: 36 ball–ball and
    45 ball–wall pairs, slotted by the broad phase (81 ≥ 64)."""
    model = jd.Model(world=World())
    for k in range(9):
        body = free_body(model, f"b{k}", 0.1, (0.4 * 0.1 * 0.05**2,) * 3)
        for j, (normal, offset) in enumerate(PLANES):
            contact = model.add(f"c{k}_{j}", GroundContact(
                radius=0.05, normal=normal, offset=offset, mu=0.5, e=0.5, v_rest=0.05))
            model.connect(contact.frame_a, body.frame_a)
    rng = np.random.default_rng(1)
    y0, z0 = {}, {}
    for k in range(9):
        y0.update({f"b{k}_j.x": -0.12 + 0.12 * (k % 3) + rng.uniform(-0.005, 0.005),
                   f"b{k}_j.y": 0.1 + 0.12 * (k // 3) + 0.03 * (k % 3),
                   f"b{k}_j.z": rng.uniform(-0.05, 0.05)})
        z0.update({f"b{k}_j.vx": rng.uniform(-1, 1), f"b{k}_j.vz": rng.uniform(-1, 1)})
    pairs = [CollisionPair(Collider(f"b{i}.frame_a", Sphere(radius=0.05)),
                           Collider(f"b{k}.frame_a", Sphere(radius=0.05)),
                           ContactMaterial(mu=0.5, e=0.5))
             for i in range(9) for k in range(i + 1, 9)]
    return jd.compile(model), dict(y0=y0, z0=z0, pairs=pairs)


@pytest.mark.slow
def test_pile_without_penetration_or_energy_gain(pile):
    """The pile for 2 s with exact=True: the deepest penetration at any step's start is
    below 1e-9 m where the sweeps alone leave 1e-8 m or more (the ledger, measured 5e-8 m),
    the correction ran (max_correction: what it removed), no step gained energy and the
    total energy never rose from one output to the next by more than 1e-9 J (the
    correction moves positions only; the weight times the depths it removed is
    ≤ 9·0.981 N·5e-8 m)."""
    system, start = pile
    runs = [system.simulate(2.0, contact="stepping", dt=1e-3, n_out=201, exact=exact,
                            **start) for exact in (None, True)]
    sweeps, exact = runs
    assert exact.stats["slots"] >= 32 and exact.stats["mapped"] and exact.stats["exact"]
    assert sweeps.ledger.max_penetration >= 1e-8
    assert exact.ledger.max_penetration <= 1e-9
    assert exact.ledger.max_correction >= 1e-8
    assert exact.ledger.max_step_gain <= 1e-12
    assert np.diff(exact["energy.total"]).max() <= 1e-9
    # the balls come down: most of the energy is taken by the contacts in both runs
    assert exact["energy.total"][-1] == pytest.approx(sweeps["energy.total"][-1], rel=0.05)


def test_slots_beside_compiled_pairs_refuse_exact():
    """exact=True with some contacts in slots and others compiled pair by pair (a ball on
    a plane fixed in the other ball's body) is refused by name: the slots' correction does
    not cover the compiled pairs (reference: the refusal's message)."""
    system = _two()
    pairs = [_pair(0, 1), CollisionPair(Collider("b0.frame_a", Sphere(radius=R)),
                                        Collider("b1.frame_a", Plane(normal=(0, 1, 0))),
                                        ContactMaterial(mu=0.3, e=0.0))]
    with pytest.raises(jd.ModelError, match="partly in slots .* partly compiled pair by pair"):
        system.simulate(0.1, contact="stepping", pairs=pairs, broad=True, exact=True,
                        y0={"b1_j.x": 0.5})
