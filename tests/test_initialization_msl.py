"""Initialization as in Modelica (issue 26): initial equations on derivatives (der(x) = 0, a
steady-state start), parameters solved at initialization (fixed = false) and the choice of an
assembly branch by a guess of any position-level quantity (phi_guess, s_guess)."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (
    PID,
    Add,
    AngleSensor,
    Constant,
    FixedTranslation,
    Motor,
    Revolute,
    RigidBody,
    RotationalSpring,
    ViscousFriction,
    World,
)
from jourdain.library import FourBar

G = 9.81


def _two_link_arm(m1=2.0, m2=1.5, l1=0.6, lc1=0.3, lc2=0.25, refs=(0.4, -0.9)):
    """A planar arm in the vertical plane (axes z, gravity −y), each joint with a PID on
    e = reference − φ driving a Motor: the MSL robot's pattern of an axis holding its pose."""
    m = jd.Model(world=World())
    m.j1, m.j2 = Revolute(axis=(0, 0, 1)), Revolute(axis=(0, 0, 1))
    m.link1 = RigidBody(m=m1, r_cm=(lc1, 0, 0), I=(0.01, 0.05, 0.05))
    m.link2 = RigidBody(m=m2, r_cm=(lc2, 0, 0), I=(0.01, 0.04, 0.04))
    m.elbow = FixedTranslation(r=(l1, 0, 0))
    c = m.connect
    c(m.world.frame_b, m.j1.frame_a)
    c(m.j1.frame_b, m.link1.frame_a)
    c(m.j1.frame_b, m.elbow.frame_a)
    c(m.elbow.frame_b, m.j2.frame_a)
    c(m.j2.frame_b, m.link2.frame_a)
    for k, ref in ((1, refs[0]), (2, refs[1])):
        parts = dict(motor=Motor(), sensor=AngleSensor(), ref=Constant(k=ref),
                     error=Add(1, -1), pid=PID(k_p=200.0, k_i=100.0, k_d=20.0, T_f=0.01))
        for name, part in parts.items():
            setattr(m, f"{name}{k}", part)
        joint = getattr(m, f"j{k}")
        c(parts["motor"].flange_b, joint.axis)
        c(parts["sensor"].flange, joint.axis)
        c(parts["ref"].y, parts["error"].u1)
        c(parts["sensor"].phi, parts["error"].u2)
        c(parts["error"].y, parts["pid"].e)
        c(parts["pid"].y, parts["motor"].tau)
    return jd.compile(m)


@pytest.fixture(scope="module")
def arm():
    return _two_link_arm()


def test_robot_steady_state_start_holds_its_pose_against_gravity(arm):
    """Reference: closed-form statics of the two-link arm: with every der(x) = 0 the joints
    sit at their references (der(∫e) = e = 0), the speeds are 0 and the PIDs' integrals carry
    the gravity torques k_i·∫e₁ = g·(m1·lc1·cos q1 + m2·(l1·cos q1 + lc2·cos(q1 + q2))),
    k_i·∫e₂ = g·m2·lc2·cos(q1 + q2); the run from that state stays at rest (residual of
    the equilibrium)."""
    init = arm.initialize(steady=True)
    x = dict(zip(arm.x_names, init.x0))
    q1, q2 = 0.4, -0.9
    assert [x["j1.phi"], x["j2.phi"]] == pytest.approx([q1, q2], abs=1e-10)
    assert [x["j1.w"], x["j2.w"]] == pytest.approx([0, 0], abs=1e-10)
    tau1 = G * (2.0 * 0.3 * np.cos(q1) + 1.5 * (0.6 * np.cos(q1) + 0.25 * np.cos(q1 + q2)))
    tau2 = G * 1.5 * 0.25 * np.cos(q1 + q2)
    assert 100.0 * x["pid1.integral"] == pytest.approx(tau1, rel=1e-9)
    assert 100.0 * x["pid2.integral"] == pytest.approx(tau2, rel=1e-9)
    assert np.abs(np.array(arm.f(0, init.x0, [], arm.p_default))).max() < 1e-9
    assert "der(j1.w) = 0" in init.report() and "pid1.integral" in init.solved
    res = arm.simulate(1.0, x0=init.x0, n_out=11, progress=False)
    assert np.abs(res["j1.phi"] - q1).max() < 1e-7
    assert np.abs(res["j2.phi"] - q2).max() < 1e-7


