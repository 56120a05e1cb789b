"""Small hybrid models shared by the hybrid tests: a ball on a vertical slider, a pendulum, a
shaft (a 1-D inertia on a revolute about a vertical axis) and a block on a slider."""
from __future__ import annotations

import jourdain as jd
from jourdain.blocks import Prismatic, Revolute, RigidBody, World


def ball(m: float = 0.5, **stop) -> jd.Model:
    """A point mass on a vertical Prismatic ``slide`` (s = height [m]) above a floor at
    s = 0, modelled by a Stop ``floor`` with the given options (None: no floor)."""
    from jourdain.blocks.hybrid import Stop
    model = jd.Model(world=World())
    model.slide, model.ball = Prismatic(axis=(0, 1, 0)), RigidBody(m=m)
    model.connect(model.world.frame_b, model.slide.frame_a)
    model.connect(model.slide.frame_b, model.ball.frame_a)
    if stop is not None:
        model.floor = Stop(lower=0.0, **stop)
        model.connect(model.floor.flange_b, model.slide.axis)
    return model


def pendulum(model: jd.Model, name: str = "joint", m: float = 1.0, l: float = 0.5,
             parent=None) -> tuple:
    """A point-mass pendulum (mass m [kg] at distance l [m] along −y of the joint frame, φ = 0
    hanging down) on a Revolute about z; returns (joint, body)."""
    joint = model.add(name, Revolute(axis=(0, 0, 1)))
    body = model.add(f"{name}_bob", RigidBody(m=m, r_cm=(0.0, -l, 0.0)))
    model.connect(parent if parent is not None else model.world.frame_b, joint.frame_a)
    model.connect(joint.frame_b, body.frame_a)
    return joint, body


def shaft(model: jd.Model, name: str, J: float, parent=None) -> Revolute:
    """A 1-D rotational inertia J [kg·m²]: a body on a Revolute about the vertical y axis
    (gravity does not act on the rotation); returns the joint (its ``axis`` is the flange)."""
    joint = model.add(name, Revolute(axis=(0, 1, 0)))
    body = model.add(f"{name}_body", RigidBody(m=1.0, I=(J / 2, J, J / 2)))
    model.connect(parent if parent is not None else model.world.frame_b, joint.frame_a)
    model.connect(joint.frame_b, body.frame_a)
    return joint


def slider(model: jd.Model, name: str, m: float, parent=None) -> Prismatic:
    """A 1-D mass m [kg] on a horizontal Prismatic along x; returns the joint."""
    joint = model.add(name, Prismatic(axis=(1, 0, 0)))
    body = model.add(f"{name}_body", RigidBody(m=m))
    model.connect(parent if parent is not None else model.world.frame_b, joint.frame_a)
    model.connect(joint.frame_b, body.frame_a)
    return joint
