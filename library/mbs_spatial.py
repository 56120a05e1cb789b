"""The IFToMM/Coruña library's spatial benchmark mechanisms, built from blocks as a user
would: Bricard's overconstrained mechanism (A04), the stiff flyball governor (A05) and the
spatial rigid slider-crank, with the data of their problem statements (as read by the
Exudyn implementations of the same problems, J. Gerstmayr et al.; the geometry is restated in
each class). benchmarks/mbs/ runs them against their references."""
from __future__ import annotations

import difflib
import math

from jourdain.blocks import (Composite, FixedRotation, FixedTranslation, Prismatic, Revolute,
                             RigidBody, Spherical)
from jourdain.blocks.multibody.forces import SpringDamperParallel
from jourdain.blocks.errors import ModelError
from jourdain.blocks.multibody.joints import Universal

X, Y, Z = (1, 0, 0), (0, 1, 0), (0, 0, 1)


def _data(owner: str, defaults: dict, given: dict) -> dict:
    """The defaults updated by the given data; an unknown name is a ModelError naming it
    and the closest known ones (a misspelt name must not leave the default silently)."""
    for name in given:
        if name not in defaults:
            close = difflib.get_close_matches(name, list(defaults), n=3)
            raise ModelError(f"{owner}: unknown data '{name}'" + (
                f"; did you mean {', '.join(close)}?" if close else "") +
                f" (known: {', '.join(defaults)})")
    return dict(defaults, **given)


def _positive(owner: str, **values) -> None:
    for name, value in values.items():
        if not (isinstance(value, (int, float)) and value > 0):
            raise ModelError(f"{owner}: {name} must be a positive number, got {value!r}")


def _bar(m: float, d, width: float) -> RigidBody:
    """A uniform bar of square cross-section ``width`` from the frame origin to the vector d
    (along one axis of the frame): mass m, inertia of the cuboid about its center."""
    axis = max(range(3), key=lambda i: abs(d[i]))
    length = abs(d[axis])
    inertia = [m * (length**2 + width**2) / 12.0] * 3
    inertia[axis] = m * 2 * width**2 / 12.0
    return RigidBody(m=m, r_cm=tuple(0.5 * c for c in d), I=tuple(inertia))


# Bricard's mechanism: the joint points P0 … P5 and the revolute axes at them (world axes,
# the initial configuration); the ground closes the loop from P5 back to P0.
BRICARD_POINTS = ((0, 0, 0), (1, 0, 0), (1, -1, 0), (1, -1, 1), (0, -1, 1), (0, 0, 1))
BRICARD_AXES = (Y, Z, X, Y, Z, X)


class Bricard(Composite):
    """IFToMM A04, Bricard's mechanism: five bars of length l [m] and mass m [kg] (square
    cross-section ``width``) joined end to end by six revolutes ``j0`` … ``j5`` into one loop
    with the ground. In the initial configuration (every ``j{i}.phi`` = 0) the joints sit at
    P0 = (0, 0, 0), P1 = (l, 0, 0), P2 = (l, −l, 0), P3 = (l, −l, l), P4 = (0, −l, l),
    P5 = (0, 0, l) with axes y, z, x, y, z, x: every link (the ground link P5–P0 included)
    has length l, its two axes perpendicular to it and to each other, offsets zero — the
    trihedral 6R linkage of Bricard (1897). Grübler–Kutzbach counts 6·5 − 5·6 = 0 degrees
    of freedom; the loop moves with one, so one of its closure equations is redundant."""

    def __init__(self, l: float = 1.0, m: float = 1.0, width: float = 0.1):
        _positive("Bricard", l=l, m=m, width=width)
        super().__init__()
        self.ground = FixedTranslation()
        self.expose(self.ground.frame_a, "frame_a")
        points = [tuple(l * c for c in p) for p in BRICARD_POINTS]
        previous = self.ground.frame_b
        for i, axis in enumerate(BRICARD_AXES):
            joint = self.add(f"j{i}", Revolute(axis=axis))
            self.connect(previous, joint.frame_a)
            if i == 5:   # the last joint closes the loop on the ground at P5
                end = self.add("p5", FixedTranslation(r=points[5]))
                self.connect(self.ground.frame_b, end.frame_a)
                self.connect(end.frame_b, joint.frame_b)
                break
            d = tuple(b - a for a, b in zip(points[i], points[i + 1]))
            bar = self.add(f"bar{i}", _bar(m, d, width))
            tip = self.add(f"tip{i}", FixedTranslation(r=d))
            self.connect(joint.frame_b, bar.frame_a)
            self.connect(joint.frame_b, tip.frame_a)
            previous = tip.frame_b


