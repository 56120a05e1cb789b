"""Impacts and hard stops (issue 13). References: the bouncing ball's closed form (impact
times t_1 = √(2h/g), t_{k+1} = t_k + 2·e^k·v_0/g; apex heights h·e^(2k)); Newton's
impact law for one frictionless row (energy lost (1 − e²)·½·m_eff·v_n², m_eff = 1/(J·M⁻¹·Jᵀ));
energy conservation of an elastic stop (e = 1)."""
import numpy as np
import pytest
from hybrid_models import ball, pendulum

import jourdain as jd
from jourdain.blocks.hybrid import Stop

G = 9.81


def test_bouncing_ball_impact_times_and_apex_heights():
    h, e = 1.0, 0.8
    system = jd.compile(ball(e=e))
    apex = jd.Event(lambda v: v["slide.v"], jd.Direction.FALLING, name="apex")
    res = system.simulate(3.5, y0={"slide.s": h}, events=[apex], rtol=1e-12, atol=1e-12)
    v0 = np.sqrt(2 * G * h)
    hits = res.events.times("floor", "hit_lower")[:10]    # the first ten bounces
    expected = np.sqrt(2 * h / G) + np.concatenate(
        [[0.0], np.cumsum(2 * e ** np.arange(1, hits.size) * v0 / G)])
    assert hits.size >= 8
    assert np.max(np.abs(hits - expected)) < 1e-9
    apexes = res.events.select("apex")
    # released from rest, the ball leaves its first apex at once: v = 0 turns negative right
    # after t = 0, a falling crossing (Modelica's `when v < 0` fires at t0+ too)
    assert apexes[0].t < 1e-9 and apexes[0].x_after[0] == pytest.approx(h, abs=1e-12)
    heights = np.array([r.x_after[0] for r in apexes[1:]])
    assert heights.size >= 6
    assert np.allclose(heights, h * e ** (2 * np.arange(1, heights.size + 1)), atol=1e-9)


def test_ball_comes_to_rest_and_stays_on_the_floor():
    """The bounces shrink geometrically until the rebound speed drops below v_rest; the stop
    then holds the ball (a constraint) at s = 0 with the weight as its reaction."""
    system = jd.compile(ball(m=0.5, e=0.7, v_rest=1e-2))
    res = system.simulate(5.0, y0={"slide.s": 0.5}, n_out=101)
    assert res["floor.mode"][-1] == -1       # StopMode.LOWER: resting
    assert abs(res["slide.s"][-1]) < 1e-9 and abs(res["slide.v"][-1]) < 1e-9
    assert res["floor.lower"][-1] == pytest.approx(0.5 * G, rel=1e-6)


@pytest.mark.parametrize("e", [0.0, 0.5, 0.9])
def test_energy_lost_per_impact_matches_newton(e):
    """Pendulum against a stop: each impact removes (1 − e²)·½·J·ω⁻² (m_eff = J, the moment
    of inertia about the joint, for the row γ = ω)."""
    m, l = 1.0, 0.5
    model = jd.Model(world=jd.blocks.World())
    joint, _ = pendulum(model, m=m, l=l)
    model.stop = Stop(lower=-0.4, e=e, v_rest=0.0 if e > 0 else 1e-3)
    model.connect(model.stop.flange_b, joint.axis)
    system = jd.compile(model)
    res = system.simulate(1.5, y0={"joint.phi": 1.0}, rtol=1e-10, atol=1e-10,
                          chatter=(100, 1e-12))
    hits = res.events.select("stop", "hit_lower")
    assert len(hits) >= 1
    for rec in hits:
        w_minus = rec.x_before[1]
        assert rec.energy_lost == pytest.approx((1 - e**2) * 0.5 * m * l**2 * w_minus**2,
                                                rel=1e-9, abs=1e-12)
        assert rec.x_after[1] == pytest.approx(-e * w_minus, rel=1e-9, abs=1e-12)


