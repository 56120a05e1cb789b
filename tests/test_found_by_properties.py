"""Regression tests for the failures tests/test_properties.py found, each reduced to the
smallest model that shows it, with the reference it is checked against."""
import mechanisms as mm
import numpy as np
import pytest
from conftest import ROUNDOFF
from scipy.spatial.transform import Rotation

import jourdain as jd
from jourdain.blocks import (
    Cylindrical,
    FixedRotation,
    FixedTranslation,
    FreeJoint,
    Planar,
    Prismatic,
    Revolute,
    RigidBody,
    Spherical,
    World,
)
from jourdain.solver.constraints import assembly


def _pendulum(axis):
    model = jd.Model(world=World())
    model.offset = FixedTranslation(r=(0.0, 0.0, -0.0896))
    model.joint = Revolute(axis=axis)
    model.body = RigidBody(m=0.2, r_cm=(0.0, 0.0, -0.1018), I=(0.0009, 0.0008, 0.0004))
    model.connect(model.world.frame_b, model.offset.frame_a)
    model.connect(model.offset.frame_b, model.joint.frame_a)
    model.connect(model.joint.frame_b, model.body.frame_a)
    return jd.compile(model)


def test_pendulum_with_a_tiny_axis_component_starts_from_rest():
    """Reference: the same pendulum without the 4e-145 component (the axes differ far below
    round-off), to the integrator tolerance. A Jacobian entry of ~1e-145 made the default
    linear solver of CVODES (CasADi's Householder QR, whose squares underflow) return NaN, so
    the run stopped at t = 0 blaming stiffness (CasADi issue #2717)."""
    tiny, plain = (_pendulum((0.9762338, y, -0.2167200)) for y in (4.085779541895377e-145, 0.0))
    a = tiny.simulate(0.3, rtol=1e-9, atol=1e-9, n_out=11)
    b = plain.simulate(0.3, rtol=1e-9, atol=1e-9, n_out=11)
    assert np.abs(a.x - b.x).max() < 1e-7


def _closed_by(cut, seat_angle, seat_axis, base):
    """A body on ``base`` (FreeJoint or Spherical) at the origin, closed to the world by
    ``cut`` through a seat turned by ``seat_angle`` about ``seat_axis``: the default pose
    (identity) is seat_angle away from closing, near the cut joint's mirror root."""
    model = jd.Model(world=World())
    model.base = base
    model.body = RigidBody(m=1.0, r_cm=(0.1, 0.0, 0.0), I=(0.1, 0.2, 0.25))
    model.seat = FixedRotation(angle=seat_angle, axis=seat_axis)
    model.cut = cut
    model.connect(model.world.frame_b, model.base.frame_a)
    model.connect(model.base.frame_b, model.body.frame_a)
    model.connect(model.world.frame_b, model.seat.frame_a)
    model.connect(model.seat.frame_b, model.cut.frame_a)
    model.connect(model.body.frame_a, model.cut.frame_b)
    return jd.compile(model)


def test_prismatic_cut_is_not_assembled_turned_by_half_a_turn():
    """Reference: Grübler. A free body held by a prismatic joint keeps 1 DOF (the slide),
    5 independent closure equations. Its orientation residual ½·vex(R) also vanishes at a
    rotation by π, where it has rank 1: assembled there from a seat 3 rad away, the body
    got 3 DOF and a mass matrix that blew up at the first real state."""
    system = _closed_by(Prismatic(axis=(1, 0, 0)), 3.0, (0, 0, 1), FreeJoint())
    assert system.f_dof == 1 and len(system.partition.holonomic_rows) == 5
    assert system.z_names == ["base.vx"]


@pytest.mark.parametrize("cut, speed", [(lambda: Revolute(axis=(0, 0, 1)), "base.wz"),
                                        (lambda: Cylindrical(n=(0, 0, 1)), "base.wz"),
                                        (lambda: Planar(n=(0, 0, 1)), "base.wz")],
                         ids=["Revolute", "Cylindrical", "Planar"])
