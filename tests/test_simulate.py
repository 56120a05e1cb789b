"""Simulation API: inputs (constants, callables, tables, wired signal sources), parameters,
output grids and the Result. References: closed forms where the motion is known (a cart pushed
by a constant force: s = F·t²/(2m); a motor on a free wheel: ψ̇ = ∫T/J dt)."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (AngleSensor, Constant, LinearMotor, Motor, PositionSensor,
                             Prismatic, Revolute, RigidBody, Sine, Step, Table, World)


def _cart(m=2.0):
    """A cart on a horizontal slider (gravity ⟂ motion) pushed by a LinearMotor."""
    model = jd.Model(world=World())
    model.slider, model.cart, model.motor = Prismatic(axis=(1, 0, 0)), RigidBody(m=m), LinearMotor()
    model.sensor = PositionSensor()
    model.connect(model.world.frame_b, model.slider.frame_a)
    model.connect(model.slider.frame_b, model.cart.frame_a)
    model.connect(model.motor.flange_b, model.slider.axis)
    model.connect(model.sensor.flange, model.slider.axis)
    return model


def _wheel(J=0.1):
    """A wheel on a vertical axis (no gravity torque) driven by a Motor."""
    model = jd.Model(world=World())
    model.axle, model.wheel, model.motor = Revolute(axis=(0, 1, 0)), RigidBody(m=1, I=(J / 2, J, J / 2)), Motor()
    model.sensor = AngleSensor()
    model.connect(model.world.frame_b, model.axle.frame_a)
    model.connect(model.axle.frame_b, model.wheel.frame_a)
    model.connect(model.motor.flange_b, model.axle.axis)
    model.connect(model.sensor.flange, model.axle.axis)
    return model


def test_constant_force_gives_parabola():
    system = jd.compile(_cart(m=2.0))
    res = system.simulate(3.0, inputs={"motor.f": 4.0}, rtol=1e-10, atol=1e-12)
    assert np.allclose(res["slider.s"], 4.0 * res.t**2 / (2 * 2.0), atol=1e-8)
    assert np.allclose(res["sensor.s"], res["slider.s"]) and np.allclose(res["sensor.v"], res["slider.v"])
    assert np.allclose(res["motor.f"], 4.0)


@pytest.mark.parametrize("kind", ["callable", "table"])
def test_time_varying_inputs(kind):
    """T(t) = 0.3·t on a wheel of inertia J: ψ̇ = 0.15·t²/J (the table is exact for a ramp)."""
    J = 0.1
    system = jd.compile(_wheel(J))
    spec = (lambda t: 0.3 * t) if kind == "callable" else ([0.0, 2.0], [0.0, 0.6])
    res = system.simulate(2.0, inputs={"motor.tau": spec}, rtol=1e-10, atol=1e-12, n_out=21)
    assert np.allclose(res["axle.w"], 0.15 * res.t**2 / J, rtol=1e-7, atol=1e-9)
    assert np.allclose(res["motor.tau"], 0.3 * res.t)


def _triangle_integral(t):
    return np.where(t <= 1, t**2 / 2, 0.5 + (t - 1) - (t - 1) ** 2 / 2)


@pytest.mark.parametrize("source, torque, impulse", [
    (Constant(k=0.2), lambda t: 0.2 + 0 * t, lambda t: 0.2 * t),
    (Step(height=0.5, t_step=1.0), lambda t: 0.5 * (t >= 1.0), lambda t: 0.5 * np.maximum(t - 1, 0)),
    (Sine(amplitude=0.2, f=0.5), lambda t: 0.2 * np.sin(np.pi * t),
     lambda t: 0.2 * (1 - np.cos(np.pi * t)) / np.pi),
    (Table([0, 1, 2], [0, 1, 0]), lambda t: np.interp(t, [0, 1, 2], [0, 1, 0]), _triangle_integral),
])
def test_wired_signal_sources_drive_the_motor(source, torque, impulse):
    """ψ̇(t) = ∫T dt / J for each source (closed-form integrals)."""
    J = 0.1
    model = _wheel(J)
    model.source = source
    model.connect(model.source.y, model.motor.tau)
    system = jd.compile(model)
    assert system.u_names == [] and "source.y" in system.output_names
    res = system.simulate(2.0, rtol=1e-10, atol=1e-12, n_out=201)
    assert np.allclose(res["source.y"], torque(res.t), atol=1e-12)
    assert np.allclose(res["axle.w"], impulse(res.t) / J, atol=1e-6)


def test_symbolic_parameter_sweep_without_recompiling():
    system = jd.compile(_cart(), parameters=["cart.m"])
    assert system.p_names == ["cart.m"] and system.p_default.tolist() == [2.0]
    for m in (0.5, 1.0, 8.0):
        res = system.simulate(1.0, inputs={"motor.f": 1.0}, params={"cart.m": m}, n_out=3)
        assert res["slider.s"][-1] == pytest.approx(1.0 / (2 * m), rel=1e-6)


def test_output_grid_and_result_access(tmp_path):
    system = jd.compile(_wheel())
    res = system.simulate(1.0, t_out=[0.0, 0.25, 1.0], inputs={"motor.tau": 1.0})
    assert res.t.tolist() == [0.0, 0.25, 1.0]   # the requested grid itself, not computed
    assert set(["axle.phi", "axle.w", "motor.tau", "sensor.phi", "energy.total",
                "power.dissipated"]) <= set(res.names)
    assert res.final()["axle.w"] == pytest.approx(10.0, rel=1e-6)
    with pytest.raises(jd.ModelError, match="no series named 'axle.ph'; did you mean axle.phi"):
        res["axle.ph"]
    fig = res.plot("axle.phi", "axle.w", path=tmp_path / "wheel.png", title="wheel")
    assert (tmp_path / "wheel.png").stat().st_size > 1000 and len(fig.axes) == 2


def test_adams_and_bdf_agree():
    system = jd.compile(_wheel())
    a = system.simulate(1.0, inputs={"motor.tau": lambda t: np.cos(t)}, method=jd.Method.ADAMS)
    b = system.simulate(1.0, inputs={"motor.tau": lambda t: np.cos(t)}, method=jd.Method.BDF)
    assert np.allclose(a["axle.phi"], b["axle.phi"], atol=1e-6)
