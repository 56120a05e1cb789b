"""The Whipple bicycle built from blocks: a rear frame with rider, a steered front fork and two
knife-edge wheels rolling without slip (Whipple 1899), with the benchmark geometry, masses
and inertias of Meijaard, Papadopoulos, Ruina & Schwab, "Linearized dynamics equations for
the balance and steer of a bicycle: a benchmark and review", Proc. R. Soc. A 463 (2007),
Table 1.

The ground is the world x–z plane, y up (as for :class:`~jourdain.library.wheel.Wheel`).
"""
from __future__ import annotations

import numpy as np

from jourdain.blocks import (
    Composite,
    FixedRotation,
    FixedTranslation,
    Prismatic,
    Revolute,
    RigidBody,
    RollingContact,
)

# The benchmark's axes (x forward, y right, z down) in the model's (x forward, y up, z right).
_TO_MODEL = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])


def _turn(lam: float) -> np.ndarray:
    """Rotation by λ about the lateral z axis (tilts the vertical back by λ)."""
    c, s = np.cos(lam), np.sin(lam)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def benchmark_inertia(Ixx: float, Iyy: float, Izz: float, Ixz: float,
                      turn: float = 0.0) -> np.ndarray:
    """A benchmark inertia tensor [kg·m²] (Meijaard et al. 2007 axes) in the model's axes,
    optionally in axes turned by ``turn`` [rad] about the lateral axis (the steering frame)."""
    bench = np.array([[Ixx, 0.0, Ixz], [0.0, Iyy, 0.0], [Ixz, 0.0, Izz]])
    rot = _turn(turn).T @ _TO_MODEL
    return rot @ bench @ rot.T


class WhippleBicycle(Composite):
    """Rear frame (with a rigid rider), front fork and two thin wheels rolling without slip on
    the ground; the defaults are the benchmark bicycle of Meijaard et al. (2007), Table 1.

    Coordinates (9): rear-contact position ``x_s.s``, ``y_s.s`` [m] in the ground plane, the
    rear-wheel centre height ``height.s`` [m], yaw ``yaw.phi``, roll ``roll.phi``, pitch of
    the rear frame ``pitch.phi``, rear-wheel angle ``rear_spin.phi``, steer ``steer.phi``,
    front-wheel angle ``front_spin.phi`` [rad]. The two contact heights are holonomic (they
    fix ``height.s`` and ``pitch.phi``); the four no-slip conditions are not: f = 7 position
    and g = 3 velocity degrees of freedom (roll, steer and forward speed).

    Parameters: wheelbase w, trail c [m], steer-axis tilt lam [rad] (from the vertical);
    wheel radii R_rear, R_front [m] and masses m_rear, m_front [kg]; rear frame and rider
    mass m_frame [kg] with its centre of mass x_frame ahead of and h_frame above the rear
    contact [m]; fork and handlebar mass m_fork [kg] with its centre of mass x_fork, h_fork
    [m]. Inertias are the benchmark's.
    """

    def __init__(self, w: float = 1.02, c: float = 0.08, lam: float = np.pi / 10,
                 R_rear: float = 0.3, R_front: float = 0.35, m_rear: float = 2.0,
                 m_front: float = 3.0, m_frame: float = 85.0, x_frame: float = 0.3,
                 h_frame: float = 0.9, m_fork: float = 4.0, x_fork: float = 0.9,
                 h_fork: float = 0.7):
        super().__init__()
        self.x_s, self.y_s = Prismatic(axis=(1, 0, 0)), Prismatic(axis=(0, 0, -1))
        self.height, self.yaw = Prismatic(axis=(0, 1, 0)), Revolute(axis=(0, 1, 0))
        self.roll, self.pitch = Revolute(axis=(1, 0, 0)), Revolute(axis=(0, 0, 1))
        # Rear-frame points are taken from the rear-wheel centre; the head point lies on the
        # steering axis 1 m above where the axis meets the ground (the trail c ahead of the
        # front contact).
        head = np.array([w + c - np.sin(lam), np.cos(lam) - R_rear, 0.0])
        to_steer = _turn(lam).T
        self.frame = RigidBody(m=m_frame, r_cm=(x_frame, h_frame - R_rear, 0.0),
                               I=benchmark_inertia(9.2, 11.0, 2.8, 2.4))
        self.head = FixedRotation(axis=(0, 0, 1), angle=lam, r=tuple(head))
        self.steer = Revolute(axis=(0, 1, 0))
        self.fork = FixedTranslation(r=tuple(to_steer @ ([w, R_front - R_rear, 0.0] - head)))
        self.fork_body = RigidBody(
            m=m_fork, r_cm=tuple(to_steer @ ([x_fork, h_fork - R_rear, 0.0] - head)),
            I=benchmark_inertia(0.05892, 0.06, 0.00708, -0.00756, turn=lam))
        chain = [self.x_s, self.y_s, self.height, self.yaw, self.roll, self.pitch, self.head,
                 self.steer, self.fork]
        for a, b in zip(chain, chain[1:]):
            self.connect(a.frame_b, b.frame_a)
        self.connect(self.pitch.frame_b, self.frame.frame_a)
        self.connect(self.steer.frame_b, self.fork_body.frame_a)
        self._wheel("rear", self.pitch.frame_b, R_rear, m_rear, (0.0603, 0.12))
        self._wheel("front", self.fork.frame_b, R_front, m_front, (0.1405, 0.28))
        self.expose(self.x_s.frame_a, "frame_a")

    def _wheel(self, side: str, hub, R: float, m: float, inertia: tuple) -> None:
        """A thin wheel (diametral and axial inertia [kg·m²]) spinning about the hub's z axis
        and rolling on the ground."""
        spin = self.add(f"{side}_spin", Revolute(axis=(0, 0, -1)))
        body = self.add(f"{side}_wheel", RigidBody(m=m, I=(inertia[0], inertia[0], inertia[1])))
        contact = self.add(f"{side}_contact", RollingContact(R=R, axis=(0, 0, 1)))
        self.connect(hub, spin.frame_a)
        self.connect(spin.frame_b, body.frame_a)
        self.connect(spin.frame_b, contact.frame_a)
