"""Unilateral contact of body-fixed points and spheres with a plane (the ground y = 0 by
default, or any half-space n·r ≥ offset: the walls of a box), with Coulomb friction.

Rigid law (Pfeiffer & Glocker's event-driven scheme): an open contact closes by an impact
(Newton's restitution e on the normal velocity, Coulomb's cone in the impulse); a closed
contact is a constraint on the normal velocity while its normal force pushes, and sticks
(tangential velocity held at zero, |F_t| ≤ μ_s·F_n) or slides (F_t = −μ·F_n·d against the
slip direction d); it lifts off when the normal force would pull. A compliant law replaces
the constraint by a Hunt–Crossley force c·δⁿ·(1 + d·δ̇) with regularized Coulomb friction,
the integrator restarting where contact begins and ends.

Forces in the Result: ``<path>.f_n`` (normal, ≥ 0) and ``<path>.f_t[0]``, ``.f_t[1]``
along the plane's tangents t1, t2 (:func:`tangents`; for the ground y = 0: t1 = z, t2 = x).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import ClassVar

import casadi as ca
import numpy as np

from ..base import Component, Composite, Shape, as_scalar, as_scalars, as_vector3, param
from ..errors import ModelError
from ..geometry import normal_pair, unit_axis
from ..ports import Frame
from .base import Direction, Discrete, Guard, Hybrid, Row
from .stops import GAP_TOL, SPEED_TOL, check_restitution

TIE_TOL = 1e-9   # [N, m/s²] normal forces and accelerations this small count as zero


class ContactMode(IntEnum):
    OPEN = 0
    STICK = 1
    SLIDE = 2


class ContactLaw(Enum):
    RIGID = "rigid"          # impacts, constraints while closed, stick/slip
    COMPLIANT = "compliant"  # Hunt–Crossley normal force, regularized Coulomb friction


def tangents(normal) -> tuple[np.ndarray, np.ndarray]:
    """An orthonormal pair (t1, t2) spanning the plane with unit normal n, t1 × t2 = n."""
    e1, e2 = normal_pair(normal)
    return -e1, -e2      # the joints' pair turned by 180° about n: the contacts' convention


@dataclass(eq=False)
class GroundContact(Component, Hybrid):
    """A sphere of ``radius`` (0: a point) centred at ``r`` in frame_a, against the plane
    n·p = offset (default the ground y = 0), with Coulomb friction.

    Parameters: r [m] (frame_a coordinates); radius [m] ≥ 0; normal (unit, world axes);
    offset [m]; mu [1] sliding and mu_static [1] ≥ mu static friction coefficients;
    e [1] restitution in [0, 1]; v_rest [m/s] normal rebound speed below which the contact
    stays closed; law: ContactLaw.RIGID (default) or COMPLIANT with c [N/mⁿ], d [s/m], n [1]
    (Hunt–Crossley); v_eps [m/s]: a rigid contact whose slip along its sliding direction
    falls below v_eps sticks (the static limit decides whether it stays stuck; a slip that
    turned away from that direction renews it instead), and a slide starting from rest turns
    from the direction of the friction force to that of the slip within v_eps; the compliant
    law regularizes Coulomb friction over v_eps.
    """

    r: tuple = param((0.0, 0.0, 0.0), "m", "contact point (sphere centre) in frame_a",
                     Shape.VECTOR3)
    radius: float = param(0.0, "m", "sphere radius")
    mu: float = param(0.5, "1", "sliding friction coefficient")
    mu_static: float | None = None
    e: float = param(0.0, "1", "coefficient of restitution")
    v_rest: float = param(1e-3, "m/s", "rebound speed below which contact persists")
    normal: tuple = (0.0, 1.0, 0.0)
    offset: float = param(0.0, "m", "plane offset along its normal")
    law: ContactLaw = ContactLaw.RIGID
    c: float = param(1e6, "N/m", "contact stiffness (compliant law)")
    d: float = param(0.0, "s/m", "Hunt–Crossley damping (compliant law)")
    n: float = param(1.5, "1", "exponent of the contact stiffness (compliant law)")
    v_eps: float = param(1e-4, "m/s", "friction regularization speed")
    DISCRETE: ClassVar = (Discrete("mode", ContactMode.OPEN, "0 open, 1 stick, 2 slide",
                                   tuple(ContactMode)),
                          Discrete("slip[0]", 1.0, "slip direction (t1 component)"),
                          Discrete("slip[1]", 0.0, "slip direction (t2 component)"))

    def __post_init__(self):
        owner = "GroundContact"
        self.r = tuple(as_vector3(self.r, owner, "r"))
        as_scalars(self, owner, "radius", "mu", "e", "v_rest", "offset", "c", "d", "n", "v_eps")
        self.mu_static = self.mu if self.mu_static is None else \
            as_scalar(self.mu_static, owner, "mu_static")
        self.e = check_restitution(self.e, owner)
        self.normal = tuple(unit_axis(self.normal, owner))
        if not isinstance(self.law, ContactLaw):
            raise ModelError(f"{owner}: law must be a ContactLaw, got {self.law!r}")
        self.frame_a = Frame(self, "frame_a")

    def validate(self) -> None:
        for name in ("radius", "mu", "v_rest", "c", "d"):
            if not getattr(self, name) >= 0:
                raise ModelError(f"{self.path}: {name} must be non-negative, got "
                                 f"{getattr(self, name)}")
        if not self.mu_static >= self.mu:
            raise ModelError(f"{self.path}: mu_static ({self.mu_static}) must be ≥ mu "
                             f"({self.mu})")
        if not self.v_eps > 0 or not self.n >= 1:
            raise ModelError(f"{self.path}: need v_eps > 0 and n ≥ 1")
        check_restitution(self.e, self.path)     # again: params= may change it at run time
        if self.law is ContactLaw.COMPLIANT and not self.c > 0:
            raise ModelError(f"{self.path}: a compliant contact needs a stiffness c > 0, got "
                             f"{self.c} (with c = 0 nothing holds the body: it falls through "
                             "the ground)")

    def _kinematics(self, ctx):
        """Gap g, normal velocity and the two tangential velocities of the contact point."""
        frame = ctx.frame(self.frame_a)
        n = ca.DM(self.normal)
        centre_offset = ca.mtimes(frame.R, ca.reshape(ca.SX(self.r), 3, 1))
        centre = frame.r + centre_offset
        arm = centre_offset - self.radius * n          # from frame origin to contact point
        v = frame.v + ca.cross(frame.w, arm)
        t1, t2 = (ca.DM(t) for t in tangents(self.normal))
        gap = ca.dot(n, centre) - self.offset - self.radius
        return gap, ca.dot(n, v), ca.dot(t1, v), ca.dot(t2, v)

    def _slide_direction(self, ctx, v1, v2):
        """Unit direction of sliding: the slip velocity, turned towards the stored direction
        d0 within v_eps of zero (a slide starting at rest has a direction)."""
        d = ctx.discrete(self)
        a1, a2 = v1 + self.v_eps * d["slip[0]"], v2 + self.v_eps * d["slip[1]"]
        # bounded where the slip would reverse (the stick guard fires before, at |v| = v_eps;
        # past it, within a segment that is integrated on and then discarded, f stays finite)
        norm = ca.sqrt(a1**2 + a2**2 + (1e-3 * self.v_eps) ** 2)
        return a1 / norm, a2 / norm

    def rows(self, ctx):
        gap, vn, v1, v2 = self._kinematics(ctx)
        if self.law is ContactLaw.COMPLIANT:
            return self._compliant_rows(gap, vn, v1, v2)
        mode = ctx.discrete(self)["mode"]
        closed, stick = mode != ContactMode.OPEN, mode == ContactMode.STICK
        d1, d2 = self._slide_direction(ctx, v1, v2)
        f_n = ctx.multiplier(self, "f_n")
        slide = ca.if_else(mode == ContactMode.SLIDE, 1, 0) * self.mu * f_n
        return [Row("f_n", vn, closed, 0, gap=gap, unilateral=True),
                Row("f_t[0]", v1, stick, -slide * d1, friction_of="f_n"),
                Row("f_t[1]", v2, stick, -slide * d2, friction_of="f_n")]

    def _compliant_rows(self, gap, vn, v1, v2):
        depth = ca.fmax(-gap, 0)
        f_n = ca.fmax(self.c * depth**self.n * (1 - self.d * vn), 0)
        speed = ca.sqrt(v1**2 + v2**2 + self.v_eps**2)
        return [Row("f_n", vn, 0, f_n, gap=gap, unilateral=True,
                    potential=self.c * depth ** (self.n + 1) / (self.n + 1)),
                Row("f_t[0]", v1, 0, -self.mu * f_n * v1 / speed, friction_of="f_n"),
                Row("f_t[1]", v2, 0, -self.mu * f_n * v2 / speed, friction_of="f_n")]

    def guards(self, ctx):
        gap, _, v1, v2 = self._kinematics(ctx)
        if self.law is ContactLaw.COMPLIANT:
            return [Guard("contact", gap, Direction.BOTH)]
        lam = [ctx.multiplier(self, n) for n in ("f_n", "f_t[0]", "f_t[1]")]
        d = ctx.discrete(self)
        closed = (ContactMode.STICK, ContactMode.SLIDE)
        return [Guard("touch", gap, Direction.FALLING, {"mode": (ContactMode.OPEN,)}),
                Guard("lift", lam[0], Direction.FALLING, {"mode": closed}),
                Guard("slip", ca.sqrt(lam[1]**2 + lam[2]**2) - self.mu_static * lam[0],
                      Direction.RISING, {"mode": (ContactMode.STICK,)}),
                Guard("stop", v1 * d["slip[0]"] + v2 * d["slip[1]"] - self.v_eps,
                      Direction.FALLING, {"mode": (ContactMode.SLIDE,)})]

    def contact_geometry(self) -> dict:
        """The contact as the time-stepping mode reads it (solver.stepping.scene): a sphere
        (radius 0: a point) at r in frame_a against the plane n·p = offset of the world."""
        return {"frame": self.frame_a.path, "center": self.r, "radius": self.radius,
                "normal": self.normal, "offset": self.offset, "mu": self.mu, "e": self.e,
                "v_rest": self.v_rest, "compliant": self.law is ContactLaw.COMPLIANT}

    def monitors(self, ctx):
        return {"e": self.e, "mu": self.mu, "mu_static": self.mu_static,
                "v_rest": self.v_rest, "v_eps": self.v_eps}

    # ---- transitions (rigid law) -------------------------------------------------------
    def _rows(self, state):
        return [state.row(self, n) for n in ("f_n", "f_t[0]", "f_t[1]")]

    def on_event(self, guard, state):
        if guard == "touch":
            state.impact(self, "f_n", ("f_t[0]", "f_t[1]"), state.monitor(self, "e"),
                         state.monitor(self, "mu"))
        elif guard == "lift":
            state.set(self, mode=ContactMode.OPEN)
        elif guard == "slip":
            self._start_slide(state, towards_force=True)
        elif guard == "stop":          # the slip along d0 fell to v_eps
            _, t1, t2 = self._rows(state)
            speed = np.hypot(t1.velocity, t2.velocity)
            if speed <= 2 * state.monitor(self, "v_eps"):
                state.set(self, mode=ContactMode.STICK)      # slow: stick (settle checks)
            else:                                            # the slip turned: follow it
                state.set(self, **{"slip[0]": t1.velocity / speed,
                                   "slip[1]": t2.velocity / speed})

    def _start_slide(self, state, towards_force: bool):
        _, t1, t2 = self._rows(state)
        vec = np.array([-t1.force, -t2.force]) if towards_force else \
            np.array([t1.velocity, t2.velocity])
        norm = np.linalg.norm(vec)
        d = vec / norm if norm > 0 else np.array([1.0, 0.0])
        state.set(self, mode=ContactMode.SLIDE, **{"slip[0]": d[0], "slip[1]": d[1]})

    def after_impact(self, state):
        normal, t1, t2 = self._rows(state)
        if normal.velocity > state.monitor(self, "v_rest"):
            state.set(self, mode=ContactMode.OPEN)
        elif np.hypot(t1.velocity, t2.velocity) <= state.monitor(self, "v_eps"):
            state.set(self, mode=ContactMode.STICK)
        else:
            self._start_slide(state, towards_force=False)

    def impact_friction(self, state, row):
        return state.monitor(self, "mu") if row == "f_n" else None

    def set_row(self, state, row, closed):
        if row != "f_n":
            return
        mode = round(state.discrete(self)["mode"])
        if closed and mode == ContactMode.OPEN:
            self.after_impact(state)               # stick or slide by the tangential speed
        elif not closed and mode != ContactMode.OPEN:
            state.set(self, mode=ContactMode.OPEN)

    def settle(self, state):
        if self.law is not ContactLaw.RIGID:
            return False
        mode = round(state.discrete(self)["mode"])
        normal, t1, t2 = self._rows(state)
        # a contact touching with zero force and zero acceleration is a tie, not a reason to
        # switch: round-off of ±1e-13 N would flip it open and closed forever
        if mode != ContactMode.OPEN and normal.force < -TIE_TOL:
            state.set(self, mode=ContactMode.OPEN)
            return True
        if mode == ContactMode.STICK:
            limit = state.monitor(self, "mu_static") * normal.force
            if np.hypot(t1.force, t2.force) > limit + 1e-10 * (1 + abs(limit)):
                self._start_slide(state, towards_force=True)
                return True
        if mode == ContactMode.OPEN and normal.gap <= GAP_TOL and normal.velocity < -SPEED_TOL:
            self.on_event("touch", state)  # at the plane and approaching (a start at gap 0)
            return True
        if mode == ContactMode.OPEN and normal.gap <= GAP_TOL and \
                normal.velocity <= SPEED_TOL and normal.acceleration < -TIE_TOL:
            self.after_impact(state)       # resting on the plane and pushed into it
            return True
        return False


def box_corners(size) -> np.ndarray:
    """The 8 corners (±a/2, ±b/2, ±c/2) of a box of edge lengths size = (a, b, c) [m]."""
    edges = as_vector3(size, "BoxContact", "size")
    if not np.all(edges > 0):
        raise ModelError(f"BoxContact: the edge lengths size = {[float(v) for v in edges]} "
                         "must all be positive [m] (a box with a zero or negative edge has no "
                         "corners to stand on)")
    a, b, c = edges / 2
    return np.array([(sx * a, sy * b, sz * c) for sx in (-1, 1) for sy in (-1, 1)
                     for sz in (-1, 1)])


class BoxContact(Composite):
    """Eight GroundContacts at the corners of a box of ``size`` (a, b, c) [m] centred at
    ``center`` in frame_a; other keyword arguments go to every corner (mu, e, law, …).
    Port ``frame_a``: connect it to the box's body frame."""

    def __init__(self, size, center=(0.0, 0.0, 0.0), **options):
        super().__init__()
        centre = as_vector3(center, "BoxContact", "center")
        corners = [self.add(f"corner{k}", GroundContact(r=tuple(centre + p), **options))
                   for k, p in enumerate(box_corners(size))]
        for corner in corners[1:]:
            self.connect(corners[0].frame_a, corner.frame_a)
        self.expose(corners[0].frame_a, "frame_a")
