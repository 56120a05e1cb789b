"""Rolling wheels built from blocks (nonholonomic constraints; Murray, Li and Sastry 1994). The ground is the world x–z plane, y up,
gravity −y; the textbook's plane coordinates are (x_s, y_s) = (x, −z), a right-handed pair with
the upward y axis."""
from __future__ import annotations

import numpy as np

from jourdain.blocks import (Composite, FixedTranslation, FreeJoint, Motor, Prismatic,
                             Revolute, RigidBody, RollingContact)


def disk_inertia(m: float, R: float) -> tuple:
    """Uniform thin disk with its axle along z: (¼mR², ¼mR², ½mR²) [kg·m²]."""
    return (0.25 * m * R**2, 0.25 * m * R**2, 0.5 * m * R**2)


class Wheel(Composite):
    """Seed 002's vertical wheel: y = (x_s, y_s, φ, γ) = (``x_s.s``, ``y_s.s``, ``spin.phi``,
    ``steer.phi``): contact-point position in the ground plane [m], rolling angle [rad],
    heading [rad] (about the vertical). A uniform thin disk of radius R [m] and mass m [kg]
    stays upright; the rolling contact gives ẋ_s = R·cos γ·φ̇, ẏ_s = R·sin γ·φ̇.

    ``steerable=False`` removes the heading joint: the wheel rolls along a line, and its
    constraints are integrable (x_s − R·φ = const, y_s = const).
    """

    def __init__(self, R: float = 0.3, m: float = 1.0, steerable: bool = True):
        super().__init__()
        # Declaration order fixes y = (x_s, y_s, φ, γ); the kinematic chain is x, y, γ, φ.
        self.x_s = Prismatic(axis=(1, 0, 0))
        self.y_s = Prismatic(axis=(0, 0, -1))
        self.spin = Revolute(axis=(0, 0, -1))     # rolling forward along the heading for φ̇ > 0
        if steerable:
            self.steer = Revolute(axis=(0, 1, 0))
        self.hub = FixedTranslation(r=(0, R, 0))
        self.disk = RigidBody(m=m, I=disk_inertia(m, R))
        self.contact = RollingContact(R=R, axis=(0, 0, 1))
        self.connect(self.x_s.frame_b, self.y_s.frame_a)
        heading = self.steer.frame_b if steerable else self.y_s.frame_b
        if steerable:
            self.connect(self.y_s.frame_b, self.steer.frame_a)
        self.connect(heading, self.hub.frame_a)
        self.connect(self.hub.frame_b, self.spin.frame_a)
        self.connect(self.spin.frame_b, self.disk.frame_a)
        self.connect(self.spin.frame_b, self.contact.frame_a)
        self.expose(self.x_s.frame_a, "frame_a")


class RollingDisk(Composite):
    """A uniform thin disk (radius R [m], mass m [kg]) free in space on a FreeJoint
    (``joint``: x, y, z, q0..q3; body-fixed ω), rolling without slip on the ground. The disk's
    axle is its z axis; the identity quaternion is the disk upright in the x–y plane."""

    def __init__(self, R: float = 0.25, m: float = 1.0):
        super().__init__()
        self.joint = FreeJoint()
        self.disk = RigidBody(m=m, I=disk_inertia(m, R))
        self.contact = RollingContact(R=R, axis=(0, 0, 1))
        self.connect(self.joint.frame_b, self.disk.frame_a)
        self.connect(self.joint.frame_b, self.contact.frame_a)
        self.expose(self.joint.frame_a, "frame_a")


