"""Random kinematic trees, the scale test and benchmark models of the recursive back end."""
from __future__ import annotations

import numpy as np

from jourdain.blocks.base import as_size
from jourdain.blocks import (Composite, FixedRotation, Prismatic, Revolute, RigidBody,
                             RotationalSpring, TranslationalSpring, ViscousFriction)


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


def _unit(rng: np.random.Generator) -> tuple:
    v = rng.normal(size=3)
    return tuple(v / np.linalg.norm(v))


def _random_body(rng: np.random.Generator) -> RigidBody:
    m = rng.uniform(0.5, 2.0)
    a, b, c = rng.uniform(0.1, 0.5, 3)
    box = m / 12 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    Q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    return RigidBody(m=m, r_cm=tuple(rng.uniform(-0.3, 0.3, 3)), I=Q @ box @ Q.T)
