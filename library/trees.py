"""Random kinematic trees, the scale test and benchmark models of the recursive back end, and
random closed loops, the test models of the constraint stage."""
from __future__ import annotations

import numpy as np

from jourdain.blocks import (Composite, FixedRotation, FreeJoint, Prismatic, Revolute,
                             RigidBody, RotationalSpring, Spherical, TranslationalSpring,
                             ViscousFriction)
from jourdain.blocks.base import as_size


class RandomTree(Composite):
    """A random tree of n rigid bodies, reproducible from ``seed``.

    Body i hangs from a body chosen uniformly among the world and bodies 1 … i−1, through a
    fixed offset (``offset{i}``: random rotation, translation up to 0.5 m) and a joint
    ``joint{i}``: a revolute (probability 1 − ``prismatic``) or prismatic joint about a random
    unit axis, with a viscous damper d ∈ [0, 0.2] and a spring c ∈ [0, 2] on it. Masses
    m ∈ [0.5, 2] kg, centers of mass within 0.3 m of the joint frame, central inertias of random
    boxes (sides 0.1 … 0.5 m) in random orientations, so every inertia is physical.
    """

    def __init__(self, n: int = 10, seed: int = 0, prismatic: float = 0.3):
        super().__init__()
        n = as_size(n, "RandomTree", "n (the number of bodies)")
        rng = np.random.default_rng(seed)
        self.parents: list[int] = []  # parent body of body i (0: the world side)
        frames = []  # frame_b of each joint: where the next bodies hang
        for i in range(1, int(n) + 1):
            parent = int(rng.integers(0, i))  # 0 = the tree's frame_a (world side)
            self.parents.append(parent)
            offset = self.add(f"offset{i}", FixedRotation(
                angle=rng.uniform(-np.pi, np.pi), r=rng.uniform(-0.5, 0.5, 3),
                axis=_unit(rng)))
            slide = rng.uniform() < prismatic
            joint = self.add(f"joint{i}", (Prismatic if slide else Revolute)(axis=_unit(rng)))
            spring_type = TranslationalSpring if slide else RotationalSpring
            spring = self.add(f"spring{i}", spring_type(c=rng.uniform(0, 2)))
            damper = self.add(f"damper{i}", ViscousFriction(d=rng.uniform(0, 0.2)))
            body = self.add(f"body{i}", _random_body(rng))
            if i == 1:  # body 1 always hangs from the world side
                self.expose(offset.frame_a, "frame_a")
                root = offset.frame_a
            else:
                self.connect(frames[parent - 1] if parent else root, offset.frame_a)
            self.connect(offset.frame_b, joint.frame_a)
            self.connect(joint.frame_b, body.frame_a)
            self.connect(spring.flange_b, joint.axis)
            self.connect(damper.flange_b, joint.axis)
            frames.append(joint.frame_b)


class RandomLoop(Composite):
    """One closed loop of random geometry through the world, reproducible from ``seed``.

    ``joints`` are the joint classes around the loop (Revolute, Prismatic, Spherical,
    FreeJoint), e.g. (FreeJoint, Spherical, Revolute): ``frame_a`` → ``offset0`` →
    ``joint1`` → ``body1`` → ``offset1`` → ``joint2`` → … → ``joint{k}`` → ``offset{k}`` →
    ``frame_a``. The last joint is declared last, so the compiler cuts it (a FreeJoint there
    would close nothing: put it earlier). Offsets are random rotations with translations up to
    ``reach`` [m]; revolute and prismatic axes are random unit vectors; bodies as in
    RandomTree (m ∈ [0.5, 2] kg, physical inertias). No force element: under the World's
    gravity the loop is conservative, so its total energy is a test reference.
    """

    def __init__(self, joints=(FreeJoint, Spherical, Revolute), seed: int = 0,
                 reach: float = 0.5):
        super().__init__()
        if len(joints) < 2 or joints[-1] is FreeJoint:
            raise ValueError("RandomLoop: give at least two joint classes, the last not a "
                             f"FreeJoint (it is cut and would close nothing), got {joints!r}")
        rng = np.random.default_rng(seed)
        start = self.add("offset0", _random_offset(rng, reach))
        self.expose(start.frame_a, "frame_a")
        frame = start.frame_b
        for i, kind in enumerate(joints, start=1):
            joint = self.add(f"joint{i}", kind(axis=_unit(rng)) if kind in (Revolute, Prismatic)
                             else kind())
            offset = self.add(f"offset{i}", _random_offset(rng, reach))
            self.connect(frame, joint.frame_a)
            self.connect(joint.frame_b, offset.frame_a)
            if i < len(joints):
                body = self.add(f"body{i}", _random_body(rng))
                self.connect(joint.frame_b, body.frame_a)
            frame = offset.frame_b
        self.connect(frame, start.frame_a)


def _random_offset(rng: np.random.Generator, reach: float) -> FixedRotation:
    return FixedRotation(angle=rng.uniform(-np.pi, np.pi), r=rng.uniform(-reach, reach, 3),
                         axis=_unit(rng))


def _unit(rng: np.random.Generator) -> tuple:
    v = rng.normal(size=3)
    return tuple(v / np.linalg.norm(v))


def _random_body(rng: np.random.Generator) -> RigidBody:
    m = rng.uniform(0.5, 2.0)
    a, b, c = rng.uniform(0.1, 0.5, 3)
    box = m / 12 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    Q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    return RigidBody(m=m, r_cm=tuple(rng.uniform(-0.3, 0.3, 3)), I=Q @ box @ Q.T)