def test_steady_on_chosen_states_with_held_pose(arm):
    """Reference: the same closed-form gravity torques when the pose, the speeds and the
    PIDs' filters are held (y0, z0) and only der(w) = 0 is asked: the integrals carry the
    torques. Without holding the filters, integral and filter could both carry them: the
    ambiguity is refused, naming both."""
    q1, q2 = 0.4, -0.9
    with pytest.raises(jd.ModelError, match="do not determine .*pid1.integral.*pid1.filter"):
        arm.initialize(y0={"j1.phi": q1, "j2.phi": q2}, z0={"j1.w": 0.0, "j2.w": 0.0},
                       fix={"der(j1.w)": 0.0, "der(j2.w)": 0.0})
    init = arm.initialize(y0={"j1.phi": q1, "j2.phi": q2},
                          z0={"j1.w": 0.0, "j2.w": 0.0, "pid1.filter": 0.0,
                              "pid2.filter": 0.0},
                          fix={"der(j1.w)": 0.0, "der(j2.w)": 0.0})
    x = dict(zip(arm.x_names, init.x0))
    tau2 = G * 1.5 * 0.25 * np.cos(q1 + q2)
    assert 100.0 * x["pid2.integral"] == pytest.approx(tau2, rel=1e-9)
    assert init.fixed["der(j2.w)"][1] < 1e-9


def _drive(d=0.5):
    m = jd.Model(world=World())
    m.shaft, m.rotor = Revolute(axis=(0, 1, 0)), RigidBody(m=1.0, I=(0.2, 0.3, 0.2))
    m.motor, m.damper = Motor(), ViscousFriction(d=d)
    m.connect(m.world.frame_b, m.shaft.frame_a)
    m.connect(m.shaft.frame_b, m.rotor.frame_a)
    m.connect(m.motor.flange_b, m.shaft.axis)
    m.connect(m.damper.flange_b, m.shaft.axis)
    return jd.compile(m)


def test_drive_train_at_steady_speed():
    """Reference: closed form of J·ẇ = τ − d·w at der(w) = 0: w = τ/d (τ = 2 N·m,
    d = 0.5 N·m·s/rad: 4 rad/s); the angle is determined by no condition (kept at start)."""
    system = _drive()
    init = system.initialize(fix={"der(shaft.w)": 0.0}, y0={"shaft.phi": 0.3}, u0=[2.0])
    assert init.x0[1] == pytest.approx(4.0, rel=1e-12)
    res = system.simulate(1.0, x0=init.x0, inputs={"motor.tau": 2.0}, n_out=5,
                          progress=False)
    assert np.abs(res["shaft.w"] - 4.0).max() < 1e-8


def _spring_pendulum(parameters=("spring.c",)):
    """A rod (mass 1.2 kg at 0.5 m) on a revolute about z under gravity −y, with a torsion
    spring c = 20 N·m/rad, phi_rel0 = 0 on its axis."""
    m = jd.Model(world=World())
    m.joint, m.bob = Revolute(axis=(0, 0, 1)), RigidBody(m=1.2, r_cm=(0.5, 0, 0))
    m.spring = RotationalSpring(c=20.0, phi_rel0=0.0)
    m.connect(m.world.frame_b, m.joint.frame_a)
    m.connect(m.joint.frame_b, m.bob.frame_a)
    m.connect(m.spring.flange_b, m.joint.axis)
    return jd.compile(m, parameters=list(parameters))


def test_spring_constant_solved_from_an_equilibrium():
    """Reference: closed-form statics −c·φ − m·g·L·cos φ = 0 at the held pose φ = −0.3 rad:
    c = m·g·L·cos(0.3)/0.3; simulated with the returned parameters the pendulum stays."""
    system = _spring_pendulum()
    init = system.initialize(y0={"joint.phi": -0.3}, z0={"joint.w": 0.0},
                             fix={"der(joint.w)": 0.0}, solve=["spring.c"])
    c = 1.2 * G * 0.5 * np.cos(0.3) / 0.3
    assert init.params["spring.c"] == pytest.approx(c, rel=1e-10)
    assert "spring.c" in init.report()
    res = system.simulate(1.0, x0=init.x0, params=init.params, n_out=5, progress=False)
    assert np.abs(res["joint.phi"] + 0.3).max() < 1e-8


