"""The MSL's joint assemblies (JointRRR, JointRRP, JointSSP, JointUPS) and
Forces.SpringDamperSeries (issue 26); the RollingWheelSet and the assemblies in whole MSL
examples are checked by tests/test_msl_examples.py."""
import numpy as np
import pytest
from scipy.integrate import cumulative_simpson, solve_ivp

import jourdain as jd
from jourdain.blocks import (FixedTranslation, JointRRP, JointRRR, Prismatic, Revolute,
                             RigidBody, SpringDamperSeries, World)
from jourdain.blocks.multibody import Fixed


def _residual(result) -> float:
    return max(np.abs(v).max() for k, v in result.series.items() if k.startswith("residual"))


def test_spring_damper_series_against_an_independent_ode():
    """Reference: an independent scipy model of the same three equations (a 1 kg body
    hanging on a prismatic joint: m·ẍ = m·g − f, f = c·(x − s_unstretched − s_damper),
    d·ṡ_damper = f); the change of T + V equals the element's work, which is the spring
    energy released ½·f²/c minus the damper's loss ∫f²/d dt."""
    c, d, s0, m, g = 50.0, 5.0, 0.1, 1.0, 9.81
    model = jd.Model(world=World())
    model.slide = Prismatic(n=(0, -1, 0))
    model.body = RigidBody(m=m)
    model.sds = SpringDamperSeries(c=c, d=d, s_unstretched=s0, s_damper_start=0.05)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.body.frame_a)
    model.connect(model.world.frame_b, model.sds.frame_a)
    model.connect(model.body.frame_a, model.sds.frame_b)
    system = jd.compile(model)
    res = system.simulate(3.0, y0={"slide.s": 0.3}, rtol=1e-10, atol=1e-10, n_out=301)

    def rhs(t, x):
        f = c * (x[0] - s0 - x[2])
        return [x[1], g - f / m, f / d]
    ref = solve_ivp(rhs, (0, 3), [0.3, 0.0, 0.05], t_eval=res.t, rtol=1e-11, atol=1e-12)
    assert np.abs(res["slide.s"] - ref.y[0]).max() < 1e-7
    assert np.abs(res["sds.s_damper"] - ref.y[2]).max() < 1e-7
    f = c * (ref.y[0] - s0 - ref.y[2])
    supplied = res["power.supplied"]
    work = cumulative_simpson(supplied, x=res.t, initial=0)
    E = res["energy.total"]
    assert np.abs(E - E[0] - work).max() < 1e-6 * np.ptp(E)   # T + V change by its work
    # its power is the spring's energy released minus the damper's loss
    released = -(f**2 / (2 * c) - f[0]**2 / (2 * c)) - cumulative_simpson(f**2 / d, x=res.t,
                                                                          initial=0)
    assert np.ptp(work) > 1 and np.abs(work - released).max() < 1e-6 * np.ptp(work)


def _four_bar(guess=None):
    """Crank a = 0.3 at the origin about z, JointRRR to the ground pivot D = (1, 0, 0):
    coupler rRod1_ia = (0.6, 0.5, 0) from the crank pin, rocker rRod2_ib = (−0.1, 0.5, 0)
    from D (the reference configuration closes: (0.3, 0, 0) + (0.6, 0.5, 0) = D + rocker)."""
    model = jd.Model(world=World(g=(0, 0, 0)))
    model.crank = Revolute()
    model.crankRod = FixedTranslation(r=(0.3, 0, 0))
    model.body = RigidBody(m=1, r_cm=(0.15, 0, 0))
    model.ground = Fixed(r=(1, 0, 0))
    model.jointRRR = JointRRR(rRod1_ia=(0.6, 0.5, 0), rRod2_ib=(-0.1, 0.5, 0))
    c = model.connect
    c(model.world.frame_b, model.crank.frame_a)
    c(model.crank.frame_b, model.crankRod.frame_a)
    c(model.crank.frame_b, model.body.frame_a)
    c(model.crankRod.frame_b, model.jointRRR.frame_a)
    c(model.ground.frame_b, model.jointRRR.frame_b)
    return jd.compile(model)


