"""Sampled (discrete-time) blocks in a continuous plant (issue 13). References: the
definition of a zero-order hold (y = u(t_k) on [t_k, t_k + T)); the PID difference equations
evaluated by hand on the sampled errors; convergence of a sampled LQR to the continuous one
as the sample period shrinks (the discretization error is O(T))."""
import numpy as np
import pytest
from hybrid_models import slider

import jourdain as jd
from jourdain.blocks import AngleSensor, Composite, Mux, Saturation, Sine, World
from jourdain.blocks.hybrid import DiscretePID, DiscreteStateFeedback, Stop, ZeroOrderHold
from jourdain.library import BalancedCubeOnEdge, CubeOnEdge


def test_zero_order_hold_holds_the_sampled_value():
    model = jd.Model(world=World())
    slider(model, "mass", 1.0)
    model.source = Sine(amplitude=1.0, f=1.3)
    model.zoh = ZeroOrderHold(sample_period=0.1, start_time=0.05)
    model.connect(model.source.y, model.zoh.u)
    system = jd.compile(model)
    res = system.simulate(1.0, t_out=np.linspace(0, 1, 1001))
    t = res.t
    k = np.floor((t - 0.05) / 0.1 + 1e-9)
    expected = np.where(k >= 0, np.sin(2 * np.pi * 1.3 * (0.05 + 0.1 * k)), 0.0)
    # an output at a sample instant shows the value after the sample (as Modelica's result
    # at an event's right limit): y is right-continuous
    assert np.allclose(expected, res["zoh.y"], atol=1e-12)


def test_discrete_pid_follows_its_difference_equations():
    """A DiscretePID (k_p, k_i, k_d, T_f) on a sine error: its held output matches the
    difference equations run by hand on e(t_k)."""
    k_p, k_i, k_d, T_f, T = 2.0, 5.0, 0.3, 0.02, 0.05
    model = jd.Model(world=World())
    slider(model, "mass", 1.0)
    model.error = Sine(amplitude=0.7, f=2.0)
    model.pid = DiscretePID(k_p, k_i, k_d, T_f, sample_period=T)
    model.connect(model.error.y, model.pid.e)
    res = jd.compile(model).simulate(1.0, t_out=np.arange(0, 1.0001, T / 2))
    integral = e_last = derivative = 0.0
    for k, t_k in enumerate(np.arange(0, 1.0, T)):
        e = 0.7 * np.sin(2 * np.pi * 2.0 * t_k)
        derivative = (T_f * derivative + k_d * (e - e_last)) / (T_f + T)
        integral += T * e
        y = k_p * e + k_i * integral + derivative
        e_last = e
        held = res["pid.y"][(res.t > t_k + 1e-9) & (res.t < t_k + T - 1e-9)]
        assert np.allclose(held, y, atol=1e-12), k


def _sampled_cube(K, T):
    class SampledCube(Composite):
        def __init__(self):
            super().__init__()
            self.cube = CubeOnEdge()
            self.edge_sensor, self.wheel_sensor = AngleSensor(), AngleSensor()
            self.state = Mux(1, 1, 1)
            self.controller = DiscreteStateFeedback(K, T)
            self.limit = Saturation(0.1)
            for a, b in ((self.edge_sensor.flange, self.cube.edge.axis),
                         (self.wheel_sensor.flange, self.cube.bearing.axis),
                         (self.edge_sensor.phi, self.state.u1),
                         (self.edge_sensor.w, self.state.u2),
                         (self.wheel_sensor.w, self.state.u3),
                         (self.state.y, self.controller.x), (self.controller.u, self.limit.u),
                         (self.limit.y, self.cube.motor.tau)):
                self.connect(a, b)
            self.expose(self.cube.frame_a, "frame_a")
    return jd.compile(jd.Model.on_world(World(), bal=SampledCube()))


