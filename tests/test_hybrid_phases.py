"""Multi-phase trajectory optimization (issue 13). References: Newton's impact law for the
junction map (the same map as the simulation's impact on one row: z⁺ = z − (1 + e)·M⁻¹Jᵀ
(J M⁻¹ Jᵀ)⁻¹ J z), and a ballistic two-phase problem with a closed form: a ball thrown from
the ground so that, after one bounce (e = 0.5) at x = 1 m, it lands at x = 2 m needs equal
bounce spacing in time: v_y0 = g·T1/2, T2 = e·T1."""
import numpy as np
import pytest
from hybrid_models import ball

import jourdain as jd
from jourdain.blocks import Prismatic, RigidBody, World
from jourdain.blocks.hybrid import Stop, StopMode

G = 9.81


def test_impact_map_matches_the_simulated_impact():
    system = jd.compile(ball(m=0.5, e=0.7))
    delta = jd.solver.optimal.phases.impact_map(system, jd.Impact("floor.lower", e=0.7))
    res = system.simulate(1.0, y0={"slide.s": 0.6}, rtol=1e-12, atol=1e-12)
    hit = res.events.select("floor", "hit_lower")[0]
    after = np.array(delta(hit.x_before, system.p_default)).ravel()
    assert np.allclose(after, hit.x_after, atol=1e-12)


def test_impact_bad_input_is_named():
    system = jd.compile(ball())
    with pytest.raises(jd.ModelError, match="floor.lower"):
        jd.solver.optimal.phases.impact_map(system, jd.Impact("floor.low"))
    with pytest.raises(jd.ModelError, match="restitution"):
        jd.Impact("floor.lower", e=1.5)
    with pytest.raises(jd.ModelError, match="two or more"):
        jd.MultiPhaseProblem([jd.TrajectoryProblem(system, 1.0, params={"floor.mode": 0})])


def test_two_flights_and_a_bounce_match_the_closed_form():
    e = 0.5
    model = jd.Model(world=World())
    model.x, model.y = Prismatic(axis=(1, 0, 0)), Prismatic(axis=(0, 1, 0))
    model.ball = RigidBody(m=1.0)
    model.floor = Stop(lower=0.0, e=e)
    for a, b in ((model.world.frame_b, model.x.frame_a), (model.x.frame_b, model.y.frame_a),
                 (model.y.frame_b, model.ball.frame_a), (model.floor.flange_b, model.y.axis)):
        model.connect(a, b)
    system = jd.compile(model)
    flight = {"floor.mode": StopMode.FREE}
    first = jd.TrajectoryProblem(system, jd.FreeTime(0.4, 0.05, 3.0), 10, params=flight)
    second = jd.TrajectoryProblem(system, jd.FreeTime(0.4, 0.05, 3.0), 10, params=flight)
    first.initial({"x.s": 0.0, "y.s": 0.0, "x.v": 2.0})
    first.final({"x.s": 1.0, "y.s": 0.0})
    second.final({"y.s": 0.0})
    for phase in (first, second):
        phase.path_constraint(lambda v: v["y.s"], 0.0, np.inf, "above")
    sol = jd.MultiPhaseProblem([first, second], [jd.Impact("floor.lower", e=e)]).solve()
    T1, T2 = sol.phases[0].T, sol.phases[1].T
    assert T1 == pytest.approx(0.5, rel=1e-9)
    assert T2 == pytest.approx(e * T1, rel=1e-8)                   # the bounce law
    assert sol.phases[0]["y.v"][0] == pytest.approx(G * T1 / 2, rel=1e-8)
    assert sol.phases[1]["y.v"][0] == pytest.approx(e * G * T1 / 2, rel=1e-8)
    assert sol.phases[1]["x.s"][-1] == pytest.approx(1.0 + 2.0 * e * T1, rel=1e-8)