def test_joint_rrr_branches_by_guess():
    """Reference: closed form of the four-bar's middle joint as the two intersections of the
    coupler circle about the crank pin and the rocker circle about the ground pivot; the
    branch nearest the reference configuration by default, the mirrored one with rough
    guesses (±2 rad) of the assembly's outer angles (the MSL needs only phi_guess of
    revolute_b: one guess choosing the branch is the initialization work of issue 26)."""
    system = _four_bar()
    phi = 0.8
    B = 0.3 * np.array([np.cos(phi), np.sin(phi)])
    D = np.array([1.0, 0.0])
    l1, l2 = np.hypot(0.6, 0.5), np.hypot(-0.1, 0.5)
    dist = np.linalg.norm(D - B)
    along = (l1**2 - l2**2 + dist**2) / (2 * dist)
    normal = np.array([-(D - B)[1], (D - B)[0]]) / dist
    base = B + along * (D - B) / dist
    height = np.sqrt(l1**2 - along**2)
    upper, lower = base + height * normal, base - height * normal
    found = {}
    for name, guess in (("default", {}), ("mirror", {"jointRRR.revolute_b.phi": 2.0,
                                                 "jointRRR.revolute_a.phi": -2.0})):
        init = system.initialize(y0={"crank.phi": phi}, guess=guess)
        y = dict(zip(system.x_names, init.x0))
        angle = phi + y["jointRRR.revolute_a.phi"]         # rod 1's angle in the plane
        found[name] = B + np.array([[np.cos(angle), -np.sin(angle)],
                                    [np.sin(angle), np.cos(angle)]]) @ np.array([0.6, 0.5])
    assert np.linalg.norm(found["default"] - upper) < 1e-9
    assert np.linalg.norm(found["mirror"] - lower) < 1e-9


def test_joint_rrp_crank_slider_closed_form():
    """Reference: closed form of the crank–slider, s(φ) = r·cos φ + √(l² − r²·sin² φ) −
    (r + l) for the JointRRP's prismatic joint (s_offset = r + l), along a free run; T
    conserved (no gravity in the plane of motion: g along z); the loop residual."""
    r, l = 0.1, 0.3
    model = jd.Model(world=World(g=(0, 0, -9.81)))
    model.crank = Revolute()
    model.crankRod = FixedTranslation(r=(r, 0, 0))
    model.crankBody = RigidBody(m=2, r_cm=(0.05, 0, 0), I=(0.01, 0.01, 0.01))
    model.jointRRP = JointRRP(n_b=(1, 0, 0), rRod1_ia=(l, 0, 0), rRod2_ib=(0, 0, 0),
                              s_offset=r + l)
    model.piston = RigidBody(m=0.5, I=(0.001, 0.001, 0.001))
    c = model.connect
    c(model.world.frame_b, model.crank.frame_a)
    c(model.crank.frame_b, model.crankRod.frame_a)
    c(model.crank.frame_b, model.crankBody.frame_a)
    c(model.crankRod.frame_b, model.jointRRP.frame_a)
    c(model.world.frame_b, model.jointRRP.frame_b)
    c(model.jointRRP.frame_ib, model.piston.frame_a)
    system = jd.compile(model)
    res = system.simulate(2.0, y0={"crank.phi": 0.3}, z0={"crank.w": 10.0}, rtol=1e-10,
                          atol=1e-10, n_out=201)
    phi = res["crank.phi"]
    closed = r * np.cos(phi) + np.sqrt(l**2 - (r * np.sin(phi))**2) - (r + l)
    assert np.ptp(phi) > 10                                 # the crank turns several times
    assert np.abs(res["jointRRP.prismatic.s"] - closed).max() < 1e-9
    T = res["energy.total"]
    assert np.abs(T - T[0]).max() < 1e-6 * T[0]
    assert _residual(res) < 1e-10


@pytest.mark.parametrize("make, names", [
    (lambda: JointRRR(rRod1_ia=(0, 0, 0)), ("JointRRR", "rRod1_ia")),
    (lambda: JointRRP(n_a=(0, 0, 1), n_b=(0, 0, 1)), ("JointRRP", "n_b", "orthogonal")),
    (lambda: SpringDamperSeries(c=1, d="5"), ("SpringDamperSeries", "d")),
])
def test_bad_assembly_parameters_are_refused(make, names):
    """Reference: each bad parameter gets a ModelError naming the part and the parameter."""
    with pytest.raises(jd.ModelError) as info:
        make()
    assert all(n in str(info.value) for n in names)


class _Clock:
    """The context KinematicPTP's and KinematicPTP2's outputs read: the time only."""
    t = __import__("casadi").SX.sym("t")


def _signals(block, names, times):
    import casadi as ca
    out = block.outputs(_Clock)
    f = ca.Function("f", [_Clock.t], [ca.densify(ca.SX(out[getattr(block, n)])) for n in names])
    values = f.map(len(times))(np.asarray(times)[None, :])
    return [np.asarray(v) for v in (values if isinstance(values, (list, tuple)) else [values])]


