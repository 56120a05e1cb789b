"""A LossyGear whose flange_b net carries no inertia (the MSL's HeatLosses wiring: the gear
straight into a clutch): the net's mass comes only through the teeth, an always-active row,
and the hybrid solve works on M + J_Pᵀ·R·J_P, regular exactly when the saddle-point system
[M Jᵀ; J 0] is (solver/hybrid/massless.py). References: closed forms of the gear's law
by direction of power flow (MSL LossyGear: tauLoss = (1 − η)·τ_a + τ_bf while flange_a
drives, (1 − 1/η)·τ_a + τ_bf while flange_b drives) with the massless net's torque balance,
and the energy balance (res.check())."""
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import Constant, Inertia, LossyGear, Motor, ViscousFriction, World
from jourdain.blocks.hybrid import Clutch

J, RATIO, ETA, BF, TAU = 2.0, 2.0, 0.8, 1.0, 10.0
TABLE = [[0.0, ETA, ETA, BF, BF]]


def _gear_into(load: str, fn_max: float = 10.0, torque_on_b: bool = False,
               shaft: float = 0.0) -> jd.Model:
    """inertia4 (J) → lossyGear (RATIO, TABLE) → a net without inertia (with ``shaft`` > 0:
    an Inertia of that J) → ``load``: a Clutch to inertia5 (J), or a ViscousFriction to the
    ground; the torque TAU on inertia4, or on the massless net (``torque_on_b``)."""
    m = jd.Model(world=World())
    m.inertia4 = Inertia(J=J)
    m.lossyGear = LossyGear(ratio=RATIO, lossTable=TABLE)
    m.motor, m.tau = Motor(), Constant(k=TAU)
    m.connect(m.tau.y, m.motor.tau)
    m.connect(m.inertia4.flange_b, m.lossyGear.flange_a)
    m.connect(m.motor.flange_b, m.lossyGear.flange_b if torque_on_b else m.inertia4.flange_a)
    if shaft:
        m.shaft = Inertia(J=shaft)
        m.connect(m.lossyGear.flange_b, m.shaft.flange_a)
    if load == "clutch":
        m.clutch, m.inertia5, m.pressed = Clutch(fn_max=fn_max), Inertia(J=J), Constant(k=1.0)
        m.connect(m.lossyGear.flange_b, m.clutch.flange_a)
        m.connect(m.clutch.flange_b, m.inertia5.flange_a)
        m.connect(m.pressed.y, m.clutch.f_normalized)
    elif load == "damper":
        m.damper = ViscousFriction(d=3.0)
        m.connect(m.lossyGear.flange_b, m.damper.flange_a)
    return m


def test_gear_into_a_stuck_clutch_follows_the_forward_law():
    """Reference: closed form. flange_a drives forward: τ_a = (J5·a/r² + τ_bf)/η from the
    massless net's balance r·(η·τ_a − τ_bf) = J5·a/r, so the constant acceleration is
    a = (τ − τ_bf/η)/(J4 + J5/(η·r²)) = 3.3333 rad/s² (a rigid shaft of 1e-3 kg·m² would
    change it by 0.05 %); tauLoss = (1 − η)·τ_a + τ_bf; the clutch stays stuck
    (J5·a/r = 3.33 N·m < 5 N·m); energy balance."""
    res = jd.compile(_gear_into("clutch")).simulate(1.0, n_out=11, rtol=1e-10, atol=1e-10)
    a = (TAU - BF / ETA) / (J + J / (ETA * RATIO**2))
    tau_a = (J * a / RATIO**2 + BF) / ETA
    assert res["inertia4.w"] == pytest.approx(a * res.t, abs=1e-8)
    assert res["inertia5.w"] == pytest.approx(a * res.t / RATIO, abs=1e-8)
    assert res["lossyGear.flange_b.w"] == pytest.approx(a * res.t / RATIO, abs=1e-8)
    assert res["lossyGear.tauLoss"][1:] == pytest.approx((1 - ETA) * tau_a + BF, rel=1e-8)
    assert np.all(res["clutch.mode"] == 0) and np.all(res["lossyGear.mode"][1:] == 1)
    assert res.check()


