"""Modelica.Mechanics.Rotational.Examples.HeatLosses in jourdain
=============================================================

Built as the MSL builds it (names and parameters of the MSL's diagram).

What: a drive train of six inertias (J = 2 kg·m² each, at rest at t = 0) driven by a torque
20·sin(2π·5·t) N·m: a damper to the ground (d = 10), a SpringDamper (c = 1e4, d = 20), an
ElastoBacklash (c = 1e5, d = 100, b = 1 mrad), a BearingFriction (1 N·m), a spring
(c = 1e4), a LossyGear (ratio 2, efficiencies 0.8 → 0.7, bearing friction 1 → 2 N·m), a
Clutch (fn_max = 10 N), a OneWayClutch (fn_max = 1 N) and a Brake (fn_max = 2 N), the three
pressed by sin(2π·0.2·t). Every lossy element has ``useHeatPort=True``; all heat ports meet
at ``convection.solid``, which gives the heat to the ambient at 25 °C (Gc = 20 W/K).
Why: the MSL's demonstration that the dissipated power of a drive train can be collected as
heat: hybrid stick/slip elements, compliant elements and dampers share one thermal network.
Deviations: a ``heatFlowSensor`` sits between ``convection.fluid`` and ``TAmbient`` (no
temperature drop: the physics is the MSL's) so the total heat flow, which the MSL reads as
``convection.fluid.Q_flow``, is in the Result. As in the MSL, the LossyGear's flange_b goes
straight into the clutch: that net has no inertia, its mass comes through the gear's teeth (a
constraint in every mode), and the hybrid solve works on the saddle-point system of the
equations of motion and the teeth (docs/hybrid.md, "Shafts without inertia"). A shaft of
inertia J between gear and clutch (``build(J)``, not in the MSL) converges to it: the heat is
0.328701 J with 1e-2 kg·m², 0.328714 J with 1e-3, 0.328716 J with 1e-4 and 0.3287165 J without
(the O(J) extrapolation of the last two: 0.3287164 J). (Light shafts once chattered at
t = 0.439 s, where the gear's driving side changes: the sign of tau_eta there is round-off and
both sides give the same loss; the side is now the one tau_eta leaves to, as Modelica decides
the relation at t⁺. At t = 0.0376 s the brake, held with the stuck gear, breaks away and keeps
sliding at its limit while the gear holds the rest: the split of a torque two stuck elements
hold is undetermined.)
You will see: the work of the torque, the kinetic and elastic energy at the end, the heat to
the ambient (the gear's loss tauLoss·w_a among it), their balance, res.check(), and
out/heat_losses_rotational.png.
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import trapezoid

import jourdain as jd
from jourdain.blocks import (Constant, ElastoBacklash, Fixed, Inertia, LossyGear, Motor,
                             RotationalSpring, Sine, SpringDamper, ViscousFriction, World)
from jourdain.blocks.hybrid import BearingFriction, Brake, Clutch, OneWayClutch
from jourdain.blocks.thermal import Convection, FixedTemperature, HeatFlowSensor

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)
def build(J_shaft: float = 0.0) -> jd.Model:
    """The MSL's HeatLosses diagram (component names as there): lossyGear.flange_b straight
    into the clutch; with J_shaft > 0 a shaft ``gearShaft`` of that inertia between them
    (not in the MSL: for the convergence study J_shaft → 0)."""
    m = jd.Model(world=World())
    m.sine = Sine(f=5.0, amplitude=20.0)
    m.torque = Motor()                               # Sources.Torque, support fixed
    for k in range(1, 7):
        m.add(f"inertia{k}", Inertia(J=2.0))
    m.damper = ViscousFriction(d=10.0, useHeatPort=True)   # Components.Damper
    m.fixed = Fixed()
    m.convection = Convection()
    m.TAmbient = FixedTemperature(T=298.15)           # Celsius.FixedTemperature(T=25)
    m.heatFlowSensor = HeatFlowSensor()
    m.const = Constant(k=20.0)
    m.springDamper = SpringDamper(c=1e4, d=20.0, useHeatPort=True)
    m.elastoBacklash = ElastoBacklash(c=1e5, d=100.0, b=0.001, useHeatPort=True)
    m.bearingFriction = BearingFriction(useHeatPort=True)
    m.spring3 = RotationalSpring(c=1e4)
    m.lossyGear = LossyGear(ratio=2.0, lossTable=[[0, 0.8, 0.8, 1, 1], [1, 0.7, 0.7, 2, 2]],
                            useHeatPort=True)
    if J_shaft > 0:
        m.gearShaft = Inertia(J=J_shaft)
    m.clutch = Clutch(fn_max=10.0, useHeatPort=True)
    m.sine2 = Sine(f=0.2, amplitude=1.0)
    m.oneWayClutch = OneWayClutch(fn_max=1.0, useHeatPort=True)
    m.brake = Brake(fn_max=2.0, useHeatPort=True)
    c = m.connect
    c(m.sine.y, m.torque.tau)
    c(m.torque.flange_b, m.inertia1.flange_a)
    c(m.inertia1.flange_b, m.damper.flange_b)
    c(m.damper.flange_a, m.fixed.flange)
    c(m.TAmbient.port, m.heatFlowSensor.port_b)
    c(m.heatFlowSensor.port_a, m.convection.fluid)
    c(m.const.y, m.convection.Gc)
    c(m.inertia1.flange_b, m.springDamper.flange_a)
    c(m.springDamper.flange_b, m.inertia2.flange_a)
    c(m.elastoBacklash.flange_a, m.inertia2.flange_b)
    c(m.elastoBacklash.flange_b, m.inertia3.flange_a)
    c(m.inertia3.flange_b, m.bearingFriction.flange_a)
    c(m.spring3.flange_b, m.inertia4.flange_a)
    c(m.bearingFriction.flange_b, m.spring3.flange_a)
    c(m.inertia4.flange_b, m.lossyGear.flange_a)
    if J_shaft > 0:
        c(m.lossyGear.flange_b, m.gearShaft.flange_a)
        c(m.gearShaft.flange_b, m.clutch.flange_a)
    else:   # as the MSL: the net between gear and clutch has no inertia (its mass comes
        c(m.lossyGear.flange_b, m.clutch.flange_a)   # through the teeth: docs/hybrid.md)
    c(m.clutch.flange_b, m.inertia5.flange_a)
    c(m.sine2.y, m.clutch.f_normalized)
    c(m.inertia5.flange_b, m.oneWayClutch.flange_a)
    c(m.oneWayClutch.flange_b, m.inertia6.flange_a)
    c(m.sine2.y, m.oneWayClutch.f_normalized)
    c(m.inertia6.flange_b, m.brake.flange_a)
    c(m.sine2.y, m.brake.f_normalized)
    for name in ("damper", "springDamper", "elastoBacklash", "bearingFriction", "lossyGear",
                 "clutch", "oneWayClutch", "brake"):
        c(getattr(m, name).heatPort, m.convection.solid)
    return m


def balance(res, J_shaft: float = 0.0) -> dict:
    """Energy balance over the run [J]: work of the torque source, kinetic and elastic
    energy at the end, heat to the ambient; the gear's loss tauLoss·w_a alone (part of the
    heat)."""
    t = res.t
    w = {k: res[f"inertia{k}.w"] for k in range(1, 7)}
    work = trapezoid(20.0 * np.sin(2 * np.pi * 5.0 * t) * w[1], t)
    kinetic = sum(0.5 * 2.0 * w[k][-1] ** 2 for k in w)
    if J_shaft > 0:
        kinetic += 0.5 * J_shaft * res["gearShaft.w"][-1] ** 2
    heat = trapezoid(res["heatFlowSensor.Q_flow"], t)
    gear = trapezoid(res["lossyGear.tauLoss"] * w[4], t)
    return {"work": work, "kinetic": kinetic, "potential": float(res["energy.potential"][-1]),
            "heat": heat, "gear_loss": gear}


if __name__ == "__main__":
    # %% Simulate 1 s (the MSL's experiment: StopTime 1, Interval 1e-4)
    system = jd.compile(build())
    res = system.simulate(1.0, n_out=10001, rtol=1e-9, atol=1e-9)
    b = balance(res)
    print(f"mode changes: {len(res.events) - 1}")
    print("speeds at t = 1 s:", {f"inertia{k}.w": round(float(res[f'inertia{k}.w'][-1]), 6)
                                 for k in range(1, 7)})
    print(f"work of the torque {b['work']:.6f} J; at t = 1 s kinetic {b['kinetic']:.6f} J, "
          f"elastic {b['potential']:.6f} J")
    print(f"heat to the ambient {b['heat']:.6f} J, of which the LossyGear's loss "
          f"{b['gear_loss']:.6f} J")
    lost = b["work"] - b["kinetic"] - b["potential"]
    print(f"energy taken from the mechanics {lost:.6f} J = heat to the ambient "
          f"{b['heat']:.6f} J")
    print(res.check())

    # %% Figure
    res.plot("inertia1.w", "inertia4.w", "inertia6.w", "heatFlowSensor.Q_flow",
             path=OUT / "heat_losses_rotational.png",
             title="MSL Rotational.Examples.HeatLosses")
    print(f"figure saved to {OUT / 'heat_losses_rotational.png'}")
