"""Theo Jansen's leg (the Strandbeest linkage) and a walker of many legs on one crank.

One leg is an eight-bar planar linkage with one degree of freedom and three independent
loops: the crank m about O, the links j and k from the crank pin A, the rocker triangle
b–d–e on the fixed pivot B, the link c from B, the link f and the foot triangle g–h–i, with
Jansen's published lengths ("holy numbers", Jansen, *The Great Pretender*, 2007):
a = 38, b = 41.5, c = 39.3, d = 40.1, e = 55.8, f = 39.4, g = 36.7, h = 65.7, i = 49,
j = 50, k = 61.9, l = 7.8, m = 15, with B at (−a, −l) from O. ``scale`` turns them into
metres (default 0.01: a leg about 0.9 m tall).

Points (Wikipedia's figure): A crank pin; C = j from A and b from B (upper); D = k from A and
c from B (lower); E = d from B and e from C (the rocker triangle, to the left); F = f from E
and g from D (left); G, the foot, = i from D and h from F (lower). Joints: O (world–crank),
A (crank–j), A (crank–k), B (world–triangle bde), B (world–c), E (bde–f), D (c–foot);
the loops close at C (j–bde), D (k–c) and F (f–foot), declared last so the compiler cuts them.

Every body frame is parallel to the world axes in the reference configuration (the crank at
``theta0``), so all joint angles are 0 there and the defaults are assembled exactly. Bodies
are slender rods of ``density`` kg/m (a triangle: its three sides); z is out of the plane.
"""
from __future__ import annotations

import math

import numpy as np

from jourdain.blocks import Composite, FixedTranslation, Revolute, RigidBody

HOLY_NUMBERS = {"a": 38.0, "b": 41.5, "c": 39.3, "d": 40.1, "e": 55.8, "f": 39.4, "g": 36.7,
                "h": 65.7, "i": 49.0, "j": 50.0, "k": 61.9, "l": 7.8, "m": 15.0}

# body -> (its joint point, the points of its rods)
BODIES = {"crank": ("O", [("O", "A")]), "j": ("A", [("A", "C")]), "k": ("A", [("A", "D")]),
          "bde": ("B", [("B", "C"), ("B", "E"), ("C", "E")]), "c": ("B", [("B", "D")]),
          "f": ("E", [("E", "F")]), "foot": ("D", [("D", "F"), ("F", "G"), ("D", "G")])}
# tree joints (name, parent body or None for the ground, child body, point), then the cut ones
TREE = (("O", None, "crank", "O"), ("A_j", "crank", "j", "A"), ("A_k", "crank", "k", "A"),
        ("B_bde", None, "bde", "B"), ("B_c", None, "c", "B"), ("E", "bde", "f", "E"),
        ("D_foot", "c", "foot", "D"))
CUTS = (("C", "j", "bde", "C"), ("D_k", "k", "c", "D"), ("F", "f", "foot", "F"))


def _circles(p, r_p, q, r_q, pick):
    """The intersection of the circles (p, r_p) and (q, r_q) that ``pick`` prefers."""
    d = np.linalg.norm(q - p)
    along = (r_p**2 - r_q**2 + d**2) / (2 * d)
    across = math.sqrt(max(r_p**2 - along**2, 0.0))
    u = (q - p) / d
    n = np.array([-u[1], u[0]])
    return max(p + along * u + across * n, p + along * u - across * n, key=pick)


def leg_points(theta: float, lengths: dict | None = None, mirror: bool = False) -> dict:
    """The leg's points at crank angle θ [rad] (position analysis by circle intersections,
    in the holy numbers' units; O at the origin). ``mirror``: the leg reflected about the
    vertical through O (B at (+a, −l)), with the crank pin still at m·(cos θ, sin θ)."""
    L = dict(HOLY_NUMBERS, **(lengths or {}))
    sign = -1.0 if mirror else 1.0
    t = math.pi - theta if mirror else theta     # the pin in the unmirrored leg's frame
    P = {"O": np.zeros(2), "A": L["m"] * np.array([math.cos(t), math.sin(t)]),
         "B": np.array([-L["a"], -L["l"]])}
    P["C"] = _circles(P["A"], L["j"], P["B"], L["b"], lambda p: p[1])
    P["D"] = _circles(P["A"], L["k"], P["B"], L["c"], lambda p: -p[1])
    P["E"] = _circles(P["B"], L["d"], P["C"], L["e"], lambda p: -p[0])
    P["F"] = _circles(P["E"], L["f"], P["D"], L["g"], lambda p: -p[0])
    P["G"] = _circles(P["D"], L["i"], P["F"], L["h"], lambda p: -p[1])
    return {name: np.array([sign * p[0], p[1]]) for name, p in P.items()}


def _body(points: dict, origin: str, rods: list, density: float) -> RigidBody:
    """Rigid body of slender rods [m] with its frame at ``origin``: mass, center of mass and
    the inertia about z of the rods (I_xx + I_yy = I_zz for a planar body)."""
    mass, first, second = 0.0, np.zeros(2), 0.0
    for p, q in rods:
        a, b = points[p] - points[origin], points[q] - points[origin]
        m = density * np.linalg.norm(b - a)
        mass += m
        first += m * (a + b) / 2
        second += m * (a @ a + a @ b + b @ b) / 3      # ∫ |r|² dm along the rod
    cm = first / mass
    J = second - mass * cm @ cm                        # about the center of mass
    return RigidBody(m=mass, r_cm=(cm[0], cm[1], 0.0), I=(J / 2, J / 2, J))


