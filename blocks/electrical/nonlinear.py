"""Nonlinear and ideal electrical components on the acausal core (Modelica
``Electrical.Analog.Semiconductors.Diode``, ``Analog.Ideal.IdealDiode``,
``Analog.Ideal.IdealOpAmp3Pin``; same names and parameters). They connect to the Pins of the
linear components; a circuit that holds one is compiled by the acausal core
(docs/acausal.md)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import casadi as ca

from ..acausal.base import AcausalComponent
from ..base import as_scalars, param
from ..errors import ModelError
from ..ports import Pin


class _TwoPin(AcausalComponent):
    """Pins p, n; v = p.v − n.v, i = p.i = −n.i; dissipates v·i."""

    def _make_pins(self) -> None:
        self.p = Pin(self, "p")
        self.n = Pin(self, "n")

    def _branch(self, v) -> tuple:
        return v.p.v - v.n.v, v.p.i

    def dissipated_power(self, v):
        u, i = self._branch(v)
        return u * i


@dataclass(eq=False)
class Diode(_TwoPin):
    """Exponential diode with a parallel ohmic leakage (MSL ``Semiconductors.Diode``):
    i = Ids·(exp(v/Vt) − 1) + v/R, continued linearly (value and slope) above v/Vt = Maxexp
    so that Newton's iterations never overflow.

    Ids : [A] saturation current, > 0. Vt : [V] voltage equivalent of temperature
    (k·T/q), > 0. Maxexp : [1] linear continuation above exp(Maxexp). R : [Ω] parallel
    ohmic resistance, > 0.
    """

    Ids: float = param(1e-6, "A", "saturation current")
    Vt: float = param(0.04, "V", "voltage equivalent of temperature (kT/q)")
    Maxexp: float = param(15.0, "1", "max. exponent for linear continuation")
    R: float = param(1e8, "Ohm", "parallel ohmic resistance")

    def __post_init__(self):
        as_scalars(self, "Diode", "Ids", "Vt", "Maxexp", "R")
        self._make_pins()

    def validate(self) -> None:
        for name in ("Ids", "Vt", "R"):
            if not getattr(self, name) > 0:
                raise ModelError(f"{self.path}: {name} must be positive, got "
                                 f"{getattr(self, name)}")

    def equations(self, v) -> list:
        u, i = self._branch(v)
        x = u / self.Vt
        law = ca.if_else(x > self.Maxexp,
                         self.Ids * (ca.exp(self.Maxexp) * (1 + x - self.Maxexp) - 1),
                         self.Ids * (ca.exp(x) - 1)) + u / self.R
        return [v.p.i + v.n.i, i - law]


@dataclass(eq=False)
class IdealDiode(_TwoPin):
    """Ideal diode as a piecewise-linear curve in the parameter s (MSL ``Ideal.IdealDiode``):
    off (s < 0): v = s + Vknee, i = Goff·(s + Vknee); on: v = Ron·s + Vknee,
    i = s + Goff·Vknee. The kink is passed by the integrator's step control (no event).

    Ron : [Ω] forward resistance, ≥ 0. Goff : [S] backward conductance, ≥ 0.
    Vknee : [V] forward threshold voltage, ≥ 0.
    """

    Ron: float = param(1e-5, "Ohm", "forward state-on differential resistance")
    Goff: float = param(1e-5, "S", "backward state-off conductance")
    Vknee: float = param(0.0, "V", "forward threshold voltage")
    VARIABLES: ClassVar[dict] = {"s": "1"}

    def __post_init__(self):
        as_scalars(self, "IdealDiode", "Ron", "Goff", "Vknee")
        self._make_pins()

    def validate(self) -> None:
        for name in ("Ron", "Goff", "Vknee"):
            if not getattr(self, name) >= 0:
                raise ModelError(f"{self.path}: {name} must be non-negative, got "
                                 f"{getattr(self, name)}")

    def equations(self, v) -> list:
        u, i = self._branch(v)
        off = v.s < 0
        return [v.p.i + v.n.i,
                u - (v.s * ca.if_else(off, 1, self.Ron) + self.Vknee),
                i - (v.s * ca.if_else(off, self.Goff, 1) + self.Goff * self.Vknee)]


class IdealOpAmp(AcausalComponent):
    """Ideal operational amplifier with three pins (MSL ``Ideal.IdealOpAmp3Pin``, a nullator
    at the inputs and a norator at the output): in_p.v = in_n.v, in_p.i = in_n.i = 0, the
    output's voltage and current follow from the circuit (it needs feedback to be
    determined). Its supply delivers the output's power, −out.v·out.i."""

    def __init__(self):
        self.in_p = Pin(self, "in_p")
        self.in_n = Pin(self, "in_n")
        self.out = Pin(self, "out")

    def equations(self, v) -> list:
        return [v.in_p.v - v.in_n.v, v.in_p.i, v.in_n.i]

    def supplied_power(self, v):
        return -v.out.v * v.out.i
