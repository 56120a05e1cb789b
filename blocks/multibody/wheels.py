"""The MSL's ideal rolling wheel (``MultiBody.Parts.RollingWheel``) and wheel set
(``MultiBody.Parts.RollingWheelSet``: two wheels on one axle), rolling without slip on the
world's x–y plane (z up, gravity −z as the MSL requires).
"""
from __future__ import annotations

from ..base import Composite, as_scalar
from ..bodies import RigidBody
from ..contacts import RollingContact
from ..errors import ModelError
from ..joints import FixedTranslation, Prismatic, Revolute
from .parts import Fixed, Mounting1D


class RollingWheelSet(Composite):
    """Two wheels joined by an axle, rolling on the ground z = 0 (MSL
    ``Parts.RollingWheelSet``, with its joint ``Joints.RollingWheelSet`` inside).

    R_wheel : [m] wheel radius.   m_wheel : [kg] mass of one wheel.
    I_wheelAxis, I_wheelLong : [kg·m²] inertia of one wheel along and across its axle.
    track : [m] distance between the wheels.

    Ports as in the MSL: ``frameMiddle`` in the middle of the axle (y along the axle, z up;
    parallel to the world when every coordinate is 0, at height R_wheel), ``frame1`` and
    ``frame2`` in the wheels' centres (turning with the wheels), ``axis1``, ``axis2`` (1-D
    flanges driving the wheels) and ``support`` (their support, a Mounting1D on the axle).
    The MSL's variables are coordinates here: x = ``prismatic1.s``, y = ``prismatic2.s``,
    phi = ``revolute.phi`` (heading about z), theta1 = ``revolute1.phi``, theta2 =
    ``revolute2.phi`` (about the axle, frame1 at +track/2 along y). The no-slip conditions of
    both wheels are RollingContact constraints; the one lateral condition they repeat is
    found redundant by the constraint stage (the MSL drops it by hand).
    """

    def __init__(self, R_wheel=0.3, m_wheel=1.0, I_wheelAxis=1.0, I_wheelLong=1.0,
                 track=1.0):
        super().__init__()
        values = {name: as_scalar(value, "RollingWheelSet", name) for name, value in
                  (("R_wheel", R_wheel), ("m_wheel", m_wheel), ("I_wheelAxis", I_wheelAxis),
                   ("I_wheelLong", I_wheelLong), ("track", track))}
        for name, value in values.items():
            if not value > 0:
                raise ModelError(f"RollingWheelSet: {name} must be positive, got {value}")
        self.R_wheel, self.track = values["R_wheel"], values["track"]
        self.fixed = Fixed(r=(0.0, 0.0, self.R_wheel))
        self.prismatic1, self.prismatic2 = Prismatic(n=(1, 0, 0)), Prismatic(n=(0, 1, 0))
        self.revolute = Revolute(n=(0, 0, 1))
        self.mounting1D = Mounting1D(n=(0, 1, 0))
        c = self.connect
        c(self.fixed.frame_b, self.prismatic1.frame_a)
        c(self.prismatic1.frame_b, self.prismatic2.frame_a)
        c(self.prismatic2.frame_b, self.revolute.frame_a)
        c(self.revolute.frame_b, self.mounting1D.frame_a)
        inertia = (values["I_wheelLong"], values["I_wheelAxis"], values["I_wheelLong"])
        for i, side in ((1, 1.0), (2, -1.0)):
            rod = self.add(f"rod{i}", FixedTranslation(r=(0.0, side * self.track / 2, 0.0)))
            joint = self.add(f"revolute{i}", Revolute(n=(0, 1, 0)))
            body = self.add(f"body{i}", RigidBody(m=values["m_wheel"], I=inertia))
            rolling = self.add(f"rolling{i}", RollingContact(R=self.R_wheel, axis=(0, 1, 0),
                                                             n=(0, 0, 1)))
            c(self.revolute.frame_b, rod.frame_a)
            c(rod.frame_b, joint.frame_a)
            c(joint.frame_b, body.frame_a)
            c(joint.frame_b, rolling.frame_a)
            self.expose(joint.frame_b, f"frame{i}")
            self.expose(joint.axis, f"axis{i}")
        self.expose(self.revolute.frame_b, "frameMiddle")
        self.expose(self.mounting1D.flange_b, "support")


class RollingWheel(Composite):
    """An ideal wheel rolling without slip on the ground z = 0 (MSL ``Parts.RollingWheel``,
    with its joint ``Joints.RollingWheel``; gravity along −z as the MSL requires).

    radius : [m].   m : [kg].   I_axis, I_long : [kg·m²] inertia along and across the axle.

    The MSL's coordinates x, y (the wheel centre over the ground) and angles (about z, x, y:
    heading, lean, rolling) are the joints ``x``, ``y`` (prismatic), ``heading``, ``lean``,
    ``rolling`` (revolute); the centre's height ``z`` (prismatic) is solved from the contact.
    ``frame_a`` is fixed in the wheel's centre, parallel to the world when every angle is 0
    (axle along y). A wheel lying flat has no contact point (RollingContact).
    """

    def __init__(self, radius=0.3, m=1.0, I_axis=1.0, I_long=1.0):
        super().__init__()
        values = {name: as_scalar(value, "RollingWheel", name) for name, value in
                  (("radius", radius), ("m", m), ("I_axis", I_axis), ("I_long", I_long))}
        for name, value in values.items():
            if not value > 0:
                raise ModelError(f"RollingWheel: {name} must be positive, got {value}")
        self.radius = values["radius"]
        self.x, self.y = Prismatic(n=(1, 0, 0)), Prismatic(n=(0, 1, 0))
        self.z = Prismatic(n=(0, 0, 1))
        self.heading, self.lean = Revolute(n=(0, 0, 1)), Revolute(n=(1, 0, 0))
        self.rolling = Revolute(n=(0, 1, 0))
        self.body = RigidBody(m=values["m"], I=(values["I_long"], values["I_axis"],
                                                values["I_long"]))
        self.contact = RollingContact(R=self.radius, axis=(0, 1, 0), n=(0, 0, 1))
        chain = [self.x, self.y, self.z, self.heading, self.lean, self.rolling]
        self.connect(self.x.frame_a, self.add("ground", Fixed()).frame_b)
        for a, b in zip(chain, chain[1:]):
            self.connect(a.frame_b, b.frame_a)
        self.connect(self.rolling.frame_b, self.body.frame_a)
        self.connect(self.rolling.frame_b, self.contact.frame_a)
        self.expose(self.rolling.frame_b, "frame_a")
