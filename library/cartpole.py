"""Cart-pole: a cart on a horizontal prismatic joint with a pole on a revolute joint."""
from __future__ import annotations

from jourdain.blocks import Composite, LinearMotor, Prismatic, Revolute, RigidBody, ViscousFriction
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
