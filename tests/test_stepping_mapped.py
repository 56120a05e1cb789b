"""The stepping mode's step for free bodies that do not couple, one body's function mapped
over the bodies (solver/stepping/uniform.py, bodies.py; docs/hybrid.md, "Many balls in the
stepping mode"). References: agreement with the same step expanded for every body (the
previous formulation: the same operations, so the same trajectory to round-off); the
ledger's bounds (no penetration, no step gaining energy); equal parts found where the bodies
are alike, none where one differs."""
from __future__ import annotations

import casadi as ca
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import World
from jourdain.blocks.hybrid import GroundContact
from jourdain.blocks.visual import Sphere
from jourdain.solver.collision import Collider, CollisionPair, ContactMaterial
from jourdain.solver.stepping import bodies, run, slot_step
from jourdain.solver.stepping.uniform import independent_groups, uniform
from stepping_models import free_body

R = 0.1


def _balls(masses):
    model = jd.Model(world=World())
    for k, m in enumerate(masses):
        body = free_body(model, f"b{k}", m, (0.4 * m * R**2,) * 3)
        contact = model.add(f"g{k}", GroundContact(radius=R, e=0.5, mu=0.3, v_rest=1e-3))
        model.connect(contact.frame_a, body.frame_a)
    return jd.compile(model)


PAIRS = [CollisionPair(Collider(f"b{i}.frame_a", Sphere(radius=R)),
                       Collider(f"b{k}.frame_a", Sphere(radius=R)),
                       ContactMaterial(mu=0.3, e=0.5)) for i in range(4) for k in range(i + 1, 4)]
# four balls thrown at each other over the ground: they meet in the air and on the floor
START = dict(y0={"b0_j.x": -0.3, "b0_j.y": 0.3, "b1_j.x": 0.3, "b1_j.y": 0.35,
                 "b2_j.z": 0.3, "b2_j.y": R, "b3_j.z": -0.3, "b3_j.y": 0.5},
             z0={"b0_j.vx": 1.5, "b1_j.vx": -1.5, "b2_j.vz": -1.0, "b3_j.vz": 1.2,
                 "b3_j.wy": 3.0})


def _run(system):
    return system.simulate(0.4, contact="stepping", dt=1e-3, n_out=21, pairs=PAIRS,
                           broad=True, **START)


def test_mapped_step_agrees_with_expanded(monkeypatch):
    """Four equal balls meeting each other and the ground through the broad phase: the
    step with one ball's function mapped over the balls (res.stats['mapped']) and the same
    step with f and the slot data expanded for every ball (the mapping switched off) give
    the same trajectory to 1e-12 and the same ledger; the balls do meet (impulses in
    the energy the contacts took), never overlap by more than 1e-9 m, and no step gains
    energy. (The expanded step runs on CasADi's virtual machine: the same operations.)"""
    mapped = _run(_balls([1.0] * 4))
    monkeypatch.setattr(bodies, "uniform", lambda *args: None)
    monkeypatch.setattr(slot_step, "uniform", lambda *args: None)
    # the expanded step on CasADi's virtual machine: the same operations, and no second
    # compilation in the default suite
    monkeypatch.setattr(run, "_compile_slot_step", lambda functions, step, slots: functions)
    expanded = _run(_balls([1.0] * 4))
    assert mapped.stats["mapped"] and not expanded.stats["mapped"]
    assert mapped.stats["candidates_max"] >= 5          # ball–ball contacts took part
    system = _balls([1.0] * 4)
    for name in system.y_names + system.z_names:
        assert np.abs(mapped[name] - expanded[name]).max() <= 1e-12, name
    for key in ("max_penetration", "complementarity", "cone", "energy_taken"):
        assert getattr(mapped.ledger, key) == pytest.approx(getattr(expanded.ledger, key),
                                                            abs=1e-12), key
    assert mapped.ledger.energy_taken > 0.1
    assert mapped.ledger.max_penetration <= 1e-9
    assert mapped.ledger.max_step_gain <= 1e-12


