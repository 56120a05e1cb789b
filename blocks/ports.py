"""Typed connectors (Modelica style): 3-D frames, 1-D flanges, electrical pins and real-valued
signals.

Ports are objects owned by a component; models are wired by passing port objects to
``connect``, never strings. Connected ports form a *net*:

* frames in a net are one rigid frame (same position and orientation);
* flanges in a net share one 1-D position (an angle [rad] or a length [m]);
* pins in a net are one electrical node (one potential, Kirchhoff's current law);
* signals in a net carry one value, driven by at most one output (a net with no output is a
  system input).
"""
from __future__ import annotations

from enum import Enum


class Motion(Enum):
    """What a 1-D flange moves along: an angle (torques act) or a length (forces act)."""

    ROTATIONAL = "rotational"
    TRANSLATIONAL = "translational"
    ANY = "any"  # force elements that work on either kind take the kind of what they touch


class Port:
    """A connector of a component; ``path`` is its dotted hierarchical name."""

    def __init__(self, owner, name: str):
        self.owner = owner
        self.name = name

    @property
    def path(self) -> str:
        """The dotted path of the port (``cube.motor.tau``)."""
        owner_path = getattr(self.owner, "path", None) or type(self.owner).__name__
        return f"{owner_path}.{self.name}"

    def compatible(self, other: "Port") -> str | None:
        """Why ``other`` cannot be connected to this port, or None when it can."""
        if type(self) is not type(other):
            return f"a {type(self).__name__} cannot be connected to a {type(other).__name__}"
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.path}>"


class Frame(Port):
    """A 3-D coordinate frame rigidly attached to a component (position r_0 [m], orientation R)."""


class Flange(Port):
    """A 1-D mechanical connector: position phi [rad] or s [m], and the torque or force on it."""

    def __init__(self, owner, name: str, motion: Motion = Motion.ANY):
        super().__init__(owner, name)
        self.motion = motion

    def compatible(self, other: Port) -> str | None:
        reason = super().compatible(other)
        if reason is None and Motion.ANY not in (self.motion, other.motion) \
                and self.motion is not other.motion:
            reason = f"a {self.motion.value} flange cannot be connected to a {other.motion.value} one"
        return reason


class _Signal(Port):
    def __init__(self, owner, name: str, size: int = 1, unit: str = ""):
        super().__init__(owner, name)
        self.size = size
        self.unit = unit   # physical unit of the value ("N.m", "rad/s"; "" when unknown)

    def compatible(self, other: Port) -> str | None:
        if not isinstance(other, _Signal):
            return f"a signal cannot be connected to a {type(other).__name__}"
        if other.size != self.size:
            return f"signal sizes differ ({self.size} and {other.size})"
        return None


class RealInput(_Signal):
    """A real-valued signal input (scalar or vector of ``size``); a system input unless wired."""


class RealOutput(_Signal):
    """A real-valued signal output (scalar or vector of ``size``); every output is a system output."""


class Connector(Port):
    """An acausal connector (Modelica ``connector`` with a potential and a ``flow`` variable):
    ``POTENTIAL`` and ``FLOW`` are (name, unit) pairs. Connected connectors of one type share
    their potential, and their flows (positive *into* the component) sum to zero; an
    unconnected connector has flow 0. Subclass it for a new domain (docs/acausal.md)."""

    POTENTIAL: tuple = ("e", "")
    FLOW: tuple = ("f", "")


class Pin(Connector):
    """An electrical pin (Modelica ``Pin``): potential v [V] and current i [A] flowing into the
    component. Connected pins form a node: one potential, currents summing to zero
    (Kirchhoff's current law)."""

    POTENTIAL = ("v", "V")
    FLOW = ("i", "A")


class HeatPort(Connector):
    """A thermal connector (Modelica ``Thermal.HeatTransfer.Interfaces.HeatPort``):
    temperature T [K] and heat flow rate Q_flow [W] into the component."""

    POTENTIAL = ("T", "K")
    FLOW = ("Q_flow", "W")


class FluidPort(Connector):
    """A hydraulic connector: pressure p [Pa] and volume flow rate V_flow [m³/s] into the
    component (p·V_flow is the hydraulic power)."""

    POTENTIAL = ("p", "Pa")
    FLOW = ("V_flow", "m3/s")
