"""Islands of independent bodies (solver/hybrid/islands.py, docs/hybrid.md "Independent
bodies"): the split, and the agreement of island-by-island simulation with the model
integrated as one system (the reference: the same equations, one event loop)."""
from __future__ import annotations

import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import FreeJoint, Revolute, RigidBody, Spring, World
from jourdain.blocks.hybrid import GroundContact
from jourdain.solver.hybrid.islands import island_systems

R, M, HALF = 0.05, 0.1, 0.3
PLANES = [((0, 1, 0), 0.0), ((1, 0, 0), -HALF), ((-1, 0, 0), -HALF)]


def _balls(n: int, spring: bool = False, pendulum: bool = False) -> jd.Model:
    """n balls (sphere contacts, μ = 0.5, e = 0.5) thrown between a floor and two walls;
    optionally a spring between balls 0 and 1, and a pendulum without contacts."""
    model = jd.Model(world=World())
    for i in range(n):
        joint = model.add(f"j{i}", FreeJoint())
        body = model.add(f"b{i}", RigidBody(m=M, I=(0.4 * M * R**2,) * 3))
        model.connect(model.world.frame_b, joint.frame_a)
        model.connect(joint.frame_b, body.frame_a)
        for k, (normal, offset) in enumerate(PLANES):
            contact = model.add(f"c{i}_{k}", GroundContact(radius=R, normal=normal,
                                                           offset=offset, mu=0.5, e=0.5,
                                                           v_rest=0.05))
            model.connect(contact.frame_a, body.frame_a)
    if spring:
        model.spring = Spring(c=20.0, s_unstretched=0.2)
        model.connect(model.spring.frame_a, model.b0.frame_a)
        model.connect(model.spring.frame_b, model.b1.frame_a)
    if pendulum:
        model.hinge = Revolute(axis=(0, 0, 1))
        model.bob = RigidBody(m=1.0, r_cm=(0.0, -0.5, 0.0))
        model.connect(model.world.frame_b, model.hinge.frame_a)
        model.connect(model.hinge.frame_b, model.bob.frame_a)
    return model


def _start(n: int) -> tuple[dict, dict]:
    y0, z0 = {}, {}
    for i in range(n):
        y0.update({f"j{i}.x": -0.2 + 0.4 * i / max(n - 1, 1), f"j{i}.y": 0.3 + 0.1 * i})
        z0.update({f"j{i}.vx": (-1.0) ** i * (0.8 + 0.3 * i), f"j{i}.wz": 2.0 * i})
    return y0, z0


def test_free_balls_split_into_one_island_each():
    """Balls that meet the walls, not each other, are islands of their own (13 states, 9
    rows and 3 contact elements each); a spring between two of them joins theirs, and a
    pendulum without contacts is one smooth island."""
    assert [view.nx for view in island_systems(jd.compile(_balls(3)))] == [13, 13, 13]
    views = island_systems(jd.compile(_balls(3, spring=True, pendulum=True)))
    assert sorted((v.nx, len(v.island.rows)) for v in views) == [(2, 0), (13, 9), (26, 18)]
    assert views[-1].hybrid is None            # the pendulum: no events of its own


@pytest.mark.parametrize("coupled", [False, True])
def test_islands_agree_with_one_system(coupled):
    """Reference: the same model integrated as one system (islands=False). Same events (a
    record per instant, the same elements), event times within 1e-8 s, states within 1e-6
    and the kinetic energy the impacts took within 1e-7 J at tolerances 1e-12 (the two runs
    take different steps: at 1e-10 they differ by 8e-8 s and 7e-6 rad/s, at 1e-12 by 1e-9 s
    and 8e-8 rad/s), with and without a spring that couples two of the balls and a pendulum
    beside them."""
    system = jd.compile(_balls(3, spring=coupled, pendulum=coupled))
    y0, z0 = _start(3)
    if coupled:
        y0["hinge.phi"] = 0.5
    runs = [system.simulate(1.0, y0=y0, z0=z0, n_out=101, rtol=1e-12, atol=1e-12,
                            islands=flag) for flag in (True, False)]
    split, whole = runs
    assert len(split.events) == len(whole.events) > 8
    assert [r.element for r in split.events] == [r.element for r in whole.events]
    assert np.max(np.abs(split.events.times() - whole.events.times())) < 1e-8
    assert np.max(np.abs(split.x - whole.x)) < 1e-6
    assert split.events.energy_lost == pytest.approx(whole.events.energy_lost, abs=1e-7)
    for name in ("c0_0.mode", "c2_1.mode", "energy.total"):
        assert np.max(np.abs(split[name] - whole[name])) < 1e-6


def test_merged_event_records_hold_their_islands_states():
    """A record of one ball's impact carries that ball's states before and after (the impact
    reverses its normal speed: Newton's law with e = 0.5) and NaN for the other balls, whose
    states are not computed at that instant."""
    system = jd.compile(_balls(2))
    y0, z0 = _start(2)
    res = system.simulate(0.5, y0=y0, z0=z0, n_out=51)
    record = res.events.select("c0_0")[0]
    names = system.x_names
    vy = names.index("j0.vy")
    assert record.x_after[vy] == pytest.approx(-0.5 * record.x_before[vy], rel=1e-9)
    others = [k for k, n in enumerate(names) if n.startswith("j1.")]
    assert np.all(np.isnan(record.x_before[others]))
    assert not np.any(np.isnan(res.events[0].x_after))    # the start: every island


def test_islands_option_is_checked():
    """A non-boolean islands= is a named error."""
    system = jd.compile(_balls(1))
    with pytest.raises(jd.ModelError, match="simulate: islands"):
        system.simulate(0.1, islands="yes")


@pytest.mark.parametrize("driven", [True, False])
def test_guard_only_elements_beside_an_independent_part_split(driven):
    """Issue 23: an ElastoGap (guards, no rows) beside an independent pendulum, behind a
    prescribed-motion driver or not, raised KeyError: 'hybrid' with islands=True. Reference:
    the same model as one system (islands=False): states within 1e-6 at tolerances 1e-12,
    the same contact events within 1e-8 s."""
    from hybrid_models import QUARTER_CAR_START, quarter_car
    system = jd.compile(quarter_car(beside=True, driven=driven))
    views = island_systems(system)
    assert len(views) >= 2 and any(v.hybrid is None for v in views)
    y0 = {k: v for k, v in QUARTER_CAR_START["y0"].items() if k in system.x_names}
    if not driven:   # the road starts 5 cm low: the wheel falls onto it
        y0["road.s"] = -0.05
    split, whole = (system.simulate(1.0, y0=y0, n_out=101, rtol=1e-12, atol=1e-12,
                                    islands=flag) for flag in (True, False))
    assert len(split.events) == len(whole.events) > 2
    assert np.max(np.abs(split.events.times() - whole.events.times())) < 1e-8
    assert np.max(np.abs(split.x - whole.x)) < 1e-6

