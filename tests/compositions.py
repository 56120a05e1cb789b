"""Random compositions across families for the property tests (tests/test_compositions.py):
a line of 1-D shafts (bodies on revolutes about the vertical axis, tests/hybrid_models.py)
joined by springs, dampers, clutches, elastic gaps or ideal gears; on each shaft a rigid or
compliant stop, bearing friction, or nothing; the first shaft driven by an ideal motor, a
DC motor on a voltage source (electrical), a kinematic Speed driver, or nothing; and maybe a
pendulum beside that shares no equation with the line (an island of its own).

``compositions()`` draws a frozen ``Composition``; ``build`` turns it into a jd.Model,
``start`` gives simulate()'s y0, z0 and ``inputs`` the motor's input. A failing case prints
as its own reproducer: paste the spec into ``build(spec)``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from hybrid_models import pendulum, shaft
from hypothesis import strategies as st

import jourdain as jd
from jourdain.blocks import (
    EMF,
    Constant,
    Ground,
    IdealGear,
    Inductor,
    Motor,
    Resistor,
    RotationalSpring,
    SignalVoltage,
    Sine,
    Step,
    ViscousFriction,
    World,
)
from jourdain.blocks.drivers import rotational
from jourdain.blocks.hybrid import BearingFriction, Clutch, ElastoGap, Stop, StopLaw

JOINS = ("spring", "spring_damper", "clutch", "gap", "gear")
EXTRAS = ("none", "stop", "compliant_stop", "bearing")
SOURCES = ("none", "motor", "dc_motor", "driver")


@dataclass(frozen=True)
class Composition:
    J: tuple            # [kg·m²] the shafts' inertias
    joins: tuple        # between shaft i and i + 1, from JOINS
    extras: tuple       # on each shaft, from EXTRAS
    source: str         # on shaft 0, from SOURCES
    w0: tuple           # [rad/s] initial speeds
    beside: bool        # an independent pendulum

    @property
    def hybrid(self) -> bool:
        return any(j in ("clutch", "gap") for j in self.joins) or \
            any(e != "none" for e in self.extras)


@st.composite
def compositions(draw, max_shafts: int = 3) -> Composition:
    n = draw(st.integers(2, max_shafts))
    return Composition(
        tuple(draw(st.sampled_from((0.05, 0.2, 1.0))) for _ in range(n)),
        tuple(draw(st.sampled_from(JOINS)) for _ in range(n - 1)),
        tuple(draw(st.sampled_from(EXTRAS)) for _ in range(n)),
        draw(st.sampled_from(SOURCES)),
        tuple(draw(st.sampled_from((-3.0, 0.0, 2.0, 5.0))) for _ in range(n)),
        draw(st.booleans()))


def build(spec: Composition) -> jd.Model:
    model = jd.Model(world=World())
    shafts = [shaft(model, f"s{i}", J) for i, J in enumerate(spec.J)]
    for i, kind in enumerate(spec.joins):
        _join(model, kind, i, shafts[i].axis, shafts[i + 1].axis)
    for i, kind in enumerate(spec.extras):
        _extra(model, kind, i, shafts[i].axis)
    _source(model, spec.source, shafts[0].axis)
    if spec.beside:
        pendulum(model, "hinge")
    return model


def _join(model, kind: str, i: int, a, b) -> None:
    def add(name, element, flanges=("flange_a", "flange_b")):
        model.add(f"{name}{i}", element)
        model.connect(getattr(element, flanges[0]), a)
        model.connect(getattr(element, flanges[1]), b)
    if kind in ("spring", "spring_damper"):
        add("spring", RotationalSpring(c=20.0))
        if kind == "spring_damper":
            add("damper", ViscousFriction(d=0.3))
    elif kind == "clutch":
        clutch = Clutch(mu_pos=[[0.0, 0.5]], peak=1.2, fn_max=4.0)
        add("clutch", clutch)
        step = model.add(f"engage{i}", Step(height=1.0, t_step=0.1))
        model.connect(step.y, clutch.f_normalized)
    elif kind == "gap":   # a one-sided elastic stop between the shafts: |φ_b − φ_a| ≤ 0.3
        add("gap", ElastoGap(c=200.0, d=2.0, s_rel0=0.3), ("flange_b", "flange_a"))
        add("spring", RotationalSpring(c=5.0))
    else:
        add("gear", IdealGear(ratio=2.0))


def _extra(model, kind: str, i: int, axis) -> None:
    if kind == "none":
        return
    if kind == "bearing":
        element = BearingFriction(tau_pos=[[0.0, 0.2]], peak=1.3)
    elif kind == "stop":
        element = Stop(lower=-0.4, upper=0.4, e=0.6, v_rest=0.05)
    else:
        element = Stop(lower=-0.4, upper=0.4, law=StopLaw.COMPLIANT, c=2e3, d=0.2)
    model.add(f"{kind}{i}", element)
    model.connect(element.flange_b, axis)


def _source(model, kind: str, axis) -> None:
    if kind == "motor":
        model.motor = Motor()
        model.connect(model.motor.flange_b, axis)
    elif kind == "dc_motor":   # electrical: a sine voltage on R–L–EMF
        model.source, model.ground = SignalVoltage(), Ground()
        model.R, model.L, model.emf = Resistor(R=2.0), Inductor(L=0.01), EMF(k=0.2)
        model.wave = Sine(amplitude=6.0, f=1.5)
        c = model.connect
        c(model.wave.y, model.source.v)
        c(model.source.p, model.R.p)
        c(model.R.n, model.L.p)
        c(model.L.n, model.emf.p)
        c(model.emf.n, model.source.n)
        c(model.source.n, model.ground.p)
        c(model.emf.flange, axis)
    elif kind == "driver":
        model.drive, model.speed = rotational.Speed(exact=True), Constant(k=1.5)
        model.connect(model.drive.flange, axis)
        model.connect(model.speed.y, model.drive.w_ref)


def start(spec: Composition, system) -> dict:
    """Shafts at rest angle 0 with their speeds (the pendulum at 0.5 rad)."""
    y0 = {"hinge.phi": 0.5} if spec.beside else {}
    z0 = {f"s{i}.w": w for i, w in enumerate(spec.w0)}
    return {"y0": {k: v for k, v in y0.items() if k in system.y_names},
            "z0": {k: v for k, v in z0.items() if k in system.z_names}}


def inputs(spec: Composition, system) -> dict:
    """The motor's torque 0.5·cos(2t) [N·m]."""
    return {"motor.tau": lambda t: 0.5 * np.cos(2 * t)} if "motor.tau" in system.u_names \
        else {}
