"""Contracts of the acausal electrical domain (Modelica ``Electrical.Analog``): components with
``Pin`` ports, two-pin branches, and the ground.

A two-pin component (``OnePort``: pins ``p`` and ``n``, voltage v = p.v − n.v, current i from p
through the component to n) says what kind of branch law it has:

* ``BranchKind.RESISTIVE``: v = R·i (``resistance()``);
* ``BranchKind.VOLTAGE``: v is given (``voltage(ctx)``: a source's signal, a capacitor's state,
  an EMF's k·ω, 0 for a current sensor); its current follows from the network;
* ``BranchKind.CURRENT``: i is given (``current(ctx)``: a source's signal, an inductor's state,
  0 for a voltage sensor); its voltage follows from the network.

The solver (:mod:`jourdain.solver.model.networks`) resolves the network by modified nodal
analysis with capacitor voltages and inductor currents as states; hooks read any branch's
voltage and current with ``ctx.voltage(c)`` and ``ctx.current(c)``.
"""
from __future__ import annotations

from enum import Enum
from typing import ClassVar

from ..base import Component
from ..ports import Pin


class BranchKind(Enum):
    """Which branch quantity a two-pin component's law gives."""

    RESISTIVE = "resistive"   # v = R·i
    VOLTAGE = "voltage"       # v given, i from the network
    CURRENT = "current"       # i given, v from the network


class Electrical(Component):
    """Marker contract of a component with electrical pins."""


class OnePort(Electrical):
    """Contract of a two-pin component: pins ``p``, ``n``, its ``KIND`` and the hook of that
    kind (``resistance``, ``voltage`` or ``current``)."""

    KIND: ClassVar[BranchKind] = BranchKind.RESISTIVE

    def _make_pins(self) -> None:
        self.p = Pin(self, "p")
        self.n = Pin(self, "n")

    def resistance(self):
        """R [Ω] of a resistive branch."""
        raise NotImplementedError

    def voltage(self, ctx):
        """v [V] of a voltage branch."""
        raise NotImplementedError

    def current(self, ctx):
        """i [A] of a current branch."""
        raise NotImplementedError


class Ground(Electrical):
    """The electrical ground (Modelica ``Analog.Basic.Ground``): the node of pin ``p`` is at
    potential 0. Every connected circuit needs one."""

    def __init__(self):
        self.p = Pin(self, "p")