# The spatial rigid slider-crank: crank pivot A, crank length, rod length, masses and
# central inertias (crank: about its axis x first; rod: about its own axis first).
SLIDER_CRANK = dict(a=(0.0, 0.1, 0.12), crank=0.08, rod=0.3, m_crank=0.12, m_rod=0.5,
                    m_slider=2.0, i_crank=(1e-4, 1e-5, 1e-4), i_rod=(4e-4, 4e-3, 4e-3),
                    i_slider=(1e-4, 1e-4, 1e-4))


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _unit(v):
    n = math.sqrt(sum(c * c for c in v))
    return tuple(c / n for c in v)


class SpatialSliderCrank(Composite):
    """The IFToMM spatial rigid slider-crank: the ``crank`` (revolute about x at
    A = (0, 0.1, 0.12) m, length 0.08 m, center of mass on the axis) carries the rod (0.3 m,
    center of mass at its middle) on the ball joint ``ball`` at B; the rod drives the slider
    (``slide``: prismatic along x through the origin) through the universal joint ``cardan``
    at C, whose first axis is the slider's x and second the rod's axis normal to x. At
    ``crank.phi`` = 0 the crank points along +z, B = (0, 0.1, 0.2) and C = (0.2, 0, 0)
    (``slide.s`` = 0); one degree of freedom."""

    def __init__(self, **data):
        super().__init__()
        p = _data("SpatialSliderCrank", SLIDER_CRANK, data)
        _positive("SpatialSliderCrank", crank=p["crank"], rod=p["rod"])
        a = p["a"]
        b = (a[0], a[1], a[2] + p["crank"])
        if p["rod"]**2 <= b[1]**2 + b[2]**2:
            raise ModelError(
                f"SpatialSliderCrank: the rod (rod = {p['rod']} m) cannot reach the slider's "
                f"line (the x axis) from the crank pin at {b} m, "
                f"{math.hypot(b[1], b[2]):.4g} m away; give a longer rod or move the pivot a")
        x_c = math.sqrt(p["rod"]**2 - b[1]**2 - b[2]**2)
        bc = (x_c - b[0], -b[1], -b[2])
        e = _unit(bc)
        y_rod = _unit(_cross((1, 0, 0), e))
        z_rod = _cross(e, y_rod)
        frame = (e, y_rod, z_rod)   # the rod's principal axes, in the world's at the start
        i_rod = [[sum(p["i_rod"][k] * frame[k][r] * frame[k][s] for k in range(3))
                  for s in range(3)] for r in range(3)]
        self.ground = FixedTranslation()
        self.expose(self.ground.frame_a, "frame_a")
        self.pivot = FixedTranslation(r=a)
        self.crank = Revolute(axis=X)
        self.crank_body = RigidBody(m=p["m_crank"], I=p["i_crank"])
        self.crank_pin = FixedTranslation(r=(0, 0, p["crank"]))
        self.ball = Spherical()
        self.rod = RigidBody(m=p["m_rod"], r_cm=tuple(c / 2 for c in bc), I=i_rod)
        self.rod_end = FixedTranslation(r=bc)
        self.guide = FixedTranslation(r=(x_c, 0, 0))
        self.slide = Prismatic(axis=X)
        self.slider = RigidBody(m=p["m_slider"], I=p["i_slider"])
        self.cardan = Universal(n_a=X, n_b=y_rod)
        for port_a, port_b in (
                (self.ground.frame_b, self.pivot.frame_a), (self.pivot.frame_b, self.crank.frame_a),
                (self.crank.frame_b, self.crank_body.frame_a),
                (self.crank.frame_b, self.crank_pin.frame_a),
                (self.crank_pin.frame_b, self.ball.frame_a), (self.ball.frame_b, self.rod.frame_a),
                (self.ball.frame_b, self.rod_end.frame_a),
                (self.ground.frame_b, self.guide.frame_a), (self.guide.frame_b, self.slide.frame_a),
                (self.slide.frame_b, self.slider.frame_a),
                (self.slide.frame_b, self.cardan.frame_a),
                (self.rod_end.frame_b, self.cardan.frame_b)):
            self.connect(port_a, port_b)


