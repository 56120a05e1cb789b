"""``Modelica.Mechanics.Translational.Components.Vehicle`` (MSL 4.0) with its parameters and
parts: a mass on a rolling wheel driven at ``flangeR``, with air drag, rolling resistance and
the inclination (grade) resistance; ``flangeT`` couples it to another vehicle (a trailer).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import casadi as ca

from ..actuators import LinearMotor
from ..base import Composite, as_scalar, param
from ..controllers import Gain
from ..errors import ModelError
from ..math import Atan, Sin
from ..ports import Motion, RealInput
from ..signals import Constant
from .converters import IdealRollingWheel
from .rotational import Inertia
from .sources import SpeedDependentSource
from .translational import Mass
from .translational_sources import Regularization, RollingResistance

G_N = 9.80665   # [m/s²] Modelica.Constants.g_n


@dataclass(eq=False)
class WindDrag(SpeedDependentSource):
    """Air drag of the Vehicle, the MSL's ``fDrag`` (a QuadraticSpeedDependentForce with
    ForceDirection = false) whose support moves with the wind: f = f_nominal·(v −
    vWind)·|v − vWind|/v_nominal², with vWind the parameter ``vWindConstant`` or, with
    ``useWindInput``, the input ``vWind`` [m/s]. The MSL moves the drag's support by a
    ``Sources.Speed`` at the wind speed; here the wind speed enters the law (the same force)."""

    MOTION: ClassVar[Motion] = Motion.TRANSLATIONAL
    f_nominal: float = param(-0.6, "N", "force at the nominal relative speed")
    v_nominal: float = param(1.0, "m/s", "nominal relative speed")
    useWindInput: bool = False
    vWindConstant: float = param(0.0, "m/s", "constant wind speed")

    def __post_init__(self):
        self._make_flanges()
        if self.useWindInput:
            self.vWind = RealInput(self, "vWind", unit="m/s")

    def force(self, s_rel, w_rel, ctx):
        wind = ctx.value(self.vWind) if self.useWindInput else self.vWindConstant
        ratio = (w_rel - wind) / self.v_nominal
        return self.f_nominal * ratio * ca.fabs(ratio)


class Vehicle(Composite):
    """Simple ground vehicle (MSL ``Translational.Components.Vehicle``, same parameters):
    ``mass`` (m) on ``idealRollingWheel`` (radius R) with the drive train's ``inertia`` (J)
    at ``flangeR``; ``fDrag`` = Cd·A·rho·(v − vWind)²/2 against the motion, ``fRoll`` =
    Cr·m·g·cos(α)·sign(v) (RollingResistance, regularized linearly within ±vReg) and
    ``fGrav`` = m·g·sin(α) (a force from ``gravForceGain`` = −m·g, ``sin``, ``atan`` of the
    inclination tan α). ``flangeT`` is the mass's flange_b. The vehicle's position and speed
    are the coordinate ``<path>.mass.s`` and ``<path>.mass.v`` (the MSL's s and v).

    m : [kg] total mass.   J : [kg·m²] total inertia of the drive train, ≥ 0.   R : [m] wheel
    radius.   g : [m/s²] gravity (default g_n).   A : [m²] cross section.   Cd : [1] drag
    coefficient.   rho : [kg/m³] air density (1.2).   useWindInput, vWindConstant [m/s].
    useCrInput, CrConstant (0.015).   vReg : [m/s] regularization of the rolling resistance.
    useInclinationInput, inclinationConstant (tan of the road's angle).

    Inputs (when enabled): ``inclination``, ``cr``, ``vWind``.
    Differs: the wind enters the drag law (WindDrag) instead of moving its support with a
    Speed source; the constant blocks of disabled inputs are named as the MSL's
    (``constInclination``).
    """

    def __init__(self, m: float, J: float, R: float, g: float = G_N, A: float = 1.0,
                 Cd: float = 0.5, rho: float = 1.2, useWindInput: bool = False,
                 vWindConstant: float = 0.0, useCrInput: bool = False,
                 CrConstant: float = 0.015, vReg: float = 1e-3,
                 useInclinationInput: bool = False, inclinationConstant: float = 0.0):
        super().__init__()
        for name, value in (("m", m), ("J", J), ("R", R), ("g", g), ("A", A), ("Cd", Cd),
                            ("rho", rho), ("vWindConstant", vWindConstant),
                            ("CrConstant", CrConstant), ("vReg", vReg),
                            ("inclinationConstant", inclinationConstant)):
            object.__setattr__(self, "_" + name, as_scalar(value, "Vehicle", name))
        for name, flag in (("useWindInput", useWindInput), ("useCrInput", useCrInput),
                           ("useInclinationInput", useInclinationInput)):
            if not isinstance(flag, bool):
                raise ModelError(f"Vehicle: {name} must be True or False, got {flag!r}")
        if not self._m > 0:
            raise ModelError(f"Vehicle: total mass m must be positive, got {self._m} kg")
        if not self._R > 0:
            raise ModelError(f"Vehicle: wheel radius R must be positive, got {self._R} m")
        for name in ("A", "Cd", "rho", "g"):
            if not getattr(self, "_" + name) >= 0:
                raise ModelError(f"Vehicle: {name} must be non-negative, got "
                                 f"{getattr(self, '_' + name)}")
        # the mass is declared first: it keeps the coordinate (the MSL's s and v)
        self.mass = Mass(m=self._m)
        self.inertia = Inertia(J=self._J)
        self.idealRollingWheel = IdealRollingWheel(radius=self._R)
        self.fDrag = WindDrag(f_nominal=-self._Cd * self._A * self._rho / 2, v_nominal=1.0,
                              useWindInput=useWindInput, vWindConstant=self._vWindConstant)
        self.fRoll = RollingResistance(fWeight=self._m * self._g, useCrInput=useCrInput,
                                       CrConstant=self._CrConstant,
                                       useInclinationInput=useInclinationInput,
                                       inclinationConstant=self._inclinationConstant,
                                       reg=Regularization.Linear, v0=self._vReg)
        self.fGrav = LinearMotor()   # Translational.Sources.Force
        self.gravForceGain = Gain(-self._m * self._g)
        self.atan, self.sin = Atan(), Sin()
        c = self.connect
        c(self.idealRollingWheel.flangeT, self.mass.flange_a)
        c(self.inertia.flange_b, self.idealRollingWheel.flangeR)
        for force in (self.fDrag.flange, self.fRoll.flange, self.fGrav.flange_b):
            c(self.mass.flange_b, force)
        c(self.sin.u, self.atan.y)
        c(self.gravForceGain.u, self.sin.y)
        c(self.gravForceGain.y, self.fGrav.f)
        if useInclinationInput:
            c(self.atan.u, self.fRoll.inclination)
            self.expose(self.fRoll.inclination, "inclination")
        else:
            self.constInclination = Constant(k=self._inclinationConstant)
            c(self.constInclination.y, self.atan.u)
        if useCrInput:
            self.expose(self.fRoll.cr, "cr")
        if useWindInput:
            self.expose(self.fDrag.vWind, "vWind")
        self.expose(self.inertia.flange_a, "flangeR")
        self.expose(self.mass.flange_b, "flangeT")


__all__ = ["G_N", "Vehicle", "WindDrag"]