def test_sampled_lqr_converges_to_the_continuous_loop():
    """The cube balanced by an LQR gain: sampled at 1 kHz the tilt stays within 3e-4 rad of
    the continuous loop's, at 100 Hz within 3e-3 (error ∝ T), and both settle."""
    edge = jd.compile(jd.Model.on_world(World(), cube=CubeOnEdge()))
    lin = jd.linearize(edge).select([f"cube.{s}" for s in BalancedCubeOnEdge.STATES])
    fb = jd.lqr(lin, Q={"cube.edge.phi": 100.0, "cube.edge.w": 1.0, "cube.bearing.w": 1e-3},
                R=[[1e3]])
    continuous = jd.compile(jd.Model.on_world(World(), bal=BalancedCubeOnEdge(fb.K, 0.1)))
    y0 = {"bal.cube.edge.phi": 0.1}
    ref = continuous.simulate(2.0, y0=y0, n_out=201)["bal.cube.edge.phi"]
    deviations = []
    for T in (1e-3, 1e-2):
        res = _sampled_cube(fb.K, T).simulate(2.0, y0=y0, n_out=201)
        deviations.append(np.abs(res["bal.cube.edge.phi"] - ref).max())
        assert abs(res["bal.cube.edge.phi"][-1]) < 5e-3
    assert deviations[0] < 3e-4 and deviations[1] < 3e-3
    assert 5 < deviations[1] / deviations[0] < 20        # first order in T


def test_sample_period_must_be_positive():
    for bad in (0.0, -1e-3, float("nan")):
        with pytest.raises(jd.ModelError, match="sample_period"):
            ZeroOrderHold(sample_period=bad)
    with pytest.raises(jd.ModelError, match="sample_period"):
        DiscreteStateFeedback([[1.0, 2.0]], sample_period=0)
    with pytest.raises(jd.ModelError, match="sample period"):
        jd.SampledCallback(-0.1, lambda t, x, u, p: [0.0], ["u"])




def _pushed_mass():
    model = jd.Model(world=World())
    joint = slider(model, "mass", 1.0)
    model.motor = jd.blocks.LinearMotor()
    model.connect(model.motor.flange_b, joint.axis)
    return model, joint


def test_sampled_controller_runs_in_the_event_loop():
    """simulate(controller=..., period=...) on a free mass, f_k = −4·s(t_k) held for T = 0.1 s.
    Reference: the exact sampled dynamics s_{k+1} = s_k + T·v_k + T²/2·f_k,
    v_{k+1} = v_k + T·f_k; eleven controller calls on [0, 1] s (t_end samples too)."""
    system = jd.compile(_pushed_mass()[0])
    i = system.x_names.index("mass.s")
    res = system.simulate(1.0, y0={"mass.s": 1.0}, controller=lambda t, x: [-4.0 * x[i]],
                          period=0.1, n_out=11, rtol=1e-12, atol=1e-12)
    s, v, forces = 1.0, 0.0, []
    for _ in range(10):
        forces.append(-4.0 * s)
        s, v = s + 0.1 * v + 0.005 * forces[-1], v + 0.1 * forces[-1]
    assert res["mass.s"][-1] == pytest.approx(s, abs=1e-9)
    assert res["motor.f"][:10] == pytest.approx(forces, abs=1e-9)   # right limits
    assert res.controller_calls == 11


def test_sampled_controller_with_a_stop_in_the_plant():
    """The sampled controller pushes the mass into a stop at s = −0.5 (e = 0.5): the stop's
    impact is an event of the same loop. References: Newton's law at the impact
    (v⁺ = −e·v⁻), the stop never penetrated, the held force constant between samples."""
    model, joint = _pushed_mass()
    model.stop = Stop(lower=-0.5, e=0.5, v_rest=0.0)
    model.connect(model.stop.flange_b, joint.axis)
    system = jd.compile(model)
    i, k = system.x_names.index("mass.s"), system.x_names.index("mass.v")
    res = system.simulate(1.0, y0={"mass.s": 1.0}, controller=lambda t, x: [-4.0 * x[i] - 2.0],
                          period=0.05, n_out=201, rtol=1e-10, atol=1e-10)
    hits = res.events.select("stop", "hit_lower")
    assert len(hits) >= 1
    assert hits[0].x_after[k] == pytest.approx(-0.5 * hits[0].x_before[k], abs=1e-9)
    assert res["mass.s"].min() >= -0.5 - 1e-9
    f = res["motor.f"]
    assert all(np.ptp(f[10 * j:10 * j + 10]) < 1e-12 for j in range(20))
