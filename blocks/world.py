"""The inertial frame and the gravity field (the MSL's ``MultiBody.World``)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable

import casadi as ca

from .base import Component, Shape, as_scalar, as_vector3, param
from .errors import ModelError
from .ports import Frame


class GravityTypes(Enum):
    """Kind of gravity field (the MSL's ``Types.GravityTypes``)."""

    NoGravity = "NoGravity"
    UniformGravity = "UniformGravity"
    PointGravity = "PointGravity"


@dataclass(eq=False)
class World(Component):
    """Inertial frame ``frame_b`` at the origin and the gravity field acting on every body's
    center of mass (MSL ``World``: ``gravityType``, ``mue``, ``gravity`` as there).

    Parameters
    ----------
    g : [m/s²] uniform gravity acceleration vector in world coordinates (default −9.81
        along y); used with ``gravityType = GravityTypes.UniformGravity`` (the default).
    gravityType : GravityTypes.UniformGravity, PointGravity (inverse square towards the
        world origin: g(r) = −mue·r/|r|³, potential energy −m·mue/|r|) or NoGravity.
    mue : [m³/s²] gravity field constant of PointGravity (default: the earth's,
        3.986004418e14, as in the MSL).
    gravity : optional user-defined field, a callable r ↦ g(r) on CasADi 3-vectors [m/s²]
        (it replaces gravityType, like the MSL's replaceable function ``gravity``).
    potential : with ``gravity``, optionally r ↦ U(r) [J/kg] with g = −∇U; then the field is
        conservative, its potential energy m·U(r_cm) enters V (and the Lagrange formulation),
        and compile checks g = −∇U at sample points. Without it the field does work that V does
        not show (energy.total is then not conserved).
    """

    g: tuple = param((0.0, -9.81, 0.0), "m/s2", "gravity acceleration vector", Shape.VECTOR3)
    mue: float = param(3.986004418e14, "m3/s2", "gravity field constant (PointGravity)")
    gravityType: GravityTypes = GravityTypes.UniformGravity
    gravity: Callable[[Any], Any] | None = None
    potential: Callable[[Any], Any] | None = None

    def __post_init__(self):
        self.g = tuple(as_vector3(self.g, "World", "g"))
        self.mue = as_scalar(self.mue, "World", "mue")
        if not isinstance(self.gravityType, GravityTypes):
            raise ModelError(f"World: gravityType must be a GravityTypes member, got "
                             f"{self.gravityType!r}")
        for name in ("gravity", "potential"):
            if getattr(self, name) is not None and not callable(getattr(self, name)):
                raise ModelError(f"World: {name} must be a callable r -> ..., got "
                                 f"{getattr(self, name)!r}")
        if self.potential is not None and self.gravity is None:
            raise ModelError("World: potential is given without the field gravity; pass "
                             "gravity=lambda r: ... as well")
        self.frame_b = Frame(self, "frame_b")

    def validate(self) -> None:
        if self.gravityType is GravityTypes.PointGravity and not self.mue > 0:
            raise ModelError(f"{self.path}: mue must be positive for PointGravity, got "
                             f"{self.mue}")

    @property
    def uniform(self) -> bool:
        """True when gravity is the same everywhere (uniform or none)."""
        return self.gravity is None and self.gravityType is not GravityTypes.PointGravity

    def uniform_g(self):
        """The uniform gravity vector [m/s²] (zero for NoGravity)."""
        if self.gravityType is GravityTypes.NoGravity:
            return ca.DM.zeros(3)
        return self.g

    def field(self, r):
        """Gravity acceleration g(r) [m/s²] at the world position r [m]."""
        if self.gravity is not None:
            return _vector3(self.gravity(r), "gravity")
        if self.gravityType is GravityTypes.PointGravity:
            return -self.mue * r / ca.dot(r, r) ** 1.5
        return ca.SX(self.uniform_g())

    def field_potential(self, r):
        """Potential U(r) [J/kg] with g = −∇U, or None for a field given without one."""
        if self.gravity is not None:
            return None if self.potential is None else self.potential(r)
        if self.gravityType is GravityTypes.PointGravity:
            return -self.mue / ca.sqrt(ca.dot(r, r))
        return -ca.dot(ca.SX(self.uniform_g()), r)


def _vector3(value, name: str):
    if isinstance(value, (list, tuple)):
        value = ca.vertcat(*value)
    out = value if isinstance(value, (ca.SX, ca.MX)) else ca.SX(value)
    if out.shape not in ((3, 1), (1, 3)):
        raise ModelError(f"World: {name}(r) must return a 3-vector, got shape {out.shape}")
    return ca.reshape(out, 3, 1)
