"""Complete energy bookkeeping and ``res.check()`` (issue 23). Reference: the energy balance
E(t) − E(0) = ∫(P_supplied − P_dissipated) dt − (kinetic energy impacts took), a
conservation law, on every library model and every hybrid model of tests/hybrid_models.py;
closed forms for the power of a driver, an ElastoGap, a world force; and the check's own
verdict, which must fail where a power is left out."""
from __future__ import annotations

import numpy as np
import pytest
from hybrid_models import HYBRID_CASES, QUARTER_CAR_START, belt, compliant_sphere, quarter_car
from test_library_formulations import FACTORIES, START

import jourdain as jd
from jourdain.blocks import Prismatic, RigidBody, Sine, World, WorldForce
from jourdain.blocks.drivers import rotational
from test_drivers import _driven_pendulum

RTOL = 1e-4   # of the energy scale, beyond the quadrature's own error (Check.quadrature_error)
# models with fast modes (an elastic joint, a stiff chain, an electrical time constant, a gas
# force that switches at the dead centres):
# Simpson's rule needs a finer output grid to judge them at RTOL
FINE = {"ElasticJointArm", "BalancedElectricCubeOnEdge", "SpringDamperChain", "Engine"}


def _balance(res) -> tuple[float, float]:
    """(E(T) − E(0), ∫(P_sup − P_diss) dt − impacts' losses) by the trapezoid on the grid."""
    P = res["power.supplied"] - res["power.dissipated"]
    work = float(np.sum(0.5 * (P[1:] + P[:-1]) * np.diff(res.t)))
    lost = res.events.energy_lost if res.events is not None else 0.0
    return float(res["energy.total"][-1] - res["energy.total"][0]), work - lost


def test_quarter_car_energy_series_are_complete():
    """The quarter car of issue 23 (a road moved by a Position driver, an ElastoGap tyre that
    lifts off): before, E(T) − E(0) = −0.66 J against ∫(P_sup − P_diss) = −601 J (the
    driver's work, the tyre's spring and damper were missing); now they agree to 1e-5 of
    the energy scale, with the islands split and not."""
    system = jd.compile(quarter_car())
    start = {"y0": {k: v for k, v in QUARTER_CAR_START["y0"].items() if k in system.x_names}}
    for islands in (True, False):
        res = system.simulate(2.0, n_out=4001, rtol=1e-10, atol=1e-10, islands=islands,
                              **start)
        check = res.check(rtol=1e-5)
        assert check.ok, check
        change, work = _balance(res)
        assert abs(change - work) <= 1e-5 * check.energy_scale
        P = res["power.supplied"] - res["power.dissipated"]
        moved = float(np.sum(0.5 * np.abs(P[1:] + P[:-1]) * np.diff(res.t)))
        assert moved > 100.0 and abs(work) > 10.0   # the driver and tyre work: not 0 = 0
        # the tyre lifts off (a contact event) and the driver's power is f·ṡ_road
        assert len(res.events) > 1
        v_road = 0.05 * 10 * np.pi * np.cos(10 * np.pi * res.t)
        driver = res["drive.f"] * v_road
        spring_free = res["power.supplied"] - driver
        assert np.abs(spring_free).max() <= 1e-9 * np.abs(driver).max()


def test_a_drivers_power_is_its_torque_times_the_prescribed_speed():
    """Reference: closed form. A pendulum forced along φ = A·sin(ωt) (with a damper d)
    needs τ = J·φ̈ + m·g·l·sin φ + d·φ̇; the driver supplies τ·φ̇ and the balance closes."""
    model = _driven_pendulum(rotational.Position(exact=True), Sine(amplitude=0.7, f=1.0),
                             damper=0.2)
    res = jd.compile(model).simulate(2.0, rtol=1e-10, atol=1e-10, n_out=2001)
    w = 2 * np.pi
    phi, dphi = 0.7 * np.sin(w * res.t), 0.7 * w * np.cos(w * res.t)
    J = 0.03 + 2.0 * 0.5**2
    tau = J * -w**2 * phi + 2.0 * 9.81 * 0.5 * np.sin(phi) + 0.2 * dphi
    assert np.allclose(res["power.supplied"], tau * dphi, atol=1e-8 * np.abs(tau * dphi).max())
    assert res.check(rtol=1e-6).ok


