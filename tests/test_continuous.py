"""Signal blocks with states (Modelica Blocks.Continuous) and the component state contract:
step responses against closed forms and scipy, the three initializations, and a user-written
block with states as documented in docs/domains.md."""
from math import factorial
from typing import ClassVar

import numpy as np
import pytest
from scipy import signal

import jourdain as jd
from jourdain.blocks import (
    Butterworth,
    Constant,
    CriticalDamping,
    FirstOrder,
    Init,
    Integrator,
    RealInput,
    RealOutput,
    SecondOrder,
    SignalBlock,
    Step,
    TransferFunction,
    World,
)


def step_response(block, t_end=1.0, n_out=201, height=1.0, start=0.0, z0=None):
    """Simulate ``block`` fed by a step of ``height`` at ``start``; return (t, y)."""
    class Bench(jd.Composite):
        def __init__(self):
            super().__init__()
            self.src, self.block = Step(height=height, t_step=start), block
            self.connect(self.src.y, self.block.u)
    res = jd.compile(jd.Model(World(), b=Bench())).simulate(
        t_end, n_out=n_out, rtol=1e-11, atol=1e-11, z0=z0)
    return res.t, res["b.block.y"], res


@pytest.mark.parametrize("n", [1, 2, 4])
def test_critical_damping_step_is_the_erlang_distribution(n):
    """Reference: y(t) = 1 − e^(−ωt)·Σ_{k<n} (ωt)^k/k!, ω = 2πf/√(2^(1/n) − 1) (normalized),
    and |H(j·2πf)| = 1/√2 at the cut-off (the normalization)."""
    f = 2.0
    t, y, _ = step_response(CriticalDamping(n=n, f=f))
    w = 2 * np.pi * f / np.sqrt(2 ** (1 / n) - 1)
    exact = 1 - np.exp(-w * t) * sum((w * t) ** k / factorial(k) for k in range(n))
    assert np.abs(y - exact).max() < 1e-8
    assert abs(1 / (1 + 1j * 2 * np.pi * f / w) ** n) == pytest.approx(2 ** -0.5, rel=1e-12)


def test_butterworth_second_order_closed_form():
    """Reference: the 2nd-order Butterworth step y = 1 − e^(−ζωt)(cos ω_d t + ζ/√(1−ζ²)·
    sin ω_d t), ζ = 1/√2, ω = 2πf."""
    t, y, _ = step_response(Butterworth(n=2, f=2.0))
    w, z = 4 * np.pi, 2 ** -0.5
    wd = w * np.sqrt(1 - z * z)
    exact = 1 - np.exp(-z * w * t) * (np.cos(wd * t) + z / np.sqrt(1 - z * z) * np.sin(wd * t))
    assert np.abs(y - exact).max() < 1e-8


@pytest.mark.parametrize("n", [3, 4, 5])
def test_butterworth_agrees_with_scipy(n):
    """Reference: scipy.signal.butter(n, 2πf, analog=True) step response (an established
    implementation of the same filter)."""
    t, y, _ = step_response(Butterworth(n=n, f=1.5), t_end=2.0)
    b, a = signal.butter(n, 2 * np.pi * 1.5, analog=True)
    _, expected = signal.step((b, a), T=t)
    assert np.abs(y - expected).max() < 1e-7


@pytest.mark.parametrize("block, exact", [
    (FirstOrder(k=2.0, T=0.2), lambda t: 2.0 * (1 - np.exp(-t / 0.2))),
    (Integrator(k=3.0, y_start=0.5), lambda t: 0.5 + 3.0 * t),
    (SecondOrder(k=1.0, w=10.0, D=0.3), lambda t: 1 - np.exp(-3 * t) * (
        np.cos(np.sqrt(91) * t) + 3 / np.sqrt(91) * np.sin(np.sqrt(91) * t))),
    (TransferFunction([2.0, 1.0], [1.0, 3.0, 2.0]),
     lambda t: 0.5 + np.exp(-t) - 1.5 * np.exp(-2 * t)),
])
def test_first_and_second_order_steps(block, exact):
    """Reference: closed-form step responses (partial fractions for (2s + 1)/((s+1)(s+2)):
    1/2 + e^(−t) − 3/2·e^(−2t))."""
    t, y, _ = step_response(block)
    assert np.abs(y - exact(t)).max() < 1e-8


