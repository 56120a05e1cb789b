"""The MSL's RobotR3 (library/robot_r3.py, issue 26): the op-amp motor, the gears with
friction and elasticity, the cascade controller, the path planning and the MSL's
initialization, each against a reference of its own (the examples' scripts are run by
tests/test_msl_multibody_examples.py)."""
import numpy as np
import pytest
from scipy.linalg import expm

import jourdain as jd
from jourdain.blocks import World
from jourdain.library.robot_r3 import (FULL_ROBOT_AXES, FullRobot, MechanicalStructure,
                                       OneAxis, initial_conditions)

START = np.radians([-60.0, 20.0, 90.0, 0.0, -110.0, 0.0])
END = np.radians([60.0, -70.0, -35.0, 45.0, 110.0, 45.0])
SPEED = np.array([3.0, 1.5, 5.0, 3.1, 3.1, 4.1])
ACC = np.array([15.0, 15.0, 15.0, 60.0, 60.0, 60.0])


@pytest.fixture(scope="module")
def one_axis():
    model = jd.Model(world=World())
    model.robot = OneAxis()
    system = jd.compile(model)
    init = system.initialize(**initial_conditions(system, model.robot))
    return system, init, system.simulate(1.6, x0=init.x0, n_out=1601)


@pytest.fixture(scope="module")
def full_robot():
    model = jd.Model.on_world(World(), robot=FullRobot())
    system = jd.compile(model)
    return model, system, system.initialize(**initial_conditions(system, model.robot))


def _ptp(t, q0, q1, qd_max, qdd_max):
    """The synchronized point-to-point profile in closed form: one path parameter with the
    largest time over all axes; a trapezoid in speed (or a triangle when the speed limit is
    not reached)."""
    dq = q1 - q0
    sd, sdd = np.min(qd_max / np.abs(dq)), np.min(qdd_max / np.abs(dq))
    ta = min(sd / sdd, np.sqrt(1 / sdd))
    top = sdd * ta                                   # the largest ṡ reached
    te = ta + 1 / top
    t = np.clip(t, 0, te)
    s = np.where(t < ta, sdd * t ** 2 / 2,
                 np.where(t < te - ta, sdd * ta ** 2 / 2 + top * (t - ta),
                          1 - sdd * (te - t) ** 2 / 2))
    return q0 + dq * s[:, None], te


def test_full_robot_path_planning_is_the_closed_form(full_robot):
    """Reference: the closed form of KinematicPTP2 (one path parameter for all axes, the most
    demanding axis at its limits): the six reference angles of FullRobot's PathPlanning6 at
    every output time, the end angles reached at the common end time and held after it."""
    model, system, init = full_robot
    t, x0 = np.linspace(0.0, 2.0, 201), init.x0
    names = [f"robot.pathPlanning.q_split.y{k}" for k in range(1, 7)]
    closed, te = _ptp(t, START, END, SPEED, ACC)
    assert model.robot.pathPlanning.ptp.endTime == pytest.approx(te, rel=1e-12)
    assert model.robot.pathPlanning.stopTime == pytest.approx(te + 0.5, rel=1e-12)
    got = _reference_outputs(system, names, t, x0)
    assert np.abs(got - closed).max() < 1e-12
    assert np.abs(got[t >= te] - END).max() < 1e-12


def _reference_outputs(system, names, t, x0):
    """The named outputs at the times t (signal sources only: the state does not matter)."""
    index = [system.output_names.index(n) for n in names]
    return np.array([np.array(system.functions["h"](tk, x0, [], system.p_default)).ravel()[index]
                     for tk in t])


