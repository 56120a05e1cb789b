"""Modelica.Mechanics.MultiBody.Examples.Elementary.HeatLosses in jourdain
=======================================================================

Built as the MSL builds it (names and parameters of the MSL's diagram).

What: three free bodies (m = 1 kg, r_CM = (0, −0.2, 0) m, I = diag(0.1, 0.1, 0.1) kg·m²)
start at rest 0.2 m below the ends of bar1, bar2 and bar3 (0.3, 0.6, 0.9 m along x), turning
at 2°/s about z, and fall under gravity on three suspensions: body1 on spring1 (c = 30 N/m,
s_unstretched = 0.1 m) and damper1 (d = 2 N·s/m) side by side, body2 on a
SpringDamperParallel (c = 30, d = 2), body3 on a SpringDamperSeries (c = 30, d = 2) beside
a spring (c = 30, s_unstretched = 0.2 m). The three dampers have ``useHeatPort=True``; their
heat ports meet at ``convection.solid`` (Gc = 20 W/K to the ambient at 25 °C).
Why: the MSL's demonstration that the dissipated power of multi-body force elements is
collected as heat through a thermal network.
Deviations: the MSL's bodies have no joint (a Body's own free-motion states); here a
FreeJoint from the world per body says so (``free1`` … ``free3``). A ``heatFlowSensor``
between ``convection.fluid`` and ``TAmbient`` (no temperature drop) puts the total heat flow
(the MSL's ``convection.fluid.Q_flow``) into the Result.
You will see: the energy the mechanics lost over 3 s (kinetic + potential, and what the
series element's inner spring gave), the heat to the ambient (equal: no source works on the
bodies), res.check(), and out/heat_losses_multibody.png.
"""
# %%
from pathlib import Path

import numpy as np
from scipy.integrate import simpson

import jourdain as jd
from jourdain.blocks import (Constant, Damper, FixedTranslation, FreeJoint, RigidBody, Spring,
                             SpringDamperParallel, SpringDamperSeries, World)
from jourdain.blocks.thermal import Convection, FixedTemperature, HeatFlowSensor

OUT = Path("out")   # relative to where the example runs
OUT.mkdir(exist_ok=True)
W0 = np.deg2rad(2.0)   # [rad/s] the MSL's w_0_start = {0, 0, 0.0349…}


def build() -> jd.Model:
    """The MSL's HeatLosses diagram (component names as there, plus free1..3)."""
    m = jd.Model(world=World())
    m.bar1 = FixedTranslation(r=(0.3, 0, 0))
    m.bar2 = FixedTranslation(r=(0.3, 0, 0))
    m.bar3 = FixedTranslation(r=(0.3, 0, 0))
    for k in (1, 2, 3):
        m.add(f"body{k}", RigidBody(m=1.0, r_cm=(0, -0.2, 0), I=(0.1, 0.1, 0.1)))
        m.add(f"free{k}", FreeJoint())
    m.spring1 = Spring(c=30.0, s_unstretched=0.1, width=0.1, coilWidth=0.01,
                       numberOfWindings=10)
    m.damper1 = Damper(d=2.0, useHeatPort=True)
    m.springDamper = SpringDamperParallel(c=30.0, d=2.0, s_unstretched=0.1, width=0.1,
                                          coilWidth=0.01, numberOfWindings=10,
                                          useHeatPort=True)
    m.springDamperSeries = SpringDamperSeries(c=30.0, d=2.0, s_unstretched=0.1,
                                              useHeatPort=True)
    m.spring = Spring(c=30.0, s_unstretched=0.2, width=0.05)
    m.const = Constant(k=20.0)
    m.convection = Convection()
    m.TAmbient = FixedTemperature(T=298.15)
    m.heatFlowSensor = HeatFlowSensor()
    c = m.connect
    c(m.world.frame_b, m.bar1.frame_a)
    c(m.bar1.frame_b, m.bar2.frame_a)
    c(m.damper1.frame_a, m.bar1.frame_b)
    c(m.spring1.frame_a, m.bar1.frame_b)
    c(m.damper1.frame_b, m.body1.frame_a)
    c(m.spring1.frame_b, m.body1.frame_a)
    c(m.bar2.frame_b, m.springDamper.frame_a)
    c(m.springDamper.frame_b, m.body2.frame_a)
    c(m.bar3.frame_b, m.springDamperSeries.frame_a)
    c(m.springDamperSeries.frame_b, m.body3.frame_a)
    c(m.bar3.frame_a, m.bar2.frame_b)
    c(m.bar3.frame_b, m.spring.frame_a)
    c(m.spring.frame_b, m.body3.frame_a)
    c(m.const.y, m.convection.Gc)
    c(m.TAmbient.port, m.heatFlowSensor.port_b)
    c(m.heatFlowSensor.port_a, m.convection.fluid)
    for name in ("damper1", "springDamper", "springDamperSeries"):
        c(getattr(m, name).heatPort, m.convection.solid)
    for k in (1, 2, 3):
        c(m.world.frame_b, getattr(m, f"free{k}").frame_a)
        c(getattr(m, f"free{k}").frame_b, getattr(m, f"body{k}").frame_a)
    return m


def initial() -> tuple[dict, dict]:
    """The MSL's start: r_0 = (0.3·k, −0.2, 0), at rest, angles 0, w_0 = (0, 0, 2°/s)."""
    y0 = {}
    for k in (1, 2, 3):
        y0.update({f"free{k}.x": 0.3 * k, f"free{k}.y": -0.2, f"free{k}.z": 0.0,
                   f"free{k}.q0": 1.0})
    return y0, {f"free{k}.wz": W0 for k in (1, 2, 3)}


if __name__ == "__main__":
    # %% Simulate 3 s (the MSL's experiment: StopTime 3)
    system = jd.compile(build())
    y0, z0 = initial()
    res = system.simulate(3.0, y0=y0, z0=z0, n_out=3001, rtol=1e-10, atol=1e-10)
    mech = res["energy.kinetic"] + res["energy.potential"]
    heat = simpson(res["heatFlowSensor.Q_flow"], x=res.t)   # smooth: no events
    print("body origins at t = 3 s (y):", {f"free{k}.y": round(float(res[f'free{k}.y'][-1]), 6)
                                           for k in (1, 2, 3)})
    # the series element's inner spring holds ½·f²/c, f = c·(s − s_unstretched − s_damper)
    s3 = np.hypot(res["free3.x"] - 0.9, res["free3.y"])
    inner = 0.5 * 30.0 * (s3 - 0.1 - res["springDamperSeries.s_damper"]) ** 2
    print(f"kinetic + potential energy lost over 3 s {mech[0] - mech[-1]:.6f} J, the series "
          f"element's inner spring gave {inner[0] - inner[-1]:.6f} J")
    print(f"heat to the ambient {heat:.6f} J (Simpson's rule; the sum above "
          f"{mech[0] - mech[-1] + inner[0] - inner[-1]:.6f} J)")
    print(res.check())

    # %% Figure
    res.plot("free1.y", "free2.y", "free3.y", "heatFlowSensor.Q_flow",
             path=OUT / "heat_losses_multibody.png",
             title="MSL MultiBody.Examples.Elementary.HeatLosses")
    print(f"figure saved to {OUT / 'heat_losses_multibody.png'}")
