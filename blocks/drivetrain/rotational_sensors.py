"""Sensors of ``Modelica.Mechanics.Rotational.Sensors`` that cut a connection, with the MSL's
outputs: ``RotationalMultiSensor`` (the MSL's ``Rotational.Sensors.MultiSensor``; the name
``MultiSensor`` is the translational one, as ``RotationalSpring`` beside ``Spring``).

The cut torque reads the dynamics (docs/msl.md, "Outputs that read the dynamics"): it may
feed outputs and filters, not the forces of the same mechanism.
"""
from __future__ import annotations

from typing import ClassVar

from ..ports import Motion, RealOutput
from .base import CutSensor


class RotationalMultiSensor(CutSensor):
    """Cut torque tau [N·m], absolute speed w [rad/s] and power [W] = tau·w between flange_a
    and flange_b, which it joins rigidly (MSL ``Rotational.Sensors.MultiSensor``): tau is the
    torque flange_a transmits to flange_b (the MSL's tau = flange_a.tau), as TorqueSensor's,
    w = der(flange_a.phi)."""

    MOTION: ClassVar[Motion] = Motion.ROTATIONAL
    OUTPUT: ClassVar[str] = "tau"

    def __init__(self):
        self._make_ports(RealOutput(self, "tau", unit="N.m"))
        self.w = RealOutput(self, "w", unit="rad/s")
        self.power = RealOutput(self, "power", unit="W")

    def outputs(self, ctx) -> dict:
        tau, w = ctx.cut_force(self), ctx.flange(self.flange_a).w
        return {self.tau: tau, self.w: w, self.power: tau * w}


__all__ = ["RotationalMultiSensor"]
