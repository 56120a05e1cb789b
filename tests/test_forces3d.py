"""3-D force elements (issue 12): line forces (Spring, Damper, SpringDamperParallel,
LineForceWithMass, LineForceWithTwoMasses with 1-D elements on its flanges) and signal-driven
ForceAndTorque, Force, Torque, WorldForce, WorldTorque, WorldForceAndTorque."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (
    Damper,
    FixedTranslation,
    Force,
    ForceAndTorque,
    LineForceWithMass,
    LineForceWithTwoMasses,
    Prismatic,
    ResolveInFrame,
    Revolute,
    RigidBody,
    Spring,
    SpringDamperParallel,
    Torque,
    TranslationalSpring,
    ViscousFriction,
    World,
    WorldForce,
    WorldForceAndTorque,
    WorldTorque,
)


def _two_link(world=None, extras=()):
    """Two links (revolutes about z and y) with points of interest for the elements."""
    m = jd.Model(world=world or World())
    m.j1 = Revolute(n=(0, 0, 1))
    m.b1 = RigidBody(m=1.0, r_cm=(0.5, 0, 0), I=(0.01, 0.02, 0.03))
    m.off = FixedTranslation(r=(1.0, 0, 0))
    m.j2 = Revolute(n=(0, 1, 0))
    m.b2 = RigidBody(m=0.7, r_cm=(0.3, 0.1, 0), I=(0.02, 0.02, 0.03))
    m.p = FixedTranslation(r=(0.5, 0.2, 0.3))
    m.anchor = FixedTranslation(r=(0.2, 1.0, 0.1))
    c = m.connect
    c(m.world.frame_b, m.j1.frame_a)
    c(m.j1.frame_b, m.b1.frame_a)
    c(m.j1.frame_b, m.off.frame_a)
    c(m.off.frame_b, m.j2.frame_a)
    c(m.j2.frame_b, m.b2.frame_a)
    c(m.j2.frame_b, m.p.frame_a)
    c(m.world.frame_b, m.anchor.frame_a)
    for attach in extras:
        attach(m)
    return m


def _all_elements(m):
    c = m.connect
    m.spring = Spring(c=30, s_unstretched=0.4, m=0.3, lengthFraction=0.3)
    m.parallel = SpringDamperParallel(c=10, d=0.5, s_unstretched=0.2)
    m.damper = Damper(d=0.7)
    m.ft = ForceAndTorque(resolveInFrame=ResolveInFrame.FRAME_A)
    m.wf = WorldForce(resolveInFrame=ResolveInFrame.FRAME_B)
    m.wt = WorldTorque()
    m.lf = LineForceWithTwoMasses(m_a=0.2, m_b=0.3, L_a=0.1, L_b=0.2)
    m.k = TranslationalSpring(c=5, s_rel0=0.5)
    m.d = ViscousFriction(d=0.4)
    c(m.anchor.frame_b, m.spring.frame_a)
    c(m.p.frame_b, m.spring.frame_b)
    c(m.world.frame_b, m.parallel.frame_a)
    c(m.j2.frame_b, m.parallel.frame_b)
    c(m.anchor.frame_b, m.damper.frame_a)
    c(m.off.frame_b, m.damper.frame_b)
    c(m.anchor.frame_b, m.ft.frame_a)
    c(m.p.frame_b, m.ft.frame_b)
    c(m.p.frame_b, m.wf.frame_b)
    c(m.off.frame_b, m.wt.frame_b)
    c(m.off.frame_b, m.lf.frame_a)
    c(m.p.frame_b, m.lf.frame_b)
    c(m.k.flange_a, m.lf.flange_a)
    c(m.k.flange_b, m.lf.flange_b)
    c(m.d.flange_b, m.lf.flange_b)


def test_formulations_agree_with_every_3d_element(rng):
    """Reference: Lagrange's equations (V, D, virtual work of the loads, seeds 003/004) agree
    with Jourdain's projection to round-off at random states and inputs; the projection is
    used for the recursive back end's O(n) algorithms too (point masses on a line force are
    not on a link, so RECURSIVE refuses and AUTO picks the projection)."""
    model = _two_link(extras=[_all_elements])
    a = jd.compile(model, backend=jd.Backend.PROJECTION)
    b = jd.compile(model, formulation=jd.Formulation.LAGRANGE)
    assert a.u_names[:3] == ["ft.force[0]", "ft.force[1]", "ft.force[2]"]
    for _ in range(4):
        x, u = rng.uniform(-1, 1, a.nx), rng.uniform(-5, 5, len(a.u_names))
        fa, fb = (np.array(s.f(0.1, x, u, [])).ravel() for s in (a, b))
        assert np.allclose(fa, fb, rtol=1e-10, atol=1e-10 * np.abs(fa).max())
    with pytest.raises(jd.ModelError, match="ride on line forces"):
        jd.compile(model, backend=jd.Backend.RECURSIVE)


def test_recursive_back_end_takes_loads(rng):
    """Reference: the projection; loads enter the recursive back end as joint forces."""
    def massless(m):
        _all_elements(m)
        m.spring.m, m.lf.m_a, m.lf.m_b = 0.0, 0.0, 0.0
    model = _two_link(extras=[massless])
    a = jd.compile(model, backend=jd.Backend.PROJECTION)
    b = jd.compile(model, backend=jd.Backend.RECURSIVE)
    x, u = rng.uniform(-1, 1, a.nx), rng.uniform(-5, 5, len(a.u_names))
    fa, fb = (np.array(s.f(0.1, x, u, [])).ravel() for s in (a, b))
    assert np.allclose(fa, fb, rtol=1e-10, atol=1e-10 * np.abs(fa).max())


def test_energy_balance_with_line_dampers():
    """Reference: dE/dt = −P: the energy lost equals the dissipated work of the line
    dampers (D = ½·d·ṡ²) and the 1-D damper on the line's flanges (inputs zero)."""
    from scipy.integrate import cumulative_simpson
    system = jd.compile(_two_link(extras=[_all_elements]))
    res = system.simulate(2.0, y0={"j1.phi": 0.3, "j2.phi": 0.5}, rtol=1e-11, atol=1e-11,
                          n_out=2001)
    E, P = res["energy.total"], res["power.dissipated"]
    assert P.min() >= 0 and P.max() > 0.1
    assert np.abs(E - E[0] + cumulative_simpson(P, x=res.t, initial=0)).max() < 1e-6


