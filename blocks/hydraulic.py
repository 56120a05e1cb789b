"""A small hydraulic domain on the acausal core (docs/acausal.md): a pressure source, a
volume of compressible liquid and a turbulent orifice, connected by FluidPort (pressure p
[Pa], volume flow V_flow [m³/s] into the component). Not an MSL package: the MSL's
Modelica.Fluid carries media and energy balances this example leaves out."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .acausal.base import AcausalComponent
from .base import as_scalars, param
from .errors import ModelError
from .ports import FluidPort


def _positive(comp, *names) -> None:
    for name in names:
        if not getattr(comp, name) > 0:
            raise ModelError(f"{comp.path}: {name} must be positive, got {getattr(comp, name)}")


@dataclass(eq=False)
class FixedPressure(AcausalComponent):
    """A reservoir at a fixed pressure: port.p = p; it supplies −p·port.V_flow.

    p : [Pa] pressure.
    """

    p: float = param(1e5, "Pa", "pressure")

    def __post_init__(self):
        as_scalars(self, "FixedPressure", "p")
        self.port = FluidPort(self, "port")

    def equations(self, v) -> list:
        return [v.port.p - self.p]

    def supplied_power(self, v):
        return -v.port.p * v.port.V_flow


@dataclass(eq=False)
class Volume(AcausalComponent):
    """A rigid volume of liquid with bulk modulus beta: (V/beta)·der(p) = port.V_flow;
    state ``p`` [Pa] (start ``p_start``); stores ½·(V/beta)·p².

    V : [m³] volume, > 0. beta : [Pa] bulk modulus, > 0. p_start : [Pa] initial pressure.
    """

    V: float = param(1e-3, "m3", "volume")
    beta: float = param(1.5e9, "Pa", "bulk modulus")
    p_start: float = param(1e5, "Pa", "initial pressure")
    VARIABLES: ClassVar[dict] = {"p": "Pa"}

    def __post_init__(self):
        as_scalars(self, "Volume", "V", "beta", "p_start")
        self.port = FluidPort(self, "port")

    def validate(self) -> None:
        _positive(self, "V", "beta")

    def equations(self, v) -> list:
        return [v.p - v.port.p, self.V / self.beta * v.der(v.p) - v.port.V_flow]

    def start(self) -> dict:
        return {"p": self.p_start}

    def stored_energy(self, v):
        return 0.5 * self.V / self.beta * v.p ** 2


@dataclass(eq=False)
class Orifice(AcausalComponent):
    """Turbulent orifice from port_a to port_b: V_flow = Cd·A·√(2·|Δp|/rho)·sign(Δp),
    Δp = port_a.p − port_b.p, written as the pressure drop of the flow,
    Δp = V_flow·√(V_flow² + V_small²)/k² with k = Cd·A·√(2/rho) and V_small = k·√dp_small:
    smooth through 0, and when the flow is solved by Newton inside f (orifices in series)
    the iteration runs on a monotone function, convex for each sign of the flow (the square
    root form makes Newton cycle). It dissipates Δp·V_flow.

    Cd : [1] discharge coefficient, > 0. A : [m²] area, > 0. rho : [kg/m³] density, > 0.
    dp_small : [Pa] regularization (the law is exact to a relative dp_small/Δp), > 0.
    """

    Cd: float = param(0.7, "1", "discharge coefficient")
    A: float = param(1e-6, "m2", "orifice area")
    rho: float = param(850.0, "kg/m3", "density")
    dp_small: float = param(1e-2, "Pa", "regularization of the law near 0")

    def __post_init__(self):
        as_scalars(self, "Orifice", "Cd", "A", "rho", "dp_small")
        self.port_a = FluidPort(self, "port_a")
        self.port_b = FluidPort(self, "port_b")

    def validate(self) -> None:
        _positive(self, "Cd", "A", "rho", "dp_small")

    def equations(self, v) -> list:
        k = self.Cd * self.A * (2 / self.rho) ** 0.5
        q = v.port_a.V_flow
        drop = q * (q ** 2 + k ** 2 * self.dp_small) ** 0.5 / k ** 2
        return [v.port_a.p - v.port_b.p - drop, v.port_a.V_flow + v.port_b.V_flow]

    def dissipated_power(self, v):
        return (v.port_a.p - v.port_b.p) * v.port_a.V_flow