def test_alike_bodies_found_and_unlike_refused():
    """Equal balls: ẋ = f(x) splits into one part per ball (7 + 6 entries each) and every
    part is one function; a ball of another mass makes its part differ, so the step keeps
    f expanded (mapped_parts None). Reference: the model's structure (free bodies, no
    joint between them)."""
    alike, unlike = _balls([1.0] * 3), _balls([1.0, 2.0, 1.0])
    for system, expect in ((alike, True), (unlike, False)):
        x = ca.SX.sym("x", system.nx)
        p = ca.SX.sym("p", system.p_default.size)
        f = system.functions.get("f_smooth", system.functions["f"])
        xdot = f(0, x, ca.SX(0, 1), p)
        groups = independent_groups(xdot, x)
        assert [g.size for g in groups] == [13, 13, 13]
        assert (bodies.mapped_parts(system) is not None) == expect


def test_uniform_evaluates_the_expression():
    """uniform() of sin(a_k)·b_k + c over three groups evaluates to the expression itself
    at random inputs (to 1e-15: the same operations), and refuses groups whose functions
    differ (one group squared)."""
    a, c = ca.SX.sym("a", 6), ca.SX.sym("c")
    expr = ca.vertcat(*[ca.sin(a[2 * k]) * a[2 * k + 1] + c for k in range(3)])
    mapped = uniform(expr, [a, c], [[0], [1], [2]])
    am, cm = ca.MX.sym("a", 6), ca.MX.sym("c")
    value = ca.Function("m", [am, cm], [mapped(am, cm)])
    reference = ca.Function("e", [a, c], [expr])
    point = np.random.default_rng(3).normal(size=6)
    assert np.abs(np.array(value(point, 0.7)) - np.array(reference(point, 0.7))).max() \
        <= 1e-15
    other = ca.vertcat(expr[:2], expr[2] ** 2)
    assert uniform(other, [a, c], [[0], [1], [2]]) is None


@pytest.mark.slow
def test_hundred_balls_meeting_build_and_run():
    """100 balls (r = 5 cm, 0.1 kg) thrown into a 1 m box (floor and four walls), meeting
    each other (4950 ball–ball pairs) through the broad phase: the step builds with one
    ball's function mapped (res.stats['mapped']; before, gcc did not finish its 8 MB of C in
    15 minutes) and runs 0.3 s. References: the contact law's no-gain property (no step
    gains energy, the total energy never rises between outputs by more than 1e-9 J: the
    balls only fall, bounce with e = 0.5 and slide with friction) and no penetration beyond
    1e-4 m (the sweeps alone, as the slots run)."""
    n, radius, mass, half = 100, 0.05, 0.1, 0.5
    model = jd.Model(world=World())
    planes = [((0, 1, 0), 0.0), ((1, 0, 0), -half), ((-1, 0, 0), -half),
              ((0, 0, 1), -half), ((0, 0, -1), -half)]
    for i in range(n):
        body = free_body(model, f"b{i}", mass, (0.4 * mass * radius**2,) * 3)
        for k, (normal, offset) in enumerate(planes):
            contact = model.add(f"c{i}_{k}", GroundContact(
                radius=radius, normal=normal, offset=offset, mu=0.5, e=0.5, v_rest=0.05))
            model.connect(contact.frame_a, body.frame_a)
    system = jd.compile(model)
    rng = np.random.default_rng(0)
    y0, z0 = {}, {}
    for i in range(n):       # four layers 0.2 m apart, 25 balls each, 0.18 m apart
        layer, k = divmod(i, 25)
        y0.update({f"b{i}_j.x": -0.36 + 0.18 * (k % 5), f"b{i}_j.z": -0.36 + 0.18 * (k // 5),
                   f"b{i}_j.y": 0.3 + 0.2 * layer})
        z0.update({f"b{i}_j.vx": rng.uniform(-1, 1), f"b{i}_j.vz": rng.uniform(-1, 1)})
    pairs = [CollisionPair(Collider(f"b{i}.frame_a", Sphere(radius=radius)),
                           Collider(f"b{k}.frame_a", Sphere(radius=radius)),
                           ContactMaterial(mu=0.5, e=0.5))
             for i in range(n) for k in range(i + 1, n)]
    res = system.simulate(0.3, contact="stepping", dt=1e-3, n_out=31, pairs=pairs,
                          y0=y0, z0=z0)
    assert res.stats["mapped"] and res.stats["slotted_pairs"] == 5450
    assert res.stats["candidates_max"] >= 25   # the lowest layer reaches the floor at 0.23 s
    assert np.max(np.diff(res["energy.total"])) <= 1e-9
    assert res.ledger.max_step_gain <= 1e-12
    assert res.ledger.max_penetration <= 1e-4
