"""A neutral description of an imported mechanism: links with inertials and geometry, joints
with types, origins, axes and limits. The URDF and MJCF readers fill it; one builder
(:mod:`.build`) turns it into blocks, so both formats share the block mapping.

Poses are 4×4 homogeneous matrices T = [[R, p], [0, 1]]: R rotates child axes into parent
axes, p is the child origin in parent coordinates [m] (URDF ``<origin>``, MJCF body pos/quat).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

import numpy as np

IDENTITY = np.eye(4)


def pose(R=None, p=None) -> np.ndarray:
    """The 4×4 pose of rotation R (default identity) and translation p [m] (default 0)."""
    T = np.eye(4)
    if R is not None:
        T[:3, :3] = R
    if p is not None:
        T[:3, 3] = p
    return T


def is_identity(T: np.ndarray, tol: float = 1e-15) -> bool:
    return bool(np.abs(np.asarray(T) - IDENTITY).max() <= tol)


class JointType(Enum):
    """Joint kinds of URDF (revolute … planar) and MJCF (hinge = REVOLUTE, slide = PRISMATIC,
    ball = BALL, free = FLOATING)."""

    REVOLUTE = "revolute"
    CONTINUOUS = "continuous"
    PRISMATIC = "prismatic"
    FIXED = "fixed"
    FLOATING = "floating"
    PLANAR = "planar"
    BALL = "ball"

    @property
    def moving(self) -> bool:
        return self is not JointType.FIXED


@dataclass(frozen=True)
class JointLimits:
    """Limits of a joint as written in the file (None: not given). lower/upper [rad or m],
    effort [N·m or N], velocity [rad/s or m/s]. They bound trajectory problems
    (:meth:`Robot.bounds`); the position limits act in simulations as hard stops once
    :meth:`Robot.add_stops` (or ``stops=True`` of the importers) made them so."""

    lower: float | None = None
    upper: float | None = None
    effort: float | None = None
    velocity: float | None = None


@dataclass
class Inertial:
    """Mass m [kg], centre of mass com [m] and inertia I [kg·m²] about the centre of mass, both
    in the axes of the frame they are given in (jourdain's RigidBody convention)."""

    m: float
    com: np.ndarray
    I: np.ndarray

    def moved(self, T: np.ndarray) -> "Inertial":
        """The same inertial expressed in the frame in which ``T`` is the pose of the current
        frame: com' = R·com + p, I' = R·I·Rᵀ."""
        R, p = T[:3, :3], T[:3, 3]
        return Inertial(self.m, R @ self.com + p, R @ self.I @ R.T)

    def merged(self, other: "Inertial") -> "Inertial":
        """Two inertials in the same frame as one rigid body (parallel-axis theorem)."""
        m = self.m + other.m
        if m <= 0:  # massless parts with rotational inertia (some URDF feet): no shift
            return Inertial(0.0, self.com, self.I + other.I)
        com = (self.m * self.com + other.m * other.com) / m
        return Inertial(m, com, _shifted(self, com) + _shifted(other, com))


def _shifted(inertial: Inertial, point: np.ndarray) -> np.ndarray:
    """Inertia of ``inertial`` about ``point`` (Steiner): I + m·(|d|²·E − d·dᵀ)."""
    d = inertial.com - point
    return inertial.I + inertial.m * (d @ d * np.eye(3) - np.outer(d, d))


class GeometryKind(Enum):
    """Shape of a visual or collision element. Sizes (``Geometry.size``) are BOX full extents
    (x, y, z); SPHERE (radius,); CYLINDER and CAPSULE (radius, length) along z; ELLIPSOID
    semi-axes; PLANE half extents (x, y) (0: infinite); MESH the scale (sx, sy, sz)."""

    BOX = "box"
    SPHERE = "sphere"
    CYLINDER = "cylinder"
    CAPSULE = "capsule"
    ELLIPSOID = "ellipsoid"
    PLANE = "plane"
    MESH = "mesh"


class GeometryRole(Enum):
    VISUAL = "visual"
    COLLISION = "collision"


@dataclass(frozen=True)
class Geometry:
    """A visual or collision element of a link, recorded as metadata (no physics).

    link : the link (file name) whose frame ``origin`` (4×4 pose) refers to; mesh : the
    resolved file (None for primitives, or when meshes were not required and it was not
    found), uri : the filename as written in the file; rgba : colour or None.
    """

    kind: GeometryKind
    size: tuple
    origin: np.ndarray
    link: str
    role: GeometryRole
    mesh: Path | None = None
    uri: str | None = None
    rgba: tuple | None = None
    name: str | None = None
    group: int = 1                # collision bits (MJCF contype, conaffinity)
    mask: int = 1
    friction: float | None = None     # sliding friction coefficient (MJCF friction[0])
    solref: tuple | None = None       # MJCF (timeconst, dampratio)


@dataclass
class LinkSpec:
    """A link: its inertial (None: massless) in the link frame and its geometry."""

    name: str
    inertial: Inertial | None
    where: str                      # how to find it in the file, for messages
    visuals: list = field(default_factory=list)
    collisions: list = field(default_factory=list)
    internal: bool = False          # a frame between two joints of one MJCF body


@dataclass
class JointSpec:
    """A joint from ``parent`` to ``child``: the joint frame sits at ``origin`` in the parent
    frame; the joint moves its frame_b relative to it (about / along ``axis``, in the joint
    frame); the child frame sits at ``post`` in frame_b (identity in URDF; MJCF joints with an
    anchor shift there and back)."""

    name: str
    type: JointType
    parent: str
    child: str
    origin: np.ndarray
    where: str
    axis: np.ndarray = field(default_factory=lambda: np.array([1.0, 0.0, 0.0]))
    post: np.ndarray = field(default_factory=lambda: IDENTITY.copy())
    limits: JointLimits = field(default_factory=JointLimits)
    damping: float = 0.0
    friction: float = 0.0
    stiffness: float = 0.0
    armature: float = 0.0         # rotor inertia on the joint's axis [kg·m² or kg] (MJCF)
    spring_ref: float = 0.0       # rest value of the spring, in the joint's coordinate
    ref: float = 0.0              # file value of the coordinate at jourdain's zero (MJCF ref)
    mimic: tuple | None = None    # (leader joint, multiplier, offset): URDF <mimic>


@dataclass
class RobotSpec:
    """A tree of links and joints read from a file, with what could not be imported."""

    name: str
    links: dict[str, LinkSpec]
    joints: list[JointSpec]
    root: str
    source: str
    gravity: tuple = (0.0, 0.0, -9.81)
    unsupported: list[str] = field(default_factory=list)   # "what (where)" per item
    frames: dict = field(default_factory=dict)             # extra named frames: (link, pose)
