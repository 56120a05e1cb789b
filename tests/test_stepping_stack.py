"""The stepping mode's exact solve of the contact problem on the sweeps' active set and its
position correction (solver/stepping/exact.py, correct.py; docs/hybrid.md "Two contact
modes"): a stack of boxes at rest stays at its exact heights (static equilibrium), a
tumbling box is pushed out of the penetration the linearized position update leaves without
any energy gained (the ledger's bound and the total energy)."""
from __future__ import annotations

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.blocks.visual import Box, Plane
from jourdain.solver.collision import Collider, CollisionPair, ContactMaterial
from stepping_models import box_on_ground, free_body

SIZE, G = 0.2, 9.81


def tower(boxes: int):
    """``boxes`` cubes (0.2 m, 1 kg) stacked at rest, each one's corners against the top
    face of the one below (the ground for the first): the model, the pairs, the heights."""
    model = jd.Model(world=World())
    pairs, y0 = [], {}
    for k in range(boxes):
        free_body(model, f"box{k}", 1.0, (SIZE**2 / 6,) * 3)
        below = Collider("world", Plane(normal=(0, 1, 0))) if k == 0 else \
            Collider(f"box{k - 1}.frame_a", Plane(normal=(0, 1, 0), center=(0, SIZE / 2, 0)))
        pairs.append(CollisionPair(Collider(f"box{k}.frame_a", Box(size=(SIZE,) * 3)),
                                   below, ContactMaterial(mu=0.5, e=0.0)))
        y0[f"box{k}_j.y"] = SIZE / 2 + SIZE * k
    return jd.compile(model), pairs, y0


def _drift(res, y0, boxes):
    start = np.array([[0.0, y0[f"box{k}_j.y"], 0.0] for k in range(boxes)])
    pos = np.array([[res[f"box{k}_j.{c}"] for c in "xyz"] for k in range(boxes)])
    return float(np.abs(pos - start[:, :, None]).max())


# compiling the 3-box step (a 72-row block solve) takes gcc minutes under load: slow
@pytest.mark.slow
def test_stack_stands_still_with_one_sweep():
    """Three boxes stacked at rest for 1 s with a single Gauss–Seidel pass per step: the
    exact solve on the active set holds the stack at its exact heights (static equilibrium:
    the reference) to 1e-9 m, where one pass alone leaves the impulses far from converged;
    complementarity to 1e-9 m/s, the cone exactly, no penetration beyond 1e-9 m, and the
    contacts take no energy from a stack at rest (|energy_taken| ≤ 1e-9 J)."""
    system, pairs, y0 = tower(3)
    res = system.simulate(1.0, contact="stepping", dt=1e-3, pairs=pairs, y0=y0, n_out=101,
                          iterations=1)
    assert _drift(res, y0, 3) < 1e-9
    ledger = res.ledger
    assert ledger.max_penetration < 1e-9 and ledger.complementarity < 1e-9
    assert ledger.cone < 1e-12 and ledger.max_step_gain <= 1e-12
    assert abs(ledger.energy_taken) < 1e-9


def test_box_on_its_face_rests_with_one_sweep():
    """A box (0.2 m cube) at rest on its face for 0.5 s with a single Gauss–Seidel pass per
    step: its four coplanar corners make the Delassus matrix singular, and the block solve
    holds the box at its exact rest height 0.1 m (static equilibrium) to 1e-12 m with no
    motion sideways, complementarity to 1e-9 m/s, the cone exactly, no energy taken."""
    system = jd.compile(box_on_ground(e=0.0))
    res = system.simulate(0.5, contact="stepping", dt=1e-3, y0={"box_j.y": SIZE / 2},
                          n_out=51, iterations=1)
    for name, rest in (("box_j.x", 0.0), ("box_j.y", SIZE / 2), ("box_j.z", 0.0)):
        assert np.abs(res[name] - rest).max() < 1e-12
    ledger = res.ledger
    assert ledger.complementarity < 1e-9 and ledger.cone < 1e-12
    assert abs(ledger.energy_taken) < 1e-9 and ledger.max_step_gain <= 1e-12