def test_steady_state_initialization_starts_settled():
    """Reference: with Init.STEADY_STATE the derivatives vanish at t0, so a constant input
    keeps every filter at its DC value (gain 1) from the start."""
    class Bench(jd.Composite):
        def __init__(self):
            super().__init__()
            self.src = Constant(k=3.0)
            self.blocks = [self.add(f"f{i}", b) for i, b in enumerate((
                CriticalDamping(n=3, f=2.0, init=Init.STEADY_STATE),
                Butterworth(n=3, f=2.0, init=Init.STEADY_STATE),
                TransferFunction([1.0], [0.5, 1.0], init=Init.STEADY_STATE)))]
            for b in self.blocks:
                self.connect(self.src.y, b.u)
    system = jd.compile(jd.Model(World(), b=Bench()))
    assert len(system.s_init) == 3 + 3 + 1
    res = system.simulate(1.0, n_out=5)
    for i in range(3):
        assert np.abs(res[f"b.f{i}.y"] - 3.0).max() < 1e-10


def test_initial_output_and_held_states():
    """Reference: Init.INITIAL_OUTPUT starts y at y_start with the other states steady (a
    first-order lag then relaxes as y_start + (u − y_start)(1 − e^(−t/T))); a state given in
    z0 is held instead of solved."""
    _, y, res = step_response(FirstOrder(T=0.1, y_start=2.0, init=Init.INITIAL_OUTPUT),
                              n_out=11)
    assert np.abs(y - (2.0 - (1 - np.exp(-res.t / 0.1)))).max() < 1e-8
    _, y, _ = step_response(FirstOrder(T=0.1, init=Init.STEADY_STATE), n_out=3,
                            z0={"b.block.x": 0.25})
    assert y[0] == pytest.approx(0.25, rel=1e-14)


def test_integrator_cannot_start_in_steady_state():
    """Reference: der(x) = k·u does not involve x, so der(x) = 0 cannot fix it (Modelica's
    documentation of Init.SteadyState for integrators): a named error."""
    with pytest.raises(jd.ModelError, match="b.block do not determine their states"):
        step_response(Integrator(init=Init.STEADY_STATE), n_out=3)


class Lag(SignalBlock):
    """The documented user-written block with a state (docs/domains.md): T·ẏ + y = u."""

    STATES: ClassVar[tuple[str, ...]] = ("y",)

    def __init__(self, T: float):
        self.T = T
        self.u = RealInput(self, "u")
        self.y = RealOutput(self, "y")

    def outputs(self, ctx) -> dict:
        return {self.y: ctx.state(self)[0]}

    def derivatives(self, ctx) -> list:
        return [(ctx.value(self.u) - ctx.state(self)[0]) / self.T]

    def initial_equations(self, ctx):
        return self.derivatives(ctx)        # start in steady state


def test_user_block_with_states_follows_the_contract():
    """Reference: the hand-written lag agrees with the library's FirstOrder in steady-state
    initialization on an input that steps from 1 to 3 at t = 0.1 s (exact exponential)."""
    _, y, res = step_response(Lag(T=0.2), height=2.0, start=0.1, t_end=0.6, n_out=26)
    src_offset = 0.0
    expected = np.where(res.t < 0.1, src_offset, 2.0 * (1 - np.exp(-(res.t - 0.1) / 0.2)))
    assert np.abs(y - expected).max() < 1e-7
    bad = Lag(T=0.2)
    bad.derivatives = lambda ctx: [1.0, 2.0]
    with pytest.raises(jd.ModelError, match="derivatives\\(\\) returned 2 values"):
        step_response(bad)


@pytest.mark.parametrize("make, message", [
    (lambda: CriticalDamping(n=0), "order n must be a positive integer"),
    (lambda: TransferFunction([1, 2, 3], [1, 2]), "proper transfer function"),
    (lambda: CriticalDamping(n=2, x_start=(1.0,)), "x_start needs 2 values"),
    (lambda: FirstOrder(init="steady"), "init must be a jd.blocks.Init"),
])
def test_bad_block_parameters_are_named(make, message):
    """Reference: each argument is outside the block's definition."""
    with pytest.raises(jd.ModelError, match=message):
        make()
