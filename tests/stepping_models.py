"""Scenes of the time-stepping tests: free bodies (FreeJoint + RigidBody) with ground
contacts or collision pairs."""
from __future__ import annotations

import numpy as np

import jourdain as jd
from jourdain.blocks import FreeJoint, RigidBody, World
from jourdain.blocks.hybrid import BoxContact, GroundContact


def free_body(model, name: str, m: float, inertia) -> RigidBody:
    joint = model.add(f"{name}_j", FreeJoint())
    body = model.add(name, RigidBody(m=m, I=inertia))
    model.connect(model.world.frame_b, joint.frame_a)
    model.connect(joint.frame_b, body.frame_a)
    return body


def ball_on_ground(radius=0.1, m=1.0, e=0.0, mu=0.5) -> jd.Model:
    model = jd.Model(world=World())
    body = free_body(model, "ball", m, (0.4 * m * radius**2,) * 3)
    model.contact = GroundContact(radius=radius, e=e, mu=mu, v_rest=1e-3)
    model.connect(model.contact.frame_a, body.frame_a)
    return model


def box_on_ground(size=0.2, m=1.0, e=0.5, mu=0.5) -> jd.Model:
    model = jd.Model(world=World())
    body = free_body(model, "box", m, (m * size**2 / 6,) * 3)
    model.contact = BoxContact((size,) * 3, mu=mu, e=e, v_rest=0.05)
    model.connect(model.contact.frame_a, body.frame_a)
    return model


def block_on_incline(theta: float, mu: float) -> jd.Model:
    """A point block on the plane through the origin tilted by θ about z (normal
    (−sin θ, cos θ, 0)), held on it by gravity, free to slide along x and y."""
    model = jd.Model(world=World())
    free_body(model, "block", 1.0, (1e-3,) * 3)
    model.contact = GroundContact(normal=(-np.sin(theta), np.cos(theta), 0.0), mu=mu)
    model.connect(model.contact.frame_a, model.block.frame_a)
    return model


def two_balls(radius=0.1, m=(1.0, 2.0)) -> jd.Model:
    model = jd.Model(world=World(g=(0.0, 0.0, 0.0)))
    for k, mass in enumerate(m):
        free_body(model, f"ball{k}", mass, (0.4 * mass * radius**2,) * 3)
    return model

