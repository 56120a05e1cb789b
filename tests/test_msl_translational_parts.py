"""The MSL Translational parts of issue 26 beyond what the examples exercise (msltrans):
the four regularizations of SignForce/RollingResistance, PowerSensor, the Vehicle's inputs
(wind, rolling coefficient, inclination) and a floating gear housing held by a spring only.
Each test states its reference."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (Constant, Fixed, LinearMotor, Mass, Motor, PowerSensor,
                             Regularization, RollingResistance, SignForce,
                             TranslationalIdealGear, TranslationalSpring, Vehicle, World)


def _msl_sign(v, v0, reg):
    """The MSL's SignForce equations (Translational.Sources.SignForce), written out in numpy."""
    if reg == "Exp":
        return 2 / (1 + np.exp(-v / (0.01 * v0))) - 1
    inside = {"Sine": np.sin(np.pi / 2 * v / v0), "Linear": v / v0,
              "CoSine": np.sign(v) * (1 - np.cos(np.pi / 2 * v / v0))}[reg]
    return np.where(np.abs(v) >= v0, np.sign(v), inside)


def _force_at(element, v, flange="flange"):
    """The force the element exerts on a 1 kg mass moving at v: its acceleration from f."""
    model = jd.Model(world=World())
    model.mass, model.load = Mass(m=1.0), element
    model.connect(getattr(model.load, flange), model.mass.flange_a)
    system = jd.compile(model)
    f = system.numeric("f")
    return float(np.asarray(f(0.0, system.state(y0={"mass.s": 0.0}, z0={"mass.v": v}),
                              [], system.parameters()))[-1])


@pytest.mark.parametrize("reg", ["Exp", "Sine", "Linear", "CoSine"])
def test_sign_force_regularizations_follow_the_msl(reg):
    """Reference: the MSL's SignForce equations for each Regularization, inside and outside
    [−v0, v0] (f = f_nominal·reg(v) on the flange)."""
    for v in (-0.7, -0.05, 0.002, 0.03, 0.5):
        got = _force_at(SignForce(f_nominal=-3.0, reg=getattr(Regularization, reg), v0=0.1), v)
        assert got == pytest.approx(-3.0 * _msl_sign(v, 0.1, reg), rel=1e-12, abs=1e-12)


def test_rolling_resistance_with_inputs():
    """Reference: the MSL's RollingResistance, f = −Cr·fWeight·cos(atan(inclination))·
    sign(v) for |v| ≥ v0, with Cr and the inclination from its inputs."""
    model = jd.Model(world=World())
    model.mass = Mass(m=1.0)
    model.roll = RollingResistance(fWeight=500.0, useCrInput=True, useInclinationInput=True,
                                   reg=Regularization.Linear, v0=0.01)
    model.cr, model.grade = Constant(k=0.02), Constant(k=0.3)
    model.connect(model.roll.flange, model.mass.flange_a)
    model.connect(model.cr.y, model.roll.cr)
    model.connect(model.grade.y, model.roll.inclination)
    res = jd.compile(model).simulate(0.5, y0={"mass.s": 0.0}, z0={"mass.v": 20.0}, n_out=51)
    decel = 0.02 * 500.0 * np.cos(np.arctan(0.3))
    assert res["mass.v"][-1] == pytest.approx(20.0 - decel * 0.5, rel=1e-9)


def test_power_sensor_reads_force_times_speed():
    """Reference: a constant force F through a PowerSensor on a mass m from rest: power =
    F·v = F²·t/m (closed form)."""
    model = jd.Model(world=World())
    model.force, model.sensor, model.mass = LinearMotor(), PowerSensor(), Mass(m=2.0)
    model.push = Constant(k=3.0)
    model.connect(model.push.y, model.force.f)
    model.connect(model.force.flange_b, model.sensor.flange_a)
    model.connect(model.sensor.flange_b, model.mass.flange_a)
    res = jd.compile(model).simulate(1.0, y0={"mass.s": 0.0}, z0={"mass.v": 0.0}, n_out=11)
    assert np.allclose(res["sensor.power"], 9.0 * res.t / 2.0, rtol=1e-9, atol=1e-12)


def test_vehicle_inputs_enter_the_resistances():
    """Reference: the MSL Vehicle's driving resistances at the start, m·a = τ/R −
    Cd·A·ρ·(v − vWind)·|v − vWind|/2 − Cr·m·g·cos α − m·g·sin α, with wind, Cr and
    inclination from inputs (the acceleration at v = 10 m/s)."""
    model = jd.Model(world=World())
    model.car = Vehicle(m=200.0, J=0.5, R=0.3, A=2.0, Cd=0.4, useWindInput=True,
                        useCrInput=True, useInclinationInput=True)
    model.torque = Motor()
    for name, value in (("tau", 90.0), ("wind", -5.0), ("cr", 0.015), ("grade", 0.05)):
        setattr(model, name, Constant(k=value))
    for a, b in ((model.tau.y, model.torque.tau), (model.wind.y, model.car.vWind),
                 (model.cr.y, model.car.cr), (model.grade.y, model.car.inclination),
                 (model.torque.flange_b, model.car.flangeR)):
        model.connect(a, b)
    system = jd.compile(model)
    f = system.numeric("f")
    xdot = np.asarray(f(0.0, system.state(y0={"car.mass.s": 0.0}, z0={"car.mass.v": 10.0}), [],
                        system.parameters())).ravel()
    alpha, g = np.arctan(0.05), 9.80665
    force = 90.0 / 0.3 - 0.5 * 0.4 * 2.0 * 1.2 * 15.0 ** 2 - 0.015 * 200 * g * np.cos(alpha) \
        - 200 * g * np.sin(alpha)
    accel = force / (200.0 + 0.5 / 0.3 ** 2)   # J/R² rides on the mass (the rolling wheel)
    assert xdot[system.x_names.index("car.mass.v")] == pytest.approx(accel, rel=1e-12)