def test_axis_keeping_cut_is_not_assembled_with_its_axis_reversed(cut, speed):
    """Reference: the joint's own poses. A revolute (cylindrical, planar) keeps its axis
    (normal) in both frames parallel; the equations e1·R·n = e2·R·n = 0 also hold for
    R·n = −n, where assembly used to stop from a seat 3 rad away (the body flipped,
    cos = −1)."""
    system = _closed_by(cut(), 3.0, (1, 0, 0), Spherical())
    q0, q1, q2, q3 = system.y_ref[:4]
    body = Rotation.from_quat([q1, q2, q3, q0]).as_matrix()
    seat = Rotation.from_rotvec([3.0, 0.0, 0.0]).as_matrix()
    assert (seat @ [0, 0, 1]) @ (body @ [0, 0, 1]) == pytest.approx(1.0, abs=1e-9)
    assert speed in system.z_names


def test_mirror_pose_is_named_when_nothing_else_closes():
    """Bad input: the body's orientation held half a turn from the prismatic seat (the
    closure equations hold there, the joint does not); the error says it is a mirror pose."""
    system = _closed_by(Prismatic(axis=(1, 0, 0)), 3.0, (0, 0, 1), FreeJoint())
    half = (3.0 - np.pi) / 2
    with pytest.raises(jd.ModelError, match="mirror image of a cut joint"):
        system.assemble({"base.q0": np.cos(half), "base.q1": 0.0, "base.q2": 0.0,
                         "base.q3": np.sin(half)})


def test_assembly_gives_up_at_a_stationary_point(monkeypatch):
    """Reference: the count of Gauss–Newton line searches. A ball joint closed by a second
    ball joint cannot be assembled by scalar moves alone (there are none), so the first
    stage is hopeless; it used to run all 100 iterations for each of 9 starts (909 line
    searches, 0.8 s of a 1-DOF compile), now stops after STALLED steps without decrease."""
    calls = []
    line_search = assembly._line_search
    monkeypatch.setattr(assembly, "_line_search", lambda *a: calls.append(1) or line_search(*a))
    model = jd.Model(world=World())
    model.ball = Spherical()
    model.body = RigidBody(m=1.0, r_cm=(0.1, 0, 0), I=(0.1, 0.2, 0.25))
    model.tip, model.seat = FixedTranslation(r=(0.2, 0.1, 0.0)), FixedTranslation(r=(0.1, 0.2, 0))
    model.cut = Spherical()
    for a, b in ((model.world.frame_b, model.ball.frame_a), (model.ball.frame_b, model.body.frame_a),
                 (model.body.frame_a, model.tip.frame_a), (model.world.frame_b, model.seat.frame_a),
                 (model.seat.frame_b, model.cut.frame_a), (model.tip.frame_b, model.cut.frame_b)):
        model.connect(a, b)
    system = jd.compile(model)
    assert system.f_dof == 1   # the turn about the line through both centres
    assert len(calls) < 100


SPATIAL_LOOP = mm.Loop(
    tree=mm.Tree(links=(
        mm.Link(parent=0, r=(0.2708, 0.0, -0.3155), angle=0.0, turn_axis=(1.0, 0.0, 0.0),
                joint="prismatic", axis=(-0.93008504, -0.36734271, 0.00107231),
                body=mm.Body(m=2.2488, r_cm=(0.23698, 0.0, -0.27936), sides=(0.5, 0.29494, 0.47468),
                             turn=(1.7927, 0.0, 0.0)), q=(-0.67714,), w=(0.0,)),
        mm.Link(parent=1, r=(0.0, -0.15350, 0.44830), angle=0.0, turn_axis=(1.0, 0.0, 0.0),
                joint="free", axis=(1.0, 0.0, 0.0),
                body=mm.Body(m=1.7429, r_cm=(0.29305, 0.03197, 0.3), sides=(0.20024, 0.45353, 0.09211),
                             turn=(2.3983, 2.0884, 0.9562)),
                q=(0.0, 0.20186, 0.14595, 1.32906, 0.0, 0.0), w=(0.0, -1.99965, 0.27622, 1.30897, 0.0,
                                                                  -1.65249)),
        mm.Link(parent=2, r=(0.34437, -0.47763, 0.0), angle=0.0, turn_axis=(1.0, 0.0, 0.0),
                joint="spherical", axis=(1.0, 0.0, 0.0),
                body=mm.Body(m=1.1570, r_cm=(0.0, -0.21874, 0.0), sides=(0.10190, 0.29701, 0.54289),
                             turn=(-0.46748, 2.58721, 0.02305)),
                q=(0.0, 0.0, 0.67631), w=(1.65668, 1.97655, 0.0))),
        g=(0.0, 0.0, 0.0)),
    close_from=3, tip=(-0.19736, 0.0, -0.14829), close_to=0, cut="prismatic",
    cut_axis=(0.0, 0.0, -1.0))