def test_full_robot_steady_start_holds_gravity_by_the_motor_currents(full_robot):
    """Reference: the principle of virtual work on the bare MechanicalStructure (compiled
    alone): at the MSL's steady start (joints at their start angles, at rest, circuits
    steady, friction carrying nothing) each motor's torque through its gear balances the
    gravity torque, ratio·k·i = ∂V/∂q (central differences of the potential energy); the
    joints sit at the path's start angles; every derivative but the integrators' is zero."""
    model, system, init = full_robot
    x = dict(zip(system.x_names, init.x0))
    q = np.array([x[f"robot.mechanics.r{k}.phi"] for k in range(1, 7)])
    assert np.abs(q - START).max() < 1e-12
    bare = jd.compile(jd.Model.on_world(World(), arm=MechanicalStructure(rLoad=(0.1, 0.25,
                                                                                 0.1))))
    n, h = len(bare.y_names), 1e-6

    def V(qq):
        return float(bare.functions["energy"](np.concatenate([qq, np.zeros(n)]), [])[1])
    dV = np.array([(V(q + h * e) - V(q - h * e)) / (2 * h) for e in np.eye(6)])
    torque = np.array([params["ratio"] * params.get("k", 1.1616) *
                       x[f"robot.axis{k}.motor.La.i"]
                       for k, (_, params) in enumerate(FULL_ROBOT_AXES, 1)])
    assert np.abs(dV).max() > 50                     # gravity loads axes 2 and 3
    assert np.abs(torque - dV).max() < 1e-6 * np.abs(dV).max()
    xdot = np.array(system.f(0.0, init.x0, [], system.parameters(init.params))).ravel()
    moving = [i for i, name in enumerate(system.x_names) if not name.endswith("PI.x")]
    assert np.abs(xdot[moving]).max() < 1e-6


def _one_axis_rhs(t, x, stuck):
    """OneAxis written by hand: motor side J·ω̇m = k·i − τ_friction − τ_spring, load
    J_L·ω̇L = ratio·τ_spring, τ_spring = c·(φm − ratio·φL) + d·(ωm − ratio·ωL); the circuit
    reduced by hand (diff: i − i_ref, OpI: C·v̇_C = (i − i_ref)/Ri, power: −5·v_C on
    Ra, La, emf); the controller i_ref = ks·(x_PI + e), ẋ_PI = e/Ts,
    e = ratio·qd_ref + kp·(ratio·q_ref − φm) − ωm; friction Rv0 + Rv1·ωm sliding forward."""
    J, k, D, w, ratio, c, d = 0.0013, 1.1616, 0.6, 5500.0, 210.0, 8.0, 0.01
    Rv0, Rv1, kp, ks, Ts, JL = 0.5, 0.1 / 130, 5.0, 0.5, 0.05, 1.3 * 15
    La, C = 250 / (2 * D * w), 0.004 * D / w
    pm, pl, wm, wl, i, vc, xpi = np.asarray(x, dtype=float).tolist()
    dq, ta = 120.0 * np.pi / 180, 0.3               # 3 rad/s reached after 0.3 s at 10 rad/s²
    te = dq / 3.0 + ta
    if t < ta:
        q_ref, qd_ref = 5 * t ** 2, 10 * t
    elif t < te - ta:
        q_ref, qd_ref = 5 * ta ** 2 + 3.0 * (t - ta), 3.0
    else:                                          # decelerating (runs end before te)
        q_ref, qd_ref = dq - 5 * (te - t) ** 2, 10 * (te - t)
    e = ratio * qd_ref + kp * (ratio * q_ref - pm) - wm
    i_ref = ks * (xpi + e)
    tau_s = c * (pm - ratio * pl) + d * (wm - ratio * wl)
    dwm = 0.0 if stuck else (k * i - (Rv0 + Rv1 * wm) - tau_s) / J
    return [0.0 if stuck else wm, wl, dwm, ratio * tau_s / JL,
            (-5 * vc - 250 * i - k * wm) / La, (i - i_ref) / (10 * C), e / Ts]


def _phase(stuck, t):
    """The hand-written equations within a phase of the reference from t on: ẋ = A·x +
    C·(1, t, t²), so z = (x, 1, t, t²) obeys ż = M·z with M constant."""
    A = np.column_stack([np.subtract(_one_axis_rhs(0.5, e, stuck),
                                     _one_axis_rhs(0.5, 0 * e, stuck)) for e in np.eye(7)])
    knots = t + 1e-3 * np.arange(3)                  # b(t) = rhs(t, 0) is quadratic here
    C = np.linalg.solve(np.vander(knots, 3, increasing=True),
                        np.array([_one_axis_rhs(tk, np.zeros(7), stuck) for tk in knots]))
    M = np.zeros((10, 10))
    M[:7, :7], M[:7, 7:], M[8, 7], M[9, 8] = A, C.T, 1.0, 2.0
    return M


