"""Eddy current brakes (Modelica ``Mechanics.Rotational.Sources.EddyCurrentTorque`` and
``Translational.Sources.EddyCurrentForce``, same names and parameters) on the acausal core:
the braking torque depends on the speed and, through the conductor's resistance, on the
temperature of the optional heat port that takes the losses (``useHeatPort``), and its
maximum on a parameter or, with the MSL's ``useTau_nominalInput`` / ``useF_nominalInput``, on
the input ``tau_input`` / ``f_input`` (the excitation). See docs/acausal.md."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..acausal.base import AcausalComponent
from ..base import as_scalars, param
from ..errors import ModelError
from ..forces import FlangeForce, SupportToFlange
from ..ports import Flange, HeatPort, Motion, RealInput


class _EddyCurrent(SupportToFlange, AcausalComponent, FlangeForce):
    """τ = 2·τ_nominal·v/(1 + v²), v = w/(w_nominal·(1 + alpha20·(T − TRef))), braking
    (−τ acts on ``flange``, τ on ``support``); the losses τ·w ≥ 0 leave through
    ``heatPort`` (heatPort.Q_flow = −τ·w) or, without one, count as dissipated."""

    OPTIONAL_PORTS: ClassVar[tuple] = ("support",)

    INPUT: ClassVar[tuple] = ("", "", "")   # (flag, input name, unit) of the maximum's input

    def _make_ports(self) -> None:
        self.flange = Flange(self, "flange", self.MOTION)
        self.support = Flange(self, "support", self.MOTION)
        if self.useHeatPort:
            self.heatPort = HeatPort(self, "heatPort")
        flag, name, unit = self.INPUT
        if not isinstance(getattr(self, flag), bool):
            raise ModelError(f"{type(self).__name__}: {flag} must be True or False, got "
                             f"{getattr(self, flag)!r}")
        if getattr(self, flag):
            setattr(self, name, RealInput(self, name, unit=unit))

    def _maximum(self, v):
        """The maximum torque or force: the input where enabled, else the parameter."""
        flag, name, _ = self.INPUT
        return getattr(v, name) if getattr(self, flag) else self._nominal()

    def validate(self) -> None:
        if not self._nominal_speed() > 0:
            raise ModelError(f"{self.path}: the nominal speed must be positive, got "
                             f"{self._nominal_speed()}")

    def equations(self, v) -> list:
        T = v.heatPort.T if self.useHeatPort else self.TRef
        speed = v.flange.w - v.support.w
        normalized = speed / (self._nominal_speed() * (1 + self.alpha20 * (T - self.TRef)))
        eqs = [v.tau - 2 * self._maximum(v) * normalized / (1 + normalized ** 2)]
        if self.useHeatPort:
            eqs.append(v.heatPort.Q_flow + v.tau * speed)
        return eqs

    def force(self, s_rel, w_rel, ctx):
        return -ctx.acausal(self).tau

    def dissipated_power(self, v):
        return v.tau * (v.flange.w - v.support.w)

    def supplied_power(self, v):
        """With a heat port the losses enter the thermal network (supplied there)."""
        return -v.heatPort.Q_flow if self.useHeatPort else 0


@dataclass(eq=False)
class EddyCurrentTorque(_EddyCurrent):
    """Rotational eddy current brake (module and class docstrings of _EddyCurrent).

    tau_nominal : [N·m] maximum torque (always braking), reached at w_nominal.
    useTau_nominalInput : the maximum torque from the input ``tau_input`` instead (MSL).
    w_nominal : [rad/s] nominal speed at the reference temperature, > 0.
    alpha20 : [1/K] temperature coefficient of the material's resistance.
    TRef : [K] reference temperature.
    useHeatPort : add ``heatPort`` (the losses heat it; its temperature scales the speed).
    """

    tau_nominal: float = param(1.0, "N.m", "maximum torque (always braking)")
    w_nominal: float = param(1.0, "rad/s", "nominal speed at the reference temperature")
    alpha20: float = param(0.0, "1/K", "temperature coefficient of material")
    TRef: float = param(293.15, "K", "reference temperature")
    useHeatPort: bool = False
    useTau_nominalInput: bool = False
    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    VARIABLES: ClassVar[dict] = {"tau": "N.m"}
    INPUT: ClassVar[tuple] = ("useTau_nominalInput", "tau_input", "N.m")

    def __post_init__(self):
        as_scalars(self, "EddyCurrentTorque", "tau_nominal", "w_nominal", "alpha20", "TRef")
        self._make_ports()

    def _nominal(self):
        return self.tau_nominal

    def _nominal_speed(self):
        return self.w_nominal


@dataclass(eq=False)
class EddyCurrentForce(_EddyCurrent):
    """Translational eddy current brake (as EddyCurrentTorque, with a force).

    f_nominal : [N] maximum force (always braking), reached at v_nominal.
    useF_nominalInput : the maximum force from the input ``f_input`` instead (MSL).
    v_nominal : [m/s] nominal speed at the reference temperature, > 0.
    alpha20 : [1/K] temperature coefficient of the material's resistance.
    TRef : [K] reference temperature.
    useHeatPort : add ``heatPort``.
    """

    f_nominal: float = param(1.0, "N", "maximum force (always braking)")
    v_nominal: float = param(1.0, "m/s", "nominal speed at the reference temperature")
    alpha20: float = param(0.0, "1/K", "temperature coefficient of material")
    TRef: float = param(293.15, "K", "reference temperature")
    useHeatPort: bool = False
    useF_nominalInput: bool = False
    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    VARIABLES: ClassVar[dict] = {"tau": "N"}
    INPUT: ClassVar[tuple] = ("useF_nominalInput", "f_input", "N")

    def __post_init__(self):
        as_scalars(self, "EddyCurrentForce", "f_nominal", "v_nominal", "alpha20", "TRef")
        self._make_ports()

    def _nominal(self):
        return self.f_nominal

    def _nominal_speed(self):
        return self.v_nominal