def test_dae_keeps_its_accuracy_on_a_spatial_loop():
    """Reference: the other method (coordinate partitioning at rtol 1e-11). With the
    multipliers in IDAS's local error test, IDAS rejected nearly every step on this loop of a
    prismatic, a free and a ball joint closed by a prismatic cut (8e3 steps and error-test
    failures in 0.2 s) and ended 4e-6 away at rtol 1e-8; the multipliers follow the states,
    which alone are tested now."""
    part = jd.compile(mm.build(SPATIAL_LOOP))
    dae = jd.compile(mm.build(SPATIAL_LOOP), constraints=jd.ConstraintMethod.DAE)
    start = mm.start(SPATIAL_LOOP, part)
    ref = part.simulate(0.2, **start, rtol=1e-11, atol=1e-11, n_out=11)
    res = dae.simulate(0.2, **start, rtol=1e-8, atol=1e-8, n_out=11)
    assert max(np.abs(res[n] - ref[n]).max() for n in part.y_names) < 1e-7


def test_center_of_mass_within_the_axis_tolerance_is_on_the_axis_in_both_formulations():
    """Reference: the other formulation. A body whose center of mass lies within 1e-12 of
    its revolute axis, with an inertia symmetric about it, is written in the joint's
    non-spinning axes (a wheel); its position used to keep the 1e-14 m offset fixed while
    its velocity turned it, so Lagrange's V lost a gravity torque that Kane's q kept
    (ż = 0 against −2.4e-12 rad/s²). The offset is now put on the axis for both."""
    model = jd.Model(world=World())
    model.joint = Revolute(axis=(0, 0, 1))
    model.body = RigidBody(m=1.0, r_cm=(1e-14, 0.0, 0.0), I=(0.04, 0.04, 0.04))
    model.connect(model.world.frame_b, model.joint.frame_a)
    model.connect(model.joint.frame_b, model.body.frame_a)
    kane = jd.compile(model)
    lagrange = jd.compile(model, formulation=jd.Formulation.LAGRANGE)
    for x in ([0.0, 0.0], [0.7, -1.3]):
        a, b = (np.array(s.f(0, x, [], s.p_default)).ravel() for s in (kane, lagrange))
        np.testing.assert_allclose(a, b, rtol=ROUNDOFF, atol=ROUNDOFF)


def _universal_cut_loop():
    """A body on a FreeJoint carrying a second on a Cylindrical joint, closed to the world
    by a Universal cut: at its generated start the compiled partition (dependent speeds
    joint1.vx, vy, vz, wz) is exactly singular (ν ≈ 2e16)."""
    body = mm.Body(m=2.5227069860523743, r_cm=(-0.07276364957967546, 0.20154762173618418, 0.0),
                   sides=(0.26629237644383796, 0.5662919332279888, 0.2769272881729887),
                   turn=(-0.17671836775772043, -2.631723082025823, -6.103515625e-05))
    free = mm.Link(parent=0, r=(0.5, -0.33513852915711606, 0.0), angle=0.0,
                   turn_axis=(0.0, 0.0, 1.0), joint="free", axis=(1.0, 0.0, 0.0), body=body,
                   elements=(), q=(0.0, 0.0, 0.0, 0.3, -0.2, 0.1),
                   w=(0.0, 0.0, 0.0, 0.5, -0.5, 0.2))
    cylinder = mm.Link(parent=1, r=(0.13381785414373393, 0.0, 0.2701204223829565), angle=0.0,
                       turn_axis=(1.0, 0.0, 0.0), joint="cylindrical",
                       axis=(0.0, 0.7934049375500668, -0.6086941802507846), body=body,
                       elements=(), q=(0.7292322573962617, -0.7184894016471588),
                       w=(0.7292322573962617, -0.7184894016471588))
    return mm.Loop(tree=mm.Tree(links=(free, cylinder), g=(0.0, -9.81, 0.0)), close_from=1,
                   tip=(0.12205459236792165, 0.16159946868388458, 0.0), close_to=0,
                   cut="universal", cut_axis=(0.0, 0.5038928231953654, -0.8637661852215588))


