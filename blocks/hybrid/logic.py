"""Event-driven signal logic: a switch that closes when a signal crosses a threshold.

Modelica writes such logic with ``when`` clauses on Boolean variables; here the Boolean is
a discrete variable of the block, set by a guard of its trigger signal.
"""
from __future__ import annotations

from typing import ClassVar

import casadi as ca

from ..base import as_scalar
from ..errors import ModelError
from ..ports import RealInput, RealOutput
from ..signals import SignalBlock
from .base import Direction, Discrete, Guard, Hybrid


class Latch(SignalBlock, Hybrid):
    """y = u once ``trigger`` has crossed ``threshold`` in ``direction`` (and from then on),
    y = 0 before: a controller that takes over when the plant enters its region (a cube
    caught near upright). Inputs ``u`` (size entries) and ``trigger``; outputs ``y`` and
    ``state`` (0 before, 1 after the crossing: the discrete variable ``on``). ``start_on``
    starts it closed."""

    DISCRETE: ClassVar = (Discrete("on", 0.0, "1 once the trigger has crossed", (0, 1)),)

    def __init__(self, threshold: float, direction: Direction = Direction.RISING,
                 size: int = 1, start_on: bool = False):
        self.threshold = as_scalar(threshold, "Latch", "threshold")
        if not isinstance(direction, Direction):
            raise ModelError(f"Latch: direction must be a Direction, got {direction!r}")
        self.direction = direction
        self.u = RealInput(self, "u", size)
        self.trigger = RealInput(self, "trigger")
        self.y = RealOutput(self, "y", size)
        self.state = RealOutput(self, "state")
        if start_on:
            self.DISCRETE = (Discrete("on", 1.0, "1 once the trigger has crossed", (0, 1)),)

    def outputs(self, ctx) -> dict:
        on = ctx.discrete(self)["on"]
        return {self.y: on * ctx.value(self.u), self.state: on}

    def guards(self, ctx):
        return [Guard("trigger", ca.reshape(ctx.value(self.trigger), 1, 1) - self.threshold,
                      self.direction, {"on": (0,)})]

    def on_event(self, guard, state):
        state.set(self, on=1.0)
