"""DC motors and cross-domain energy (issue 14): the motor's closed forms, the EMF's power
conservation, the energy balance of a voltage-driven mechanism, the library's electric cubes
and robot axis, and the examples."""
import re
import runpy
from pathlib import Path

import numpy as np
import pytest
from conftest import ROUNDOFF

import jourdain as jd
from jourdain.blocks import Fixed, Ground, Revolute, RigidBody, SignalVoltage, TorqueSensor, World
from jourdain.library import (
    DCMotor,
    DCMotorDrive,
    ElectricCubeOnCorner,
    ElectricCubeOnEdge,
    RobotAxis,
)

R, L, K, J, D = 1.0, 0.01, 0.1, 0.01, 1e-3


class Powered(jd.Composite):
    """A SignalVoltage on a DCMotor's pins; ``locked`` holds the shaft by a TorqueSensor on a
    Fixed flange; ``arm`` hangs a pendulum on the shaft through a revolute joint."""

    def __init__(self, locked=False, arm=False, **motor):
        super().__init__()
        self.source, self.ground = SignalVoltage(), Ground()
        self.motor = DCMotor(**({"R": R, "L": L, "k": K, "J": J, "d": D} | motor))
        self.connect(self.source.p, self.motor.p)
        self.connect(self.motor.n, self.source.n)
        self.connect(self.source.n, self.ground.p)
        if locked:
            self.sensor, self.lock = TorqueSensor(), Fixed()
            self.connect(self.motor.flange, self.sensor.flange_a)
            self.connect(self.sensor.flange_b, self.lock.flange)
        if arm:
            self.joint = Revolute(axis=(0, 0, 1))
            self.link = RigidBody(m=0.5, r_cm=(0.2, 0, 0), I=(1e-3, 2e-3, 2e-3))
            self.connect(self.joint.frame_b, self.link.frame_a)
            self.connect(self.motor.flange, self.joint.axis)
            self.expose(self.joint.frame_a, "frame_a")


def test_steady_state_speed_and_current():
    """Reference: ω = k·V/(k² + R·d), i = d·V/(k² + R·d) at steady state (ẋ = 0 of the
    armature and rotor equations), found as the equilibrium the linearization confirms."""
    system = jd.compile(jd.Model(World(), m=Powered()))
    V = 12.0
    w, i = K * V / (K ** 2 + R * D), D * V / (K ** 2 + R * D)
    xdot = np.array(system.f(0, [0.0, w, i], [V], [])).ravel()
    assert np.abs(xdot[1:]).max() < 1e-12
    res = system.simulate(20.0, inputs={"m.source.v": V}, n_out=3)
    assert res["m.motor.rotor.w"][-1] == pytest.approx(w, rel=1e-7)
    assert res["m.motor.inductor.i"][-1] == pytest.approx(i, rel=1e-6)


def test_electrical_time_constant_and_locked_rotor_torque():
    """Reference: with the rotor held, i(t) = V/R·(1 − e^(−tR/L)) and the torque read by the
    sensor between the shaft and the Fixed flange is k·i, reaching k·V/R."""
    system = jd.compile(jd.Model(World(), m=Powered(locked=True)))
    res = system.simulate(0.1, inputs={"m.source.v": 12.0}, n_out=101, rtol=1e-10,
                          atol=1e-10)
    i_exact = 12.0 / R * (1 - np.exp(-res.t * R / L))
    assert np.abs(res["m.motor.inductor.i"] - i_exact).max() < 1e-7
    assert np.abs(res["m.sensor.tau"] - K * res["m.motor.inductor.i"]).max() < 1e-12
    assert res["m.sensor.tau"][-1] == pytest.approx(K * 12.0 / R, rel=1e-4)