def test_elastogap_stores_its_spring_and_dissipates_its_damper():
    """Reference: MSL ElastoGap's law. In contact (δ = s_rel0 − s_rel > 0) the spring's
    energy is c·δⁿ⁺¹/(n + 1) (its force c·δⁿ) and the damper's power f_d·w_rel with
    f_d = d·w_rel bounded by |f_d| ≤ c·δⁿ; out of contact both are zero."""
    from jourdain.blocks.hybrid import ElastoGap
    c, d, n, s0 = 1e4, 300.0, 1.5, 0.1
    model = jd.Model(world=World(g=(0.0, 0.0, 0.0)))
    model.slide, model.mass = Prismatic(axis=(1, 0, 0)), RigidBody(m=2.0)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.mass.frame_a)
    model.gap = ElastoGap(c=c, d=d, s_rel0=s0, n=n)
    model.connect(model.gap.flange_b, model.slide.axis)
    system = jd.compile(model)
    p = system.p_default
    for s, v in ((0.08, -0.3), (0.09, 2.0), (0.12, -1.0)):
        x = np.array([s, v])
        depth = max(s0 - s, 0.0)
        V = float(system.energy(x, p)[1])
        assert V == pytest.approx(c * depth ** (n + 1) / (n + 1), rel=1e-12, abs=1e-15)
        f_d = np.clip(d * v, -c * depth**n, c * depth**n)
        assert float(system.dissipation(0.0, x, [], p)) == pytest.approx(f_d * v, rel=1e-12,
                                                                           abs=1e-15)
        assert float(system.functions["supplied"](0.0, x, [], p)) == 0.0


def test_a_compliant_contact_stores_its_spring():
    """Reference: the Hunt–Crossley law f_n = c·δⁿ·(1 − d·v_n) ≥ 0 stores c·δⁿ⁺¹/(n + 1)
    (in energy.potential) and dissipates the rest, ≥ 0 with d ≥ 0 and μ = 0; before, the
    whole row power was counted as dissipated and turned negative on every rebound."""
    system = jd.compile(compliant_sphere(mu=0.0))
    res = system.simulate(1.0, y0={"free.y": 0.2}, n_out=4001, rtol=1e-10, atol=1e-10)
    depth = np.maximum(0.05 - res["free.y"], 0.0)
    gravity = 0.5 * 9.81 * res["free.y"]
    assert np.allclose(res["energy.potential"] - gravity, 1e4 * depth**2.5 / 2.5, atol=1e-12)
    assert depth.max() > 1e-3                            # it did press into the ground
    P = res["power.dissipated"]
    assert P.min() >= -1e-9 * P.max() and P.max() > 0
    assert res.check(rtol=1e-5).ok


def test_a_world_force_supplies_f_dot_v():
    """Reference: closed form P = f·v of a WorldForce on a sliding body (the load's power
    was missing from power.supplied); the balance then closes."""
    model = jd.Model(world=World())
    model.slide, model.mass = Prismatic(axis=(1, 0, 0)), RigidBody(m=2.0)
    model.push = WorldForce()
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.mass.frame_a)
    model.connect(model.push.frame_b, model.mass.frame_a)
    system = jd.compile(model)
    res = system.simulate(1.0, n_out=1001, rtol=1e-10, atol=1e-10,
                          inputs={"push.force[0]": lambda t: np.cos(3 * t),
                                  "push.force[1]": lambda t: 5.0})
    assert np.allclose(res["power.supplied"], np.cos(3 * res.t) * res["slide.v"], atol=1e-12)
    assert res.check(rtol=1e-6).ok


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_every_library_model_closes_its_energy_balance(name):
    """Every library model (the list of test_library_formulations, which names every class
    of jourdain.library), driven by small sine inputs from a moving start: the balance holds
    to RTOL of the energy scale (plus the trapezoid's estimated error), the constraints to
    1e-6."""
    system = jd.compile(jd.Model.on_world(World(), m=FACTORIES[name]()))
    opts = dict(START.get(name, {}))
    t_end = opts.pop("t_end", 0.5)
    opts.setdefault("rtol", 1e-9)
    opts.setdefault("atol", 1e-9)
    if "z0" not in opts and system.z_names:
        opts["z0"] = {system.z_names[0]: 0.5}
    inputs = {u: (lambda t, k=k: 0.05 * np.sin(3 * t + k)) for k, u in enumerate(system.u_names)}
    res = system.simulate(t_end, n_out=8001 if name in FINE else 1001, inputs=inputs, **opts)
    check = res.check(rtol=RTOL, constraint_tol=1e-6)
    assert check.ok, f"{name}\n{check}"
    assert check.energy_error <= RTOL * check.energy_scale   # without the allowance too


