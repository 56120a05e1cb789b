"""Bodies specified as engineers do (the MSL's ``MultiBody.Parts``; names and parameter names
as there): :class:`BodyShape`, :class:`BodyBox` and :class:`BodyCylinder` between frame_a and
frame_b (r = vector from frame_a to frame_b in frame_a axes; the box and cylinder derive mass,
center of mass and inertia from their dimensions and density), :class:`PointMass`,
:class:`Fixed` (a frame fixed in the world) and :class:`Rotor1D` (a 1-D rotor on a 3-D mount).

The shaped bodies are composites of a ``frameTranslation`` (FixedTranslation by r) and a
``body`` (RigidBody), as in the MSL; their geometry (``shapeType``, ``length``, ``width``, ...)
stays on the component for pictures. The MSL takes default widths from the World
(``defaultWidthFraction`` = 20); here they are length/20 directly.
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca
import numpy as np

from ..base import Composite, as_scalar, as_vector3, param
from ..bodies import Body, RigidBody
from ..errors import ModelError
from ..geometry import from_nxy, unit_axis
from ..joints import FixedTranslation, Revolute
from ..ports import Flange, Frame, Motion
from .interfaces import Mount

DEFAULT_WIDTH_FRACTION = 20.0   # the MSL World's defaultWidthFraction
STEEL = 7700.0                  # [kg/m³] the MSL's default density


class BodyShape(Composite):
    """A rigid body between frame_a and frame_b (MSL ``Parts.BodyShape``).

    r : [m] frame_b's origin in frame_a.   r_CM : [m] center of mass in frame_a.
    m : [kg] mass.   I : [kg·m²] inertia about the center of mass in frame_a axes (3×3 or
    its diagonal); or the MSL's I_11, I_22, I_33, I_21, I_31, I_32.
    Shape for pictures: shapeType, r_shape, lengthDirection, widthDirection, length, width,
    height (defaults as in the MSL).
    """

    def __init__(self, r, r_CM=(0.0, 0.0, 0.0), m=1.0, I=None, *, I_11=0.0, I_22=0.0,
                 I_33=0.0, I_21=0.0, I_31=0.0, I_32=0.0, shapeType="cylinder",
                 r_shape=(0.0, 0.0, 0.0), lengthDirection=None, widthDirection=(0.0, 1.0, 0.0),
                 length=None, width=None, height=None):
        super().__init__()
        if I is None:
            I = [[I_11, I_21, I_31], [I_21, I_22, I_32], [I_31, I_32, I_33]]
        _shape(self, "BodyShape", r, r_shape, lengthDirection, widthDirection, length)
        self.width = self.length / DEFAULT_WIDTH_FRACTION if width is None else float(width)
        self.height = self.width if height is None else float(height)
        self.shapeType = shapeType
        _positive("BodyShape", width=self.width, height=self.height)
        self._assemble(r, m, r_CM, I)

    def _assemble(self, r, m, r_CM, I) -> None:
        self.frameTranslation = FixedTranslation(r=r)
        self.body = RigidBody(m=m, r_cm=r_CM, I=I)
        self.m, self.r_CM, self.I = self.body.m, self.body.r_cm, self.body.I
        self.connect(self.frameTranslation.frame_a, self.body.frame_a)
        self.expose(self.frameTranslation.frame_a, "frame_a")
        self.expose(self.frameTranslation.frame_b, "frame_b")
        self.shape(_picture(self), frame=self.frameTranslation.frame_a)
        self.frameTranslation.shape()   # the body shape replaces the default rod (MSL)


def _picture(obj):
    """The visual shape the MSL draws for a shaped body: a box (length × width × height) or a
    cylinder (diameter, or width for BodyShape) from r_shape along lengthDirection, in
    frame_a. Metadata for animations only (:mod:`jourdain.blocks.visual`)."""
    from ..visual.shapes import Box, Cylinder
    start = np.array(obj.r_shape)
    end = start + np.array(obj.lengthDirection) * obj.length
    if obj.shapeType == "box":
        return Box(size=(obj.length, obj.width, obj.height), center=tuple((start + end) / 2),
                   rotation=tuple(obj.axes.ravel()))
    diameter = obj.diameter if hasattr(obj, "diameter") else obj.width
    return Cylinder.between(tuple(start), tuple(end), diameter / 2)


def _shape(obj, owner: str, r, r_shape, lengthDirection, widthDirection, length) -> None:
    """Shape axes (MSL: lengthDirection = r − r_shape, length = |r − r_shape|)."""
    obj.r = tuple(as_vector3(r, owner, "r"))
    obj.r_shape = tuple(as_vector3(r_shape, owner, "r_shape"))
    span = np.subtract(obj.r, obj.r_shape)
    if lengthDirection is None and np.linalg.norm(span) < 1e-12:
        raise ModelError(f"{owner}: r − r_shape is zero; give lengthDirection and length")
    direction = span if lengthDirection is None else lengthDirection
    obj.lengthDirection = tuple(unit_axis(direction, owner, "lengthDirection"))
    obj.widthDirection = tuple(as_vector3(widthDirection, owner, "widthDirection"))
    obj.length = float(np.linalg.norm(span)) if length is None else \
        as_scalar(length, owner, "length")
    if not obj.length > 0:
        raise ModelError(f"{owner}: length must be positive, got {obj.length} m")
    obj.axes = from_nxy(obj.lengthDirection, obj.widthDirection, owner, strict=False)


def _positive(owner: str, **values) -> None:
    for name, value in values.items():
        if not value > 0:
            raise ModelError(f"{owner}: {name} must be positive, got {value}")


def _solid(obj, owner: str, r, m: float, inertia_shape: np.ndarray) -> None:
    """Mass properties from the shape: center of mass half way along the length, inertia
    rotated from shape axes (length, width, height) into frame_a: I = A·I_shape·Aᵀ."""
    r_CM = np.array(obj.r_shape) + np.array(obj.lengthDirection) * obj.length / 2
    A = obj.axes
    BodyShape._assemble(obj, r, m, r_CM, A @ inertia_shape @ A.T)


class BodyBox(BodyShape):
    """A box between frame_a and frame_b (MSL ``Parts.BodyBox``), optionally hollow.

    r : [m] frame_b's origin in frame_a.   r_shape : [m] start of the box in frame_a.
    lengthDirection (default r − r_shape), widthDirection (default y; if parallel to the
    length, another axis, as in the MSL): box axes in frame_a.
    length [m] (default |r − r_shape|), width [m] (default length/20), height [m] (default
    width), innerWidth, innerHeight [m] (a hollow box; default 0 = solid), density [kg/m³]
    (default 7700, steel).
    Derived (MSL): m = density·length·(width·height − innerWidth·innerHeight), center of mass
    at r_shape + length/2 along lengthDirection, inertia of the outer minus the inner box.
    """

    def __init__(self, r, r_shape=(0.0, 0.0, 0.0), lengthDirection=None,
                 widthDirection=(0.0, 1.0, 0.0), length=None, width=None, height=None,
                 innerWidth=0.0, innerHeight=None, density=STEEL):
        Composite.__init__(self)
        _shape(self, "BodyBox", r, r_shape, lengthDirection, widthDirection, length)
        self.width = self.length / DEFAULT_WIDTH_FRACTION if width is None else float(width)
        self.height = self.width if height is None else float(height)
        self.innerWidth = float(innerWidth)
        self.innerHeight = self.innerWidth if innerHeight is None else float(innerHeight)
        self.density, self.shapeType = float(density), "box"
        _positive("BodyBox", width=self.width, height=self.height, density=self.density)
        if not (0 <= self.innerWidth < self.width and 0 <= self.innerHeight < self.height):
            raise ModelError("BodyBox: need 0 ≤ innerWidth < width and 0 ≤ innerHeight < "
                             f"height, got {self.innerWidth}, {self.innerHeight}")
        L, w, h = self.length, self.width, self.height
        mo = self.density * L * w * h
        mi = self.density * L * self.innerWidth * self.innerHeight
        wi, hi = self.innerWidth, self.innerHeight
        inertia = np.diag([mo * (w**2 + h**2) - mi * (wi**2 + hi**2),
                           mo * (L**2 + h**2) - mi * (L**2 + hi**2),
                           mo * (L**2 + w**2) - mi * (L**2 + wi**2)]) / 12
        _solid(self, "BodyBox", r, mo - mi, inertia)


class BodyCylinder(BodyShape):
    """A cylinder between frame_a and frame_b (MSL ``Parts.BodyCylinder``), optionally a tube.

    r : [m] frame_b's origin in frame_a.   r_shape, lengthDirection, length as for BodyBox.
    diameter [m] (default length/20), innerDiameter [m] (default 0 = solid), density
    [kg/m³] (default 7700).
    Derived (MSL): m = density·π·length·(R² − R_i²), center of mass half way along the axis,
    I_axis = m·(R² + R_i²)/2, I_across = m·(length² + 3·(R² + R_i²))/12.
    """

    def __init__(self, r, r_shape=(0.0, 0.0, 0.0), lengthDirection=None, length=None,
                 diameter=None, innerDiameter=0.0, density=STEEL):
        Composite.__init__(self)
        _shape(self, "BodyCylinder", r, r_shape, lengthDirection, (0.0, 1.0, 0.0), length)
        self.diameter = self.length / DEFAULT_WIDTH_FRACTION if diameter is None \
            else float(diameter)
        self.innerDiameter, self.density = float(innerDiameter), float(density)
        self.shapeType = "pipecylinder" if self.innerDiameter > 0 else "cylinder"
        _positive("BodyCylinder", diameter=self.diameter, density=self.density)
        if not 0 <= self.innerDiameter < self.diameter:
            raise ModelError("BodyCylinder: need 0 ≤ innerDiameter < diameter, got "
                             f"{self.innerDiameter} and {self.diameter}")
        R2, Ri2 = (self.diameter / 2) ** 2, (self.innerDiameter / 2) ** 2
        m = self.density * np.pi * self.length * (R2 - Ri2)
        across = m * (self.length**2 + 3 * (R2 + Ri2)) / 12
        _solid(self, "BodyCylinder", r, m, np.diag([m * (R2 + Ri2) / 2, across, across]))


@dataclass(eq=False)
class PointMass(Body):
    """A point mass m [kg] at the origin of frame_a, no inertia (MSL ``Parts.PointMass``).

    A point mass does not resist rotation: on a joint whose rotation does not move it (a
    ball joint at its position) the mass matrix is singular and compile says so.
    """

    m: float = param(1.0, "kg", "mass")

    def __post_init__(self):
        self.m = as_scalar(self.m, "PointMass", "m")
        self.r_cm = ca.DM.zeros(3)
        self.I = ca.DM.zeros(3, 3)
        self.frame_a = Frame(self, "frame_a")

    def validate(self) -> None:
        if not self.m > 0:
            raise ModelError(f"{self.path}: mass m must be positive, got {self.m} kg")


@dataclass(eq=False)
class Fixed(FixedTranslation):
    """frame_b fixed in the world at r [m] from the world origin (MSL ``Parts.Fixed``): its
    frame_a is attached to the World automatically, so only frame_b is wired."""

    WORLD_MOUNTED = True


@dataclass(eq=False)
class RotorInertia(Body):
    """The inertia of a :class:`Rotor1D`: J [kg·m²] about the unit axis n, no mass. On the
    rotor (``sign`` = +1) I = J·n·nᵀ; on the mount (``sign`` = −1) I = −J·n·nᵀ, which takes
    back the part of the rotor's energy ½·J·(n·ω_mount)² that the carrier body already holds
    (the MSL's Rotor1D adds only the effects of the rotation relative to the mount)."""

    J: float = param(1.0, "kg.m2", "moment of inertia about the axis")
    n: tuple = (1.0, 0.0, 0.0)
    sign: int = 1

    def __post_init__(self):
        self.J = as_scalar(self.J, "Rotor1D", "J")
        self.n = tuple(unit_axis(self.n, "Rotor1D", "n"))
        self.frame_a = Frame(self, "frame_a")

    def validate(self) -> None:
        if not self.J > 0:
            raise ModelError(f"{self.path}: J must be positive, got {self.J} kg·m²")

    m = property(lambda self: 0.0, doc="no mass [kg]")
    r_cm = property(lambda self: ca.DM.zeros(3), doc="center of mass at frame_a [m]")
    I = property(lambda self: self.sign * self.J * ca.DM(np.outer(self.n, self.n)),
                 doc="±J·n·nᵀ [kg·m²]")


class Rotor1D(Composite):
    """A 1-D rotational inertia on a 3-D mount (MSL ``Parts.Rotor1D`` with
    ``world.driveTrainMechanics3D = true`` and ``exact = true``).

    J : [kg·m²] moment of inertia about the axis n (frame_a axes, default x).
    The rotor turns by phi [rad] (coordinate ``<rotor>.phi``, speed ``<rotor>.w``) relative to
    frame_a, the housing, and (as in the MSL) adds only the effects of that relative rotation:
    its kinetic energy beyond the housing's is J·w·(n·ω_a) + ½·J·w², so its equation is
    J·ẇ = τ_flanges − J·n·ω̇_a and it exerts on the housing the gyroscopic torque
    ω_a × (J·n·w) − n·(J·n·ω̇_a), the MSL's frame_a.t. The rotor's mass and full inertia
    (including J about n) belong to a body fixed on the housing, as the MSL prescribes (e.g. a
    BodyCylinder rigidly attached; without it a housing lighter than the rotor has an
    indefinite mass matrix, which is accepted while it is regular, as the MSL's BevelGear1D
    example does, and refused by name when singular). Built as a revolute carrying +J·n·nᵀ and −J·n·nᵀ on the housing.
    ``flange_a`` and ``flange_b`` are the rotor's 1-D flanges (both at phi); a 1-D element
    with its other flange free (or on a :class:`Mounting1D` of the same housing) reacts on
    the housing. r_center, cylinderLength, cylinderDiameter: for pictures only.
    """

    PRIMARY = "revolute"   # the revolute takes the rotor's path: coordinate <rotor>.phi

    def __init__(self, J=1.0, n=(1.0, 0.0, 0.0), r_center=(0.0, 0.0, 0.0),
                 cylinderLength=0.2, cylinderDiameter=0.1):
        super().__init__()
        self.n = tuple(unit_axis(n, "Rotor1D", "n"))
        self.r_center = tuple(as_vector3(r_center, "Rotor1D", "r_center"))
        self.cylinderLength, self.cylinderDiameter = cylinderLength, cylinderDiameter
        self.revolute = Revolute(axis=self.n)
        self.inertia = RotorInertia(J=J, n=self.n)
        self.housingShare = RotorInertia(J=J, n=self.n, sign=-1)
        self.connect(self.revolute.frame_b, self.inertia.frame_a)
        self.connect(self.revolute.frame_a, self.housingShare.frame_a)
        self.expose(self.revolute.frame_a, "frame_a")
        self.expose(self.revolute.axis, "flange_a")
        self.expose(self.revolute.axis, "flange_b")


@dataclass(eq=False)
class Mounting1D(Mount):
    """A 1-D rotational support fixed in frame_a (MSL ``Parts.Mounting1D``): ``flange_b`` sits
    at the constant angle phi0 [rad] about the axis n (frame_a axes), so 1-D elements and
    drivers between it and a joint's or rotor's flange react on the body of frame_a.

    Here the reaction of a 1-D element or driver on a joint flange acts on the joint's
    frame_a, so a Mounting1D must sit on that frame's body (checked at compile time);
    mountings on other bodies are not modelled.
    """

    phi0: float = param(0.0, "rad", "fixed offset angle of the housing")
    n: tuple = (1.0, 0.0, 0.0)

    def __post_init__(self):
        self.phi0 = as_scalar(self.phi0, "Mounting1D", "phi0")
        self.n = tuple(unit_axis(self.n, "Mounting1D", "n"))
        self.frame_a = Frame(self, "frame_a")
        self.flange_b = Flange(self, "flange_b", Motion.ROTATIONAL)

    def support_position(self):
        """The constant angle phi0 [rad] of flange_b."""
        return self.phi0