class AngleRollingDisk(Composite):
    """The rolling disk of :class:`RollingDisk` on joint angles instead of a FreeJoint:
    slides ``x_s.s``, ``y_s.s`` [m] (contact point in the ground plane, as in Wheel), the height
    ``height.s`` [m] (dependent: the contact solves it from the lean), heading ``heading.phi``
    (about the vertical), lean ``lean.phi`` (about the rolling direction) and rolling angle
    ``spin.phi`` [rad]. In steady upright rolling every moving coordinate is cyclic, so
    jd.linearize treats it as a steady motion (stable above Ω² = g/(3R) for a thin disk)."""

    def __init__(self, R: float = 0.25, m: float = 1.0):
        super().__init__()
        self.x_s, self.y_s = Prismatic(axis=(1, 0, 0)), Prismatic(axis=(0, 0, -1))
        self.height, self.heading = Prismatic(axis=(0, 1, 0)), Revolute(axis=(0, 1, 0))
        self.lean, self.spin = Revolute(axis=(1, 0, 0)), Revolute(axis=(0, 0, -1))
        self.disk = RigidBody(m=m, I=disk_inertia(m, R))
        self.contact = RollingContact(R=R, axis=(0, 0, 1))
        chain = [self.x_s, self.y_s, self.height, self.heading, self.lean, self.spin]
        for a, b in zip(chain, chain[1:]):
            self.connect(a.frame_b, b.frame_a)
        self.connect(self.spin.frame_b, self.disk.frame_a)
        self.connect(self.spin.frame_b, self.contact.frame_a)
        self.expose(self.x_s.frame_a, "frame_a")


class DifferentialDrive(Composite):
    """Two driven wheels (radius R [m], mass m_wheel [kg]) on an axle of half-track b [m]
    under a chassis (mass m_chassis [kg], inertia J_chassis about the vertical, center of
    mass on the axle). Chassis pose: ``x_s.s``, ``y_s.s`` [m], heading ``heading.phi``
    [rad]; wheel angles ``left.phi``, ``right.phi``; motor torques ``motor_left.tau``,
    ``motor_right.tau`` [N·m] act between chassis and wheels."""

    def __init__(self, R: float = 0.1, b: float = 0.2, m_wheel: float = 0.5,
                 m_chassis: float = 4.0, J_chassis: float = 0.05):
        super().__init__()
        self.x_s = Prismatic(axis=(1, 0, 0))
        self.y_s = Prismatic(axis=(0, 0, -1))
        self.heading = Revolute(axis=(0, 1, 0))
        self.axle = FixedTranslation(r=(0, R, 0))
        self.chassis = RigidBody(m=m_chassis, I=(J_chassis, J_chassis, J_chassis))
        self.connect(self.x_s.frame_b, self.y_s.frame_a)
        self.connect(self.y_s.frame_b, self.heading.frame_a)
        self.connect(self.heading.frame_b, self.axle.frame_a)
        self.connect(self.axle.frame_b, self.chassis.frame_a)
        for side, offset in (("left", -b), ("right", b)):
            mount = self.add(f"mount_{side}", FixedTranslation(r=(0, 0, offset)))
            spin = self.add(side, Revolute(axis=(0, 0, -1)))
            wheel = self.add(f"wheel_{side}", RigidBody(m=m_wheel, I=disk_inertia(m_wheel, R)))
            contact = self.add(f"contact_{side}", RollingContact(R=R, axis=(0, 0, 1)))
            motor = self.add(f"motor_{side}", Motor())
            self.connect(self.axle.frame_b, mount.frame_a)
            self.connect(mount.frame_b, spin.frame_a)
            self.connect(spin.frame_b, wheel.frame_a)
            self.connect(spin.frame_b, contact.frame_a)
            self.connect(motor.flange_b, spin.axis)
        self.expose(self.x_s.frame_a, "frame_a")


def upright_quaternion(heading: float = 0.0, lean: float = 0.0, prefix: str = "") -> dict:
    """Quaternion of a disk turned by ``heading`` about the vertical y and then leaned by
    ``lean`` about its rolling direction (the body x axis) [rad], as {prefix + "q0": ...},
    e.g. prefix "disk.joint." for y0 of a RollingDisk named disk."""
    qh = np.array([np.cos(heading / 2), 0.0, np.sin(heading / 2), 0.0])
    ql = np.array([np.cos(lean / 2), np.sin(lean / 2), 0.0, 0.0])
    w1, x1, y1, z1 = qh
    w2, x2, y2, z2 = ql
    q = [w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
         w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2]
    return {f"{prefix}q{i}": float(v) for i, v in enumerate(q)}


def disk_lean(q0, q1, q2, q3):
    """Lean angle [rad] of a RollingDisk from its quaternion: asin of the vertical component
    of the axle, −R[1, 2] = 2·(q0·q1 − q2·q3)/|q|² (0 upright); works on arrays."""
    norm2 = q0**2 + q1**2 + q2**2 + q3**2
    return np.arcsin(2 * (q0 * q1 - q2 * q3) / norm2)