def test_elastic_stop_conserves_energy():
    """e = 1: the pendulum bounces between two stops for ten impacts and more; the total
    energy stays at its initial value to the integration tolerance."""
    model = jd.Model(world=jd.blocks.World())
    joint, _ = pendulum(model)
    model.stop = Stop(lower=-0.3, upper=0.3, e=1.0, v_rest=0.0)
    model.connect(model.stop.flange_b, joint.axis)
    system = jd.compile(model)
    res = system.simulate(4.0, y0={"joint.phi": 0.0}, z0={"joint.w": 3.0}, rtol=1e-11,
                          atol=1e-11)
    assert len(res.events.select("stop")) >= 10
    energy = res["energy.total"]
    assert np.max(np.abs(energy - energy[0])) < 1e-8 * max(1.0, abs(energy[0]))
    assert res.events.energy_lost == pytest.approx(0.0, abs=1e-12)
    assert np.all(np.abs(res["joint.phi"]) <= 0.3 + 1e-9)


def test_compliant_stop_penetration_and_contact_events():
    """A compliant (Hunt–Crossley) floor, force c·δ^1.5·(1 + d·δ̇): contact begins and ends
    with a guard event each; the deepest penetration stays below the undamped energy bound
    δ* (c·δ*^2.5/2.5 = m·g·(h + δ*)) and comes close to it; damping removes energy."""
    from scipy.optimize import brentq
    m, h, c = 0.5, 0.3, 1e5
    system = jd.compile(ball(m=m, law=jd.blocks.hybrid.StopLaw.COMPLIANT, c=c, d=0.5, n=1.5))
    res = system.simulate(0.6, y0={"slide.s": h}, n_out=241, rtol=1e-10, atol=1e-12)
    contacts = res.events.select("floor", "contact_lower")
    assert len(contacts) >= 2
    bound = brentq(lambda d: c * d**2.5 / 2.5 - m * G * (h + d), 1e-6, 1.0)
    deepest = -res["slide.s"].min()
    assert 0.7 * bound < deepest < bound
    assert res["energy.total"][-1] < res["energy.total"][0] - 1e-3


@pytest.mark.parametrize("mu, stick", [(0.5, True), (0.1, False)])
def test_frictional_impact_active_set_and_gauss_seidel_agree(mu, stick):
    """A disc (m = 1, I = 0.4, r = 1) hits the ground at v = (1, −2), plastic (e = 0).
    Closed form: Λ_n = m·2; sticking (μ ≥ |v_t|/(D_tt·Λ_n) = 1/7) the contact point stops,
    Λ_t = −v_t/D_tt with D_tt = 1/m + r²/I = 3.5; sliding, Λ_t = −μ·Λ_n. The active-set
    solver and its projected Gauss–Seidel fallback (two methods) give the same impulses."""
    from jourdain.solver.hybrid.impact import ImpactRows, _gauss_seidel, solve_impact
    M = np.diag([1.0, 1.0, 0.4])
    J = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]])    # normal ẏ, tangent ẋ + r·ω
    z = np.array([1.0, -2.0, 0.0])
    rows = ImpactRows(unilateral={0: 0.0}, tangents={0: ([1], mu)})
    lam, dz = solve_impact(M, J, J @ z, rows)
    expected_t = -1.0 / 3.5 if stick else -mu * 2.0
    assert lam == pytest.approx([2.0, expected_t], abs=1e-12)
    if stick:
        assert abs((J @ (z + dz))[1]) < 1e-12
    D = J @ np.linalg.solve(M, J.T)
    gs = _gauss_seidel(D, J @ z, {0: 0, 1: 1}, rows, {0: 0.0})
    assert gs == pytest.approx(lam, abs=1e-9)


def test_stop_started_at_its_limit_while_approaching_impacts_and_penetrated_is_refused():
    """A pendulum starting exactly at its lower stop while moving into it impacts at t = 0
    instead of passing through. References: Newton's law ω⁺ = −e·ω⁻ and the loss
    (1 − e²)·½·J·ω⁻² with J = m·l². A start beyond the limit is a named error."""
    m, l, e, w0 = 1.0, 0.5, 0.5, -2.0
    model = jd.Model(world=jd.blocks.World())
    joint, _ = pendulum(model, m=m, l=l)
    model.stop = Stop(lower=-0.4, e=e, v_rest=0.0)
    model.connect(model.stop.flange_b, joint.axis)
    system = jd.compile(model)
    res = system.simulate(0.2, y0={"joint.phi": -0.4}, z0={"joint.w": w0}, n_out=5,
                          rtol=1e-10, atol=1e-10)
    assert res["joint.w"][0] == pytest.approx(-e * w0, rel=1e-9)
    assert res.events.energy_lost == pytest.approx((1 - e**2) * 0.5 * m * l**2 * w0**2,
                                                   rel=1e-9)
    assert np.all(res["joint.phi"] >= -0.4 - 1e-9)
    with pytest.raises(jd.ModelError, match=r"stop: the start is 0\.1 m or rad beyond its "
                                            r"limit \(row lower"):
        system.simulate(0.2, y0={"joint.phi": -0.5})


