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


# ---- complete hybrid models (energy balance, islands, properties) -------------------------
# Each entry: a builder of a jd.Model and the simulate() options of a short run that meets
# its elements' events (impacts, stick–slip, contact and release, engagement).

def quarter_car(beside: bool = False, d_tire: float = 500.0, driven: bool = True) -> jd.Model:
    """A quarter car on a road moved by a prescribed-motion driver (translational.Position,
    exact, 5 cm sine at 5 Hz: the wheel lifts off): wheel 30 kg on an ElastoGap tyre (c = 2e5 N/m, lifts off),
    body 250 kg on a spring (2e4 N/m) and damper (1500 N·s/m), all vertical, absolute
    coordinates ``road.s``, ``wheel.s``, ``body.s``; ``beside``: a pendulum that shares no
    equation with it (an island of its own); not ``driven``: the road is a free body held by
    a spring (5e4 N/m) instead."""
    from jourdain.blocks import Sine, TranslationalSpring, ViscousFriction
    from jourdain.blocks.drivers import translational
    from jourdain.blocks.hybrid import ElastoGap
    model = jd.Model(world=World())
    for name, m in (("road", 1.0), ("wheel", 30.0), ("body", 250.0)):
        joint = model.add(name, Prismatic(axis=(0, 1, 0)))
        mass = model.add(f"{name}_mass", RigidBody(m=m))
        model.connect(model.world.frame_b, joint.frame_a)
        model.connect(joint.frame_b, mass.frame_a)
    if driven:
        model.drive = translational.Position(exact=True)
        model.ref = Sine(amplitude=0.05, f=5.0)
        model.connect(model.drive.flange, model.road.axis)
        model.connect(model.ref.y, model.drive.s_ref)
    else:
        model.ground = TranslationalSpring(c=5e4)
        model.connect(model.ground.flange_b, model.road.axis)
    model.tire = ElastoGap(c=2e5, d=d_tire, s_rel0=0.3)
    model.connect(model.tire.flange_a, model.road.axis)
    model.connect(model.tire.flange_b, model.wheel.axis)
    model.spring = TranslationalSpring(c=2e4, s_rel0=0.5)
    model.damper = ViscousFriction(d=1500.0)
    for element in (model.spring, model.damper):
        model.connect(element.flange_a, model.wheel.axis)
        model.connect(element.flange_b, model.body.axis)
    if beside:
        pendulum(model, "hinge")
    return model


QUARTER_CAR_START = {"y0": {"wheel.s": 0.29, "body.s": 0.67, "hinge.phi": 0.5}}


def _bouncing_ball():
    return ball(e=0.8, v_rest=0.05)


def _compliant_ball():
    from jourdain.blocks.hybrid import StopLaw
    return ball(law=StopLaw.COMPLIANT, c=1e4, d=0.5, n=1.5)


def _pendulum_stop():
    from jourdain.blocks.hybrid import Stop
    model = jd.Model(world=World())
    joint, _ = pendulum(model)
    model.stop = Stop(lower=-0.4, upper=0.4, e=0.5, v_rest=0.05)
    model.connect(model.stop.flange_b, joint.axis)
    return model


def _friction_pendulum():
    from jourdain.blocks.hybrid import BearingFriction
    model = jd.Model(world=World())
    joint, _ = pendulum(model)
    model.fric = BearingFriction(tau_pos=[[0.0, 0.8]], peak=1.5)
    model.connect(model.fric.flange_b, joint.axis)
    return model


def _clutch():
    from jourdain.blocks import Step
    from jourdain.blocks.hybrid import Clutch
    model = jd.Model(world=World())
    a, b = shaft(model, "a", 1.0), shaft(model, "b", 2.0)
    model.clutch = Clutch(mu_pos=[[0.0, 0.4]], peak=1.2, fn_max=20.0)
    model.engage = Step(height=1.0, t_step=0.2)
    model.connect(model.clutch.flange_a, a.axis)
    model.connect(model.clutch.flange_b, b.axis)
    model.connect(model.engage.y, model.clutch.f_normalized)
    return model