def test_unstretched_angle_solved_and_equilibrium_angle():
    """Reference: closed forms of the same statics: the rest angle phi_rel0 = φ + m·g·L·cos φ
    / c for a held pose, and for a free pose the root of c·φ + m·g·L·cos φ = 0 (checked by
    its residual and against scipy's brentq)."""
    from scipy.optimize import brentq
    system = _spring_pendulum(("spring.phi_rel0",))
    init = system.initialize(y0={"joint.phi": 0.2}, z0={"joint.w": 0.0},
                             fix={"der(joint.w)": 0.0}, solve=["spring.phi_rel0"])
    assert init.params["spring.phi_rel0"] == pytest.approx(
        0.2 + 1.2 * G * 0.5 * np.cos(0.2) / 20.0, rel=1e-10)
    free = system.initialize(steady=True)
    root = brentq(lambda f: 20.0 * f + 1.2 * G * 0.5 * np.cos(f), -2.0, 0.0)
    assert free.x0 == pytest.approx([root, 0.0], abs=1e-10)


def _four_bar_c(theta, l0=0.8, l1=0.2, l2=0.8, l3=0.5):
    """Both positions of the pin C: intersections of |C − B| = l2 and |C − D| = l3."""
    B, D = l1 * np.array([np.cos(theta), np.sin(theta)]), np.array([l0, 0.0])
    d = np.linalg.norm(D - B)
    a = (l2**2 - l3**2 + d**2) / (2 * d)
    h = np.sqrt(l2**2 - a**2)
    mid, n = B + a * (D - B) / d, np.array([-(D - B)[1], (D - B)[0]]) / d
    return mid + h * n, mid - h * n


@pytest.mark.parametrize("side", [+1, -1])
def test_four_bar_branch_chosen_by_a_guess_of_a_frame_position(side):
    """Reference: closed-form circle intersection of the four-bar at crank angle 1 rad: a
    guess of the pin's height (not a coordinate) lands on the branch it leans toward, elbow
    up or elbow down; the guess is not held (the pin sits at the analytic position)."""
    system = jd.compile(jd.Model.on_world(World(), bar=FourBar()))
    up, down = _four_bar_c(1.0)
    init = system.initialize(y0={"bar.crank.phi": 1.0},
                             guess={"bar.pin.frame_a.r_0[1]": side * 0.5})
    q = dict(zip(system.quantity_names,
                 np.array(system.quantities(0, init.x0, [], system.p_default)).ravel()))
    expected = up if side > 0 else down
    got = [q["bar.pin.frame_a.r_0[0]"], q["bar.pin.frame_a.r_0[1]"]]
    assert got == pytest.approx(list(expected), abs=1e-9)


def test_singular_initial_equation_is_named():
    """Reference: J·ẇ = τ − d·w with d = 0 and τ = 2 has no steady speed: der(shaft.w) = 0
    depends on no unknown, which the error says, naming the equation and the unknowns."""
    system = _drive(d=0.0)
    with pytest.raises(jd.ModelError, match=r"der\(shaft.w\) = 0.*affected by no unknown"
                       r".*unknowns: shaft.phi, shaft.w"):
        system.initialize(fix={"der(shaft.w)": 0.0}, u0=[2.0])


def test_undetermined_parameter_is_named():
    """Reference: with the pose and speed held, der(joint.phi) = w = 0 holds whatever c is:
    no equation depends on c (a zero column of the Jacobian), so solving c is refused."""
    system = _spring_pendulum()
    with pytest.raises(jd.ModelError, match="no initial equation determines the parameter "
                       "spring.c"):
        system.initialize(y0={"joint.phi": -0.3}, z0={"joint.w": 0.0},
                          fix={"der(joint.phi)": 0.0}, solve=["spring.c"])


