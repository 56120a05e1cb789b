"""Rigid bodies: mass, center of mass and inertia tensor attached to one frame."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .base import Component, Shape, as_array, as_scalar, as_vector3, param
from .errors import ModelError
from .ports import Frame


class Body(Component):
    """Contract of a body kind: ``frame_a`` and the attributes ``m``, ``r_cm``, ``I``."""


@dataclass(eq=False)
class RigidBody(Body):
    """A rigid body attached to ``frame_a``.

    Parameters
    ----------
    m : [kg] mass, ≥ 0.
    r_cm : [m] center of mass in frame_a coordinates.
    I : [kg·m²] inertia tensor about the center of mass in frame_a axes: a 3×3 symmetric
        positive semi-definite matrix satisfying the triangle inequality (a zero tensor is a point
        mass), or its diagonal (Ixx, Iyy, Izz). With m = 0 the body is an inertia without
        mass (the MSL's massless BodyShape carrying a rotor's inertia): I ≠ 0 is asked, not
        the triangle inequality; the system's mass matrix must be regular (compile checks it).
    shapes : visual shapes on frame_a (:mod:`jourdain.blocks.visual`), for animations only;
        without them the animation draws a sphere at the center of mass sized by m and a rod
        from frame_a to it.
    """

    m: float = param(1.0, "kg", "mass")
    r_cm: tuple = param((0.0, 0.0, 0.0), "m", "center of mass in frame_a", Shape.VECTOR3)
    I: tuple = param((0.0,) * 9, "kg.m2", "inertia about the center of mass", Shape.SYMMETRIC3)
    shapes: tuple = field(default=(), repr=False)

    def __post_init__(self):
        self.m = as_scalar(self.m, "RigidBody", "m")
        self.r_cm = tuple(as_vector3(self.r_cm, "RigidBody", "r_cm"))
        inertia = as_array(self.I, "RigidBody", "I")
        if inertia.size == 3:
            inertia = np.diag(inertia.ravel())
        if inertia.size != 9:
            raise ModelError(f"RigidBody: I must be 3×3 or its diagonal, got shape {inertia.shape}")
        self.I = inertia.reshape(3, 3)
        self.frame_a = Frame(self, "frame_a")
        self.shapes = tuple(self.shapes)
        if self.shapes:
            self.shape(*self.shapes)

    def validate(self) -> None:
        if not self.m >= 0:
            raise ModelError(f"{self.path}: mass m must be ≥ 0, got {self.m} kg")
        inertia = np.asarray(self.I)
        scale = max(1.0, float(np.abs(inertia).max()))
        if not np.allclose(inertia, inertia.T, atol=1e-12 * scale):
            raise ModelError(f"{self.path}: inertia I must be symmetric, got {inertia.tolist()}")
        principal = np.linalg.eigvalsh(inertia)
        if principal.min() < -1e-12 * scale:
            raise ModelError(f"{self.path}: inertia I must be positive semi-definite; principal "
                             f"moments are {principal.tolist()} kg·m²")
        if self.m == 0:
            # no mass: an inertia without a mass distribution, the MSL's massless body that
            # carries a rotor's inertia (ActuatedDrive: m = 0, I = diag(2, 0, 0)); the
            # triangle inequality belongs to mass distributions, so it is not asked, and
            # whether every speed has inertia is the system's mass matrix's to say
            if not np.abs(principal).max() > 0:
                raise ModelError(f"{self.path}: a body with mass m = 0 and inertia I = 0 "
                                 "carries nothing; give it a mass or an inertia, or remove it")
            return
        a, b, c = principal
        if c > a + b + 1e-9 * scale:
            raise ModelError(f"{self.path}: inertia I violates the triangle inequality "
                             f"({c:g} > {a:g} + {b:g}): no physical body has these moments "
                             "(an inertia without a mass distribution is a body with m = 0)")