class JansenLinkage(Composite):
    """Theo Jansen's leg (module docstring): ``frame_a`` is the chassis at the crank axle O,
    ``foot`` a frame at the foot point G;
    the crank joint ``O`` (Revolute about z, coordinate ``O.phi`` from the reference crank
    angle ``theta0`` [rad]) turns the crank. With ``shared_crank`` the leg has no crank joint
    of its own: its crank arm hangs from the port ``crank_frame`` (a frame at O on a shaft
    that the walker turns), world-aligned at the shaft's zero.

    theta0 : [rad] crank angle of the reference (assembled) configuration.
    mirror : the leg reflected about the vertical through O (the pivot B at (+a, −l)).
    scale : [m per unit] of the holy numbers (default 0.01).
    density : [kg/m] of every rod (default 2).
    lengths : {letter: value} overriding the holy numbers (same units).
    """

    def __init__(self, theta0: float = 0.0, mirror: bool = False, scale: float = 0.01,
                 density: float = 2.0, lengths: dict | None = None, shared_crank: bool = False):
        super().__init__()
        self.points = {k: v * scale for k, v in leg_points(theta0, lengths, mirror).items()}
        frames = {name: self._add_body(name, origin, rods, density)
                  for name, (origin, rods) in BODIES.items()}
        ground = self.add("chassis", FixedTranslation(r=(0.0, 0.0, 0.0)))
        for name, parent, child, point in TREE:
            if shared_crank and name == "O":
                continue
            joint = self.add(name, Revolute(axis=(0, 0, 1)))
            self.connect(self._at(parent, point, ground, frames, f"{name}_a"), joint.frame_a)
            self.connect(joint.frame_b, frames[child])
        for name, body_a, body_b, point in CUTS:
            joint = self.add(name, Revolute(axis=(0, 0, 1)))
            self.connect(self._at(body_a, point, ground, frames, f"{name}_a"), joint.frame_a)
            self.connect(self._at(body_b, point, ground, frames, f"{name}_b"), joint.frame_b)
        self.expose(ground.frame_a, "frame_a")
        self.expose(self._at("foot", "G", ground, frames, "toe"), "foot")
        if shared_crank:
            self.expose(frames["crank"], "crank_frame")

    def _add_body(self, name: str, origin: str, rods: list, density: float):
        body = self.add(f"{name}_body", _body(self.points, origin, rods, density))
        return body.frame_a

    def _at(self, body: str | None, point: str, ground, frames, name: str):
        """A frame at ``point`` on ``body`` (None: the chassis), by the fixed offset ``name``."""
        origin = "O" if body is None else BODIES[body][0]
        start = ground.frame_b if body is None else frames[body]
        r = self.points[point] - self.points[origin]
        offset = self.add(name, FixedTranslation(r=(float(r[0]), float(r[1]), 0.0)))
        self.connect(start, offset.frame_a)
        return offset.frame_b


class JansenWalker(Composite):
    """A walker of ``legs`` Jansen legs on one crank shaft (the Strandbeest's arrangement):
    legs in mirrored pairs that share a crank pin, the pairs' pins spread evenly around the
    shaft, pair k at z = k·``spacing`` [m]. The shaft ``crank`` (Revolute about z, speed
    ``crank.w``) carries ``shaft`` (a steel tube for the inertia of the axle); the chassis
    is ``frame_a`` (mount it on the World to study the legs' motion in place; the feet do not
    touch a ground). Each leg is a :class:`JansenLinkage` (``leg1`` … ``legN``).
    """

    def __init__(self, legs: int = 2, theta0: float = 0.0, scale: float = 0.01,
                 density: float = 2.0, spacing: float = 0.15):
        super().__init__()
        pairs = max(1, math.ceil(legs / 2))
        self.crank = Revolute(axis=(0, 0, 1))
        self.shaft = RigidBody(m=1.0, I=(1e-3, 1e-3, 1e-3))
        self.chassis = FixedTranslation(r=(0.0, 0.0, 0.0))
        self.connect(self.chassis.frame_b, self.crank.frame_a)
        self.connect(self.crank.frame_b, self.shaft.frame_a)
        for n in range(legs):
            pair = n // 2
            phase = theta0 + 2 * math.pi * pair / pairs
            leg = self.add(f"leg{n + 1}", JansenLinkage(phase, bool(n % 2), scale, density,
                                                        shared_crank=True))
            z = (0.0, 0.0, pair * spacing)
            mount = self.add(f"mount{n + 1}", FixedTranslation(r=z))
            pin = self.add(f"axle{n + 1}", FixedTranslation(r=z))
            self.connect(self.chassis.frame_b, mount.frame_a)
            self.connect(mount.frame_b, leg.frame_a)
            self.connect(self.crank.frame_b, pin.frame_a)
            self.connect(pin.frame_b, leg.crank_frame)
        self.expose(self.chassis.frame_a, "frame_a")