def test_kinematic_ptp2_one_axis_equals_kinematic_ptp():
    """Reference: for one axis, KinematicPTP2 (the MSL's path-parameter formulation) and the
    one-axis KinematicPTP (its own trapezoidal profile) are two implementations of the same
    fastest motion, with and without a constant-speed phase."""
    from jourdain.blocks import KinematicPTP, KinematicPTP2
    times = np.linspace(-0.5, 6, 651)
    for q_end, qd_max in ((2.0, 1.0), (0.3, 5.0), (-1.5, 0.8)):
        one = KinematicPTP(0.2, q_end, qd_max, 1.5, start_time=0.4)
        two = KinematicPTP2(q_begin=0.2, q_end=q_end, qd_max=qd_max, qdd_max=1.5,
                            startTime=0.4)
        for a, b in zip(_signals(one, ("q", "qd", "qdd"), times),
                        _signals(two, ("q", "qd", "qdd"), times)):
            # away from the phase ends, where qdd jumps (either side's value is right there)
            ends = np.array(two.time_events(-1.0, 10.0))
            away = np.abs(times[:, None] - ends[None, :]).min(axis=1) > 1e-9
            assert np.abs(a[0][away] - b[0][away]).max() < 1e-12


def test_kinematic_ptp2_synchronizes_the_axes():
    """Reference: the MSL's synchronization: all axes move in the same phases and stop at
    endTime at q_end, one axis at its speed limit in the cruise and one at its acceleration
    limit, none beyond; qd and qdd are the derivatives of q (integrated back by the
    trapezoidal rule)."""
    from scipy.integrate import cumulative_trapezoid

    from jourdain.blocks import KinematicPTP2
    q_begin, q_end = np.array([0.0, 1.0, -0.5]), np.array([2.0, -1.0, 0.0])
    qd_max, qdd_max = np.array([1.0, 1.5, 0.2]), np.array([2.0, 1.0, 3.0])
    ptp = KinematicPTP2(q_begin, q_end, qd_max, qdd_max, startTime=0.5)
    times = np.linspace(0, ptp.endTime + 1, 40001)
    q, qd, qdd, moving = _signals(ptp, ("q", "qd", "qdd", "moving"), times)
    assert np.allclose(q[:, -1], q_end, atol=1e-12) and not moving[:, -1].any()
    speed, accel = (np.abs(qd).T / qd_max).max(axis=0), (np.abs(qdd).T / qdd_max).max(axis=0)
    assert speed.max() == pytest.approx(1.0, abs=1e-9) and accel.max() == pytest.approx(1.0)
    share = qd / (q_end - q_begin)[:, None]            # the same path speed for every axis
    assert np.abs(share - share[0]).max() < 1e-12
    assert np.abs(cumulative_trapezoid(qd, times, initial=0) + q_begin[:, None] - q).max() < 1e-6
    assert np.abs(cumulative_trapezoid(qdd, times, initial=0) - qd).max() < 1e-3


def test_kinematic_ptp2_bad_sizes_are_refused():
    """Reference: axes of different counts (neither one nor nout) get a ModelError naming
    the parameter."""
    from jourdain.blocks import KinematicPTP2
    with pytest.raises(jd.ModelError, match="qd_max"):
        KinematicPTP2(q_begin=(0, 0, 0), q_end=(1, 1, 1), qd_max=(1, 1))


def test_kinematic_ptp2_drives_two_axes():
    """Reference: two arms whose revolutes exact position drivers move along KinematicPTP2's
    q (through a Demux) end at q_end at endTime, together (the synchronization), and follow
    q at every output time (the driver's exactness)."""
    from jourdain.blocks import BodyBox, Demux, KinematicPTP2
    from jourdain.blocks.drivers import rotational
    model = jd.Model(world=World())
    model.ptp = KinematicPTP2(q_begin=(0, 0), q_end=(1.0, -0.5), qd_max=(1, 1), qdd_max=(2, 2))
    model.demux = Demux(1, 1)
    model.connect(model.ptp.q, model.demux.u)
    for i in (1, 2):
        joint = model.add(f"axis{i}", Revolute())
        arm = model.add(f"arm{i}", BodyBox(r=(0.5, 0, 0), width=0.05))
        drive = model.add(f"drive{i}", rotational.Position(exact=True))
        model.connect(model.world.frame_b, joint.frame_a)
        model.connect(joint.frame_b, arm.frame_a)
        model.connect(drive.flange, joint.axis)
        model.connect(getattr(model.demux, f"y{i}"), drive.phi_ref)
    res = jd.compile(model).simulate(2.0, n_out=201)
    for i, end in ((1, 1.0), (2, -0.5)):
        assert np.abs(res[f"axis{i}.phi"] - res[f"ptp.q[{i - 1}]"]).max() < 1e-9
        assert res[f"axis{i}.phi"][-1] == pytest.approx(end, abs=1e-12)
    moving = res.t[res["ptp.moving[0]"] > 0.5]
    assert moving.max() < model.ptp.endTime <= 2.0
