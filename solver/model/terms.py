"""The physical terms the equations of motion are assembled from, in (t, y, w, u, p): bodies
(inertia and velocities), force elements with a relative position s and rate w (1-D flange
elements and 3-D line forces: potential, dissipation, residual force) and loads (forces and
torques on frames in world coordinates: 3-D force elements, non-uniform gravity)."""
from __future__ import annotations

from dataclasses import dataclass

import casadi as ca


@dataclass
class BodyTerms:
    """A body's inertia, the velocity of its center of mass and its angular velocity, both in
    body axes, in terms of y and the joint speeds w. ``on_tree`` is False for point masses
    that ride on a line force (not attached to a link of the spanning tree)."""

    path: str
    m: object
    I: object
    R: ca.SX          # body axes → world
    r_cm: ca.SX       # position of the center of mass in world coordinates [m]
    v: ca.SX          # velocity of the center of mass in body axes [m/s]
    w: ca.SX          # angular velocity in body axes [rad/s]
    w_axes: ca.SX     # angular velocity of the axes of v and w (transport terms; = w mostly)
    on_tree: bool = True


@dataclass
class FlangeTerms:
    """A force element with its relative position s and rate w (in y, ẏ) and its force: a 1-D
    element between two flanges, or a line force (s = distance of two frames' origins)."""

    path: str
    s: ca.SX
    w: ca.SX
    potential: ca.SX
    dissipation: ca.SX
    force: ca.SX      # residual (non-potential, non-dissipative) force on flange_b
    spring_force: ca.SX   # −∂V/∂s
    damping_force: ca.SX  # −∂D/∂w


@dataclass
class InertiaTerms:
    """A 1-D body (Inertia J [kg·m²], Mass m [kg]) and the rate of its flange net (in y, w)."""

    path: str
    J: object
    net: int
    w: ca.SX


@dataclass
class LoadTerms:
    """A force f [N] applied at a point moving with the world velocity v and a torque t [N·m]
    on axes turning with the world angular velocity w, all in world coordinates (y, w).
    ``conservative`` loads (gravity of a field with a potential) are already in the potential
    energy: the Lagrange formulation takes them from V, the projection from f."""

    path: str
    v: ca.SX
    w: ca.SX
    f: ca.SX
    t: ca.SX
    conservative: bool = False

    def generalized(self, speeds: ca.SX, v=None, w=None) -> ca.SX:
        """(∂v/∂speeds)ᵀ·f + (∂w/∂speeds)ᵀ·t: the load's generalized force on ``speeds``
        (v, w: the velocities rewritten in those speeds, default as stored)."""
        v = self.v if v is None else v
        w = self.w if w is None else w
        return ca.mtimes(ca.jacobian(v, speeds).T, self.f) + \
            ca.mtimes(ca.jacobian(w, speeds).T, self.t)


def element_terms(path: str, s, w, elem, ctx) -> FlangeTerms:
    """The terms of an element with the 1-D hooks potential(s), dissipation(w), force(s, w,
    ctx): symbols stand in for s and w so V(s) and D(w) are differentiated locally."""
    s_sym, w_sym = ca.SX.sym("s_rel"), ca.SX.sym("w_rel")
    V, D = ca.SX(elem.potential(s_sym)), ca.SX(elem.dissipation(w_sym))
    parts = [V, D, ca.SX(elem.force(s_sym, w_sym, ctx)), -ca.jacobian(V, s_sym),
             -ca.jacobian(D, w_sym)]
    values = [ca.substitute(e, ca.vertcat(s_sym, w_sym), ca.densify(ca.vertcat(s, w)))
              for e in parts]
    return FlangeTerms(path, s, w, *values)