def belt(driven: bool = True) -> jd.Model:
    """A block (1 kg) tied to the wall by a spring (100 N/m) on a belt with SupportFriction
    (sliding 2 N, static 3 N); the belt is moved by translational.Speed (exact, ``driven``)
    at 0.1 m/s, else it is a 10¹¹ kg slider started at that speed."""
    from jourdain.blocks import Constant, TranslationalSpring
    from jourdain.blocks.drivers import translational
    from jourdain.blocks.hybrid import SupportFriction
    model = jd.Model(world=World())
    moving = slider(model, "belt", 1.0 if driven else 1e11)
    block = slider(model, "block", 1.0)
    model.spring = TranslationalSpring(c=100.0)
    model.connect(model.spring.flange_b, block.axis)
    model.fric = SupportFriction(f_pos=[[0.0, 2.0]], peak=1.5)
    model.connect(model.fric.support, moving.axis)
    model.connect(model.fric.flange_b, block.axis)
    if driven:
        model.drive, model.speed = translational.Speed(exact=True), Constant(k=0.1)
        model.connect(model.drive.flange, moving.axis)
        model.connect(model.speed.y, model.drive.v_ref)
    return model


def _brake():
    from jourdain.blocks import Step
    from jourdain.blocks.hybrid import Brake
    model = jd.Model(world=World())
    wheel = shaft(model, "wheel", 0.5)
    model.brake = Brake(mu_pos=[[0.0, 0.5]], peak=1.1, fn_max=10.0)
    model.press = Step(height=1.0, t_step=0.1)
    model.connect(model.brake.flange_b, wheel.axis)
    model.connect(model.press.y, model.brake.f_normalized)
    return model


def _sliding_block():
    from jourdain.blocks import FreeJoint
    from jourdain.blocks.hybrid import BoxContact
    model = jd.Model(world=World())
    model.free, model.box = FreeJoint(), RigidBody(m=2.0, I=(0.013, 0.013, 0.013))
    model.contact = BoxContact((0.2, 0.2, 0.2), mu=0.3, e=0.3, v_rest=0.05)
    model.connect(model.world.frame_b, model.free.frame_a)
    model.connect(model.free.frame_b, model.box.frame_a)
    model.connect(model.contact.frame_a, model.box.frame_a)
    return model


def compliant_sphere(mu: float = 0.3) -> jd.Model:
    """A sphere (r = 5 cm, 0.5 kg) on a FreeJoint above a compliant GroundContact
    (Hunt–Crossley c = 1e4 N/m^1.5, d = 0.5 s/m, friction μ)."""
    from jourdain.blocks import FreeJoint
    from jourdain.blocks.hybrid import ContactLaw, GroundContact
    model = jd.Model(world=World())
    model.free, model.ball = FreeJoint(), RigidBody(m=0.5, I=(5e-4, 5e-4, 5e-4))
    model.contact = GroundContact(radius=0.05, mu=mu, law=ContactLaw.COMPLIANT, c=1e4, d=0.5)
    model.connect(model.world.frame_b, model.free.frame_a)
    model.connect(model.free.frame_b, model.ball.frame_a)
    model.connect(model.contact.frame_a, model.ball.frame_a)
    return model


HYBRID_CASES = {
    # frictionless: the regularized Coulomb law of a compliant contact is stiff (16 s a run)
    "compliant_contact": (lambda: compliant_sphere(mu=0.0), {"y0": {"free.y": 0.2},
                                                            "z0": {"free.vx": 0.5}}),
    "bouncing_ball": (_bouncing_ball, {"y0": {"slide.s": 1.0}}),
    "compliant_ball": (_compliant_ball, {"y0": {"slide.s": 0.3}}),
    "pendulum_stop": (_pendulum_stop, {"z0": {"joint.w": 4.0}}),
    "friction_pendulum": (_friction_pendulum, {"y0": {"joint.phi": 1.2}}),
    "clutch": (_clutch, {"z0": {"a.w": 10.0}}),
    "brake": (_brake, {"z0": {"wheel.w": 5.0}}),
    "belt_driven": (belt, {}),
    "quarter_car": (lambda: quarter_car(beside=True), QUARTER_CAR_START),
    "box_landing_sliding": (_sliding_block, {"y0": {"free.y": 0.3}, "z0": {"free.vx": 1.0}}),
}