def _exact(stuck, t0, x0, times):
    """The hand-written equations solved exactly by the matrix exponential (scipy's expm),
    phase by phase (the reference's kinks at 0.3 s and 0.698 s), at the equally spaced
    ``times`` ≥ t0 (one transition matrix per phase for the spacing)."""
    kinks = [0.3, np.radians(120.0) / 3.0, np.inf]
    out, t, x = [], t0, np.asarray(x0, dtype=float)
    step = times[1] - times[0] if len(times) > 1 else 0.0
    for end in kinks:
        if end <= t:
            continue
        M = _phase(stuck, t)
        z, tz = np.concatenate([x, [1.0, t, t * t]]), t
        inside = [tk for tk in times[len(out):] if tk <= end]
        if inside:
            z, tz = expm(M * (inside[0] - t)) @ z, inside[0]
            out.append(z)
            advance = expm(M * step)
            for _ in inside[1:]:
                z = advance @ z
                out.append(z)
            tz = inside[-1]
        if len(out) == len(times):
            break
        x, t = (expm(M * (end - tz)) @ z)[:7], end
    return np.array(out)[:, :7]


def test_one_axis_matches_an_independent_model(one_axis):
    """Reference: an independent model of the same equations (_one_axis_rhs: the circuit
    reduced by hand, the controller, the elastic gear, the friction stuck until the torque it
    must hold exceeds Rv0, then sliding forward), solved exactly by the matrix exponential
    up to 0.99 s (the friction sticks again at the end of the motion, 0.998 s): the
    breakaway time (Newton on the stuck phase's exact solution) agrees with jourdain's
    event (measured 1e-11 s); load angle, motor speed (up to 635 rad/s) and current agree
    (measured 5e-9 rad, 9e-6 rad/s, 4e-6 A)."""
    system, init, res = one_axis
    c, d, ratio, k = 8.0, 0.01, 210.0, 1.1616
    M = _phase(True, 0.0)
    z0 = np.concatenate([np.zeros(7), [1.0, 0.0, 0.0]])
    row = np.zeros(10)                               # friction torque needed − Rv0 = row·z
    row[[0, 1, 2, 3, 4, 7]] = -c, c * ratio, -d, d * ratio, k, -0.5
    t_break = 5e-4
    for _ in range(20):
        z = expm(M * t_break) @ z0
        dt = -(row @ z) / (row @ M @ z)
        t_break += dt
        if abs(dt) < 1e-14:
            break
    events = res.events.times("robot.axis.gear.bearingFriction", "break_forward")
    assert events[0] == pytest.approx(t_break, abs=1e-8)
    x_break = (expm(M * t_break) @ z0)[:7]
    pick = (res.t > t_break) & (res.t < 0.99)
    exact = _exact(False, t_break, x_break, res.t[pick])
    for name, row, tol in (("robot.load.phi", 1, 1e-7), ("robot.axis.motor.Jmotor.w", 2, 1e-4),
                           ("robot.axis.motor.La.i", 4, 2e-5)):
        assert np.abs(res[name][pick] - exact[:, row]).max() < tol, name


def test_one_axis_follows_its_reference_and_balances_energy(one_axis):
    """Reference: the MSL's statement that the axis follows the reference (max tracking
    error below 0.2°, final angle within 0.02° of 120° at 1.6 s, held by stiction) and the
    energy balance (the op-amps' supplies and the losses of resistors, damper and friction
    against the change of the stored energy)."""
    system, init, res = one_axis
    q, q_ref = res["robot.load.phi"], res["robot.pathPlanning.q_split.y1"]
    assert np.degrees(np.abs(q - q_ref).max()) < 0.2
    assert abs(np.degrees(q[-1]) - 120.0) < 0.02
    assert res.check()