def test_gear_housing_on_a_spring_floats():
    """Reference: a translational gear whose housing sits on a spring only (no damper),
    with a mass on each flange: T + V computed by hand with the housing at s_sup =
    (s_a − ratio·s_b)/(1 − ratio) (the gear's relation) equals jourdain's energy and is
    conserved."""
    model = jd.Model(world=World())
    model.m1, model.m2 = Mass(m=1.0), Mass(m=3.0)
    model.gear, model.fixed = TranslationalIdealGear(ratio=2.0), Fixed()
    model.mount = TranslationalSpring(c=50.0)
    for a, b in ((model.m1.flange_b, model.gear.flange_a), (model.gear.flange_b, model.m2.flange_a),
                 (model.fixed.flange, model.mount.flange_a),
                 (model.mount.flange_b, model.gear.support)):
        model.connect(a, b)
    system = jd.compile(model)
    assert system.x_names == ["m1.s", "m2.s", "m1.v", "m2.v"]
    res = system.simulate(2.0, y0={"m1.s": 0.1, "m2.s": 0.0}, z0={"m1.v": 0.0, "m2.v": 0.3},
                          n_out=201, rtol=1e-11, atol=1e-12)
    s_sup = (res["m1.s"] - 2.0 * res["m2.s"]) / (1 - 2.0)       # the gear's relation
    E = 0.5 * res["m1.v"] ** 2 + 1.5 * res["m2.v"] ** 2 + 25.0 * s_sup ** 2
    assert np.allclose(res["energy.total"], E, rtol=1e-12, atol=1e-14)
    assert np.ptp(E) < 1e-8 * E[0] and np.ptp(s_sup) > 0.01   # conserved; the housing moves


def test_mass_with_stop_and_friction_flanges_at_its_ends():
    """Reference: the MSL's geometry (MassWithStopAndFriction extends Mass: flange_a at
    s − L/2, flange_b at s + L/2) and static equilibrium in closed form. A spring
    (c = 100 N/m, s_rel0 = 1.5 m) from a wall at −2.5 m to flange_a is unstretched with the
    centre at −0.5 m: started there at rest the body stays (no force; with the flanges at the
    centre the spring would push 50 N, beyond the friction's 15 N limit), flange_b reads
    0.0 m, and the stops limit the ends to [smin, smax]."""
    from jourdain.blocks import Fixed, PositionSensor, TranslationalSpring
    from jourdain.library import MassWithStopAndFriction
    model = jd.Model(world=World())
    model.body = MassWithStopAndFriction(L=1.0, smax=1.5, smin=-1.5, m=1.0)
    model.wall, model.spring = Fixed(s0=-2.5), TranslationalSpring(c=100.0, s_rel0=1.5)
    model.end_a, model.end_b = PositionSensor(), PositionSensor()
    model.connect(model.wall.flange, model.spring.flange_a)
    model.connect(model.spring.flange_b, model.body.flange_a)
    model.connect(model.end_a.flange, model.body.flange_a)
    model.connect(model.end_b.flange, model.body.flange_b)
    system = jd.compile(model)
    res = system.simulate(1.0, y0={"body.mass.s": -0.5}, n_out=11)
    assert np.abs(res["body.mass.s"] + 0.5).max() < 1e-12
    assert np.abs(res["end_a.s"] + 1.0).max() < 1e-12
    assert np.abs(res["end_b.s"]).max() < 1e-12
    # pulled to the wall (s_rel0 = 0.5 m: the end rests at −2.0 m beyond smin = −1.5 m)
    # the stop holds the end at smin: the centre at smin + L/2
    model.spring.s_rel0 = 0.5
    res = jd.compile(model).simulate(2.0, y0={"body.mass.s": -0.5}, n_out=21)
    assert res["end_a.s"][-1] == pytest.approx(-1.5, abs=1e-9)
    assert res["body.mass.s"][-1] == pytest.approx(-1.0, abs=1e-9)


def test_elasto_gap_declares_its_stiffness():
    """Reference: the integrator choice of docs/simulation.md — a component that declares
    fast dynamics makes Method.AUTO take BDF whatever the start and the horizon. An ElastoGap
    open at the start (c = 1e6 N/m on 10 g: stiff only once closed, which the stiffness test
    at x0 cannot see) ran Adams or BDF depending on the horizon (MSL PreLoad: BDF for 40 s,
    Adams for 45 s and 100 s, 0.2 s against 48 s CPU); now BDF for both, named as the
    reason, and the motion is the same: the plate comes to rest on the contact where the
    spring's 30 N compress it by 30 N / c (closed form)."""
    from jourdain.blocks import Constant, Fixed, LinearMotor, Mass, World
    from jourdain.blocks.hybrid import ElastoGap
    model = jd.Model(world=World())
    model.wall, model.plate = Fixed(), Mass(m=0.01)
    model.gap = ElastoGap(c=1e6, d=250.0, s_rel0=0.001)
    model.push, model.force = Constant(k=-30.0), LinearMotor()
    model.connect(model.wall.flange, model.gap.flange_a)
    model.connect(model.gap.flange_b, model.plate.flange_a)
    model.connect(model.push.y, model.force.f)
    model.connect(model.force.flange_b, model.plate.flange_a)
    system = jd.compile(model)
    for horizon in (5.0, 100.0):
        res = system.simulate(horizon, y0={"plate.s": 0.002}, n_out=11)
        assert res.method is jd.Method.BDF
        assert "declared stiff by gap" in res.stats["method_reason"]
        assert res["plate.s"][-1] == pytest.approx(0.001 - 30.0 / 1e6, abs=1e-12)
