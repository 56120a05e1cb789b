"""Cart-pole: a cart on a horizontal prismatic joint with a pole on a revolute joint; and the
double inverted pendulum on a cart."""
from __future__ import annotations

from jourdain.blocks import (Composite, FixedTranslation, LinearMotor, Prismatic, Revolute,
                             RigidBody, ViscousFriction)
from jourdain.blocks.visual import Box, Cylinder


class CartPole(Composite):
    """Cart (m_cart [kg]) sliding along x, driven by the force input ``motor.f`` [N]; a uniform
    pole (m_pole [kg], length l [m], central inertia m_pole·l²/12) hinged on the cart.

    Coordinates: ``slider.s`` [m] (cart position) and ``hinge.phi`` [rad] (pole angle from
    upright, positive counter-clockwise). Optional cart damping d [N·s/m].
    """

    def __init__(self, m_cart: float = 1.0, m_pole: float = 0.1, l: float = 1.0,
                 d: float = 0.0):
        super().__init__()
        J = m_pole * l**2 / 12.0
        self.slider = Prismatic(axis=(1, 0, 0))
        self.cart = RigidBody(m=m_cart, shapes=[Box((0.3 * l, 0.15 * l, 0.15 * l),
                                                    color="steelblue", name="cart")])
        self.hinge = Revolute(axis=(0, 0, 1))
        self.pole = RigidBody(m=m_pole, r_cm=(0, l / 2, 0), I=(J, 0.0, J), shapes=[
            Cylinder.between((0, 0, 0), (0, l, 0), 0.02 * l, color="darkorange", name="pole")])
        self.slider.shape(Box((2.4 * l, 0.02 * l, 0.02 * l), color="dimgray", name="rail"))
        self.motor = LinearMotor()
        self.damper = ViscousFriction(d=d)
        self.connect(self.slider.frame_b, self.cart.frame_a)
        self.connect(self.slider.frame_b, self.hinge.frame_a)
        self.connect(self.hinge.frame_b, self.pole.frame_a)
        self.connect(self.motor.flange_b, self.slider.axis)
        self.connect(self.damper.flange_b, self.slider.axis)
        self.expose(self.slider.frame_a, "frame_a")


class CartDoublePendulum(Composite):
    """Double inverted pendulum on a cart: a cart (m_cart [kg]) sliding along x, driven by
    ``motor.f`` [N], carrying two uniform poles in series (m1, m2 [kg], lengths l1, l2 [m],
    central inertias m·l²/12), the second hinged at the tip of the first.

    Coordinates: ``slider.s`` [m], ``hinge1.phi`` [rad] (pole 1 from upright, positive
    counter-clockwise), ``hinge2.phi`` [rad] (pole 2 relative to pole 1); both upright at 0.
    Optional cart damping d [N·s/m]. The benchmark of swing-up and tracking studies (e.g.
    K. Graichen, M. Treuer, M. Zeitz, Automatica 43(1), 2007, with other numbers).
    """

    def __init__(self, m_cart: float = 1.0, m1: float = 0.3, l1: float = 0.5, m2: float = 0.3,
                 l2: float = 0.5, d: float = 0.0):
        super().__init__()
        self.slider = Prismatic(axis=(1, 0, 0))
        size = l1 + l2
        self.cart = RigidBody(m=m_cart, shapes=[Box((0.3 * size, 0.15 * size, 0.15 * size),
                                                    color="steelblue", name="cart")])
        self.slider.shape(Box((2.4 * size, 0.02 * size, 0.02 * size), color="dimgray",
                              name="rail"))
        self.hinge1 = Revolute(axis=(0, 0, 1))
        self.pole1 = RigidBody(m=m1, r_cm=(0, l1 / 2, 0), I=(m1 * l1**2 / 12, 0.0,
                                                             m1 * l1**2 / 12), shapes=[
            Cylinder.between((0, 0, 0), (0, l1, 0), 0.02 * size, color="darkorange",
                             name="pole1")])
        self.tip = FixedTranslation(r=(0, l1, 0))
        self.hinge2 = Revolute(axis=(0, 0, 1))
        self.pole2 = RigidBody(m=m2, r_cm=(0, l2 / 2, 0), I=(m2 * l2**2 / 12, 0.0,
                                                             m2 * l2**2 / 12), shapes=[
            Cylinder.between((0, 0, 0), (0, l2, 0), 0.02 * size, color="goldenrod",
                             name="pole2")])
        self.motor = LinearMotor()
        self.damper = ViscousFriction(d=d)
        self.connect(self.slider.frame_b, self.cart.frame_a)
        self.connect(self.slider.frame_b, self.hinge1.frame_a)
        self.connect(self.hinge1.frame_b, self.pole1.frame_a)
        self.connect(self.hinge1.frame_b, self.tip.frame_a)
        self.connect(self.tip.frame_b, self.hinge2.frame_a)
        self.connect(self.hinge2.frame_b, self.pole2.frame_a)
        self.connect(self.motor.flange_b, self.slider.axis)
        self.connect(self.damper.flange_b, self.slider.axis)
        self.expose(self.slider.frame_a, "frame_a")