def test_emf_conserves_power_and_motor_without_inductance():
    """Reference: the EMF converts power without loss, v·i = τ·ω (v = k·ω, τ = k·i), so the
    electrical input V·i equals R·i² + d·ω² + d/dt(½Jω²); with L = 0 the current is
    algebraic, i = (V − k·ω)/R, and no electrical state remains."""
    system = jd.compile(jd.Model(World(), m=Powered(L=0.0)))
    assert system.x_names == ["m.motor.rotor.phi", "m.motor.rotor.w"]
    for w, V in ((3.0, 12.0), (-20.0, 5.0)):
        i = (V - K * w) / R
        acc = float(system.f(0, [0.0, w], [V], [])[1])
        assert acc == pytest.approx((K * i - D * w) / J, rel=1e-13)
        supplied = float(system.supplied(0, [0.0, w], [V], []))
        dissipated = float(system.dissipation(0, [0.0, w], [V], []))
        assert supplied == pytest.approx(V * i, rel=1e-13)
        assert supplied == pytest.approx(dissipated + J * w * acc, rel=1e-12)


def test_cross_domain_power_balance_along_a_voltage_profile():
    """Reference: energy conservation across domains, E(t) − E(0) = ∫(P_supplied −
    P_dissipated) dt with E = T + V_gravity + ½·L·i² for a pendulum driven through a DC motor
    by a voltage profile (trapezoid rule on a fine grid)."""
    model = jd.Model.on_world(World(), m=Powered(arm=True, J=1e-3))
    system = jd.compile(model)
    res = system.simulate(2.0, inputs={"m.source.v": lambda t: 4 * np.sin(3 * t) + 2 * t},
                          n_out=4001, rtol=1e-11, atol=1e-11)
    net = res["power.supplied"] - res["power.dissipated"]
    integral = np.concatenate([[0], np.cumsum(0.5 * np.diff(res.t) * (net[1:] + net[:-1]))])
    E = res["energy.total"]
    scale = np.trapezoid(np.abs(res["power.supplied"]), res.t)
    assert np.abs(E - E[0] - integral).max() < 1e-6 * scale
    assert np.abs(res["energy.stored"] - 0.5 * L * res["m.motor.inductor.i"] ** 2).max() < 1e-15


def test_electric_cubes_compile_with_current_states():
    """Reference: the DC-motor cubes have the torque-driven cubes' coordinates plus one
    armature current per wheel; at rest upright with zero voltage they are in equilibrium."""
    edge = jd.compile(jd.Model.on_world(World(), cube=ElectricCubeOnEdge()))
    assert edge.x_names[-1] == "cube.drive.motor.inductor.i" and edge.u_names == \
        ["cube.drive.v_ref"]
    # equilibrium to round-off of the gravity terms (g/l ~ 1e2 1/s², a few dozen operations)
    assert np.abs(np.array(edge.f(0, np.zeros(5), [0.0], []))).max() <= ROUNDOFF * 1e2
    corner = jd.compile(jd.Model.on_world(World(), cube=ElectricCubeOnCorner()))
    assert corner.u_names == [f"cube.drive{i}.v_ref" for i in (1, 2, 3)]
    assert len(corner.s_names) == 3


def test_drive_saturates_and_measures_current():
    """Reference: at a commanded 50 V the H-bridge gives its 24 V supply: the locked-motor
    current settles at 24/R, read by the drive's ammeter."""
    class Held(jd.Composite):
        def __init__(self):
            super().__init__()
            self.drive, self.lock = DCMotorDrive(V_supply=24.0, R=2.0, L=1e-3, k=0.1), Fixed()
            self.connect(self.drive.flange, self.lock.flange)
    res = jd.compile(jd.Model(World(), h=Held())).simulate(
        0.05, inputs={"h.drive.v_ref": 50.0}, n_out=3)
    assert res["h.drive.ammeter.i"][-1] == pytest.approx(12.0, rel=1e-8)


def test_robot_axis_reaches_its_target():
    """Reference: the reference motion ends at 120° at t = 1.1 s and the P-PI-PI cascade has
    integral action: at 1.6 s the joint is within 0.05° of the target, and with a rigid gear
    the joint inertia is J_load + ratio²·J_motor."""
    system = jd.compile(jd.Model.on_world(World(), axis=RobotAxis()))
    res = system.simulate(1.6, n_out=161)
    assert res["axis.joint.phi"][-1] == pytest.approx(np.radians(120), abs=np.radians(0.05))
    rigid = jd.compile(jd.Model.on_world(World(), axis=RobotAxis(c=None)))
    assert float(np.array(rigid.M([0.0], []))[0, 0]) == pytest.approx(19.5 + 210 ** 2 * 0.0013,
                                                                      rel=1e-13)


EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _run(script: str, tmp_path, monkeypatch, capsys) -> str:
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(EXAMPLES / script), run_name="__main__")
    assert (tmp_path / "out" / script.replace(".py", ".png")).stat().st_size > 1000
    return capsys.readouterr().out


def test_dc_motor_example(tmp_path, monkeypatch, capsys):
    """Reference: the closed forms the example prints next to the simulated values agree."""
    out = _run("dc_motor.py", tmp_path, monkeypatch, capsys)
    resonance = re.search(r"damped resonance (\S+) rad/s, closed form .* = (\S+) rad/s", out)
    assert float(resonance.group(1)) == pytest.approx(float(resonance.group(2)), rel=1e-6)
    torque = re.search(r"torque (\S+) N·m \(closed form k·V/R = (\S+)\)", out)
    assert float(torque.group(1)) == pytest.approx(float(torque.group(2)), rel=1e-3)
    assert float(re.search(r"dt\| = (\S+) J", out).group(1)) < 1e-3


def test_robot_axis_example(tmp_path, monkeypatch, capsys):
    """Reference: the printed rigid-gear mass matrix equals J_load + ratio²·J_motor."""
    out = _run("robot_axis.py", tmp_path, monkeypatch, capsys)
    match = re.search(r"mass matrix (\S+) kg·m² = .* = (\S+)", out)
    assert float(match.group(1)) == pytest.approx(float(match.group(2)), rel=1e-6)


def test_electric_cube_example(tmp_path, monkeypatch, capsys):
    """Reference: the voltage LQR balances (tilt after 4 s far below the initial 0.1 rad),
    the swing-up respects its current limit and re-simulates to the plan."""
    out = _run("electric_cube.py", tmp_path, monkeypatch, capsys)
    assert abs(float(re.search(r"phi\(4 s\) = (\S+) rad", out).group(1))) < 1e-3
    peak = float(re.search(r"peak current (\S+) A \(limit (\S+)\)", out).group(1))
    assert peak <= 15.0 + 1e-6
    assert float(re.search(r"re-simulation deviation (\S+)", out).group(1)) < 1e-4


def test_readme_drive_train_example_runs(capsys):
    """Reference: the README's geared arm prints the reflected inertia 0.095 + 20²·0.01 and
    an energy change equal to the net supplied energy (to the trapezoid rule's accuracy)."""
    readme = Path(__file__).resolve().parents[1] / "README.md"
    block = [b for b in re.findall(r"```python\n(.*?)```", readme.read_text(), flags=re.S)
             if "GearedArm" in b][0]
    exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "4.095" in out
    delta, work = (float(v) for v in re.search(r"= (\S+) J, .* = (\S+) J", out).groups())
    assert delta == pytest.approx(work, abs=2e-3 * max(1.0, abs(work)))


def test_fmu_of_a_drive_with_electrical_and_controller_states(tmp_path):
    """Reference: FMPy (an independent FMI importer with its own CVODE) simulating the FMU of
    the robot axis (armature current, PI states, motor rotor, elastic gear) gives the System's
    own trajectory to 1e-6 rad."""
    import shutil
    fmpy = pytest.importorskip("fmpy")
    if shutil.which("gcc") is None:
        pytest.skip("an FMU needs gcc")
    system = jd.compile(jd.Model.on_world(World(), axis=RobotAxis()))
    path = system.export_fmu(tmp_path / "axis.fmu")
    fmu = fmpy.simulate_fmu(str(path), stop_time=1.6, output=["axis.joint.phi"],
                            output_interval=0.01)
    own = system.simulate(1.6, t_out=fmu["time"])
    assert np.abs(fmu["axis.joint.phi"] - own["axis.joint.phi"]).max() < 1e-6