def _internal(m):
    """A ForceAndTorque between two frames of one rigid link, and a Force and a Torque."""
    m.ft, m.f, m.t = ForceAndTorque(ResolveInFrame.WORLD), Force(), Torque()
    for element in (m.ft, m.f, m.t):
        m.connect(m.j2.frame_b, element.frame_a)
        m.connect(m.p.frame_b, element.frame_b)


def test_internal_wrench_does_nothing(rng):
    """Reference: Newton's third law with the moment of the pair (frame_a gets −f and
    −t − r_ab × f): a force element between two frames of one rigid body leaves its motion
    unchanged for any input."""
    plain = jd.compile(_two_link())
    internal = jd.compile(_two_link(extras=[_internal]))
    assert len(internal.u_names) == 12
    for _ in range(3):
        x = rng.uniform(-1, 1, plain.nx)
        f0 = np.array(plain.f(0, x, [], [])).ravel()
        f1 = np.array(internal.f(0, x, rng.uniform(-9, 9, 12), [])).ravel()
        assert np.allclose(f0, f1, atol=1e-11)


def test_world_force_at_center_of_mass_is_extra_gravity(rng):
    """Reference: a WorldForce (0, −m·Δg, 0) at a body's center of mass is exactly a
    stronger uniform gravity for that body (a WorldTorque of 0 changes nothing)."""
    def pull(m):
        m.cm = FixedTranslation(r=(0.3, 0.1, 0))
        m.wf, m.wt = WorldForceAndTorque(), WorldTorque()
        m.connect(m.j2.frame_b, m.cm.frame_a)
        m.connect(m.cm.frame_b, m.wf.frame_b)
        m.connect(m.cm.frame_b, m.wt.frame_b)

    def heavier_b2(m):
        m.extra = RigidBody(m=0.7 * 0.5 / 9.81, r_cm=(0.3, 0.1, 0))
        m.connect(m.j2.frame_b, m.extra.frame_a)

    pulled = jd.compile(_two_link(extras=[pull]))
    # b2's weight 0.7·9.81 plus 0.7·0.5 N; the heavier model adds that mass's weight too,
    # so compare with gravity off on the extra: f differs by the extra inertia otherwise.
    x = rng.uniform(-1, 1, pulled.nx)
    u = np.zeros(len(pulled.u_names))
    u[1] = -0.7 * 0.5
    q_pulled = np.array(pulled.q(0, x[:2], x[2:], u, [])).ravel()
    heavy = jd.compile(_two_link(extras=[heavier_b2]))
    q_heavy = np.array(heavy.q(0, x[:2], x[2:], [], [])).ravel()
    assert np.allclose(q_pulled, q_heavy, atol=1e-12)


