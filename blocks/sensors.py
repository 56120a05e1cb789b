"""Sensors: signal blocks whose outputs are kinematic quantities of a flange or a frame."""
from __future__ import annotations

import casadi as ca

from .ports import Flange, Frame, Motion, RealOutput
from .signals import SignalBlock


class AngleSensor(SignalBlock):
    """Angle phi [rad] and angular speed w [rad/s] of a rotational flange (e.g. a joint axis)."""

    def __init__(self):
        self.flange = Flange(self, "flange", Motion.ROTATIONAL)
        self.phi = RealOutput(self, "phi", unit="rad")
        self.w = RealOutput(self, "w", unit="rad/s")

    def outputs(self, ctx) -> dict:
        state = ctx.flange(self.flange)
        return {self.phi: state.s, self.w: state.w}


class PositionSensor(SignalBlock):
    """Position s [m] and speed v [m/s] of a translational flange (e.g. a prismatic axis)."""

    def __init__(self):
        self.flange = Flange(self, "flange", Motion.TRANSLATIONAL)
        self.s = RealOutput(self, "s", unit="m")
        self.v = RealOutput(self, "v", unit="m/s")

    def outputs(self, ctx) -> dict:
        state = ctx.flange(self.flange)
        return {self.s: state.s, self.v: state.w}


class FrameSensor(SignalBlock):
    """Position r [m], velocity v [m/s], orientation R (row-major 3×3, frame → world) and
    angular velocity w [rad/s] of ``frame_a``, all in world coordinates."""

    def __init__(self):
        self.frame_a = Frame(self, "frame_a")
        self.r = RealOutput(self, "r", 3, "m")
        self.v = RealOutput(self, "v", 3, "m/s")
        self.R = RealOutput(self, "R", 9, "1")
        self.w = RealOutput(self, "w", 3, "rad/s")

    def outputs(self, ctx) -> dict:
        state = ctx.frame(self.frame_a)
        return {self.r: state.r, self.v: state.v, self.R: ca.reshape(state.R.T, 9, 1),
                self.w: state.w}
