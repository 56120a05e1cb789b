"""Pendulums built from blocks: simple, double and planar n-link chains.

All swing in the x–y plane about z, with gravity along −y; angles are joint-relative and 0
means hanging straight down. Each exposes ``frame_a`` (the top pivot) to mount on a World.
"""
from __future__ import annotations

from jourdain.blocks.base import as_size
from jourdain.blocks import (Composite, FixedTranslation, Revolute, RigidBody,
                             ViscousFriction)


class Pendulum(Composite):
    """Point mass m [kg] at distance l [m] below a revolute pivot; optional central inertia
    J [kg·m²] about z and viscous pivot damping d [N·m·s/rad]. Coordinate ``joint.phi``."""

    def __init__(self, m: float = 1.0, l: float = 1.0, J: float = 0.0, d: float = 0.0):
        super().__init__()
        self.joint = Revolute(axis=(0, 0, 1))
        # J about z; a body with inertia about one axis only is impossible (triangle
        # inequality), so model it as slender along y: I = diag(J, 0, J).
        self.bob = RigidBody(m=m, r_cm=(0, -l, 0), I=(J, 0.0, J))
        self.damper = ViscousFriction(d=d)
        self.connect(self.joint.frame_b, self.bob.frame_a)
        self.connect(self.damper.flange_b, self.joint.axis)
        self.expose(self.joint.frame_a, "frame_a")


class DoublePendulum(Composite):
    """Two point masses m1, m2 [kg] on massless rods l1, l2 [m]; coordinates ``joint1.phi``
    (absolute) and ``joint2.phi`` (relative to link 1)."""

    def __init__(self, m1: float = 1.0, m2: float = 1.0, l1: float = 1.0, l2: float = 1.0):
        super().__init__()
        self.joint1 = Revolute(axis=(0, 0, 1))
        self.bob1 = RigidBody(m=m1, r_cm=(0, -l1, 0))
        self.rod1 = FixedTranslation(r=(0, -l1, 0))
        self.joint2 = Revolute(axis=(0, 0, 1))
        self.bob2 = RigidBody(m=m2, r_cm=(0, -l2, 0))
        self.connect(self.joint1.frame_b, self.bob1.frame_a)
        self.connect(self.joint1.frame_b, self.rod1.frame_a)
        self.connect(self.rod1.frame_b, self.joint2.frame_a)
        self.connect(self.joint2.frame_b, self.bob2.frame_a)
        self.expose(self.joint1.frame_a, "frame_a")


class NLinkPendulum(Composite):
    """Planar chain of n uniform slender rods (mass m [kg], length l [m], central inertia
    m·l²/12 about z), hinged end to end; coordinates ``joint1.phi`` … ``joint{n}.phi``
    (joint-relative), the model of benchmarks/chain.py."""

    def __init__(self, n: int = 3, m: float = 1.0, l: float = 1.0):
        super().__init__()
        n = as_size(n, "NLinkPendulum", "n (the number of links)")
        J = m * l**2 / 12.0
        previous = None
        for i in range(1, n + 1):
            joint = self.add(f"joint{i}", Revolute(axis=(0, 0, 1)))
            link = self.add(f"link{i}", RigidBody(m=m, r_cm=(0, -l / 2, 0), I=(J, 0.0, J)))
            self.connect(joint.frame_b, link.frame_a)
            if previous is None:
                self.expose(joint.frame_a, "frame_a")
            else:
                self.connect(previous.frame_b, joint.frame_a)
            if i < n:
                previous = self.add(f"rod{i}", FixedTranslation(r=(0, -l, 0)))
                self.connect(joint.frame_b, previous.frame_a)
