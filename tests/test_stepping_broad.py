"""The stepping mode's broad phase (solver/stepping/slots.py, slot_step.py, broadrun.py):
ball–ball and ball–plane contacts found per output interval and solved in slots. References:
momentum conservation and Newton's restitution law for two equal balls head-on (closed
form); agreement with the same scene's contacts compiled pair by pair (broad=False, the
mode's other formulation); a pair left out of the declared list never acts."""
from __future__ import annotations

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.blocks.hybrid import GroundContact
from jourdain.blocks.visual import Sphere
from jourdain.solver.collision import Collider, CollisionPair, ContactMaterial
from stepping_models import free_body

R, M = 0.1, 1.0


def _balls(n: int, gravity: bool, floor: bool, e: float = 0.5, mu: float = 0.3):
    model = jd.Model(world=World() if gravity else World(g=(0.0, 0.0, 0.0)))
    for k in range(n):
        body = free_body(model, f"b{k}", M, (0.4 * M * R**2,) * 3)
        if floor:
            contact = model.add(f"g{k}", GroundContact(radius=R, e=e, mu=mu, v_rest=1e-3))
            model.connect(contact.frame_a, body.frame_a)
    return jd.compile(model)


def _pair(i, k, e=0.5, mu=0.3):
    return CollisionPair(Collider(f"b{i}.frame_a", Sphere(radius=R)),
                         Collider(f"b{k}.frame_a", Sphere(radius=R)),
                         ContactMaterial(mu=mu, e=e))


@pytest.fixture(scope="module")
def two():
    return _balls(2, gravity=False, floor=False)


@pytest.mark.parametrize("e", [0.5, 1.0])
def test_two_equal_balls_head_on(two, e):
    """Two equal balls (1 kg, r = 0.1 m, no gravity), the first at 1 m/s onto the second at
    rest, run through the broad phase: momentum is conserved to 1e-12 and the speeds after
    are Newton's, (1 − e)/2 and (1 + e)/2 m/s (closed form), to 1e-9; the balls never
    overlap (ledger)."""
    res = two.simulate(1.0, contact="stepping", dt=1e-3, n_out=21, pairs=[_pair(0, 1, e, 0.0)],
                       y0={"b1_j.x": 0.5}, z0={"b0_j.vx": 1.0}, broad=True)
    v0, v1 = res["b0_j.vx"], res["b1_j.vx"]
    assert np.abs(v0 + v1 - 1.0).max() <= 1e-12
    assert (v0[-1], v1[-1]) == pytest.approx(((1 - e) / 2, (1 + e) / 2), abs=1e-9)
    assert res.ledger.max_penetration <= 1e-9
    assert res.stats["slotted_pairs"] == 1 and res.stats["candidates_max"] == 1


@pytest.mark.slow
def test_pair_not_declared_never_acts():
    """Three balls on a line (no gravity): b0 at 1 m/s passes through b1 (no pair b0–b1
    declared: the filter) and meets b2 (pair b0–b2, e = 1): b1 stays at rest and b0 hands
    its speed to b2 (equal masses, elastic: closed form), b2 leaving at 1 m/s."""
    system = _balls(3, gravity=False, floor=False)
    res = system.simulate(2.0, contact="stepping", dt=1e-3, n_out=21, pairs=[_pair(0, 2, 1.0,
                                                                                  0.0)],
                          y0={"b1_j.x": 0.5, "b2_j.x": 1.2}, z0={"b0_j.vx": 1.0}, broad=True)
    assert np.abs(res["b1_j.vx"]).max() <= 1e-12
    assert (res["b0_j.vx"][-1], res["b2_j.vx"][-1]) == pytest.approx((0.0, 1.0), abs=1e-9)
    assert res["b0_j.x"][-1] == pytest.approx(1.0, abs=2e-3)    # b0 stops at 1.0 m


@pytest.fixture(scope="module")
def stack():
    """Three balls over the ground: b0 resting on it, b1 dropped from rest onto b0, b2
    rolling in from the side at 1 m/s into b0; pairs b0–b1, b0–b2 (not b1–b2)."""
    system = _balls(3, gravity=True, floor=True)
    start = dict(y0={"b0_j.y": R, "b1_j.y": 3.2 * R, "b2_j.y": R,
                     "b2_j.x": -0.6},
                 z0={"b2_j.vx": 1.0})
    return system, start, [_pair(0, 1), _pair(0, 2)]


@pytest.mark.slow
def test_balls_agree_with_pairs_compiled_one_by_one(stack):
    """The three-ball scene run through the broad phase and with every pair compiled into
    the step (broad=False, exact=False) agree: positions to 1e-6 m and speeds to 1e-5 m/s
    over 1 s (reference: the mode's other formulation; both solve the same contacts by the
    same NSGS, in another order of the contacts; the compiled pairs' default block solve
    and position correction, which the slots do not have, moved a landing ball by 4e-6 m)."""
    system, start, pairs = stack
    runs = [system.simulate(1.0, contact="stepping", dt=1e-3, n_out=21, pairs=pairs,
                            broad=broad, exact=exact, **start)
            for broad, exact in ((True, None), (False, False))]
    for name in system.y_names[:3] + system.y_names[7:10] + system.y_names[14:17]:
        assert np.abs(runs[0][name] - runs[1][name]).max() <= 1e-6, name
    for name in system.z_names:
        assert np.abs(runs[0][name] - runs[1][name]).max() <= 1e-5, name
    # b1 rests on b0 (centres 2R apart) until b2 reaches b0 at 0.4 s and knocks it aside
    assert runs[0]["b1_j.y"][5:8] == pytest.approx(3 * R, abs=1e-6)
    assert runs[0].ledger.max_penetration <= 1e-5
    assert runs[0].ledger.max_step_gain <= 1e-12


def test_broad_keyword_is_checked(two):
    """broad= takes None, True or False, and belongs to the stepping mode."""
    with pytest.raises(jd.ModelError, match="broad must be None"):
        two.simulate(0.1, contact="stepping", broad="yes")
    with pytest.raises(jd.ModelError, match="broad= applies to contact='stepping'"):
        two.simulate(0.1, broad=True)


@pytest.mark.slow
def test_margin_grows_when_a_ball_falls_from_rest(stack):
    """b1 falls from rest onto b0 with b2 at rest far away: every sphere starts at rest, so
    the first interval's margin is the floor (1e-4 m) and the speeds reached show it too
    small: the interval is run again with a margin from them (a retry), and b1 lands on b0
    as with every pair compiled (positions to 1e-6 m; reference: broad=False with
    exact=False, the same sweeps)."""
    system, start, pairs = stack
    start = dict(start, z0={})
    runs = [system.simulate(0.5, contact="stepping", dt=1e-3, n_out=11, pairs=pairs,
                            broad=broad, exact=exact, **start)
            for broad, exact in ((True, None), (False, False))]
    assert runs[0].stats["broad_retries"] >= 1
    assert np.abs(runs[0]["b1_j.y"] - runs[1]["b1_j.y"]).max() <= 1e-6
    assert runs[0]["b1_j.y"][-1] == pytest.approx(3 * R, abs=1e-3)