def test_impacts_never_create_energy():
    """A 0.2 m cube dropped tumbling onto the ground (eight corner contacts, μ = 0.5,
    e = 0.5; the scene of benchmarks/contact.py): while it settles, corners hit with others
    sliding, and Newton's law with friction would gain kinetic energy at two impacts (1.8 mJ
    and 0.03 mJ, Kane's paradox). Reference: the energy balance of every impact — with the
    event instant's fallbacks (tangential restitution, Glocker 2013; else no friction in
    that impact) ΔT ≤ 0 at each event — and the box at rest at m·g·h = 0.981 J. Which
    impacts need a fallback depends on the rattling's round-off, so the fallbacks
    themselves are tested on a recorded impact (test_impact_fallbacks_dissipate)."""
    from jourdain.blocks import FreeJoint, RigidBody, World
    from jourdain.blocks.hybrid import BoxContact
    model = jd.Model(world=World())
    model.free, model.box = FreeJoint(), RigidBody(m=1.0, I=(0.2**2 / 6,) * 3)
    model.contact = BoxContact((0.2, 0.2, 0.2), mu=0.5, e=0.5, v_rest=0.05)
    for a, b in ((model.world.frame_b, model.free.frame_a),
                 (model.free.frame_b, model.box.frame_a),
                 (model.contact.frame_a, model.box.frame_a)):
        model.connect(a, b)
    angle, axis = 0.5, np.array([1.0, 0.5, 0.2]) / np.linalg.norm([1.0, 0.5, 0.2])
    q = np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])
    y0 = dict(zip(("free.y", "free.q0", "free.q1", "free.q2", "free.q3"), [0.5, *q]))
    z0 = {"free.vx": 1.0, "free.wx": 2.0, "free.wy": 4.0}
    res = jd.compile(model).simulate(1.5, y0=y0, z0=z0, n_out=151)
    lost = [r.energy_lost for r in res.events if r.energy_lost is not None]
    assert len(lost) > 15 and min(lost) >= -1e-12
    assert res["energy.total"][-1] == pytest.approx(1.0 * 9.81 * 0.1, abs=1e-6)


def test_impact_fallbacks_dissipate():
    """A recorded impact of the tumbling box (tests/data/box_impact_gain.json: corner 2 hits
    with e = 0.5 while corners 0 and 6 slide; μ = 0.5) on which Newton's law with Coulomb
    friction gains 0.124 J and the tangential restitution 0.591 J — the sliding-direction
    refinement stops on a direction along the slip. Reference: the energy balance
    ΔT = ½·zᵀ·M·z before − after ≥ 0 of the event instant's answer, which leaves friction
    out of this impact, with Newton's law on the normals (corner 2: γ⁺ = −e·γ⁻)."""
    import json
    from pathlib import Path
    from types import SimpleNamespace

    from jourdain.solver.hybrid.impact import ImpactRows, kinetic_energy, solve_impact
    from jourdain.solver.hybrid.state import _dissipative
    data = json.loads((Path(__file__).parent / "data" / "box_impact_gain.json").read_text())
    M, J, gamma, z = (np.array(data[k]) for k in ("M", "J", "gamma", "z"))
    rows = ImpactRows(data["bilateral"], {int(k): v for k, v in data["unilateral"].items()},
                      {int(k): (t, mu) for k, (t, mu) in data["tangents"].items()})
    before = kinetic_energy(M, z)
    for tangential, gain in ((False, 0.124), (True, 0.591)):
        _, dz = solve_impact(M, J, gamma, rows, tangential=tangential)
        assert before - kinetic_energy(M, z + dz) == pytest.approx(-gain, abs=1e-3)
    state = SimpleNamespace(t=2.7954, requests=[])
    dz, lost, note = _dissipative(state, M, J, gamma, rows, z, before)
    assert lost >= 0 and "friction left out" in note
    post = J @ (z + dz)
    assert post[6] == pytest.approx(-0.5 * gamma[6], abs=1e-9)
    assert min(post[0], post[18]) >= -1e-9
