"""Contact between two bodies' collision shapes, and the declarations that make them.

:class:`BodyContact` is one contact point of a pair of shapes fixed in two frames (``frame_a``,
``frame_b``; a shape fixed in the world is on the World's frame): the same rigid law as
:class:`~.contacts.GroundContact` (impacts with Newton's restitution and Coulomb's cone,
closed contacts as constraints, stick, slide, lift-off) or its compliant Hunt–Crossley law,
with the gap, normal and witness points of :mod:`.narrow` in place of a point above a plane.
The normal points from shape a to shape b; ``f_n`` ≥ 0 pushes b along it and a against it.

Declare collision shapes with ``component.collide(Sphere(0.05), mu=0.3, e=0.9)`` (the
component's frame_a, or ``frame=``; :mod:`jourdain.blocks.colliders`), as visual shapes are
attached with ``shape()``; at
compile time every two shapes that may touch (other bodies, not parent and child, groups)
become BodyContacts under the model's ``contacts`` (``jourdain.solver.collision``).
"""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca

from ..errors import ModelError
from ..ports import Frame
from ..visual.shapes import Mesh, VisualShape
from .contacts import ContactLaw, GroundContact
from .narrow import contact, mesh_vertices, point_count, tangent_basis

@dataclass(eq=False)
class BodyContact(GroundContact):
    """Contact point ``point`` of ``shape_a`` (fixed in frame_a) against ``shape_b`` (fixed
    in frame_b); the other parameters are GroundContact's (mu, mu_static, e, v_rest, law, c,
    d, n, v_eps). Forces in the Result: ``f_n`` along the normal from a to b, ``f_t[0]``,
    ``f_t[1]`` along the tangents of :func:`.narrow.tangent_basis`."""

    shape_a: object = None
    shape_b: object = None
    point: int = 0

    def __post_init__(self):
        super().__post_init__()
        for name in ("shape_a", "shape_b"):
            if not isinstance(getattr(self, name), VisualShape):
                raise ModelError(f"BodyContact: {name} must be a collision shape (Sphere, "
                                 f"Capsule, Box, Mesh, Plane), got {getattr(self, name)!r}")
        count = point_count(self.shape_a, self.shape_b, "BodyContact")
        if not (isinstance(self.point, int) and 0 <= self.point < count):
            raise ModelError(f"BodyContact: point must be an integer in [0, {count}), got "
                             f"{self.point!r}")
        self._vertices = next((mesh_vertices(s) for s in (self.shape_a, self.shape_b)
                               if isinstance(s, Mesh)), None)
        self.frame_b = Frame(self, "frame_b")

    def contact_geometry(self) -> dict:
        """The contact as the time-stepping mode reads it (solver.stepping.scene): the pair
        of shapes, carried by point 0 only (that mode's narrow phase makes every contact
        point of a pair itself; the other points give None)."""
        pair = (self.frame_a.path, self.shape_a, self.frame_b.path, self.shape_b)
        return {"pair": pair if self.point == 0 else None, "mu": self.mu, "e": self.e,
                "v_rest": self.v_rest, "compliant": self.law is ContactLaw.COMPLIANT}

    def witness(self, ctx):
        """(gap, n, p_a, p_b) of this contact point (world axes)."""
        return contact(self.shape_a, ctx.frame(self.frame_a), self.shape_b,
                       ctx.frame(self.frame_b), self.point, self._vertices)

    def _kinematics(self, ctx):
        fa, fb = ctx.frame(self.frame_a), ctx.frame(self.frame_b)
        gap, n, pa, pb = self.witness(ctx)
        p = (pa + pb) / 2     # both bodies' velocities at one point: n·v_rel = ġ
        v = fb.v + ca.cross(fb.w, p - fb.r) - fa.v - ca.cross(fa.w, p - fa.r)
        t1, t2 = tangent_basis(n)
        return gap, ca.dot(n, v), ca.dot(t1, v), ca.dot(t2, v)