# The stiff flyball governor: shaft, sleeve (slider) and the two arms with their balls;
# the coupler rods between arms and sleeve are spring-dampers.
FLYBALL = dict(shaft=1.0, width=0.01, density=3000.0, sleeve=0.1, arm=1.0, ball=5.0,
               hinge=0.1, alpha=math.radians(30), s0=0.5, k=8e5, d=4e4, spring=0.5)


class FlyballGovernor(Composite):
    """IFToMM A05, the stiff flyball governor: the ``shaft`` (revolute about z at the
    origin; a 1 m × 0.01 m × 0.01 m bar, 3000 kg/m³) carries at its top the hinges
    (``hinge_a``, ``hinge_b``, axes y, 0.1 m apart) of two arms of the same bar with a 5 kg
    ball at their ends, at α = 30° below the horizontal at ``hinge_*.phi`` = 0; the sleeve
    (``sleeve``: a 0.1 m cube on a prismatic joint along the shaft, at 0.5 m height at
    ``sleeve.s`` = 0) is tied to each arm's middle by a spring-damper (8e5 N/m, 4e4 N·s/m,
    unstretched 0.5 m: the statement's coupler rods made compliant) from the sleeve's side
    point 0.05 m off the axis. The springs are unstretched in the start configuration."""

    def __init__(self, **data):
        super().__init__()
        p = _data("FlyballGovernor", FLYBALL, data)
        w, rho = p["width"], p["density"]
        m_shaft, m_arm = rho * p["shaft"] * w * w, rho * p["arm"] * w * w
        m_sleeve = rho * p["sleeve"]**3
        self.ground = FixedTranslation()
        self.expose(self.ground.frame_a, "frame_a")
        self.shaft = Revolute(axis=Z)
        self.shaft_body = _bar(m_shaft, (0, 0, p["shaft"]), w)
        self.seat = FixedTranslation(r=(0, 0, p["s0"]))
        self.sleeve = Prismatic(axis=Z)
        self.sleeve_body = RigidBody(m=m_sleeve, I=(m_sleeve * p["sleeve"]**2 / 6,) * 3)
        for port_a, port_b in ((self.ground.frame_b, self.shaft.frame_a),
                               (self.shaft.frame_b, self.shaft_body.frame_a),
                               (self.shaft.frame_b, self.seat.frame_a),
                               (self.seat.frame_b, self.sleeve.frame_a),
                               (self.sleeve.frame_b, self.sleeve_body.frame_a)):
            self.connect(port_a, port_b)
        for side, sign in (("a", 1.0), ("b", -1.0)):
            top = self.add(f"top_{side}", FixedRotation(
                r=(sign * p["hinge"] / 2, 0, p["shaft"]), axis=Y,
                angle=p["alpha"] if sign > 0 else math.pi - p["alpha"]))
            hinge = self.add(f"hinge_{side}", Revolute(axis=Y))
            arm = self.add(f"arm_{side}", _bar(m_arm, (p["arm"], 0, 0), w))
            ball = self.add(f"ball_{side}", RigidBody(m=p["ball"], r_cm=(p["arm"], 0, 0)))
            middle = self.add(f"middle_{side}", FixedTranslation(r=(p["arm"] / 2, 0, 0)))
            side_point = self.add(f"side_{side}", FixedTranslation(
                r=(sign * p["sleeve"] / 2, 0, 0)))
            spring = self.add(f"spring_{side}", SpringDamperParallel(
                c=p["k"], d=p["d"], s_unstretched=p["spring"]))
            for port_a, port_b in ((self.shaft.frame_b, top.frame_a), (top.frame_b, hinge.frame_a),
                                   (hinge.frame_b, arm.frame_a), (hinge.frame_b, ball.frame_a),
                                   (hinge.frame_b, middle.frame_a),
                                   (self.sleeve.frame_b, side_point.frame_a),
                                   (side_point.frame_b, spring.frame_a),
                                   (middle.frame_b, spring.frame_b)):
                self.connect(port_a, port_b)