@pytest.mark.parametrize("shaft", [1e-4, 1e-8, 1e-12])
def test_light_shafts_behind_the_gear_keep_full_accuracy(shaft):
    """Reference: closed form, with the shaft J_s on the clutch's side:
    a = (τ − τ_bf/η)/(J4 + (J5 + J_s)/(η·r²)). The solve factorizes M + J_Pᵀ·R·J_P, never M
    alone, so a light shaft is as accurate as a heavy one (inverting M, a 1e-8 kg·m² shaft
    gave 5e-3 relative error in the speed, 1e-10 kg·m² 25 %)."""
    res = jd.compile(_gear_into("clutch", shaft=shaft)).simulate(1.0, n_out=11, rtol=1e-10,
                                                                  atol=1e-10)
    a = (TAU - BF / ETA) / (J + (J + shaft) / (ETA * RATIO**2))
    tau_a = ((J + shaft) * a / RATIO**2 + BF) / ETA
    assert res["inertia4.w"] == pytest.approx(a * res.t, rel=1e-9, abs=1e-12)
    assert res["shaft.w"] == pytest.approx(a * res.t / RATIO, rel=1e-9, abs=1e-12)
    assert res["lossyGear.tauLoss"][1:] == pytest.approx((1 - ETA) * tau_a + BF, rel=1e-9)


def test_gear_into_a_slipping_clutch_passes_the_clutch_torque():
    """Reference: closed form by power flow. The clutch slips from t = 0 (limit
    μ·fn = 0.5 N·m): the massless net passes exactly the sliding torque τ_c, so
    r·(η·τ_a − τ_bf) = τ_c, τ_a = (τ_c/r + τ_bf)/η; inertia4 accelerates at (τ − τ_a)/J4,
    inertia5 at τ_c/J5; the power into the gear τ_a·w_a = τ_c·w_b + tauLoss·w_a."""
    res = jd.compile(_gear_into("clutch", fn_max=1.0)).simulate(1.0, n_out=11, rtol=1e-10,
                                                                 atol=1e-10)
    tau_c = 0.5
    tau_a = (tau_c / RATIO + BF) / ETA
    assert res["inertia4.w"] == pytest.approx((TAU - tau_a) / J * res.t, abs=1e-8)
    assert res["inertia5.w"] == pytest.approx(tau_c / J * res.t, abs=1e-8)
    assert res["lossyGear.tauLoss"][1:] == pytest.approx((1 - ETA) * tau_a + BF, rel=1e-8)
    w_a, w_b = res["inertia4.w"], res["lossyGear.flange_b.w"]
    assert tau_a * w_a == pytest.approx(tau_c * w_b + res["lossyGear.tauLoss"] * w_a,
                                        abs=1e-7)
    assert np.all(res["clutch.mode"][1:] == -1)   # w_rel = w5 − w_b < 0: the load lags
    assert res.check()


def test_gear_into_a_damper_on_the_massless_net():
    """Reference: closed form. A damper d on the massless net: r·(η·τ_a − τ_bf) = d·w_a/r,
    so J4·ẇ_a = τ − (d·w_a/r² + τ_bf)/η, a first-order lag
    w_a = w∞·(1 − exp(−t/T)), w∞ = (η·τ − τ_bf)·r²/d, T = η·J4·r²/d."""
    d = 3.0
    res = jd.compile(_gear_into("damper")).simulate(2.0, n_out=21, rtol=1e-10, atol=1e-10)
    w_inf, T = (ETA * TAU - BF) * RATIO**2 / d, ETA * J * RATIO**2 / d
    assert res["inertia4.w"] == pytest.approx(w_inf * (1 - np.exp(-res.t / T)), abs=1e-7)
    assert res.check()


def test_torque_on_the_massless_net_drives_backwards_through_the_gear():
    """Reference: closed form. The torque τ acts on the massless net behind the gear, so
    flange_b drives (the MSL's tau_etaPos = 0) and inertia4 turns forward:
    τ = −r·(τ_a/η − τ_bf), τ_a = η·(τ_bf − τ/r) = −3.2 N·m, ẇ_a = −τ_a/J4 = 1.6 rad/s²,
    tauLoss = (1 − 1/η)·τ_a + τ_bf = 1.8 N·m; the motor's power τ·w_b = J4·w_a·ẇ_a +
    tauLoss·w_a."""
    res = jd.compile(_gear_into("none", torque_on_b=True)).simulate(
        1.0, n_out=11, rtol=1e-10, atol=1e-10)
    tau_a = ETA * (BF - TAU / RATIO)
    assert res["inertia4.w"] == pytest.approx(-tau_a / J * res.t, abs=1e-8)
    assert res["lossyGear.tauLoss"][1:] == pytest.approx((1 - 1 / ETA) * tau_a + BF,
                                                         rel=1e-8)
    assert np.all(res["lossyGear.tau_etaPos"][1:] == 0)
    assert res.check()
