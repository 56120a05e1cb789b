"""Kinematic drivers (issue 12): the MSL's Rotational/Translational Sources Position, Speed,
Accelerate on joint flanges; the driven coordinate loses its equation of motion and the
driver's force or torque is an output."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (
    Constant,
    FixedTranslation,
    Mounting1D,
    Prismatic,
    Revolute,
    RigidBody,
    Sine,
    ViscousFriction,
    World,
)
from jourdain.blocks.drivers import rotational, translational

M, L, I_ZZ = 2.0, 0.5, 0.03
J = I_ZZ + M * L**2            # about the pivot


def _driven_pendulum(driver, source, damper=0.0):
    m = jd.Model(world=World())
    m.joint = Revolute()
    m.bob = RigidBody(m=M, r_cm=(0, -L, 0), I=(0.01, 0.02, I_ZZ))
    m.driver, m.source = driver, source
    m.connect(m.world.frame_b, m.joint.frame_a)
    m.connect(m.joint.frame_b, m.bob.frame_a)
    m.connect(m.driver.flange, m.joint.axis)
    m.connect(m.source.y, getattr(m.driver, m.driver.REFERENCE))
    if damper:
        m.damper = ViscousFriction(d=damper)
        m.connect(m.damper.flange_b, m.joint.axis)
    return m


@pytest.mark.parametrize("formulation", [jd.Formulation.JOURDAIN, jd.Formulation.LAGRANGE])
def test_exact_position_torque_closed_form(formulation):
    """Reference: closed form: a pendulum forced along phi = A·sin(ωt) needs the torque
    tau = J·phi'' + m·g·l·sin(phi) + d·phi' (the damper's share too); both formulations."""
    model = _driven_pendulum(rotational.Position(exact=True), Sine(amplitude=0.7, f=1.0),
                             damper=0.2)
    system = jd.compile(model, formulation=formulation)
    assert system.x_names == ["joint.phi", "joint.w"]
    res = system.simulate(2.0, rtol=1e-10, atol=1e-10, n_out=201)
    w = 2 * np.pi
    phi = 0.7 * np.sin(w * res.t)
    tau = J * -w**2 * phi + M * 9.81 * L * np.sin(phi) + 0.2 * 0.7 * w * np.cos(w * res.t)
    assert np.abs(res["joint.phi"] - phi).max() < 1e-12
    assert np.abs(res["driver.tau"] - tau).max() < 1e-9 * np.abs(tau).max()


def test_filtered_position_is_the_msl_bessel_filter():
    """Reference: closed form of the steady state of the MSL's filter
    H(s) = 1/(1 + (af/ω_c)·s + (bf/ω_c²)·s²) for phi_ref = A·sin(ωt): amplitude A·|H(jω)|
    and phase arg H(jω) (af = 1.3617, bf = 0.6180, ω_c = 2π·f_crit)."""
    f_crit = 5.0
    model = _driven_pendulum(rotational.Position(f_crit=f_crit), Sine(amplitude=0.7, f=1.0))
    res = jd.compile(model).simulate(6.0, rtol=1e-10, atol=1e-10, n_out=601)
    wc, w = 2 * np.pi * f_crit, 2 * np.pi
    H = 1 / (1 + 1.3617 / wc * 1j * w + 0.6180 / wc**2 * (1j * w) ** 2)
    late = res.t > 3.0        # the start transient (a few filter time constants) is gone
    steady = 0.7 * np.abs(H) * np.sin(w * res.t + np.angle(H))
    assert np.abs(res["joint.phi"][late] - steady[late]).max() < 1e-8
    # the filter starts at rest at phi_ref(0) = 0: the start is the closed form to round-off
    assert abs(res["joint.phi"][0]) <= 1e-14 and abs(res["joint.w"][0]) <= 1e-14 * wc


def test_speed_and_accelerate_closed_forms():
    """Reference: closed forms: Speed(exact) with w_ref = 3 rad/s gives phi = 3·t; Accelerate
    with a_ref = 2 rad/s² from rest gives phi = t², w = 2·t; the torque of the speed drive
    against gravity alone is m·g·l·sin(phi)."""
    res = jd.compile(_driven_pendulum(rotational.Speed(exact=True), Constant(k=3.0))) \
        .simulate(1.0, rtol=1e-11, atol=1e-11, n_out=101)
    assert np.allclose(res["joint.phi"], 3 * res.t, atol=1e-9)
    assert np.allclose(res["driver.tau"], M * 9.81 * L * np.sin(3 * res.t), atol=1e-8)
    res = jd.compile(_driven_pendulum(rotational.Accelerate(), Constant(k=2.0))) \
        .simulate(1.0, rtol=1e-11, atol=1e-11, n_out=101)
    assert np.allclose(res["joint.phi"], res.t**2, atol=1e-9)
    assert np.allclose(res["joint.w"], 2 * res.t, atol=1e-9)


def test_translational_position_with_a_mounting_offset_and_free_dynamics():
    """Reference: closed form: a slider driven by translational.Position (exact) carries a
    pendulum whose equation is the base-excited pendulum
    l·theta'' = −g·sin(theta) − s''·cos(theta); the Lagrange formulation agrees."""
    m = jd.Model(world=World())
    m.slide, m.cart = Prismatic(n=(1, 0, 0)), RigidBody(m=1.0)
    m.hinge, m.rod = Revolute(), RigidBody(m=0.5, r_cm=(0, -0.4, 0))
    m.drive, m.ref = translational.Position(exact=True), Sine(amplitude=0.1, f=2.0)
    c = m.connect
    c(m.world.frame_b, m.slide.frame_a)
    c(m.slide.frame_b, m.cart.frame_a)
    c(m.slide.frame_b, m.hinge.frame_a)
    c(m.hinge.frame_b, m.rod.frame_a)
    c(m.drive.flange, m.slide.axis)
    c(m.ref.y, m.drive.s_ref)
    a = jd.compile(m)
    b = jd.compile(m, formulation=jd.Formulation.LAGRANGE)
    x, t = np.array([0.03, 0.4, 0.7, -1.1]), 0.37
    fa, fb = (np.array(s.f(t, x, [], [])).ravel() for s in (a, b))
    assert np.allclose(fa, fb, atol=1e-12)
    w = 4 * np.pi
    s_dd = -0.1 * w**2 * np.sin(w * t)
    assert fa[3] == pytest.approx((-9.81 * np.sin(0.4) - s_dd * np.cos(0.4)) / 0.4, rel=1e-12)
    assert fa[0] == pytest.approx(0.1 * w * np.cos(w * t), rel=1e-12)


def _bad(kind):
    m = _driven_pendulum(rotational.Position(exact=True), Sine())
    if kind == "input":        # phi_ref left free: a system input, not a function of t
        m = jd.Model(world=World())
        m.joint, m.bob = Revolute(), RigidBody(m=1.0, r_cm=(0, -1, 0))
        m.driver = rotational.Position(exact=True)
        m.connect(m.world.frame_b, m.joint.frame_a)
        m.connect(m.joint.frame_b, m.bob.frame_a)
        m.connect(m.driver.flange, m.joint.axis)
    if kind == "twice":
        m.other, m.k = rotational.Speed(exact=True), Constant(k=1.0)
        m.connect(m.other.flange, m.joint.axis)
        m.connect(m.k.y, m.other.w_ref)
    if kind == "support":
        m.j2, m.b2 = Revolute(), RigidBody(m=1.0, r_cm=(0, -1, 0))
        m.connect(m.joint.frame_b, m.j2.frame_a)
        m.connect(m.j2.frame_b, m.b2.frame_a)
        m.connect(m.driver.support, m.j2.axis)
    if kind == "mounting":
        m.off = FixedTranslation(r=(0, -1, 0))
        m.mount = Mounting1D()
        m.connect(m.joint.frame_b, m.off.frame_a)
        m.connect(m.off.frame_b, m.mount.frame_a)
        m.connect(m.mount.flange_b, m.driver.support)
    return m


@pytest.mark.parametrize("kind, message", [
    ("input", "known function of time"),
    ("twice", "both drive joint.phi"),
    ("support", "support flange moves"),
    ("mounting", "not on the body of joint.frame_a"),
])
def test_driver_errors_are_named(kind, message):
    """Reference: bad input gets a ModelError naming the driver and what to do."""
    with pytest.raises(jd.ModelError, match=message):
        jd.compile(_bad(kind))


def test_drivers_with_user_speeds_or_multiplier_methods_are_refused():
    """Reference: a driven speed must be a generalized speed itself; the multiplier methods
    keep all joint speeds, which drivers do not support yet: named errors."""
    from jourdain.library import FourBar
    model = _driven_pendulum(rotational.Position(exact=True), Sine())
    with pytest.raises(jd.ModelError, match="must be a generalized speed"):
        jd.compile(model, speeds={"u": "2*joint.w"})
    loop = jd.Model.on_world(World(), bar=FourBar())
    loop.drive, loop.ref = rotational.Speed(exact=True), Constant(k=1.0)
    loop.connect(loop.drive.flange, loop.bar.crank.axis)
    loop.connect(loop.ref.y, loop.drive.w_ref)
    with pytest.raises(jd.ModelError, match="need ConstraintMethod.PARTITIONING"):
        jd.compile(loop, constraints=jd.ConstraintMethod.DAE)
    res = jd.compile(loop).simulate(1.0, rtol=1e-10, atol=1e-10, n_out=11)
    phi = res["bar.crank.phi"]
    assert np.allclose(res["bar.crank.w"], 1.0) and np.allclose(phi - phi[0], res.t, atol=1e-8)


def _idle_dial(driver, source, loop: bool = False):
    """A driven dial that moves no mass (a point mass on its axis, no inertia) beside a body
    falling on a vertical slider (or, ``loop``, beside the default four-bar)."""
    m = jd.Model(world=World())
    if loop:
        from jourdain.library import FourBar
        m.fb = FourBar()
        m.connect(m.world.frame_b, m.fb.frame_a)
    else:
        m.slide, m.box = Prismatic(n=(0, 1, 0)), RigidBody(m=1.5)
        m.connect(m.world.frame_b, m.slide.frame_a)
        m.connect(m.slide.frame_b, m.box.frame_a)
    m.dial, m.pointer = Revolute(), RigidBody(m=1.0, I=(0.0, 0.0, 0.0))
    m.driver, m.source = driver, source
    m.connect(m.world.frame_b, m.dial.frame_a)
    m.connect(m.dial.frame_b, m.pointer.frame_a)
    m.connect(m.driver.flange, m.dial.axis)
    m.connect(m.source.y, getattr(m.driver, m.driver.REFERENCE))
    return m


@pytest.mark.parametrize("driver, source, phi", [
    (rotational.Position(exact=True), Sine(amplitude=0.7, f=1.0),
     lambda t: 0.7 * np.sin(2 * np.pi * t)),
    (rotational.Speed(exact=True), Constant(k=3.0), lambda t: 3 * t),
    (rotational.Accelerate(), Constant(k=2.0), lambda t: t**2),
])
def test_driven_joint_that_moves_no_mass_simulates(driver, source, phi):
    """A driven joint whose motion moves no mass has a zero row and column of M, but its row
    is dropped (the driver prescribes ż there), so it is no singular mass matrix; it used to
    be refused at simulate ("the mass matrix is singular"). References: the driver's
    prescribed motion (closed form), the free fall of the slider s = −g·t²/2 (closed form),
    the energy balance (the driver moves no mass: power.supplied = 0 and the total energy is
    conserved to the tolerance); linearize refuses the prescribed motion by name."""
    system = jd.compile(_idle_dial(driver, source))
    res = system.simulate(1.0, rtol=1e-11, atol=1e-11, n_out=101)
    assert np.abs(res["dial.phi"] - phi(res.t)).max() < 1e-8
    assert np.abs(res["slide.s"] + 9.81 / 2 * res.t**2).max() < 1e-8
    assert np.abs(res["driver.tau"]).max() < 1e-9
    assert np.abs(res["power.supplied"]).max() < 1e-9
    assert np.ptp(res["energy.total"]) < 1e-8 * 9.81 * 1.5 * 9.81 / 2
    with pytest.raises(jd.ModelError, match="linearize: this system has kinematic drivers"):
        system.linearize()


def test_driven_joint_that_moves_no_mass_beside_a_loop():
    """The same through the partitioned simulation of a closed loop (its partition models
    check M too). References: the prescribed dial angle 3·t (closed form) and the four-bar's
    energy conservation (no dissipation) to the tolerance."""
    system = jd.compile(_idle_dial(rotational.Speed(exact=True), Constant(k=3.0), loop=True))
    res = system.simulate(1.0, y0={"fb.crank.phi": 1.0}, z0={"fb.crank.w": 2.0},
                          rtol=1e-10, atol=1e-10, n_out=51)
    assert np.abs(res["dial.phi"] - 3 * res.t).max() < 1e-8
    energy = res["energy.total"]
    assert np.ptp(energy) < 1e-6 * max(1.0, abs(energy[0]))


def test_filtered_driver_on_a_loop_starts_on_its_reference():
    """A four-bar whose crank follows a constant reference (1.2 rad) through the MSL's
    filtered Position driver, simulated from defaults: the loop is assembled about the
    driven crank at its reference, as system.initialize and an FMU start it. Reference: the
    run from system.initialize(u0=...)'s state (identical), and rest (a constant reference
    from its own value moves nothing); before, the crank began where the assembly left it
    (0.344 rad) and was pulled to 1.2 rad at up to 13 rad/s."""
    from jourdain.blocks.drivers import rotational
    from jourdain.library import FourBar

    model = jd.Model.on_world(World(), fb=FourBar())
    model.drv = rotational.Position(f_crit=5.0)
    model.connect(model.drv.flange, model.fb.crank.axis)
    system = jd.compile(model)
    res = system.simulate(1.0, inputs={"drv.phi_ref": 1.2}, rtol=1e-10, atol=1e-10)
    ref = system.simulate(1.0, x0=system.initialize(u0=[1.2]).x0,
                          inputs={"drv.phi_ref": 1.2}, rtol=1e-10, atol=1e-10)
    assert res["fb.crank.phi"][0] == pytest.approx(1.2, abs=1e-12)
    for name in system.x_names:
        assert np.abs(res[name] - ref[name]).max() < 1e-9, name
    assert np.abs(res["fb.crank.w"]).max() < 1e-8
