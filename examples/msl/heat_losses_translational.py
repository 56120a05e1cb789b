"""Modelica.Mechanics.Translational.Examples.HeatLosses in jourdain
================================================================

Built as the MSL builds it (names and parameters of the MSL's diagram).

What: four sliding bodies (m = 1 kg, L = 0.1 m each, at rest at t = 0): mass1, driven by
20·sin(2π·t) N, held by a damper (d = 10) and an ElastoGap (c = 100, d = 20,
s_rel0 = −0.02 m, in contact from the start) to the ground; a SpringDamper (c = 100, d = 10)
to mass2, which rubs on its support (SupportFriction, 1 N) and pulls mass3 through a spring
(c = 100); mass3 is braked (Brake, fn_max = 10 N, pressed by 10·sin(2π·2·t)) and drives a
MassWithStopAndFriction (stops at 0 and 0.4 m, Stribeck friction) through a stiff
SpringDamper (c = 1e4, d = 1000). Every lossy element has ``useHeatPort=True``; the heat
ports meet at ``convection.solid`` (Gc = 20 W/K to the ambient at 25 °C).
Why: the MSL's demonstration that the dissipated power of a translational model is
collected as heat: stick/slip, a gap contact and dampers share one thermal network.
Deviations: a ``heatFlowSensor`` between ``convection.fluid`` and ``TAmbient`` (no
temperature drop) puts the total heat flow (the MSL's ``convection.fluid.Q_flow``) into the
Result. The plastic stop impacts of MassWithStopAndFriction (the MSL's reinit(v, 0)) are
not losses through its heat port in the MSL either: they show in res.events.
You will see: the work of the force, the energy left at the end, the heat to the ambient,
the kinetic energy the stop impacts took, their balance, res.check(), and
out/heat_losses_translational.png.
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import trapezoid

import jourdain as jd
from jourdain.blocks import (Constant, Fixed, LinearMotor, Mass, Sine, TranslationalSpring,
                             TranslationalSpringDamper, ViscousFriction, World)
from jourdain.blocks.hybrid import Brake, ElastoGap, SupportFriction
from jourdain.blocks.thermal import Convection, FixedTemperature, HeatFlowSensor
from jourdain.library import MassWithStopAndFriction

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)
L = 0.1
# initial positions: s_rel = 0 of springDamper, spring and springDamper1 (fixed in the MSL)
Y0 = {"mass1.s": 0.0, "mass2.s": L, "mass3.s": 2 * L, "massWithStopAndFriction.mass.s": 3 * L}


def build() -> jd.Model:
    """The MSL's HeatLosses diagram (component names as there)."""
    m = jd.Model(world=World())
    m.mass1 = Mass(m=1.0, L=L)
    m.springDamper = TranslationalSpringDamper(c=100.0, d=10.0, useHeatPort=True)
    m.damper = ViscousFriction(d=10.0, useHeatPort=True)     # Translational Damper
    m.elastoGap = ElastoGap(c=100.0, d=20.0, s_rel0=-0.02, useHeatPort=True)
    m.fixed1, m.fixed2 = Fixed(), Fixed()
    m.force = LinearMotor()                                   # Sources.Force
    m.sine1 = Sine(f=1.0, amplitude=20.0)
    m.mass2 = Mass(m=1.0, L=L)
    m.supportFriction = SupportFriction(useHeatPort=True)
    m.spring = TranslationalSpring(c=100.0)
    m.mass3 = Mass(m=1.0, L=L)
    m.brake = Brake(fn_max=10.0, useHeatPort=True)
    m.sine2 = Sine(amplitude=10.0, f=2.0)
    m.massWithStopAndFriction = MassWithStopAndFriction(
        L=L, m=1.0, F_prop=0.5, F_Coulomb=1.0, F_Stribeck=2.0, fexp=2.0, smin=0.0, smax=0.4,
        useHeatPort=True)
    m.convection = Convection()
    m.const = Constant(k=20.0)
    m.TAmbient = FixedTemperature(T=298.15)
    m.heatFlowSensor = HeatFlowSensor()
    m.springDamper1 = TranslationalSpringDamper(c=1e4, d=1000.0, useHeatPort=True)
    c = m.connect
    c(m.mass1.flange_b, m.springDamper.flange_a)
    c(m.sine1.y, m.force.f)
    c(m.force.flange_b, m.mass1.flange_a)
    c(m.mass1.flange_a, m.damper.flange_a)
    c(m.damper.flange_b, m.fixed1.flange)
    c(m.springDamper.flange_b, m.mass2.flange_a)
    c(m.mass2.flange_b, m.supportFriction.flange_a)
    c(m.supportFriction.flange_b, m.spring.flange_a)
    c(m.spring.flange_b, m.mass3.flange_a)
    c(m.mass3.flange_b, m.brake.flange_a)
    c(m.sine2.y, m.brake.f_normalized)
    c(m.elastoGap.flange_b, m.mass1.flange_a)
    c(m.const.y, m.convection.Gc)
    c(m.TAmbient.port, m.heatFlowSensor.port_b)
    c(m.heatFlowSensor.port_a, m.convection.fluid)
    c(m.elastoGap.flange_a, m.fixed2.flange)
    c(m.brake.flange_b, m.springDamper1.flange_a)
    c(m.springDamper1.flange_b, m.massWithStopAndFriction.flange_a)
    for name in ("elastoGap", "damper", "springDamper", "supportFriction", "brake",
                 "massWithStopAndFriction", "springDamper1"):
        c(getattr(m, name).heatPort, m.convection.solid)
    return m


def balance(res) -> dict:
    """Energy balance over the run [J]: work of the force, kinetic and elastic energy at the
    end, heat to the ambient, kinetic energy taken by the stop impacts."""
    work = trapezoid(20.0 * np.sin(2 * np.pi * res.t) * res["mass1.v"], res.t)
    kinetic = sum(0.5 * res[n][-1] ** 2 for n in
                  ("mass1.v", "mass2.v", "mass3.v", "massWithStopAndFriction.mass.v"))
    impacts = sum(e.energy_lost or 0.0 for e in res.events)
    return {"work": work, "kinetic": kinetic, "potential": float(res["energy.potential"][-1]),
            "heat": trapezoid(res["heatFlowSensor.Q_flow"], res.t), "impacts": impacts}


if __name__ == "__main__":
    # %% Simulate 2 s (the MSL's experiment: StopTime 2, Interval 1e-3)
    system = jd.compile(build())
    res = system.simulate(2.0, y0=Y0, n_out=20001, rtol=1e-9, atol=1e-9)
    b = balance(res)
    print(f"events: {len(res.events) - 1}")
    print("positions at t = 2 s:", {n: round(float(res[n][-1]), 6) for n in Y0})
    print(f"work of the force {b['work']:.6f} J; at t = 2 s kinetic {b['kinetic']:.6f} J, "
          f"elastic {b['potential']:.6f} J (elastic at t = 0: "
          f"{float(res['energy.potential'][0]):.6f} J)")
    print(f"heat to the ambient {b['heat']:.6f} J, stop impacts {b['impacts']:.6f} J")
    print(res.check())

    # %% Figure
    res.plot("mass1.s", "mass2.s", "mass3.s", "massWithStopAndFriction.mass.s",
             "heatFlowSensor.Q_flow", path=OUT / "heat_losses_translational.png",
             title="MSL Translational.Examples.HeatLosses")
    print(f"figure saved to {OUT / 'heat_losses_translational.png'}")
