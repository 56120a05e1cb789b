"""The parts added for the MSL Rotational examples (issue 26): the speed-dependent sources'
laws against the MSL's formulas, FreeWheel's start with flange_a faster (a plastic impact),
and initialize() solving speeds through a LossyGear's mesh (a row that is a constraint in
every mode). Each test states its reference; all run in well under a second of CPU each."""
import math

import casadi as ca
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (Inertia, InverseSpeedDependentTorque, LinearSpeedDependentTorque,
                             LossyGear, Regularization, SignTorque, World)
from jourdain.blocks.hybrid import FreeWheel

SPEEDS = [-3.0, -1.0, -0.4, 0.0, 0.25, 0.999, 1.0, 2.5]


def _law(part, w: float) -> float:
    return float(ca.evalf(part.law(ca.DM(w))))


@pytest.mark.parametrize("reg", list(Regularization))
def test_sign_torque_law_is_the_msl_formula(reg):
    """Reference: the MSL's SignTorque equations written out (tau_nominal·(2/(1 +
    exp(−w/(0.01·w0))) − 1) for Exp; sign(w) outside |w| < w0 and sin(π/2·w/w0), w/w0,
    sign(w)·(1 − cos(π/2·w/w0)) inside for Sine, Linear, CoSine)."""
    part, w0, tau = SignTorque(tau_nominal=-7.0, reg=reg, w0=1.0), 1.0, -7.0
    for w in SPEEDS:
        if reg is Regularization.Exp:
            msl = tau * (2 / (1 + math.exp(-w / (0.01 * w0))) - 1)
        elif abs(w) >= w0:
            msl = tau * np.sign(w)
        else:
            msl = tau * {Regularization.Sine: math.sin(math.pi / 2 * w / w0),
                         Regularization.Linear: w / w0,
                         Regularization.CoSine: np.sign(w) * (1 - math.cos(math.pi / 2 * w / w0))
                         }[reg]
        assert _law(part, w) == pytest.approx(msl, abs=1e-12), (reg, w)


@pytest.mark.parametrize("direction", [True, False])
def test_linear_and_inverse_laws_are_the_msl_formulas(direction):
    """Reference: the MSL's LinearSpeedDependentTorque (tau_nominal·|w/w_nominal| or
    tau_nominal·w/w_nominal) and InverseSpeedDependentTorque (tau_nominal·w_nominal/w0 or
    tau_nominal·w/w0 below w0, tau_nominal·w_nominal/|w| or tau_nominal·w_nominal/w above)."""
    lin = LinearSpeedDependentTorque(tau_nominal=-4.0, TorqueDirection=direction, w_nominal=2.0)
    inv = InverseSpeedDependentTorque(tau_nominal=-4.0, TorqueDirection=direction,
                                      w_nominal=2.0, w0=0.5)
    for w in SPEEDS:
        r = w / 2.0
        assert _law(lin, w) == pytest.approx(-4.0 * (abs(r) if direction else r), abs=1e-12)
        if direction:
            msl = -4.0 * 2.0 / 0.5 if abs(w) < 0.5 else -4.0 * 2.0 / abs(w)
        else:
            msl = -4.0 * w / 0.5 if abs(w) < 0.5 else -4.0 * 2.0 / w
        assert _law(inv, w) == pytest.approx(msl, abs=1e-12), w


def test_free_wheel_started_with_flange_a_faster_locks_by_a_plastic_impact():
    """Reference: momentum conservation of a plastic impact, w = (J1·w1 + J2·w2)/(J1 + J2) =
    (2·3 + 1·0)/3 = 2 rad/s, and the kinetic energy it takes, ½·J1·J2/(J1 + J2)·Δw² = 3 J;
    afterwards, without torques, both turn together (locked)."""
    model = jd.Model(world=World())
    model.a, model.b, model.freeWheel = Inertia(J=2.0), Inertia(J=1.0), FreeWheel(wRes=0.0)
    model.connect(model.a.flange_b, model.freeWheel.flange_a)
    model.connect(model.freeWheel.flange_b, model.b.flange_a)
    res = jd.compile(model).simulate(0.5, z0={"a.w": 3.0, "b.w": 0.0}, rtol=1e-10, atol=1e-12)
    assert res["a.w"][-1] == pytest.approx(2.0, abs=1e-9)
    assert res["b.w"][-1] == pytest.approx(2.0, abs=1e-9)
    assert res.events[0].energy_lost == pytest.approx(3.0, rel=1e-9)
    assert np.all(res["freeWheel.free"] == 0)
    assert res.check()


def test_free_wheel_lets_flange_b_overrun():
    """Reference: freewheeling (w_b > w_a) with wRes = 0 the flanges are decoupled: each
    inertia keeps its speed (J·ẇ = 0), the element stays free."""
    model = jd.Model(world=World())
    model.a, model.b, model.freeWheel = Inertia(J=2.0), Inertia(J=1.0), FreeWheel(wRes=0.0)
    model.connect(model.a.flange_b, model.freeWheel.flange_a)
    model.connect(model.freeWheel.flange_b, model.b.flange_a)
    res = jd.compile(model).simulate(0.5, z0={"a.w": 1.0, "b.w": 4.0}, rtol=1e-10, atol=1e-12)
    assert res["a.w"][-1] == pytest.approx(1.0, abs=1e-12)
    assert res["b.w"][-1] == pytest.approx(4.0, abs=1e-12)
    assert np.all(res["freeWheel.free"] == 1)


def test_initialize_solves_through_a_lossy_gear_mesh():
    """Reference: the gear relation φ_a = ratio·φ_b, w_a = ratio·w_b (ratio 2) of the
    LossyGear's mesh row, a constraint in every mode: holding Inertia2.phi = 0.7 and
    Inertia2.w = 5 gives Inertia1.phi = 1.4 and Inertia1.w = 10 (reported as solved), and the
    run starts without a projection (no kinetic energy lost at t = 0)."""
    model = jd.Model(world=World())
    model.Inertia1, model.Inertia2 = Inertia(J=1.0), Inertia(J=1.5)
    model.gear = LossyGear(ratio=2.0, lossTable=[[0.0, 0.5, 0.5, 0.0, 0.0]])
    model.connect(model.Inertia1.flange_b, model.gear.flange_a)
    model.connect(model.gear.flange_b, model.Inertia2.flange_a)
    system = jd.compile(model)
    init = system.initialize(y0={"Inertia2.phi": 0.7}, z0={"Inertia2.w": 5.0})
    assert init.solved["Inertia1.w"] == pytest.approx(10.0, abs=1e-12)
    assert init.solved["Inertia1.phi"] == pytest.approx(1.4, abs=1e-9)
    res = system.simulate(0.01, x0=init.x0)
    assert res.events[0].energy_lost is None
    assert res["Inertia1.w"][0] == pytest.approx(2 * res["Inertia2.w"][0], abs=1e-12)
    assert res["Inertia1.phi"][-1] == pytest.approx(2 * res["Inertia2.phi"][-1], abs=1e-9)