# the box (24 rows) lands, slides and sticks within 0.4 s, and costs most per step; the
# compliant ball's stiff contacts need a finer grid (as FINE above)
RUNS = {"box_landing_sliding": {"t_end": 0.4, "n_out": 401, "rtol": 1e-8, "atol": 1e-8},
        "compliant_ball": {"n_out": 8001}, "compliant_contact": {"t_end": 0.5, "n_out": 4001}}


@pytest.mark.parametrize("name", sorted(HYBRID_CASES))
def test_every_hybrid_model_closes_its_energy_balance(name):
    """The hybrid models of tests/hybrid_models.py (impacts, compliant and rigid stops,
    stick–slip friction, clutch, brake, a driven belt, the quarter car, a box landing and
    sliding on four corners): the balance with the impacts' losses from the event log holds
    to RTOL, the closed rows' residuals to 1e-6."""
    make, start = HYBRID_CASES[name]
    system = jd.compile(make())
    start = {k: {n: v for n, v in d.items() if n in system.x_names} for k, d in start.items()}
    run = {"t_end": 2.0, "n_out": 2001, "rtol": 1e-10, "atol": 1e-10}
    run.update(RUNS.get(name, {}))
    res = system.simulate(run.pop("t_end"), **run, **start)
    assert len(res.events) > 1, name          # the run meets its events
    check = res.check(rtol=RTOL, constraint_tol=1e-6)
    assert check.ok, f"{name}\n{check}"
    assert check.energy_error <= RTOL * check.energy_scale


def test_check_fails_where_a_power_is_left_out():
    """The verdict can fail: the quarter car's Result without its driver's and tyre's
    powers (power.supplied and power.dissipated as they were before the fix: the spring
    damper's only) misses ~600 J, and check() says so."""
    system = jd.compile(quarter_car())
    res = system.simulate(1.0, n_out=2001, y0={"wheel.s": 0.29, "body.s": 0.67})
    assert res.check().ok
    res.series["power.supplied"] = np.zeros_like(res.t)
    bad = res.check()
    assert not bad.ok and not bool(bad) and bad.energy_relative > 0.01
    assert "FAILS" in str(bad)


def test_check_counts_a_user_reset_and_closed_loop_residuals():
    """A ball kicked in flight by a TimeEvent's reset (+2 m/s): the reset's work
    ½·m·(v⁺² − v⁻²) is measured from the event log and the balance holds; a four-bar's
    closure residuals (partitioning) are reported and within 1e-9."""
    model = jd.Model(world=World())
    model.slide, model.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=1.0)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.ball.frame_a)
    kick = jd.TimeEvent([0.3], reset=lambda v: {"slide.v": 2.0}, name="kick")
    res = jd.compile(model).simulate(1.0, y0={"slide.s": 5.0}, events=[kick], rtol=1e-12,
                                     atol=1e-12)
    check = res.check(rtol=1e-8)
    assert check.resets == pytest.approx(0.5 * (2.0**2 - (9.81 * 0.3) ** 2), rel=1e-9)
    assert check.ok, check
    loop = jd.compile(jd.Model.on_world(World(), m=FACTORIES["FourBar"]()))
    res = loop.simulate(0.5, z0={loop.z_names[0]: 0.5}, rtol=1e-10, atol=1e-10)
    check = res.check(rtol=1e-5, constraint_tol=1e-9)
    assert check.ok and check.position_residual <= 1e-9 and check.velocity_residual <= 1e-9


def test_a_driven_belt_under_a_stick_slip_block_keeps_the_closed_form():
    """Reference: closed form of the stick–slip cycle (tests/test_hybrid_friction.py) with
    the belt moved by an exact Speed driver at v_b instead of a 10¹¹ kg slider: a friction
    row that reads a driven speed pushes the free block only. First break at F_s/(k·v_b),
    slip time (2π − 2·atan(a·ω/v_b))/ω, a = (F_s − F_k)/k."""
    m, k, F_k, F_s, v_b = 1.0, 100.0, 2.0, 3.0, 0.1
    res = jd.compile(belt()).simulate(4.0, z0={"block.v": v_b}, rtol=1e-11, atol=1e-12)
    omega, a = np.sqrt(k / m), (F_s - F_k) / k
    t_slip = (2 * np.pi - 2 * np.arctan(a * omega / v_b)) / omega
    breaks = res.events.times("fric", "break_backward")
    sticks = res.events.times("fric", "stop_backward")
    assert breaks[0] == pytest.approx(F_s / k / v_b, rel=1e-9)
    assert np.allclose(sticks[:2] - breaks[:2], t_slip, rtol=1e-8)
    assert np.allclose(res["belt.v"], v_b, rtol=1e-12)
    assert res.check(rtol=1e-5).ok