def test_engine_cylinder_branch_chosen_by_a_guess_of_the_piston_height():
    """Reference: closed-form slider-crank geometry of the MSL's engine cylinder (rod
    l = 0.2 m): both assemblies put the piston pin on the cylinder axis at distance l from the
    crank pin (y_c, z_c), at y = y_c ± sqrt(l² − z_c²); a guess of the piston's height picks
    the branch above (the engine's) or below the crank, with the crank angle held."""
    from jourdain.library import SingleCylinderEngine
    system = jd.compile(jd.Model.on_world(World(), engine=SingleCylinderEngine()))
    piston = "engine.cylinder1.piston.frame_a.r_0"
    pin, crank = "engine.cylinder1.b2.frame_a.r_0", "engine.cylinder1.b1.frame_a.r_0"
    heights = {}
    for guess in (0.5, -0.5):
        init = system.initialize(y0={"engine.bearing.phi": 2.0},
                                 guess={f"{piston}[1]": guess})
        q = dict(zip(system.quantity_names, np.array(system.quantities(
            0, init.x0, np.zeros(len(system.u_names)), system.p_default)).ravel()))
        y_c, z_c = q[f"{crank}[1]"], q[f"{crank}[2]"]
        assert abs(q[f"{pin}[2]"]) < 1e-10                  # on the cylinder axis
        heights[guess] = (q[f"{pin}[1]"], y_c + np.sign(guess) * np.sqrt(0.2**2 - z_c**2))
    for got, expected in heights.values():
        assert got == pytest.approx(expected, abs=1e-10)
    assert heights[0.5][0] > heights[-0.5][0] + 0.3


def test_four_bar_steady_state_is_a_stationary_point_of_the_potential():
    """Reference: principle of virtual work on the closed loop: at the steady state found
    (steady=True: every der(x) = 0, closure met) the potential energy of gravity and a crank
    spring (c = 5 N·m/rad, phi_rel0 = 1 rad) is stationary along the loop, dV/dφ_crank = 0 by a
    central difference of assembled configurations (h = 1e-4 rad: error O(h²))."""
    from jourdain.blocks import RotationalSpring
    model = jd.Model.on_world(World(), bar=FourBar())
    model.spring = RotationalSpring(c=5.0, phi_rel0=1.0)
    model.connect(model.spring.flange_b, model.bar.crank.axis)
    system = jd.compile(model)
    init = system.initialize(steady=True, guess={"bar.crank.phi": 1.0})
    assert np.abs(np.array(system.f(0, init.x0, [], system.p_default))).max() < 1e-10
    phi, h = init.x0[0], 1e-4
    guess = dict(zip(system.y_names[1:], init.x0[1:3]))
    V = [float(system.energy(system.initialize(y0={"bar.crank.phi": phi + d},
                                               guess=guess).x0, system.p_default)[1])
         for d in (-h, h)]
    scale = 5.0 * 1.0 + 9.81 * 2.3 * 0.8   # torques of the spring and of the links' weight
    assert abs((V[1] - V[0]) / (2 * h)) < 1e-6 * scale


def test_spherical_pendulum_steady_state_from_a_guessed_tip_height():
    """Reference: the closed-form rest of a spherical pendulum (tip 0.5 m straight below the
    pivot). From the default start (rod horizontal) the gravity torque is extremal, a
    singular point, named; a guess of the tip's height (not a coordinate: the joint's
    quaternion) leads Newton to the hanging rest, and the spin about the vertical, which no
    equation determines, keeps its start value (noted)."""
    from jourdain.blocks import Spherical
    m = jd.Model(world=World())
    m.ball, m.rod = Spherical(), FixedTranslation(r=(0.5, 0, 0))
    m.bob = RigidBody(m=1.0, I=(0.01, 0.01, 0.01))
    m.connect(m.world.frame_b, m.ball.frame_a)
    m.connect(m.ball.frame_b, m.rod.frame_a)
    m.connect(m.rod.frame_b, m.bob.frame_a)
    system = jd.compile(m)
    with pytest.raises(jd.ModelError, match=r"der\(ball.wz\) = 0.*singular point.*guess="):
        system.initialize(steady=True)
    init = system.initialize(steady=True, guess={"rod.frame_b.r_0[1]": -0.4})
    q = dict(zip(system.quantity_names,
                 np.array(system.quantities(0, init.x0, [], system.p_default)).ravel()))
    tip = [q[f"rod.frame_b.r_0[{i}]"] for i in range(3)]
    assert tip == pytest.approx([0.0, -0.5, 0.0], abs=1e-10)
    assert np.abs(np.array(system.f(0, init.x0, [], system.p_default))).max() < 1e-9
    assert any("ball (rotation about axis 0)" in note for note in init.notes)
