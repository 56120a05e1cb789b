"""Sampled (discrete-time) blocks in a continuous plant (issue 13). References: the
definition of a zero-order hold (y = u(t_k) on [t_k, t_k + T)); the PID difference equations
evaluated by hand on the sampled errors; convergence of a sampled LQR to the continuous one
as the sample period shrinks (the discretization error is O(T))."""
import numpy as np
import pytest
from hybrid_models import slider

import jourdain as jd
from jourdain.blocks import AngleSensor, Composite, Mux, Saturation, Sine, World
from jourdain.blocks.hybrid import DiscretePID, DiscreteStateFeedback, ZeroOrderHold
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
    # the grid shows the left limit at the sample instants themselves
    at_sample = np.isclose((t - 0.05) / 0.1, np.round((t - 0.05) / 0.1), atol=1e-9) &\
        (t > 0.05 - 1e-12)
    before = np.where(k - 1 >= 0, np.sin(2 * np.pi * 1.3 * (0.05 + 0.1 * (k - 1))), 0.0)
    assert np.allclose(np.where(at_sample, before, expected), res["zoh.y"], atol=1e-12)


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


