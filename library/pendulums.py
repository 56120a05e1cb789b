"""Pendulums built from blocks: simple, double and planar n-link chains.

All swing in the x–y plane about z, with gravity along −y; angles are joint-relative and 0
means hanging straight down. Each exposes ``frame_a`` (the top pivot) to mount on a World.
"""
from __future__ import annotations

from jourdain.blocks import (
    Composite,
    FixedTranslation,
    Motor,
    Revolute,
    RigidBody,
    RotationalSpring,
    ViscousFriction,
)
from jourdain.blocks.base import as_size


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


class SpringDamperChain(Composite):
    """The planar chain of :class:`NLinkPendulum` with a rotational spring c [N·m/rad] (rest
    angle 0) and a viscous damper d [N·m·s/rad] in every joint: with a large c and d the
    joints are nearly rigid and the fast, strongly damped modes make the equations stiff
    (the stiff case of benchmarks/integrators.py)."""

    def __init__(self, n: int = 3, c: float = 1e4, d: float = 100.0, m: float = 1.0,
                 l: float = 1.0):
        super().__init__()
        self.chain = NLinkPendulum(n, m, l)
        for i in range(1, int(n) + 1):
            spring = self.add(f"spring{i}", RotationalSpring(c=c))
            damper = self.add(f"damper{i}", ViscousFriction(d=d))
            self.connect(spring.flange_b, getattr(self.chain, f"joint{i}").axis)
            self.connect(damper.flange_b, getattr(self.chain, f"joint{i}").axis)
        self.expose(self.chain.frame_a, "frame_a")


class ElasticJointArm(Composite):
    """A link driven by a motor through a compliant gear (M. W. Spong, J. Dyn. Syst. Meas.
    Control 109, 1987): the rotor (inertia J_m [kg·m²], revolute ``rotor``) and the link
    (mass m [kg], center of mass at l/2 [m], revolute ``joint``) turn about the same axis z,
    coupled by a torsion spring c [N·m/rad] and damper d [N·m·s/rad]; the input
    ``motor.tau`` [N·m] drives the rotor. A stiff gear gives a fast, damped rotor mode
    beside the slow swing of the link: a stiff system, like a DC-motor drive's electrical
    time constant."""

    def __init__(self, J_m: float = 1e-3, m: float = 1.0, l: float = 0.5, c: float = 1e4,
                 d: float = 2.0):
        super().__init__()
        self.rotor = Revolute(axis=(0, 0, 1))
        self.rotor_body = RigidBody(m=0.1, I=(J_m, J_m, J_m))
        self.joint = Revolute(axis=(0, 0, 1))
        self.link = RigidBody(m=m, r_cm=(0, -l / 2, 0), I=(m * l**2 / 12, 0.0, m * l**2 / 12))
        self.motor = Motor()
        self.gear = RotationalSpring(c=c)
        self.gear_damping = ViscousFriction(d=d)
        self.connect(self.rotor.frame_b, self.rotor_body.frame_a)
        self.connect(self.joint.frame_b, self.link.frame_a)
        self.connect(self.rotor.frame_a, self.joint.frame_a)
        self.connect(self.motor.flange_b, self.rotor.axis)
        for element in (self.gear, self.gear_damping):
            self.connect(element.flange_a, self.rotor.axis)
            self.connect(element.flange_b, self.joint.axis)
        self.expose(self.joint.frame_a, "frame_a")