def test_line_spring_on_a_slider_is_the_1d_spring():
    """Reference: a Spring between the world origin and a body sliding along x (s > 0) is
    the 1-D TranslationalSpring: period 2π·√(m/c) about s_unstretched."""
    def slider(line: bool):
        m = jd.Model(world=World(g=(0, 0, 0)))
        m.slide, m.body = Prismatic(n=(1, 0, 0)), RigidBody(m=2.0)
        m.connect(m.world.frame_b, m.slide.frame_a)
        m.connect(m.slide.frame_b, m.body.frame_a)
        if line:
            m.spring = Spring(c=8.0, s_unstretched=1.0)
            m.connect(m.world.frame_b, m.spring.frame_a)
            m.connect(m.body.frame_a, m.spring.frame_b)
        else:
            m.spring = TranslationalSpring(c=8.0, s_rel0=1.0)
            m.connect(m.spring.flange_b, m.slide.axis)
        return jd.compile(m)
    for line in (True, False):
        res = slider(line).simulate(3.0, y0={"slide.s": 1.2}, rtol=1e-11, atol=1e-11)
        assert np.allclose(res["slide.s"], 1 + 0.2 * np.cos(2 * res.t), atol=1e-8)


def test_mass_on_the_line_splits_as_in_the_msl(rng):
    """Reference: closed form: a point mass m at lengthFraction λ of the line has kinetic
    energy ½·m·|(1 − λ)·v_a + λ·v_b|² (frame_a fixed here: ½·m·λ²·|v_b|²)."""
    m = jd.Model(world=World(g=(0, 0, 0)))
    m.slide, m.body = Prismatic(n=(1, 1, 0)), RigidBody(m=1.0)
    m.line = LineForceWithMass(m=0.6, lengthFraction=0.25)
    m.connect(m.world.frame_b, m.slide.frame_a)
    m.connect(m.slide.frame_b, m.body.frame_a)
    m.connect(m.world.frame_b, m.line.frame_a)
    m.connect(m.slide.frame_b, m.line.frame_b)
    system = jd.compile(m)
    x = np.array([0.7, 1.3])
    T = float(system.energy(x, [])[0])
    assert T == pytest.approx(0.5 * 1.0 * 1.3**2 + 0.5 * 0.6 * 0.25**2 * 1.3**2, rel=1e-12)


@pytest.mark.parametrize("make, message", [
    (lambda: Spring(c=-1.0), "c must be non-negative"),
    (lambda: Spring(c=1.0, lengthFraction=1.5), "lengthFraction must lie in"),
    (lambda: WorldForce(resolveInFrame=ResolveInFrame.FRAME_A), "resolveInFrame must be one"),
    (lambda: ForceAndTorque(resolveInFrame="frame_b"), "resolveInFrame must be one"),
])
def test_bad_parameters_are_named(make, message):
    """Reference: bad input gets a ModelError naming the component and parameter."""
    with pytest.raises(jd.ModelError, match=message):
        element = make()
        model = _two_link()
        model.element = element
        for name in ("frame_a", "frame_b"):
            if hasattr(element, name):
                model.connect(getattr(model.p if name == "frame_b" else model.anchor,
                                      "frame_b"), getattr(element, name))
        jd.compile(model)