@pytest.mark.slow
def test_tower_of_ten_boxes_stands_still_for_ten_seconds():
    """Issue 28's stacking target: a tower of 10 boxes at rest for 10 s at dt = 1 ms drifts
    less than 1e-6 m from its exact heights (static equilibrium), with no penetration beyond
    1e-6 m (MuJoCo's soft contact sinks by 1.6 mm in 1 s on the same tower)."""
    system, pairs, y0 = tower(10)
    res = system.simulate(10.0, contact="stepping", dt=1e-3, pairs=pairs, y0=y0, n_out=101)
    assert _drift(res, y0, 10) < 1e-6
    assert res.ledger.max_penetration < 1e-6
    assert res.ledger.max_step_gain <= 1e-12


def test_tumbling_box_never_gains_energy():
    """A box (0.2 m, 1 kg, e = 0.5) dropped spinning from 0.5 m (benchmarks/contact.py's
    box): the impulses never add kinetic energy to a step's free motion (the ledger's
    bound), the total energy never rises between outputs by more than the weight times what
    the position correction lifted (m·g·max_correction: it moves, it gives no speed), no
    step starts more than 1e-6 m into the ground, and the box comes to rest on a face at
    its half height 0.1 m (to 1e-6 m)."""
    system = jd.compile(box_on_ground(e=0.5))
    angle, axis = 0.5, np.array([1.0, 0.5, 0.2]) / np.linalg.norm([1.0, 0.5, 0.2])
    q = np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])
    y0 = {"box_j.y": 0.5, **{f"box_j.q{k}": q[k] for k in range(4)}}
    z0 = {"box_j.vx": 1.0, "box_j.wx": 2.0, "box_j.wy": 4.0}
    res = system.simulate(2.0, contact="stepping", dt=1e-3, y0=y0, z0=z0, n_out=2001)
    ledger = res.ledger
    assert ledger.max_penetration <= 1e-6
    assert ledger.max_step_gain <= 1e-12
    rise = np.diff(res["energy.total"]).max()
    assert rise <= 1.0 * G * ledger.max_correction + 1e-12
    assert res["box_j.y"][-1] == pytest.approx(SIZE / 2, abs=1e-6)


def test_penetration_is_removed_without_speed():
    """A box at rest, started 1 mm into the ground and tilted by 5 mrad about x (its
    corners 0.5 to 1.5 mm deep): the position correction sets every corner onto the ground,
    so the box lies on its face (rest height 0.1 m to 1e-9 m, tilt gone to 1e-9: the rest
    pose), by a displacement alone: its kinetic energy stays below 1e-12 J throughout (a
    velocity target out of the penetration would launch it at ~1 m/s) and the impulses never
    add any; the ledger's max_correction is the deepest corner, 1e-3 + 0.1·(sin + cos − 1) m of
    the tilt (the start's geometry, to 1e-9 m)."""
    system = jd.compile(box_on_ground(e=0.0))
    tilt = 0.005
    y0 = {"box_j.y": SIZE / 2 - 1e-3, "box_j.q0": np.cos(tilt / 2),
          "box_j.q1": np.sin(tilt / 2)}
    res = system.simulate(0.2, contact="stepping", dt=1e-3, y0=y0, n_out=201)
    speeds = np.array([res[f"box_j.{c}"] for c in ("vx", "vy", "vz", "wx", "wy", "wz")])
    kinetic = 0.5 * (speeds[:3] ** 2).sum(axis=0) + 0.5 * SIZE**2 / 6 * (speeds[3:] ** 2).sum(0)
    assert kinetic.max() < 1e-12
    assert res["box_j.y"][-1] == pytest.approx(SIZE / 2, abs=1e-9)
    assert abs(res["box_j.q1"][-1]) < 1e-9
    assert res.ledger.max_correction == pytest.approx(
        1e-3 + SIZE / 2 * (np.sin(tilt) + np.cos(tilt) - 1), abs=1e-9)
    assert res.ledger.max_step_gain <= 1e-12