def test_speeds_given_where_the_partition_is_singular_are_a_named_error_at_once():
    """Reference: constraint residual. Where the compiled partition is singular the given
    independent speeds do not determine the dependent ones: a named error at t = 0, no
    integration. The run used to complete them as ~1e15 m/s, map that onto a regular
    partition and spend 20 s of CVODES steps at t ≈ 1e-13 before blaming stiffness. From
    rest the same start switches partition at t = 0 and keeps the closure to 1e-9."""
    spec = _universal_cut_loop()
    system = jd.compile(mm.build(spec))
    start = mm.start(spec, system)
    with pytest.raises(jd.SimulationError, match=r"do not determine the dependent speeds "
                                                 r"joint1\.vz.*joint1\.wz at the initial"):
        system.simulate(0.3, **start)
    rest = system.simulate(0.3, y0=start["y0"], z0={n: 0.0 for n in system.z_names},
                           rtol=1e-8, atol=1e-8, n_out=11)
    (switch,) = rest.switches
    assert switch.t == 0.0 and switch.conditioning_before > 1e6   # t: the start, not computed
    residual = max(np.abs(v).max() for k, v in rest.series.items() if k.startswith("residual"))
    assert residual <= 1e-9


# ---- found by tests/test_compositions.py (issue 23) ----------------------------------------
def test_an_impact_just_after_a_sample_counts_after_that_sample():
    """Two shafts on a spring, a rigid stop on the second, both at 2 rad/s: the stop is hit
    7e-14 s after the sample at 0.2 s, which shows the state before the impact. Reference:
    the energy balance (res.check): the impact's 0.064 J were counted at that sample, a
    0.32 relative error; now 1e-7."""
    import compositions as cm
    spec = cm.Composition((0.05, 0.05), ("spring",), ("none", "stop"), "none", (2.0, 2.0),
                          False)
    system = jd.compile(cm.build(spec))
    res = system.simulate(1.0, n_out=2001, rtol=1e-9, atol=1e-9, **cm.start(spec, system))
    impact = res.events[1]
    assert abs(impact.t - 0.2) < 1e-12 and impact.energy_lost > 0.06
    check = res.check(rtol=1e-6)
    assert check.ok, check


@pytest.mark.skipif(__import__("shutil").which("gcc") is None, reason="no C compiler")
def test_codegen_of_a_closed_loop_with_friction_rows_keeps_the_rows(tmp_path):
    """An ideal gear between two shafts (a closure equation, partitioning) with bearing
    friction on one: codegen compiled the partition's smooth watch, so the compiled f lost
    the friction's row force (ż = 0 instead of 1.6 rad/s² at a stuck state). Reference: the
    virtual machine's f at random states, to 1e-12."""
    import compositions as cm
    spec = cm.Composition((0.05, 0.05), ("gear",), ("none", "bearing"), "none", (-3.0, -3.0),
                          False)
    system = jd.compile(cm.build(spec))
    vm = system.functions["f"]
    system.codegen(cache_dir=tmp_path)
    assert system.library is not None
    rng = np.random.default_rng(0)
    for mode in (-1.0, 0.0, 1.0):
        x = rng.normal(size=system.nx)
        a, b = (np.array(fn(0.3, x, [], [mode]), dtype=float).ravel() for fn in (system.f, vm))
        assert np.allclose(a, b, rtol=1e-12, atol=1e-12 * (1 + np.abs(b).max()))
        assert np.abs(b[-1]) > 0.1     # the row's force moves the shafts
